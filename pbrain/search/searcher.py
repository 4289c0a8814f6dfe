"""Main search: iterative deepening over the alpha-beta of alphabeta.py, from what the root threat analysis
(rootthreats.py) left: an instant answer, a proven win, or the root moves that defend. Each iteration is one root
search (aspiration windows from depth 4); the next starts only when the time left should cover it. When the
opponent has a threat, each new best move is probed briefly, and the iterations pause early for a deep probe of the
chosen move (params.THREAT_SEARCH_SHARE). Multi-PV (the lines already found left out), and pondering after a forced
move, are driven from here too.
"""
from __future__ import annotations

import time

import cython

from pbrain import params
from pbrain.core.board import Board
from pbrain.search.alphabeta import AlphaBeta

if not cython.compiled:
    from pbrain.core.board import P4_FIVE, P4_MASK, cell_class  # noqa: F401
    from pbrain.search.alphabeta import INF, MAX_PLY, ONE_PLY, WIN_THRESHOLD  # noqa: F401
    from pbrain.search.movegen import MAX_MOVES  # noqa: F401
    from pbrain.search.rootthreats import CHECK_EVERY, WIN  # noqa: F401

COMPILED = cython.compiled
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)
"""Lazy SMP's depth schedules (Stockfish 10's): helper k skips an iteration's depth d when
((d + moves on the board + SKIP_PHASE[i]) // SKIP_SIZE[i]) is odd, i = (k - 1) % 20, so that the helpers are mostly
an iteration or two ahead of the main search and of each other, filling the shared table with deeper results."""
PONDER_MAX_MS = 600_000.0
"""No pondering after a forced move when the hard time is this long (an untimed think: node or depth limits)."""
NO_NODE_LIMIT = 1 << 62
"""The node limit of a think given none."""


