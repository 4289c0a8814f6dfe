"""The pattern vocabulary and the per-rule tables that the board reads.

A *line key* describes the 10 cells around a cell on one line (5 each side; 2 bits each: empty, black, white,
wall). The line table maps a key to the `Pattern` each colour would make on that line by playing the centre cell.
The class table maps a cell's four patterns for one colour to its `Pattern4` (combined threat class) and a flag
for renju double-three candidates. Tables are built once per rule with numpy.
"""
from __future__ import annotations

import enum
import functools
import itertools
from array import array
from pathlib import Path

try:
    import numpy as np
except ImportError:  # the standalone brain ships the tables precomputed (tables.py) and leaves numpy out
    np = None  # type: ignore[assignment]

from pbrain.core import tables
from pbrain.core.rules import Rule

HALF_LINE = 5
"""Cells on each side of the centre that a line key covers."""
LINE_KEYS = 1 << (4 * HALF_LINE)
EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
CENTER = HALF_LINE


class Pattern(enum.IntEnum):
    """What playing a cell makes on one line, for one colour (diagrams: X = own stone, * = the cell, _ = empty,
    | = edge or opponent), weakest first. Each level is defined by what one more own stone on the line can make:
    the threat classes read the levels from F2 up, the evaluation reads them all."""

    DEAD = 0
    """no room for five on this line, or nothing below"""
    OL = 1
    """X X * X X X: an overline that does not win (standard; renju black, where it is forbidden)"""
    B1 = 2
    """one move from a B2"""
    F1 = 3
    """_ _ _ * _ _ _: one move from an F2"""
    B2 = 4
    """| X * _ _ _: one move from a B3"""
    F2 = 5
    """_ _ X * _ _: one move from an open three (one way)"""
    F2A = 6
    """one move from an open three in two ways"""
    F2B = 7
    """one move from an open three in three or more ways"""
    B3 = 8
    """| X X * _ _: one move from a closed four"""
    F3 = 9
    """_ X * _ X _: one move from an open (straight) four: a renju 'three'"""
    B4 = 10
    """| X X X * _: one way to a five"""
    F4 = 11
    """_ X X X * _: two ways to a five (an open four; outside renju black also X _ X * X _ X)"""
    DF4 = 12
    """X _ X * X _ X: two separate fours on one line (renju black only: a double four)"""
    F5 = 13
    """X X * X X: a winning five"""


NUM_PATTERNS = len(Pattern)
FLEX2_PATTERNS = (Pattern.F2, Pattern.F2A, Pattern.F2B)
"""The patterns a threat class counts as an F2."""


class Pattern4(enum.IntEnum):
    """A cell's combined threat class for one colour, from its four line patterns (strongest last)."""

    NONE = 0
    """nothing below an F2"""
    FORBID = 1
    """renju black: overline or double four (forbidden, exact)"""
    FLEX2 = 2
    """one F2"""
    BLOCK3 = 3
    """one B3"""
    FLEX2_2X = 4
    """two F2"""
    BLOCK3_PLUS = 5
    """B3 with another B3 or F2"""
    FLEX3 = 6
    """one open three"""
    FLEX3_PLUS = 7
    """open three with a B3 or F2"""
    FLEX3_2X = 8
    """double open three (renju black: forbidden unless a three is false; see FLAG_DOUBLE_THREE)"""
    BLOCK4 = 9
    """one closed four"""
    BLOCK4_PLUS = 10
    """closed four with a B3 or F2"""
    BLOCK4_FLEX3 = 11
    """four-three"""
    FLEX4 = 12
    """open four or double four: a five next move cannot be stopped"""
    FIVE = 13
    """wins at once"""


P4_BITS = 4
FLAG_DOUBLE_THREE = 1 << P4_BITS
"""Class-table flag: renju black with two or more open threes; only the recursive test says if it is forbidden."""

_NEIGHBOUR_POSITIONS = tuple(i for i in range(2 * HALF_LINE + 1) if i != CENTER)
_NEAR_POSITIONS = tuple(i for i in _NEIGHBOUR_POSITIONS if abs(i - CENTER) < HALF_LINE)


def key_shift(position: int) -> int:
    """Bit offset in a line key of the cell at `position` (0..10, centre 5) on the line."""
    return 2 * (position if position < CENTER else position - 1)


def neighbour_shift(offset: int) -> int:
    """Bit offset in a line key of the neighbour `offset` cells away (-5..-1, 1..5)."""
    return key_shift(CENTER + offset)


def line_key(cells: "list[int] | tuple[int, ...]") -> int:
    """The line key of an 11-cell line (centre ignored): for tests and from-scratch recomputation."""
    key = 0
    for position in _NEIGHBOUR_POSITIONS:
        key |= cells[position] << key_shift(position)
    return key


