# C view of pbrain/mcts/tree.py
cimport cython
from libc.math cimport log, sqrt

cdef enum:
    UNSOLVED = 2
    CHECK_EVERY = 16

@cython.final
cdef class Node:
    cdef public int move
    cdef public double prior
    cdef public double visits
    cdef public double wins
    cdef public int solved
    cdef public bint expanded
    cdef public list children
    cdef public object moves
    cdef public object priors

    cpdef double value(self)


@cython.final
cdef class MCTS:
    cdef public object game
    cdef public object policy
    cdef public double exploration
    cdef public double fpu
    cdef public bint prove
    cdef readonly long iterations
    cdef readonly int max_depth
    cdef unsigned long long seed
    cdef bint uses_priors

    @cython.locals(node=Node, child=Node, depth=int, i=int, reward=double, solved=int)
    cpdef void _iterate(self, Node root) except *
    @cython.locals(n=int, i=int)
    cpdef void _expand(self, Node node, object root_exclude) except *
    @cython.locals(i=int, child=Node)
    cdef Node _new_child(self, Node node)
    @cython.locals(child=Node, best=Node, best_score=double, parent_visits=double, root_n=double, fpu=double, q=double, score=double, log_n=double, unborn=bint)
    cdef Node _select(self, Node node)
    @cython.locals(node=Node, proving=bint, i=int)
    cdef void _backup(self, list path, double reward) except *
    @cython.locals(child=Node, best=int, s=int)
    cdef bint _prove(self, Node node) except -1
    @cython.locals(best=Node, child=Node)
    cpdef Node _best_child(self, Node node)
