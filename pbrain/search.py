"""Main search: iterative-deepening negamax PVS with aspiration windows, a transposition table, killer and
history ordering (a cut-off quiet move gains history, the quiet moves tried before it lose as much), forced-move
and singular extensions and VCF as the quiescence at the leaves. Late moves are reduced by a log-scaled table
(less for good history, more for bad; one ply less for a move that makes or stops an open three; moves that make
a four are never reduced), and quiet moves (neither making nor stopping an open three or a four) are cut by a move
count that grows with depth; non-PV nodes without an opponent threat are cut by reverse futility, futility and
razoring, all read from the static eval kept per ply (its improvement over two plies ago loosens them). It starts
from what the root threat analysis (rootthreats.py, the Searcher's base class) left: an instant answer, a proven
win, or the root moves that defend.

Scores are from the side to move's view. A win whose winning stone is the n-th ply from the root scores
WIN - n (a loss -(WIN - n)); such scores are stored in the TT relative to the node (Stockfish's value_to_tt).
"""
from __future__ import annotations

import math
import time
from array import array

import cython

from pbrain import params
from pbrain.board import Board
from pbrain.evaluation import evaluate
from pbrain.rootthreats import RootThreats
from pbrain.tt import TranspositionTable

if not cython.compiled:
    from pbrain.board import BLACK, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS, P4_FIVE  # noqa: F401
    from pbrain.board import P4_FLEX3, P4_MASK, STATE_STRIDE  # noqa: F401
    from pbrain.movegen import MAX_MOVES  # noqa: F401
    from pbrain.rootthreats import CHECK_EVERY, WIN  # noqa: F401

    MAX_PLY = 128
    TRIED_MAX = 32
    HISTORY_MAX = 16384
    HISTORY_REDUCTION_DIVISOR = 8192
    LMR_ROWS = 64
    LMR_COLUMNS = 64
    INF = 32000
    WIN_THRESHOLD = 29000
    from pbrain.tt import BOUND_EXACT, BOUND_LOWER, BOUND_UPPER  # noqa: F401

COMPILED = cython.compiled
PONDER_MAX_MS = 600_000.0
"""No pondering after a forced move when the hard time is this long (an untimed think: node or depth limits)."""
assert params.WIN == 30000 and params.WIN_THRESHOLD == 29000 and params.MAX_PLY == 128


