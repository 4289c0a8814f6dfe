"""Pattern vocabulary and per-rule tables."""
from __future__ import annotations

import numpy as np
import pytest

from pbrain.core import patterns
from pbrain.core.patterns import Pattern, Pattern4
from pbrain.core.rules import Rule, RuleError, protocol_value, rule_from_protocol

CODES = {".": patterns.EMPTY, "X": patterns.BLACK, "O": patterns.WHITE, "|": patterns.WALL, "*": patterns.EMPTY}


def shape(line: str, rule: Rule) -> "tuple[Pattern, Pattern]":
    """(black's, white's) pattern at the '*' (the centre) of an 11-character line."""
    assert len(line) == 11 and line[5] == "*"
    byte = int(patterns.line_table(rule)[patterns.line_key([CODES[c] for c in line])])
    return Pattern(byte & 15), Pattern(byte >> 4)


@pytest.mark.parametrize("line,rule,black", [
    ("...XX*XX...", Rule.FREESTYLE, Pattern.F5),
    ("..XXX*XX...", Rule.FREESTYLE, Pattern.F5),
    ("..XXX*XX...", Rule.STANDARD, Pattern.OL),
    ("..XXX*XX...", Rule.RENJU, Pattern.OL),
    ("..XXX*XX...", Rule.CARO, Pattern.F5),
    ("..XXX*XX...", Rule.CARO_EXACT, Pattern.OL),
    ("...XX*X....", Rule.FREESTYLE, Pattern.F4),
    ("..OXX*X....", Rule.FREESTYLE, Pattern.B4),
    ("..X.X*X.X..", Rule.FREESTYLE, Pattern.F4),
    ("..X.X*X.X..", Rule.RENJU, Pattern.DF4),
    ("....X*X....", Rule.FREESTYLE, Pattern.F3),
    ("...OX*X....", Rule.FREESTYLE, Pattern.B3),
    ("...X.*X....", Rule.FREESTYLE, Pattern.F3),
    ("....|*X....", Rule.FREESTYLE, Pattern.B2),
    (".....*X....", Rule.FREESTYLE, Pattern.F2B),
    (".....*X.O..", Rule.FREESTYLE, Pattern.F2A),
    ("..OX.*...O.", Rule.FREESTYLE, Pattern.B2),
    ("...OX*..O..", Rule.FREESTYLE, Pattern.DEAD),
    ("X....*.....", Rule.FREESTYLE, Pattern.F1),
    (".....*.....", Rule.FREESTYLE, Pattern.F1),
    ("..O..*..O..", Rule.FREESTYLE, Pattern.B1),
    ("...O.*.O...", Rule.FREESTYLE, Pattern.DEAD),
    ("...O.*X.O..", Rule.FREESTYLE, Pattern.DEAD),
    ("XXXX.*.XXXX", Rule.FREESTYLE, Pattern.F4),
    ("XXXX.*.XXXX", Rule.STANDARD, Pattern.DEAD),
    (".OXXX*.X...", Rule.STANDARD, Pattern.DEAD),
    (".OXXX*.X...", Rule.CARO, Pattern.B4),
    ("OXXXX*O....", Rule.CARO, Pattern.DEAD),
    ("OXXXX*.....", Rule.CARO, Pattern.F5),
    ("|XXXX*O....", Rule.CARO, Pattern.F5),
    ("...X.*X.X..", Rule.STANDARD, Pattern.B3),
])
def test_line_shapes(line: str, rule: Rule, black: Pattern) -> None:
    assert shape(line, rule)[0] == black
    if rule is not Rule.RENJU:  # the other rules treat both colours alike
        swapped = line[::-1].translate(str.maketrans("XO", "OX"))
        assert shape(swapped, rule)[1] == black


def test_renju_white_overline_wins_black_does_not() -> None:
    assert shape("..XXX*XX...", Rule.RENJU)[0] == Pattern.OL
    assert shape("..OOO*OO...", Rule.RENJU)[1] == Pattern.F5


