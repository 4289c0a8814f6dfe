"""The evaluation network: a small multilayer perceptron over the class counts, in place of the linear class
weights and threat table for the rules that have one (net_weights.NETS).

Inputs, for the side to move: its 14 class counts (how many empty cells have each patterns.Pattern4 class for
it), the waiting side's 14, then the 9 bits of evaluation.threat_index. One hidden layer of ReLU units, one linear
output, in the search's score units (the fitted logit times the evaluation's scale). The board holds the packed
weights (`tables`); evaluation.net_value computes it.
"""
from __future__ import annotations

from array import array
from typing import Tuple

from pbrain import net_weights

INPUTS = 37
"""14 class counts for each side and 9 threat bits."""
MAX_HIDDEN = 32


def tables(rule: str) -> Tuple[int, array]:
    """(hidden units, packed weights) of `rule`'s network, (0, one zero) when it has none. Packed: the input
    weights row by row (an input's weights to every hidden unit together), the hidden biases, the output weights
    times the scale, the output bias times the scale."""
    net = net_weights.NETS.get(rule)
    if net is None:
        return 0, array("d", [0.0])
    hidden = net["hidden"]
    assert 0 < hidden <= MAX_HIDDEN and len(net["w1"]) == INPUTS and all(len(row) == hidden for row in net["w1"])
    scale = net["scale"]
    packed = [v for row in net["w1"] for v in row] + list(net["b1"]) + [v * scale for v in net["w2"]]
    return hidden, array("d", packed + [net["b2"] * scale])
