"""The alpha-beta proper: negamax PVS with a transposition table, killer, counter-move and history ordering (a cut-off
quiet move gains history and becomes the counter move to the opponent's last move, the quiet moves tried before it
lose as much), forced-move and singular extensions and a narrow VCF (a first four with more behind it, then the
fours near each last four) as the quiescence at the leaves. Facing an open three, a node searches only its defences
and its own fours (and with params.FOUR_THREE_DEFENCE, facing a four-three point, only the cells that take it away
and its own fours). Late moves are reduced by a log-scaled table (less for good history, more for bad; one ply less
for a move that makes or stops an open three; moves that make a four are never reduced), and quiet moves (neither
making nor stopping an open three or a four) are cut by a move count that grows with depth; non-PV nodes without an
opponent threat are cut by reverse futility, futility and razoring, all read from the static eval kept per ply (its
improvement over two plies ago loosens them).
The iterative-deepening driver (searcher.py) calls one root search per iteration.

Scores are from the side to move's view. A win whose winning stone is the n-th ply from the root scores
WIN - n (a loss -(WIN - n)); such scores are stored in the TT relative to the node (Stockfish's value_to_tt).

Depth is counted in units of a quarter ply (ONE_PLY = 4 units), so that a reduction or an extension can be a
fraction of a ply (as Rapfi's are); the reductions, extensions and pruning depths used today are whole plies, and the
parameters (params.py) stay in plies. The iteration depth and `ply` (the distance from the root) are plies.
"""
from __future__ import annotations

import math
from array import array

import cython

from pbrain import params
from pbrain.core.board import Board
from pbrain.evaluation.static import evaluate
from pbrain.search.rootthreats import RootThreats
from pbrain.search.tt import TranspositionTable

if not cython.compiled:
    from pbrain.core.board import (  # noqa: F401  # noqa: F401
        BLACK,
        P4_BLOCK4,
        P4_BLOCK4_FLEX3,
        P4_BLOCK4_PLUS,
        P4_FIVE,
        P4_FLEX3,
        P4_FLEX3_2X,
        P4_FLEX4,
        P4_MASK,
        cell_class,
    )
    from pbrain.search.movegen import MAX_MOVES  # noqa: F401
    from pbrain.search.rootthreats import WIN  # noqa: F401

    MAX_PLY = 128
    TRIED_MAX = 32
    HISTORY_MAX = 16384
    HISTORY_REDUCTION_DIVISOR = 8192
    LMR_ROWS = 64
    LMR_COLUMNS = 64
    INF = 32000
    WIN_THRESHOLD = 29000
    ONE_PLY = 4
    from pbrain.search.tt import BOUND_EXACT, BOUND_LOWER, BOUND_UPPER  # noqa: F401

COMPILED = cython.compiled
assert params.WIN == 30000 and params.WIN_THRESHOLD == 29000 and params.MAX_PLY == 128


