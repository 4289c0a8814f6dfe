"""Drawing for `pbrain-pentad play`: the board as text (ANSI colour optional) and a status line updated in place.

Nothing here knows the engine: the board is drawn from plain data (stones by point, the last move, the winning
line, forbidden points), so it can be tested and reused. Points are (x, y) with y = 0 the top row; columns are
lettered a.. from the left (including 'i'), rows numbered 1.. from the bottom, as in Renlib and Yixin.
"""
from __future__ import annotations

import os
import string
from dataclasses import dataclass, field
from typing import Dict, Optional, Set, TextIO, Tuple

from pbrain.core.rules import BLACK, WHITE

Point = Tuple[int, int]

STONE_CHAR = {BLACK: "X", WHITE: "O"}
EMPTY_CHAR = "."
FORBIDDEN_CHAR = "x"
HINT_CHAR = "?"

# ANSI SGR sequences (used only when colour is on).
RESET = "\x1b[0m"
_BLACK_STYLE = "\x1b[1;31m"      # bold red
_WHITE_STYLE = "\x1b[1;94m"      # bold bright blue
_EMPTY_STYLE = "\x1b[2m"         # dim
_LABEL_STYLE = "\x1b[2m"
_FORBIDDEN_STYLE = "\x1b[35m"    # magenta
_HINT_STYLE = "\x1b[1;32m"       # bold green
_FIVE_STYLE = "\x1b[7m"          # reverse video on top of the stone's colour
_MARK_STYLE = "\x1b[1;33m"       # the last move's brackets: bold yellow
ERASE_LINE = "\r\x1b[K"


def column_letter(x: int) -> str:
    """The letter of column x (0: 'a'); past 'z' the columns go on with capitals (boards up to 52 wide)."""
    letters = string.ascii_lowercase + string.ascii_uppercase
    return letters[x] if 0 <= x < len(letters) else "?"


def wants_color(stream: TextIO) -> bool:
    """True when `stream` is a terminal that should get colour: a tty, NO_COLOR unset (or empty, per
    no-color.org) and TERM not 'dumb'."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return is_tty(stream)


def is_tty(stream: TextIO) -> bool:
    """True when `stream` is a terminal."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass
class BoardView:
    """What the board shows."""

    width: int
    height: int
    stones: Dict[Point, int] = field(default_factory=dict)
    """Colour (BLACK / WHITE) by point."""
    last: Optional[Point] = None
    """The last move, bracketed."""
    five: Set[Point] = field(default_factory=set)
    """The winning line, marked."""
    forbidden: Set[Point] = field(default_factory=set)
    """Renju points black may not play (shown as 'x')."""
    hint: Optional[Point] = None
    """A suggested point (shown as '?')."""


def render_board(view: BoardView, color: bool = False) -> str:
    """The board as lines of text (no trailing newline).

    Every point takes two columns: a separator and the point's character. The separators around the last move
    are '[' and ']'; around the stones of a winning line '(' and ')', joined by '-' along a horizontal line.
    With colour, stones are coloured, the winning line is in reverse video and the brackets are highlighted.
    """
    width, height = view.width, view.height
    label_width = len(str(height))
    letters = " ".join(column_letter(x) for x in range(width))
    pad = " " * (label_width + 2)
    header = pad + (_paint(letters, _LABEL_STYLE) if color else letters)
    lines = [header]
    for y in range(height):
        label = str(height - y).rjust(label_width)
        parts = [(_paint(label, _LABEL_STYLE) if color else label), " "]
        for x in range(width + 1):
            parts.append(_separator(view, x, y, color))
            if x < width:
                parts.append(_point(view, (x, y), color))
        parts.append(" ")
        parts.append(_paint(str(height - y), _LABEL_STYLE) if color else str(height - y))
        lines.append("".join(parts))
    lines.append(header)
    return "\n".join(lines)


def _separator(view: BoardView, x: int, y: int, color: bool) -> str:
    """The character between column x-1 and column x (x = width: after the last column) on row y."""
    before, after = (x - 1, y), (x, y)
    if view.last == after and x < view.width:
        char = "["
    elif view.last == before and x > 0:
        char = "]"
    elif before in view.five and after in view.five and _horizontal(view.five):
        char = "-"
    elif after in view.five and x < view.width:
        char = "("
    elif before in view.five and x > 0:
        char = ")"
    else:
        return " "
    return _paint(char, _MARK_STYLE if char in "[]" else _FIVE_STYLE) if color else char


def _horizontal(points: Set[Point]) -> bool:
    return len({y for _, y in points}) == 1


def _point(view: BoardView, point: Point, color: bool) -> str:
    stone = view.stones.get(point)
    if stone is not None:
        char = STONE_CHAR[stone]
        if not color:
            return char
        style = _BLACK_STYLE if stone == BLACK else _WHITE_STYLE
        if point in view.five:
            style += _FIVE_STYLE
        return _paint(char, style)
    if point == view.hint:
        return _paint(HINT_CHAR, _HINT_STYLE) if color else HINT_CHAR
    if point in view.forbidden:
        return _paint(FORBIDDEN_CHAR, _FORBIDDEN_STYLE) if color else FORBIDDEN_CHAR
    return _paint(EMPTY_CHAR, _EMPTY_STYLE) if color else EMPTY_CHAR


def _paint(text: str, style: str) -> str:
    return f"{style}{text}{RESET}"


def paint(text: str, kind: str, color: bool) -> str:
    """`text` in the style named `kind` ('black', 'white', 'error', 'good', 'dim', 'bold') when colour is on."""
    if not color:
        return text
    style = {"black": _BLACK_STYLE, "white": _WHITE_STYLE, "error": "\x1b[31m", "good": "\x1b[1;32m",
             "dim": "\x1b[2m", "bold": "\x1b[1m"}.get(kind, "")
    return _paint(text, style) if style else text


def stone_name(color: int, colored: bool = False) -> str:
    """'black (X)' or 'white (O)', the letter coloured when `colored`."""
    name = "black" if color == BLACK else "white"
    return f"{name} ({paint(STONE_CHAR[color], name, colored)})"


class StatusLine:
    """One line rewritten in place on a terminal ("thinking... depth 7, 0.4 s"); silent when not live."""

    def __init__(self, out: TextIO, live: bool) -> None:
        self.out = out
        self.live = live
        self.shown = False

    def show(self, text: str) -> None:
        """Replace the status line with `text`."""
        if not self.live:
            return
        self.out.write(ERASE_LINE + text)
        self.out.flush()
        self.shown = True

    def clear(self) -> None:
        """Erase the status line, leaving the cursor at its start."""
        if self.live and self.shown:
            self.out.write(ERASE_LINE)
            self.out.flush()
        self.shown = False
