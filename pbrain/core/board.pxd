# C view of pbrain/core/board.py (Cython pure-Python mode). Keep in step with board.py and patterns.py;
# tests/test_board.py checks that the constants below equal the Python ones.
cimport cython
from libc.string cimport memcpy

cdef enum:
    EMPTY = 0
    BLACK = 1
    WHITE = 2
    WALL = 3
    PADDING = 5
    NEAR_WORDS = 5
    HALF_KEYS = 1024
    CLASS_SHIFT = 24
    COUNTERS = 36
    EVAL_SUMS = 32
    EVAL_SHIFT = 4
    NUM_CODES = 2380
    LOG_PER_PLY = 40
    VALUE_BIAS = 32768

# patterns.Pattern
cdef enum:
    PAT_DEAD = 0
    PAT_OL = 1
    PAT_B1 = 2
    PAT_F1 = 3
    PAT_B2 = 4
    PAT_F2 = 5
    PAT_F2A = 6
    PAT_F2B = 7
    PAT_B3 = 8
    PAT_F3 = 9
    PAT_B4 = 10
    PAT_F4 = 11
    PAT_DF4 = 12
    PAT_F5 = 13

# patterns.Pattern4 and the class-table entry layout
cdef enum:
    P4_NONE = 0
    P4_FORBID = 1
    P4_FLEX2 = 2
    P4_BLOCK3 = 3
    P4_FLEX2_2X = 4
    P4_BLOCK3_PLUS = 5
    P4_FLEX3 = 6
    P4_FLEX3_PLUS = 7
    P4_FLEX3_2X = 8
    P4_BLOCK4 = 9
    P4_BLOCK4_PLUS = 10
    P4_BLOCK4_FLEX3 = 11
    P4_FLEX4 = 12
    P4_FIVE = 13
    P4_MASK = 15
    FLAG_DOUBLE_THREE = 16


@cython.final
cdef class Board:
    cdef readonly int width, height, stride, ncells, rule, move_count, side, tempo
    cdef readonly bint renju
    cdef readonly bint caro
    cdef readonly unsigned long long hash
    cdef int[::1] cells
    cdef unsigned long long[::1] lines
    cdef object empty_lines
    cdef int[::1] line_slot
    cdef int[::1] line_slot2
    cdef unsigned long long[::1] state
    cdef int[::1] p4count
    cdef int[::1] moves
    cdef unsigned char[::1] fives
    cdef int[::1] saved
    cdef int[::1] log_start
    cdef int[::1] log_index
    cdef unsigned long long[::1] log_value
    cdef int log_top
    cdef int[::1] left_base
    cdef int[::1] right_class
    cdef unsigned char[::1] compact_table
    cdef readonly int reach
    cdef unsigned short[::1] code_table
    cdef unsigned char[::1] code_class
    cdef unsigned char[::1] half_class
    cdef unsigned long long[::1] half_info
    cdef int[::1] cell_value
    cdef int[::1] class_value
    cdef readonly bint values_by_class
    cdef int[::1] threat_value
    cdef readonly int net_hidden
    cdef double[::1] net_weights
    cdef unsigned long long[::1] zobrist
    cdef int[::1] dir_offset
    cdef int[::1] shift_after
    cdef int[::1] shift_before
    cdef readonly int cand_words
    cdef int[::1] point_of
    cdef int[::1] near_word
    cdef unsigned long long[::1] near_mask
    cdef unsigned long long[::1] cand
    cdef unsigned long long[::1] occupied
    cdef readonly object playable
    cdef int[::1] points
    cdef readonly int npoints

    @cython.locals(slot=int)
    cdef inline int _key(self, int cell, int d) noexcept
    cdef inline unsigned int _line_pattern(self, int key) noexcept
    cdef inline unsigned int _class_word(self, unsigned int word, int ci) noexcept
    @cython.locals(word="unsigned long long", mask="unsigned int")
    cdef unsigned int _class_with_key(self, int cell, int d, int key, int ci) noexcept
    cdef inline void _add_value(self, unsigned long long info, int ci, int sign) noexcept
    cdef inline void _change_value(self, unsigned long long old, unsigned long long new, int ci) noexcept
    @cython.locals(total=int, base=int, k=int)
    cdef inline int eval_sum(self, int ci, int role) noexcept
    cdef void make(self, int cell) noexcept
    @cython.locals(ply=int, i=int)
    cdef void make_stone(self, int cell, int color) noexcept
    @cython.locals(ply=int, cell=int, top=int, start=int, i=int)
    cdef void unmake(self) noexcept
    @cython.locals(top=int)
    cdef inline void _log(self, int cell) noexcept
    @cython.locals(base=int, ci=int, d=int, j=int, off=int, n=int, k=int, slot=int, line=int, shift=int,
                   word="unsigned long long", stone="unsigned long long")
    cdef void _add_stone(self, int cell, int color) noexcept
    @cython.locals(point=int, one="unsigned long long", src=int, dst=int, w=int, k=int)
    cdef inline void _add_candidates(self, int cell, int ply) noexcept
    @cython.locals(color=int, d=int, k=int, slot=int, stone="unsigned long long", point=int, one="unsigned long long")
    cdef void _remove_stone(self, int cell) noexcept
    @cython.locals(new="unsigned int", mask="unsigned int", change="unsigned long long", word="unsigned long long",
                   old="unsigned long long")
    cdef inline void _update_line(self, int n, int d, int key) noexcept
    @cython.locals(shift=int, cls="unsigned long long", prev="unsigned long long", byte="unsigned long long",
                   info="unsigned long long")
    cdef inline unsigned long long _update_class(self, unsigned long long word, unsigned long long old,
                                                 int ci) noexcept
    @cython.locals(d=int, j=int, side=int, end=int, off=int, e=int, threes=int)
    cdef bint _double_three(self, int cell) noexcept
    cdef bint _bad_extension(self, int cell) noexcept
    cdef int pattern_at(self, int cell, int color, int d) noexcept
    cdef int class_at(self, int cell, int color) noexcept

    cpdef int index(self, int x, int y) except -1
    cpdef tuple xy(self, int cell)
    cpdef bint on_board(self, int x, int y)
    cpdef int stone(self, int cell) except -1
    cpdef void play(self, int x, int y) except *
    cpdef void place(self, int cell, int color=*) except *
    cpdef int undo(self) except -1
    cpdef int last_move(self)
    cpdef bint last_move_wins(self)
    cpdef bint is_full(self)
    cpdef bint is_win_move(self, int cell, int color)
    @cython.locals(entry=int)
    cpdef bint is_forbidden(self, int cell)
    cpdef int pattern_code(self, int cell, int color) except -1
    cpdef int pattern(self, int cell, int color, int direction) except -1
    cpdef int pattern4(self, int cell, int color) except -1
    cpdef int count(self, int color, int pattern4) except -1
    cpdef list candidates(self)
    cpdef list history(self)
    cpdef int line_key(self, int cell, int direction) except -1
    cpdef void set_side(self, int color) except *


@cython.locals(x="unsigned long long")
cdef inline int _word_key(unsigned long long word, int shift) noexcept
cdef inline unsigned int _spread(unsigned int byte, int d) noexcept


@cython.locals(buffer="int[::1]", count=int, i=int, r=int)
cpdef long place_undo_loop(Board board, list cells, int rounds) except -1


cdef inline int cell_class(Board board, int cell, int color) noexcept:
    """The Pattern4 `color` makes by playing the empty `cell`: its class byte in the cell's state word (board.py
    keeps the interpreted twin)."""
    return (board.state[cell] >> (CLASS_SHIFT + 8 * color)) & P4_MASK
