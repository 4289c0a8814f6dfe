"""The move ordering's weights: data written by `tuning/policy.py`, read by patterns.order_values. Edit by refitting.

Per rule: a weight for each line pattern (patterns.Pattern order) and each threat class (patterns.Pattern4 order) of
the cell for the side to move ("own": what the move makes) and for the opponent ("opponent": what the move takes
away). A cell's static ordering score is the sum over its four line patterns and its class, for both sides: a linear
move policy (its logits times the scale the fit used), so the moves a stronger player picks come first. Rules
without weights of their own use freestyle's.
"""
from __future__ import annotations

from typing import Dict

WEIGHTS: Dict[str, dict] = {
    "freestyle": {
        "line": {
            "own": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            "opponent": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        },
        "class": {
            "own": (0, 0, 20, 12, 40, 30, 70, 90, 400, 60, 110, 900, 3000, 20000),
            "opponent": (0, 0, 10, 6, 20, 15, 35, 45, 250, 30, 55, 600, 2000, 10000),
        },
        "source": "the class ordering of the first searches (set by hand); line weights 0",
    },
}


def for_rule(rule: str) -> dict:
    """The ordering weights of `rule` ('freestyle', 'standard', 'renju', 'caro', 'caro_exact'): its own, or
    freestyle's."""
    return WEIGHTS.get(rule, WEIGHTS["freestyle"])
