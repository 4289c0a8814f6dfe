"""Static evaluation from the board's per-class counters: attack and defence potential of every empty cell, and
who holds the initiative.

eval = sum of the side to move's cells by class (OWN_CLASS_VALUE) - the opponent's (OPPONENT_CLASS_VALUE) + tempo.
All values come from the board's O(1) class counters; the weights are in params (data, not code) and can be
replaced with configure() for tuning.
"""
from __future__ import annotations

from array import array

import cython

from pbrain import params
from pbrain.board import Board

if not cython.compiled:
    NUM_CLASSES = 14

COMPILED = cython.compiled
_OWN_VALUE = array("i", params.OWN_CLASS_VALUE)
_OPPONENT_VALUE = array("i", params.OPPONENT_CLASS_VALUE)
_TEMPO = array("i", [0])


def configure(own_class_value=params.OWN_CLASS_VALUE, opponent_class_value=params.OPPONENT_CLASS_VALUE,
              tempo: int = params.TEMPO) -> None:
    """Set the evaluation weights (defaults: params). For tuning and playing levels; affects every board."""
    for k in range(NUM_CLASSES):
        _OWN_VALUE[k] = own_class_value[k]
        _OPPONENT_VALUE[k] = opponent_class_value[k]
    _TEMPO[0] = tempo


def evaluate(board: Board, side: int) -> int:
    """Static score of the position for `side` (the side to move)."""
    own = 16 * (side - 1)
    opp = 16 * (2 - side)
    mine = 0
    theirs = 0
    for k in range(NUM_CLASSES):
        mine += _OWN_VALUE[k] * board.p4count[own + k]
        theirs += _OPPONENT_VALUE[k] * board.p4count[opp + k]
    return mine - theirs + _TEMPO[0]


configure()
