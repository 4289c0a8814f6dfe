"""Label positions with an analyst brain's evaluation: any Gomocup brain that reports its score in MESSAGE lines.

Game results are a weak label for a static evaluation (one bit per game, decided many moves later); a deeper search's
score of the very position is a strong one. This samples quiet positions from game records (tuning.games' JSON lines,
or SGF files as c-gomoku-cli and Piskvork write them), sends each to one or more copies of an analyst brain over the
protocol (BOARD ... DONE at a fixed turn time), and writes one JSON line per position:
{"rule", "size", "moves", "winner", "game", "eval", "best"} where "moves" leads to the position, "game" names the game
it comes from (so that training and validation sets can keep a game's positions together), "eval" is the analyst's last
reported score for the side to move (an integer, or a mate string such as "+M13" / "-M8") and "best" the move it chose
([x, y]: what tuning.policy fits the move ordering to). With `--as-is` each record is one position, labelled as its
moves leave it, quiet or not (tuning.leaves writes such records: the positions the search evaluates at its leaves).

    python -m tuning.label games.jsonl more.sgf --brain /path/to/pbrain-x --turn-ms 50 --workers 2 --out labels.jsonl
"""
from __future__ import annotations

import argparse
import hashlib
import json
import queue
import random
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

from pbrain.core.board import Board
from pbrain.core.rules import Rule, RuleError, protocol_value, rule_from_protocol
from tuning.positions import quiet

Point = Tuple[int, int]
EVAL_PATTERN = re.compile(r"(?:\bEval|\bev)\s+([+-]?M?\d+)")
"""A score in a MESSAGE line: Rapfi-style 'Eval 123' / 'Eval +M13' or Pentad-style 'ev -45'."""
_SGF_GAME = re.compile(r"\(;(.*?)\)", re.S)
_SGF_PROPERTY = re.compile(r"([A-Z]{1,2})\[([^\]]*)\]")
_SGF_MOVE = re.compile(r";([BW])\[([a-z])([a-z])\](?:C\[([^\]]*)\])?")


def read_sgf(text: str) -> Iterator[dict]:
    """The games of an SGF collection as records like tuning.games' ({"rule", "size", "opening", "moves",
    "winner"}, and "players": the black and the white player's names); moves commented 'opening move' are the
    opening. Games of unknown rules are skipped."""
    for body in _SGF_GAME.findall(text):
        header = dict(_SGF_PROPERTY.findall(body.split(";", 1)[0]))
        try:  # match runners write the protocol's rule number in RU
            rule = rule_from_protocol(int(header.get("RU", "0") or 0)).name.lower()
        except (RuleError, ValueError):
            continue
        moves: List[List[int]] = []
        opening: List[List[int]] = []
        for _, col, row, comment in _SGF_MOVE.findall(body):
            move = [ord(col) - ord("a"), ord(row) - ord("a")]
            moves.append(move)
            if comment == "opening move" and len(opening) == len(moves) - 1:
                opening.append(move)
        result = header.get("RE", "")
        winner = 1 if result.startswith("B+") else 2 if result.startswith("W+") else 0
        yield {"rule": rule, "size": int(header.get("SZ", "15")), "opening": opening, "moves": moves,
               "winner": winner, "players": [header.get("PB", ""), header.get("PW", "")]}


def games_lost_by(records: Iterable[dict], name: str) -> Iterator[Tuple[int, dict, int]]:
    """(game number from 1 among `records`, record, the player's colour: 1 black, 2 white) for each game that the
    player called `name` (in "players") lost."""
    for number, record in enumerate(records, 1):
        players = record.get("players", ["", ""])
        if name not in players:
            continue
        player = players.index(name) + 1
        if record["winner"] not in (0, player):
            yield number, record, player


def read_records(paths: Sequence[Path]) -> Iterator[dict]:
    """Game records from JSON-lines files and SGF files (by suffix)."""
    for path in paths:
        text = path.read_text()
        if path.suffix.lower() == ".sgf":
            yield from read_sgf(text)
        else:
            yield from (json.loads(line) for line in text.splitlines() if line.strip())


