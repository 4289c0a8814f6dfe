# C view of pbrain/evaluation.py
cimport cython
from pbrain.board cimport Board

cdef enum:
    NUM_CLASSES = 14

cdef int[::1] _OWN_VALUE
cdef int[::1] _OPPONENT_VALUE
cdef int[::1] _TEMPO

@cython.locals(own=int, opp=int, mine=int, theirs=int, k=int)
cpdef int evaluate(Board board, int side) noexcept
