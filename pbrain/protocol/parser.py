"""The Gomocup / Piskvork protocol: bytes -> lines -> commands, and replies -> lines. Parsing and formatting only.

No state beyond the framing of one multi-line command, no threads, no engine: session.py applies the commands.
Every parse function returns one shape or raises ProtocolError, whose message becomes an `ERROR ...` reply.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from pbrain import params

Point = Tuple[int, int]

MAX_LINE_BYTES = 65536
"""Longer input lines are dropped with an ERROR (no manager sends anything close)."""
MAX_BLOCK_LINES = 2048
"""More stone lines than this in one BOARD-like block are dropped (32 x 32 = 1024 points at most)."""
MAX_NUMBER_DIGITS = 18
"""Numbers with more digits are refused before int() sees them."""
ECHO_CHARS = 40
"""How much of a bad input line an ERROR / UNKNOWN reply quotes."""

BOARD_BLOCKS = frozenset({"BOARD", "YXBOARD", "SWAP2BOARD"})
"""Commands followed by stone lines and DONE that Pentad reads."""
FOREIGN_BLOCKS = frozenset({
    "YXBLOCK", "YXBLOCKUNDO", "YXQUERYDATABASEALL", "YXQUERYDATABASEALLT", "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT", "YXDELETEDATABASEONE", "YXDELETEDATABASEALL", "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE", "YXEDITLABELDATABASE", "YXSOOSORVSTEP2", "YXSOOSORVSTEP3", "YXSOOSORVSTEP4",
    "YXSOOSORVSTEP5", "YXSOOSORVSTEP6"})
"""Yixin-Board commands with a stone list and DONE that Pentad does not support: the whole block gets one
UNKNOWN instead of one per stone line."""

ABOUT_AUTHOR = "Pentad engineers"
ABOUT_COUNTRY = "International"
ABOUT_WWW = ""
"""Pentad has no public web site yet; the key stays so that readers of ABOUT find all five fields."""


class ProtocolError(ValueError):
    """A malformed or unacceptable command; the message is sent as `ERROR <message>`."""


@dataclass(frozen=True)
class Command:
    """One command as the manager sent it."""

    word: str
    """Upper-case command word ('TURN'); '' for a line that does not start with a word (a stray stone line)."""
    args: str
    """The rest of the line, stripped."""
    received: float
    """time.monotonic() when the command was complete (for blocks: when DONE arrived)."""
    block: Tuple[str, ...] = ()
    """The lines between a block command (BOARD, YXBOARD, SWAP2BOARD, ...) and its DONE."""
    problem: str = ""
    """What went wrong while framing it (no DONE, line too long); the session answers ERROR and ignores it."""

    @property
    def text(self) -> str:
        """The command line as received (word and arguments)."""
        return f"{self.word} {self.args}".strip()


class LineDecoder:
    """Splits a byte stream into text lines: LF or CR LF, lenient UTF-8, blank lines skipped, long lines cut."""

    def __init__(self) -> None:
        self._pending = b""
        self._overflow = False

    def feed(self, data: bytes) -> List[str]:
        """Lines completed by `data`; a too-long line comes out as '\\x00LONG' (see TOO_LONG)."""
        lines: List[str] = []
        chunks = (self._pending + data).split(b"\n")
        self._pending = chunks.pop()
        for raw in chunks:
            if self._overflow:
                self._overflow = False
                lines.append(TOO_LONG)
                continue
            line = self._decode(raw)
            if line:
                lines.append(line)
        if len(self._pending) > MAX_LINE_BYTES:
            self._pending = b""
            self._overflow = True
        return lines

    def finish(self) -> List[str]:
        """The last line when the stream ends without a newline."""
        rest, self._pending = self._pending, b""
        if self._overflow:
            self._overflow = False
            return [TOO_LONG]
        line = self._decode(rest)
        return [line] if line else []

    @staticmethod
    def _decode(raw: bytes) -> str:
        return raw.decode("utf-8", errors="replace").strip()


TOO_LONG = "\x00LONG"
"""LineDecoder's marker for a line longer than MAX_LINE_BYTES (a NUL never survives strip-and-split otherwise)."""


def _command_word(line: str) -> Tuple[str, str]:
    head, _, rest = line.partition(" ")
    if "\t" in head:
        head, _, more = head.partition("\t")
        rest = f"{more} {rest}"
    return head.upper(), rest.strip()


def _starts_command(line: str) -> bool:
    return line[:1].isalpha()


