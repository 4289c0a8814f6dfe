# C view of pbrain/mcts_connect4.py
cimport cython
from pbrain.connect4 cimport Connect4, u64, has_four, playable_cells, popcount, NCOLS, NCELLS, STRIDE

cdef u64 MASK64, LCG_MUL, LCG_ADD

@cython.final
cdef class Connect4Policy:
    cpdef tuple moves(self, Connect4 game)
    @cython.locals(winner=int)
    cpdef double evaluate(self, Connect4 game, object seed) except -1.0

@cython.final
cdef class PlainUCTPolicy:
    cpdef tuple moves(self, Connect4 game)
    @cython.locals(winner=int)
    cpdef double evaluate(self, Connect4 game, object seed) except -1.0

@cython.locals(poss=u64, wins=u64, keep=u64, col=int)
cpdef list preselected(Connect4 game)
@cython.locals(col=int)
cdef int _column(u64 bit) noexcept
@cython.locals(cur=u64, mask=u64, n=int, side=int, state=u64, poss=u64, k=int, i=int, bit=u64, mover=u64)
cpdef int pure_playout(Connect4 game, u64 seed)
