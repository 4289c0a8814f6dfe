# C view of pbrain/search/dfpn.py
cimport cython
from pbrain.core.board cimport Board, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS, P4_FIVE, P4_FLEX3_PLUS, P4_FLEX3, P4_FLEX3_2X, P4_FLEX4, P4_MASK, cell_class
from pbrain.search.movegen cimport MoveGen, MAX_MOVES
from pbrain.search.threats cimport ThreatSolver, MAX_THREAT_PLY

cdef enum:
    INF = 268435456
    TABLE_BITS = 18
    MAX_LINE = 64

cpdef int threat_pn(int made) noexcept

@cython.final
cdef class ProofSolver:
    cdef ThreatSolver threats
    cdef Board board
    cdef MoveGen gen
    cdef unsigned long long[::1] keys
    cdef int[::1] pn
    cdef int[::1] dn
    cdef int[::1] work
    cdef unsigned long long[::1] child_keys
    cdef int[::1] child_counter
    cdef int[::1] child_pn
    cdef int[::1] child_dn
    cdef int[::1] line
    cdef readonly int line_length
    cdef readonly long nodes
    cdef long node_limit
    cdef long next_check
    cdef double deadline
    cdef bint aborted
    cdef readonly bint disproved
    cdef unsigned long long attacker_key, side_flip
    cdef public object stop

    cdef void _bind(self, ThreatSolver threats)
    @cython.locals(i=int)
    cpdef void clear(self)
    cpdef list winning_line(self)
    @cython.locals(key="unsigned long long", slot=int)
    cpdef bint prove(self, long max_nodes, double deadline=*)
    cdef unsigned long long _key(self) noexcept
    @cython.locals(slot=int)
    cdef int _find(self, unsigned long long key) noexcept
    @cython.locals(slot=int)
    cdef void _store(self, unsigned long long key, int pn, int dn, int work) noexcept
    @cython.locals(start=long, n=int, base=int, pn=int, dn=int, best=int, best_value=int,
                   second=int, best_pn=int, best_dn=int, total=int, i=int, child=int, cpn=int, cdn=int, value=int,
                   grow=int, child_th_pn=int, child_th_dn=int, child_attacking=bint, move=int, counter=int)
    cdef void _mid(self, unsigned long long key, bint attacking, int ply, int th_pn, int th_dn) noexcept
    cdef void _check_limits(self) noexcept
    @cython.locals(me=int, opp=int, opp_fives=int, base=int, block=int, cls=int, n=int, i=int, move=int, key="unsigned long long")
    cdef int _expand_attack(self, int ply) noexcept
    @cython.locals(me=int, opp=int, attacker_fives=int, base=int, block=int, n=int, i=int, move=int, counter=int, key="unsigned long long")
    cdef int _expand_defence(self, int ply) noexcept
    @cython.locals(attacking=bint, ply=int, me=int, four=int, n=int, base=int,
                   pick=int, most=int, i=int, child=int, move=int, counter=int)
    cdef void _extract_line(self)
