# C view of pbrain/search.py
cimport cython
from pbrain.board cimport Board, BLACK, EMPTY, P4_BLOCK4, P4_BLOCK4_FLEX3, P4_BLOCK4_PLUS, P4_FIVE, P4_FLEX3, P4_FLEX4, P4_MASK, STATE_STRIDE
from pbrain.evaluation cimport evaluate
from pbrain.movegen cimport MoveGen, MAX_MOVES
from pbrain.threats cimport ThreatSolver
from pbrain.tt cimport TranspositionTable, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER

cdef enum:
    MAX_PLY = 128
    INF = 32000
    WIN = 30000
    WIN_THRESHOLD = 29000
    CHECK_EVERY = 1024

@cython.final
cdef class Searcher:
    cdef readonly Board board
    cdef MoveGen gen
    cdef ThreatSolver threats
    cdef readonly TranspositionTable tt
    cdef int[::1] killers
    cdef int[::1] history
    cdef int[::1] pv
    cdef int[::1] pv_len
    cdef unsigned long long black_key, white_key
    cdef readonly long nodes
    cdef long node_limit, next_check
    cdef bint aborted
    cdef double started, hard_s
    cdef object stop
    cdef public int qnodes, qfours, lmr_min_depth, lmr_min_move, killer_bonus, max_order_bonus, aspiration
    cdef public int root_vcf_nodes, root_vcf_fours, sorted_prefix, root_vct_nodes, root_vct_threats
    cdef public int defence_vcf_nodes, defence_vct_nodes, defence_probe_max, verify_nodes
    cdef public double ponder_share
    cdef public int futility_margin, futility_depth, lmp_base, lmp_depth
    cdef bint threatened
    cdef int[::1] root_moves
    cdef int[::1] excluded
    cdef readonly int excluded_count
    cdef readonly int root_count
    cdef int root_score, proof_count, proof_threats
    cdef unsigned long long proof_key
    cdef int vct_threats, vcf_fours
    cdef int instant_score
    cdef readonly object last_reason

    cpdef void rebind(self, Board board)
    @cython.locals(i=long)
    cpdef void clear(self)
    cpdef tuple think(self, int max_depth, long max_nodes, double soft_ms, double hard_ms, object stop, object on_iteration)
    cpdef void exclude_root_moves(self, list cells)
    @cython.locals(i=int, instant=int, share=long, found=bint, converting=bint, ponder=bint, vcf_nodes=long, vct_nodes=long, vcf_deadline=double, vct_deadline=double, soft_s=double)
    cdef tuple _think(self, int max_depth, long max_nodes, double soft_ms, double hard_ms, object on_iteration)
    @cython.locals(depth=int, best_move=int, best_score=int, done_depth=int, score=int, window=int, alpha=int, beta=int, n=int, verified=int, now=double, elapsed_ms=double, iteration_ms=double, last_iteration_ms=double, iteration_started=double)
    cdef tuple _deepen(self, int max_depth, double soft_ms, double hard_ms, bint ponder, object on_iteration)
    @cython.locals(gen=MoveGen, me=int, n=int, i=int, j=int, move=int)
    cdef int _root_without_excluded(self)
    @cython.locals(hard_s=double, depth=int)
    cdef void _ponder_after(self, int move, int max_depth)
    @cython.locals(n=int, i=int)
    cdef bint _exclude_root(self, int move)
    @cython.locals(best=int, best_score=int, score=int, i=int)
    cdef int _best_ordered_root(self)
    cdef double _growth(self, double iteration_ms, double last_iteration_ms)
    cdef void _remember_proof(self, int move, int threats)
    @cython.locals(found=bint, last=int)
    cdef bint _continues_proof(self)
    @cython.locals(me=int, opp=int, five=int, block=int, four=int, n=int)
    cdef int _instant_answer(self) noexcept
    @cython.locals(me=int, threatened=bint, n=int, kept=int, survivors=int, i=int, move=int, probe_vcf=long, probe_vct=long, horizon=int, budget=long)
    cdef void _restrict_to_defences(self, double threat_deadline, double deadline, long threat_nodes, long node_budget_end)
    @cython.locals(refuted=bint)
    cdef bint _loses_after(self, int move, int vcf_fours, int vct_threats, long probe_nodes, double deadline, long node_budget_end)
    cdef void _check_limits(self)
    cdef unsigned long long _key(self) noexcept
    @cython.locals(me=int, opp=int, opp_fives=int, block=int, score=int, key="unsigned long long", tt_move=int, tt_score=int, tt_bound=int, base=int, n=int, best=int, best_move=int, alpha0=int, i=int, move=int, quiet=bint, reduction=int, bound=int, pv_node=bint, prunable=bint, static=int, quiets=int, quiet_limit=int)
    cdef int _pvs(self, int alpha, int beta, int depth, int ply)
    @cython.locals(me=int, own=int, fours=int)
    cdef int _quiesce(self, int ply)
    @cython.locals(base=int, hist=int, k1=int, k2=int, i=int, move=int, bonus=int)
    cdef void _order(self, int ply, int n, int me, int tt_move) noexcept
    @cython.locals(slot=int)
    cdef void _reward(self, int ply, int me, int move, int depth) noexcept
    @cython.locals(row=int, child=int, end=int, i=int)
    cdef void _update_pv(self, int ply, int move) noexcept
