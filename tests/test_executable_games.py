"""The built brain in whole games and under abuse: a third-party client (pygomo), two brains against each other,
10,000 malformed lines, and its memory under INFO max_memory."""
from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.protocol import parser
from tests.brains import Brain, ProcessBrain, SessionBrain
from tests.reference import wins

pytestmark = pytest.mark.slow
TOLERANCE_MS = 1000
"""What Piskvork, GomocupJudge and c-gomoku-cli allow over the time limit before a loss on time."""
SIZE = 15
PROTOCOL_RULE = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}


class Referee:
    """The driver's own board: legality, wins (tests.reference) and renju fouls (the `renju` package)."""

    def __init__(self, rule: Rule, size: int = SIZE) -> None:
        self.rule, self.size = rule, size
        self.grid = [[0] * size for _ in range(size)]
        self.moves: List[Tuple[int, int]] = []
        self.forced_foul = False
        """Black played a forbidden point having no other (renju, a board all but full): it lost."""

    @property
    def to_move(self) -> int:
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    def play(self, move: str) -> bool:
        """Check and place the side to move's stone; True when the game is over: it wins, or black had only
        forbidden points left and played one (forced_foul). AssertionError on an illegal move."""
        assert re.fullmatch(r"\d+,\d+", move), f"not a move: {move!r}"
        x, y = map(int, move.split(","))
        assert 0 <= x < self.size and 0 <= y < self.size, f"{move} is off the board"
        assert self.grid[x][y] == 0, f"{move} is occupied"
        color = self.to_move
        won = wins(self.grid, x, y, color, self.rule)
        if self.rule is Rule.RENJU and color == BLACK and not won and self._foul(x, y):
            allowed = [(i, j) for i in range(self.size) for j in range(self.size)
                       if self.grid[i][j] == 0 and (wins(self.grid, i, j, BLACK, self.rule) or not self._foul(i, j))]
            assert not allowed, f"black played the forbidden point {move} where it may play {allowed[:3]}"
            self.forced_foul = True
        self.grid[x][y] = color
        self.moves.append((x, y))
        return won or self.forced_foul

    def _foul(self, x: int, y: int) -> bool:
        from renju.check_forbid import get_foul_type
        return get_foul_type(self.grid, x, y) != 0

    @property
    def full(self) -> bool:
        return len(self.moves) == self.size * self.size


def timed_reply(brain: Brain, turn_ms: int) -> Tuple[str, float]:
    """The brain's next reply and how long it took (from now, i.e. just after the command was sent)."""
    began = time.monotonic()
    move = brain.reply(timeout=(turn_ms + 5 * TOLERANCE_MS) / 1000)
    return move, (time.monotonic() - began) * 1000


def play_match(brains: "List[Brain]", rule: Rule, style: str, turn_ms: int = 200) -> Dict[str, object]:
    """One game between two brains through the protocol, in the style of one manager:
    'gomocupjudge' (no BEGIN: an empty BOARD, time_left before each move), 'piskvork' (BEGIN, TURN, timeout_match)
    or 'cgomokucli' (ABOUT, START waited for, INFO after it). Checks every move; returns the game's facts."""
    referee = Referee(rule)
    setup = [f"INFO timeout_turn {turn_ms}", "INFO timeout_match 600000", f"INFO rule {PROTOCOL_RULE[rule]}",
             "INFO max_memory 367001600", "INFO game_type 1"]
    match_left = [600000, 600000]
    for brain in brains:
        if style == "cgomokucli":
            brain.line("ABOUT")
            assert brain.reply().startswith('name="Pentad"')
        brain.line(f"START {SIZE}")
        if style != "gomocupjudge":
            assert brain.reply(timeout=3) == "OK"
        for line in setup:
            brain.line(line)
    if style == "gomocupjudge":
        for brain in brains:
            assert brain.reply(timeout=3) == "OK"
    slowest = 0.0
    result = "draw"
    last: Optional[str] = None
    while not referee.full:
        side = len(referee.moves) % 2
        brain = brains[side]
        if style in ("gomocupjudge", "cgomokucli"):
            brain.line(f"INFO time_left {match_left[side]}")
        if last is None:
            brain.line("BEGIN" if style != "gomocupjudge" else "BOARD")
            if style == "gomocupjudge":
                brain.line("DONE")
        else:
            brain.line(f"TURN {last}")
        move, elapsed = timed_reply(brain, turn_ms)
        match_left[side] -= int(elapsed)
        slowest = max(slowest, elapsed)
        assert elapsed <= turn_ms + TOLERANCE_MS, f"move {len(referee.moves) + 1} took {elapsed:.0f} ms: lost on time"
        if referee.play(move):
            result = "white" if referee.forced_foul or referee.to_move == BLACK else "black"
            break
        last = move
    for brain in brains:
        brain.line("END")
        assert brain.wait_exit(5)
        assert not brain.problems()
    return {"result": result, "moves": len(referee.moves), "slowest_ms": slowest}


