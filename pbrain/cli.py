"""Command line: no sub-command runs the protocol loop (what managers launch); `bench` measures speed."""
from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
import warnings
from types import TracebackType
from typing import Optional, Sequence, Type

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


def run_protocol() -> int:
    """The brain: speak the protocol on stdin / stdout until END or end of input, then exit at once.

    Nothing goes to stderr (c-gomoku-cli merges it into the protocol stream): warnings are silenced and an
    unexpected exception in any thread becomes an `ERROR internal: ...` line.
    """
    from pbrain.session import LineWriter, Session

    out = LineWriter(sys.stdout.fileno())
    warnings.simplefilter("ignore")

    def report(kind: Type[BaseException], value: BaseException, _tb: Optional[TracebackType]) -> None:
        out.send(f"ERROR internal: {kind.__name__}: {value}")

    sys.excepthook = report
    threading.excepthook = lambda args: report(args.exc_type, args.exc_value or args.exc_type(), None)
    status = Session(out).run(sys.stdin.fileno())
    os._exit(status)  # daemon threads may still be inside a read or a search: do not wait for them


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of `pbrain-pentad` and `python -m pbrain`."""
    parser = argparse.ArgumentParser(prog="pbrain-pentad", description="Pentad Gomoku/Renju brain")
    sub = parser.add_subparsers(dest="command")
    bench = sub.add_parser("bench", help="benchmark: search signature and speed, or --core for the board")
    bench.add_argument("--core", action="store_true", help="place+undo per second with the full pattern update")
    bench.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    if args.command is None:
        return run_protocol()
    if args.command == "bench":
        if args.core:
            print(bench_core(args.seconds))
            return 0
        print("search bench: not available yet", file=sys.stderr)
        return 2
    parser.print_help()
    return 0
