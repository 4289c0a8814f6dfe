"""The gomoku Monte Carlo tree search as a player of the Engine facade: `Engine.think` calls `think` when the engine's
search is "mcts" (play / analyze `--engine mcts`) or the playing level is an MCTS level."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence

from pbrain import params
from pbrain.core.board import Board
from pbrain.mcts.gomoku import EVAL_SCALE, GomokuGame, GomokuPolicy
from pbrain.mcts.tree import MCTS, UNPROVEN, MCTSConfig, value_to_score

SEARCHES = ("alphabeta", "mcts")
"""The gomoku searches an Engine can use."""
EXPLORATION = 0.5
"""PUCT's c for gomoku (screened in self-play at 3,000 simulations a move: 0.5 scored 13.5 of 20 against 1.0,
0.25 11.5 of 20 against 0.5)."""


@dataclass(frozen=True)
class MctsAnswer:
    """One MCTS think, in the Engine's terms."""

    cell: int
    """-1: no move (every root move excluded, or the game is over)."""
    score: int
    """The side to move's view: a proven result as params.WIN minus the plies of the line, else the mean result
    as a logit in score units."""
    depth: int
    """Deepest selected path."""
    iterations: int
    pv: List[int]
    reason: str


def think(board: Board, time_s: float, max_iterations: int, stop: Any = None, exclude: Sequence[int] = ()) \
        -> MctsAnswer:
    """Search the board's position (unchanged afterwards) for `time_s` seconds and/or `max_iterations`."""
    game = GomokuGame(board)
    search = MCTS(game, GomokuPolicy(), MCTSConfig(exploration=EXPLORATION))
    result = search.search(time_s, max_iterations, stop, exclude)
    if result.move < 0:
        return MctsAnswer(-1, 0, 0, result.iterations, [], "none")
    plies = max(1, len(result.pv))
    if result.solved == 1:
        score = params.WIN - plies
    elif result.solved == -1:
        score = -params.WIN + plies
    elif result.solved == 0:
        score = 0
    else:
        score = value_to_score(result.value, EVAL_SCALE)
    reason = "mcts" if result.solved == UNPROVEN else "mcts-proof"
    if result.iterations == 0:
        reason = "forced"
    return MctsAnswer(result.move, score, result.depth, result.iterations, list(result.pv), reason)

