"""Static evaluation: the board's running sums of its empty cells' values, for the side to move.

eval = (the side to move's cells valued as the mover's - the opponent's cells valued as the waiter's + tempo) >> SHIFT
(the weights are in sixteenths of a score unit).
A cell's value is looked up by its pattern code (the combination of its four line patterns) in the table the
board built from the fitted weights (eval_weights.py, patterns.cell_values), and the board keeps the sums up to
date on every move, so evaluating is three array reads.
"""
from __future__ import annotations

import cython

from pbrain.board import Board

if not cython.compiled:
    from pbrain.board import EVAL_SHIFT, EVAL_SUMS  # noqa: F401

COMPILED = cython.compiled


def evaluate(board: Board, side: int) -> int:
    """Static score of the position for `side` (the side to move)."""
    return (board.p4count[EVAL_SUMS + side - 1] - board.p4count[EVAL_SUMS + 2 + 2 - side] + board.tempo) >> EVAL_SHIFT