def test_the_referee_scores_a_forced_foul_as_blacks_loss_and_any_other_foul_as_a_fault() -> None:
    pytest.importorskip("renju.check_forbid")
    from tests.test_renju import FULL_BUT_ONE

    def referee_for(rows: "List[str]") -> Referee:
        referee = Referee(Rule.RENJU)
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in "XO":
                    referee.grid[x][y] = BLACK if ch == "X" else WHITE
        referee.moves = [(0, 0)] * sum(row.count("X") + row.count("O") for row in rows)  # black to move
        return referee

    referee = referee_for(FULL_BUT_ONE)
    assert referee.play("3,7") and referee.forced_foul
    referee = referee_for(FULL_BUT_ONE[:14] + [FULL_BUT_ONE[14][:13] + ".."])
    with pytest.raises(AssertionError, match="forbidden point 3,7"):
        referee.play("3,7")


@pytest.mark.parametrize("rule,style", [(Rule.FREESTYLE, "gomocupjudge"), (Rule.STANDARD, "piskvork"),
                                        (Rule.RENJU, "cgomokucli")], ids=["freestyle", "standard", "renju"])
def test_two_brains_play_a_full_game(brain_exe: Path, tmp_path: Path, rule: Rule, style: str) -> None:
    with ProcessBrain([str(brain_exe)], cwd=tmp_path) as first, ProcessBrain([str(brain_exe)], cwd=tmp_path) as second:
        facts = play_match([first, second], rule, style)
    print(f"{rule.name.lower()} ({style}): {facts}")
    assert facts["moves"] >= 9


def test_pygomo_drives_full_games(brain_exe: Path, tmp_path: Path) -> None:
    """pygomo-lib, a client nobody here wrote, plays two brains against each other (freestyle and renju); its
    BitBoard finds the wins, the renju package checks black's moves."""
    pygomo = pytest.importorskip("pygomo")
    from pygomo.board import BitBoard

    for rule in (Rule.FREESTYLE, Rule.RENJU):
        board, referee = BitBoard(_size=SIZE), Referee(rule)
        clients = [pygomo.EngineClient(str(brain_exe), working_directory=str(tmp_path)) for _ in range(2)]
        try:
            for client in clients:
                assert client.start(SIZE)
                client.configure(timeout_turn=200, rule=PROTOCOL_RULE[rule])
                assert client.about().startswith('name="Pentad"')
            result = clients[0].begin(timeout=10)
            infos = 0
            for ply in range(SIZE * SIZE):
                assert result is not None, f"no move at ply {ply}"
                infos += len(result.all_info)
                referee.play(result.move.to_numeric())
                assert board.place(result.move)
                if board.check_win(result.move) or board.is_full():
                    break
                result = clients[(ply + 1) % 2].turn(result.move, timeout=10)
            assert board.move_count >= 9
            assert infos >= board.move_count // 2, "pygomo reads Pentad's MESSAGE line of nearly every move"
            print(f"pygomo, {rule.name.lower()}: {board.move_count} moves, winner {board.check_win()}")
        finally:
            for client in clients:
                client.quit()


# --- fuzz -------------------------------------------------------------------------------------------------------------
WORDS = ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "YXBOARD", "SWAP2BOARD", "INFO", "ABOUT",
         "TAKEBACK", "PLAY", "YXNBEST", "YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO", "YXSTOP", "STOP", "DONE",
         "YXSWAP2STEP1", "YXSWAP2STEP2", "YXSWAP2STEP3", "SUGGEST", "YXBLOCK", "YXQUERYDATABASEALL", "begin",
         "turn", "board", "info"]
INFO_KEYS = ["timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule", "evaluate",
             "folder", "max_depth", "max_node", "thread_num", "hash_size", "pondering", "show_detail",
             "caution_factor", "strength", "TIMEOUT_TURN", "bogus", ""]


