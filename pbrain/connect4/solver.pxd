# C view of pbrain/connect4/solver.py (Cython pure-Python mode). Keep in step with solver.py.
cimport cython
from pbrain.connect4.bitboard cimport u64, Connect4, column_of, BOARD, BOTTOM, MASK64, NCELLS, NCOLS
from pbrain.connect4.bitboard cimport column_cells, playable_cells, popcount, winning_mask

cdef enum:
    MAX_PLY = 44
    CHECK_MASK = 4095
    UNKNOWN = -1000
    HWIN = 1000
    HINF = 30000
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    BOUND_EXACT = 3
    HEURISTIC_TT_BITS = 20
    ETC_BELOW = 36

cdef u64 HASH_MULT, X_ROWS, O_ROWS
cdef int THREAT_GOOD, THREAT_OTHER, THREAT_STACKED, THREAT_ALONE, CENTRE_STONE


@cython.final
cdef class Solver:
    cdef readonly int tt_bits
    cdef u64[::1] table
    cdef u64[::1] hkeys
    cdef u64[::1] hdata
    cdef int[::1] order
    cdef u64[::1] move_bits
    cdef int[::1] move_cols
    cdef int[::1] scores
    cdef readonly long long nodes
    cdef bint aborted
    cdef double deadline
    cdef object stop
    cdef int root_best, best_col
    cdef public int w_good, w_other, w_stacked, w_centre, w_alone

    cpdef void clear(self)
    cdef void _start(self, double deadline, object stop) except *
    cdef void _check(self) except *
    @cython.locals(poss=u64, opp_wins=u64, forced=u64, moves=u64, low=int, high=int, key=u64, slot=u64, entry=u64,
                   tt_col=int, stored_low=int, stored_high=int, count=int, base=int, alpha0=int, best=int,
                   best_col=int, i=int, bit=u64, score=int)
    cdef int _negamax(self, u64 cur, u64 mask, int n, int alpha, int beta, int ply) except? -30001
    @cython.locals(child=u64, rest=u64, bit=u64, child_key=u64, entry=u64, score=int)
    cdef int _child_cutoff(self, u64 cur, u64 mask, u64 moves, int beta) noexcept
    @cython.locals(entry=u64, old_low=int, old_high=int)
    cdef void _store(self, u64 key, u64 slot, int low, int high, int col) noexcept
    @cython.locals(base=int, count=int, scores="int[::1]", i=int, col=int, bit=u64, score=int, j=int, threats=u64)
    cdef int _order_moves(self, u64 cur, u64 mask, u64 moves, int tt_col, int ply, u64 good) noexcept
    @cython.locals(poss=u64, opp_wins=u64, forced=u64, safe=u64, pick=u64, i=int, col=int)
    cdef u64 _fallback(self, u64 cur, u64 mask) noexcept
    @cython.locals(poss=u64, wins=u64, safe=u64, low=int, high=int, med=int, score=int)
    cdef int _solve(self, u64 cur, u64 mask, int n, bint weak) except? -30001
    cdef void _root(self, Connect4 pos, double deadline, object stop) except *
    @cython.locals(score=int)
    cpdef object solve(self, Connect4 pos, bint weak=*, double deadline=*, object stop=*)
    @cython.locals(score=int)
    cpdef object best_move(self, Connect4 pos, bint weak=*, double deadline=*, object stop=*)
    @cython.locals(cur=u64, mask=u64, n=int, col=int, bit=u64, score=int)
    cpdef object score_moves(self, Connect4 pos, bint weak=*, double deadline=*, object stop=*)
    @cython.locals(cur=u64, mask=u64, n=int, poss=u64, wins=u64, depth=int, score=int, col=int)
    cpdef object search(self, Connect4 pos, int max_depth=*, double deadline=*, object stop=*)
    @cython.locals(poss=u64, opp_wins=u64, forced=u64, moves=u64, key=u64, slot=u64, data=u64, tt_col=int,
                   stored=int, bound=int, count=int, base=int, alpha0=int, best=int, best_col=int, i=int, bit=u64,
                   score=int)
    cdef int _hsearch(self, u64 cur, u64 mask, int n, int depth, int alpha, int beta, int ply) except? -30001
    @cython.locals(opp=u64, mine=u64, theirs=u64, my_rows=u64, their_rows=u64, score=int, centre=u64,
                   shadow_mine=u64, shadow_theirs=u64, good_mine=int, good_theirs=int)
    cdef int _evaluate(self, u64 cur, u64 mask, int n) noexcept
