"""Nodes a second of the main search as games run it: fixed-node thinks of a few 15x15 freestyle positions, each with
a table the size a Gomocup manager's memory limit gives (INFO max_memory 350 MB), fresh for every position.

`bench` is the search signature (small tables, fixed depth); this is the speed figure for work on the core: the
node counts are fixed, so two builds are compared by time alone. Alternate the builds and take several runs: the
figures of one build spread by 5-10 % on this VM.

    .venv/bin/python benchmarks/speed.py --nodes 3000000 --runs 3
    PYTHONPATH=/tmp/old .venv/bin/python -P benchmarks/speed.py     # a copy of another build's package
"""
from __future__ import annotations

import argparse
from typing import List, Tuple

from pbrain.bench import timed_think
from pbrain.core.rules import Rule
from pbrain.engine import Limits

MEMORY_BYTES = 350 * 1024 * 1024
POSITIONS: List[List[Tuple[int, int]]] = [
    [(7, 7), (8, 8), (6, 8), (8, 6), (8, 7), (6, 6)],
    [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 5), (9, 5), (6, 7), (9, 6)],
    [(7, 7), (7, 8), (8, 9), (6, 7), (8, 8), (8, 7), (6, 9), (9, 7), (7, 9), (5, 8), (9, 9), (10, 10)],
    [(7, 7), (6, 8), (8, 8), (6, 6), (7, 9), (9, 7), (6, 7), (7, 6), (5, 7), (4, 7), (5, 6)],
    [(7, 7), (8, 7), (6, 8), (8, 8), (8, 6), (6, 6), (7, 5), (9, 9)],
]
"""Openings and middle games (moves from an empty board, black first); some end early in a proven win."""


def measure(nodes: int) -> Tuple[int, float]:
    """Think once in every position with `nodes` as the limit; the total nodes and seconds."""
    total_nodes = 0
    total_seconds = 0.0
    for played in POSITIONS:
        result, seconds = timed_think(Rule.FREESTYLE, 15, played, Limits(max_nodes=nodes), MEMORY_BYTES)
        total_seconds += seconds
        total_nodes += result.nodes
    return total_nodes, total_seconds


def main(argv: "List[str] | None" = None) -> None:
    """Print nodes, seconds and nodes a second for each run."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=3_000_000, help="node limit of each think (default 3,000,000)")
    ap.add_argument("--runs", type=int, default=1, help="how many times to measure (default 1)")
    args = ap.parse_args(argv)
    for _ in range(args.runs):
        nodes, seconds = measure(args.nodes)
        print(f"nodes {nodes} seconds {seconds:.3f} nodes/s {nodes / max(seconds, 1e-9) / 1e6:.3f} M", flush=True)


if __name__ == "__main__":
    main()
