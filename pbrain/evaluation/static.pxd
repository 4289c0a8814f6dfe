# C view of pbrain/evaluation/static.py
cimport cython
from pbrain.core.board cimport (Board, EVAL_SHIFT, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS, P4_FLEX3,
                           P4_FLEX3_2X, P4_FLEX3_PLUS, P4_FLEX4)

@cython.locals(me=int, opp=int)
cpdef int threat_index(Board board, int side) noexcept
cdef enum:
    CLASS_COUNT = 14
    THREAT_BITS = 9
    INPUT_COUNT = 39
    MAX_HIDDEN = 32
    CODE_SCALE = 1024
    SHIPPED_HIDDEN = 16

cpdef int net_value(Board board, int side) noexcept
@cython.locals(w="double[::1]", part=int, base=int, i=int, k=int, b=int, count=int,
               row=int, bits=int, out=int, total=double, mover=double, waiter=double)
cdef inline int _net_value(Board board, int side, int hidden) noexcept
cpdef int evaluate(Board board, int side) noexcept
