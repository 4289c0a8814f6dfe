"""The games of `serve`, one table a browser tab: the position, the players, and what Pentad thinks about it.

A table is changed only by its tab's messages, on the server's event loop. A think runs on a worker thread and
touches only the table's engine: while it runs, everything the page is sent comes from the table's own move list
and from what was worked out before it started, and a command that would change the position is refused (STOP
and a new game end the think first). `begin_*` returns the think as a function of (stop flag, progress callback);
the server runs it off the loop and hands its answer to `finish`.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

import pbrain
from pbrain import levels, records
from pbrain.connect4 import players as connect4_players
from pbrain.connect4.bitboard import HEIGHT as C4_HEIGHT
from pbrain.connect4.bitboard import WIDTH as C4_WIDTH
from pbrain.connect4.bitboard import Connect4, Connect4Error
from pbrain.core.rules import BLACK, WHITE, Rule, opponent
from pbrain.engine import BoardError, Engine, Limits, SearchInfo, SearchResult, StopFlag
from pbrain.frontends import analyze, analyze_output, screen
from pbrain.frontends.common import RULES, format_eval

Point = Tuple[int, int]
Progress = Callable[[Dict[str, Any]], None]
Think = Callable[[StopFlag, Progress], Any]

ENGINE_MEMORY = 32 * 1024 * 1024
"""Hash table of each table's engine (the facade's Engine(memory_bytes=...)): bounded games, bounded memory."""
WIN_PROBABILITY_SCALE = 110.0
"""Score units a unit of logit: the evaluation network's output scale (sigmoid(score / scale) is the mover's
chance to win)."""
MAX_RECORD_BYTES = 64 * 1024
"""The largest game record the page may upload or paste."""
MAX_TIME_S = 60.0
MAX_NODES = 50_000_000
MAX_NBEST = 10
ENGINES = ("alphabeta", "mcts")
C4_ENGINES = ("alphabeta", "mcts", "uct")
FORMATS = {"psq": ("text/plain", records.write_psq), "sgf": ("application/x-go-sgf", records.write_sgf),
           "txt": ("text/plain", records.write_move_list)}
"""Download formats: suffix -> (MIME type, writer)."""
COLOUR_NAMES = {BLACK: "black", WHITE: "white", 0: None}


class WebError(Exception):
    """Something the page asked that cannot be done; the message is shown to the person as it is."""


@dataclass
class Settings:
    """A new game as the page's panel sets it up."""

    game: str = "gomoku"
    """'gomoku' or 'connect4'."""
    width: int = 15
    height: int = 15
    rule: str = "freestyle"
    black: str = "human"
    """Who plays black (Connect Four: who moves first): 'human' or 'engine'."""
    white: str = "engine"
    level: int = len(levels.LEVELS)
    time_s: float = 1.0
    engine: str = "alphabeta"
    nodes: int = 0
    """A node limit per move instead of the clock (0: by time): the same move on every run."""


def _number(data: Dict[str, Any], key: str, default: float, low: float, high: float, kind: type = int) -> Any:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise WebError(f"{key}: not a number")
    try:
        number = kind(float(value)) if kind is int else kind(value)
    except (TypeError, ValueError):
        raise WebError(f"{key}: '{value}' is not a number") from None
    if not (low <= number <= high) or (isinstance(number, float) and not math.isfinite(number)):
        raise WebError(f"{key}: {value} is out of range ({low:g}..{high:g})")
    return number


def _choice(data: Dict[str, Any], key: str, default: str, choices: Tuple[str, ...]) -> str:
    value = data.get(key, default)
    if value not in choices:
        raise WebError(f"{key}: '{value}' is not one of {', '.join(choices)}")
    return str(value)


