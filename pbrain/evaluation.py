"""Static evaluation: the board's running sums of its empty cells' values, for the side to move.

eval = (the side to move's cells valued as the mover's - the opponent's cells valued as the waiter's + tempo
        + threat table[threat_index]) >> SHIFT
(the weights are in sixteenths of a score unit).
A cell's value is looked up by its pattern code (the combination of its four line patterns) in the table the
board built from the fitted weights (eval_weights.py, patterns.cell_values), and the board keeps the sums up to
date on every move (or, with class-only weights, reads them off its class counters: Board.eval_sum), so evaluating
costs no walk over the cells. The threat table adds what the cells' sum misses: a side
with several kinds of threat at once (an open three to make and a four, a four-three) is worth more than their
parts, most of all when it is that side's turn.
"""
from __future__ import annotations

import cython

from pbrain.board import Board

if not cython.compiled:
    from pbrain.board import (EVAL_SHIFT, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS,  # noqa: F401
                              P4_FLEX3, P4_FLEX3_2X, P4_FLEX3_PLUS, P4_FLEX4)

COMPILED = cython.compiled


def threat_index(board: Board, side: int) -> int:
    """Which threats each side has cells for, as bits (eval_weights.THREAT_BITS): for `side` (to move) then for
    the other, a four (closed), an open three, a double three, a four-three; and whether the other could make an
    open four (it has an open three on the board)."""
    me = 16 * (side - 1)
    opp = 16 * (2 - side)
    return ((board.p4count[me + P4_BLOCK4] + board.p4count[me + P4_BLOCK4_PLUS] > 0)
            | (board.p4count[me + P4_FLEX3] + board.p4count[me + P4_FLEX3_PLUS] > 0) << 1
            | (board.p4count[me + P4_FLEX3_2X] > 0) << 2
            | (board.p4count[me + P4_BLOCK4_FLEX3] > 0) << 3
            | (board.p4count[opp + P4_BLOCK4] + board.p4count[opp + P4_BLOCK4_PLUS] > 0) << 4
            | (board.p4count[opp + P4_FLEX3] + board.p4count[opp + P4_FLEX3_PLUS] > 0) << 5
            | (board.p4count[opp + P4_FLEX3_2X] > 0) << 6
            | (board.p4count[opp + P4_BLOCK4_FLEX3] > 0) << 7
            | (board.p4count[opp + P4_FLEX4] > 0) << 8)


def evaluate(board: Board, side: int) -> int:
    """Static score of the position for `side` (the side to move)."""
    return (board.eval_sum(side - 1, 0) - board.eval_sum(2 - side, 1) + board.tempo
            + board.threat_value[threat_index(board, side)]) >> EVAL_SHIFT
