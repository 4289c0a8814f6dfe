"""Lazy SMP (pbrain/search/smp.py): helper processes share the hash table, search their own depths, and never outlive a
think; `INFO thread_num` turns them on."""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import List

import pytest

from pbrain.engine import Engine, Limits
from pbrain.search import smp
from pbrain.search.searcher import SKIP_PHASE, SKIP_SIZE
from pbrain.search.tt import TranspositionTable
from tests.brains import ProcessBrain, SessionBrain

pytestmark = pytest.mark.skipif(not smp.available(), reason="helper processes need os.fork")
ROOT = Path(__file__).resolve().parent.parent
BOUND_EXACT = 3
OPENING = [(7, 7), (8, 8), (6, 8), (8, 6), (8, 7), (6, 6)]
QUIET = [(6, 9), (9, 6), (9, 8), (10, 6), (7, 9), (10, 5), (8, 9), (9, 9), (6, 8), (10, 7), (10, 8)]


def alive(pid: int) -> bool:
    """Does process `pid` exist (and is it no zombie)?"""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def in_child(work) -> int:
    """Run `work()` in a forked process; its exit status."""
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_a_shared_table_is_written_by_a_forked_process() -> None:
    shared = TranspositionTable(1 << 16, shared=True)
    private = TranspositionTable(1 << 16)
    assert in_child(lambda: (shared.store(4242, 17, 5, 8, BOUND_EXACT, 0),
                             private.store(4242, 17, 5, 8, BOUND_EXACT, 0))) == 0
    assert shared.probe(4242, 0) and (shared.move, shared.score, shared.depth) == (17, 5, 8)
    assert not private.probe(4242, 0)


def test_a_torn_entry_is_not_read() -> None:
    # The key is kept XOR the data word: an entry whose data word another process overwrote without its key (or
    # the other way round) no longer matches, so no move or score of another position is ever read.
    table = TranspositionTable(1 << 16)
    key = (3 << 40) | 10
    table.store(key, 17, 5, 8, BOUND_EXACT, 0)
    assert table.probe(key, 0)
    data_word = (key & (table.size - 2)) * 16 + 8
    table.pages[data_word] ^= 0x01  # one byte of the move changed after the key was written
    assert not table.probe(key, 0)


def test_a_helper_searches_its_own_depths() -> None:
    engine = Engine(15, 15, memory_bytes=64 << 20)
    for move in OPENING:
        engine.play(*move)
    engine.searcher.helper = 1
    depths: List[int] = []
    engine.think(Limits(max_depth=8), on_info=lambda info: depths.append(info.depth))
    engine.searcher.helper = 0
    moves = len(OPENING)
    skipped = [d for d in range(2, 8) if ((d + moves + SKIP_PHASE[0]) // SKIP_SIZE[0]) % 2 == 1]
    assert skipped, "the schedule skips some depths"
    assert depths == [d for d in range(1, 9) if d not in skipped]


def test_what_a_helper_finds_serves_the_main_search() -> None:
    # A node budget keeps each think to its own process (no live helper): a search with a live helper beside it
    # took 6,656-19,772 nodes from run to run, and a fast helper once made the "alone" search too small to compare.
    limits = Limits(max_depth=9, max_nodes=10**9)

    def engine() -> Engine:
        fresh = Engine(15, 15, memory_bytes=64 << 20)
        fresh.set_threads(2)
        for move in OPENING:
            fresh.play(*move)
        fresh.prepare()
        return fresh

    alone = engine().think(limits)
    helped = engine()

    def helper() -> None:
        helped.searcher.helper = 1
        helped.think(limits)

    assert in_child(helper) == 0
    result = helped.think(limits)
    assert result.depth == alone.depth == 9
    assert result.nodes < alone.nodes / 2, "the main search read the helper's entries"


def test_helpers_are_gone_when_their_context_ends() -> None:
    with smp.Helpers(2, lambda k: time.sleep(60)) as helpers:
        pids = list(helpers.pids)
        assert len(pids) == 2 and all(alive(pid) for pid in pids)
    assert not any(alive(pid) for pid in pids)
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reaped too: no zombie left behind


def test_a_helper_dies_with_the_thread_that_forked_it() -> None:
    pids: List[int] = []

    def fork_and_leave() -> None:
        helpers = smp.Helpers(1, lambda k: time.sleep(60))
        helpers.__enter__()
        pids.extend(helpers.pids)
        time.sleep(0.2)  # the thread ends without stopping them (an END while thinking), but not at once

    thread = threading.Thread(target=fork_and_leave)
    thread.start()
    thread.join()
    deadline = time.monotonic() + 5
    while alive(pids[0]) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive(pids[0])
    os.waitpid(pids[0], 0)


def test_two_threads_think_and_stop_in_time() -> None:
    before = set(children_of(os.getpid()))
    engine = Engine(15, 15, memory_bytes=64 << 20)
    engine.set_threads(2)
    for move in QUIET:
        engine.play(*move)
    result = engine.think(Limits(turn_ms=300))
    assert result.move is not None and result.depth >= 1
    assert engine.board.stone(engine.board.index(*result.move)) == 0
    stop = threading.Event()
    timer = threading.Timer(0.5, stop.set)
    timer.start()
    started = time.perf_counter()
    result = engine.think(Limits(turn_ms=60_000), stop=stop)
    late_ms = (time.perf_counter() - started - 0.5) * 1000
    assert result.move is not None and late_ms < 100
    assert set(children_of(os.getpid())) <= before, "no helper left running or unreaped"


def test_a_node_limited_think_searches_alone() -> None:
    # Reproducible thinks (node limits: tests, levels, bench) give the same answer whatever the thread count.
    def think(threads: int):
        engine = Engine(15, 15, memory_bytes=64 << 20)
        engine.set_threads(threads)
        for move in QUIET:
            engine.play(*move)
        return engine.think(Limits(max_nodes=40_000))

    one, two = think(1), think(2)
    assert (one.move, one.score, one.nodes) == (two.move, two.score, two.nodes)


def test_info_thread_num_sets_the_engines_processes() -> None:
    with SessionBrain(Engine) as brain:
        brain.line("INFO thread_num 2")
        brain.line("START 15")
        assert brain.reply() == "OK"
        assert brain.session.engine.threads == 2
        brain.line("INFO thread_num 0")
        brain.line("ABOUT")
        assert "name=" in brain.reply()
        assert brain.session.engine.threads == 1
        brain.line("INFO thread_num 3")
        brain.line("INFO timeout_turn 300")
        brain.line("BEGIN")
        move = brain.reply(timeout=5)
        assert move.count(",") == 1
        assert brain.session.engine.threads == 3


def test_end_while_helpers_search_ends_them_too() -> None:
    argv = [sys.executable, "-m", "pbrain"]
    with ProcessBrain(argv, cwd=ROOT) as brain:
        for line in ["INFO thread_num 2", "START 15", "INFO timeout_turn 60000", "BOARD"] + [
                f"{x},{y},{1 + (len(QUIET) - i) % 2}" for i, (x, y) in enumerate(QUIET)] + ["DONE"]:
            brain.line(line)
        deadline = time.monotonic() + 10
        helpers: List[int] = []
        while not helpers and time.monotonic() < deadline:
            time.sleep(0.05)
            helpers = children_of(brain.pid)
        assert helpers, "a helper process searches beside the brain"
        brain.line("END")
        assert brain.wait_exit(2.0)
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in helpers) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any(alive(pid) for pid in helpers)


def children_of(pid: int) -> List[int]:
    """The child processes of `pid` (Linux /proc)."""
    found: List[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            pass
    return found
