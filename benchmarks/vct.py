"""The proof-number VCT (pbrain/search/dfpn.py) on fixed positions: how many it proves or disproves within a node
budget, and at what cost.

The positions: the 14 VCT positions of tests/data/tactics.json (a win by continuous threats for the side to move),
and every position of the must-defend suite (tests/data/must_defend.json) after its listed losing move (Rapfi finds
a forced win there for the side to move; some of those wins start with quiet moves, outside the VCT's game model,
and are disproved). Each is solved from an empty table. Prints a line a position (P proved, D disproved, - open at
the budget) and the totals: proved and disproved counts, nodes in all, the geometric mean of the nodes (a position
left open counts its budget) and the time. Node counts depend only on the build, not on the machine.

    .venv/bin/python benchmarks/vct.py --nodes 3000000
    PYTHONPATH=/tmp/old .venv/bin/python -P benchmarks/vct.py     # a copy of another build's package
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

from pbrain.core.rules import Rule  # noqa: E402
from pbrain.engine import Engine  # noqa: E402
from pbrain.search.dfpn import ProofSolver  # noqa: E402
from pbrain.search.threats import ThreatSolver  # noqa: E402

DATA = ROOT / "tests" / "data"


def positions() -> List[Tuple[str, Engine]]:
    """The named positions, each on its own engine, the attacker to move."""
    found: List[Tuple[str, Engine]] = []
    for k, position in enumerate(json.loads((DATA / "must_defend.json").read_text())):
        if position.get("win"):
            continue
        engine = Engine(position["size"], rule=Rule[position["rule"]])
        for x, y in position["moves"] + [position["losing"]]:
            engine.play(x, y)
        found.append((f"must_defend {k} after {position['losing'][0]},{position['losing'][1]}", engine))
    for k, position in enumerate(json.loads((DATA / "tactics.json").read_text())):
        if position["kind"] != "vct":
            continue
        engine = Engine(position["size"], rule=Rule[position["rule"]])
        engine.set_position([tuple(stone) for stone in position["stones"]], position["side"])
        found.append((f"tactics {k}", engine))
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3_000_000, help="the node budget a position")
    args = parser.parse_args(argv)
    proved = disproved = 0
    total = 0
    log_sum = 0.0
    cases = positions()
    started = time.perf_counter()
    for name, engine in cases:
        solver = ProofSolver(ThreatSolver(engine.board))
        won = solver.prove(args.nodes, 0.0)
        proved += won
        disproved += solver.disproved
        total += solver.nodes
        log_sum += math.log(max(1, solver.nodes))
        print(f"{name:32s} {'P' if won else 'D' if solver.disproved else '-'} {solver.nodes:>10,}", flush=True)
    print(f"proved {proved}, disproved {disproved}, open {len(cases) - proved - disproved} of {len(cases)} at "
          f"{args.nodes:,} nodes; {total:,} nodes in all, geometric mean {math.exp(log_sum / len(cases)):,.0f}; "
          f"{time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
