"""Command line: no sub-command runs the protocol loop (what managers launch); `bench` measures speed; `play` is a
game against Pentad in the terminal; `analyze` analyses a position or a game; `check` checks any brain's protocol."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import threading
import warnings
from types import TracebackType
from typing import Optional, Sequence, Type

import pbrain


def run_protocol() -> int:
    """The brain: speak the protocol on stdin / stdout until END or end of input, then exit at once.

    Nothing goes to stderr (c-gomoku-cli merges it into the protocol stream): warnings are silenced and an
    unexpected exception in any thread becomes an `ERROR internal: ...` line.
    """
    from pbrain.protocol.session import LineWriter, Session
    from pbrain.protocol.startup import process_age_ms

    startup_ms = process_age_ms()

    out = LineWriter(sys.stdout.fileno())
    warnings.simplefilter("ignore")

    def report(kind: Type[BaseException], value: BaseException, _tb: Optional[TracebackType]) -> None:
        out.send(f"ERROR internal: {kind.__name__}: {value}")

    sys.excepthook = report
    threading.excepthook = lambda args: report(args.exc_type, args.exc_value or args.exc_type(), None)
    status = Session(out, startup_ms=startup_ms).run(sys.stdin.fileno())
    os._exit(status)  # daemon threads may still be inside a read or a search: do not wait for them


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of `pbrain-pentad` and `python -m pbrain`."""
    parser = argparse.ArgumentParser(prog="pbrain-pentad", description="Pentad Gomoku/Renju brain")
    sub = parser.add_subparsers(dest="command")
    bench = sub.add_parser("bench", help="benchmark: search signature and speed, or --core for the board")
    bench.add_argument("--core", action="store_true", help="place+undo per second with the full pattern update")
    bench.add_argument("--seconds", type=float, default=2.0, help="--core: how long to measure")
    bench.add_argument("--depth", type=int, default=None, help="search depth (default: the signature depth)")
    play = sub.add_parser("play", help="play a game against Pentad in this terminal (gomoku or Connect Four)")
    play.add_argument("--game", default="gomoku", choices=("gomoku", "connect4"),
                      help="the game: gomoku (the default) or connect4 (7x6 Connect Four)")
    play.add_argument("--engine", default=None, choices=("alphabeta", "mcts", "uct"),
                      help="Pentad's search: alphabeta (the default), mcts, or uct (connect4 only)")
    play.add_argument("--size", default=None, metavar="N|WxH", help="gomoku: board size 5..22 (default 15), or WxH")
    play.add_argument("--rule", default=None, choices=("freestyle", "standard", "renju", "caro"),
                      help="gomoku: the rule (default freestyle)")
    play.add_argument("--black", default=None, choices=("human", "engine"),
                      help="gomoku: who plays black (default: you)")
    play.add_argument("--first", default=None, choices=("human", "engine"),
                      help="connect4: who moves first, as X (default: you)")
    play.add_argument("--level", type=int, default=None, metavar="N",
                      help="gomoku: Pentad's level, 1 (beginner) up to full strength (the default)")
    play.add_argument("--time", type=float, default=1.0, metavar="SECONDS",
                      help="Pentad's thinking time per move (default 1)")
    play.add_argument("--load", default=None, metavar="FILE",
                      help="continue a saved game (gomoku: .psq, .sgf, move list; connect4: column digits)")
    play.add_argument("--show-thinking", action="store_true", help="print Pentad's eval and line with its moves")
    analyze = sub.add_parser("analyze", help="analyse a position or a whole game (evals, best moves, threats)",
                             description="Analyse a game record or a move list: by default a finished game from a "
                             "file move by move (--game), anything else as the final position (--position).")
    analyze.add_argument("file", nargs="?", default=None, metavar="FILE", help="game record: .psq, .sgf or move list")
    analyze.add_argument("--moves", default=None, metavar="MOVES", help='the moves instead of a file: "h8 i9 ..."')
    analyze.add_argument("--size", default=None, metavar="N|WxH", help="--moves: board size (default 15)")
    analyze.add_argument("--rule", default=None, choices=("freestyle", "standard", "renju", "caro"),
                         help="the rule (default: the record's; freestyle for --moves)")
    mode = analyze.add_mutually_exclusive_group()
    mode.add_argument("--game", action="store_true", help="evaluate every move of the game")
    mode.add_argument("--position", action="store_true", help="analyse only the final position")
    analyze.add_argument("--time", type=float, default=None, metavar="SECONDS",
                         help="search time per position (default 1 for a position, 0.3 per move of a game)")
    analyze.add_argument("--depth", type=int, default=None, metavar="N",
                         help="fixed search depth (alone: reproducible, no clock)")
    analyze.add_argument("--engine", default="alphabeta", choices=("alphabeta", "mcts"),
                         help="the search: alphabeta (default) or mcts, the Monte Carlo tree search")
    analyze.add_argument("--nbest", type=int, default=3, metavar="N", help="best moves to list (default 3)")
    analyze.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    analyze.add_argument("--png", default=None, metavar="FILE", help="game: draw the evals as a PNG (matplotlib)")
    check = sub.add_parser("check", help="check that a Gomocup brain speaks the protocol as the managers need",
                           description="Run brain-agnostic protocol scenarios against a brain executable (a fresh "
                           "process each) and report each as passed, failed or not supported. Options come before "
                           "the brain; what follows it is passed to it. Exit status 0 when every required scenario "
                           "passed.")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    check.add_argument("--only", default="", metavar="NAMES", help="comma-separated scenarios, groups or levels")
    check.add_argument("--skip", default="", metavar="NAMES", help="comma-separated scenarios, groups or levels")
    check.add_argument("--timeout-scale", type=float, default=1.0, metavar="F",
                       help="multiply every time limit and wait (a slow machine or brain: 2, 3)")
    check.add_argument("--list", action="store_true", help="list the scenarios and exit")
    check.add_argument("brain", nargs="?", default="", metavar="BRAIN", help="the brain executable")
    check.add_argument("brain_args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for the brain")
    serve = sub.add_parser("serve", help="a board in the browser: play and analyse against Pentad in a web page",
                           description="Serve a local web page with a board to play gomoku, renju and Connect Four "
                           "against Pentad and to analyse games. Needs the serve extra (pip install 'pentad[serve]').")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine "
                       "only)")
    serve.add_argument("--port", type=int, default=0, help="port (default: a free one, printed at start)")
    serve.add_argument("--open", action="store_true", help="open the page in the default browser")
    serve.add_argument("--max-games", type=int, default=16, metavar="N",
                       help="games (browser tabs) open at once (default 16)")
    args = parser.parse_args(argv)
    if args.command is None:
        return run_protocol()
    if args.command == "bench":
        return run_bench(args.core, args.seconds, args.depth)
    if args.command == "play" and args.game == "connect4":
        from pbrain.frontends.play_connect4 import run_connect4

        return run_connect4(args)
    if args.command == "play":
        from pbrain.frontends.play import run_play

        return run_play(args)
    if args.command == "analyze":
        from pbrain.frontends.analyze_cli import run_analyze

        return run_analyze(args)
    if args.command == "serve":
        if not 0 <= args.port <= 65535 or args.max_games < 1:
            serve.error("--port is 0..65535 and --max-games at least 1")
        try:  # by name: PyInstaller follows import statements, and the tournament brain must not ship aiohttp
            server = importlib.import_module("pbrain.frontends.web.server")
        except ImportError as error:
            print(f"pbrain-pentad serve needs the serve extra ({error}): pip install 'pentad[serve]' and run it from "
                  "the installed package (the tournament executable leaves it out)", file=sys.stderr)
            return 1
        return int(server.run_serve(args))
    if args.command == "check":
        from pbrain.check.suite import run_check

        if not args.brain and not args.list:
            check.error("the brain executable is required")
        names = [[n.strip() for n in text.split(",") if n.strip()] for text in (args.only, args.skip)]
        return run_check(args.brain, args.brain_args, names[0], names[1], args.timeout_scale, args.json, args.list)
    parser.print_help()
    return 0


def run_bench(core: bool, seconds: float, depth: Optional[int]) -> int:
    """Print the benchmark: `--core` place+undo/s, otherwise the search signature, time and nodes/s."""
    from pbrain import bench

    print(f"mode {pbrain.mode()}")
    if core:
        print(f"place+undo/s {bench.core_bench(seconds):.0f}")
        return 0
    result = bench.search_bench(depth if depth is not None else bench.BENCH_DEPTH)
    print(f"depth {result.depth}")
    print(f"moves {' '.join(f'{x},{y}' for x, y in result.moves)}")
    print(f"nodes {result.nodes}")
    print(f"time_ms {result.time_ms}")
    print(f"nps {result.nps}")
    return 0
