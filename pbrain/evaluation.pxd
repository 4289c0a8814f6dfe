# C view of pbrain/evaluation.py
cimport cython
from pbrain.board cimport Board, EVAL_SHIFT, EVAL_SUMS

cpdef int evaluate(Board board, int side) noexcept
