"""Move quality judged by a stronger brain: a screen for search and evaluation changes that needs no games.

A run of 100 games against PentaZen at 0.3 s a move spreads by about 9 points either way, so a change worth a few
points takes many hundreds of games to show. This judges moves instead of games: positions from game records; for
each, the move a build chooses with a fixed node budget (no clock, so the choice is reproducible); and an analyst
brain with a fixed node budget (Rapfi with `INFO max_node`, its hash cleared before each position) scoring the
position after each chosen move. Builds are compared on the same positions: only the positions where their moves
differ count, and the difference of the analyst's win probabilities is paired there.

    # 1. positions (from c-gomoku-cli's or Piskvork's SGF, or tuning.games' JSON lines)
    python benchmarks/move_loss.py positions /tmp/g/PentaZen.sgf --out /tmp/pos.jsonl
    # 2. each build's moves: run with the build's package first on the path (PYTHONPATH=<a copy of the package>)
    python benchmarks/move_loss.py choose /tmp/pos.jsonl --nodes 200000 --out /tmp/new.jsonl
    # 3. the analyst's verdict, the first moves file being the reference
    python benchmarks/move_loss.py judge /tmp/pos.jsonl /tmp/old.jsonl /tmp/new.jsonl \\
        --analyst /path/to/pbrain-rapfi --analyst-nodes 300000 --cache /tmp/judged.jsonl

The win probability of a score is sigmoid(score / --scale) (a mate: 0 or 1), from the mover's side after its move.
`judge` also says how much of each difference comes from positions decided by a forced win that one of the two moves
allows or finds (a mate score after one move and not after the other).

The gap to the analyst itself: its own move in each position, at the node budget it judges with, is a moves file
like any build's (`analyst`), and judging a build's moves against it says what the build loses a move and where:

    python benchmarks/move_loss.py analyst /tmp/pos.jsonl --analyst /path/to/pbrain-rapfi \
        --analyst-nodes 300000 --out /tmp/rapfi.jsonl
    python benchmarks/move_loss.py judge /tmp/pos.jsonl /tmp/new.jsonl /tmp/rapfi.jsonl --analyst ... --cache ...

(The analyst judging its own moves favours them somewhat: its search after its move follows the line it chose.)
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # appended, not prepended: `choose` must import the build that PYTHONPATH names

from pbrain.core.board import Board  # noqa: E402
from pbrain.core.rules import Rule  # noqa: E402

Moves = List[List[int]]


def position_key(moves: Sequence[Sequence[int]]) -> str:
    """A position's (or a position and move's) text key: its stones in order, 'x,y' separated by spaces."""
    return " ".join(f"{x},{y}" for x, y in moves)


def sample_positions(record: dict, min_stones: int, max_stones: int, game: int) -> List[dict]:
    """The positions of a game record with min_stones..max_stones stones, after its opening and at least two
    stones before its end, that are not already won (a five on the board or to make for the side to move)."""
    board = Board(record["size"], record["size"], int(Rule[record["rule"].upper()]))
    moves = record["moves"]
    found = []
    for ply, (x, y) in enumerate(moves):
        if ply >= max(min_stones, len(record.get("opening", []))) and ply <= len(moves) - 2 and ply <= max_stones:
            if not board.last_move_wins() and not any(board.is_win_move(c, board.side) for c in board.candidates()):
                found.append({"rule": record["rule"], "size": record["size"], "moves": moves[:ply], "game": game})
        board.play(x, y)
    return found


def win_probability(score: Optional[str], scale: float) -> Optional[float]:
    """An analyst's score for the side to move ('123', '+M9', '-M4') as a win probability; None stays None."""
    if score is None:
        return None
    if "M" in score:
        return 0.0 if score.startswith("-") else 1.0
    return 1.0 / (1.0 + math.exp(-int(score) / scale))


def paired(reference: Dict[int, float], other: Dict[int, float], moved: Dict[int, bool]) -> Tuple[int, float, float]:
    """(positions where the moves differ and both are judged, the mean of other - reference there, its standard
    error); `moved[i]` says whether position i's moves differ."""
    diffs = [other[i] - reference[i] for i in reference if i in other and moved.get(i)]
    if not diffs:
        return 0, 0.0, 0.0
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return len(diffs), mean, 0.0
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return len(diffs), mean, math.sqrt(variance / len(diffs))


