"""Connect Four for the Monte Carlo tree search: Pentad's policy (forced-move pre-selection and playouts that take
wins and block) and the seed's plain UCT policy (every legal move, uniformly random playouts).

Pre-selection, from the bitboards: a winning move if there is one; else the one cell that blocks the opponent's
immediate win; else the moves that do not hand the opponent a win (never right below its winning cell); when
every move loses, all of them.
"""
from __future__ import annotations

from typing import List, Tuple

import cython

from pbrain.connect4 import Connect4

if not cython.compiled:
    from pbrain.connect4 import has_four, playable_cells, popcount  # noqa: F401

    NCOLS = 7
    NCELLS = 42
    STRIDE = 7

COMPILED = cython.compiled
MASK64 = (1 << 64) - 1
LCG_MUL = 6364136223846793005
LCG_ADD = 1442695040888963407


class Connect4Policy:
    """Pentad's Connect Four policy: forced moves pre-selected, no priors (UCB1), playouts that take a win and
    block one."""

    def moves(self, game: Connect4) -> Tuple[List[int], None]:
        """The moves worth trying (module doc), centre columns first."""
        return preselected(game), None

    def evaluate(self, game: Connect4, seed: int) -> float:
        """One playout's result for the side to move: 1 win, 0.5 draw, 0 loss."""
        winner = game.random_playout(seed)
        if winner == 0:
            return 0.5
        return 1.0 if winner == game.side else 0.0


class PlainUCTPolicy:
    """The seed's player: every legal move, uniformly random playouts to the end."""

    def moves(self, game: Connect4) -> Tuple[List[int], None]:
        """Every legal move, in column order."""
        return game.legal_moves(), None

    def evaluate(self, game: Connect4, seed: int) -> float:
        """One uniformly random playout's result for the side to move."""
        winner = pure_playout(game, seed)
        if winner == 0:
            return 0.5
        return 1.0 if winner == game.side else 0.0


CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


def preselected(game: Connect4) -> List[int]:
    """The moves the pre-selection keeps (module doc), centre columns first; [] when the game is over."""
    poss = game.possible()
    if poss == 0:
        return []
    wins = game.winning_positions() & poss
    if wins:
        return [_column(wins & (MASK64 - wins + 1))]
    keep = game.non_losing_moves()
    if keep == 0:
        keep = poss  # every move loses: any will do
    out = []
    for col in CENTRE_FIRST:
        if (keep >> (col * STRIDE)) & 63:
            out.append(col)
    return out


def _column(bit: int) -> int:
    """The column of a one-bit bitboard."""
    col = 0
    while bit >= (1 << STRIDE):
        bit >>= STRIDE
        col += 1
    return col


def pure_playout(game: Connect4, seed: int) -> int:
    """Uniformly random moves from the position to the end (the position is unchanged); returns the winner, 0
    for a draw."""
    if game.won:
        return game.won
    cur = game.current
    mask = game.mask
    n = game.move_count
    side = game.side
    state = (seed * LCG_MUL + LCG_ADD) & MASK64
    while n < NCELLS:
        poss = playable_cells(mask)
        state = (state * LCG_MUL + LCG_ADD) & MASK64
        k = (state >> 33) % popcount(poss)
        for i in range(k):
            poss &= poss - 1
        bit = poss & (MASK64 - poss + 1)
        mover = cur | bit
        if has_four(mover):
            return side
        cur = mover ^ (mask | bit)
        mask = mask | bit
        n += 1
        side = 3 - side
    return 0

