"""Command line: no sub-command runs the protocol loop (what managers launch); `bench` measures speed."""
from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Optional, Sequence

import pbrain


def bench_core(seconds: float = 2.0) -> str:
    """Place + undo per second with the full pattern update, on a fixed 15x15 middle-game position."""
    from pbrain.board import Board, place_undo_loop

    board = Board(15, 15, 0)
    rng = random.Random(3)
    for _ in range(30):
        board.place(rng.choice(board.candidates()))
    cells = board.candidates()
    rounds = 1
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        pairs = place_undo_loop(board, cells, rounds)
        elapsed = time.perf_counter() - start
        if elapsed < 0.05:
            rounds *= 2
            continue
        best = max(best, pairs / elapsed)
    return f"mode {pbrain.mode()}\nplace+undo/s {best:.0f}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of `pbrain-pentad` and `python -m pbrain`."""
    parser = argparse.ArgumentParser(prog="pbrain-pentad", description="Pentad Gomoku/Renju brain")
    sub = parser.add_subparsers(dest="command")
    bench = sub.add_parser("bench", help="benchmark: search signature and speed, or --core for the board")
    bench.add_argument("--core", action="store_true", help="place+undo per second with the full pattern update")
    bench.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    if args.command == "bench":
        if args.core:
            print(bench_core(args.seconds))
            return 0
        print("search bench: not available yet", file=sys.stderr)
        return 2
    parser.print_help()
    return 0
