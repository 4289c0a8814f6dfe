"""The evaluation's weights: data written by `tuning/fit.py`, read by patterns.cell_values. Edit by refitting.

Per rule: a weight for each line pattern (patterns.Pattern order) and each threat class (patterns.Pattern4 order),
for the side to move ("mover") and for the side that waits ("waiter"), the side to move's bonus ("tempo"),
optionally per-code corrections ("code": per role, (pattern code, correction) pairs; a pattern code indexes
patterns.PATTERN_COMBOS) and a value for each combination of the two sides' threats ("threat":
(evaluation.threat_index, value) pairs, added once a position). Rules without weights of their own use freestyle's.
Weights are in 1/2**SHIFT of the search's score units (the evaluation shifts the sum), so that small shapes, each
worth a fraction of a unit, still count.
"""
from __future__ import annotations

from typing import Dict

SHIFT = 4
"""The evaluation is (sum of weights) >> SHIFT: weights are in sixteenths of a score unit."""
THREAT_BITS = 9
"""The threat table ("threat": (index, value) pairs, the rest 0) has 2**THREAT_BITS entries, indexed by
evaluation.threat_index."""

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
        "source": "line / class weights: the class-count evaluation's values x16; threat table: tuning.fit --hold-weights --threats 30 on 2026-11-24, 17893 positions from 4733 games, K 2039.7",
        "threat": (
            (0, -585), (1, -1020), (2, 102), (3, 164), (16, -331), (17, -101), (18, 163), (19, 257), (32, -201),
            (33, 171), (34, 268), (35, 2560), (38, 12594), (39, 12112), (43, 12356), (48, -415), (49, -152),
            (50, 168), (51, 759), (54, 1310), (55, 3592), (59, 8033), (97, 817), (98, 1419), (99, 4086),
            (103, 12952), (107, 12928), (113, -597), (114, -413), (115, 1315), (119, 3142), (177, -1316),
            (178, -3180), (179, -839), (183, -473), (243, 149), (272, 405), (273, -41), (274, 276), (275, 342),
            (304, -699), (305, -256), (306, -2369), (307, -629), (310, -4123), (311, -528), (315, 7015),
            (370, -6573), (371, 270), (374, -7035), (375, 458), (434, -5234), (435, -1569), (438, -5430),
            (439, -329), (499, 1562),
        ),
    },
}


def for_rule(rule: str) -> dict:
    """The weights of `rule` ('freestyle', 'standard', 'renju', 'caro', 'caro_exact'): its own, or freestyle's."""
    return WEIGHTS.get(rule, WEIGHTS["freestyle"])


def tempo(rule: str) -> int:
    """The side to move's bonus under `rule`."""
    return int(for_rule(rule).get("tempo", 0))


def threat_values(rule: str) -> list:
    """The threat table of `rule`: 2**THREAT_BITS values (0 where it has none)."""
    out = [0] * (1 << THREAT_BITS)
    for index, value in for_rule(rule).get("threat", ()):
        out[index] = int(value)
    return out
