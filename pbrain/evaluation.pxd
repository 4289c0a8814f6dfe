# C view of pbrain/evaluation.py
cimport cython
from pbrain.board cimport Board, P4_BLOCK4_FLEX3, P4_FLEX3_2X, P4_FLEX4

cdef enum:
    NUM_CLASSES = 14

cdef int[::1] _OWN_VALUE
cdef int[::1] _OPPONENT_VALUE
cdef int[::1] _WEIGHTS

@cython.locals(own=int, opp=int, mine=int, theirs=int, k=int, score=int, opp_three=bint)
cpdef int evaluate(Board board, int side) noexcept
