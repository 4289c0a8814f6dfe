"""Static evaluation: the board's running sums of its empty cells' values, for the side to move.

eval = (the side to move's cells valued as the mover's - the opponent's cells valued as the waiter's + tempo
        + threat table[threat_index]) >> SHIFT
(the weights are in sixteenths of a score unit).
A cell's value is looked up by its pattern code (the combination of its four line patterns) in the table the
board built from the fitted weights (weights.py, values.cell_values), and the board keeps the sums up to
date on every move (or, with class-only weights, reads them off its class counters: Board.eval_sum), so evaluating
costs no walk over the cells. The threat table adds what the cells' sum misses: a side
with several kinds of threat at once (an open three to make and a four, a four-three) is worth more than their
parts, most of all when it is that side's turn.

A rule with an evaluation network (network.py) is valued by it instead: the same class counts and threat bits, and
the board's running sums of the network's own per-code cell values in place of the linear ones, combined by a small
perceptron rather than summed (net_value).
"""
from __future__ import annotations

import cython

from pbrain.core.board import Board
from pbrain.evaluation import network

if not cython.compiled:
    from pbrain.core.board import (  # noqa: F401
        EVAL_SHIFT,
        P4_BLOCK4,
        P4_BLOCK4_FLEX3,
        P4_BLOCK4_PLUS,
        P4_FLEX3,
        P4_FLEX3_2X,
        P4_FLEX3_PLUS,
        P4_FLEX4,
    )

    CLASS_COUNT = 14
    THREAT_BITS = 9
    INPUT_COUNT = 39
    MAX_HIDDEN = 32
    CODE_SCALE = 1024
    SHIPPED_HIDDEN = 16

COMPILED = cython.compiled
assert (CLASS_COUNT, THREAT_BITS, INPUT_COUNT) == (14, 9, 39)  # patterns.Pattern4 and threat_index; network.INPUTS
assert (MAX_HIDDEN, CODE_SCALE) == (network.MAX_HIDDEN, network.CODE_SCALE)


def threat_index(board: Board, side: int) -> int:
    """Which threats each side has cells for, as bits (weights.THREAT_BITS): for `side` (to move) then for
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


def net_value(board: Board, side: int) -> int:
    """The evaluation network's score of the position for `side` (the side to move): the network's inputs, read
    off the board's class counters, through the board's packed weights (network.tables)."""
    if board.net_hidden == SHIPPED_HIDDEN:  # compiled, a constant width: the loops over the units unroll
        return _net_value(board, side, SHIPPED_HIDDEN)
    return _net_value(board, side, board.net_hidden)


def _net_value(board: Board, side: int, hidden: int) -> int:
    """net_value through a network of `hidden` units."""
    w = board.net_weights
    acc = cython.declare(cython.double[MAX_HIDDEN])  # on the stack: nothing aliases it, so the loops vectorize
    for k in range(hidden):
        acc[k] = w[INPUT_COUNT * hidden + k]
    for part in range(2):
        base = 16 * (side - 1) if part == 0 else 16 * (2 - side)
        for i in range(CLASS_COUNT):
            count = board.p4count[base + i]
            if count != 0:
                row = (part * CLASS_COUNT + i) * hidden
                for k in range(hidden):
                    acc[k] += count * w[row + k]
    bits = threat_index(board, side)
    for b in range(THREAT_BITS):
        if (bits >> b) & 1:
            row = (2 * CLASS_COUNT + b) * hidden
            for k in range(hidden):
                acc[k] += w[row + k]
    row = (2 * CLASS_COUNT + THREAT_BITS) * hidden
    mover = board.eval_sum(side - 1, 0) * (1.0 / CODE_SCALE)  # compiled, int / int would round
    waiter = board.eval_sum(2 - side, 1) * (1.0 / CODE_SCALE)
    for k in range(hidden):
        acc[k] += mover * w[row + k] + waiter * w[row + hidden + k]
    out = (INPUT_COUNT + 1) * hidden
    total = w[out + hidden]
    for k in range(hidden):
        if acc[k] > 0.0:
            total += acc[k] * w[out + k]
    return int(total)


def evaluate(board: Board, side: int) -> int:
    """Static score of the position for `side` (the side to move)."""
    if board.net_hidden > 0:
        return net_value(board, side)
    return (board.eval_sum(side - 1, 0) - board.eval_sum(2 - side, 1) + board.tempo
            + board.threat_value[threat_index(board, side)]) >> EVAL_SHIFT
