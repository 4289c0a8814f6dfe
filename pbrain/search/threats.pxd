# C view of pbrain/search/threats.py
cimport cython
from pbrain.core.board cimport Board, BLACK, EMPTY, P4_BLOCK4, P4_BLOCK4_PLUS, P4_FIVE, P4_FLEX3, P4_FLEX3_2X, P4_FLEX4, P4_MASK, cell_class
from pbrain.search.movegen cimport MoveGen, MAX_MOVES

cdef enum:
    MAX_THREAT_PLY = 128
    TT_BITS = 18
    VCT_TABLE = 262144
    VCF_INSIDE_VCT = 10
    NEAR_BITS = 16

@cython.final
cdef class ThreatSolver:
    cdef Board board
    cdef MoveGen gen
    cdef int[::1] line
    cdef readonly int line_length
    cdef readonly int win_plies
    cdef readonly int win_threats
    cdef unsigned long long[::1] tt_keys
    cdef int[::1] tt_depth
    cdef unsigned long long[::1] win_keys
    cdef int[::1] win_moves
    cdef readonly long nodes
    cdef long node_limit
    cdef double deadline
    cdef public object stop
    cdef unsigned long long black_key, white_key
    cdef int width
    cdef unsigned long long[::1] near_keys
    cdef int[::1] near_plies
    cdef long[::1] near_limits

    @cython.locals(i=int)
    cpdef void clear(self)
    @cython.locals(i=int)
    cdef void _clear_near(self) noexcept
    cpdef list winning_line(self)
    cpdef bint vcf(self, int max_fours, long max_nodes, double deadline=*)
    @cython.locals(key="unsigned long long", slot=int, found=bint)
    cpdef bint vcf_near(self, int max_fours, long max_nodes, int width)
    cdef bint _interrupted(self) noexcept
    cdef unsigned long long _key(self) noexcept
    @cython.locals(slot=int)
    cdef bint _refuted(self, int table, unsigned long long key, int depth) noexcept
    @cython.locals(slot=int)
    cdef void _store_refuted(self, int table, unsigned long long key, int depth) noexcept
    @cython.locals(me=int, opp=int, five=int, base=int, block=int, cls=int, n=int, key="unsigned long long", i=int, move=int, reply=int, won=bint)
    cdef bint _vcf(self, int depth, int ply) noexcept
    @cython.locals(won=bint)
    @cython.locals(threats=int)
    cpdef bint vct(self, int max_threats, long max_nodes, double deadline=*, int first_threats=*)
    @cython.locals(me=int, opp=int, opp_fives=int, base=int, block=int, cls=int, n=int, four=int, key="unsigned long long", i=int, move=int, won=bint, slot=int)
    cdef bint _attack(self, int depth, int ply) noexcept
    @cython.locals(i=int)
    cdef bint _known_win(self, int slot, int base, int n) noexcept
    @cython.locals(me=int, opp=int, attacker_fives=int, block=int, won=bint, base=int, n=int, i=int, move=int, counter=int)
    cdef bint _defend(self, int depth, int ply) noexcept
    @cython.locals(n=int)
    cdef int _gen_threats(self, int ply, int me) noexcept
    @cython.locals(d=int, off=int, j=int, c=int)
    cdef bint _second_five(self, int me, int move, int first) noexcept
