"""The evaluation network: a small multilayer perceptron over the class counts, in place of the linear class
weights and threat table for the rules that have one (net_weights.NETS).

Inputs, for the side to move: its 14 class counts (how many empty cells have each patterns.Pattern4 class for
it), the waiting side's 14, the 9 bits of evaluation.threat_index, then two code sums: the side to move's empty
cells valued by their pattern codes (the network's own value of each code for the side to move) and the waiting
side's (its values for the side that waits), in units of 1 / CODE_SCALE. One hidden layer of ReLU units, one
linear output, in the search's score units (the fitted logit times the evaluation's scale). The board holds the
packed weights (`tables`) and keeps the code sums up to date with `code_values` as its cell values, as it does the
linear evaluation's; evaluation.net_value computes the network.
"""
from __future__ import annotations

from array import array
from typing import Tuple

from pbrain.core import patterns
from pbrain.core.patterns import NUM_CODES, ROLES, Pattern4
from pbrain.core.rules import Rule
from pbrain.evaluation import net_weights

INPUTS = 39
"""14 class counts for each side, 9 threat bits, 2 code sums."""
CLASSES = len(Pattern4)
"""Class counts of each side among the inputs."""
TRAINED_SIZE = 15
"""The networks learned from positions on 15x15 boards (tables shifts them to other sizes)."""
MAX_HIDDEN = 32
CODE_SCALE = 1024
"""The code values are stored as integers, this many to a unit of the network's input."""


def tables(rule: str, empty: Tuple[int, int, int] = (0, 0, 0),
           trained: Tuple[int, int, int] = (0, 0, 0)) -> Tuple[int, array]:
    """(hidden units, packed weights) of `rule`'s network, (0, one zero) when it has none. Packed: the input
    weights row by row (an input's weights to every hidden unit together), the hidden biases, the output weights
    times the scale, the output bias times the scale.

    `empty` and `trained` are Board.empty_inputs of an empty board of the size played and of TRAINED_SIZE: the
    class NONE counts and the code sums count every empty cell, so on a larger board every position would read as
    one with far more empty cells than any the network learned from (on 20x20, about +300 for the side to move);
    the hidden biases take the difference, and the two boards' empty cells read alike."""
    net = net_weights.NETS.get(rule)
    if net is None:
        return 0, array("d", [0.0])
    hidden = net["hidden"]
    assert 0 < hidden <= MAX_HIDDEN and len(net["w1"]) == INPUTS and all(len(row) == hidden for row in net["w1"])
    scale = net["scale"]
    w1 = net["w1"]
    none = trained[0] - empty[0]
    mover, waiter = (trained[1] - empty[1]) / CODE_SCALE, (trained[2] - empty[2]) / CODE_SCALE
    biases = [bias + none * (w1[Pattern4.NONE][k] + w1[CLASSES + Pattern4.NONE][k]) + mover * w1[INPUTS - 2][k]
              + waiter * w1[INPUTS - 1][k] for k, bias in enumerate(net["b1"])]
    packed = [v for row in net["w1"] for v in row] + biases + [v * scale for v in net["w2"]]
    return hidden, array("d", packed + [net["b2"] * scale])


def has_network(rule: Rule) -> bool:
    """True when `rule` is evaluated by a network (net_weights.NETS has an entry for it)."""
    return net_weights.NETS.get(rule.name.lower()) is not None


_CODE_VALUES: dict = {}
"""rule -> (the network entry the values were made from, the values): code_values's cache."""


def code_values(rule: Rule) -> "array[int] | None":
    """int32[2 colours x 2 roles x NUM_CODES], laid out as values.cell_values: the network's value of an empty
    cell by its pattern code (net_weights "codes": per role, (code, value) pairs; codes not listed are worth 0),
    times CODE_SCALE; a forbidden cell (renju black) is worth 0, as the positions it was trained on leave it out.
    None when `rule` has no network. Made once per rule and network (a fresh copy each call)."""
    net = net_weights.NETS.get(rule.name.lower())
    if net is None:
        return None
    cached = _CODE_VALUES.get(rule)
    if cached is None or cached[0] is not net:
        classes = patterns.code_classes(rule)
        out = array("i", bytes(4 * 4 * NUM_CODES))
        for role, name in enumerate(ROLES):
            for code, value in net["codes"][name]:
                for ci in range(2):
                    if classes[ci * NUM_CODES + code] & 15 != Pattern4.FORBID:
                        out[(ci * 2 + role) * NUM_CODES + code] = round(value * CODE_SCALE)
        cached = _CODE_VALUES[rule] = (net, out)
    return array("i", cached[1])
