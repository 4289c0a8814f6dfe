# C view of pbrain/mcts/gomoku.py
cimport cython
from libc.math cimport exp
from pbrain.core.board cimport Board, BLACK, EMPTY, WHITE, P4_BLOCK4_FLEX3, P4_FIVE, P4_FLEX4, P4_MASK, cell_class
from pbrain.evaluation.static cimport evaluate
from pbrain.search.movegen cimport MoveGen

@cython.final
cdef class GomokuGame:
    cdef readonly Board board
    cdef readonly MoveGen gen

    cpdef void play(self, int move) except *
    cpdef void undo(self) except *
    @cython.locals(board=Board)
    cpdef object result(self)
    @cython.locals(n=int, i=int)
    cpdef list legal_moves(self)


@cython.final
cdef class GomokuPolicy:
    cdef public double temperature
    cdef public double eval_scale

    @cython.locals(gen=MoveGen, n=int, forced=bint, i=int, top=double, total=double, w=double, move_view="int[::1]", prior_view="double[::1]")
    cpdef tuple moves(self, GomokuGame game)
    @cython.locals(board=Board, side=int)
    cpdef double evaluate(self, GomokuGame game, object seed) except -1.0


@cython.locals(board=Board, gen=MoveGen, me=int, opp=int, five=int, n=int, opp_three=bint)
cpdef tuple forced_moves(GomokuGame game)

@cython.locals(board=Board, gen=MoveGen, wanted=int, n=int, found=int, i=int, cell=int)
cdef int _cells_of_class(GomokuGame game, int color, int cls, int mover) except -1
