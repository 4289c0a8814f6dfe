# C view of pbrain/connect4/bitboard.py (Cython pure-Python mode). Keep in step with bitboard.py.
cimport cython

ctypedef unsigned long long u64

cdef enum:
    NCOLS = 7
    NROWS = 6
    STRIDE = 7
    NCELLS = 42

cdef u64 MASK64, BOTTOM, BOARD, M1, M2, M4, H01, XS_MULT, SPLIT_GAMMA, SPLIT_M1, SPLIT_M2

cdef int popcount(u64 x) noexcept
@cython.locals(bit=u64)
cdef u64 cell_bit(int col, int row) noexcept
cdef u64 column_cells(int col) noexcept
cdef u64 playable_cells(u64 mask) noexcept
@cython.locals(r=u64, pair=u64, d=int)
cdef u64 winning_mask(u64 stones, u64 mask) noexcept
@cython.locals(pair=u64, d=int)
cdef bint has_four(u64 stones) noexcept
cdef u64 move_bit(u64 mask, int col) noexcept
@cython.locals(col=int)
cdef int column_of(u64 bit) noexcept
cdef u64 _splitmix(u64 x) noexcept


@cython.final
cdef class Connect4:
    cdef readonly u64 current, mask
    cdef readonly int side, move_count, won
    cdef signed char[::1] hist

    @cython.locals(bit=u64, mover=u64)
    cdef void _push(self, int col) noexcept
    cpdef u64 possible(self)
    cpdef u64 winning_positions(self)
    cpdef u64 opponent_winning_positions(self)
    @cython.locals(poss=u64, opp=u64, forced=u64)
    cpdef u64 non_losing_moves(self)
    @cython.locals(bit=u64)
    cpdef int move_score(self, int col)

    cpdef bint can_play(self, int col)
    @cython.locals(col=int)
    cpdef list legal_moves(self)
    cpdef void play(self, int col) except *
    @cython.locals(col=int, cells=u64, top=u64)
    cpdef int undo(self) except -1
    cpdef int winner(self)
    cpdef bint is_full(self)
    cpdef bint is_over(self)
    cpdef bint is_winning_move(self, int col)
    @cython.locals(bit=u64)
    cpdef int stone(self, int col, int row) except -1
    @cython.locals(i=int)
    cpdef list history(self)
    @cython.locals(other=Connect4, i=int)
    cpdef Connect4 copy(self)
    @cython.locals(stones=u64, pair=u64, starts=u64, d=int, start=int, k=int)
    cpdef list winning_cells(self)
    @cython.locals(cur=u64, mask=u64, poss=u64, threats=u64, bit=u64, k=u64, n=int, side=int, _=u64)
    cdef int _playout(self, u64 state, bint guided) noexcept