class CommandFramer:
    """Turns lines into Commands, gathering a block command's lines up to DONE.

    A line starting with a letter inside a block ends the block without DONE: the block comes out with a problem
    and the line is read as the next command (so END or a new command is never swallowed by a broken BOARD).
    """

    def __init__(self) -> None:
        self._open: Optional[Command] = None
        self._lines: List[str] = []
        self._dropped = 0

    def feed(self, line: str, received: float) -> List[Command]:
        """Commands completed by one input line."""
        if line == TOO_LONG:
            out = self._close(received, "block not closed by DONE") if self._open else []
            return out + [Command("", "", received, problem=f"line longer than {MAX_LINE_BYTES} bytes ignored")]
        if self._open is not None:
            if line.upper() == "DONE":
                return self._close(received, "")
            if not _starts_command(line):
                if len(self._lines) < MAX_BLOCK_LINES:
                    self._lines.append(line)
                else:
                    self._dropped += 1
                return []
            return self._close(received, f"{self._open.word} not closed by DONE") + self.feed(line, received)
        word, args = _command_word(line)
        if not _starts_command(line):
            return [Command("", line, received)]
        if word in BOARD_BLOCKS or word in FOREIGN_BLOCKS:
            self._open = Command(word, args, received)
            self._lines, self._dropped = [], 0
            return []
        return [Command(word, args, received)]

    def finish(self, received: float) -> List[Command]:
        """At end of input: an open block comes out with a problem."""
        if self._open is None:
            return []
        return self._close(received, f"{self._open.word} not closed by DONE")

    def _close(self, received: float, problem: str) -> List[Command]:
        assert self._open is not None
        if not problem and self._dropped:
            problem = f"{self._open.word} with more than {MAX_BLOCK_LINES} lines"
        command = Command(self._open.word, self._open.args, received, tuple(self._lines), problem)
        self._open, self._lines = None, []
        return [command]


# --- parsing ------------------------------------------------------------------------------------------------------
_NUMBER = r"[+-]?\d+"
_POINT = re.compile(rf"\s*({_NUMBER})\s*,\s*({_NUMBER})\s*")
_STONE = re.compile(rf"\s*({_NUMBER})\s*,\s*({_NUMBER})\s*(?:,\s*({_NUMBER})\s*)?")
_SIZE_PAIR = re.compile(rf"\s*({_NUMBER})\s*(?:,|\s)\s*({_NUMBER})\s*")


def quote(text: str) -> str:
    """A bad input fragment made safe to echo in a reply: printable ASCII, at most ECHO_CHARS characters."""
    clean = "".join(c if " " <= c <= "~" else "?" for c in text)
    return clean if len(clean) <= ECHO_CHARS else clean[:ECHO_CHARS - 3] + "..."


def to_int(text: str, what: str) -> int:
    """A decimal integer, or ProtocolError naming `what`."""
    text = text.strip()
    if not re.fullmatch(_NUMBER, text):
        raise ProtocolError(f"{what}: '{quote(text)}' is not a whole number")
    if len(text.lstrip("+-")) > MAX_NUMBER_DIGITS:
        raise ProtocolError(f"{what}: {quote(text)} is out of range")
    return int(text)


def parse_size(args: str) -> int:
    """START's argument: one board size."""
    parts = args.split()
    if len(parts) != 1:
        raise ProtocolError(f"START takes one size, e.g. START 15 (got '{quote(args)}')")
    return to_int(parts[0], "START")


def parse_rect(args: str) -> Tuple[int, int]:
    """RECTSTART's argument: width,height."""
    match = _SIZE_PAIR.fullmatch(args)
    if not match:
        raise ProtocolError(f"RECTSTART takes width,height, e.g. RECTSTART 20,15 (got '{quote(args)}')")
    return to_int(match[1], "RECTSTART width"), to_int(match[2], "RECTSTART height")


def parse_point(args: str, width: int, height: int, what: str) -> Point:
    """`x,y` on a width x height board."""
    match = _POINT.fullmatch(args)
    if not match:
        raise ProtocolError(f"{what} takes x,y (got '{quote(args)}')")
    return _on_board(to_int(match[1], what), to_int(match[2], what), width, height, what)


def _on_board(x: int, y: int, width: int, height: int, what: str) -> Point:
    if not (0 <= x < width and 0 <= y < height):
        raise ProtocolError(f"{what}: {x},{y} is off the {width}x{height} board")
    return x, y


@dataclass(frozen=True)
class StoneLine:
    """One `x,y,field` line of a BOARD-like block."""

    x: int
    y: int
    field: Optional[int]
    """1 own stone, 2 opponent's, 3 winning-line / blocked marker; None when the line had no field."""


