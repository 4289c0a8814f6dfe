# C view of pbrain/search/tt.py
cimport cython

cdef extern from *:
    void __builtin_prefetch(const void *address) noexcept nogil

cdef enum:
    AGE_PENALTY = 8  # depth units: two plies of the main search's quarter plies
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    BOUND_EXACT = 3
    MATE_THRESHOLD = 29000

@cython.final
cdef class TranspositionTable:
    cdef readonly long size
    cdef readonly bint shared
    cdef unsigned long long[::1] entries
    cdef readonly object pages
    cdef public int move, score, depth, bound
    cdef readonly int age

    cpdef void clear(self)
    cpdef void new_search(self)
    @cython.locals(slot=long)
    cdef inline void prefetch(self, unsigned long long key) noexcept
    @cython.locals(slot=long, data="unsigned long long")
    cpdef bint probe(self, unsigned long long key, int ply) noexcept
    @cython.locals(slot=long, data="unsigned long long")
    cpdef void store(self, unsigned long long key, int move, int score, int depth, int bound, int ply) noexcept
    @cython.locals(data="unsigned long long")
    cdef int _worth(self, long slot) noexcept