def write_jsonl(path: Path, rows: Sequence[dict]) -> None:
    """Write `rows` to `path`, one JSON line each."""
    with open(path, "w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")


def read_jsonl(path: Path) -> List[dict]:
    """The JSON lines of a file ([] when it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def choose_moves(positions: Sequence[dict], nodes: int, turn_ms: int = 0) -> List[dict]:
    """The move the importable pbrain chooses in each position with a `nodes` budget and no clock, or (`turn_ms`
    > 0) with a turn of `turn_ms` milliseconds as the brain has under `INFO timeout_turn`."""
    from pbrain.engine import Engine, Limits

    chosen = []
    for index, position in enumerate(positions):
        engine = Engine(position["size"], position["size"], Rule[position["rule"].upper()])
        for x, y in position["moves"]:
            engine.play(x, y)
        result = engine.think(Limits(turn_ms=turn_ms) if turn_ms > 0 else Limits(max_nodes=nodes))
        chosen.append({"index": index, "move": list(result.move) if result.move else None,
                       "score": result.score, "depth": result.depth})
    return chosen


def forced_share(reference: Dict[int, float], other: Dict[int, float], moved: Dict[int, bool]
                 ) -> Tuple[int, float, int, float]:
    """Where the moves differ and both are judged: (how many are decided by a forced win that one of the two moves
    allows or finds, the sum of other - reference over them, how many are not, the sum over those). A forced win
    is a win probability of exactly 0 or 1 (a mate score, or a five on the board)."""
    forced = rest = 0
    forced_sum = rest_sum = 0.0
    for i, value in reference.items():
        if i not in other or not moved.get(i):
            continue
        difference = other[i] - value
        if difference != 0.0 and (value in (0.0, 1.0) or other[i] in (0.0, 1.0)):
            forced += 1
            forced_sum += difference
        else:
            rest += 1
            rest_sum += difference
    return forced, forced_sum, rest, rest_sum


def ask_analysts(analyst_factory, workers: int, items: Sequence, ask) -> None:
    """Call ask(analyst, item) for every item, `workers` at a time, each thread with its own analyst from
    `analyst_factory()` (made on the thread's first item); every analyst is closed at the end. `ask` is called from
    the pool's threads: what it records it must guard itself."""
    lock = threading.Lock()
    local = threading.local()
    analysts: list = []

    def work(item) -> None:
        if not hasattr(local, "analyst"):
            local.analyst = analyst_factory()
            with lock:
                analysts.append(local.analyst)
        ask(local.analyst, item)

    try:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            list(pool.map(work, items))
    finally:
        for analyst in analysts:
            analyst.close()


def analyst_moves(positions: Sequence[dict], analyst_factory, workers: int) -> List[dict]:
    """The analyst's own move in each position, as a moves file's rows ({"index", "move", "score"}: the score is
    the analyst's for the side to move before it), by analysts that `analyst_factory()` makes (one per worker;
    each has `analyse(size, rule, moves)` -> (score, [x, y]) and `close()`)."""
    rows: Dict[int, dict] = {}
    lock = threading.Lock()

    def ask(analyst, index: int) -> None:
        position = positions[index]
        score, move = analyst.analyse(position["size"], position["rule"], position["moves"])
        with lock:
            rows[index] = {"index": index, "move": move, "score": score}

    ask_analysts(analyst_factory, workers, range(len(positions)), ask)
    return [rows[i] for i in range(len(positions))]


def differing(files: Sequence[List[dict]]) -> set:
    """The position indexes where some moves file's move differs from the first file's."""
    first = {row["index"]: row["move"] for row in files[0]}
    return {row["index"] for chosen in files[1:] for row in chosen if row["move"] != first.get(row["index"])}


def judge(positions: Sequence[dict], files: Sequence[List[dict]], analyst_factory, scale: float,
          cache: Dict[str, Optional[str]], workers: int, on_new=None, only: Optional[set] = None
          ) -> List[Dict[int, float]]:
    """For each moves file, {position index: the mover's win probability after its chosen move}, by the analysts
    that `analyst_factory()` makes (one per worker; each has `evaluate(size, rule, moves)` and `close()`). `cache`
    maps position_key(moves after the move) to the analyst's score and is filled as it goes; `on_new(key, score)`
    sees each new entry. With `only`, just those position indexes."""
    files = [[row for row in chosen if only is None or row["index"] in only] for chosen in files]
    wanted: Dict[str, Tuple[dict, Moves]] = {}
    results: List[Dict[int, float]] = [{} for _ in files]
    decided: List[Dict[int, float]] = [{} for _ in files]
    for f, chosen in enumerate(files):
        for row in chosen:
            position = positions[row["index"]]
            if row["move"] is None:
                continue
            board = Board(position["size"], position["size"], int(Rule[position["rule"].upper()]))
            for x, y in position["moves"]:
                board.play(x, y)
            cell = board.index(*row["move"])
            if board.is_win_move(cell, board.side):
                decided[f][row["index"]] = 1.0
                continue
            after = position["moves"] + [row["move"]]
            key = position_key(after)
            if key not in cache:
                wanted[key] = (position, after)
    lock = threading.Lock()

    def ask(analyst, item: Tuple[str, Tuple[dict, Moves]]) -> None:
        key, (position, after) = item
        score = analyst.evaluate(position["size"], position["rule"], after)
        with lock:
            cache[key] = score
            if on_new is not None:
                on_new(key, score)

    ask_analysts(analyst_factory, workers, sorted(wanted.items()), ask)
    for f, chosen in enumerate(files):
        results[f].update(decided[f])
        for row in chosen:
            if row["move"] is None or row["index"] in results[f]:
                continue
            key = position_key(positions[row["index"]]["moves"] + [row["move"]])
            opponent = win_probability(cache.get(key), scale)
            if opponent is not None:
                results[f][row["index"]] = 1.0 - opponent
    return results


def _positions_command(args: argparse.Namespace) -> int:
    from tuning.label import read_records

    found = []
    for game, record in enumerate(read_records(args.games), 1):
        found.extend(sample_positions(record, args.min_stones, args.max_stones, game))
    write_jsonl(args.out, found)
    print(f"{len(found)} positions from {len({p['game'] for p in found})} games -> {args.out}")
    return 0


def _choose_command(args: argparse.Namespace) -> int:
    import pbrain

    positions = read_jsonl(args.positions)
    if args.workers > 1:
        from multiprocessing import Pool

        chunks = [positions[i::args.workers] for i in range(args.workers)]
        with Pool(args.workers) as pool:
            parts = pool.starmap(choose_moves, [(chunk, args.nodes, args.turn_ms) for chunk in chunks])
        chosen = []
        for w, part in enumerate(parts):
            for row in part:
                row["index"] = row["index"] * args.workers + w
                chosen.append(row)
        chosen.sort(key=lambda row: row["index"])
    else:
        chosen = choose_moves(positions, args.nodes, args.turn_ms)
    write_jsonl(args.out, chosen)
    print(f"{len(chosen)} moves by {Path(pbrain.__file__).parent} (compiled: {pbrain.compiled()}) -> {args.out}")
    return 0


def _analyst_factory(args: argparse.Namespace):
    """Makes analysts as the command line says: a node budget from a cleared hash, or a turn time."""
    from tuning.label import Analyst

    options = [f"INFO max_node {args.analyst_nodes}", "INFO max_memory 0"] if args.analyst_nodes else []
    before = ["YXHASHCLEAR"] if args.analyst_nodes else []
    turn_ms = 1000000 if args.analyst_nodes else args.analyst_ms
    return lambda: Analyst([args.analyst], turn_ms, options=options, before_each=before)


def _analyst_command(args: argparse.Namespace) -> int:
    positions = read_jsonl(args.positions)
    chosen = analyst_moves(positions, _analyst_factory(args), args.workers)
    write_jsonl(args.out, chosen)
    print(f"{len(chosen)} moves by {args.analyst} -> {args.out}")
    return 0


def _judge_command(args: argparse.Namespace) -> int:
    positions = read_jsonl(args.positions)
    files = [read_jsonl(path) for path in args.moves]
    cache: Dict[str, Optional[str]] = {}
    if args.cache:
        for row in read_jsonl(args.cache):
            cache[row["key"]] = row["score"]
    cache_file = open(args.cache, "a") if args.cache else None

    def remember(key: str, score: Optional[str]) -> None:
        if cache_file is not None:
            cache_file.write(json.dumps({"key": key, "score": score}) + "\n")
            cache_file.flush()

    try:
        results = judge(positions, files, _analyst_factory(args), args.scale, cache, args.workers, remember,
                        differing(files) if args.differing_only else None)
    finally:
        if cache_file is not None:
            cache_file.close()
    reference = results[0]
    for path, chosen, result in zip(args.moves, files, results):
        mean = sum(result.values()) / max(1, len(result))
        line = f"{path}: {len(result)} positions judged, mean win probability after the move {100 * mean:.2f} %"
        if result is not reference:
            first = {row["index"]: row["move"] for row in files[0]}
            moved = {row["index"]: row["move"] != first.get(row["index"]) for row in chosen}
            n, diff, se = paired(reference, result, moved)
            better = sum(1 for i in result if moved.get(i) and i in reference and result[i] > reference[i] + 0.05)
            worse = sum(1 for i in result if moved.get(i) and i in reference and result[i] < reference[i] - 0.05)
            line += (f"; against {args.moves[0]}: a different move in {n}, {100 * diff:+.2f} ± {100 * se:.2f} points"
                     f" a differing move ({better} better, {worse} worse by 5 points or more)")
            forced, forced_sum, rest, rest_sum = forced_share(reference, result, moved)
            line += (f"; {forced} of them decided by a forced win one of the moves allows or finds"
                     f" ({100 * forced_sum:+.1f} points in all), the other {rest} {100 * rest_sum:+.1f}")
        print(line)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("positions", help="positions from game records")
    p.add_argument("games", type=Path, nargs="+", help="SGF collections or tuning.games JSON lines")
    p.add_argument("--min-stones", type=int, default=6)
    p.add_argument("--max-stones", type=int, default=40)
    p.add_argument("--out", type=Path, required=True)
    c = commands.add_parser("choose", help="the importable build's move in each position")
    c.add_argument("positions", type=Path)
    c.add_argument("--nodes", type=int, default=200000, help="node budget a move (default 200,000)")
    c.add_argument("--turn-ms", type=int, default=0,
                   help="a turn in milliseconds instead of the node budget (the time shares a clock sets; the moves "
                        "then depend on the machine's speed and load)")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", type=Path, required=True)
    a = commands.add_parser("analyst", help="the analyst's own move in each position (a moves file to judge)")
    a.add_argument("positions", type=Path)
    a.add_argument("--out", type=Path, required=True)
    j = commands.add_parser("judge", help="the analyst's verdict on each moves file")
    j.add_argument("positions", type=Path)
    j.add_argument("moves", type=Path, nargs="+", help="moves files; the first is the reference")
    for command in (a, j):
        command.add_argument("--analyst", required=True, help="the analyst brain's executable")
        command.add_argument("--analyst-nodes", type=int, default=300000,
                             help="the analyst's node budget a position (INFO max_node; 0: --analyst-ms instead)")
        command.add_argument("--analyst-ms", type=int, default=300,
                             help="the analyst's time a position without a node budget")
        command.add_argument("--workers", type=int, default=2)
    j.add_argument("--scale", type=float, default=300.0, help="score scale of the win probability (default 300)")
    j.add_argument("--differing-only", action="store_true",
                   help="judge only the positions where some file's move differs from the first's")
    j.add_argument("--cache", type=Path, help="JSON lines of scores already judged; new ones are appended")
    args = parser.parse_args(argv)
    return {"positions": _positions_command, "choose": _choose_command, "analyst": _analyst_command,
            "judge": _judge_command}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
