"""Matches between two Gomocup brains over the protocol: a new build of Pentad against an old one, at a node limit.

Every opening is played twice with the colours swapped; each game starts both brains afresh (nothing shared). With
`--nodes` (sent as `INFO max_node`, the turn time left unlimited) a game depends only on its opening and the two
builds, not on the machine's load, so several games run at once and a screen of a search change needs no quiet
machine. `--openings` takes an offset-format file (one opening a line, `x,y` offsets from the centre, black first,
as c-gomoku-cli reads them); without it the openings are random (`--stones` stones within 3 of the centre), which
are often won for one colour, so most pairs split 1-1 and say little. Prints the result table of the first brain
(wins / losses / draws, score, Elo difference with a 95 % interval) and how the pairs split.

    python benchmarks/brain_match.py "/path/new/run.sh" "/path/old/run.sh" --nodes 60000 --openings F --workers 2

A build under test is any command that starts a brain: a built executable, or a script that runs `python -P -m
pbrain` with PYTHONPATH set to a copy of the package (`-P`: not the current directory's package).
"""
from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
import threading
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import List, NamedTuple, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from connect4_match import elo  # noqa: E402

from pbrain.core.rules import RuleError, rule_from_protocol  # noqa: E402
from pbrain.engine import Engine, check_move  # noqa: E402
from pbrain.records import RecordError  # noqa: E402
from tuning.games import random_opening  # noqa: E402

Point = Tuple[int, int]
ANSWER_TIMEOUT_S = 120.0
"""A brain that gives no move in this long is killed and loses the game."""


class GameSpec(NamedTuple):
    """One game: the two brain commands (black's first), the opening, the board and the limits."""

    black: str
    white: str
    opening: Tuple[Point, ...]
    size: int
    rule: int
    nodes: int
    turn_ms: int


class BrainProcess:
    """A brain process spoken to line by line; protocol errors raise RuntimeError."""

    def __init__(self, command: str, spec: GameSpec) -> None:
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.started = False
        self.send(f"START {spec.size}")
        answer = self.read()
        if answer != "OK":
            raise RuntimeError(f"START {spec.size} answered {answer!r}")
        self.send(f"INFO rule {spec.rule}")
        self.send("INFO timeout_match 0")
        self.send(f"INFO timeout_turn {spec.turn_ms if spec.turn_ms > 0 else 1_000_000}")
        if spec.nodes > 0:
            self.send(f"INFO max_node {spec.nodes}")

    def send(self, line: str) -> None:
        """Write one protocol line."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        """The next line that is not a MESSAGE, DEBUG or SUGGEST line."""
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the brain exited")
            line = line.strip()
            if line and not line.startswith(("MESSAGE", "DEBUG", "SUGGEST")):
                return line

    def move(self, moves: Sequence[Point]) -> Point:
        """The brain's move in the position after `moves` (the whole game on its first turn, the last move after)."""
        if not self.started:
            self.started = True
            self.send("BOARD")
            for k, (x, y) in enumerate(moves):
                self.send(f"{x},{y},{1 if k % 2 == len(moves) % 2 else 2}")
            self.send("DONE")
        else:
            self.send("TURN {},{}".format(*moves[-1]))
        timer = threading.Timer(ANSWER_TIMEOUT_S, self.process.kill)
        timer.start()
        try:
            answer = self.read()
        except RuntimeError:
            raise RuntimeError(f"no move in {ANSWER_TIMEOUT_S:g} s" if not timer.is_alive() else
                               "the brain exited") from None
        finally:
            timer.cancel()
        try:
            x, y = (int(v) for v in answer.split(","))
        except ValueError:
            raise RuntimeError(f"not a move: {answer!r}") from None
        return x, y

    def close(self) -> None:
        """Send END and make sure the process is gone."""
        try:
            self.send("END")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def play_game(spec: GameSpec) -> dict:
    """Play one game; its record: moves, winner (1 black, 2 white, 0 draw) and how it ended."""
    referee = Engine(spec.size, spec.size, rule_from_protocol(spec.rule), memory_bytes=1 << 20)
    moves: List[Point] = list(spec.opening)
    for x, y in moves:
        referee.play(x, y)
    brains: List[Optional[BrainProcess]] = [None, None]
    winner, reason = 0, "board full"
    try:
        brains = [BrainProcess(spec.black, spec), BrainProcess(spec.white, spec)]
        while len(moves) < spec.size * spec.size:
            side = len(moves) % 2
            try:
                x, y = brains[side].move(moves)  # type: ignore[union-attr]
            except RuntimeError as error:
                winner, reason = 2 - side, f"{'black' if side == 0 else 'white'}: {error}"
                break
            try:
                check_move(referee, len(moves) + 1, x, y)
            except RecordError:
                winner, reason = 2 - side, f"{'black' if side == 0 else 'white'}: illegal move {x},{y}"
                break
            moves.append((x, y))
            referee.play(x, y)
            if referee.last_move_wins():
                winner, reason = side + 1, "five"
                break
    finally:
        for brain in brains:
            if brain is not None:
                brain.close()
    return {"black": spec.black, "white": spec.white, "moves": moves, "winner": winner, "reason": reason}


