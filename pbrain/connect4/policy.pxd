# C view of pbrain/connect4/policy.py
cimport cython
from pbrain.connect4.bitboard cimport Connect4, u64, column_of, STRIDE

cdef u64 MASK64

@cython.final
cdef class Connect4Policy:
    cdef readonly bint plain

    cpdef tuple moves(self, Connect4 game)
    @cython.locals(winner=int)
    cpdef double evaluate(self, Connect4 game, object seed) except -1.0

@cython.locals(poss=u64, wins=u64, keep=u64, col=int)
cpdef list preselected(Connect4 game)
