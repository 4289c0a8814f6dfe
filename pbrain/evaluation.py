"""Static evaluation from the board's per-class counters: attack and defence potential of every empty cell.

eval = own cells' class values (weighted up: it is our move) - opponent cells' class values + tempo. Both sums
come from the board's O(1) class counters; weights are params.CLASS_VALUE (data, not code).
"""
from __future__ import annotations

from array import array

import cython

from pbrain import params
from pbrain.board import Board

if not cython.compiled:
    NUM_CLASSES = 14

COMPILED = cython.compiled
_CLASS_VALUE = array("i", params.CLASS_VALUE)
_OWN_WEIGHT = params.OWN_WEIGHT_16THS
_OPPONENT_WEIGHT = params.OPPONENT_WEIGHT_16THS
_TEMPO = params.TEMPO


def evaluate(board: Board, side: int) -> int:
    """Static score of the position for `side` (the side to move), in centi-stone-ish units."""
    own = 16 * (side - 1)
    opp = 16 * (2 - side)
    mine = 0
    theirs = 0
    for k in range(NUM_CLASSES):
        mine += _CLASS_VALUE[k] * board.p4count[own + k]
        theirs += _CLASS_VALUE[k] * board.p4count[opp + k]
    return ((mine * _OWN_WEIGHT - theirs * _OPPONENT_WEIGHT) >> 4) + _TEMPO
