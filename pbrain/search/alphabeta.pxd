# C view of pbrain/search/alphabeta.py
cimport cython
from pbrain.core.board cimport Board, BLACK, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS, P4_FIVE, P4_FLEX3, P4_FLEX3_2X, P4_FLEX4, P4_MASK, cell_class
from pbrain.evaluation.static cimport evaluate
from pbrain.search.movegen cimport MoveGen, MAX_MOVES
from pbrain.search.rootthreats cimport RootThreats, WIN
from pbrain.search.tt cimport TranspositionTable, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER

cdef enum:
    MAX_PLY = 128
    TRIED_MAX = 32  # quiet moves remembered per node for the history malus
    HISTORY_MAX = 16384  # history stays within +-this
    HISTORY_REDUCTION_DIVISOR = 8192  # a late move's reduction is one ply less (more) per this much history
    LMR_ROWS = 64
    LMR_COLUMNS = 64
    INF = 32000
    WIN_THRESHOLD = 29000
    ONE_PLY = 4  # depth units a ply: the search's depth is counted in quarter plies

cdef class AlphaBeta(RootThreats):
    cdef readonly TranspositionTable tt
    cdef int[::1] killers
    cdef int[::1] history
    cdef int[::1] counters
    cdef public int counter_bonus
    cdef int[::1] tried
    cdef int[::1] pv
    cdef int[::1] pv_len
    cdef public int qnodes, qfours, qwidth, lmr_min_depth, lmr_min_move, killer_bonus, max_order_bonus, aspiration
    cdef public int sorted_prefix
    cdef public int leaf_sample_every
    cdef public list leaf_samples
    cdef public int helper
    cdef public double ponder_share
    cdef public int four_three_defence
    cdef public int futility_margin, futility_depth, razor_depth, razor_margin, singular_depth, singular_margin, root_depth
    cdef int[::1] evals
    cdef int[::1] skip
    cdef int[::1] move_limits
    cdef int[::1] excluded
    cdef readonly int excluded_count
    cdef int root_score
    cdef signed char[::1] lmr

    @cython.locals(d=int, m=int)
    cpdef void set_reductions(self, double base, double divisor)
    @cython.locals(d=int)
    cpdef void set_move_limits(self, int base, double power)
    @cython.locals(window=int, alpha=int, beta=int, score=int)
    cdef int _search_root(self, int depth, int previous)
    @cython.locals(me=int, opp=int, opp_fives=int, block=int, score=int, key="unsigned long long", tt_move=int, tt_score=int, tt_bound=int, base=int, n=int, best=int, best_move=int, alpha0=int, i=int, move=int, quiet=bint, own_class=int, reduction=int, bound=int, pv_node=bint, prunable=bint, static=int, improving=bint, move_limit=int, quiets=int, tt_depth=int, skip=int, defending=bint, tt_extension=int, singular_beta=int, new_depth=int, tried=int, hist=int, plies=int)
    cdef int _pvs(self, int alpha, int beta, int depth, int ply)
    @cython.locals(own=int, other=int)
    cdef bint _three_wins(self, int me) noexcept
    @cython.locals(me=int, own=int, fours=int, static=int, found=bint, i=int)
    cdef int _quiesce(self, int ply, int beta)
    @cython.locals(base=int, hist=int, k1=int, k2=int, i=int, move=int, bonus=int, counter=int)
    cdef void _order(self, int ply, int n, int me, int tt_move) noexcept
    @cython.locals(hist=int, bonus=int, i=int)
    cdef void _reward(self, int ply, int me, int move, int depth, int tried) noexcept
    @cython.locals(h=int, decay=int)
    cdef void _history_add(self, int slot, int bonus) noexcept
    @cython.locals(h=int)
    cdef int _history_plies(self, int slot) noexcept
    @cython.locals(row=int, child=int, end=int, i=int)
    cdef void _update_pv(self, int ply, int move) noexcept
