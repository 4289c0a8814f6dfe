"""Shapes on the board as a person names them: each colour's fours, open threes and threat points, and the line of a
five. Read off the board's own per-rule patterns; used by the engine facade for analysis and front ends."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from pbrain.core.board import DIRECTIONS, Board
from pbrain.core.patterns import Pattern, Pattern4
from pbrain.core.rules import BLACK

Point = Tuple[int, int]


@dataclass(frozen=True)
class Threat:
    """One shape of one colour: an existing four / open four / open three and the points that complete it
    (`shape` set), or the points where the colour would make `makes` (`shape` None)."""

    makes: str
    """What playing one of the points makes: 'five', 'open four', 'four-three', 'double four', 'four',
    'double three' or 'open three'."""
    points: List[Point]
    shape: Optional[str] = None
    """The shape already on the board ('four', 'open four', 'open three'), or None for points to play."""


_POINT_KINDS = ("four-three", "double four", "four", "double three", "open three")
_PLAIN_CLASS = {Pattern4.BLOCK4_FLEX3: "four-three", Pattern4.BLOCK4: "four", Pattern4.BLOCK4_PLUS: "four",
                Pattern4.FLEX3_2X: "double three", Pattern4.FLEX3: "open three", Pattern4.FLEX3_PLUS: "open three"}


def threats(board: Board, color: int) -> List[Threat]:
    """The threats of `color` on the board: its fours (by their five points), its open threes (by the points that
    make them open fours), then the points where it makes a four-three, a double four, a four, a double three or an
    open three. Points black may not play under renju are left out (they are listed as forbidden)."""
    renju_black = board.renju and color == BLACK
    lines: Dict[str, Dict[Tuple[int, int], List[Point]]] = {"five": {}, "open four": {}}
    plain: Dict[str, List[Point]] = {kind: [] for kind in _POINT_KINDS}
    for cell in board.playable:
        if board.stone(cell) != 0:
            continue
        cls = board.pattern4(cell, color)
        if cls < Pattern4.FLEX3 or (renju_black and board.is_forbidden(cell)):
            continue
        point = board.xy(cell)
        line_patterns = [board.pattern(cell, color, d) for d in range(4)]
        for d, pattern in enumerate(line_patterns):
            makes = "five" if pattern == Pattern.F5 and cls == Pattern4.FIVE else \
                "open four" if pattern == Pattern.F4 else None
            if makes is not None:
                lines[makes].setdefault((d, _line_of(point, d)), []).append(point)
        if cls == Pattern4.FLEX4 and Pattern.F4 not in line_patterns:
            plain["double four"].append(point)
        elif cls in _PLAIN_CLASS:
            kind = _PLAIN_CLASS[Pattern4(cls)]
            plain["open three" if kind == "double three" and renju_black else kind].append(point)
    found: List[Threat] = []
    for makes, existing in lines.items():
        for (d, _), points in sorted(existing.items()):
            for run in _runs(points, d):
                shape = ("open four" if len(run) > 1 else "four") if makes == "five" else "open three"
                found.append(Threat(makes, run, shape))
    found += [Threat(kind, sorted(plain[kind], key=lambda p: (p[0], -p[1]))) for kind in _POINT_KINDS if plain[kind]]
    return found


def _line_of(point: Point, d: int) -> int:
    """Which line of direction d the point is on."""
    x, y = point
    return (y, x, x - y, x + y)[d]


def _runs(points: List[Point], d: int) -> List[List[Point]]:
    """Points on one line, in order along it, split where they are more than 5 apart (separate shapes)."""
    along = (lambda p: p[0]) if DIRECTIONS[d][0] != 0 else (lambda p: p[1])
    runs: List[List[Point]] = []
    for point in sorted(set(points), key=along):
        if runs and along(point) - along(runs[-1][-1]) <= 5:
            runs[-1].append(point)
        else:
            runs.append([point])
    return runs


def winning_line(board: Board) -> Tuple[Point, ...]:
    """The stones of the line the last move won with (empty when it did not win): the direction is the one on
    which the board's own per-rule patterns said that move makes a five."""
    if not board.last_move_wins():
        return ()
    cell = board.last_move()
    color = board.stone(cell)
    last = board.xy(cell)
    board.undo()
    fives = [d for d in range(4) if board.pattern(cell, color, d) == Pattern.F5]
    board.play(*last)
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