def _own_patterns(five_rule: str, double_four_apart: bool) -> np.ndarray:
    """Pattern of the colour coded 1 in every line key, for a five rule ('atleast', 'exact', 'caro', 'caro_exact')."""
    keys = np.arange(LINE_KEYS, dtype=np.int32)
    cell = {i: ((keys >> key_shift(i)) & 3).astype(np.int8) for i in _NEIGHBOUR_POSITIONS}
    left = np.zeros(LINE_KEYS, np.int8)
    alive = np.ones(LINE_KEYS, bool)
    for i in range(CENTER - 1, -1, -1):
        alive &= cell[i] == BLACK
        left += alive
    right = np.zeros(LINE_KEYS, np.int8)
    alive = np.ones(LINE_KEYS, bool)
    for i in range(CENTER + 1, 2 * HALF_LINE + 1):
        alive &= cell[i] == BLACK
        right += alive
    run = 1 + left + right
    # The cells just past the run (only read where the run is shorter than six, so they lie inside the key).
    left_end = np.full(LINE_KEYS, EMPTY, np.int8)
    right_end = np.full(LINE_KEYS, EMPTY, np.int8)
    for length in range(HALF_LINE):
        left_end = np.where(left == length, cell[CENTER - 1 - length], left_end)
        right_end = np.where(right == length, cell[CENTER + 1 + length], right_end)
    blocked_both = (left_end == WHITE) & (right_end == WHITE)
    if five_rule == "atleast":
        win = run >= 5
    elif five_rule == "exact":
        win = run == 5
    elif five_rule == "caro":
        win = (run > 5) | ((run == 5) & ~blocked_both)
    elif five_rule == "caro_exact":
        win = (run == 5) & ~blocked_both
    else:
        raise ValueError(five_rule)
    level = np.where(win, Pattern.F5, np.where((run >= 6) & ~win, Pattern.OL, Pattern.DEAD)).astype(np.uint8)

    # Keys after one more own stone at each near empty cell (the key itself where that cell is not empty).
    empties = [cell[i] == EMPTY for i in _NEAR_POSITIONS]
    nexts = [np.where(e, keys + (BLACK << key_shift(i)), keys) for e, i in zip(empties, _NEAR_POSITIONS)]

    def count(predicate_on_next: np.ndarray) -> np.ndarray:
        total = np.zeros(LINE_KEYS, np.int8)
        for empty, nxt in zip(empties, nexts):
            total += empty & predicate_on_next[nxt]
        return total

    n5 = count(win)
    open_four = np.where(run == 4, Pattern.F4, Pattern.DF4 if double_four_apart else Pattern.F4)
    four = np.where(n5 >= 2, open_four, np.where(n5 == 1, Pattern.B4, Pattern.DEAD))
    level = np.where(level > 0, level, four).astype(np.uint8)

    n_f4 = count(level == Pattern.F4)
    n_b4 = count(level == Pattern.B4)
    three = np.where(n_f4 > 0, Pattern.F3, np.where(n_b4 > 0, Pattern.B3, Pattern.DEAD))
    level = np.where(level > 0, level, three).astype(np.uint8)

    n_f3 = count(level == Pattern.F3)
    two = np.where(n_f3 >= 3, Pattern.F2B, np.where(n_f3 == 2, Pattern.F2A, np.where(n_f3 == 1, Pattern.F2, 0)))
    level = np.where(level > 0, level, two).astype(np.uint8)
    # Below a two: each level is one move from the one above (the evaluation's vocabulary). A line with no room
    # for five stays DEAD: no own stone makes anything of it.
    flex2 = (level == Pattern.F2) | (level == Pattern.F2A) | (level == Pattern.F2B)
    level = np.where((level == 0) & (count(level == Pattern.B3) > 0), Pattern.B2, level).astype(np.uint8)
    level = np.where((level == 0) & (count(flex2) > 0), Pattern.F1, level).astype(np.uint8)
    return np.where((level == 0) & (count(level == Pattern.B2) > 0), Pattern.B1, level).astype(np.uint8)


def _swap_colours(keys: np.ndarray) -> np.ndarray:
    """The same keys with black and white exchanged (walls stay walls)."""
    low = keys & 0x55555
    high = keys & 0xAAAAA
    return (low << 1) | (high >> 1)


_FIVE_RULES = {
    # rule: (black's five rule, white's five rule)
    Rule.FREESTYLE: ("atleast", "atleast"),
    Rule.STANDARD: ("exact", "exact"),
    Rule.RENJU: ("exact", "atleast"),
    Rule.CARO: ("caro", "caro"),
    Rule.CARO_EXACT: ("caro_exact", "caro_exact"),
}


