"""`pbrain-pentad analyze`: a position's best moves and threats, or an eval for every move of a game.

Position analysis: the n best moves (analysis.n_best) with evals from the side to move's view and their lines, the
threats on the board for each colour as the engine names them (Engine.threats), and
black's renju forbidden points. Game analysis: every position before a move is searched for the side to move (best
move and score); the played move's score is minus the score of the position after it, and a move is marked when it
throws something away (MISSED_WIN, BLUNDER, MISTAKE). A forced reply (the only block of a four) is not searched by
the engine, so its position is scored by the position after the block (`evaluate`).

The analysis functions use only the Engine facade and leave the engine's position as they found it; the text, JSON
and picture output is in analyze_output.py, the command line in analyze_cli.py.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from pbrain import analysis, params, records
from pbrain.core.rules import BLACK, WHITE, Rule, opponent
from pbrain.engine import BoardError, Engine, Limits, Point, SearchResult, StopFlag, Threat
from pbrain.frontends.common import format_eval

MISTAKE_DROP = 100
"""A move that loses at least this many centi-pawns of eval (from the mover's view) against the best move."""
BLUNDER_DROP = 300
"""A move that loses at least this much, or turns a position that was not lost into a proven loss."""
PROVEN_VALUE = 2000
"""Proven wins and losses count as +/- this in eval drops, so a slower forced win is no drop at all."""
MISSED_WIN, BLUNDER, MISTAKE = "missed win", "blunder", "mistake"
"""The marks, worst first: a proven win was available and the move leaves none; a big drop; a drop."""
DEFAULT_POSITION_TIME_S = 1.0
DEFAULT_GAME_TIME_S = 0.3
"""Default search time for one position (position analysis) and for each position of a game."""
DEFAULT_NBEST = 3
DEPTH_ONLY_TURN_MS = 3_600_000
"""With --depth alone, n_best still shares out a time budget: this one is never the limit."""
MAX_FORCED_CHAIN = 30
"""At most this many forced replies are followed to score a position (see `evaluate`)."""


class AnalyzeError(Exception):
    """Input that cannot be analysed (bad option, unreadable record, illegal move); the message is one line."""


class Interrupted(Exception):
    """The analysis was stopped (Ctrl-C)."""


def color_name(color: int) -> str:
    return "black" if color == BLACK else "white"


def is_proven(score: int) -> bool:
    """True for a forced win or loss (params.WIN minus the plies to the five)."""
    return abs(score) >= params.WIN_THRESHOLD


def forced_without_line(result: SearchResult) -> bool:
    """A forced block answered without the line after it (depth 0: no turn was left to search on) and not
    already proven: its score says nothing until that line is searched."""
    return result.reason == "defend" and result.depth == 0 and not is_proven(result.score)


def capped(score: int) -> int:
    """The score as eval drops count it: proven results as +/- PROVEN_VALUE, others clamped inside that."""
    if is_proven(score):
        return PROVEN_VALUE if score > 0 else -PROVEN_VALUE
    return max(-PROVEN_VALUE + 1, min(PROVEN_VALUE - 1, score))


# ---------------------------------------------------------------- setting up

def setup(game: records.Game, rule: Optional[Rule] = None, engine: Optional[Engine] = None) -> Engine:
    """An engine with the game's moves played (`rule` overrides the record's). Raises AnalyzeError naming the
    move for a move off the board, on a stone, forbidden for black under renju, or played after a five."""
    try:
        if engine is None:
            engine = Engine(game.width, game.height, Rule(game.rule) if rule is None else rule)
        engine.load_game(game, rule)
        engine.prepare()  # the hash table is made now, not out of the first position's turn
    except (BoardError, records.RecordError) as error:
        raise AnalyzeError(str(error)) from None
    return engine


def _name(point: Point, height: int) -> str:
    return records.format_point(point, height)


def is_finished(engine: Engine) -> bool:
    """True when the last move made five or the board is full."""
    return engine.last_move_wins() or engine.is_full()


# ---------------------------------------------------------------- threats

# ---------------------------------------------------------------- searching

@dataclass(frozen=True)
class Eval:
    """A searched position: its best move and score."""

    move: Optional[Point]
    """None when no move is left (full board)."""
    score: int
    """From the side to move's view; proven results are params.WIN minus plies."""
    pv: List[Point] = field(default_factory=list)
    depth: int = 0
    reason: str = "search"
    """The engine's reason (engine.SearchResult.reason)."""


def evaluate(engine: Engine, limits: Limits, stop: Optional[StopFlag] = None,
             forced_left: int = MAX_FORCED_CHAIN) -> Eval:
    """Search the position for the side to move. When the engine answers with a forced block ('defend') that
    comes without the line after it (depth 0: no time was left over to search on, or no turn limit), the block
    is played and the position after it is scored instead, so the score is that of the line the game must take."""
    result = engine.think(limits, stop=stop)
    if result.move is None:
        return Eval(None, 0, [], result.depth, result.reason)
    pv = list(result.pv) or [result.move]
    if not forced_without_line(result) or forced_left <= 0 or (stop and stop.is_set()):
        return Eval(result.move, result.score, pv, result.depth, result.reason)
    engine.play(*result.move)
    try:
        after = evaluate(engine, limits, stop, forced_left - 1)
    finally:
        engine.undo()
    return Eval(result.move, -after.score, [result.move] + after.pv, after.depth, "defend")


def _untimed(limits: Limits) -> bool:
    return limits.turn_ms is None and limits.match_ms is None and limits.time_left_ms is None


def time_limits(seconds: Optional[float], depth: Optional[int], default_s: float) -> Limits:
    """Limits for one position: `seconds` (default_s when neither is given) and / or a fixed `depth`. A depth
    alone leaves out the clock, so the result is reproducible."""
    if seconds is None and depth is not None:
        return Limits(max_depth=depth)
    return Limits(turn_ms=max(1, int(round((seconds or default_s) * 1000))), max_depth=depth)


# ---------------------------------------------------------------- position analysis

@dataclass(frozen=True)
class Line:
    """One of the n best moves."""

    move: Point
    score: int
    """From the side to move's view."""
    pv: List[Point]
    depth: int
    reason: str


@dataclass
class PositionReport:
    width: int
    height: int
    rule: Rule
    history: List[Point]
    """The moves that led to the position."""
    to_move: int
    lines: List[Line]
    threats: Dict[int, List[Threat]]
    """By colour."""
    forbidden: List[Point]
    winner: Optional[int] = None
    """Set when the game is over: the colour that made five, or 0 for a full board (draw)."""


def analyze_position(engine: Engine, nbest: int = DEFAULT_NBEST, limits: Optional[Limits] = None,
                     stop: Optional[StopFlag] = None) -> PositionReport:
    """The engine's position: the `nbest` best moves with scores and lines, the threats and the forbidden points.
    The position is unchanged afterwards."""
    if limits is None:
        limits = time_limits(None, None, DEFAULT_POSITION_TIME_S)
    history = [(x, y) for x, y, _ in engine.stones()]
    report = PositionReport(engine.width, engine.height, engine.rule, history, engine.side_to_move, [], {}, [])
    if is_finished(engine):
        report.winner = engine.stones()[-1][2] if engine.last_move_wins() else 0
        return report
    report.threats = {color: engine.threats(color) for color in (BLACK, WHITE)}
    report.forbidden = sorted(engine.forbidden_points())
    if _untimed(limits):
        limits = dataclasses.replace(limits, turn_ms=DEPTH_ONLY_TURN_MS)
    ranked = analysis.n_best(engine, nbest, limits, stop)
    for item in ranked:
        line = Line(item.move, item.score, list(item.pv), item.result.depth, item.result.reason)
        if forced_without_line(item.result):  # score the line after the block
            share_ms = max(1, (limits.turn_ms or DEPTH_ONLY_TURN_MS) // (2 * nbest))
            forced = evaluate(engine, Limits(turn_ms=share_ms, max_depth=limits.max_depth), stop)
            line = Line(item.move, forced.score, forced.pv, forced.depth, "defend")
        report.lines.append(line)
    # each line is its own search (the moves above it excluded): with pruning a later one can score higher
    report.lines.sort(key=lambda line: -line.score)
    if stop is not None and stop.is_set():
        raise Interrupted()
    return report


# ---------------------------------------------------------------- game analysis

@dataclass(frozen=True)
class MoveReport:
    """One move of a game, with scores from the mover's view (`black_view` turns them round)."""

    number: int
    color: int
    move: Point
    score: int
    """The played move's score: minus the score of the position after it (params.WIN when it made five)."""
    score_text: str
    """The played move's eval from black's view, as text ('+35', 'B wins in 3', 'W five')."""
    best: Eval
    """The search of the position before the move."""
    best_text: str
    """The best move's eval from black's view, as text."""
    drop: int
    """capped(best) - capped(played), 0 when the best move was played."""
    mark: Optional[str]

    def black_view(self, score: int) -> int:
        return score if self.color == BLACK else -score


@dataclass
class GameReport:
    width: int
    height: int
    rule: Rule
    black: str
    white: str
    moves: List[MoveReport]
    result: str
    """'B+', 'W+', 'draw' or '' (unfinished)."""
    result_text: str
    final: Optional[Eval] = None
    """The search of the final position (None after a five or on a full board)."""
    turning_point: Optional[int] = None
    """Index into `moves` of the turning point: the loser's marked move with the largest drop (either side's when
    nobody won), None when no move is marked."""


def black_view_text(score: int, to_move: int) -> str:
    """An eval from `to_move`'s view written from black's view: '+35', '-120', 'B wins in 3', 'W wins in 2'."""
    if not is_proven(score):
        return format_eval(score if to_move == BLACK else -score)
    winner = to_move if score > 0 else opponent(to_move)
    return f"{'BW'[winner - 1]} wins in {format_eval(score).rsplit(' ', 1)[1]}"


def mark_for(best: int, played: int) -> Optional[str]:
    """The mark of a move that was not the best one, from the two scores (mover's view)."""
    if best >= params.WIN_THRESHOLD and played < params.WIN_THRESHOLD:
        return MISSED_WIN
    if best > -params.WIN_THRESHOLD and played <= -params.WIN_THRESHOLD:
        return BLUNDER
    drop = capped(best) - capped(played)
    return BLUNDER if drop >= BLUNDER_DROP else MISTAKE if drop >= MISTAKE_DROP else None


Progress = Optional[Callable[[int, int], None]]


def analyze_game(game: records.Game, limits: Optional[Limits] = None, stop: Optional[StopFlag] = None,
                 progress: Progress = None, engine: Optional[Engine] = None, rule: Optional[Rule] = None) -> GameReport:
    """Every move of `game` (rule: `rule` or the record's) scored and marked. `progress(done, total)` hears each
    searched position; AnalyzeError for an illegal game, Interrupted when `stop` is set."""
    if limits is None:
        limits = time_limits(None, None, DEFAULT_GAME_TIME_S)
    engine = setup(game, rule, engine)
    moves = list(game.moves)
    for _ in moves:
        engine.undo()
    searched: List[Eval] = []
    try:
        for index in range(len(moves) + 1):
            if index > 0 and engine.last_move_wins():
                break
            if progress is not None:
                progress(index, len(moves) + 1)
            searched.append(evaluate(engine, limits, stop))
            if stop is not None and stop.is_set():
                raise Interrupted()
            if index < len(moves):
                engine.play(*moves[index])
        won = engine.last_move_wins()
        full = engine.is_full()
    finally:
        for _ in engine.stones():
            engine.undo()
        for move in moves:  # leave the engine at the end of the game, as setup() does
            engine.play(*move)
    reports = []
    for index, move in enumerate(moves):
        color = BLACK if index % 2 == 0 else WHITE
        best = searched[index]
        if index + 1 == len(searched):  # the move made five
            played, text = params.WIN, f"{'BW'[color - 1]} five"
        else:
            after = searched[index + 1]
            played, text = -after.score, black_view_text(after.score, opponent(color))
        same = move == best.move
        drop = 0 if same else capped(best.score) - capped(played)
        mark = None if same else mark_for(best.score, played)
        reports.append(MoveReport(index + 1, color, move, played, text, best, black_view_text(best.score, color),
                                  drop, mark))
    result, result_text = _result(game, engine, won, full)
    report = GameReport(game.width, game.height, engine.rule, game.black, game.white, reports, result, result_text,
                        None if won or full else searched[-1])
    report.turning_point = turning_point(reports, result)
    return report


def _result(game: records.Game, engine: Engine, won: bool, full: bool) -> Tuple[str, str]:
    if won:
        x, y, winner = engine.stones()[-1]
        last = _name((x, y), game.height)
        return "BW"[winner - 1] + "+", f"{color_name(winner).capitalize()} won with a five at move " \
                                       f"{len(game.moves)} ({last})."
    if full:
        return "draw", "Draw: the board is full."
    if game.result in ("B+", "W+"):
        name = "Black" if game.result == "B+" else "White"
        return game.result, f"{name} won by the record ({game.result}) after {len(game.moves)} moves, without a five."
    if game.result == "draw":
        return "draw", f"Draw by the record after {len(game.moves)} moves."
    return "", f"Unfinished after {len(game.moves)} moves."


def turning_point(moves: List[MoveReport], result: str) -> Optional[int]:
    """The loser's marked move that dropped the most (either side's when nobody won); the earliest on a tie."""
    loser = {"B+": WHITE, "W+": BLACK}.get(result)
    marked = [i for i, m in enumerate(moves) if m.mark and (loser is None or m.color == loser)]
    return max(marked, key=lambda i: (moves[i].drop, -i)) if marked else None
