"""Game records: coordinates, and the Piskvork .psq, SGF and plain move-list formats.

Coordinates. A point is (x, y) in protocol coordinates: 0 <= x < width from the left, 0 <= y < height with y = 0
the TOP row. Text notation is Renlib / Yixin style: a column letter from the left ('a' = x 0, every letter including
'i', up to 'v' on 22 wide boards) and a row number counted from the BOTTOM, so row r is y = height - r (on 15x15
h8 = (7, 7), a1 = (0, 14), a15 = (0, 0)). The protocol form "x,y" (0-based, as the protocol sends) is also read.

.psq, checked against Piskvork's source (github.com/plastovicka/Piskvork, source/game.cpp openPsq/savePsq and
source/piskvork.h): a header `Piskvorky WxH, L1:L2, S` (width, height, the two players' levels, 0 = human, and which
player started, 0 or 1), then one move per line `x,y,time_ms` in play order with 1-based x (column) and y (row from the
top) - the protocol coordinates plus one; Piskvork also reads lines without the time. Then a trailer: in tournament
and command-line games the two players' brain file names ("homo-1"/"homo-2" for humans, first player first), then
the error code (-1 for a game saved from the menu, 0 normal end). Yixin-Board's .psq reader (accreator/Yixin-Board,
main.c) agrees. Pentad writes `Piskvorky WxH, 0:0, 0`, moves with time 0, the two player lines (names, or homo-1 /
homo-2 as Piskvork writes humans; Piskvork loads non-human ones as brains), `-1`, and when the rule is not freestyle
or the result is known one more line `W,Rule` (W = 1 black won, 2 white won, 0 draw, empty = unknown; the layout an
AlphaZero gomoku trainer writes after the error code). Piskvork stops reading after the two player lines.

SGF, checked against the FF[4] specification (red-bean.com/sgf: GM[4] = Gomoku+Renju, SZ[n] or SZ[columns:rows], RE
"B+..", "W+..", "0"/"Draw", points as two letters, column from the left then row from the TOP, 'a' = 0) and against
gomoku SGF from GomokuQuest and Web Renju Board as other tools parse it (B[hh] is the centre h8, W[ig] is i9).
Yixin-Board's public source has no SGF code, so Yixin's own SGF could not be checked. Only the main line is read
(the first variation at each branch); AB/AW setup stones before the first move are read as alternating moves
(black first) when their counts allow it; pass moves and AE are refused. RU holds Pentad's rule name.

Move list (Pentad's own): lines of moves in either notation separated by whitespace, ';' or ','; '#' starts a
comment. The first line may be the header `# WxH rule` (e.g. `# 15x15 renju`, rule one of freestyle, standard,
renju, caro, caro_exact); comment lines `# black: NAME`, `# white: NAME` and `# result: B+|W+|draw` carry the rest.
"""
from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from pbrain.core.rules import BLACK, WHITE, Rule

Point = Tuple[int, int]

MIN_SIZE = 5
MAX_SIZE = 22
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class RecordError(ValueError):
    """A game record that cannot be read or written; the message names the file and line where possible."""


@dataclass
class Game:
    """One game: board size, rule, the moves in play order (black first) and optional names and result."""

    width: int = 15
    height: int = 15
    rule: Rule = Rule.FREESTYLE
    moves: List[Point] = field(default_factory=list)
    black: str = ""
    white: str = ""
    result: str = ""

    def stones(self) -> List[Tuple[int, int, int]]:
        """The moves as (x, y, colour), BLACK for even indexes."""
        return [(x, y, BLACK if i % 2 == 0 else WHITE) for i, (x, y) in enumerate(self.moves)]


class _At:
    """A `with` block that prefixes RecordErrors raised in it with the file name and `line` (set while reading)."""

    def __init__(self, name: str) -> None:
        self.name: str = name
        self.line: Optional[int] = None

    def __enter__(self) -> "_At":
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if isinstance(error, RecordError):
            where = self.name if self.line is None else f"{self.name} line {self.line}"
            raise RecordError(f"{where}: {error}") from None


# ---------------------------------------------------------------- coordinates

_POINT = r"(?:(\d{1,9})\s*,\s*(\d{1,9})|([A-Za-z])(\d{1,9}))"
_POINT_RE = re.compile(r"\s*" + _POINT + r"\s*$", re.ASCII)
_TOKEN_RE = re.compile(_POINT, re.ASCII)
_SEPARATORS_RE = re.compile(r"[\s,;]*")
_CHUNK_RE = re.compile(r"[^\s;]+")