class AlphaBeta(RootThreats):
    """The main search's tree walk on one board: owns the transposition table, the killers, history, PV and the
    pruning parameters; the move buffers, the threat solver, the limits and the root threat analysis come from
    RootThreats. The tree-walk methods are final: compiled, they call each other directly, not through the class's
    method table. `helper` is 0 for the main search and k >= 1 in the k-th helper process of smp.py (which searches
    its own schedule of depths, search.Searcher.think)."""

    def __init__(self, board: Board, tt_bytes: int, shared_table: bool = False) -> None:
        RootThreats.__init__(self, board)
        self.tt = TranspositionTable(tt_bytes, shared_table)
        self.helper = 0
        self.killers = array("i", [0]) * (2 * (MAX_PLY + 1))
        self.excluded = array("i", [0]) * MAX_MOVES
        self.excluded_count = 0
        self.forget_move_stats()
        self.counter_bonus = params.COUNTER_BONUS
        self.tried = array("i", [0]) * ((MAX_PLY + 1) * TRIED_MAX)
        self.pv = array("i", [0]) * ((MAX_PLY + 1) * (MAX_PLY + 1))
        self.pv_len = array("i", [0]) * (MAX_PLY + 1)
        self.qnodes = params.VCF_QUIESCENCE_NODES
        self.qfours = params.VCF_QUIESCENCE_FOURS
        self.qwidth = params.VCF_QUIESCENCE_WIDTH
        self.lmr_min_depth = params.LMR_MIN_DEPTH
        self.lmr_min_move = params.LMR_MIN_MOVE
        self.killer_bonus = params.KILLER_BONUS
        self.max_order_bonus = params.MAX_ORDER_BONUS
        self.aspiration = params.ASPIRATION_WINDOW
        self.sorted_prefix = params.SORTED_PREFIX
        self.leaf_sample_every = 0  # > 0: keep the moves of the leaf reached at every this-many-th node (tuning.leaves)
        self.leaf_samples = []
        self.futility_margin = params.FUTILITY_MARGIN
        self.futility_depth = params.FUTILITY_DEPTH
        self.razor_depth = params.RAZOR_DEPTH
        self.razor_margin = params.RAZOR_MARGIN
        self.singular_depth = params.SINGULAR_DEPTH
        self.singular_margin = params.SINGULAR_MARGIN
        self.four_three_defence = params.FOUR_THREE_DEFENCE
        self.skip = array("i", [-1]) * (MAX_PLY + 2)
        self.root_depth = 0
        self.evals = array("i", [0]) * (MAX_PLY + 2)
        self.move_limits = array("i", [0]) * LMR_ROWS
        self.set_move_limits(params.MOVE_COUNT_BASE, params.MOVE_COUNT_POWER)
        self.ponder_share = params.PONDER_SHARE
        self.root_score = 0
        self.lmr = array("b", [0]) * (LMR_ROWS * LMR_COLUMNS)
        self.set_reductions(params.LMR_BASE, params.LMR_DIVISOR)

    def forget_move_stats(self) -> None:
        """Empty the history and counter-move tables, sized for the bound board (a new board may differ)."""
        self.history = array("i", [0]) * (2 * self.board.ncells)
        self.counters = array("i", [-1]) * (2 * self.board.ncells)

    def set_reductions(self, base: float, divisor: float) -> None:
        """Fill the late-move reduction table: int(base + ln(depth) * ln(move number) / divisor) plies, at
        least 1, in depth units (ONE_PLY a ply), indexed by whole plies of depth (depths and move numbers past the
        table's edge use its last row and column)."""
        for d in range(1, LMR_ROWS):
            for m in range(1, LMR_COLUMNS):
                self.lmr[d * LMR_COLUMNS + m] = max(1, int(base + math.log(d) * math.log(m) / divisor)) * ONE_PLY

    def set_move_limits(self, base: int, power: float) -> None:
        """Fill the move-count pruning table: base + depth ** power moves at `depth` (0 turns it off)."""
        for d in range(LMR_ROWS):
            self.move_limits[d] = base + int(d ** power) if base > 0 else MAX_MOVES

    @cython.final
    def _search_root(self, depth: int, previous: int) -> int:
        """One root search to `depth` (the driver's iteration): from depth 4, when `previous` (the last iteration's
        score) is no mate score, inside an aspiration window around it that widens fourfold on each fail (at once to
        the full width past a lost score); otherwise with the full window. A fail high with a win score ends it: that
        lower bound is the result and pv[0] the winning move (the win's exact length would cost a full-window search
        of the whole tree). Otherwise the result and pv are _pvs's; an abort leaves them as they stood."""
        if depth >= 4 and abs(previous) < WIN_THRESHOLD:
            window = self.aspiration
            alpha = previous - window
            beta = previous + window
            while True:
                score = self._pvs(alpha, beta, depth * ONE_PLY, 0)
                if self.aborted:
                    return score
                if score <= alpha:
                    alpha = -INF if score <= -WIN_THRESHOLD else max(-INF, alpha - 4 * window)
                elif score >= WIN_THRESHOLD:
                    return score
                elif score >= beta:
                    beta = min(INF, beta + 4 * window)
                else:
                    return score
                window *= 4
        return self._pvs(-INF, INF, depth * ONE_PLY, 0)

    @cython.final
    def _pvs(self, alpha: int, beta: int, depth: int, ply: int) -> int:
        """Negamax PVS to `depth` units (ONE_PLY a ply; below one ply the leaf value). Fail-soft: a result <= alpha
        is an upper bound, >= beta a lower bound, otherwise exact. On return pv[ply * (MAX_PLY + 1) ...] holds the
        line from this node (pv_len[ply] is its end)."""
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
            if ply > 0 and self._three_wins(me):
                return WIN - (ply + 5)
            if depth < ONE_PLY:
                return self._quiesce(ply, beta)
            if ply > 0:  # mate-distance pruning: nothing here beats a five next move or loses sooner than after it
                if alpha < -(WIN - (ply + 2)):
                    alpha = -(WIN - (ply + 2))
                if beta > WIN - (ply + 1):
                    beta = WIN - (ply + 1)
                if alpha >= beta:
                    return alpha

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
        plies = depth // ONE_PLY  # whole plies of depth: what the tables and margins are indexed and scaled by
        pv_node = beta - alpha > 1
        prunable = False
        static = evaluate(board, me)
        self.evals[ply] = static
        improving = ply < 2 or static > self.evals[ply - 2]
        defending = gen.has_flex4(opp)
        if not defending:
            prunable = ply > 0 and not pv_node and -WIN_THRESHOLD < alpha and beta < WIN_THRESHOLD
            if prunable and self.futility_margin > 0 and depth <= self.futility_depth * ONE_PLY and \
                    static - self.futility_margin * (plies - improving) >= beta:
                return static
            if prunable and depth <= self.razor_depth * ONE_PLY and static + self.razor_margin * plies < alpha:
                return self._quiesce(ply, beta)  # razoring: only a short VCF could lift this node to alpha
        tt_extension = 0
        if ply > 0 and skip < 0 and depth >= self.singular_depth * ONE_PLY and tt_move >= 0 and \
                (tt_bound & BOUND_LOWER) and tt_depth >= depth - 3 * ONE_PLY and \
                -WIN_THRESHOLD < tt_score < WIN_THRESHOLD and ply < 2 * self.root_depth:
            # singular extension: does any other move come near the TT move's score, searched half as deep?
            singular_beta = tt_score - self.singular_margin * plies
            self.skip[ply] = tt_move
            score = self._pvs(singular_beta - 1, singular_beta, (plies - 1) // 2 * ONE_PLY, ply)
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
            n = 0
            if self.four_three_defence and board.p4count[16 * (opp - 1) + P4_BLOCK4_FLEX3] > 0 and \
                    not (board.renju and opp == BLACK):
                n = gen.gen_four_three_defences(ply, me)  # only the moves that do not lose to the four-three
            if n == 0:
                n = gen.gen_all(ply, me)
            if n == 0:  # no legal cell near the stones: renju black left only forbidden points must play one
                return 0 if gen.has_legal_point(me) else -(WIN - (ply + 2))
        self._order(ply, n, me, tt_move)
        move_limit = MAX_MOVES
        if ply > 0:
            move_limit = self.move_limits[min(plies, LMR_ROWS - 1)]
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
            own_class = cell_class(board, move, me)  # what the move makes for the mover
            quiet = own_class < P4_FLEX3 and cell_class(board, move, opp) < P4_FLEX3
            if quiet and i > 0:
                quiets += 1
                if quiets > move_limit and best > -WIN_THRESHOLD:
                    continue  # move-count pruning: the quiet moves left are the unlikely ones
                if prunable and self.futility_margin > 0 and depth <= self.futility_depth * ONE_PLY and \
                        static + self.futility_margin * plies <= alpha:
                    continue
            new_depth = depth - ONE_PLY
            if move == tt_move:
                new_depth += tt_extension * ONE_PLY
            if cython.compiled and new_depth >= ONE_PLY:  # the child probes the table: fetch its bucket meanwhile
                self.tt.prefetch(board.hash ^ board.zobrist[2 * move + me - 1] ^
                                 (self.white_key if me == BLACK else self.black_key))
            board.make(move)
            if i == 0:
                score = -self._pvs(-beta, -alpha, new_depth, ply + 1)
            else:
                reduction = 0
                if depth >= self.lmr_min_depth * ONE_PLY and i >= self.lmr_min_move and own_class < P4_BLOCK4:
                    reduction = self.lmr[min(plies, LMR_ROWS - 1) * LMR_COLUMNS + min(i, LMR_COLUMNS - 1)]
                    if pv_node and reduction > ONE_PLY:
                        reduction -= ONE_PLY
                    if not quiet:
                        reduction -= ONE_PLY  # a move that makes or stops an open three: one ply less reduction
                    reduction -= self._history_plies(hist + move) * ONE_PLY
                    if reduction < 0:
                        reduction = 0
                    if reduction > depth - 2 * ONE_PLY:
                        reduction = depth - 2 * ONE_PLY
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
                            self._reward(ply, me, move, plies, tried)
                        break
            if quiet and tried < TRIED_MAX:
                self.tried[ply * TRIED_MAX + tried] = move
                tried += 1
        bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > alpha0 else BOUND_UPPER)
        if (ply > 0 or self.excluded_count == 0) and skip < 0:
            self.tt.store(key, best_move, best, depth, bound, ply)
        return best

    @cython.final
    def _three_wins(self, me: int) -> bool:
        """Does the side to move win by a four-three or a double open three? It does when it has a cell for one
        and the opponent has no four to make (nor an open three to turn into an open four): the opponent can stop
        one line, and the other becomes an open four. Not for renju black, whose double threes are forbidden and
        whose threes may be false. The caller has ruled out fives and open fours on either side."""
        board = self.board
        own = 16 * (me - 1)
        if board.p4count[own + P4_BLOCK4_FLEX3] + board.p4count[own + P4_FLEX3_2X] == 0:
            return False
        if me == BLACK and board.renju:
            return False
        other = 16 * (2 - me)
        return board.p4count[other + P4_BLOCK4] + board.p4count[other + P4_BLOCK4_PLUS] + \
            board.p4count[other + P4_BLOCK4_FLEX3] + board.p4count[other + P4_FLEX4] == 0

    @cython.final
    def _quiesce(self, ply: int, beta: int) -> int:
        """Leaf value: a VCF for the side to move if a short one exists that starts with more than a plain four and
        goes on among the fours near each last one (vcf_near), otherwise the static evaluation. A static evaluation
        at or above `beta` is returned as it is: a win could only confirm the cut-off; with no such first four the
        VCF is not called (it could only fail at its first node). With `leaf_sample_every` set, the moves of the
        leaf reached at every that-many-th node are kept in `leaf_samples` (the positions the evaluation is asked
        about: tuning.leaves)."""
        board = self.board
        me = board.side
        if self.leaf_sample_every > 0 and self.nodes % self.leaf_sample_every == 0:
            self.leaf_samples.append([board.moves[i] for i in range(board.move_count)])
        static = evaluate(board, me)
        if static >= beta:
            return static
        own = 16 * (me - 1)
        if board.p4count[own + P4_BLOCK4_PLUS] + board.p4count[own + P4_BLOCK4_FLEX3] > 0 and self.qnodes > 0:
            found = self.threats.vcf_near(self.qfours, self.qnodes, self.qwidth)
            self.nodes += self.threats.nodes
            if found:
                return WIN - (ply + self.threats.win_plies)
        return static

    @cython.final
    def _order(self, ply: int, n: int, me: int, tt_move: int) -> None:
        gen = self.gen
        base = ply * MAX_MOVES
        hist = (me - 1) * self.board.ncells
        k1 = self.killers[2 * ply]
        k2 = self.killers[2 * ply + 1]
        counter = -1
        if self.board.move_count > 0:
            counter = self.counters[hist + self.board.moves[self.board.move_count - 1]]
        for i in range(n):
            move = gen.moves[base + i]
            if move == tt_move:
                gen.scores[base + i] = 1 << 30
            else:
                bonus = self.history[hist + move] >> 3
                if move == k1 or move == k2:
                    bonus += self.killer_bonus
                if move == counter:
                    bonus += self.counter_bonus
                gen.scores[base + i] += min(bonus, self.max_order_bonus)

    @cython.final
    def _reward(self, ply: int, me: int, move: int, depth: int, tried: int) -> None:
        """A quiet move cut off: it becomes a killer and the counter move to the opponent's last move, and gains
        history; the quiet moves tried before it lose as much (history moves toward +-HISTORY_MAX by the bonus's
        share of the distance left)."""
        if self.killers[2 * ply] != move:
            self.killers[2 * ply + 1] = self.killers[2 * ply]
            self.killers[2 * ply] = move
        hist = (me - 1) * self.board.ncells
        if self.board.move_count > 0:
            self.counters[hist + self.board.moves[self.board.move_count - 1]] = move
        bonus = min(depth * depth * 32, HISTORY_MAX // 4)
        self._history_add(hist + move, bonus)
        for i in range(tried):
            self._history_add(hist + self.tried[ply * TRIED_MAX + i], -bonus)

    @cython.final
    def _history_add(self, slot: int, bonus: int) -> None:
        """history[slot] += bonus, less the bonus's share of the way already gone toward its sign's bound (so
        history stays within +-HISTORY_MAX). Integer division of magnitudes: the same in both modes."""
        h = self.history[slot]
        decay = abs(h) * abs(bonus) // HISTORY_MAX
        self.history[slot] = h + bonus - (decay if h >= 0 else -decay)

    @cython.final
    def _history_plies(self, slot: int) -> int:
        """The late-move reduction's adjustment for a move's history: plies less for a good one, more for a bad
        one (rounded toward zero)."""
        h = self.history[slot]
        return h // HISTORY_REDUCTION_DIVISOR if h >= 0 else -(-h // HISTORY_REDUCTION_DIVISOR)

    @cython.final
    def _update_pv(self, ply: int, move: int) -> None:
        row = ply * (MAX_PLY + 1)
        child = (ply + 1) * (MAX_PLY + 1)
        self.pv[row + ply] = move
        end = self.pv_len[ply + 1] if self.pv_len[ply + 1] > ply + 1 else ply + 1
        for i in range(ply + 1, end):
            self.pv[row + i] = self.pv[child + i]
        self.pv_len[ply] = end
