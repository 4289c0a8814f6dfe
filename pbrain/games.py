"""What `play` and `analyze` share: sizes and rule names from their command lines, scores put for people, a
recorded game set up on an engine, and the line a five was made with."""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from pbrain import params, records
from pbrain.board import DIRECTIONS, BoardError
from pbrain.engine import Engine, Point
from pbrain.patterns import Pattern
from pbrain.rules import BLACK, Rule

RULES: Dict[str, Rule] = {"freestyle": Rule.FREESTYLE, "standard": Rule.STANDARD, "renju": Rule.RENJU,
                          "caro": Rule.CARO}
"""The rule names the command lines take."""


def parse_size(text: str) -> Tuple[int, int]:
    """'15' -> (15, 15), '15x20' -> (15, 20) (width x height); raises ValueError outside the record sizes."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX*]\s*(\d+)\s*)?", text)
    if match is None:
        raise ValueError(f"bad board size '{text}' (give N or WxH, e.g. 15 or 15x20)")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    low, high = records.MIN_SIZE, records.MAX_SIZE
    if not (low <= width <= high and low <= height <= high):
        raise ValueError(f"board size {width}x{height} out of range ({low}..{high})")
    return width, height


def format_eval(score: int) -> str:
    """A score from the mover's view: '+35', '-120', 'win in 4' (the winner's moves to five), 'loss in 3'."""
    if abs(score) >= params.WIN_THRESHOLD:
        plies = params.WIN - abs(score)
        return f"win in {(plies + 1) // 2}" if score > 0 else f"loss in {max(1, plies // 2)}"
    return f"{score:+d}"


def replay(engine: Engine, game: records.Game, rule: Optional[Rule] = None) -> None:
    """Set the engine to the game's board and play its moves (`rule` overrides the record's). A move off the
    board, on a stone, forbidden for black under renju or after a five raises RecordError naming it, and the
    engine keeps the position it had."""
    saved = (engine.width, engine.height, engine.rule, [(x, y) for x, y, _ in engine.stones()])
    try:
        engine.new_game(game.width, game.height, Rule(game.rule) if rule is None else rule)
        for number, (x, y) in enumerate(game.moves, 1):
            check_move(engine, number, x, y)
            engine.play(x, y)
    except (records.RecordError, BoardError):
        width, height, old_rule, moves = saved
        engine.new_game(width, height, old_rule)
        for point in moves:
            engine.play(*point)
        raise


def check_move(engine: Engine, number: int, x: int, y: int) -> None:
    """RecordError when move `number` of a game, (x, y), cannot be played now: off the board, on a stone, after a
    five, or forbidden for black under renju."""
    board = engine.board
    if not board.on_board(x, y):
        raise records.RecordError(f"move {number} ({x},{y}) is off the {engine.width}x{engine.height} board")
    name = records.format_point((x, y), engine.height)
    if engine.last_move_wins():
        winner = "black" if board.stone(board.last_move()) == BLACK else "white"
        raise records.RecordError(f"move {number} ({name}) comes after {winner}'s five at move {number - 1}")
    if board.stone(board.index(x, y)) != 0:
        raise records.RecordError(f"move {number} ({name}) is on a stone already there")
    if engine.side_to_move == BLACK and engine.is_forbidden(x, y):
        raise records.RecordError(f"move {number} ({name}) is forbidden for black under renju")


def winning_line(engine: Engine) -> Tuple[Point, ...]:
    """The stones of the line the last move won with (empty when it did not win): the direction is the one on
    which the board's own per-rule patterns said that move makes a five."""
    if not engine.last_move_wins():
        return ()
    board = engine.board
    cell = board.last_move()
    color = board.stone(cell)
    last = engine.undo()
    fives = [d for d in range(4) if board.pattern(cell, color, d) == Pattern.F5]
    engine.play(*last)
    found: List[Tuple[Point, ...]] = []
    for d in fives:
        dx, dy = DIRECTIONS[d]
        line = [last]
        for sign in (1, -1):
            x, y = last[0] + sign * dx, last[1] + sign * dy
            while board.on_board(x, y) and board.stone(board.index(x, y)) == color:
                line.append((x, y))
                x, y = x + sign * dx, y + sign * dy
        found.append(tuple(sorted(line)))
    return min(found, key=len) if found else ()