class Searcher(RootThreats):
    """Searches one board. Owns the transposition table and the main search's killers, history and PV; the move
    buffers, the threat solver, the limits and the root threat analysis come from RootThreats."""

    def __init__(self, board: Board, tt_bytes: int) -> None:
        RootThreats.__init__(self, board)
        self.tt = TranspositionTable(tt_bytes)
        self.killers = array("i", [0]) * (2 * (MAX_PLY + 1))
        self.excluded = array("i", [0]) * MAX_MOVES
        self.excluded_count = 0
        self.history = array("i", [0]) * (2 * board.ncells)
        self.tried = array("i", [0]) * ((MAX_PLY + 1) * TRIED_MAX)
        self.pv = array("i", [0]) * ((MAX_PLY + 1) * (MAX_PLY + 1))
        self.pv_len = array("i", [0]) * (MAX_PLY + 1)
        self.qnodes = params.VCF_QUIESCENCE_NODES
        self.qfours = params.VCF_QUIESCENCE_FOURS
        self.lmr_min_depth = params.LMR_MIN_DEPTH
        self.lmr_min_move = params.LMR_MIN_MOVE
        self.killer_bonus = params.KILLER_BONUS
        self.max_order_bonus = params.MAX_ORDER_BONUS
        self.aspiration = params.ASPIRATION_WINDOW
        self.sorted_prefix = params.SORTED_PREFIX
        self.futility_margin = params.FUTILITY_MARGIN
        self.futility_depth = params.FUTILITY_DEPTH
        self.razor_depth = params.RAZOR_DEPTH
        self.razor_margin = params.RAZOR_MARGIN
        self.singular_depth = params.SINGULAR_DEPTH
        self.singular_margin = params.SINGULAR_MARGIN
        self.skip = array("i", [-1]) * (MAX_PLY + 2)
        self.root_depth = 0
        self.evals = array("i", [0]) * (MAX_PLY + 2)
        self.move_limits = array("i", [0]) * LMR_ROWS
        self.set_move_limits(params.MOVE_COUNT_BASE, params.MOVE_COUNT_POWER)
        self.ponder_share = params.PONDER_SHARE
        self.root_score = 0
        self.lmr = array("b", [0]) * (LMR_ROWS * LMR_COLUMNS)
        self.set_reductions(params.LMR_BASE, params.LMR_DIVISOR)

    def set_reductions(self, base: float, divisor: float) -> None:
        """Fill the late-move reduction table: int(base + ln(depth) * ln(move number) / divisor) plies, at
        least 1 (depths and move numbers past the table's edge use its last row and column)."""
        for d in range(1, LMR_ROWS):
            for m in range(1, LMR_COLUMNS):
                self.lmr[d * LMR_COLUMNS + m] = max(1, int(base + math.log(d) * math.log(m) / divisor))

    def set_move_limits(self, base: int, power: float) -> None:
        """Fill the move-count pruning table: base + depth ** power moves at `depth` (0 turns it off)."""
        for d in range(LMR_ROWS):
            self.move_limits[d] = base + int(d ** power) if base > 0 else MAX_MOVES

    def rebind(self, board: Board) -> None:
        """Search `board` from now on (a new game or position), keeping the transposition table."""
        self._bind(board)
        self.history = array("i", [0]) * (2 * board.ncells)

    def clear(self) -> None:
        """Forget the transposition table, killers and history."""
        self.tt.clear()
        for i in range(2 * self.board.ncells):
            self.history[i] = 0
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
        for a deep probe of the chosen move, then go on with the time left (params.THREAT_SEARCH_SHARE). An aborted
        iteration still counts when a root move completed in it. Calls on_iteration(depth, score, nodes, pv) after
        each completed iteration. Returns (best cell or -1, score, completed depth, nodes, pv cells)."""
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
        self.node_limit = max_nodes if max_nodes > 0 else 1 << 62
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
                self._ponder_after(instant, max_depth - 1)
            return instant, self.instant_score, 0, self.nodes, [instant]
        proven = self._threat_phase(max_depth, max_nodes, soft_s, hard_ms, converting)
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
        final_verify = self.threatened and hard_ms < PONDER_MAX_MS
        if final_verify:  # the opponent has a threat: keep the end of the turn to probe the final move deeply
            soft_ms = min(soft_ms, hard_ms * params.THREAT_SEARCH_SHARE)
            self.hard_s = full_hard_s * params.THREAT_SEARCH_END
        while True:  # a second round only after the final move's probe under a threat
            while depth < max_depth:
                depth += 1
                self.root_depth = depth
                self.pv_len[0] = 0
                if depth >= 4 and abs(best_score) < WIN_THRESHOLD:
                    window = self.aspiration
                    alpha = best_score - window
                    beta = best_score + window
                    while True:
                        score = self._pvs(alpha, beta, depth, 0)
                        if self.aborted:
                            break
                        if score <= alpha:
                            alpha = max(-INF, alpha - 4 * window)
                        elif score >= beta:
                            beta = min(INF, beta + 4 * window)
                        else:
                            break
                        window *= 4
                else:
                    score = self._pvs(-INF, INF, depth, 0)
                if self.aborted:
                    if self.pv_len[0] > 0 and (not self.threatened or self.pv[0] == verified):
                        # a root move completed at this depth and beat the others so far (unverified moves under a
                        # threat are not trusted)
                        best_move = self.pv[0]
                        best_score = self.root_score
                        best_pv = [self.pv[i] for i in range(self.pv_len[0])]
                    break
                if self.pv_len[0] == 0:  # decided at the root before any move (a loss): keep the score
                    best_score = score
                    done_depth = depth
                    break
                best_move = self.pv[0]
                best_score = score
                done_depth = depth
                best_pv = [self.pv[i] for i in range(self.pv_len[0])]
                if self.threatened and best_move != verified and abs(score) < WIN_THRESHOLD:
                    # The opponent has a threat: probe the new best move briefly; if it loses, search without it.
                    verified = best_move
                    if self._refuted(best_move, min(time.perf_counter() + self.hard_s * params.VERIFY_SLICE,
                                                    self.started + self.hard_s)) and self._exclude_root(best_move):
                        best_move = self._best_ordered_root()
                        best_pv = [best_move]
                        depth -= 1
                        continue
                if on_iteration is not None:
                    on_iteration(depth, score, self.nodes, best_pv)
                if abs(score) >= WIN_THRESHOLD and WIN - abs(score) <= depth:
                    break  # a proven result: deeper search cannot change it
                if self.root_count == 1:
                    if ponder:
                        self._ponder_after(best_move, max_depth - 1)
                    break  # one move holds: there is nothing to choose
                now = time.perf_counter()
                elapsed_ms = (now - self.started) * 1000.0
                if elapsed_ms >= soft_ms:
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
            if self.aborted and (self.stop is None or not self.stop.is_set()) and self.nodes < self.node_limit:
                self.aborted = False  # only the search's own share of the time ran out
            if best_move < 0 or self.aborted or abs(best_score) >= WIN_THRESHOLD or self.root_count == 1:
                break
            replacement = self._replace_if_refuted(best_move, best_score, done_depth)
            if replacement is not None:
                best_move, best_score, best_pv = replacement
                break
            # the probe found no win for the opponent: deepen on with the time left
            soft_ms = full_soft_ms
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
            if (self.board.state[STATE_STRIDE * move + me] & P4_MASK) == P4_FIVE:
                self.instant_score = WIN - 1
                self.last_reason = "win"
                return move
            self.root_moves[self.root_count] = move
            self.root_count += 1
        return -1

    def _ponder_after(self, move: int, max_depth: int) -> None:
        """The move is forced and the turn's time (a turn limit, no game clock to save) would go unused: search
        the position after it, from the opponent's side, until PONDER_SHARE of the hard time, so the next think
        finds its transposition table filled. Nothing else is kept; a stop ends it at once."""
        if max_depth < 1:
            return
        board = self.board
        hard_s = self.hard_s
        self.hard_s = hard_s * self.ponder_share
        self._check_limits()
        board.make(move)
        self.root_count = 0
        depth = 0
        while depth < max_depth and not self.aborted:
            depth += 1
            self.root_depth = depth
            if abs(self._pvs(-INF, INF, depth, 0)) >= WIN_THRESHOLD:
                break
        board.unmake()
        self.hard_s = hard_s
        self.aborted = False

    def _replace_if_refuted(self, move: int, score: int, done_depth: int) -> tuple:
        """The deep probe of the chosen `move` under a threat (until VERIFY_SHARE of the hard time). None when it
        finds no win for the opponent (or `move` is the last root move); otherwise `move` leaves the root moves and
        the best of the others is searched again up to `done_depth` as the time allows: (move, score, pv)."""
        if not (self._refuted(move, self.started + self.hard_s * params.VERIFY_SHARE) and self._exclude_root(move)):
            return None
        move = self._best_ordered_root()
        pv = [move]
        depth = 0
        while depth < done_depth and not self.aborted:
            depth += 1
            self.root_depth = depth
            result = self._pvs(-INF, INF, depth, 0)
            if self.pv_len[0] > 0:
                move = self.pv[0]
                score = self.root_score if self.aborted else result
                pv = [self.pv[i] for i in range(self.pv_len[0])]
        return move, score, pv

    def _growth(self, iteration_ms: float, last_iteration_ms: float) -> float:
        """Predicted ratio of the next iteration's time to `iteration_ms`: the last ratio, within bounds."""
        if last_iteration_ms < 0.5 or iteration_ms < 0.5:
            return params.ITERATION_GROWTH_DEFAULT
        return min(params.ITERATION_GROWTH_MAX, max(params.ITERATION_GROWTH_MIN, iteration_ms / last_iteration_ms))

    # --- alpha-beta ---------------------------------------------------------------------------------------------
    def _pvs(self, alpha: int, beta: int, depth: int, ply: int) -> int:
        """Negamax PVS. Fail-soft: a result <= alpha is an upper bound, >= beta a lower bound, otherwise exact.
        On return pv[ply * (MAX_PLY + 1) ...] holds the line from this node (pv_len[ply] is its end)."""
        board = self.board
        gen = self.gen
        self.pv_len[ply] = ply
        if self.nodes >= self.next_check:
            self._check_limits()
        if self.aborted:
            return 0
        self.nodes += 1
        me = board.side
        opp = 3 - me
        if ply > 0 or self.excluded_count == 0:  # a multi-PV root searches its listed moves whatever the threats
            if board.p4count[16 * (me - 1) + P4_FIVE] > 0:
                return WIN - (ply + 1)
            opp_fives = board.p4count[16 * (opp - 1) + P4_FIVE]
            if opp_fives >= 2:
                return -(WIN - (ply + 2))
            if board.move_count >= board.npoints:
                return 0
            if ply >= MAX_PLY - 4:
                return evaluate(board, me)
            if opp_fives == 1:
                block = gen.any_five_point(opp)
                if not gen.legal(block, me):
                    return -(WIN - (ply + 2))
                board.make(block)
                score = -self._pvs(-beta, -alpha, depth, ply + 1)  # a forced reply costs no depth
                board.unmake()
                self._update_pv(ply, block)
                return score
            if gen.has_flex4(me):
                return WIN - (ply + 3)
            if depth <= 0:
                return self._quiesce(ply, beta)

        key = board.hash ^ (self.black_key if me == BLACK else self.white_key)  # self._key(), inline: no call per node
        tt_move = -1
        tt_score = 0
        tt_bound = 0
        tt_depth = -1
        skip = self.skip[ply]
        if self.tt.probe(key, ply):
            tt_move = self.tt.move
            tt_score = self.tt.score
            tt_bound = self.tt.bound
            tt_depth = self.tt.depth
            if ply > 0 and tt_depth >= depth and skip < 0:
                if tt_bound == BOUND_EXACT or (tt_bound == BOUND_LOWER and tt_score >= beta) or (
                        tt_bound == BOUND_UPPER and tt_score <= alpha):
                    if tt_move >= 0:
                        self.pv[ply * (MAX_PLY + 1) + ply] = tt_move
                        self.pv_len[ply] = ply + 1
                    return tt_score

        base = ply * MAX_MOVES
        pv_node = beta - alpha > 1
        prunable = False
        static = evaluate(board, me)
        self.evals[ply] = static
        improving = ply < 2 or static > self.evals[ply - 2]
        defending = gen.has_flex4(opp)
        if not defending:
            prunable = ply > 0 and not pv_node and -WIN_THRESHOLD < alpha and beta < WIN_THRESHOLD
            if prunable and self.futility_margin > 0 and depth <= self.futility_depth and \
                    static - self.futility_margin * (depth - improving) >= beta:
                return static
            if prunable and depth <= self.razor_depth and static + self.razor_margin * depth < alpha:
                return self._quiesce(ply, beta)  # razoring: only a short VCF could lift this node to alpha
        tt_extension = 0
        if ply > 0 and skip < 0 and depth >= self.singular_depth and tt_move >= 0 and (tt_bound & BOUND_LOWER) and \
                tt_depth >= depth - 3 and -WIN_THRESHOLD < tt_score < WIN_THRESHOLD and ply < 2 * self.root_depth:
            # singular extension: does any other move come near the TT move's score, searched half as deep?
            singular_beta = tt_score - self.singular_margin * depth
            self.skip[ply] = tt_move
            score = self._pvs(singular_beta - 1, singular_beta, (depth - 1) // 2, ply)
            self.skip[ply] = -1
            if self.aborted:
                return 0
            if score < singular_beta:
                tt_extension = 1
            elif singular_beta >= beta:
                return singular_beta  # multi-cut: another move beats beta too
            elif tt_score >= beta:
                tt_extension = -1
        if ply == 0 and self.root_count > 0:
            n = self.root_count
            for i in range(n):
                gen.moves[i] = self.root_moves[i]
                gen.scores[i] = gen.order_score(self.root_moves[i], me)
        elif defending:
            n = gen.gen_defences(ply, me)
            if n == 0:
                return -(WIN - (ply + 4))
        else:
            n = gen.gen_all(ply, me)
            if n == 0:
                return 0
        self._order(ply, n, me, tt_move)
        move_limit = MAX_MOVES
        if ply > 0:
            move_limit = self.move_limits[min(depth, LMR_ROWS - 1)]
            if not improving:
                move_limit >>= 1
        quiets = 0
        tried = 0
        hist = (me - 1) * board.ncells

        best = -INF
        best_move = gen.moves[base]
        alpha0 = alpha
        for i in range(n):
            if i < self.sorted_prefix or quiets < move_limit:
                gen.pick(ply, i, n)
            move = gen.moves[base + i]
            if move == skip:
                continue
            own_class = board.state[STATE_STRIDE * move + me] & P4_MASK  # what the move makes for the mover
            quiet = own_class < P4_FLEX3 and (board.state[STATE_STRIDE * move + opp] & P4_MASK) < P4_FLEX3
            if quiet and i > 0:
                quiets += 1
                if quiets > move_limit and best > -WIN_THRESHOLD:
                    continue  # move-count pruning: the quiet moves left are the unlikely ones
                if prunable and self.futility_margin > 0 and depth <= self.futility_depth and \
                        static + self.futility_margin * depth <= alpha:
                    continue
            new_depth = depth - 1
            if move == tt_move:
                new_depth += tt_extension
            board.make(move)
            if i == 0:
                score = -self._pvs(-beta, -alpha, new_depth, ply + 1)
            else:
                reduction = 0
                if depth >= self.lmr_min_depth and i >= self.lmr_min_move and own_class < P4_BLOCK4:
                    reduction = self.lmr[min(depth, LMR_ROWS - 1) * LMR_COLUMNS + min(i, LMR_COLUMNS - 1)]
                    if pv_node and reduction > 1:
                        reduction -= 1
                    if not quiet:
                        reduction -= 1  # a move that makes or stops an open three: one ply less reduction
                    reduction -= self._history_plies(hist + move)
                    if reduction < 0:
                        reduction = 0
                    if reduction > depth - 2:
                        reduction = depth - 2
                score = -self._pvs(-alpha - 1, -alpha, new_depth - reduction, ply + 1)
                if score > alpha and reduction > 0:
                    score = -self._pvs(-alpha - 1, -alpha, new_depth, ply + 1)
                if alpha < score < beta:
                    score = -self._pvs(-beta, -alpha, new_depth, ply + 1)
            board.unmake()
            if self.aborted:
                return 0
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    self._update_pv(ply, move)
                    if ply == 0:
                        self.root_score = score
                    if alpha >= beta:
                        if quiet:
                            self._reward(ply, me, move, depth, tried)
                        break
            if quiet and tried < TRIED_MAX:
                self.tried[ply * TRIED_MAX + tried] = move
                tried += 1
        bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > alpha0 else BOUND_UPPER)
        if (ply > 0 or self.excluded_count == 0) and skip < 0:
            self.tt.store(key, best_move, best, depth, bound, ply)
        return best

    def _quiesce(self, ply: int, beta: int) -> int:
        """Leaf value: a VCF for the side to move if a short one exists, otherwise the static evaluation. A static
        evaluation at or above `beta` is returned as it is: a win could only confirm the cut-off."""
        board = self.board
        me = board.side
        static = evaluate(board, me)
        if static >= beta:
            return static
        own = 16 * (me - 1)
        fours = board.p4count[own + P4_BLOCK4] + board.p4count[own + P4_BLOCK4_PLUS] + board.p4count[
            own + P4_BLOCK4_FLEX3]
        if fours > 0 and self.qnodes > 0:
            if self.threats.vcf(self.qfours, self.qnodes):
                self.nodes += self.threats.nodes
                return WIN - (ply + self.threats.win_plies)
            self.nodes += self.threats.nodes
        return static

    def _order(self, ply: int, n: int, me: int, tt_move: int) -> None:
        gen = self.gen
        base = ply * MAX_MOVES
        hist = (me - 1) * self.board.ncells
        k1 = self.killers[2 * ply]
        k2 = self.killers[2 * ply + 1]
        for i in range(n):
            move = gen.moves[base + i]
            if move == tt_move:
                gen.scores[base + i] = 1 << 30
            else:
                bonus = self.history[hist + move] >> 3
                if move == k1 or move == k2:
                    bonus += self.killer_bonus
                gen.scores[base + i] += min(bonus, self.max_order_bonus)

    def _reward(self, ply: int, me: int, move: int, depth: int, tried: int) -> None:
        """A quiet move cut off: it becomes a killer and gains history; the quiet moves tried before it lose as
        much (history moves toward +-HISTORY_MAX by the bonus's share of the distance left)."""
        if self.killers[2 * ply] != move:
            self.killers[2 * ply + 1] = self.killers[2 * ply]
            self.killers[2 * ply] = move
        hist = (me - 1) * self.board.ncells
        bonus = min(depth * depth * 32, HISTORY_MAX // 4)
        self._history_add(hist + move, bonus)
        for i in range(tried):
            self._history_add(hist + self.tried[ply * TRIED_MAX + i], -bonus)

    def _history_add(self, slot: int, bonus: int) -> None:
        """history[slot] += bonus, less the bonus's share of the way already gone toward its sign's bound (so
        history stays within +-HISTORY_MAX). Integer division of magnitudes: the same in both modes."""
        h = self.history[slot]
        decay = abs(h) * abs(bonus) // HISTORY_MAX
        self.history[slot] = h + bonus - (decay if h >= 0 else -decay)

    def _history_plies(self, slot: int) -> int:
        """The late-move reduction's adjustment for a move's history: plies less for a good one, more for a bad
        one (rounded toward zero)."""
        h = self.history[slot]
        return h // HISTORY_REDUCTION_DIVISOR if h >= 0 else -(-h // HISTORY_REDUCTION_DIVISOR)

    def _update_pv(self, ply: int, move: int) -> None:
        row = ply * (MAX_PLY + 1)
        child = (ply + 1) * (MAX_PLY + 1)
        self.pv[row + ply] = move
        end = self.pv_len[ply + 1] if self.pv_len[ply + 1] > ply + 1 else ply + 1
        for i in range(ply + 1, end):
            self.pv[row + i] = self.pv[child + i]
        self.pv_len[ply] = end
