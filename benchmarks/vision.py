"""How soon the search sees a forced win: the nodes Pentad's think spends before it first reports a win score, on
positions where the side to move has one.

The positions: the must-defend suite's positions after their losing move (tests/data/must_defend.json, the winner
to move; Rapfi found a forced win there, some of them starting with quiet moves) and the forced-win suite
(benchmarks/data/forced_wins.json). Each is searched from a fresh engine (the hash table a 350 MB memory limit
gives, as speed.py) at a node budget; a win counts as seen at the first completed iteration whose score is a win
(or the think's own result, when a root threat search proved it). Prints a line a position (W seen, - not within
the budget; the nodes; how the think ended) and the count seen, the geometric mean of the nodes (a position not
seen counts its budget) and the time. The node counts depend only on the build and the budget: a screen of what a
search change does to the search's tactics, with no judge and no noise. `--set NAME=VALUE` changes a number of
pbrain/params.py before the engines are made (a knob the searcher reads when it is made).

    .venv/bin/python benchmarks/vision.py --nodes 2000000
    .venv/bin/python benchmarks/vision.py --set LMR_BASE=0.25
    PYTHONPATH=/tmp/old .venv/bin/python -P benchmarks/vision.py     # a copy of another build's package
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # appended: a build named by PYTHONPATH comes first
sys.path.append(str(ROOT / "benchmarks"))  # speed.py beside this script, also under `python -P`

from speed import MEMORY_BYTES  # noqa: E402  (this folder: speed.py's memory limit, a Gomocup manager's)

from pbrain import params  # noqa: E402
from pbrain.core.rules import Rule  # noqa: E402
from pbrain.engine import Engine, Limits, SearchInfo  # noqa: E402

SUITES = (ROOT / "tests" / "data" / "must_defend.json", ROOT / "benchmarks" / "data" / "forced_wins.json")


def positions() -> List[Tuple[str, int, str, list]]:
    """(name, size, rule, moves) of each position, the side to move winning."""
    found = []
    for k, position in enumerate(json.loads(SUITES[0].read_text())):
        if not position.get("win"):
            found.append((f"must_defend {k}", position["size"], position["rule"],
                          position["moves"] + [position["losing"]]))
    for k, position in enumerate(json.loads(SUITES[1].read_text())):
        found.append((f"forced_win {k}", position["size"], position["rule"], position["moves"]))
    return found


def set_param(assignment: str) -> None:
    """Apply one NAME=VALUE to pbrain.params (the value converted to the parameter's own type)."""
    name, _, value = assignment.partition("=")
    if not hasattr(params, name) or not value:
        raise SystemExit(f"vision.py: no such parameter setting: {assignment}")
    setattr(params, name, type(getattr(params, name))(float(value)))


def nodes_to_win(size: int, rule: str, moves: list, budget: int) -> Tuple[Optional[int], str]:
    """The nodes searched when the think first reported a win (None: not within `budget`), and its reason."""
    engine = Engine(size, rule=Rule[rule])
    engine.set_memory(MEMORY_BYTES)
    for x, y in moves:
        engine.play(x, y)
    seen: List[int] = []

    def on_info(info: SearchInfo) -> None:
        if not seen and info.score >= params.WIN_THRESHOLD:
            seen.append(info.nodes)

    result = engine.think(Limits(max_nodes=budget), on_info=on_info)
    if not seen and result.score >= params.WIN_THRESHOLD:
        seen.append(result.nodes)
    return (seen[0] if seen else None), result.reason


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2_000_000, help="the node budget a position")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="change a number of pbrain/params.py first (repeatable)")
    args = parser.parse_args(argv)
    for assignment in args.set:
        set_param(assignment)
    cases = positions()
    seen = 0
    log_sum = 0.0
    total = 0
    started = time.perf_counter()
    for name, size, rule, moves in cases:
        nodes, reason = nodes_to_win(size, rule, moves, args.nodes)
        cost = args.nodes if nodes is None else nodes
        seen += nodes is not None
        total += cost
        log_sum += math.log(max(1, cost))
        print(f"{name:16s} {'-' if nodes is None else 'W'} {cost:>10,} {reason}", flush=True)
    print(f"seen {seen} of {len(cases)} at {args.nodes:,} nodes; geometric mean {math.exp(log_sum / len(cases)):,.0f}, "
          f"{total:,} in all; {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