@pytest.mark.parametrize("rule", list(Rule))
def test_split_table_is_exact(rule: Rule) -> None:
    left_base, right_class, compact = patterns.split_line_table(rule)
    keys = np.arange(patterns.LINE_KEYS)
    rebuilt = compact[left_base[keys % patterns.HALF_KEYS] + right_class[keys // patterns.HALF_KEYS]]
    assert (rebuilt == patterns.line_table(rule)).all()
    assert compact.nbytes <= 16 * 1024


@pytest.mark.parametrize("rule", list(Rule))
def test_line_reach_is_how_far_a_stone_changes_patterns(rule: Rule) -> None:
    """The board re-reads patterns only within line_reach of a stone: exact when the cells HALF_LINE away never
    change a Pattern, and HALF_LINE whenever one can."""
    table = patterns.line_table(rule)
    keys = np.arange(patterns.LINE_KEYS)
    far = 3 | (3 << (4 * patterns.HALF_LINE - 2))
    far_cells_matter = not np.array_equal(table, table[keys & ~far])
    assert patterns.line_reach(rule) == (patterns.HALF_LINE if far_cells_matter else patterns.HALF_LINE - 1)


def _cls(rule: Rule, black_patterns: "list[Pattern]") -> "tuple[Pattern4, bool]":
    index = sum(int(p) << (4 * d) for d, p in enumerate(black_patterns))
    entry = int(patterns.class_table(rule)[index])
    return Pattern4(entry & 15), bool(entry & patterns.FLAG_DOUBLE_THREE)


@pytest.mark.parametrize("pats,rule,expected,flag", [
    ([Pattern.F5, Pattern.OL, Pattern.F4, Pattern.B4], Rule.RENJU, Pattern4.FIVE, False),
    ([Pattern.OL, Pattern.DEAD, Pattern.DEAD, Pattern.DEAD], Rule.RENJU, Pattern4.FORBID, False),
    ([Pattern.OL, Pattern.DEAD, Pattern.DEAD, Pattern.DEAD], Rule.STANDARD, Pattern4.NONE, False),
    ([Pattern.B4, Pattern.B4, Pattern.DEAD, Pattern.DEAD], Rule.RENJU, Pattern4.FORBID, False),
    ([Pattern.B4, Pattern.B4, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.FLEX4, False),
    ([Pattern.DF4, Pattern.DEAD, Pattern.DEAD, Pattern.DEAD], Rule.RENJU, Pattern4.FORBID, False),
    ([Pattern.F3, Pattern.F3, Pattern.DEAD, Pattern.DEAD], Rule.RENJU, Pattern4.FLEX3_2X, True),
    ([Pattern.F3, Pattern.F3, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.FLEX3_2X, False),
    ([Pattern.B4, Pattern.F3, Pattern.F3, Pattern.DEAD], Rule.RENJU, Pattern4.BLOCK4_FLEX3, True),
    ([Pattern.B4, Pattern.F3, Pattern.DEAD, Pattern.DEAD], Rule.RENJU, Pattern4.BLOCK4_FLEX3, False),
    ([Pattern.B4, Pattern.B3, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.BLOCK4_PLUS, False),
    ([Pattern.F3, Pattern.F2, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.FLEX3_PLUS, False),
    ([Pattern.B3, Pattern.B3, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.BLOCK3_PLUS, False),
    ([Pattern.F2, Pattern.F2, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.FLEX2_2X, False),
    ([Pattern.F2, Pattern.DEAD, Pattern.DEAD, Pattern.DEAD], Rule.FREESTYLE, Pattern4.FLEX2, False),
])
def test_class_table(pats: "list[Pattern]", rule: Rule, expected: Pattern4, flag: bool) -> None:
    assert _cls(rule, pats) == (expected, flag)


def test_white_never_gets_forbidden_classes() -> None:
    white = patterns.class_table(Rule.RENJU)[65536:]
    assert not ((white & 15) == Pattern4.FORBID).any()
    assert not (white & patterns.FLAG_DOUBLE_THREE).any()


@pytest.mark.parametrize("value,rule", [(0, Rule.FREESTYLE), (1, Rule.STANDARD), (2, Rule.RENJU), (4, Rule.RENJU),
                                        (5, Rule.FREESTYLE), (6, Rule.FREESTYLE), (8, Rule.CARO),
                                        (9, Rule.CARO_EXACT)])
def test_protocol_rule_values(value: int, rule: Rule) -> None:
    assert rule_from_protocol(value) is rule


def test_every_rule_has_the_protocol_value_that_asks_for_it() -> None:
    assert {rule: protocol_value(rule) for rule in Rule} == {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4,
                                                             Rule.CARO: 8, Rule.CARO_EXACT: 9}
    assert all(rule_from_protocol(protocol_value(rule)) is rule for rule in Rule)


@pytest.mark.parametrize("value", [3, 7, 10, 16, -1, 2**40])
def test_unknown_rule_values_are_a_clear_error(value: int) -> None:
    with pytest.raises(RuleError, match="unsupported rule"):
        rule_from_protocol(value)