def _check_size(width: int, height: int) -> None:
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise RecordError(f"board size {width}x{height} not supported ({MIN_SIZE}..{MAX_SIZE})")


def _on_board(point: Point, width: int, height: int, text: str) -> Point:
    if not (0 <= point[0] < width and 0 <= point[1] < height):
        raise RecordError(f"move '{text.strip()}' is off the {width}x{height} board")
    return point


def _point_from_match(match: "re.Match[str]", width: int, height: int) -> Point:
    if match.group(1) is not None:
        point = int(match.group(1)), int(match.group(2))
    else:
        point = ord(match.group(3).lower()) - ord("a"), height - int(match.group(4))
    return _on_board(point, width, height, match.group(0))


def format_point(point: Point, height: int) -> str:
    """A point in letter notation: (7, 7) on a 15 high board -> "h8"."""
    x, y = point
    if not (0 <= x < len(_LETTERS) and 0 <= y < height):
        raise RecordError(f"point {point!r} cannot be written on a board {height} high")
    return f"{_LETTERS[x]}{height - y}"


def parse_point(text: str, width: int, height: int) -> Point:
    """Read "h8", "H8" or the protocol form "7,7"; raise RecordError for bad or off-board text."""
    match = _POINT_RE.match(text)
    if match is None:
        raise RecordError(f"bad move '{text.strip()}'")
    return _point_from_match(match, width, height)


def _scan(text: str, width: int, height: int) -> List[Point]:
    """The moves in text, in order, without the duplicate check."""
    points: List[Point] = []
    pos = _skip_separators(text, 0)
    while pos < len(text):
        match = _TOKEN_RE.match(text, pos)
        if match is None:
            chunk = _CHUNK_RE.match(text, pos)
            raise RecordError(f"bad move '{chunk.group(0) if chunk else text[pos]}'")
        points.append(_point_from_match(match, width, height))
        pos = _skip_separators(text, match.end())
    return points


def _skip_separators(text: str, pos: int) -> int:
    """The first position at or after `pos` that is not a separator (space, comma, semicolon)."""
    match = _SEPARATORS_RE.match(text, pos)
    return match.end() if match else pos


def _add_move(game: Game, seen: Set[Point], point: Point) -> None:
    if point in seen:
        raise RecordError(f"duplicate move {format_point(point, game.height)} (move {len(game.moves) + 1})")
    seen.add(point)
    game.moves.append(point)


def parse_moves(text: str, width: int, height: int) -> List[Point]:
    """Read moves separated by whitespace, ';' or ',' in either notation; duplicates raise RecordError."""
    _check_size(width, height)
    game = Game(width, height)
    seen: Set[Point] = set()
    for point in _scan(text, width, height):
        _add_move(game, seen, point)
    return game.moves


def format_moves(moves: Sequence[Point], height: int) -> str:
    """Moves in letter notation separated by spaces: "h8 i9 ..."."""
    return " ".join(format_point(point, height) for point in moves)


# ---------------------------------------------------------------- shared helpers

_RULE_ALIASES = {"gomoku": Rule.FREESTYLE, "free": Rule.FREESTYLE, "exact": Rule.STANDARD, "rif": Rule.RENJU,
                 "yamaguchi": Rule.RENJU, "taraguchi": Rule.RENJU, "soosorv": Rule.RENJU, "sakata": Rule.RENJU}


def _rule_named(text: str) -> Optional[Rule]:
    key = re.sub(r"[\s-]+", "_", text.strip().lower())
    return Rule[key.upper()] if key.upper() in Rule.__members__ else _RULE_ALIASES.get(key)


def _normal_result(text: str) -> str:
    """"B+" / "W+" / "draw" / "" from SGF-like result text."""
    value = text.strip().lower()
    if value[:2] in ("b+", "w+"):
        return value[:2].upper()
    return "draw" if value in ("0", "draw", "jigo") else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _lines(text: str) -> List[str]:
    lines = text.lstrip("\ufeff").splitlines()
    if not any(line.strip() for line in lines):
        raise RecordError("empty file")
    return lines


def _check_game(game: Game) -> None:
    """Raise RecordError when game cannot be written: bad size, off-board or repeated moves."""
    with _At("cannot write game"):
        try:
            _check_size(game.width, game.height)
            copy = Game(game.width, game.height)
            seen: Set[Point] = set()
            for x, y in game.moves:
                _add_move(copy, seen, _on_board((x, y), game.width, game.height, f"{x},{y}"))
        except (TypeError, ValueError) as error:
            raise RecordError(str(error)) from None


