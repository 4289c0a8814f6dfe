"""Monte Carlo tree search over any two-player game with a small interface, with MCTS-Solver backups.

The game (gomoku's Board adapter in gomoku.py, connect4.bitboard.Connect4) offers:
    side                  the colour to move (1 or 2)
    play(move), undo()    make and take back a move
    result()              None while the game goes on, 0 for a draw, else the winning colour
and a Policy says what the search does at a leaf:
    moves(game)           -> (moves, priors): the moves to try (all legal moves, or the forced ones) and their prior
                             weights, highest first (None: UCB1 without priors, the moves tried in their order);
                             array('i') / array('d') or lists
    evaluate(game, seed)  -> the value of the position for the side to move, in [0, 1] (a playout's result, or a
                             static evaluation squashed into a probability)

Selection is PUCT when the policy gives priors (Q + c * P * sqrt(N) / (1 + n)) and UCB1 otherwise (unvisited
children first). Values are stored from the view of the player who made the move into a node. Proven results are
backed up (MCTS-Solver): a node whose mover can be answered by a proven win is a proven loss, and a node all of
whose answers are proven is proven with the best of them. The tree lives for one search.
"""
from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Tuple

import cython

if not cython.compiled:
    from math import log, sqrt  # noqa: F401  (mcts.pxd takes them from libc when compiled)

    UNSOLVED = 2
    CHECK_EVERY = 16  # iterations between looks at the clock and the stop flag

COMPILED = cython.compiled
EMPTY_MOVES = array("i")
EMPTY_PRIORS = array("d")
UNPROVEN = 2
"""Node.solved / MCTSResult.solved before a proof; otherwise -1 (the mover loses), 0 (draw) or 1 (the mover
wins)."""


class Node:
    """One position in the tree, reached by `move`; visits and wins count for the player who made that move.

    Children are created lazily: `moves` / `priors` hold every move of the node, best prior first, and `children`
    the nodes of the first `len(children)` of them (an unvisited child with a lower prior can never be chosen
    before one with a higher prior, so the rest need no node yet)."""

    def __init__(self, move: int, prior: float) -> None:
        self.move = move
        self.prior = prior
        self.visits = 0.0
        self.wins = 0.0
        self.solved = UNSOLVED
        self.expanded = False
        self.children: list = []
        self.moves = EMPTY_MOVES
        self.priors = EMPTY_PRIORS

    def value(self) -> float:
        """Mean result for the player who moved into this node (0.5 before any visit)."""
        if self.visits <= 0:
            return 0.5
        return self.wins / self.visits


@dataclass(frozen=True)
class MoveStat:
    """One root move after a search."""

    move: int
    visits: int
    value: float
    """Mean result for the side to move at the root, 0..1."""
    prior: float
    solved: int
    """1 proven win, 0 proven draw, -1 proven loss (for the side to move at the root); 2 not proven."""


@dataclass(frozen=True)
class MCTSResult:
    """The answer of one search: the move, how sure, and the statistics it rests on."""

    move: int
    """The chosen move; -1 when the root has none (game over)."""
    value: float
    """The chosen move's mean result for the side to move, 0..1 (1 or 0 when proven)."""
    solved: int
    """1: the side to move has a proven win; -1 a proven loss; 0 a proven draw; UNPROVEN otherwise."""
    iterations: int
    time_ms: int
    pv: List[int] = field(default_factory=list)
    """The most visited line from the root."""
    stats: List[MoveStat] = field(default_factory=list)
    """Root moves, most visited first."""
    depth: int = 0
    """Length of the deepest path selected."""


@dataclass(frozen=True)
class MCTSConfig:
    """Knobs of the search."""

    exploration: float = 1.4
    """c in UCB1 (sqrt(2) is the textbook value) or in PUCT."""
    first_play_urgency: float = 0.0
    """PUCT: an unvisited child's value is the parent's minus this."""
    solver: bool = True
    """Back proven results up the tree (MCTS-Solver); False: plain UCT, a game's end is only a playout result."""


