"""Gomoku for the Monte Carlo tree search: the game interface over a Board, and the policy that pre-selects forced
moves by their patterns, weighs the rest by the move ordering, and values leaves by the static evaluation.

Pre-selection (the seed's rules, read from the board's own per-cell threat classes, never a rescan):
  1. a five now;
  2. else block the opponent's four (the cells where it would make five);
  3. else make an open four or a double four (FLEX4);
  4. else, when the opponent has no open three, make a four-three;
  5. else, when the opponent has an open three, only the moves that stop it or make a four (never a move that
     leaves it unanswered);
  6. else every legal move near the stones.
Black's renju forbidden points are never generated.
"""
from __future__ import annotations

from array import array
from typing import List, Optional, Tuple

import cython

from pbrain.core.board import Board
from pbrain.evaluation.static import evaluate
from pbrain.search.movegen import MoveGen

if not cython.compiled:
    from math import exp  # noqa: F401  (gomoku.pxd takes it from libc when compiled)

    from pbrain.core.board import BLACK, EMPTY, P4_BLOCK4_FLEX3, P4_FIVE, P4_FLEX4, P4_MASK, WHITE, cell_class  # noqa: F401

COMPILED = cython.compiled
PRIOR_TEMPERATURE = 120.0
"""Priors are exp(ordering score / this), normalised: a four or a block of an open three dwarfs quiet moves."""
EVAL_SCALE = 120.0
"""A leaf's static eval e (the side to move's view) is worth the probability 1 / (1 + exp(-e / EVAL_SCALE))
(screened: 120 scored 14 of 20 against 250, 60 9 of 20 against 120; with c 0.5, 18 of 20 against c 1.0 and 250)."""
PRIOR_CAP = 4000.0
"""Ordering scores above this count as this much (a five or a block of five is pre-selected anyway)."""


class GomokuGame:
    """The game interface (side, play, undo, result, legal_moves) over a Board, for the tree search."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.gen = MoveGen(board, 1)

    @property
    def side(self) -> int:
        """The colour to move."""
        return self.board.side

    def play(self, move: int) -> None:
        """Play the side to move's stone on the empty cell `move`."""
        self.board.make(move)

    def undo(self) -> None:
        """Take back the last stone."""
        self.board.unmake()

    def result(self) -> Optional[int]:
        """None while the game goes on, 0 for a full board, else the colour that made five, or white when renju
        black may play nowhere (it must play a forbidden point and loses)."""
        board = self.board
        if board.move_count > 0 and board.fives[board.move_count - 1] != 0:
            return 3 - board.side
        if board.move_count >= board.width * board.height:
            return 0
        if board.renju and board.side == BLACK and not self.gen.has_legal_point(BLACK):
            return WHITE
        return None

    def legal_moves(self) -> list:
        """Every legal empty cell near the stones (the centre on an empty board)."""
        n = self.gen.gen_all(0, self.board.side)
        return [self.gen.moves[i] for i in range(n)]


class GomokuPolicy:
    """Forced-move pre-selection, ordering priors and static-eval leaf values for GomokuGame."""

    def __init__(self, temperature: float = PRIOR_TEMPERATURE, eval_scale: float = EVAL_SCALE) -> None:
        self.temperature = temperature
        self.eval_scale = eval_scale

    def moves(self, game: GomokuGame) -> Tuple[array, Optional[array]]:
        """The moves to try at this node, best first, and their priors: the forced ones when the patterns force
        (module doc; uniform priors), else every legal move weighted by its ordering score."""
        n, forced = forced_moves(game)
        gen = game.gen
        moves = array("i", [0]) * n
        priors = array("d", [0.0]) * n
        move_view = moves
        prior_view = priors
        if n == 0:
            return moves, priors
        if not forced:
            gen.sort(0, n)
        top = min(gen.scores[0], PRIOR_CAP)
        total = 0.0
        for i in range(n):
            move_view[i] = gen.moves[i]
            w = 1.0
            if not forced:
                w = exp((min(gen.scores[i], PRIOR_CAP) - top) / self.temperature)
            prior_view[i] = w
            total += w
        for i in range(n):
            prior_view[i] /= total
        return moves, priors

    def evaluate(self, game: GomokuGame, seed: int) -> float:
        """The side to move's chance, from the static evaluation (1 when it has a five to play)."""
        board = game.board
        side = board.side
        if board.p4count[16 * (side - 1) + P4_FIVE] > 0:
            return 1.0
        return 1.0 / (1.0 + exp(-evaluate(board, side) / self.eval_scale))


def forced_moves(game: GomokuGame) -> Tuple[int, bool]:
    """Fill game.gen's ply-0 buffer with the moves to try (module doc) and their ordering scores; returns (how
    many, whether the patterns forced them)."""
    board = game.board
    gen = game.gen
    me = board.side
    opp = 3 - me
    five = gen.any_five_point(me)
    if five >= 0:
        gen.moves[0] = five
        gen.scores[0] = 0
        return 1, True
    if board.p4count[16 * (opp - 1) + P4_FIVE] > 0:
        n = _cells_of_class(game, opp, P4_FIVE, me)
        if n > 0:
            return n, True
        return gen.gen_all(0, me), False  # the four cannot be blocked legally: the game is lost anyway
    n = _cells_of_class(game, me, P4_FLEX4, me)
    if n > 0:
        return n, True
    opp_three = gen.has_flex4(opp)
    if not opp_three:
        n = _cells_of_class(game, me, P4_BLOCK4_FLEX3, me)
        if n > 0:
            return n, True
        return gen.gen_all(0, me), False
    n = gen.gen_defences(0, me)
    if n > 0:
        return n, True
    return gen.gen_all(0, me), False


def _cells_of_class(game: GomokuGame, color: int, cls: int, mover: int) -> int:
    """Fill the ply-0 buffer with the empty cells whose class for `color` is `cls` and that `mover` may play."""
    board = game.board
    gen = game.gen
    wanted = board.p4count[16 * (color - 1) + cls]
    n = 0
    found = 0
    i = 0
    while found < wanted and i < board.npoints:
        cell = board.points[i]
        i += 1
        if board.cells[cell] != EMPTY or cell_class(board, cell, color) != cls:
            continue
        found += 1
        if gen.legal(cell, mover):
            gen.moves[n] = cell
            gen.scores[n] = 0
            n += 1
    return n


def forced_points(board: Board) -> List[int]:
    """The cells the pre-selection allows the side to move when the patterns force its hand ([] when they do
    not): for tests and the analysis."""
    game = GomokuGame(board)
    n, forced = forced_moves(game)
    return sorted(game.gen.moves[i] for i in range(n)) if forced else []
