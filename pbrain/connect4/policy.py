"""Connect Four for the Monte Carlo tree search: Pentad's policy (forced-move pre-selection and playouts that take
wins and block) and, plain, the seed's UCT policy (every legal move, uniformly random playouts).

Pre-selection, from the bitboards: a winning move if there is one; else the one cell that blocks the opponent's
immediate win; else the moves that do not hand the opponent a win (never right below its winning cell); when
every move loses, all of them.
"""
from __future__ import annotations

from typing import List, Tuple

import cython

from pbrain.connect4.bitboard import Connect4

if not cython.compiled:
    from pbrain.connect4.bitboard import column_of  # noqa: F401

    STRIDE = 7

COMPILED = cython.compiled
MASK64 = (1 << 64) - 1


class Connect4Policy:
    """A Connect Four policy for the tree search, no priors (UCB1). Pentad's: forced moves pre-selected, playouts
    that take a win and block one. `plain`: the seed's player, every legal move and uniformly random playouts."""

    def __init__(self, plain: bool = False) -> None:
        self.plain = plain

    def moves(self, game: Connect4) -> Tuple[List[int], None]:
        """The moves worth trying (module doc; plain: every legal move), centre columns first."""
        return (game.legal_moves() if self.plain else preselected(game)), None

    def evaluate(self, game: Connect4, seed: int) -> float:
        """One playout's result for the side to move: 1 win, 0.5 draw, 0 loss."""
        winner = game.random_playout(seed, not self.plain)
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
        return [column_of(wins & (MASK64 - wins + 1))]
    keep = game.non_losing_moves()
    if keep == 0:
        keep = poss  # every move loses: any will do
    out = []
    for col in CENTRE_FIRST:
        if (keep >> (col * STRIDE)) & 63:
            out.append(col)
    return out

