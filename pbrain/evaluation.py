"""Static evaluation from the board's per-class counters: attack and defence potential of every empty cell, and
who holds the initiative.

eval = sum of the side to move's cells by class (OWN_CLASS_VALUE) - the opponent's (OPPONENT_CLASS_VALUE) + tempo,
plus threat terms: a move that makes a double threat for the side to move, an open three of the opponent that
must be answered now, a double threat the opponent could make next. All values come from the board's O(1) class
counters; the weights are in params (data, not code) and can be replaced with configure() for tuning.
"""
from __future__ import annotations

from array import array

import cython

from pbrain import params
from pbrain.board import Board

if not cython.compiled:
    from pbrain.board import P4_BLOCK4_FLEX3, P4_FLEX3_2X, P4_FLEX4  # noqa: F401

    NUM_CLASSES = 14

COMPILED = cython.compiled
_OWN_VALUE = array("i", params.OWN_CLASS_VALUE)
_OPPONENT_VALUE = array("i", params.OPPONENT_CLASS_VALUE)
_WEIGHTS = array("i", [0] * 6)


def configure(own_class_value=params.OWN_CLASS_VALUE, opponent_class_value=params.OPPONENT_CLASS_VALUE,
              tempo: int = params.TEMPO, own_double: int = params.OWN_DOUBLE_THREAT,
              opponent_three: int = params.OPPONENT_OPEN_THREE,
              opponent_double: int = params.OPPONENT_DOUBLE_THREAT) -> None:
    """Set the evaluation weights (defaults: params). For tuning and playing levels; affects every board."""
    for k in range(NUM_CLASSES):
        _OWN_VALUE[k] = own_class_value[k]
        _OPPONENT_VALUE[k] = opponent_class_value[k]
    _WEIGHTS[2] = tempo
    _WEIGHTS[3] = own_double
    _WEIGHTS[4] = opponent_three
    _WEIGHTS[5] = opponent_double


def evaluate(board: Board, side: int) -> int:
    """Static score of the position for `side` (the side to move)."""
    own = 16 * (side - 1)
    opp = 16 * (2 - side)
    mine = 0
    theirs = 0
    for k in range(NUM_CLASSES):
        mine += _OWN_VALUE[k] * board.p4count[own + k]
        theirs += _OPPONENT_VALUE[k] * board.p4count[opp + k]
    score = mine - theirs + _WEIGHTS[2]
    opp_three = board.p4count[opp + P4_FLEX4] > 0
    if opp_three:
        score -= _WEIGHTS[4]
    elif board.p4count[own + P4_FLEX3_2X] + board.p4count[own + P4_BLOCK4_FLEX3] > 0:
        score += _WEIGHTS[3]
    if board.p4count[opp + P4_FLEX3_2X] + board.p4count[opp + P4_BLOCK4_FLEX3] > 0:
        score -= _WEIGHTS[5]
    return score


configure()