def parse_settings(data: Any) -> Settings:
    """The settings of a 'new' message, checked; WebError names the first bad field."""
    if not isinstance(data, dict):
        raise WebError("the new game's settings are missing")
    game = _choice(data, "game", "gomoku", ("gomoku", "connect4"))
    sides = ("human", "engine")
    kinds = C4_ENGINES if game == "connect4" else ENGINES
    low, high = records.MIN_SIZE, records.MAX_SIZE
    return Settings(game=game, width=_number(data, "width", 15, low, high),
                    height=_number(data, "height", 15, low, high),
                    rule=_choice(data, "rule", "freestyle", tuple(RULES)), black=_choice(data, "black", "human", sides),
                    white=_choice(data, "white", "engine", sides),
                    level=_number(data, "level", len(levels.LEVELS), 1, len(levels.LEVELS)),
                    time_s=_number(data, "time_s", 1.0, 0.05, MAX_TIME_S, float),
                    engine=_choice(data, "engine", "alphabeta", kinds),
                    nodes=_number(data, "nodes", 0, 0, MAX_NODES))


def win_probability(score: int) -> float:
    """The mover's chance to win for a score from its view: 1 / 0 for proven results."""
    if analyze.is_proven(score):
        return 1.0 if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-score / WIN_PROBABILITY_SCALE))


_NUMBERS = itertools.count(1)