class Searcher(AlphaBeta):
    """Searches one board: the iterative-deepening driver over AlphaBeta, with the root threat phases before it."""

    def rebind(self, board: Board) -> None:
        """Search `board` from now on (a new game or position), keeping the transposition table."""
        self._bind(board)
        self.forget_move_stats()

    def clear(self) -> None:
        """Forget what the search learnt: the transposition table, history, counter moves and the threat solvers'
        tables (the killers are emptied by every think)."""
        self.tt.clear()
        self.forget_move_stats()
        self.threats.clear()
        self.proofs.clear()

    def exclude_root_moves(self, cells: list) -> None:
        """Search only the root moves not in `cells` from the next think on (multi-PV: the lines already found
        are left out); an empty list lifts the exclusion. While moves are excluded a think makes no instant
        answer, no root threat search and no defence filter, keeps away from the proof memory and stores nothing
        for the root in the transposition table: the main search alone scores the moves left."""
        self.excluded_count = 0
        for cell in cells[:MAX_MOVES]:
            self.excluded[self.excluded_count] = cell
            self.excluded_count += 1

    # --- iterative deepening ------------------------------------------------------------------------------------
    def think(self, max_depth: int, max_nodes: int, soft_ms: float, hard_ms: float, stop: object,
              on_iteration: object) -> tuple:
        """Iterative deepening from depth 1 to `max_depth` until the soft deadline (no new iteration), the hard
        deadline, `max_nodes` or `stop.is_set()` (abort; checked every CHECK_EVERY nodes in every phase). Before
        it, threat searches at the root: VCF, VCT and the opponent's threats, each ending by its share of the soft
        time and at most `max_depth` attacking moves deep; when the last think proved a win and the opponent has
        answered, the re-proof may use most of the turn. When the opponent has a threat, the iterations pause early
        for a deep probe of the chosen move, then go on with the time left (params.THREAT_SEARCH_SHARE; a move the
        search already sees lost is not probed: the iterations go on at once, a mate score found with reductions
        and pruning being no proof). A node limit is shared out as the hard time is (the same marks and probe
        slices), so a think at a node limit plays as one at a clock. An aborted iteration still counts when a root
        move completed in it. A helper (`helper` k >= 1, smp.py) skips the depths of its schedule (SKIP_SIZE), never
        the first or `max_depth`. Calls
        on_iteration(depth, score, nodes, pv) after each completed iteration. Returns (best cell or -1, score,
        completed depth, nodes, pv cells)."""
        self.stop = stop
        self.threats.stop = stop
        self.proofs.stop = stop
        try:
            return self._think(max_depth, max_nodes, soft_ms, hard_ms, on_iteration)
        finally:
            self.stop = None
            self.threats.stop = None
            self.proofs.stop = None

    def _think(self, max_depth: int, max_nodes: int, soft_ms: float, hard_ms: float, on_iteration: object) -> tuple:
        board = self.board
        self.nodes = 0
        self.next_check = CHECK_EVERY
        self.node_limit = max_nodes if max_nodes > 0 else NO_NODE_LIMIT
        self.aborted = False
        self.started = time.perf_counter()
        self.hard_s = hard_ms / 1000.0
        soft_s = soft_ms / 1000.0
        for i in range(2 * (MAX_PLY + 1)):
            self.killers[i] = 0
        for i in range(2 * board.ncells):
            self.history[i] >>= 1
        self.tt.new_search()
        self.last_reason = "search"
        if self.excluded_count > 0:
            instant = self._root_without_excluded()
            if instant >= 0 or self.root_count == 0:
                return instant, self.instant_score, 0, self.nodes, [instant] if instant >= 0 else []
            return self._deepen(max_depth, soft_ms, hard_ms, False, on_iteration)
        converting = self._continues_proof()
        # a forced move may spend the rest of a turn limit (no game clock to save, no node or depth limit alone)
        ponder = max_nodes == 0 and soft_ms >= hard_ms and hard_ms < PONDER_MAX_MS
        instant = self._instant_answer()
        if instant >= 0:
            if self.last_reason == "defend" and ponder:
                ponder_depth, ponder_score, ponder_pv = self._ponder_after(instant, max_depth - 1)
                if ponder_depth > 0:  # the block's line as far as the ponder saw it
                    return instant, ponder_score, ponder_depth, self.nodes, ponder_pv
            return instant, self.instant_score, 0, self.nodes, [instant]
        proven = self._threat_phase(max_depth, soft_s, hard_ms, converting)
        if proven is not None:
            return proven
        return self._deepen(max_depth, soft_ms, hard_ms, ponder, on_iteration)

    def _deepen(self, max_depth: int, soft_ms: float, hard_ms: float, ponder: bool, on_iteration: object) -> tuple:
        """The iterative deepening proper, over the root moves as the root phases left them (root_count 0: all
        legal moves); the rest of `think`'s contract."""
        board = self.board
        best_move = -1
        best_score = 0
        done_depth = 0
        best_pv: list = []
        score = 0
        iteration_started = time.perf_counter()
        last_iteration_ms = 0.0
        verified = -1
        depth = 0
        full_hard_s = self.hard_s
        full_soft_ms = soft_ms
        full_node_limit = self.node_limit
        soft_nodes = full_node_limit  # a node limit's counterpart of soft_ms
        # a node limit mirrors the clock: the same shares of it as of the hard time
        final_verify = self.threatened and (hard_ms < PONDER_MAX_MS or full_node_limit < NO_NODE_LIMIT)
        if final_verify:  # the opponent has a threat: keep the end of the turn to probe the final move deeply
            soft_ms = min(soft_ms, hard_ms * params.THREAT_SEARCH_SHARE)
            self.hard_s = full_hard_s * params.THREAT_SEARCH_END
            soft_nodes = self._node_mark(params.THREAT_SEARCH_SHARE)
            self.node_limit = self._node_mark(params.THREAT_SEARCH_END)
        while True:  # a second round only after the final move's probe under a threat
            while depth < max_depth:
                depth += 1
                while self.helper > 0 and 1 < depth < max_depth and self._skipped(depth):
                    depth += 1
                self.root_depth = depth
                self.pv_len[0] = 0
                score = self._search_root(depth, best_score)
                if self.aborted:
                    if self.pv_len[0] > 0 and (not self.threatened or self.pv[0] == verified):
                        # a root move completed at this depth and beat the others so far (unverified moves under a
                        # threat are not trusted)
                        best_move = self.pv[0]
                        best_score = self.root_score
                        best_pv = self._root_line()
                    break
                if self.pv_len[0] == 0:  # decided at the root before any move (a loss): keep the score
                    best_score = score
                    done_depth = depth
                    break
                best_move = self.pv[0]
                best_score = score
                done_depth = depth
                best_pv = self._root_line()
                if self.threatened and best_move != verified and abs(score) < WIN_THRESHOLD:
                    # The opponent has a threat: probe the new best move briefly; if it loses, search without it.
                    verified = best_move
                    if self._refuted(best_move, min(time.perf_counter() + self.hard_s * params.VERIFY_SLICE,
                                                    self.started + self.hard_s),
                                     self.nodes + self._node_mark(params.VERIFY_SLICE)) and \
                            self._exclude_root(best_move):
                        best_move = self._best_ordered_root()
                        best_pv = [best_move]
                        depth -= 1
                        continue
                if on_iteration is not None:
                    on_iteration(depth, score, self.nodes, best_pv)
                if score >= WIN_THRESHOLD and WIN - score <= depth:
                    break  # a win within the depth searched: deeper search cannot change it
                # (a loss is searched on: the defender's moves were reduced and pruned, deeper may find a defence)
                if self.root_count == 1:
                    if ponder:
                        ponder_depth, ponder_score, ponder_pv = self._ponder_after(best_move, max_depth - 1)
                        if ponder_depth > done_depth:
                            best_score = ponder_score
                            done_depth = ponder_depth
                            best_pv = ponder_pv
                    break  # one move holds: there is nothing to choose
                now = time.perf_counter()
                elapsed_ms = (now - self.started) * 1000.0
                if elapsed_ms >= soft_ms or self.nodes >= soft_nodes:
                    break
                iteration_ms = (now - iteration_started) * 1000.0
                if soft_ms < hard_ms and elapsed_ms + iteration_ms * self._growth(iteration_ms, last_iteration_ms) > \
                        hard_ms:
                    break  # a game clock to save: skip an iteration predicted to end past the hard deadline
                last_iteration_ms = iteration_ms
                iteration_started = now
            if not final_verify:
                break
            final_verify = False
            self.hard_s = full_hard_s
            self.node_limit = full_node_limit
            if self.aborted and (self.stop is None or not self.stop.is_set()) and self.nodes < self.node_limit:
                self.aborted = False  # only the search's own share of the time ran out
            if best_move < 0 or self.aborted or best_score >= WIN_THRESHOLD or self.root_count == 1:
                break
            if best_score > -WIN_THRESHOLD:
                replacement = self._replace_if_refuted(best_move, best_score, done_depth)
                if replacement is not None:
                    best_move, best_score, best_pv = replacement
                    break
            # the probe found no win for the opponent, or the search already sees a loss (found with reductions
            # and pruning: deeper may find the defence, or at least the longest resistance): deepen on
            soft_ms = full_soft_ms
            soft_nodes = full_node_limit
            depth = done_depth
            iteration_started = time.perf_counter()
            last_iteration_ms = 0.0
            if (iteration_started - self.started) * 1000.0 >= soft_ms:
                break
        if best_move < 0:  # no move from the search: the best-ordered root move
            if done_depth == 0:
                self.last_reason = "static"
            if self.root_count > 0:
                best_move = self._best_ordered_root()
                best_pv = [best_move]
            else:
                n = self.gen.gen_all(0, board.side)
                if n > 0:
                    self.gen.sort(0, n)
                    best_move = self.gen.moves[0]
                    best_pv = [best_move]
        return best_move, best_score, done_depth, self.nodes, best_pv

    def _root_without_excluded(self) -> int:
        """Set the root moves to the legal moves not excluded (root_count 0 when none is left). Returns one of
        them that makes a five (the search never plays a five: it scores the position before), else -1."""
        gen = self.gen
        me = self.board.side
        n = gen.gen_all(0, me)
        self.root_count = 0
        self.threatened = False
        for i in range(n):
            move = gen.moves[i]
            for j in range(self.excluded_count):
                if self.excluded[j] == move:
                    move = -1
                    break
            if move < 0:
                continue
            if cell_class(self.board, move, me) == P4_FIVE:
                self.instant_score = WIN - 1
                self.last_reason = "win"
                return move
            self.root_moves[self.root_count] = move
            self.root_count += 1
        return -1

    def _ponder_after(self, move: int, max_depth: int) -> tuple:
        """The move is forced and the turn's time (a turn limit, no game clock to save) would go unused: search
        the position after it, from the opponent's side, until PONDER_SHARE of the hard time (or a mate score), so
        the next think finds its transposition table filled; a stop ends it at once. Returns the deepest completed
        iteration as the forced move's own line: (depth counting the move, score for the side to move, pv starting
        with the move), or (0, 0, [move]) when none completed."""
        if max_depth < 1:
            return 0, 0, [move]
        board = self.board
        hard_s = self.hard_s
        self.hard_s = hard_s * self.ponder_share
        self._check_limits()
        board.make(move)
        root_count = self.root_count
        self.root_count = 0
        depth = 0
        done_depth = 0
        score = 0
        pv = [move]
        while depth < max_depth and not self.aborted:
            depth += 1
            self.root_depth = depth
            result = self._pvs(-INF, INF, depth * ONE_PLY, 0)
            if self.aborted:
                break
            done_depth = depth + 1
            score = -result  # one ply further from a mate than the opponent's score counts
            if result >= WIN_THRESHOLD:
                score += 1
            elif result <= -WIN_THRESHOLD:
                score -= 1
            pv = [move] + self._root_line()
            if abs(result) >= WIN_THRESHOLD:
                break
        board.unmake()
        self.root_count = root_count  # the think's own root moves again (the caller may still read them)
        self.hard_s = hard_s
        self.aborted = False
        return done_depth, score, pv

    def _replace_if_refuted(self, move: int, score: int, done_depth: int) -> tuple:
        """The deep probe of the chosen `move` under a threat (until VERIFY_SHARE of the hard time). None when it
        finds no win for the opponent (or `move` is the last root move); otherwise `move` leaves the root moves and
        the best of the others is searched again up to `done_depth` as the time allows: (move, score, pv)."""
        if not (self._refuted(move, self.started + self.hard_s * params.VERIFY_SHARE,
                              self._node_mark(params.VERIFY_SHARE)) and self._exclude_root(move)):
            return None
        move = self._best_ordered_root()
        pv = [move]
        depth = 0
        while depth < done_depth and not self.aborted:
            depth += 1
            self.root_depth = depth
            result = self._pvs(-INF, INF, depth * ONE_PLY, 0)
            if self.pv_len[0] > 0:
                move = self.pv[0]
                score = self.root_score if self.aborted else result
                pv = self._root_line()
        return move, score, pv

    def _root_line(self) -> list:
        """The principal variation the last root search left (the root's pv buffer), as a list of cells."""
        return [self.pv[i] for i in range(self.pv_len[0])]

    def _skipped(self, depth: int) -> bool:
        """Does this helper's schedule skip the iteration to `depth`?"""
        i = (self.helper - 1) % 20
        return ((depth + self.board.move_count + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1

    def _growth(self, iteration_ms: float, last_iteration_ms: float) -> float:
        """Predicted ratio of the next iteration's time to `iteration_ms`: the last ratio, within bounds."""
        if last_iteration_ms < 0.5 or iteration_ms < 0.5:
            return params.ITERATION_GROWTH_DEFAULT
        return min(params.ITERATION_GROWTH_MAX, max(params.ITERATION_GROWTH_MIN, iteration_ms / last_iteration_ms))

