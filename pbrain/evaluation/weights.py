"""The evaluation's weights: data written by `tuning/fit.py`, read by evaluation.values.cell_values. Edit by refitting.

Per rule: a weight for each line pattern (patterns.Pattern order) and each threat class (patterns.Pattern4 order),
for the side to move ("mover") and for the side that waits ("waiter"), the side to move's bonus ("tempo"),
optionally per-code corrections ("code": per role, (pattern code, correction) pairs; a pattern code indexes
patterns.PATTERN_COMBOS) and a value for each combination of the two sides' threats ("threat":
(evaluation.threat_index, value) pairs, added once a position). A rule whose entry is another rule's name shares
that rule's weights; rules without an entry use freestyle's.
Weights are in 1/2**SHIFT of the search's score units (the evaluation shifts the sum), so that small shapes, each
worth a fraction of a unit, still count.
"""
from __future__ import annotations

from typing import Dict, Union

SHIFT = 4
"""The evaluation is (sum of weights) >> SHIFT: weights are in sixteenths of a score unit."""
THREAT_BITS = 9
"""The threat table ("threat": (index, value) pairs, the rest 0) has 2**THREAT_BITS entries, indexed by
evaluation.threat_index."""

WEIGHTS: Dict[str, Union[dict, str]] = {
    "freestyle": {
        "line": {
            "mover": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            "waiter": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        },
        "class": {
            "mover": (0, 0, 57, 81, 123, 270, 318, 608, 1121, 548, 1514, 8814, 2400, 4800),
            "waiter": (0, 0, 30, 60, 99, 250, 207, 462, 888, 463, 987, 2299, 1926, 4800),
        },
        "tempo": 640,
        "source": "classes and threat table: tuning.fit --hold-lines --hold-tempo --threats 30 on 2026-11-30, 30,062 positions the search reached at its leaves (tuning.leaves, 100,000-node thinks on positions of 590 games against PentaZen) labelled by Rapfi at 100 ms (tuning.label --as-is), scale 300, mates 1 / 0, K 1675.2; 70 threat entries refitted, the rarer kept from 2026-11-24",
        "threat": (
            (0, -585), (1, -1283), (2, 548), (3, -352), (16, 442), (17, -269), (18, 700), (19, 341), (23, 1897),
            (27, 1569), (32, -484), (33, -937), (34, 144), (35, 252), (38, 12594), (39, 12112), (43, 12356),
            (48, -24), (49, -551), (50, 317), (51, 143), (54, 3019), (55, 1764), (59, -179), (63, 1777), (97, -290),
            (98, 1045), (99, 1194), (103, 12952), (107, 12928), (112, -1019), (113, -485), (114, 315), (115, 373),
            (118, 569), (119, 579), (123, -1403), (127, 2548), (177, 287), (178, 180), (179, -88), (182, 207),
            (183, -178), (187, 1683), (241, -923), (242, -667), (243, -627), (247, -1915), (272, 405), (273, 1020),
            (274, 1544), (275, 590), (304, 681), (305, -152), (306, -210), (307, -230), (310, -1265), (311, -345),
            (315, -55), (319, -2040), (369, -809), (370, -2990), (371, -645), (374, -2099), (375, -351), (379, 2323),
            (383, 99), (432, -1244), (433, -126), (434, -1657), (435, 435), (438, -758), (439, 492), (443, 965),
            (498, -5921), (499, -175), (503, 436),
        ),
    },
    "standard": {
        "line": {
            "mover": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            "waiter": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        },
        "class": {
            "mover": (0, 0, 64, 64, 112, 112, 336, 416, 640, 368, 560, 720, 2400, 4800),
            "waiter": (0, 0, 32, 32, 96, 144, 288, 480, 480, 368, 544, 832, 1280, 4800),
        },
        "tempo": 640,
        "source": "the freestyle weights before 2026-11-30 (line / class weights: the class-count evaluation's values x16; threat table: tuning.fit --hold-weights --threats 30 on 2026-11-24, 17893 positions from 4733 games, K 2039.7), kept for the rules the leaf fit was not measured on",
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
    "renju": {
        "line": {
            "mover": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            "waiter": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        },
        "class": {
            "mover": (0, -857, 33, 91, 124, 256, 268, 577, 543, 515, 1385, 6556, 10845, 4800),
            "waiter": (0, -606, 13, 84, 81, 221, 178, 408, 875, 479, 1010, 1303, 1362, 4800),
        },
        "tempo": 640,
        "source": "classes and threat table: tuning.fit --hold-lines --hold-tempo, then --hold-weights --threats 30, on 2026-11-30 (renju's own): 24,905 positions the search reached at its leaves (tuning.leaves, 100,000-node thinks on positions of 400 renju games against PentaZen) labelled by Rapfi in renju at 30,000 nodes (tuning.label --as-is), scale 300, mates 1 / 0, K 1984.7; 70 threat entries refitted, the rarer kept; lines and tempo as before",
        "threat": (
            (0, -585), (1, -1020), (2, 146), (3, 650), (16, 329), (17, -23), (18, 486), (19, 559), (23, 2571),
            (27, 6121), (32, -652), (33, -336), (34, 510), (35, 1035), (38, 12594), (39, 6164), (43, 12425),
            (48, -435), (49, 15), (50, 400), (51, 754), (54, 1597), (55, 2531), (59, 3091), (63, 5247), (97, 521),
            (98, 1143), (99, 2426), (103, 12952), (107, 12928), (113, 940), (114, 883), (115, 1812), (118, 1306),
            (119, 2544), (123, 7321), (127, 6187), (177, -739), (178, -936), (179, -537), (183, -961), (187, 481),
            (191, -198), (241, -120), (242, -2454), (243, -241), (247, -299), (272, 405), (273, 664), (274, 365),
            (275, 445), (279, 493), (283, 1190), (304, -299), (305, -486), (306, -1601), (307, -673), (310, -1977),
            (311, -399), (315, 480), (319, 417), (369, -1113), (370, -2262), (371, -733), (374, -3139), (375, -576),
            (379, 2427), (433, -1163), (434, -3783), (435, -1317), (438, -2516), (439, -1080), (443, -532),
            (498, -2314), (499, -1065), (503, -400),
        ),
    },
    "caro": "standard",
    "caro_exact": "standard",
}


def for_rule(rule: str) -> dict:
    """The weights of `rule` ('freestyle', 'standard', 'renju', 'caro', 'caro_exact'): its own, those of the rule
    its entry names, or freestyle's."""
    entry = WEIGHTS.get(rule, "freestyle")
    while isinstance(entry, str):
        entry = WEIGHTS[entry]
    return entry


def tempo(rule: str) -> int:
    """The side to move's bonus under `rule`."""
    return int(for_rule(rule).get("tempo", 0))


def threat_values(rule: str) -> list:
    """The threat table of `rule`: 2**THREAT_BITS values (0 where it has none)."""
    out = [0] * (1 << THREAT_BITS)
    for index, value in for_rule(rule).get("threat", ()):
        out[index] = int(value)
    return out