def _number(rng: random.Random) -> str:
    return rng.choice([str(rng.randint(-3, 40)), str(rng.randint(0, 20)), "99999999999999999999999", "-0",
                       "+7", "x", "", "1e3", "0x10", "٣", str(rng.randint(0, 2 ** 40))])


def _point(rng: random.Random) -> str:
    return rng.choice([f"{rng.randint(0, 21)},{rng.randint(0, 21)}", f"{_number(rng)},{_number(rng)}",
                       f"{rng.randint(0, 14)},{rng.randint(0, 14)},{rng.randint(0, 4)}", _number(rng),
                       f"{rng.randint(0, 14)} , {rng.randint(0, 14)}"])


def _junk(rng: random.Random) -> bytes:
    size = rng.choice([1, 5, 40, 300])
    return bytes(rng.randrange(256) for _ in range(size)).replace(b"\n", b"")


def _valid_command(rng: random.Random) -> List[str]:
    """A well-formed command (which may still be refused: occupied points, wrong stone counts, no game)."""
    x, y = rng.randint(0, 14), rng.randint(0, 14)
    choice = rng.randrange(12)
    if choice == 0:
        return [rng.choice(["START 15", "START 20", "START 5", f"START {rng.randint(5, 32)}", "RESTART",
                            f"RECTSTART {rng.randint(5, 32)},{rng.randint(5, 32)}"])]
    if choice in (1, 2, 3):
        return [f"TURN {x},{y}"]
    if choice == 4:
        stones = rng.sample([(a, b) for a in range(15) for b in range(15)], rng.randint(0, 20))
        word = rng.choice(["BOARD", "YXBOARD"])
        return [word] + [f"{a},{b},{rng.choice((1, 2))}" for a, b in stones] + ["DONE"]
    if choice == 5:
        stones = rng.sample([(a, b) for a in range(15) for b in range(15)], rng.choice([0, 3, 5]))
        return ["SWAP2BOARD"] + [f"{a},{b}" for a, b in stones] + ["DONE"]
    if choice == 6:
        return [rng.choice(["BEGIN", f"PLAY {x},{y}", f"TAKEBACK {x},{y}", f"YXNBEST {rng.randint(1, 5)}"])]
    if choice == 7:
        return [f"INFO rule {rng.choice([0, 1, 2, 4, 5, 6, 8, 9])}"]
    return [rng.choice(["ABOUT", "YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO", "YXSTOP", "STOP",
                        "YXSWAP2STEP1", "YXSWAP2STEP2", "YXSWAP2STEP3", f"INFO show_detail {rng.randint(0, 3)}"])]


def fuzz_lines(rng: random.Random, count: int) -> List[bytes]:
    """`count` random and malformed lines mixed with valid commands; never END, and time limits of at most
    20 ms so no search runs long."""
    lines: List[bytes] = []
    while len(lines) < count:
        kind = rng.random()
        if kind < 0.35:
            lines += [line.encode() for line in _valid_command(rng)]
        elif kind < 0.45:
            lines.append(_junk(rng))
        elif kind < 0.48:
            lines.append(rng.choice([b"", b"   ", b"\r", b"\t\t", b"A" * rng.choice([100, 70000])]))
        elif kind < 0.60:
            key = rng.choice(INFO_KEYS)
            value = str(rng.randint(0, 20)) if key.lower() in ("timeout_turn", "timeout_match") else _number(rng)
            lines.append(f"INFO {key} {value}".encode())
        elif kind < 0.72:
            word = rng.choice(["BOARD", "YXBOARD", "SWAP2BOARD", "board"])
            block = [word] + [_point(rng) for _ in range(rng.randint(0, 12))]
            if rng.random() < 0.8:
                block.append(rng.choice(["DONE", "done"]))
            lines += [line.encode() for line in block]
        else:
            word = rng.choice(WORDS)
            args = rng.choice(["", _point(rng), _number(rng), f"{_number(rng)} {_number(rng)}", "junk"])
            line = f"{word} {args}".encode()
            if rng.random() < 0.1:
                line += rng.choice([b"\r", b"\x00", b"\xff", b" \t"])
            lines.append(line)
    return lines[:count]


def _check_lines(lines: List[str]) -> None:
    for line in lines:
        assert parser.PROTOCOL_LINE.fullmatch(line), f"not a protocol line: {line!r}"
        assert "internal" not in line, line


