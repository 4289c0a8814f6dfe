# C view of pbrain/search/rootthreats.py
cimport cython
from pbrain.core.board cimport Board, BLACK, P4_FIVE, P4_FLEX4
from pbrain.search.movegen cimport MoveGen, MAX_MOVES
from pbrain.search.threats cimport ThreatSolver
from pbrain.search.dfpn cimport ProofSolver

cdef enum:
    WIN = 30000
    CHECK_EVERY = 1024

cdef class RootThreats:
    cdef readonly Board board
    cdef MoveGen gen
    cdef ThreatSolver threats
    cdef ProofSolver proofs
    cdef bint vct_by_proofs
    cdef readonly long nodes
    cdef long node_limit, next_check
    cdef bint aborted
    cdef double started, hard_s
    cdef object stop
    cdef unsigned long long black_key, white_key
    cdef public int root_vcf_nodes, root_vcf_fours, root_vct_nodes, root_vct_threats
    cdef public int defence_vcf_nodes, defence_vct_nodes, defence_probe_max, verify_nodes
    cdef readonly bint threatened
    cdef int[::1] root_moves
    cdef readonly int root_count
    cdef int proof_count, proof_threats
    cdef unsigned long long proof_key
    cdef int vct_threats, vcf_fours
    cdef int instant_score
    cdef readonly object last_reason

    cdef void _bind(self, Board board)
    @cython.locals(found=bint)
    cdef bint _vct(self, int horizon, long max_nodes, double deadline, int first_threats)
    cdef list _vct_line(self)
    cdef void _check_limits(self)
    cdef unsigned long long _key(self) noexcept
    @cython.locals(me=int, opp=int, five=int, block=int, four=int, n=int)
    cdef int _instant_answer(self) noexcept
    @cython.locals(share=long, found=bint, win_threats=int, vcf_nodes=long, vct_nodes=long, vcf_deadline=double, vct_deadline=double,
                   defence_s=double, defence_nodes=long)
    cdef tuple _threat_phase(self, int max_depth, double soft_s, double hard_ms, bint converting)
    cdef long _node_mark(self, double share)
    cdef void _remember_proof(self, int move, int threats)
    @cython.locals(found=bint, last=int)
    cdef bint _continues_proof(self)
    @cython.locals(me=int, threatened=bint, n=int, kept=int, survivors=int, i=int, move=int, probe_vcf=long, probe_vct=long, horizon=int, budget=long)
    cdef void _restrict_to_defences(self, double threat_deadline, double deadline, long threat_nodes, long node_budget_end)
    @cython.locals(n=int, i=int)
    cdef bint _exclude_root(self, int move)
    @cython.locals(best=int, best_score=int, score=int, i=int)
    cdef int _best_ordered_root(self)
    cdef bint _refuted(self, int move, double deadline, long node_end)
    @cython.locals(refuted=bint)
    cdef bint _loses_after(self, int move, int vcf_fours, int vct_threats, long probe_nodes, double deadline, long node_budget_end)
