"""What the evaluation gives every board: its cell values by pattern code, the tempo, the threat table and the
network's packed weights. The board keeps the sums it is told to (core.board.use_evaluation); the values come from
here, read off the fitted weights (weights.py, net_weights.py)."""
from __future__ import annotations

from array import array
from typing import Tuple

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.patterns import ROLES
from pbrain.core.rules import Rule
from pbrain.evaluation import network, weights

assert weights.SHIFT == 4, "the board's EVAL_SHIFT (board.pxd, board.py) is the weights' SHIFT"


def cell_values(rule: Rule) -> "array[int]":
    """int32[2 colours x 2 roles x NUM_CODES]: the linear evaluation's value of an empty cell by its pattern code,
    at [(colour index * 2 + role) * NUM_CODES + code], from the fitted weights of `rule` (weights.py): the sum of
    its four line patterns' weights and its threat class's weight, plus the code's own correction if it has one
    (the same for both colours). A forbidden cell (renju black) is worth its class's weight alone: it is no shape."""
    return patterns.code_values(rule, weights.for_rule(rule.name.lower()), ROLES)


def board_values(rule: Rule) -> "Tuple[array[int], int, array[int]]":
    """(cell values, tempo, threat values) of a board of `rule`: a rule with an evaluation network sums the
    network's code values instead of the linear evaluation's."""
    net_codes = network.code_values(rule)
    values = net_codes if net_codes is not None else array("i", cell_values(rule))
    name = rule.name.lower()
    return values, weights.tempo(name), array("i", weights.threat_values(name))


def board_network(board: Board) -> "Tuple[int, array[float]]":
    """(hidden units, packed weights) of the network for the new, empty `board` (network.tables): its empty cells
    read as those of the size the network learned on."""
    rule = Rule(board.rule)
    empty = trained = board.empty_inputs()
    trained_size = network.TRAINED_SIZE
    if network.has_network(rule) and (board.width, board.height) != (trained_size, trained_size):
        trained = Board(trained_size, trained_size, board.rule).empty_inputs()
    return network.tables(rule.name.lower(), empty, trained)
