"""Game rules: what wins and what is forbidden, read from the protocol's `INFO rule` bit mask."""
from __future__ import annotations

import enum

BLACK = 1
WHITE = 2


class Rule(enum.IntEnum):
    """A five-in-a-row rule. The value is the index of its pattern tables."""

    FREESTYLE = 0
    """Five or more in a row wins, for both sides."""
    STANDARD = 1
    """Exactly five wins; an overline wins for nobody."""
    RENJU = 2
    """Black wins only with exactly five and may not play overline, double four or double three; white wins with
    five or more."""
    CARO = 3
    """Five wins unless blocked at both ends by the opponent (the edge does not block); six or more always wins."""
    CARO_EXACT = 4
    """Exactly five wins, and only when not blocked at both ends (GomocupJudge's rule 9)."""

    @property
    def exact_five(self) -> bool:
        """True when an overline does not win for black."""
        return self in (Rule.STANDARD, Rule.RENJU, Rule.CARO_EXACT)

    @property
    def blocked_five_loses(self) -> bool:
        """True when a five blocked at both ends by the opponent does not win (caro)."""
        return self in (Rule.CARO, Rule.CARO_EXACT)

    @property
    def has_forbidden(self) -> bool:
        """True when black has forbidden points (renju)."""
        return self is Rule.RENJU


class RuleError(ValueError):
    """An `INFO rule` value Pentad does not play."""


# INFO rule bit mask -> Rule. 1 = exactly five, 2 = continuous game (Yixin-Board sends it for renju), 4 = renju,
# 8 = caro; 5 and 6 are freestyle with swap1 / swap2 openings (Rapfi's reading).
_BY_PROTOCOL_VALUE = {
    0: Rule.FREESTYLE,
    1: Rule.STANDARD,
    2: Rule.RENJU,
    4: Rule.RENJU,
    5: Rule.FREESTYLE,
    6: Rule.FREESTYLE,
    8: Rule.CARO,
    9: Rule.CARO_EXACT,
}


_PROTOCOL_VALUE = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4, Rule.CARO: 8, Rule.CARO_EXACT: 9}


def protocol_value(rule: Rule) -> int:
    """The `INFO rule` value that asks a brain for `rule` (the inverse of rule_from_protocol's usual values)."""
    return _PROTOCOL_VALUE[rule]


def rule_from_protocol(value: int) -> Rule:
    """Map an `INFO rule` value to a Rule, or raise RuleError naming the values Pentad accepts."""
    try:
        return _BY_PROTOCOL_VALUE[value]
    except (KeyError, TypeError):
        accepted = ", ".join(str(v) for v in sorted(_BY_PROTOCOL_VALUE))
        raise RuleError(f"unsupported rule {value!r} (accepted: {accepted})") from None


def opponent(color: int) -> int:
    """The other colour."""
    return 3 - color
