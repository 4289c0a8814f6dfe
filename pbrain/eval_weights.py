"""The evaluation's weights: data written by `tuning/fit.py`, read by patterns.cell_values. Edit by refitting.

Per rule: a weight for each line pattern
(patterns.Pattern order) and each threat class (patterns.Pattern4 order), for the side to move ("mover") and for
the side that waits ("waiter"), the side to move's bonus ("tempo"), and optionally per-code corrections ("code":
per role, (pattern code, correction) pairs; a pattern code indexes patterns.PATTERN_COMBOS). Rules without weights of their own use
freestyle's. Weights are in 1/2**SHIFT of the search's score units (the evaluation shifts the sum), so that small
shapes, each worth a fraction of a unit, still count.
"""
from __future__ import annotations

from typing import Dict

SHIFT = 4
"""The evaluation is (sum of weights) >> SHIFT: weights are in sixteenths of a score unit."""

WEIGHTS: Dict[str, dict] = {
    "freestyle": {
        "line": {
            "mover": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            "waiter": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        },
        "class": {
            "mover": (0, 0, 64, 64, 112, 112, 336, 416, 640, 368, 560, 720, 2400, 4800),
            "waiter": (0, 0, 32, 32, 96, 144, 288, 480, 480, 368, 544, 832, 1280, 4800),
        },
        "tempo": 640,
        "source": "the class-count evaluation's values x16 (no fit of the line weights kept yet: tuning/README.md)",
    },
}


def for_rule(rule: str) -> dict:
    """The weights of `rule` ('freestyle', 'standard', 'renju', 'caro', 'caro_exact'): its own, or freestyle's."""
    return WEIGHTS.get(rule, WEIGHTS["freestyle"])


def tempo(rule: str) -> int:
    """The side to move's bonus under `rule`."""
    return int(for_rule(rule).get("tempo", 0))