@functools.lru_cache(maxsize=None)
def line_table(rule: Rule) -> np.ndarray:
    """uint8[LINE_KEYS]: black's Pattern in the low nibble, white's in the high nibble, for every line key."""
    black_rule, white_rule = _FIVE_RULES[rule]
    renju = rule is Rule.RENJU
    black = _own_patterns(black_rule, double_four_apart=renju)
    white_as_black = black if white_rule == black_rule and not renju else _own_patterns(white_rule, False)
    white = white_as_black[_swap_colours(np.arange(LINE_KEYS, dtype=np.int32))]
    return (black | (white << 4)).astype(np.uint8)


HALF_KEYS = 1 << (2 * HALF_LINE)


@functools.lru_cache(maxsize=None)
def split_line_table(rule: Rule) -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
    """The line table in a cache-friendly form: (left_base, right_class, compact) such that
    line_table(rule)[key] == compact[left_base[key % HALF_KEYS] + right_class[key // HALF_KEYS]].

    Most half-lines behave alike (everything past a blocking stone is irrelevant), so each side has only
    56..108 classes and the compact table fits in the L1 cache, where the full one (1 MB) does not.
    Read from the precomputed store when there is one (the standalone brain).
    """
    stored = tables.load(rule)
    if stored is not None:
        return stored.split()  # type: ignore[return-value]
    table = line_table(rule).reshape(HALF_KEYS, HALF_KEYS)  # [right half, left half]
    right_rows, right_class = np.unique(table, axis=0, return_inverse=True)
    left_cols, left_class = np.unique(table, axis=1, return_inverse=True)
    n_right = right_rows.shape[0]
    compact = np.zeros((left_cols.shape[1], n_right), np.uint8)
    compact[left_class.ravel()[:, None], right_class.ravel()[None, :]] = table.T
    left_base = (left_class.ravel() * n_right).astype(np.int32)
    return left_base, right_class.ravel().astype(np.int32), compact.ravel()


def line_reach(rule: Rule) -> int:
    """How far along a line a stone can change an empty cell's Pattern: HALF_LINE - 1 when both colours make five
    with any run of five or more (freestyle: no Pattern depends on the cells HALF_LINE away, which only tell an
    overline or a blocked end), else HALF_LINE. tests/test_patterns.py checks it against the line table."""
    return HALF_LINE - 1 if _FIVE_RULES[rule] == ("atleast", "atleast") else HALF_LINE


def _classify(counts: "dict[Pattern, np.ndarray]", renju_black: bool, overline_forbidden: bool) -> tuple:
    """(Pattern4 array, double-three flag array) from per-pattern counts over the four directions."""
    five = counts[Pattern.F5] > 0
    f4 = counts[Pattern.F4]
    b4 = counts[Pattern.B4]
    df4 = counts[Pattern.DF4]
    f3 = counts[Pattern.F3]
    b3 = counts[Pattern.B3]
    f2 = sum(counts[p] for p in FLEX2_PATTERNS)
    p4 = np.full(five.shape, Pattern4.NONE, np.int32)

    def assign(mask: np.ndarray, value: Pattern4) -> None:
        p4[(p4 == Pattern4.NONE) & mask] = value

    fours = f4 + b4 + 2 * df4
    assign(five, Pattern4.FIVE)
    if renju_black:
        forbid = ~five & (((counts[Pattern.OL] > 0) & overline_forbidden) | (fours >= 2))
        assign(forbid, Pattern4.FORBID)
        assign(f4 > 0, Pattern4.FLEX4)
    else:
        assign((f4 > 0) | (b4 >= 2), Pattern4.FLEX4)
    assign((b4 > 0) & (f3 > 0), Pattern4.BLOCK4_FLEX3)
    assign((b4 > 0) & (b3 + f2 > 0), Pattern4.BLOCK4_PLUS)
    assign(b4 > 0, Pattern4.BLOCK4)
    assign(f3 >= 2, Pattern4.FLEX3_2X)
    assign((f3 > 0) & (b3 + f2 > 0), Pattern4.FLEX3_PLUS)
    assign(f3 > 0, Pattern4.FLEX3)
    assign((b3 >= 2) | ((b3 > 0) & (f2 > 0)), Pattern4.BLOCK3_PLUS)
    assign(f2 >= 2, Pattern4.FLEX2_2X)
    assign(b3 > 0, Pattern4.BLOCK3)
    assign(f2 > 0, Pattern4.FLEX2)
    if renju_black:
        flag = (p4 != Pattern4.FIVE) & (p4 != Pattern4.FORBID) & (f3 >= 2)
    else:
        flag = np.zeros(five.shape, bool)
    return p4, flag


