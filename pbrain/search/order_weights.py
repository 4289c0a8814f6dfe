"""The move ordering's weights: data written by `tuning/policy.py`, read by movegen.order_values. Edit by refitting.

Per rule: a weight for each line pattern (patterns.Pattern order) and each threat class (patterns.Pattern4 order) of
the cell for the side to move ("own": what the move makes) and for the opponent ("opponent": what the move takes
away), and optionally ("code") a correction of each pattern code for each role. A cell's static ordering score is
the sum over its four line patterns and its class, plus its code's correction, for both sides: a move policy (its
logits times the scale the fit used), so the moves a stronger player picks come first. Rules
without fitted weights of their own use freestyle's (the shapes are the same; a standard or renju fit of their own
would replace them), and HAND_SET when there is no freestyle fit either.

A renju point forbidden to black scores its class weight alone (movegen.order_values): freestyle's fit never sees
the FORBID class, so its opponent weight is set to what the fit gives a cell of class NONE with four dead lines
(NONE + 4 x DEAD): for white, taking a point black may not play takes away nothing.
"""
from __future__ import annotations

from typing import Dict

HAND_SET: dict = {
    "line": {
        "own": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        "opponent": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    },
    "class": {
        "own": (0, 0, 20, 12, 40, 30, 70, 90, 400, 60, 110, 900, 3000, 20000),
        "opponent": (0, 0, 10, 6, 20, 15, 35, 45, 250, 30, 55, 600, 2000, 10000),
    },
    "source": "the class ordering of the first searches (set by hand); line weights 0",
}
"""The ordering before any fit: by threat class alone."""

WEIGHTS: Dict[str, dict] = {
    "freestyle": {
        "line": {
            "own": (-1299, 0, -938, -983, -682, 0, -581, 284, 34, 2037, 2129, 0, 0, 0),
            "opponent": (-886, 0, -874, -1000, -1082, 0, -665, -333, -489, 622, 1998, 2709, 0, 0),
        },
        "class": {
            "own": (-879, 0, -847, -671, -448, 63, -696, -22, 1372, -70, 525, 1674, 3000, 20000),
            "opponent": (-1316, -4860, -924, -301, -1531, -578, -380, -47, 346, 284, 665, 1096, 2686, 10000),
        },
        "source": "tuning.policy's model (ridge 1) on 2026-11-26, scale 1000 (shipped at scale 300 first): 834 of 1,043 positions sampled from 120 self-play games at 20,000 nodes a move, each with Rapfi's move at 200,000 nodes; on the 209 held out, the analyst's move came first 41 % of the time (31 % for HAND_SET), mean rank 3.8 (4.9); the mover's open four and five and the opponent's five keep the hand-set weights",
    },
}


def for_rule(rule: str) -> dict:
    """The ordering weights of `rule` ('freestyle', 'standard', 'renju', 'caro', 'caro_exact'): its own, else
    freestyle's, else HAND_SET."""
    return WEIGHTS.get(rule, WEIGHTS.get("freestyle", HAND_SET))
