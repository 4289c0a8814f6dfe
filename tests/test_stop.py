"""A stop is honoured within 50 ms in every phase of a think: the root threat searches, the defence filter, the
main search, and YXNBEST through the session. Each test makes one phase long (the searcher's budgets are its
public knobs) and sets the stop from another thread while that phase runs."""
from __future__ import annotations

import threading
import time
from typing import Tuple

import pytest

from pbrain.engine import Engine, Limits, SearchResult
from tests.brains import SessionBrain
from tests.tactics import engine_of, load

pytestmark = pytest.mark.usefixtures("no_collector_pauses")

STOP_MS = 50
"""What the issue asks; the assertion allows twice that for a busy test machine."""
QUIET = [(6, 9), (9, 6), (9, 8), (10, 6), (7, 9), (10, 5), (8, 9), (9, 9), (6, 8), (10, 7), (10, 8)]
"""A freestyle middle game (the opponent has a short VCT: the defence filter keeps a few moves)."""
LONG_VCT = [(5, 6), (9, 7), (9, 6), (8, 6), (7, 5), (7, 7), (8, 7), (6, 8), (5, 9), (6, 9), (6, 7), (7, 8), (5, 8),
            (5, 7)]
"""A freestyle middle game where the side to move's proof-number VCT runs on for seconds (3 s, 700 k nodes)."""
VCT_WIN = next(item for item in load("tactics.json", "vct") if item["rule"] == "FREESTYLE")


def stopped_after(engine: Engine, delay_s: float, **knobs: int) -> Tuple[float, SearchResult]:
    """Think for a 60 s turn, set the stop after `delay_s`; how long the answer took after the stop (ms)."""
    for name, value in knobs.items():
        setattr(engine.searcher, name, value)
    stop = threading.Event()
    timer = threading.Timer(delay_s, stop.set)
    timer.start()
    started = time.perf_counter()
    result = engine.think(Limits(turn_ms=60_000), stop=stop)
    late_ms = (time.perf_counter() - started - delay_s) * 1000
    timer.cancel()
    return late_ms, result


def quiet_engine() -> Engine:
    engine = Engine(15, 15, memory_bytes=64 << 20)
    for move in QUIET:
        engine.play(*move)
    return engine


def test_stop_during_the_root_vct() -> None:
    engine = Engine(15, 15, memory_bytes=64 << 20)
    for move in LONG_VCT:
        engine.play(*move)
    late_ms, result = stopped_after(engine, 0.2, root_vct_nodes=10 ** 9)
    assert result.depth == 0 and result.move is not None, "stopped before the main search, still a move"
    assert late_ms < 2 * STOP_MS


def test_stop_during_the_defence_filter() -> None:
    engine = engine_of(VCT_WIN)
    engine.set_position(engine.stones(), 3 - VCT_WIN["side"])  # the defender to move: the opponent has a VCT
    late_ms, result = stopped_after(engine, 0.2, root_vct_nodes=0, defence_vcf_nodes=10 ** 9,
                                    defence_vct_nodes=10 ** 9)
    assert result.depth == 0 and result.move is not None
    assert late_ms < 2 * STOP_MS


def test_stop_during_the_main_search() -> None:
    # The threat phase before the main search is kept short by its node knobs (about 0.5 s on a quiet 2-core
    # machine with these), and the stop comes well after it, so it lands in the main search on a busy machine too.
    late_ms, result = stopped_after(quiet_engine(), 1.5, root_vct_nodes=1000, defence_vct_nodes=200,
                                    defence_probe_max=1000)
    assert result.depth >= 1 and result.reason == "search"
    assert late_ms < 2 * STOP_MS


@pytest.mark.parametrize("stopper", ["YXSTOP", "STOP"])
def test_stop_during_yxnbest(stopper: str) -> None:
    with SessionBrain(Engine) as brain:
        for line in ["START 15", "INFO timeout_turn 60000", "YXBOARD"] + [
                f"{x},{y},{1 + (len(QUIET) - i) % 2}" for i, (x, y) in enumerate(QUIET)] + ["DONE"]:
            brain.line(line)
        assert brain.reply() == "OK"
        brain.line("YXNBEST 3")
        time.sleep(0.3)
        brain.line(stopper)
        sent = time.monotonic()
        move = brain.reply(timeout=5)
        assert (time.monotonic() - sent) * 1000 < 2 * STOP_MS
        assert move.count(",") == 1


def test_end_during_a_real_search_exits_at_once() -> None:
    with SessionBrain(Engine) as brain:
        for line in ["START 15", "INFO timeout_turn 60000", "BOARD"] + [
                f"{x},{y},{1 + (len(QUIET) - i) % 2}" for i, (x, y) in enumerate(QUIET)] + ["DONE"]:
            brain.line(line)
        assert brain.reply() == "OK"
        time.sleep(0.3)
        sent = time.monotonic()
        brain.line("END")
        assert brain.wait_exit(1.0)
        assert (time.monotonic() - sent) * 1000 < 2 * STOP_MS


FORCED = [(7, 7), (7, 6), (7, 8), (3, 3), (7, 9), (4, 9), (7, 10)]
"""Black has a four (7,7)-(7,10) blocked at (7,6): white's only move is (7,11)."""


def test_stop_while_pondering_after_a_forced_move() -> None:
    engine = Engine(15, 15, memory_bytes=64 << 20)
    for move in FORCED:
        engine.play(*move)
    late_ms, result = stopped_after(engine, 0.2)
    assert result.move == (7, 11) and result.reason == "defend"
    assert result.nodes > 0, "the turn was used to search the position after the block"
    assert late_ms < 2 * STOP_MS