def read_openings(path: Path, size: int) -> List[Tuple[Point, ...]]:
    """Openings from an offset-format file: `x,y` offsets from the centre, black first, one opening a line (lines
    starting with # are comments)."""
    centre = size // 2
    found = []
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("#"):
            continue
        numbers = [int(t) for t in line.replace(",", " ").split()]
        if numbers:
            found.append(tuple((centre + numbers[i], centre + numbers[i + 1]) for i in range(0, len(numbers) - 1, 2)))
    return found


def first_score(record: dict, first_is_black: bool) -> float:
    """The first brain's points in a game: 1, 0.5 or 0."""
    if record["winner"] == 0:
        return 0.5
    return 1.0 if (record["winner"] == 1) == first_is_black else 0.0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", help="command that starts the first brain")
    parser.add_argument("second", help="command that starts the second brain")
    parser.add_argument("--pairs", type=int, default=0, help="openings to play, each twice (default: all in the file, "
                                                              "or 50 random ones)")
    parser.add_argument("--nodes", type=int, default=60000, help="INFO max_node a move (0: none)")
    parser.add_argument("--time", type=int, default=0, help="INFO timeout_turn in ms (0: unlimited)")
    parser.add_argument("--openings", type=Path, default=None, help="offset-format openings file")
    parser.add_argument("--stones", type=int, default=3, help="stones in a random opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--rule", type=int, default=0, help="protocol rule number (0 freestyle, 1 standard, 4 renju)")
    parser.add_argument("--workers", type=int, default=1, help="games played at once")
    parser.add_argument("--out", type=Path, default=None, help="JSON-lines file of the games (overwritten)")
    args = parser.parse_args(argv)
    if args.nodes <= 0 and args.time <= 0:
        parser.error("give a node limit (--nodes) or a turn time (--time)")
    try:
        rule_from_protocol(args.rule)
    except RuleError as error:
        parser.error(str(error))
    if args.openings is not None:
        try:
            openings = read_openings(args.openings, args.size)
        except (OSError, ValueError) as error:
            parser.error(f"cannot read openings from {args.openings}: {error}")
        if not openings:
            parser.error(f"no openings in {args.openings}")
        pairs = args.pairs or len(openings)
        openings = [openings[k % len(openings)] for k in range(pairs)]
    else:
        rng = random.Random(args.seed)
        openings = [random_opening(rng, args.size, args.stones) for _ in range(args.pairs or 50)]
    specs = []
    for opening in openings:
        for black, white in ((args.first, args.second), (args.second, args.first)):
            specs.append(GameSpec(black, white, opening, args.size, args.rule, max(args.nodes, 0),
                                  max(args.time, 0)))
    out = args.out.open("w") if args.out is not None else None
    scores: List[float] = []
    reasons: Counter = Counter()
    pool = Pool(args.workers) if args.workers > 1 else None
    try:
        for record in (pool.imap(play_game, specs) if pool is not None else map(play_game, specs)):
            scores.append(first_score(record, len(scores) % 2 == 0))  # each pair: the first brain black, then white
            normal = record["reason"] in ("five", "board full")
            reasons[record["reason"] if normal else "error"] += 1
            if not normal:
                print(f"game {len(scores)}: {record['reason']}", file=sys.stderr)
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if out is not None:
        out.close()
    games = len(scores)
    wins, losses = scores.count(1.0), scores.count(0.0)
    score = sum(scores) / games
    diff, margin = elo(score, games)
    splits = Counter(scores[i] + scores[i + 1] for i in range(0, games - 1, 2))
    print("| first vs second | games | W | L | D | score | Elo |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {args.first} vs {args.second} | {games} | {wins} | {losses} | {games - wins - losses} | "
          f"{100 * score:.1f} % | {diff:+.0f} ± {margin:.0f} |")
    print("pairs (first's points over both colours): " +
          ", ".join(f"{points:g}: {count}" for points, count in sorted(splits.items())))
    print("endings: " + ", ".join(f"{reason}: {count}" for reason, count in sorted(reasons.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