def sample_positions(record: dict, per_game: int, rng: random.Random, max_ply: int = 0) -> List[int]:
    """Up to `per_game` ply counts of quiet positions after the opening (positions.quiet), drawn at random; with
    `max_ply` > 0 only positions of at most that many stones."""
    rule = Rule[record["rule"].upper()]
    board = Board(record["size"], record["size"], int(rule))
    plies = []
    for ply, (x, y) in enumerate(record["moves"]):
        if 0 < max_ply < ply:
            break
        if ply >= len(record["opening"]) and quiet(board):
            plies.append(ply)
        board.play(x, y)
    return sorted(rng.sample(plies, min(per_game, len(plies))))


class Analyst:
    """One analyst brain process: send a position, read its last reported score."""

    def __init__(self, command: Sequence[str], turn_ms: int, cwd: Optional[Path] = None,
                 options: Sequence[str] = (), before_each: Sequence[str] = ()) -> None:
        """Start `command` in `cwd` (default: the executable's folder, where managers run a brain: its
        configuration files are there). `options`: more lines sent after the INFO lines of a new game (such as
        `INFO max_node 300000`, for a reproducible analyst); `before_each`: lines sent before every position
        (such as `YXHASHCLEAR`, so that one position's search does not depend on the one before)."""
        folder = cwd if cwd is not None else Path(command[0]).parent
        self.process = subprocess.Popen(list(command), cwd=folder, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: "queue.Queue[str]" = queue.Queue()
        self.turn_ms = turn_ms
        self.options = list(options)
        self.before_each = list(before_each)
        self.started: Optional[Tuple[int, str]] = None
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put("")  # end of output

    def _send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def _read(self, timeout: float) -> str:
        line = self.lines.get(timeout=timeout)
        if line == "" and self.process.poll() is not None:
            raise RuntimeError("the analyst brain exited")
        return line

    def _start(self, size: int, rule: str) -> None:
        if self.started == (size, rule):
            return
        self._send(f"START {size}")
        while not self._read(30).startswith("OK"):
            pass
        for line in (f"INFO rule {protocol_value(Rule[rule.upper()])}", f"INFO timeout_turn {self.turn_ms}",
                     "INFO timeout_match 1000000000",
                     "INFO time_left 1000000000", *self.options):
            self._send(line)
        self.started = (size, rule)

    def evaluate(self, size: int, rule: str, moves: Sequence[Sequence[int]]) -> Optional[str]:
        """The analyst's last reported score for the side to move after `moves` (None if it reported none)."""
        return self.analyse(size, rule, moves)[0]

    def analyse(self, size: int, rule: str, moves: Sequence[Sequence[int]]) -> Tuple[Optional[str], List[int]]:
        """The analyst's last reported score for the side to move after `moves` (None if it reported none) and
        the move it answers, [x, y]. A BOARD that the brain dropped (some brains ignore commands that arrive while
        a search winds down, and then answer each stone line with an ERROR) is sent again, up to three times."""
        self._start(size, rule)
        for _ in range(3):
            for line in self.before_each:
                self._send(line)
            self._send("BOARD")
            for i, (x, y) in enumerate(moves):
                self._send(f"{x},{y},{1 if (len(moves) - i) % 2 == 0 else 2}")
            self._send("DONE")
            score = None
            while True:
                line = self._read(60 + self.turn_ms / 100)
                match = EVAL_PATTERN.search(line) if line.startswith("MESSAGE") else None
                if match:
                    score = match.group(1)
                elif re.fullmatch(r"\d+,\d+", line):
                    return score, [int(v) for v in line.split(",")]
                elif line.startswith("ERROR") and "DONE" in line:
                    break
        raise RuntimeError("the analyst brain does not take the position")

    def close(self) -> None:
        """END the brain (kill it if it does not exit)."""
        try:
            self._send("END")
            self.process.wait(2)
        except Exception:  # noqa: BLE001 - a dead or stuck analyst is killed either way
            self.process.kill()


def _record_key(record: dict) -> tuple:
    return record["rule"], record["size"], tuple(map(tuple, record["moves"]))


def game_id(record: dict) -> str:
    """A short name of a record: a hash of its rule, size and moves."""
    return hashlib.sha1(repr(_record_key(record)).encode()).hexdigest()[:12]


def distinct_records(records: Iterable[dict], rule: Optional[str] = None) -> Iterator[dict]:
    """Each record once (by rule, size and moves), of `rule` only when given."""
    seen = set()
    for record in records:
        key = _record_key(record)
        if (rule and record["rule"] != rule) or key in seen:
            continue
        seen.add(key)
        yield record


def sampled_jobs(records: Iterable[dict], per_game: int, rng: random.Random, max_ply: int = 0,
                 rule: Optional[str] = None) -> List[dict]:
    """Labelling jobs for up to `per_game` quiet positions of each distinct game (sample_positions), of `rule`
    only when given; "game" names the game (game_id)."""
    return [{"rule": record["rule"], "size": record["size"], "moves": record["moves"][:ply],
             "winner": record["winner"], "game": game_id(record)}
            for record in distinct_records(records, rule)
            for ply in sample_positions(record, per_game, rng, max_ply)]


def as_is_jobs(records: Iterable[dict], rule: Optional[str] = None) -> List[dict]:
    """One labelling job per record, for the position its moves lead to (tuning.leaves' records): each distinct
    position once, of `rule` only when given; "game" kept from the record (or game_id)."""
    return [{"rule": record["rule"], "size": record["size"], "moves": record["moves"],
             "winner": record.get("winner", 0), "game": record.get("game") or game_id(record)}
            for record in distinct_records(records, rule)]


def start_analyst(command: Sequence[str], turn_ms: int, cwd: Optional[Path] = None, max_nodes: int = 0) -> Analyst:
    """An analyst brain; `max_nodes` > 0: it searches each position to that many nodes (INFO max_node) from a
    cleared hash table (YXHASHCLEAR), so its labels do not depend on the machine's load (the turn time is then
    only a ceiling)."""
    options = [f"INFO max_node {max_nodes}"] if max_nodes > 0 else []
    before_each = ["YXHASHCLEAR"] if max_nodes > 0 else []
    return Analyst(command, turn_ms, cwd, options, before_each)


def label_all(jobs: Sequence[dict], command: Sequence[str], turn_ms: int, workers: int,
              cwd: Optional[Path] = None, max_nodes: int = 0) -> Iterator[dict]:
    """Each job ({"rule", "size", "moves", "winner"}) with the analyst's "eval" and its chosen move "best" ([x, y])
    added, `workers` brains in parallel (start_analyst: `max_nodes` > 0 searches each position to that many nodes);
    yields in finishing order."""
    local = threading.local()
    analysts: List[Analyst] = []
    lock = threading.Lock()

    def work(job: dict) -> dict:
        if not hasattr(local, "analyst"):
            local.analyst = start_analyst(command, turn_ms, cwd, max_nodes)
            with lock:
                analysts.append(local.analyst)
        score, best = local.analyst.analyse(job["size"], job["rule"], job["moves"])
        return dict(job, eval=score, best=best)

    try:
        with ThreadPoolExecutor(workers) as pool:
            yield from pool.map(work, jobs)
    finally:
        for analyst in analysts:
            analyst.close()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: game files in, labelled positions (JSON lines, appended) out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, nargs="+", help="JSON-lines (tuning.games) or SGF game files")
    parser.add_argument("--brain", required=True, help="the analyst's command line (a Gomocup brain)")
    parser.add_argument("--turn-ms", type=int, default=100, help="the analyst's time per position")
    parser.add_argument("--max-node", type=int, default=0,
                        help="the analyst's node budget per position (INFO max_node; 0: the turn time alone)")
    parser.add_argument("--per-game", type=int, default=10, help="positions sampled from each game")
    parser.add_argument("--max-ply", type=int, default=0,
                        help="only positions of at most this many stones (the opening and middle game; 0: all)")
    parser.add_argument("--rule", default=None, help="only games of this rule")
    parser.add_argument("--workers", type=int, default=1, help="analyst processes in parallel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--as-is", action="store_true",
                        help="each record is one position (tuning.leaves): label the position its moves lead to")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    if args.as_is:
        jobs = as_is_jobs(read_records(args.games), args.rule)
    else:
        jobs = sampled_jobs(read_records(args.games), args.per_game, rng, args.max_ply, args.rule)
    print(f"{len(jobs)} positions to label", file=sys.stderr)
    started = time.time()
    with args.out.open("a") as out:
        for count, job in enumerate(label_all(jobs, args.brain.split(), args.turn_ms, args.workers,
                                                  max_nodes=args.max_node), 1):
            out.write(json.dumps(job) + "\n")
            if count % 1000 == 0:
                out.flush()
                print(f"{count} labelled, {time.time() - started:.0f} s", file=sys.stderr)
    print(f"{len(jobs)} positions in {time.time() - started:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
