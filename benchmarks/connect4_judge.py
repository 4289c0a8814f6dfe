"""Judge Connect Four players against perfect play: how often does a player's move keep the game-theoretic value?

Positions come from random play (8 to 20 stones, game not over, a fixed seed); bitbully scores every move of
every position exactly (cached in a JSON file under the system's temporary folder, keyed by seed and count, so
reruns are fast). Each player named on the command line (pbrain.connect4.players.PLAYERS) gets `--time` seconds a move.
A move keeps the value when its score has the sign of the best score (win -> win, draw -> draw; in a lost position
every move does), and is exact-best when its score is the best score. `--proof` also times Pentad's solver proving
each position from cold tables: the exact score and the weak (win / draw / loss) one.

    .venv/bin/python benchmarks/connect4_judge.py --players alphabeta --time 1.0 --positions 200 --proof
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbrain.connect4.bitboard import Connect4  # noqa: E402
from pbrain.connect4.players import PLAYERS  # noqa: E402
from pbrain.connect4.solver import Solver  # noqa: E402

MIN_STONES = 8
MAX_STONES = 20
PROOF_DEADLINE_S = 300.0


def sign(x: int) -> int:
    """-1, 0 or 1."""
    return (x > 0) - (x < 0)


def random_positions(count: int, seed: int) -> List[str]:
    """`count` move strings of positions from random play with 8..20 stones, game not over."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        target = rng.randint(MIN_STONES, MAX_STONES)
        pos = Connect4()
        while pos.move_count < target and not pos.is_over():
            pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            positions.append(pos.moves_string())
    return positions


def reference(count: int, seed: int) -> List[Dict]:
    """[{"moves": str, "scores": [score or None per column]}], bitbully's exact scores, from the cache if there."""
    cache = Path(tempfile.gettempdir()) / "pentad_connect4_judge" / f"seed{seed}_n{count}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    from bitbully import BitBully, Board

    agent = BitBully()
    rows = []
    started = time.perf_counter()
    for i, moves in enumerate(random_positions(count, seed)):
        scored = agent.score_all_moves(Board.from_moves([int(ch) - 1 for ch in moves]))
        rows.append({"moves": moves, "scores": [scored.get(col) for col in range(7)]})
        if (i + 1) % 50 == 0:
            print(f"bitbully: {i + 1}/{count} positions scored ({time.perf_counter() - started:.0f} s)",
                  file=sys.stderr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(rows))
    return rows


def critical(row: Dict) -> bool:
    """True when some legal move does not keep the position's value."""
    legal = [s for s in row["scores"] if s is not None]
    best = max(legal)
    return any(sign(s) != sign(best) for s in legal)


def judge_player(name: str, rows: List[Dict], time_s: float, verbose: bool) -> Dict:
    """Ask `name` for a move in every position; the rates and times."""
    player = PLAYERS[name]
    keeps = best_hits = crit = crit_keeps = crit_best = 0
    times = []
    problems = []
    for row in rows:
        pos = Connect4(row["moves"])
        started = time.perf_counter()
        answer = player(pos, time_s, None)
        times.append(time.perf_counter() - started)
        scores = row["scores"]
        best = max(s for s in scores if s is not None)
        if pos.moves_string() != row["moves"]:
            problems.append(f"{row['moves']}: the player changed the position")
        chosen = scores[answer.column] if 0 <= answer.column < 7 else None
        if chosen is None:
            problems.append(f"{row['moves']}: illegal move {answer.column}")
            continue
        keep = sign(chosen) == sign(best)
        keeps += keep
        best_hits += chosen == best
        if critical(row):
            crit += 1
            crit_keeps += keep
            crit_best += chosen == best
        if verbose and not keep:
            print(f"  {name} {row['moves']}: chose {answer.column + 1} ({chosen}) best {best} {scores}"
                  f" [{answer.text}, depth {answer.depth}, {answer.time_ms} ms]", file=sys.stderr)
    n = len(rows)
    return {"name": name, "n": n, "keeps": keeps / n, "best": best_hits / n, "crit": crit,
            "crit_keeps": crit_keeps / max(1, crit), "crit_best": crit_best / max(1, crit),
            "mean_ms": 1000 * statistics.mean(times), "max_ms": 1000 * max(times), "problems": problems}


def prove(rows: List[Dict], weak: bool) -> Dict:
    """Time the solver's proof of every position from cold tables; checks the score against bitbully."""
    solver = Solver()
    times = []
    wrong = unfinished = 0
    nodes = 0
    for row in rows:
        solver.clear()
        pos = Connect4(row["moves"])
        before = solver.nodes
        started = time.perf_counter()
        score = solver.solve(pos, weak=weak, deadline=started + PROOF_DEADLINE_S)
        times.append(time.perf_counter() - started)
        nodes += solver.nodes - before
        best = max(s for s in row["scores"] if s is not None)
        if score is None:
            unfinished += 1
        elif score != (sign(best) if weak else best):
            wrong += 1
    ordered = sorted(times)
    return {"median_ms": 1000 * statistics.median(times), "p90_ms": 1000 * ordered[int(0.9 * (len(times) - 1))],
            "max_ms": 1000 * max(times), "total_s": sum(times), "nodes_per_s": nodes / max(1e-9, sum(times)),
            "wrong": wrong, "unfinished": unfinished}


def main(argv=None) -> int:  # type: ignore[no-untyped-def]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs="+", default=["alphabeta"], help=f"from {sorted(PLAYERS)}")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--proof", action="store_true", help="also time the solver's exact and weak proofs")
    parser.add_argument("--verbose", action="store_true", help="list every move that loses the value")
    args = parser.parse_args(argv)
    unknown = [name for name in args.players if name not in PLAYERS]
    if unknown:
        parser.error(f"unknown player(s) {unknown}; known: {sorted(PLAYERS)}")
    rows = reference(args.positions, args.seed)
    crit = sum(critical(row) for row in rows)
    print(f"{len(rows)} positions (seed {args.seed}, {MIN_STONES}-{MAX_STONES} stones), {crit} where not every "
          f"move keeps the value; {args.time:g} s a move\n")
    print("| player | keeps value (all) | exact best (all) | keeps value (critical) | exact best (critical) "
          "| mean ms | max ms |")
    print("|---|---|---|---|---|---|---|")
    problems = []
    for name in args.players:
        r = judge_player(name, rows, args.time, args.verbose)
        print(f"| {name} | {100 * r['keeps']:.1f} % | {100 * r['best']:.1f} % | {100 * r['crit_keeps']:.1f} % "
              f"| {100 * r['crit_best']:.1f} % | {r['mean_ms']:.0f} | {r['max_ms']:.0f} |", flush=True)
        problems += [f"{name}: {p}" for p in r["problems"]]
    if args.proof:
        print("\n| solver proof (cold tables) | median ms | 90th pct ms | slowest ms | total s | nodes/s "
              "| wrong | unfinished |")
        print("|---|---|---|---|---|---|---|---|")
        for weak in (False, True):
            p = prove(rows, weak)
            print(f"| {'weak (win/draw/loss)' if weak else 'exact score'} | {p['median_ms']:.1f} | "
                  f"{p['p90_ms']:.1f} | {p['max_ms']:.0f} | {p['total_s']:.1f} | {p['nodes_per_s'] / 1e6:.2f} M "
                  f"| {p['wrong']} | {p['unfinished']} |", flush=True)
    for problem in problems:
        print(f"PROBLEM {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