# ---------------------------------------------------------------- Piskvork .psq

_PSQ_HEADER_RE = re.compile(r"\s*Piskvorky\s+(\d{1,9})\s*x\s*(\d{1,9})", re.IGNORECASE)
_PSQ_MOVE_START_RE = re.compile(r"\s*[-+]?\d+\s*,")
_PSQ_MOVE_RE = re.compile(r"\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*(?:,\s*-?\d+\s*)?$")
_PSQ_EXTRA_RE = re.compile(r"\s*([012]?)\s*,\s*([A-Za-z_ -]+?)\s*$")
_INTEGER_RE = re.compile(r"\s*[-+]?\d+\s*$")


def read_psq(text: str, name: str = "game.psq") -> Game:
    """Read a Piskvork .psq game; trailer lines (brain names, error code) are tolerated."""
    with _At(name) as at:
        lines = _lines(text)
        at.line = 1
        header = _PSQ_HEADER_RE.match(lines[0])
        if header is None:
            raise RecordError(f"not a Piskvork header 'Piskvorky WxH, ...': '{lines[0].strip()}'")
        game = Game(width=int(header.group(1)), height=int(header.group(2)))
        seen: Set[Point] = set()
        _check_size(game.width, game.height)
        while at.line < len(lines):
            line = lines[at.line].strip()
            if line and not _PSQ_MOVE_START_RE.match(line):
                break
            at.line += 1
            move = _PSQ_MOVE_RE.match(line)
            if line and move is None:
                raise RecordError(f"bad move '{line}'")
            if move:
                point = (int(move.group(1)) - 1, int(move.group(2)) - 1)
                _add_move(game, seen, _on_board(point, game.width, game.height, line))
        trailer = [line.strip() for line in lines[at.line:] if line.strip()]
    if len(trailer) >= 2 and not _INTEGER_RE.match(trailer[0]):
        game.black, game.white = ("" if player.lower().startswith("homo-") else player for player in trailer[:2])
        trailer = trailer[2:]
    for line in trailer[1:] if trailer and _INTEGER_RE.match(trailer[0]) else []:
        extra = _PSQ_EXTRA_RE.match(line)
        named = _rule_named(extra.group(2)) if extra else None
        if extra and named is not None:
            game.rule, game.result = named, {"1": "B+", "2": "W+", "0": "draw"}.get(extra.group(1), "")
            break
    return game