def run_fuzz(brain: Brain, count: int, seed: int) -> List[str]:
    """Send the fuzz lines and a sentinel; then a forced win must still be played right."""
    rng = random.Random(seed)
    for line in [b"INFO timeout_turn 0"] + fuzz_lines(rng, count):
        brain.send(line + b"\n")
    sentinel = f"SENTINEL{seed}"
    brain.line(sentinel)
    seen = []
    while True:
        line = brain.reply(timeout=300, skip_chatter=False)
        seen.append(line)
        if line.startswith("UNKNOWN") and sentinel in line:
            break
    for line in ["INFO timeout_turn 1000", "INFO rule 0", "START 15", "BOARD", "5,7,1", "6,7,1", "7,7,1",
                 "8,7,1", "4,7,2", "0,0,2", "14,14,2", "0,14,2", "DONE"]:
        brain.line(line)
    tail = [brain.reply(timeout=10), brain.reply(timeout=10)]
    while tail[0].startswith("ERROR"):  # a pending INFO problem from the fuzz may come first
        tail = tail[1:] + [brain.reply(timeout=10)]
    assert tail == ["OK", "9,7"], tail
    _check_lines(seen + tail)
    return seen


def test_fuzz_the_executable(brain_exe: Path, tmp_path: Path) -> None:
    with ProcessBrain([str(brain_exe)], cwd=tmp_path) as brain:
        began = time.monotonic()
        seen = run_fuzz(brain, 10_000, seed=7)
        brain.line("END")
        assert brain.wait_exit(5)
        assert not brain.problems()
    kinds = {word: sum(1 for line in seen if line.startswith(word)) for word in ("ERROR", "UNKNOWN", "OK")}
    kinds["moves"] = sum(1 for line in seen if re.fullmatch(r"\d+,\d+", line))
    print(f"fuzz: 10000 lines in {time.monotonic() - began:.1f} s, {len(seen)} replies {kinds}")
    assert kinds["ERROR"] > 500 and kinds["UNKNOWN"] > 100 and kinds["OK"] > 100 and kinds["moves"] > 300


def test_fuzz_in_process() -> None:
    """The same abuse against the session in this process, where a failure comes with a traceback."""
    with SessionBrain() as brain:
        run_fuzz(brain, 3000, seed=11)
        assert not brain.problems()


# --- memory -----------------------------------------------------------------------------------------------------------
def process_tree(pid: int) -> List[int]:
    """`pid` and all its descendants (the onefile bundle runs the brain as a child of a small launcher)."""
    out = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    out += process_tree(int(child))
    except OSError:
        pass
    return out


def resident_bytes(pid: int) -> int:
    """VmRSS of one process, 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_memory_stays_under_max_memory_during_a_long_search(brain_exe: Path, tmp_path: Path) -> None:
    """INFO max_memory 64 MB, then a search on a 60-second turn stopped after 5 s: the resident memory of the
    whole process tree (the onefile launcher and the brain), sampled every 20 ms, stays under the limit."""
    limit = 64 * 1024 * 1024
    search_s = 5.0
    with ProcessBrain([str(brain_exe)], cwd=tmp_path) as brain:
        for line in ("START 15", f"INFO max_memory {limit}", "INFO timeout_turn 60000", "INFO timeout_match 0"):
            brain.line(line)
        assert brain.reply() == "OK"
        time.sleep(0.3)
        at_start = sum(resident_bytes(pid) for pid in process_tree(brain.pid))
        for line in ("BOARD", "7,7,1", "8,8,2", "6,8,1", "8,6,2", "9,7,1", "6,6,2", "7,9,1", "10,8,2", "DONE"):
            brain.line(line)
        peak, samples, stopped = at_start, 0, False
        began = time.monotonic()
        while True:
            line = brain.read_line(0.02)
            peak = max(peak, sum(resident_bytes(pid) for pid in process_tree(brain.pid)))
            samples += 1
            if line is not None and not line.startswith("MESSAGE"):
                break
            if not stopped and time.monotonic() - began >= search_s:
                brain.line("YXSTOP")
                stopped = True
            assert time.monotonic() - began < search_s + 5, "no move after YXSTOP"
        searched = time.monotonic() - began
        brain.line("END")
        assert brain.wait_exit(5)
    print(f"memory: {at_start / 2 ** 20:.1f} MB resident after START, peak {peak / 2 ** 20:.1f} MB during a "
          f"{searched:.1f} s search ({samples} samples), limit {limit / 2 ** 20:.0f} MB")
    assert peak < limit
