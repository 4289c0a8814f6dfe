"""The must-defend suite (tests/data/must_defend.json) at a turn time, judged by another brain.

Each position is one just before a loser's losing move in a real game: one or a few moves hold, most lose to a
forced win. Pentad thinks on it for `--time` seconds (the Engine facade, as the brain does under `INFO
timeout_turn`); then the judge brain, any Gomocup brain that reports a mate score in its MESSAGE lines (`Eval +M7`
as Rapfi does), searches the position after Pentad's move as the attacker for `--judge-ms`. The move holds when the
judge reports no win for itself. Prints one line a position and the count held. A position marked `no_hold` (a
longer judge found every move lost, the listed holding one too) is still played and printed but left out of the
count: it is not a must-defend position.

A position marked `win` is the other way round: the side to move has a forced win. benchmarks/data/forced_wins.json
has 40, from the move-loss screen's positions of Pentad's games (Rapfi at 300,000 nodes sees the win): 25 just after
a move Pentad chose at 300,000 nodes that lets the opponent win, 15 where Pentad is to move and its move at 300,000
nodes missed the win. Pentad keeps the win when the judge, after Pentad's move, reports a forced loss for itself
(`Eval -M9`):

    .venv/bin/python benchmarks/must_defend.py --suite benchmarks/data/forced_wins.json --nodes 1000000 \
        --judge /path/to/pbrain-rapfi --cache /tmp/judged.json

    .venv/bin/python benchmarks/must_defend.py --judge /path/to/pbrain-rapfi --time 1.0 --judge-ms 5000 [--threads 2]

Run it alone on the machine: both programs are timed by the wall clock. With `--nodes N` Pentad searches N nodes a
position instead (the same move on any machine, under any load: a screen for search changes), and `--cache FILE`
keeps the judge's verdict on each position after a move (by its stones and the judge's time) between runs, so only
moves not judged before cost the judge's time.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Dict, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # appended: a build named by PYTHONPATH comes first

from move_loss import position_key  # noqa: E402  (this folder: the script's own)

from pbrain.core.rules import Rule  # noqa: E402
from pbrain.engine import Engine, Limits  # noqa: E402
from tuning.label import Analyst  # noqa: E402

SUITE = ROOT / "tests" / "data" / "must_defend.json"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", required=True, help="the judge brain's executable")
    parser.add_argument("--time", type=float, default=1.0, help="Pentad's turn in seconds")
    parser.add_argument("--nodes", type=int, default=0, help="Pentad's node budget a position instead of --time")
    parser.add_argument("--cache", type=Path, help="JSON of the judge's verdicts already given; new ones are added")
    parser.add_argument("--judge-ms", type=int, default=5000,
                        help="the judge's turn in milliseconds (at 2000 Rapfi misses some 20-45-ply wins)")
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--threads", type=int, default=1,
                        help="Pentad's processes (INFO thread_num): the main search and helpers (pbrain/search/smp.py)")
    args = parser.parse_args(argv)
    positions = json.loads(args.suite.read_text())
    cache: Dict[str, Optional[str]] = {}
    if args.cache is not None and args.cache.exists():
        cache = json.loads(args.cache.read_text())
    judge: Optional[Analyst] = None
    limits = Limits(max_nodes=args.nodes) if args.nodes > 0 else Limits(turn_ms=int(args.time * 1000))
    held = 0
    counted = 0
    won = 0
    wins = 0
    try:
        for k, position in enumerate(positions):
            engine = Engine(position["size"], rule=Rule[position["rule"]])
            engine.set_threads(args.threads)
            for x, y in position["moves"]:
                engine.play(x, y)
            engine.prepare()  # the tables made before the clock starts, as the brain makes them at START
            started = time.perf_counter()
            result = engine.think(limits)
            spent = time.perf_counter() - started
            move = list(result.move)
            key = f"{position_key(position['moves'] + [move])} {args.judge_ms}"
            if key not in cache:
                if judge is None:
                    judge = Analyst([args.judge], args.judge_ms)
                cache[key] = judge.evaluate(position["size"], position["rule"], position["moves"] + [move])
                if args.cache is not None:
                    args.cache.write_text(json.dumps(cache))
            verdict = cache[key]
            if position.get("win"):
                kept = verdict is not None and verdict.startswith("-M")
                wins += 1
                won += kept
                print(f"{k:2d} {'won' if kept else 'MISSED':6s} move {move[0]},{move[1]} judge {verdict} | depth "
                      f"{result.depth} eval {result.score} {result.reason} {spent:.2f} s", flush=True)
                continue
            holds = verdict is None or not verdict.startswith("+M")
            must_defend = "no_hold" not in position
            counted += must_defend
            held += holds and must_defend
            outcome = ("held" if holds else "LOST") if must_defend else "none"
            print(f"{k:2d} {outcome:4s} move {move[0]},{move[1]} (holding "
                  f"{position['holding'][0]},{position['holding'][1]}, losing {position['losing'][0]},"
                  f"{position['losing'][1]}) judge {verdict} | depth {result.depth} eval {result.score} "
                  f"{result.reason} {spent:.2f} s", flush=True)
    finally:
        if judge is not None:
            judge.close()
    budget = f"{args.nodes:,} nodes" if args.nodes > 0 else f"{args.time:g} s"
    if args.threads > 1:
        budget += f" ({args.threads} processes)"
    if counted or not wins:
        print(f"held {held} of {counted} at {budget} a move (judge {args.judge_ms} ms; "
              f"{len(positions) - counted - wins} positions with no holding move left out)")
    if wins:
        print(f"kept the forced win in {won} of {wins} at {budget} a move (judge {args.judge_ms} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