class MCTS:
    """A Monte Carlo tree searcher for one game object and one policy."""

    def __init__(self, game: Any, policy: Any, config: MCTSConfig = MCTSConfig()) -> None:
        self.game = game
        self.policy = policy
        self.exploration = config.exploration
        self.fpu = config.first_play_urgency
        self.prove = config.solver
        self.iterations = 0
        self.max_depth = 0
        self.seed = 0x1E3779B97F4A7C15
        self.uses_priors = False

    def search(self, time_s: float = 0.0, max_iterations: int = 0, stop: Any = None,
               exclude: Sequence[int] = ()) -> MCTSResult:
        """Search from the game's current position until `time_s` seconds have passed, `max_iterations` are done
        (0: no cap on either; at least one of them must be set) or `stop.is_set()`; stops early once the root is
        proven. Root moves in `exclude` are not considered (multi-PV). The game is back in its position
        afterwards. Returns the most visited root move (a proven win first, a proven loss last)."""
        if time_s <= 0 and max_iterations <= 0:
            raise ValueError("a search needs a time or an iteration limit")
        started = time.perf_counter()
        deadline = started + time_s if time_s > 0 else 0.0
        root = Node(-1, 1.0)
        self.iterations = 0
        self.max_depth = 0
        if self.game.result() is not None:
            return MCTSResult(-1, 0.5, UNPROVEN, 0, 0)
        self._expand(root, exclude)
        if len(root.children) == 0:
                return MCTSResult(-1, 0.5, UNPROVEN, 0, int((time.perf_counter() - started) * 1000))
        if len(root.children) == 1:  # a forced move (or the only one): nothing to weigh
            only = root.children[0]
            return MCTSResult(only.move, 0.5, UNPROVEN, 0, int((time.perf_counter() - started) * 1000),
                              [only.move], self._stats(root))
        while root.solved == UNSOLVED:
            self._iterate(root)
            self.iterations += 1
            if max_iterations > 0 and self.iterations >= max_iterations:
                break
            if self.iterations % CHECK_EVERY == 0:
                if deadline > 0 and time.perf_counter() >= deadline:
                    break
                if stop is not None and stop.is_set():
                    break
        best = self._best_child(root)
        elapsed = int((time.perf_counter() - started) * 1000)
        if best is None:
            return MCTSResult(-1, 0.5, UNPROVEN, self.iterations, elapsed)
        solved = best.solved
        value = best.value() if solved == UNSOLVED else (solved + 1) / 2.0
        return MCTSResult(best.move, value, solved, self.iterations, elapsed, self._pv(root), self._stats(root),
                          self.max_depth)

    # --- one iteration ----------------------------------------------------------------------------------------
    def _iterate(self, root: Node) -> None:
        """Select a path, expand and evaluate its leaf, back the result up (with proofs), restore the game."""
        game = self.game
        path = [root]
        node = root
        depth = 0
        while node.expanded and node.solved == UNSOLVED:
            child = self._select(node)
            game.play(child.move)
            depth += 1
            path.append(child)
            node = child
            if not node.expanded and node.solved == UNSOLVED:
                break
        if depth > self.max_depth:
            self.max_depth = depth
        if node.solved != UNSOLVED:
            reward = (node.solved + 1) / 2.0
        else:
            outcome = game.result()
            if outcome is not None:
                # the player who moved into `node` is the opponent of the side to move now
                solved = 0 if outcome == 0 else (1 if outcome != game.side else -1)
                reward = (solved + 1) / 2.0
                if self.prove:
                    node.solved = solved
            else:
                self._expand(node, None)
                self.seed = (self.seed * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
                reward = 1.0 - self.policy.evaluate(game, self.seed)
        for i in range(depth):
            game.undo()
        self._backup(path, reward)

    def _expand(self, node: Node, root_exclude: Any) -> None:
        """Give the node the policy's moves (best prior first; uniform priors when it gives none). The root
        (`root_exclude` not None: the moves to leave out) gets all its children at once."""
        moves, priors = self.policy.moves(self.game)
        n = len(moves)
        self.uses_priors = priors is not None
        node.moves = moves if isinstance(moves, array) else array("i", moves)
        if priors is None:
            node.priors = array("d", [1.0 / n]) * n if n else EMPTY_PRIORS
        else:
            node.priors = priors if isinstance(priors, array) else array("d", priors)
        node.expanded = True
        if root_exclude is not None:
            for i in range(n):
                if node.moves[i] not in root_exclude:
                    node.children.append(Node(node.moves[i], node.priors[i]))
            node.moves = array("i", [child.move for child in node.children])
            node.priors = array("d", [child.prior for child in node.children])

    def _new_child(self, node: Node) -> Node:
        """Create the node's next child (the best prior not yet created)."""
        i = len(node.children)
        child = Node(node.moves[i], node.priors[i])
        node.children.append(child)
        return child

    def _select(self, node: Node) -> Node:
        """The child to descend into: a proven win at once, never a proven loss while another exists, else the
        best PUCT or UCB1 score."""
        children = node.children
        best = None
        best_score = -1e300
        parent_visits = node.visits
        unborn = len(children) < len(node.moves)
        if self.uses_priors:
            root_n = sqrt(parent_visits + 1.0)
            fpu = (1.0 - node.value()) - self.fpu
            for child in children:
                if child.solved == 1:
                    return child
                if child.solved == -1:
                    continue
                q = child.value() if child.visits > 0 else fpu
                score = q + self.exploration * child.prior * root_n / (1.0 + child.visits)
                if score > best_score:
                    best_score = score
                    best = child
            if unborn and fpu + self.exploration * node.priors[len(children)] * root_n > best_score:
                return self._new_child(node)
        else:
            if unborn:
                return self._new_child(node)
            log_n = log(parent_visits + 1.0)
            for child in children:
                if child.solved == 1:
                    return child
                if child.solved == -1:
                    continue
                if child.visits <= 0:
                    return child
                score = child.wins / child.visits + self.exploration * sqrt(log_n / child.visits)
                if score > best_score:
                    best_score = score
                    best = child
        if best is None:  # every child a proven loss: any will do (the node is proven, this is a last resort)
            best = children[0]
        return best

    def _backup(self, path: list, reward: float) -> None:
        """Add `reward` (for the player who moved into the leaf) up the path, alternating sides, and prove the
        parents whose children's proofs now decide them."""
        proving = path[len(path) - 1].solved != UNSOLVED
        i = len(path) - 1
        while i >= 0:
            node = path[i]
            node.visits += 1.0
            node.wins += reward
            reward = 1.0 - reward
            if proving and i < len(path) - 1:
                proving = self._prove(node)
            i -= 1

    def _prove(self, node: Node) -> bool:
        """Settle `node` from its children's proofs if they decide it; True when it is now proven."""
        if node.solved != UNSOLVED or not node.expanded:
            return node.solved != UNSOLVED
        best = -2
        for child in node.children:
            s = child.solved
            if s == 1:
                node.solved = -1  # the side to move here has a winning answer
                return True
            if s > best:
                best = s  # UNSOLVED is the largest value
        if best == -2 or best == UNSOLVED or len(node.children) < len(node.moves):
            return False
        node.solved = -best
        return True

    # --- answers ----------------------------------------------------------------------------------------------
    def _best_child(self, node: Node) -> Optional[Node]:
        """A proven win, else the most visited child that is not a proven loss, else the most visited."""
        best = None
        for child in node.children:
            if child.solved == 1:
                return child
        for child in node.children:
            if child.solved == -1:
                continue
            if best is None or child.visits > best.visits or (
                    child.visits == best.visits and child.value() > best.value()):
                best = child
        if best is None:
            for child in node.children:
                if best is None or child.visits > best.visits:
                    best = child
        return best

    def _pv(self, root: Node) -> List[int]:
        """The line of best children from the root."""
        line = []
        node = self._best_child(root)
        while node is not None:
            line.append(node.move)
            if not node.expanded or len(line) >= 32:
                break
            node = self._best_child(node)
        return line

    def _stats(self, root: Node) -> List[MoveStat]:
        """The root's children, most visited first."""
        stats = [MoveStat(child.move, int(child.visits), child.value(), child.prior, child.solved)
                 for child in root.children]
        stats.sort(key=lambda s: (-s.visits, -s.value))
        return stats


def uniform_moves(game: Any) -> Tuple[Sequence[int], Optional[Sequence[float]]]:
    """A policy's moves: every legal move, no priors."""
    return game.legal_moves(), None


def value_to_score(value: float, scale: float) -> int:
    """A mean result (0..1) as an evaluation in score units: the logit times `scale`, bounded to +-10 * scale."""
    value = min(max(value, 1e-5), 1.0 - 1e-5)
    return int(round(max(-10.0, min(10.0, log(value / (1.0 - value)))) * scale))