class Table:
    """What both games' tables share: the players, the outcome, the think in progress."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.number = next(_NUMBERS)
        """Tells one game from the next (the page's state names it)."""
        self.busy: Optional[str] = None
        """What is thinking: 'move', 'hint', 'analyze', 'graph'; None when idle."""
        self.outcome: Optional[Dict[str, Any]] = None
        self.message = ""
        """A line for the status bar: the last move's eval, a hint, why the game ended."""

    def humans(self) -> Tuple[int, ...]:
        return tuple(c for c, who in ((BLACK, self.settings.black), (WHITE, self.settings.white)) if who == "human")

    def idle(self) -> None:
        """WebError while a think runs."""
        if self.busy is not None:
            raise WebError("Pentad is thinking: wait for it or press Stop.")

    def playing(self) -> None:
        """WebError while a think runs or after the game."""
        self.idle()
        if self.outcome is not None:
            raise WebError("The game is over: start a new one, or undo.")

    def side_to_move(self) -> int:
        raise NotImplementedError

    def at_end(self) -> bool:
        return True

    def state(self) -> Dict[str, Any]:
        """Everything the page draws, from the table's own records (safe while a think runs)."""
        raise NotImplementedError

    def play(self, value: Any) -> None:
        """The person's move; WebError when it cannot be played."""
        raise NotImplementedError

    def undo(self) -> None:
        """Take back the last move and, against Pentad, its own move before it, so that the person is to move."""
        raise NotImplementedError

    def begin_move(self, purpose: str = "move") -> Think:
        """Pentad's move ('move', at the game's level and engine) or a hint for the person ('hint', at full
        strength)."""
        raise NotImplementedError

    def interrupted(self) -> None:
        """The think ended without an answer (stopped, or failed)."""
        self.busy = None

    def engine_to_move(self) -> bool:
        """True when it is Pentad's turn in a game going on, at its last move."""
        return (self.outcome is None and self.busy is None and self.at_end()
                and self.side_to_move() not in self.humans())

    def your_turn(self) -> bool:
        """True when the person may move now."""
        return self.busy is None and self.outcome is None and self.side_to_move() in self.humans()

    def outcome_state(self) -> Optional[Dict[str, Any]]:
        """How the game ended, as the page reads it (None while it goes on)."""
        if self.outcome is None:
            return None
        return {"winner": COLOUR_NAMES[self.outcome["winner"]], "how": self.outcome["how"],
                "line": [list(p) for p in self.outcome["line"]]}

    def swap(self) -> None:
        """The person and Pentad exchange colours."""
        self.idle()
        self.settings.black, self.settings.white = self.settings.white, self.settings.black
        self.message = "Colours swapped."

    def resign(self) -> None:
        """The person to move gives the game up."""
        self.playing()
        loser = self.side_to_move()
        if loser not in self.humans():
            raise WebError("It is Pentad's turn: only the side to move can resign.")
        self.outcome = {"winner": opponent(loser), "how": "resign", "line": []}
        self.message = f"{'Black' if loser == BLACK else 'White'} resigned."

    def finish(self, purpose: str, answer: Any) -> None:
        """Apply a finished think's answer (on the event loop)."""
        raise NotImplementedError


class GomokuTable(Table):
    """A gomoku / renju game against Pentad, or a position under analysis (both sides played by the person)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.engine = Engine(settings.width, settings.height, RULES[settings.rule], memory_bytes=ENGINE_MEMORY)
        self.history: List[Point] = []
        """Every move of the game; the board shows the first `cursor` of them."""
        self.cursor = 0
        self.hint: Optional[Point] = None
        self.lines: List[Dict[str, Any]] = []
        self.graph: Optional[Dict[str, Any]] = None
        self.forbidden: List[Point] = []
        self.black_name = self.white_name = ""
        self.changed()

    # --- the position --------------------------------------------------------------------------------------------
    def side_to_move(self) -> int:
        return BLACK if self.cursor % 2 == 0 else WHITE

    def at_end(self) -> bool:
        return self.cursor == len(self.history)

    def changed(self) -> None:
        """Work out what the board shows of the new position (only while idle: the engine is ours)."""
        engine = self.engine
        self.hint = None
        self.lines = []
        self.outcome = None
        if engine.last_move_wins():
            winner = engine.stone(*self.history[self.cursor - 1])
            self.outcome = {"winner": winner, "how": "five", "line": list(engine.winning_line())}
            self.message = f"{'Black' if winner == BLACK else 'White'} made five."
        elif engine.is_full():
            self.outcome = {"winner": 0, "how": "full", "line": []}
            self.message = "The board is full: a draw."
        self.forbidden = sorted(engine.forbidden_points()) if engine.rule is Rule.RENJU else []

    def point(self, value: Any) -> Point:
        """A point of the board from the page: 'h8' or [x, y]; WebError when it is not one."""
        width, height = self.engine.width, self.engine.height
        if isinstance(value, str) and len(value) <= 8:
            try:
                return records.parse_point(value.strip().lower(), width, height)
            except records.RecordError:
                raise WebError(f"'{value}' is not a point of this {width}x{height} board.") from None
        if (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
                and 0 <= value[0] < width and 0 <= value[1] < height):
            return value[0], value[1]
        raise WebError(f"{str(value)[:40]!r} is not a point of this {width}x{height} board.")

    def name(self, point: Point) -> str:
        return records.format_point(point, self.engine.height)

    def play(self, value: Any) -> None:
        """The person's move at the shown position (later moves of the record are dropped)."""
        self.playing()
        point = self.point(value)
        if self.side_to_move() not in self.humans():
            raise WebError("It is Pentad's turn.")
        name = self.name(point)
        if self.engine.stone(*point):
            raise WebError(f"{name} is already taken.")
        if self.side_to_move() == BLACK and self.engine.is_forbidden(*point):
            raise WebError(f"{name} is forbidden for black under renju (double three, double four or overline).")
        self.place(point)
        if self.outcome is None:
            self.message = f"You played {name}."

    def place(self, point: Point) -> None:
        del self.history[self.cursor:]
        self.engine.play(*point)
        self.history.append(point)
        self.cursor += 1
        self.graph = None
        self.changed()

    def undo(self) -> None:
        self.idle()
        if self.cursor == 0:
            raise WebError("There is no move to take back.")
        self.goto(self.cursor - 1)
        while self.cursor > 0 and self.side_to_move() not in self.humans():
            self.goto(self.cursor - 1)
        del self.history[self.cursor:]
        self.graph = None
        self.message = "Move taken back."

    def goto(self, ply: Any) -> None:
        """Show the position after `ply` moves of the record (stepping through a game)."""
        self.idle()
        if type(ply) is not int or not 0 <= ply <= len(self.history):
            raise WebError(f"there is no move {str(ply)[:20]} in this game (0..{len(self.history)})")
        while self.cursor > ply:
            self.engine.undo()
            self.cursor -= 1
        while self.cursor < ply:
            self.engine.play(*self.history[self.cursor])
            self.cursor += 1
        self.changed()
        self.message = f"Move {ply} of {len(self.history)}."

    def load(self, filename: Any, text: Any) -> None:
        """A game record as uploaded or pasted (.psq, .sgf or a move list, by the name's suffix or the text)."""
        self.idle()
        if not isinstance(text, str) or not isinstance(filename, str):
            raise WebError("The record is missing.")
        if len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
            raise WebError(f"The record is larger than {MAX_RECORD_BYTES // 1024} KB.")
        name = (filename.strip() or "pasted")[:80]
        lower = name.lower()
        try:
            if lower.endswith(".psq") or text.lstrip().lower().startswith("piskvork"):
                game = records.read_psq(text, name)
            elif lower.endswith(".sgf") or text.lstrip().startswith("("):
                game = records.read_sgf(text, name)
            else:
                game = records.read_move_list(text, name, self.engine.width, self.engine.height,
                                              RULES[self.settings.rule])
            self.engine.load_game(game)
        except (records.RecordError, BoardError, ValueError) as error:
            raise WebError(f"Cannot read {name}: {error}") from None
        rule_name = next((key for key, rule in RULES.items() if rule is game.rule), "freestyle")
        self.settings.width, self.settings.height, self.settings.rule = game.width, game.height, rule_name
        self.history = list(game.moves)
        self.cursor = len(self.history)
        self.black_name, self.white_name = game.black, game.white
        self.graph = None
        self.settings.black = self.settings.white = "human"  # a loaded game is studied, not played on
        self.changed()
        if self.outcome is None:
            self.message = f"Loaded {name}: {len(self.history)} moves."

    def record(self) -> records.Game:
        you, me = "You", f"Pentad {pbrain.__version__} level {self.settings.level}"
        names = {"human": you, "engine": me}
        result = ""
        if self.outcome is not None:
            result = {BLACK: "B+", WHITE: "W+", 0: "draw"}[self.outcome["winner"]]
        return records.Game(self.engine.width, self.engine.height, self.engine.rule, list(self.history),
                            black=self.black_name or names[self.settings.black],
                            white=self.white_name or names[self.settings.white], result=result)

    def export(self, fmt: Any) -> Dict[str, str]:
        """The game as a file for the page to download: {name, mime, text}."""
        if fmt not in FORMATS:
            raise WebError(f"'{str(fmt)[:20]}' is not a format: psq, sgf or txt.")
        mime, write = FORMATS[fmt]
        return {"name": f"pentad-game.{fmt}", "mime": mime, "text": write(self.record())}

    # --- thinking ------------------------------------------------------------------------------------------------
    def limits(self) -> Limits:
        """One think's limits: the node limit when one is set, else the time per move."""
        if self.settings.nodes:
            return Limits(max_nodes=self.settings.nodes)
        return Limits(turn_ms=max(1, int(self.settings.time_s * 1000)))

    def info_payload(self, info: SearchInfo, purpose: str) -> Dict[str, Any]:
        score = info.score
        mover = self.side_to_move()
        chance = win_probability(score)
        return {"type": "thinking", "purpose": purpose, "depth": info.depth, "score": score,
                "eval": format_eval(score), "black_win": chance if mover == BLACK else 1.0 - chance,
                "nodes": info.nodes, "nps": info.nps, "time_ms": info.time_ms,
                "pv": [self.name(p) for p in info.pv[:16]], "pv_points": [list(p) for p in info.pv[:16]]}

    def begin_move(self, purpose: str = "move") -> Think:
        self.playing()
        if purpose == "move" and not self.engine_to_move():
            raise WebError("It is your turn.")
        if purpose == "hint" and self.side_to_move() not in self.humans():
            raise WebError("It is Pentad's turn.")
        engine, settings = self.engine, self.settings
        level = levels.level_by_number(settings.level) if purpose == "move" else levels.LEVELS[-1]
        kind = settings.engine if purpose == "move" else "alphabeta"
        limits = self.limits()

        def think(stop: StopFlag, progress: Progress) -> SearchResult:
            engine.set_strength(level.strength)
            engine.set_search_kind(kind)
            return engine.think(limits, on_info=lambda info: progress(self.info_payload(info, purpose)), stop=stop)

        self.busy = purpose
        self.hint = None
        return think

    def begin_analysis(self, count: Any) -> Think:
        """The `count` best moves of the shown position, each with its eval and line."""
        self.idle()
        if type(count) is not int or not 1 <= count <= MAX_NBEST:
            raise WebError(f"the number of best moves is 1..{MAX_NBEST}")
        if self.outcome is not None:
            raise WebError("The game is over at this move: nothing to analyse.")
        engine, limits = self.engine, self.limits()
        engine.set_strength(levels.FULL_STRENGTH)
        engine.set_search_kind("alphabeta")

        def think(stop: StopFlag, progress: Progress) -> Dict[str, Any]:
            return analyze_output.position_dict(analyze.analyze_position(engine, count, limits, stop))

        self.busy = "analyze"
        return think

    def begin_graph(self) -> Think:
        """Every move of the record scored and marked (the `analyze` command's marks), for the eval graph."""
        self.idle()
        if not self.history:
            raise WebError("There are no moves to analyse.")
        game = self.record()
        seconds = self.settings.time_s
        limits = Limits(max_nodes=self.settings.nodes) if self.settings.nodes else \
            Limits(turn_ms=max(1, int(1000 * min(seconds, analyze.DEFAULT_GAME_TIME_S))))
        engine = Engine(game.width, game.height, game.rule, memory_bytes=ENGINE_MEMORY)

        def think(stop: StopFlag, progress: Progress) -> Dict[str, Any]:
            def step(done: int, total: int) -> None:
                progress({"type": "progress", "done": done, "total": total})

            report = analyze.analyze_game(game, limits, stop, step, engine)
            data: Dict[str, Any] = analyze_output.game_dict(report)
            data["values"] = [0.0] + [analyze_output.plot_value(move["eval"]) for move in data["moves"]]
            data["limit"] = analyze_output.PLOT_PROVEN
            return data

        self.busy = "graph"
        return think

    def finish(self, purpose: str, answer: Any) -> None:
        self.busy = None
        if purpose == "analyze":
            black = self.side_to_move() == BLACK
            self.lines = [dict(line, black_win=win_probability(line["eval"]) if black
                               else 1.0 - win_probability(line["eval"])) for line in list(answer["moves"])]
            self.message = f"The {len(self.lines)} best moves for {answer['to_move']}."
        elif purpose == "graph":
            self.graph = answer
            self.message = answer["summary"]["result_text"] or "Game analysed."
        elif isinstance(answer, SearchResult):
            if answer.move is None:
                self.message = "No move is left."
            elif purpose == "hint":
                self.hint = answer.move
                self.message = f"Hint: {self.name(answer.move)} ({format_eval(answer.score)})."
            else:
                move = answer.move
                self.place(move)
                if self.outcome is None:
                    self.message = f"Pentad played {self.name(move)}, eval {format_eval(answer.score)}."

    def state(self) -> Dict[str, Any]:
        settings = self.settings
        shown = self.history[:self.cursor]
        return {
            "type": "state", "table": self.number, "game": "gomoku", "width": settings.width, "height": settings.height,
            "rule": settings.rule, "black": settings.black, "white": settings.white, "level": settings.level,
            "level_name": levels.level_by_number(settings.level).name, "time_s": settings.time_s,
            "engine": settings.engine, "nodes": settings.nodes,
            "moves": [list(p) for p in self.history], "names": [self.name(p) for p in self.history],
            "cursor": self.cursor, "to_move": "black" if self.side_to_move() == BLACK else "white",
            "last": list(shown[-1]) if shown else None, "busy": self.busy,
            "your_turn": self.your_turn(), "outcome": self.outcome_state(),
            "forbidden": [list(p) for p in self.forbidden] if self.side_to_move() == BLACK else [],
            "hint": list(self.hint) if self.hint else None, "lines": self.lines, "graph": self.graph,
            "message": self.message, "columns": [screen.column_letter(x) for x in range(settings.width)],
        }


class Connect4Table(Table):
    """A Connect Four game against Pentad (7 columns, 6 rows)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.position = Connect4()
        self.hint_column: Optional[int] = None

    def side_to_move(self) -> int:
        return BLACK if self.position.move_count % 2 == 0 else WHITE

    def changed(self) -> None:
        self.hint_column = None
        self.outcome = None
        result = self.position.result()
        if result is not None:
            cells = [list(cell) for cell in self.position.winning_cells()]
            self.outcome = {"winner": result, "how": "four" if result else "full", "line": cells}
            self.message = "A draw: the board is full." if not result else \
                f"{'Red' if result == BLACK else 'Yellow'} connected four."

    def play(self, value: Any) -> None:
        self.playing()
        if type(value) is not int or not 0 <= value < C4_WIDTH:
            raise WebError(f"{str(value)[:20]!r} is not a column (1..{C4_WIDTH}).")
        if self.side_to_move() not in self.humans():
            raise WebError("It is Pentad's turn.")
        if not self.position.can_play(value):
            raise WebError(f"Column {value + 1} is full.")
        self.position.play(value)
        self.changed()
        if self.outcome is None:
            self.message = f"You played column {value + 1}."

    def undo(self) -> None:
        self.idle()
        if self.position.move_count == 0:
            raise WebError("There is no move to take back.")
        self.position.undo()
        while self.position.move_count > 0 and self.side_to_move() not in self.humans():
            self.position.undo()
        self.changed()
        self.message = "Move taken back."

    def begin_move(self, purpose: str = "move") -> Think:
        self.playing()
        if purpose == "move" and not self.engine_to_move():
            raise WebError("It is your turn.")
        player = connect4_players.PLAYERS[self.settings.engine if purpose == "move" else "alphabeta"]
        position, seconds = self.position.copy(), self.settings.time_s

        def think(stop: StopFlag, progress: Progress) -> connect4_players.Answer:
            return player(position, seconds, stop)

        self.busy = purpose
        self.hint_column = None
        return think

    def finish(self, purpose: str, answer: Any) -> None:
        self.busy = None
        if purpose == "hint":
            self.hint_column = answer.column
            self.message = f"Hint: column {answer.column + 1} ({answer.text})."
            return
        self.position.play(answer.column)
        self.changed()
        if self.outcome is None:
            self.message = f"Pentad played column {answer.column + 1} ({answer.text})."

    def state(self) -> Dict[str, Any]:
        position = self.position
        cells = [[position.stone(col, row) for col in range(C4_WIDTH)] for row in range(C4_HEIGHT)]
        history = position.history()
        return {
            "type": "state", "table": self.number, "game": "connect4", "width": C4_WIDTH, "height": C4_HEIGHT,
            "cells": cells,
            "black": self.settings.black, "white": self.settings.white, "engine": self.settings.engine,
            "time_s": self.settings.time_s, "moves": history, "last": history[-1] if history else None,
            "to_move": "black" if self.side_to_move() == BLACK else "white", "busy": self.busy,
            "your_turn": self.your_turn(), "outcome": self.outcome_state(),
            "hint": self.hint_column, "message": self.message,
            "playable": [col for col in range(C4_WIDTH) if position.can_play(col)],
        }


def new_table(settings: Settings) -> Table:
    """A table for the settings' game."""
    try:
        return Connect4Table(settings) if settings.game == "connect4" else GomokuTable(settings)
    except (BoardError, Connect4Error, ValueError) as error:
        raise WebError(str(error)) from None