@functools.lru_cache(maxsize=None)
def class_table(rule: Rule) -> np.ndarray:
    """uint8[2 * 65536]: per colour (black first) and per four packed patterns (4 bits per direction),
    FLAG_DOUBLE_THREE | Pattern4. Read from the precomputed store when there is one (the standalone brain)."""
    stored = tables.load(rule)
    if stored is not None:
        return stored.class_table  # type: ignore[return-value]
    index = np.arange(1 << 16, dtype=np.int32)
    pats = [(index >> (4 * d)) & 15 for d in range(4)]
    out = []
    for renju_black in (rule is Rule.RENJU, False):
        counts = {p: sum((x == p).astype(np.int8) for x in pats) for p in Pattern}
        p4, flag = _classify(counts, renju_black, overline_forbidden=True)
        out.append((flag.astype(np.int32) << P4_BITS) | p4)
    return np.concatenate(out).astype(np.uint8)


# --- Pattern codes: a cell's four line patterns as one small number (the evaluation's table index) -----------------
PATTERN_COMBOS = tuple(itertools.combinations_with_replacement(range(NUM_PATTERNS), 4))
"""Every multiset of four patterns (weakest first); a cell's pattern code is its index here."""
NUM_CODES = len(PATTERN_COMBOS)
CODE_ENTRIES = 1 << 16


def pack(patterns4: "tuple[int, ...] | list[int]") -> int:
    """The class-table index of four line patterns (4 bits each, direction 0 lowest)."""
    return patterns4[0] | patterns4[1] << 4 | patterns4[2] << 8 | patterns4[3] << 12


@functools.lru_cache(maxsize=None)
def code_table() -> "array[int]":
    """uint16[65536]: the pattern code of every class-table index (the order of the directions does not matter;
    nibbles past the last pattern read as DEAD). The same for every rule. Read from the store when there is one."""
    stored = tables.load(Rule.FREESTYLE)
    if stored is not None:
        return stored.code_table
    index = {combo: i for i, combo in enumerate(PATTERN_COMBOS)}

    def nibble(word: int, d: int) -> int:
        p = (word >> (4 * d)) & 15
        return p if p < NUM_PATTERNS else 0

    return array("H", [index[tuple(sorted(nibble(w, d) for d in range(4)))] for w in range(CODE_ENTRIES)])


@functools.lru_cache(maxsize=None)
def code_classes(rule: Rule) -> "array[int]":
    """uint8[2 x NUM_CODES]: per colour (black first) and pattern code, FLAG_DOUBLE_THREE | Pattern4 (the class
    table read by code: a class depends only on which four patterns a cell has, not on their directions).
    Cached: callers must not change it."""
    classes = class_table(rule)
    return array("B", [int(classes[ci * CODE_ENTRIES + pack(combo)]) for ci in range(2) for combo in PATTERN_COMBOS])


ROLES = ("mover", "waiter")
"""The evaluation values a cell for the side to move and for the side that waits, separately."""


_CODE_VALUES: "dict[tuple, array[int]]" = {}


def code_values(rule: Rule, weights: dict, roles: "tuple[str, str]") -> "array[int]":
    """int32[2 colours x 2 roles x NUM_CODES]: per colour and role, each pattern code's class weight plus its four
    line patterns' weights and its own correction (weights "code", if any); a forbidden cell (renju black) gets its
    class's weight alone. `weights` is a fitted table's entry ("line" and "class" per role, optional "code"): the
    evaluation's (evaluation.values.cell_values) and the move ordering's (movegen.order_values) are both read so.
    A fresh copy of a table cached by the weights' content (tests and refits swap them)."""
    key = (rule, roles, repr(weights))
    if key in _CODE_VALUES:
        return array("i", _CODE_VALUES[key])
    classes = code_classes(rule)
    out = array("i", bytes(4 * 4 * NUM_CODES))
    for ci in range(2):
        for role_index, role in enumerate(roles):
            line = weights["line"][role]
            klass = weights["class"][role]
            corrections = dict(weights.get("code", {}).get(role, ()))
            base = (ci * 2 + role_index) * NUM_CODES
            for code, combo in enumerate(PATTERN_COMBOS):
                cls = classes[ci * NUM_CODES + code] & ((1 << P4_BITS) - 1)
                shape = sum(line[p] for p in combo) + corrections.get(code, 0) if cls != Pattern4.FORBID else 0
                out[base + code] = klass[cls] + shape
    _CODE_VALUES[key] = out
    return array("i", out)


ORDER_ROLES = ("own", "opponent")
"""The move ordering scores a cell for the side to move (what it makes) and for the opponent (what it takes)."""


def save_tables(path: Path) -> int:
    """Build every rule's tables (needs numpy) and store them at `path` for the standalone brain (tables.load reads
    them); returns the file size in bytes."""
    parts = {}
    for rule in Rule:
        left_base, right_class, compact = split_line_table(rule)
        parts[rule] = {"left_base": left_base, "right_class": right_class, "compact": compact,
                       "class_table": class_table(rule), "code_table": code_table()}
    return tables.write(path, parts)