def parse_stone(line: str, width: int, height: int, what: str) -> StoneLine:
    """`x,y,field` (or `x,y`) on a width x height board; field must be 1, 2 or 3."""
    match = _STONE.fullmatch(line)
    if not match:
        raise ProtocolError(f"{what}: '{quote(line)}' is not x,y,field")
    x, y = _on_board(to_int(match[1], what), to_int(match[2], what), width, height, what)
    field = None if match[3] is None else to_int(match[3], what)
    if field is not None and field not in (1, 2, 3):
        raise ProtocolError(f"{what}: field {field} in '{quote(line)}' is not 1, 2 or 3")
    return StoneLine(x, y, field)


def parse_stones(lines: Sequence[str], width: int, height: int, what: str) -> List[StoneLine]:
    """Every line of a block; the same point twice is an error."""
    stones = [parse_stone(line, width, height, what) for line in lines]
    seen = set()
    for stone in stones:
        if (stone.x, stone.y) in seen:
            raise ProtocolError(f"{what}: {stone.x},{stone.y} is given twice")
        seen.add((stone.x, stone.y))
    return stones


def parse_info(args: str) -> Tuple[str, str]:
    """INFO's arguments: (lower-case key, value text)."""
    key, _, value = args.partition(" ")
    if not key:
        raise ProtocolError("INFO needs a key and a value, e.g. INFO timeout_turn 5000")
    return key.lower(), value.strip()


def parse_count(args: str, what: str, default: int) -> int:
    """An optional single positive count (YXNBEST n)."""
    parts = args.split()
    if not parts:
        return default
    if len(parts) != 1:
        raise ProtocolError(f"{what} takes one number (got '{quote(args)}')")
    value = to_int(parts[0], what)
    if value < 1:
        raise ProtocolError(f"{what}: {value} must be at least 1")
    return value


def no_args(command: Command) -> None:
    """Refuse arguments on a command that takes none."""
    if command.args:
        raise ProtocolError(f"{command.word} takes no arguments (got '{quote(command.args)}')")


# --- formatting ---------------------------------------------------------------------------------------------------
def format_point(point: Point) -> str:
    """`x,y`, exactly (c-gomoku-cli refuses spaces)."""
    return f"{point[0]},{point[1]}"


def format_points(points: Sequence[Point]) -> str:
    """Points separated by single spaces (swap2 replies, PVs)."""
    return " ".join(format_point(p) for p in points)


def format_about(version: str) -> str:
    """The ABOUT line."""
    return (f'name="Pentad", version="{version}", author="{ABOUT_AUTHOR}", country="{ABOUT_COUNTRY}", '
            f'www="{ABOUT_WWW}"')


def format_forbid(points: Sequence[Point]) -> str:
    """YXSHOWFORBID's reply as Rapfi writes it: FORBID, then xxyy per point (two digits each), then a dot."""
    return "FORBID " + "".join(f"{x:02d}{y:02d}" for x, y in points) + "."


def format_score(score: int) -> str:
    """A score for a MESSAGE line: centi-units, or +M<plies> / -M<plies> for a forced win / loss."""
    if score >= params.WIN_THRESHOLD:
        return f"+M{params.WIN - score}"
    if score <= -params.WIN_THRESHOLD:
        return f"-M{params.WIN + score}"
    return str(score)


def format_search(depth: int, score: int, nodes: int, nps: int, time_ms: int, pv: Sequence[Point],
                  multipv: int = 0) -> str:
    """A search summary in Rapfi's 'UCI-like' MESSAGE format (pygomo and Rapfi GUIs read it):
    `MESSAGE depth D-D [multipv K] ev SCORE n NODES n/ms SPEED tm MS pv x,y x,y ...` (SPEED = nodes per ms)."""
    rank = f" multipv {multipv}" if multipv else ""
    moves = format_points(pv) if pv else "(none)"
    return (f"MESSAGE depth {depth}-{depth}{rank} ev {format_score(score)} n {nodes} n/ms {nps // 1000} "
            f"tm {time_ms} pv {moves}")


PROTOCOL_LINE = re.compile(
    r"OK|SWAP|\d+,\d+(?: \d+,\d+){0,2}|SUGGEST \d+,\d+|FORBID (?:\d{4})*\."
    r"|(?:ERROR|UNKNOWN|MESSAGE|DEBUG)(?: [ -~]*)?"
    r'|name="[ -~]*')
"""Every line Pentad may print: replies, MESSAGE / DEBUG chatter and the ABOUT line. Anything else would be
taken for a move by Piskvork."""


def protocol_line(line: str) -> str:
    """`line` if it is a protocol line; otherwise it is made one (MESSAGE prefix, printable ASCII)."""
    if PROTOCOL_LINE.fullmatch(line):
        return line
    clean = "".join(c if " " <= c <= "~" else "?" for c in line)
    return clean if PROTOCOL_LINE.fullmatch(clean) else "MESSAGE " + clean
