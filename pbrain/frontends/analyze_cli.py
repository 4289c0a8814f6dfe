"""The command line of `pbrain-pentad analyze` (cli.py hands it the parsed arguments): the input checked, the
mode chosen, the analysis (analyze.py) run on a worker thread so Ctrl-C stops it cleanly, and the output written
(analyze_output.py). Exit status: 0, 2 for bad input, 1 when --png has no matplotlib or cannot be written, 130
after Ctrl-C; every error is one line on stderr.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Dict, Optional, TypeVar

from pbrain import params, records
from pbrain.core.rules import Rule
from pbrain.engine import Engine, Limits
from pbrain.frontends.analyze import (
    DEFAULT_GAME_TIME_S,
    DEFAULT_POSITION_TIME_S,
    AnalyzeError,
    Interrupted,
    Progress,
    analyze_game,
    analyze_position,
    is_finished,
    setup,
    time_limits,
)
from pbrain.frontends.common import RULES, parse_size

PROG = "pbrain-pentad analyze"
MAX_NBEST = 20
EXIT_BAD_INPUT, EXIT_NO_MATPLOTLIB, EXIT_OUTPUT, EXIT_INTERRUPTED = 2, 1, 1, 130
T = TypeVar("T")


@dataclass
class Request:
    """What the command line asks for."""

    game: records.Game
    rule: Optional[Rule]
    """--rule, overriding the record's."""
    mode: Optional[str]
    """'game', 'position', or None: a record of a finished game gets the game analysis, anything else the final
    position's (`resolve_mode`)."""
    seconds: Optional[float]
    depth: Optional[int]
    nbest: int
    json: bool
    png: Optional[str]
    source: str
    """The record's file name; empty for --moves."""
    search: str = "alphabeta"
    """--engine: the search that analyses ('alphabeta' or 'mcts')."""

    def limits(self) -> Limits:
        """The limits for one position in the request's mode."""
        default_s = DEFAULT_GAME_TIME_S if self.mode == "game" else DEFAULT_POSITION_TIME_S
        return time_limits(self.seconds, self.depth, default_s)

    def resolve_mode(self, engine: Engine) -> None:
        """Choose the mode when the command line did not: a finished game from a file (a result in the record,
        a five at the end, or a full board) is analysed move by move, anything else as a position."""
        if self.mode is None:
            finished = bool(self.source) and (bool(self.game.result) or is_finished(engine))
            self.mode = "game" if finished else "position"


def request_from_args(args: argparse.Namespace) -> Request:
    """Read and check the command line and the record; AnalyzeError (one line) for anything wrong."""
    if (args.file is None) == (args.moves is None):
        raise AnalyzeError("give a game record FILE or --moves \"h8 i9 ...\" (one of them)")
    if args.time is not None and not 0 < args.time <= 3600:
        raise AnalyzeError("--time must be more than 0 and at most 3600 seconds")
    if args.depth is not None and not 1 <= args.depth <= params.MAX_DEPTH:
        raise AnalyzeError(f"--depth must be 1..{params.MAX_DEPTH}")
    if not 1 <= args.nbest <= MAX_NBEST:
        raise AnalyzeError(f"--nbest must be 1..{MAX_NBEST}")
    rule = RULES[args.rule] if args.rule else None
    try:
        if args.file is not None:
            if args.size:
                raise AnalyzeError("--size is for --moves: a record file gives its own board size")
            game, source = records.load(args.file), args.file
        else:
            width, height = parse_size(args.size) if args.size else (15, 15)
            game = records.Game(width, height, rule or Rule.FREESTYLE, records.parse_moves(args.moves, width, height))
            source = ""
    except records.RecordError as error:
        raise AnalyzeError(str(error) if args.file is not None else f"--moves: {error}") from None
    except ValueError as error:  # parse_size
        raise AnalyzeError(f"--size: {error}") from None
    mode = "game" if args.game else "position" if args.position else None
    if args.png and mode == "position":
        raise AnalyzeError("--png draws a game analysis: leave out --position")
    if args.png and not os.path.isdir(os.path.dirname(os.path.abspath(args.png))):
        raise AnalyzeError(f"--png: no directory for {args.png}")
    search = getattr(args, "engine", None) or "alphabeta"
    if search == "mcts" and args.depth is not None:
        raise AnalyzeError("--depth is for the alphabeta search: give the Monte Carlo tree search --time")
    return Request(game, rule, "game" if args.png else mode, args.time, args.depth, args.nbest, args.json, args.png,
                   source, search)


def run_analyze(args: argparse.Namespace) -> int:
    """`pbrain-pentad analyze`; returns the exit status (2: bad input, 1: no matplotlib for --png, 130: Ctrl-C)."""
    from pbrain.frontends import analyze_output

    try:
        request = request_from_args(args)
        if request.png and not analyze_output.have_matplotlib():
            print(f"{PROG}: error: --png needs matplotlib (pip install 'pentad[analyze]' or "
                  "pip install matplotlib)", file=sys.stderr)
            return EXIT_NO_MATPLOTLIB
        engine = setup(request.game, request.rule)
        engine.set_search_kind(request.search)
        request.resolve_mode(engine)
        limits = request.limits()
        if request.mode == "game":
            report = _interruptible(lambda stop, progress: analyze_game(
                request.game, limits, stop, progress, engine, request.rule))
            print(analyze_output.game_json(report) if request.json
                  else analyze_output.game_text(report, request.source, limits))
            if request.png:
                analyze_output.write_png(report, request.png, request.source)
        else:
            position = _interruptible(lambda stop, _progress: analyze_position(
                engine, request.nbest, limits, stop))
            print(analyze_output.position_json(position) if request.json else analyze_output.position_text(position))
        return 0
    except AnalyzeError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except analyze_output.OutputError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_OUTPUT
    except (KeyboardInterrupt, Interrupted):
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _interruptible(work: Callable[[threading.Event, Progress], T]) -> T:
    """Run `work(stop, progress)` on a worker thread, the progress on a status line when stderr is a terminal;
    Ctrl-C stops the search and raises KeyboardInterrupt here."""
    from pbrain.frontends import screen

    stop = threading.Event()
    status = screen.StatusLine(sys.stderr, screen.is_tty(sys.stderr))
    box: Dict[str, object] = {}

    def progress(done: int, total: int) -> None:
        box["progress"] = f"Analysing position {done + 1} of {total}..."

    def run() -> None:
        try:
            box["result"] = work(stop, progress)
        except BaseException as error:  # handed to the main thread
            box["error"] = error

    worker = threading.Thread(target=run, name="pentad-analyze", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
            status.show(str(box.get("progress", "Analysing...")))
    except KeyboardInterrupt:
        stop.set()
        worker.join(2.0)
        raise
    finally:
        status.clear()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["result"]  # type: ignore[return-value]
