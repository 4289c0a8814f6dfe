"""Connect Four players: functions (position, seconds, stop event) -> Answer, listed by name in PLAYERS.

The alpha-beta player proves what it can: first the win / draw / loss value with a move that keeps it, then the
exact score (fastest win, slowest loss); when the proof does not finish in time it answers with the deepest
completed iteration of the heuristic depth-limited search (solver.Solver.search). No opening book.
"""
from __future__ import annotations

from dataclasses import dataclass
from time import perf_counter
from typing import Callable, Dict, Optional

from pbrain.connect4.bitboard import HEIGHT, WIDTH, Connect4, Connect4Error
from pbrain.connect4.policy import Connect4Policy
from pbrain.connect4.solver import PROVEN, Solver
from pbrain.mcts.tree import MCTS, UNPROVEN, MCTSConfig

TREE_FREE_SHARE = 0.06
"""Share of an MCTS move's time kept for freeing its tree (a few hundred thousand nodes at 1 s: up to ~0.1 s)."""
MCTS_EXPLORATION = 1.0
"""UCB1's c for Pentad's Connect Four MCTS (plain UCT keeps the textbook 1.4)."""
PROOF_SHARE = 0.75
"""Share of the move's time the win / draw / loss proof may take before the heuristic search gets the rest."""
MARGIN_S = 0.01
"""Seconds kept back from every move's time for the answer to get out."""
CELLS = WIDTH * HEIGHT
_SOLVER: Optional[Solver] = None


@dataclass(frozen=True)
class Answer:
    """A player's move and what it knows about it."""

    column: int
    """The move, 0-based."""
    score: Optional[int]
    """From the mover's view: the solver's score when exact (Pons' convention), the sign for a win / draw / loss
    proof, else the heuristic search's score."""
    exact: bool
    """True when `score` is the proven exact score."""
    text: str
    """For people: 'win in N' (the mover wins with its Nth stone from here), 'draw', 'loss in N', 'win' / 'draw' /
    'loss' when only the value is proven, or 'eval +12'."""
    depth: int = 0
    """Plies searched by the heuristic search (0 for a proof)."""
    nodes: int = 0
    time_ms: int = 0


def solver() -> Solver:
    """The process's shared solver (its transposition tables stay valid from move to move)."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver()
    return _SOLVER


def score_text(score: int, stones: int) -> str:
    """'win in N' / 'draw' / 'loss in N' for an exact solver score of the side to move with `stones` on the board."""
    if score > 0:
        return f"win in {22 - score - stones // 2}"
    if score < 0:
        return f"loss in {22 + score - (stones + 1) // 2}"
    return "draw"


def alphabeta_move(pos: Connect4, time_s: float, stop=None) -> Answer:  # type: ignore[no-untyped-def]
    """The alpha-beta player's move in `pos` (not over) within `time_s` seconds (plus a few milliseconds) or when
    `stop.is_set()`; `pos` is left as it was."""
    started = perf_counter()
    legal = pos.legal_moves()
    if not legal:
        raise Connect4Error("the game is over: there is no move to choose")
    solve = solver()
    nodes0 = solve.nodes
    end = started + max(0.0, time_s - MARGIN_S)

    def answer(column: int, score: Optional[int], exact: bool, text: str, depth: int = 0) -> Answer:
        return Answer(column, score, exact, text, depth, solve.nodes - nodes0, int((perf_counter() - started) * 1000))

    n = pos.move_count
    for col in legal:
        if pos.is_winning_move(col):
            score = (CELLS + 1 - n) // 2
            return answer(col, score, True, score_text(score, n))
    if len(legal) == 1:
        return answer(legal[0], None, False, "only move")
    weak = solve.best_move(pos, weak=True, deadline=started + PROOF_SHARE * (end - started), stop=stop)
    if weak is not None:
        exact = solve.best_move(pos, weak=False, deadline=end, stop=stop)
        if exact is not None:
            return answer(exact[1], exact[0], True, score_text(exact[0], n))
        return answer(weak[1], weak[0], False, ("loss", "draw", "win")[weak[0] + 1])
    score, col, depth = solve.search(pos, CELLS, deadline=end, stop=stop)
    if depth == 0:
        return answer(col, None, False, "no time")
    if score >= PROVEN or score <= -PROVEN:
        sign = 1 if score > 0 else -1
        return answer(col, score, False, score_text(sign * (abs(score) - PROVEN), n), depth)
    return answer(col, score, False, f"eval {score:+d}", depth)


def _mcts_answer(pos: Connect4, time_s: float, stop, policy,  # type: ignore[no-untyped-def]
                 config: MCTSConfig) -> Answer:
    """A Monte Carlo tree search's move in `pos` (searched on a copy) within `time_s` seconds."""
    started = perf_counter()
    if pos.is_over():
        raise Connect4Error("the game is over: there is no move to choose")
    result = MCTS(pos.copy(), policy, config).search(max(0.001, time_s * (1 - TREE_FREE_SHARE) - MARGIN_S), 0, stop)
    if result.solved == 1:
        text = "win"
    elif result.solved == -1:
        text = "loss"
    elif result.solved == 0:
        text = "draw"
    else:
        text = f"{100 * result.value:.0f} % of {result.iterations} playouts"
    score = None if result.solved == UNPROVEN else result.solved
    return Answer(result.move, score, False, text, result.depth, result.iterations,
                  int((perf_counter() - started) * 1000))


def mcts_move(pos: Connect4, time_s: float, stop=None) -> Answer:  # type: ignore[no-untyped-def]
    """Pentad's Monte Carlo tree search: forced moves pre-selected, playouts that take and block wins, proven
    results backed up."""
    return _mcts_answer(pos, time_s, stop, Connect4Policy(), MCTSConfig(exploration=MCTS_EXPLORATION))


def uct_move(pos: Connect4, time_s: float, stop=None) -> Answer:  # type: ignore[no-untyped-def]
    """The seed's plain UCT: every legal move, uniformly random playouts, no proofs."""
    return _mcts_answer(pos, time_s, stop, Connect4Policy(plain=True), MCTSConfig(solver=False))


PLAYERS: Dict[str, Callable[..., Answer]] = {"alphabeta": alphabeta_move, "mcts": mcts_move, "uct": uct_move}
"""Players by name: PLAYERS[name](pos, time_s, stop) -> Answer."""
