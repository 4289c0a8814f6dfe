# C view of pbrain/search/movegen.py
cimport cython
from pbrain.core.board cimport Board, BLACK, EMPTY, PAT_B4, PAT_F3, P4_FORBID, P4_FLEX3_2X, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_FLEX4, P4_FIVE, P4_MASK, FLAG_DOUBLE_THREE, CLASS_SHIFT, cell_class, PADDING, NUM_CODES

cdef enum:
    MAX_MOVES = 1024

cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil

@cython.final
cdef class MoveGen:
    cdef Board board
    cdef int plies
    cdef readonly int[::1] moves
    cdef int[::1] scores
    cdef int[::1] marks
    cdef int mark_stamp
    cdef int[::1] threat_cells
    cdef int line_span
    cdef int[::1] line_step
    cdef int[::1] order

    @cython.locals(entry=int)
    cdef bint legal(self, int cell, int side) noexcept
    cpdef bint has_flex4(self, int side) noexcept
    @cython.locals(mine=int, theirs=int, word="unsigned long long")
    cdef int order_score(self, int cell, int side) noexcept
    @cython.locals(base=int, n=int, i=int, cell=int, row=int, w=int, bits="unsigned long long")
    cpdef int gen_all(self, int ply, int side) noexcept
    cpdef int gen_fours(self, int ply, int side, int lowest) noexcept
    @cython.locals(base=int, own=int, wanted=int, n=int, found=int, k=int, cell=int, cls=int, row=int, w=int,
                   bits="unsigned long long")
    cpdef int gen_classes(self, int ply, int side, int lowest, int highest) noexcept
    @cython.locals(base=int, n=int, d=int, off=int, j=int, cell=int, cls=int, i=int)
    cpdef int gen_fours_near(self, int ply, int side, int around) noexcept
    @cython.locals(opp=int, n=int, stamp=int, found=int, i=int, cell=int, d=int, off=int, j=int, c=int, caro=bint, reach=int)
    cpdef int gen_defences(self, int ply, int side) noexcept
    @cython.locals(base=int, n=int, k=int)
    cdef int _own_fours_marked(self, int ply, int side) noexcept
    @cython.locals(threats=int, found=int, last=int, d=int, off=int, j=int, c=int, k=int, i=int)
    cdef int _list_threats(self, int opp, int cls) noexcept
    @cython.locals(opp=int, n=int, stamp=int, found=int, i=int, cell=int, d=int, off=int, j=int, c=int)
    cpdef int gen_four_three_defences(self, int ply, int side) noexcept
    cdef int _try_defence(self, int ply, int n, int cell, int side, int stamp, int threats, int cls) noexcept
    @cython.locals(i=int, t=int, delta=int, step=int, after=int)
    cdef bint _stops_listed(self, int cell, int side, int threats, int cls) noexcept
    @cython.locals(opp=int, stops=bint, left=int, d=int, off=int, j=int, c=int)
    cpdef bint stops_open_fours(self, int cell, int side) noexcept
    @cython.locals(d=int, off=int, j=int, c=int)
    cpdef int five_after(self, int side, int move) noexcept
    @cython.locals(delta=int)
    cdef int _class_after(self, int cell, int d, int j, int stone, int color) noexcept
    @cython.locals(d=int, off=int, j=int, c=int)
    cpdef int five_point(self, int side, int around) noexcept
    @cython.locals(i=int, c=int, count=int)
    cpdef int any_five_point(self, int side) noexcept
    @cython.locals(i=int, c=int)
    cpdef bint has_legal_point(self, int side) noexcept
    @cython.locals(i=int, c=int)
    cpdef int legal_point_of_class(self, int side, int cls) noexcept
    @cython.locals(base=int, best=int, j=int, move=int, score=int, best_score=int)
    cdef void pick(self, int ply, int i, int n) noexcept
    @cython.locals(base=int, i=int, j=int, move=int, score=int)
    cdef void sort(self, int ply, int n) noexcept


cdef inline int _low_bit(unsigned long long bits) noexcept