def write_psq(game: Game) -> str:
    """The game as Piskvork writes it: header, `x,y,0` moves (1-based), the two players, `-1`, Pentad's rule line."""
    _check_game(game)
    lines = [f"Piskvorky {game.width}x{game.height}, 0:0, 0"] + [f"{x + 1},{y + 1},0" for x, y in game.moves]
    lines += [_one_line(game.black) or "homo-1", _one_line(game.white) or "homo-2", "-1"]
    if game.rule is not Rule.FREESTYLE or game.result:
        winner = {"B+": "1", "W+": "2", "draw": "0"}.get(_normal_result(game.result), "")
        lines.append(f"{winner},{Rule(game.rule).name.capitalize()}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- SGF

_SGF_TOKEN_RE = re.compile(r"\s*(?:([();])|([A-Za-z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+)|(\S))", re.DOTALL)
_SGF_VALUE_RE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_SGF_UNESCAPE_RE = re.compile(r"\\(\r\n|\n\r|\n|\r|.)", re.DOTALL)
_SGF_SIZE_RE = re.compile(r"\s*(\d{1,9})\s*(?::\s*(\d{1,9})\s*)?$")
_SgfNode = Dict[str, Tuple[List[str], int]]


def _sgf_main_line(text: str, at: _At) -> List[_SgfNode]:
    """The nodes of the first game tree's main line, each {IDENT: (values, line)}; raises RecordError."""
    starts = [0] + [match.end() for match in re.finditer(r"\n", text)]
    pos, at.line = text.find("("), 1
    if pos < 0:
        raise RecordError("not an SGF game tree (no '(')")
    nodes: List[_SgfNode] = []
    node: Optional[_SgfNode] = None
    depth, main_done = 0, False
    while True:
        token = _SGF_TOKEN_RE.match(text, pos)
        start = token.end() - len(token.group(0).lstrip()) if token else len(text)
        at.line = bisect.bisect_right(starts, start)
        if token is None:
            raise RecordError("truncated SGF: missing ')'")
        pos = token.end()
        char, ident, values = token.group(1), token.group(2), token.group(3)
        if char in ("(", ")"):
            depth, node, main_done = depth + (1 if char == "(" else -1), None, main_done or char == ")"
            if depth == 0:
                return nodes
        elif char == ";":
            node = None if main_done else {}
            nodes += [node] if node is not None else []
        elif ident:
            key = "".join(c for c in ident if c.isupper())
            if node is None and not main_done:
                raise RecordError(f"property {key} outside a node")
            found = [_SGF_UNESCAPE_RE.sub(lambda m: "" if m.group(1)[0] in "\r\n" else m.group(1), value)
                     for value in _SGF_VALUE_RE.findall(values)]
            if node is not None:
                node[key] = (node[key][0] + found, node[key][1]) if key in node else (found, at.line)
        elif token.group(4) == "[" or re.match(r"[A-Za-z]+\s*\[", text[start:]):
            raise RecordError("truncated SGF: unterminated property value")
        else:
            raise RecordError(f"unexpected {token.group(4)!r} in SGF (properties need a [value])")


def _sgf_point(value: str, width: int, height: int) -> Point:
    if len(value) != 2 or not all("a" <= c <= "z" for c in value):
        raise RecordError(f"bad point '{value}'")
    return _on_board((ord(value[0]) - ord("a"), ord(value[1]) - ord("a")), width, height, value)


def _sgf_points(values: List[str], width: int, height: int) -> List[Point]:
    """Setup points, with compressed 'aa:cc' rectangles expanded."""
    points: List[Point] = []
    for value in values:
        corners = [_sgf_point(part.strip(), width, height) for part in value.split(":", 1)]
        (x1, y1), (x2, y2) = corners[0], corners[-1]
        points += [(x, y) for y in range(min(y1, y2), max(y1, y2) + 1) for x in range(min(x1, x2), max(x1, x2) + 1)]
    return points


def _add_setup(game: Game, seen: Set[Point], setup: Dict[str, List[Point]]) -> None:
    """Turn AB/AW setup stones into alternating moves, black first."""
    black, white = setup.pop("AB", []), setup.pop("AW", [])
    if len(black) - len(white) not in (0, 1):
        raise RecordError(f"setup stones ({len(black)} black, {len(white)} white) cannot be read as alternating "
                          "moves; such setups are not supported")
    for index, point in enumerate(black):
        _add_move(game, seen, point)
        if index < len(white):
            _add_move(game, seen, white[index])


def read_sgf(text: str, name: str = "game.sgf") -> Game:
    """Read the main line of the first game in an SGF file (GM[4], gomoku / renju)."""
    with _At(name) as at:
        _lines(text)
        nodes = _sgf_main_line(text, at)
        root: _SgfNode = nodes[0] if nodes else {}
        first = {key: (values[0] if values else "", line) for key, (values, line) in root.items()}
        game = Game()
        seen: Set[Point] = set()
        setup: Dict[str, List[Point]] = {}
        if "GM" in first and first["GM"][0].strip() not in ("1", "4"):
            at.line = first["GM"][1]
            raise RecordError(f"GM[{first['GM'][0]}] is not a gomoku / renju game (GM[4])")
        if "SZ" in first:
            at.line, size = first["SZ"][1], _SGF_SIZE_RE.match(first["SZ"][0])
            if size is None:
                raise RecordError(f"bad board size SZ[{first['SZ'][0]}]")
            game.width, game.height = int(size.group(1)), int(size.group(2) or size.group(1))
            _check_size(game.width, game.height)
        game.rule = _rule_named(first.get("RU", ("",))[0]) or Rule.FREESTYLE
        game.black, game.white = (_one_line(first.get(key, ("",))[0]) for key in ("PB", "PW"))
        game.result = _normal_result(first.get("RE", ("",))[0])
        for node in nodes:
            for key in [key for key in ("AE", "AB", "AW", "B", "W") if key in node]:
                values, at.line = node[key]
                value = values[0].strip() if values else ""
                if key == "AE":
                    raise RecordError("AE (removing stones) is not supported")
                if key in ("AB", "AW") and game.moves:
                    raise RecordError(f"setup stones {key} after the first move are not supported")
                if key in ("AB", "AW"):
                    setup[key] = setup.get(key, []) + _sgf_points(values, game.width, game.height)
                    continue
                _add_setup(game, seen, setup)
                if "B" in node and "W" in node:
                    raise RecordError("a node with both a black and a white move")
                if value == "" or (value == "tt" and game.width <= 19 and game.height <= 19):
                    raise RecordError(f"pass move {key}[{value}] is not supported")
                expected = "BW"[len(game.moves) % 2]
                if key != expected:
                    raise RecordError(f"move {len(game.moves) + 1} should be {expected}, found {key}[{value}]")
                _add_move(game, seen, _sgf_point(value, game.width, game.height))
        _add_setup(game, seen, setup)
    return game


def _sgf_text(value: str) -> str:
    return _one_line(value).replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(game: Game) -> str:
    """The game as SGF: `(;GM[4]FF[4]...SZ[..]RU[rule]...;B[hh];W[ii]...)`."""
    _check_game(game)
    size = str(game.width) if game.width == game.height else f"{game.width}:{game.height}"
    root = f"(;GM[4]FF[4]CA[UTF-8]AP[Pentad]SZ[{size}]RU[{Rule(game.rule).name.lower()}]"
    root += "".join(f"{key}[{_sgf_text(value)}]" for key, value in (("PB", game.black), ("PW", game.white)) if value)
    result = {"B+": "B+", "W+": "W+", "draw": "Draw"}.get(_normal_result(game.result))
    root += f"RE[{result}]" if result else ""
    nodes = [f";{'BW'[i % 2]}[{_LETTERS[x]}{_LETTERS[y]}]" for i, (x, y) in enumerate(game.moves)]
    return root + "".join("\n" + "".join(nodes[i:i + 10]) for i in range(0, len(nodes), 10)) + ")\n"


# ---------------------------------------------------------------- move list

_LIST_HEADER_RE = re.compile(r"#\s*(\d{1,9})\s*x\s*(\d{1,9})(?:\s+([A-Za-z_-]+))?\s*$", re.IGNORECASE)
_LIST_META_RE = re.compile(r"#\s*(black|white|result)\s*:(.*)$", re.IGNORECASE)


def read_move_list(text: str, name: str = "moves.txt", width: int = 15, height: int = 15,
                   rule: Rule = Rule.FREESTYLE) -> Game:
    """Read a move list; an optional first line `# WxH rule` overrides width, height and rule."""
    with _At(name) as at:
        game, first = Game(width=width, height=height, rule=rule), True
        seen: Set[Point] = set()
        for at.line, line in enumerate(_lines(text), 1):
            line = line.strip()
            header = _LIST_HEADER_RE.match(line) if first and line else None
            first = first and not line
            if header is not None:
                game.width, game.height = int(header.group(1)), int(header.group(2))
                named = _rule_named(header.group(3)) if header.group(3) else game.rule
                if named is None:
                    raise RecordError(f"unknown rule '{header.group(3)}'")
                game.rule = named
            _check_size(game.width, game.height)
            meta = _LIST_META_RE.match(line)
            if meta is not None:
                key, value = meta.group(1).lower(), _one_line(meta.group(2))
                setattr(game, key, _normal_result(value) if key == "result" else value)
            for point in _scan(line.split("#", 1)[0], game.width, game.height):
                _add_move(game, seen, point)
    return game


def write_move_list(game: Game) -> str:
    """The game as a move list: header `# WxH rule`, name and result comments, 20 moves a line."""
    _check_game(game)
    lines = [f"# {game.width}x{game.height} {Rule(game.rule).name.lower()}"]
    lines += [f"# {key}: {_one_line(getattr(game, key))}" for key in ("black", "white") if getattr(game, key)]
    lines += [f"# result: {_normal_result(game.result)}"] if _normal_result(game.result) else []
    lines += [format_moves(game.moves[i:i + 20], game.height) for i in range(0, len(game.moves), 20)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- files

def load(path: str) -> Game:
    """Read a game file; the extension chooses the format (.psq, .sgf, anything else a move list)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    reader = {".psq": read_psq, ".sgf": read_sgf}.get(os.path.splitext(path)[1].lower(), read_move_list)
    return reader(text, path)


def save(path: str, game: Game) -> None:
    """Write a game file; the extension chooses the format as in load()."""
    writer = {".psq": write_psq, ".sgf": write_sgf}.get(os.path.splitext(path)[1].lower(), write_move_list)
    text = writer(game)
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as error:
        raise RecordError(f"cannot write {path}: {error.strerror or error}") from None
