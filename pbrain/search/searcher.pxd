# C view of pbrain/search/searcher.py
cimport cython
from pbrain.search.alphabeta cimport AlphaBeta, INF, MAX_PLY, ONE_PLY, WIN_THRESHOLD
from pbrain.core.board cimport Board, P4_FIVE, P4_MASK, cell_class
from pbrain.search.movegen cimport MoveGen, MAX_MOVES
from pbrain.search.rootthreats cimport CHECK_EVERY, WIN

@cython.final
cdef class Searcher(AlphaBeta):
    cpdef void rebind(self, Board board)
    @cython.locals(i=long)
    cpdef void clear(self)
    cpdef tuple think(self, int max_depth, long max_nodes, double soft_ms, double hard_ms, object stop, object on_iteration)
    cpdef void exclude_root_moves(self, list cells)
    @cython.locals(i=int, instant=int, converting=bint, ponder=bint, soft_s=double, ponder_depth=int, ponder_score=int)
    cdef tuple _think(self, int max_depth, long max_nodes, double soft_ms, double hard_ms, object on_iteration)
    @cython.locals(depth=int, best_move=int, best_score=int, done_depth=int, score=int, n=int, verified=int, now=double, elapsed_ms=double, iteration_ms=double, last_iteration_ms=double, iteration_started=double, final_verify=bint, full_hard_s=double, full_soft_ms=double, full_node_limit=long, soft_nodes=long, ponder_depth=int, ponder_score=int)
    cdef tuple _deepen(self, int max_depth, double soft_ms, double hard_ms, bint ponder, object on_iteration)
    @cython.locals(gen=MoveGen, me=int, n=int, i=int, j=int, move=int)
    cdef int _root_without_excluded(self)
    @cython.locals(hard_s=double, depth=int, root_count=int, done_depth=int, score=int, result=int, i=int)
    cdef tuple _ponder_after(self, int move, int max_depth)
    @cython.locals(depth=int, result=int)
    cdef tuple _replace_if_refuted(self, int move, int score, int done_depth)
    @cython.locals(i=int)
    cdef bint _skipped(self, int depth)
    cdef double _growth(self, double iteration_ms, double last_iteration_ms)
