"""What the root knows from threats: the instant answers, the root's own VCF / VCT, the opponent's threats and the
defence filter they call for, and the memory of a win proven on the last move.

RootThreats is the base class of search.Searcher. It holds what every phase of a think shares: the board, its move
generator and threat solver, the node count and limits, and the root move list the main search starts from. A base
class rather than a member so that the main search reads the node count, the abort flag and the root moves as its
own fields: nothing is copied between the phases or added to the hot loop.
"""
from __future__ import annotations

import time
from array import array

import cython

from pbrain import params
from pbrain.core.board import Board
from pbrain.search.dfpn import ProofSolver
from pbrain.search.movegen import MoveGen
from pbrain.search.threats import SIDE_KEYS, ThreatSolver

if not cython.compiled:
    from pbrain.core.board import BLACK, P4_FIVE, P4_FLEX4  # noqa: F401
    from pbrain.search.movegen import MAX_MOVES  # noqa: F401

    WIN = 30000
    CHECK_EVERY = 1024

COMPILED = cython.compiled
assert params.WIN == 30000


class RootThreats:
    """The root of a think: its board, limits and root moves, and what threat searches there found."""

    def __init__(self, board: Board) -> None:
        self.root_moves = array("i", [0]) * MAX_MOVES
        self._bind(board)
        self.black_key = SIDE_KEYS[1]
        self.white_key = SIDE_KEYS[2]
        self.nodes = 0
        self.node_limit = 0
        self.aborted = False
        self.started = 0.0
        self.hard_s = 0.0
        self.stop = None
        self.root_vcf_nodes = params.ROOT_VCF_NODES
        self.root_vcf_fours = params.ROOT_VCF_FOURS
        self.root_vct_nodes = params.ROOT_VCT_NODES
        self.root_vct_threats = params.ROOT_VCT_THREATS
        self.defence_vcf_nodes = params.DEFENCE_VCF_NODES
        self.defence_vct_nodes = params.DEFENCE_VCT_NODES
        self.defence_probe_max = params.DEFENCE_PROBE_MAX_NODES
        self.verify_nodes = params.VERIFY_NODES
        self.threatened = False
        self.root_count = 0
        self.next_check = 0
        self.proof_key = 0
        self.proof_count = -1
        self.proof_threats = 0
        self.vct_by_proofs = False
        self.instant_score = 0
        self.last_reason = "search"

    def _bind(self, board: Board) -> None:
        """Work on `board` from now on: a new threat solver, and a move generator with a buffer for every ply of
        the main search (params.MAX_PLY), and a proof-number VCT on that solver."""
        self.board = board
        self.gen = MoveGen(board, params.MAX_PLY + 1)
        self.threats = ThreatSolver(board)
        self.proofs = ProofSolver(self.threats)

    def _vct(self, horizon: int, max_nodes: int, deadline: float, first_threats: int) -> bool:
        """VCT for the side to move: by proof numbers (no horizon, its table kept for the game) when `horizon` is
        the root's full one, else the threat solver's within `horizon` threats (a depth-capped level). Adds the
        nodes; the first move is in vct_line()."""
        self.vct_by_proofs = horizon >= self.root_vct_threats
        if self.vct_by_proofs:
            found = self.proofs.prove(max_nodes, deadline)
            self.nodes += self.proofs.nodes
        else:
            found = self.threats.vct(horizon, max_nodes, deadline, first_threats)
            self.nodes += self.threats.nodes
        return found

    def _vct_line(self) -> list:
        """The winning line of the last `_vct` that found one."""
        return self.proofs.winning_line() if self.vct_by_proofs else self.threats.winning_line()

    # --- the think's limits -------------------------------------------------------------------------------------
    def _check_limits(self) -> None:
        """Set `aborted` when the node limit, the hard deadline or the stop flag says so; the next check comes
        CHECK_EVERY nodes later (a counter, not a mask: threat searches add their nodes in bulk)."""
        self.next_check = self.nodes + CHECK_EVERY
        if self.nodes >= self.node_limit:
            self.aborted = True
        elif time.perf_counter() - self.started >= self.hard_s:
            self.aborted = True
        elif self.stop is not None and self.stop.is_set():
            self.aborted = True

    def _key(self) -> int:
        return self.board.hash ^ (self.black_key if self.board.side == BLACK else self.white_key)

    # --- answers without a search -------------------------------------------------------------------------------
    def _instant_answer(self) -> int:
        """The move when the root has only one sensible one: a five now, the block of the opponent's five, an
        open four. Sets instant_score; -1 when the position needs a search."""
        board = self.board
        gen = self.gen
        me = board.side
        opp = 3 - me
        five = gen.any_five_point(me)
        if five >= 0:
            self.instant_score = WIN - 1
            self.last_reason = "win"
            return five
        block = gen.any_five_point(opp)
        if block >= 0:
            self.instant_score = -(WIN - 2) if board.p4count[16 * (opp - 1) + P4_FIVE] > 1 else 0
            if gen.legal(block, me):
                self.last_reason = "defend"
                return block
        if block >= 0:  # renju black cannot block: every move loses; let the search pick one
            return -1
        if board.p4count[16 * (me - 1) + P4_FLEX4] > 0:
            four = gen.legal_point_of_class(me, P4_FLEX4)
            if four >= 0:
                self.instant_score = WIN - 3
                self.last_reason = "vcf"
                return four
        if gen.has_flex4(opp):
            n = gen.gen_defences(0, me)
            if n == 1:
                self.instant_score = 0
                self.last_reason = "defend"
                return gen.moves[0]
        return -1

    # --- the root threat phase ----------------------------------------------------------------------------------
    def _threat_phase(self, max_depth: int, soft_s: float, hard_ms: float, converting: bool) -> tuple:
        """The threat searches before the main search (the rules are `think`'s): the root's own VCF, then its
        VCT; a win found is remembered and returned as think's answer. Otherwise the defence filter, and None:
        the main search goes on from the root moves and the horizons (vcf_fours, vct_threats) set here.
        `converting`: this position continues the last think's proof."""
        threats = self.threats
        self.root_count = 0
        self.threatened = False
        # A depth limit is a horizon for everything: at most max_depth attacking moves in any threat search.
        self.vcf_fours = min(self.root_vcf_fours, max_depth)
        self.vct_threats = min(self.root_vct_threats, max_depth)
        if max_depth > 0 and hard_ms > 0:
            # The phases end at marks counted from the start, in time (shares of the soft time) and in nodes (the
            # same shares of a node limit; params.ROOT_VCF_SHARE and after): the look at the opponent's VCT ends
            # before the own VCT's mark, the rest rise; the main search has what is left. Re-proving a win found on
            # the last move may take most of the hard time.
            vcf_nodes = min(self.root_vcf_nodes, self._node_mark(params.ROOT_VCF_SHARE))
            vcf_deadline = self.started + soft_s * params.ROOT_VCF_SHARE
            vct_deadline = self.started + soft_s * params.ROOT_VCT_SHARE
            if converting:
                share = self._node_mark(params.CONVERT_SHARE)
                vcf_nodes = share
                vcf_deadline = self.started + self.hard_s * params.CONVERT_SHARE
                vct_deadline = vcf_deadline
            found = threats.vcf(self.vcf_fours, vcf_nodes, vcf_deadline)
            self.nodes += threats.nodes
            if found:
                line = threats.winning_line()
                self.last_reason = "vcf"
                self._remember_proof(line[0], 0)
                return line[0], WIN - threats.win_plies, 0, self.nodes, line
            self._check_limits()
            if not self.aborted:
                # A re-proof starts one threat short of the old proof's horizon (the opponent has answered one).
                vct_nodes = share if converting else max(0, min(self.root_vct_nodes,
                                                                self._node_mark(params.ROOT_VCT_SHARE) - self.nodes))
                found = self._vct(self.vct_threats, vct_nodes, vct_deadline,
                                  max(2, self.proof_threats - 1) if converting else 2)
                if found:
                    line = self._vct_line()
                    self.last_reason = "vct"
                    win_threats = threats.win_threats if not self.vct_by_proofs else (len(line) + 1) // 2
                    self._remember_proof(line[0], win_threats)
                    return line[0], WIN - 2 * win_threats - 1, 0, self.nodes, line if self.vct_by_proofs else [line[0]]
                self._check_limits()
            if not self.aborted:
                defence_s = max(soft_s * params.ROOT_DEFENCE_SHARE,
                                min(params.ROOT_DEFENCE_FLOOR_MS / 1000.0, soft_s * params.ROOT_DEFENCE_FLOOR_SHARE))
                defence_nodes = max(self._node_mark(params.ROOT_DEFENCE_SHARE),
                                    min(params.ROOT_DEFENCE_FLOOR_NODES,
                                        self._node_mark(params.ROOT_DEFENCE_FLOOR_SHARE)))
                self._restrict_to_defences(self.started + soft_s * params.ROOT_THREAT_SHARE,
                                           self.started + defence_s,
                                           max(0, min(self.root_vct_nodes,
                                                      self._node_mark(params.ROOT_THREAT_SHARE) - self.nodes)),
                                           defence_nodes)
        return None

    def _node_mark(self, share: float) -> int:
        """The node count by which a root phase ending at `share` of the think must end (`share` of the node
        limit; with no node limit, beyond reach)."""
        return int(self.node_limit * share)

    # --- the proof memory ---------------------------------------------------------------------------------------
    def _remember_proof(self, move: int, threats: int) -> None:
        """The root threat search proved a win starting with `move` (by VCT within `threats` threats, or by VCF
        when 0): remember the position after it, so the next think (after the opponent's answer) knows a win is
        there to re-prove, and how deep."""
        self.proof_threats = threats
        board = self.board
        board.make(move)
        self.proof_key = self._key()
        self.proof_count = board.move_count
        board.unmake()

    def _continues_proof(self) -> bool:
        """Is this position the one the last think proved won, plus one opponent move? Forgets the proof."""
        board = self.board
        found = False
        if self.proof_count >= 0 and board.move_count == self.proof_count + 1:
            last = board.last_move()
            board.unmake()
            found = self._key() == self.proof_key
            board.make(last)
        self.proof_count = -1
        return found

    # --- the defence filter -------------------------------------------------------------------------------------
    def _restrict_to_defences(self, threat_deadline: float, deadline: float, threat_nodes: int,
                              node_budget_end: int) -> None:
        """If the opponent would win by VCF (or else by VCT) were it to move (its VCF looked for with at least a
        defence probe's budget until `deadline`, its VCT with `threat_nodes` until `threat_deadline`: when the own
        VCT ran past that mark, a quick look), keep only the root moves after which it provably cannot: first the
        moves that stop its VCF, then among those the ones that stop its VCT too, so the main search chooses among
        real defences.
        The VCT probes run in passes of growing budget over the moves still standing. When every move loses to
        the full threat, the horizon is halved until some moves survive: they at least postpone the loss. Moves
        not examined before `deadline` or before the node count reaches `node_budget_end` stay in."""
        board = self.board
        gen = self.gen
        threats = self.threats
        me = board.side
        board.set_side(3 - me)
        probe_vcf = min(self.defence_vcf_nodes, max(0, node_budget_end - self.nodes) // 8)
        probe_vct = min(self.defence_vct_nodes, max(0, node_budget_end - self.nodes) // 8)
        threatened = threats.vcf(self.vcf_fours, max(self.defence_vcf_nodes, threat_nodes), deadline)
        self.nodes += threats.nodes
        if not threatened:
            threatened = self._vct(self.vct_threats, max(probe_vct, threat_nodes), threat_deadline, 2)
        board.set_side(me)
        self._check_limits()
        self.threatened = threatened
        if not threatened or self.aborted:
            return
        n = gen.gen_all(0, me)
        gen.sort(0, n)  # the likeliest defences first: moves left unexamined at the deadline stay in
        survivors = 0
        horizon = self.vcf_fours
        while survivors == 0 and horizon >= 1:  # the moves that stop the VCF (all when there is none)
            for i in range(n):
                move = gen.moves[i]
                if not self._loses_after(move, horizon, 0, probe_vcf, deadline, node_budget_end):
                    self.root_moves[survivors] = move
                    survivors += 1
            horizon //= 2
        if survivors == 0:
            return
        self.root_count = survivors
        # Of those, the moves that stop the VCT too: a pass over the survivors with a small probe each, then
        # passes with DEFENCE_PROBE_GROWTH times the budget over the moves still standing, while time is left
        # (a wrong move is often refuted only by a deeper probe). A pass that refutes every move keeps the last
        # pass's survivors, except the first, which halves the horizon instead: those moves at least postpone the
        # loss. gen.moves[0..] is free scratch now.
        horizon = self.vct_threats
        budget = probe_vct
        while budget > 0 and horizon >= 1 and time.perf_counter() < deadline and not self.aborted:
            kept = 0
            for i in range(self.root_count):
                move = self.root_moves[i]
                if not self._loses_after(move, 0, horizon, budget, deadline, node_budget_end):
                    gen.moves[kept] = move
                    kept += 1
            if kept == 0:
                if budget > probe_vct:
                    return
                horizon //= 2
                continue
            for i in range(kept):
                self.root_moves[i] = gen.moves[i]
            if kept == self.root_count and budget > probe_vct:
                return  # a deeper probe refuted nothing more
            self.root_count = kept
            if kept == 1 or budget >= self.defence_probe_max:
                return
            budget *= params.DEFENCE_PROBE_GROWTH

    # --- the root move list -------------------------------------------------------------------------------------
    def _exclude_root(self, move: int) -> bool:
        """Take `move` out of the root moves (all legal moves when the root was not restricted); False, and
        nothing changed, when it is the last one."""
        gen = self.gen
        if self.root_count == 0:
            n = gen.gen_all(0, self.board.side)
            for i in range(n):
                self.root_moves[i] = gen.moves[i]
            self.root_count = n
        if self.root_count <= 1:
            return False
        for i in range(self.root_count):
            if self.root_moves[i] == move:
                self.root_count -= 1
                self.root_moves[i] = self.root_moves[self.root_count]
                return True
        return False

    def _best_ordered_root(self) -> int:
        """The root move with the best static ordering score (a stand-in until the search says better)."""
        best = self.root_moves[0]
        best_score = self.gen.order_score(best, self.board.side)
        for i in range(1, self.root_count):
            score = self.gen.order_score(self.root_moves[i], self.board.side)
            if score > best_score:
                best = self.root_moves[i]
                best_score = score
        return best

    # --- probes of a chosen move ------------------------------------------------------------------------------
    def _refuted(self, move: int, deadline: float, node_end: int) -> bool:
        """The opponent has a threat and the main search chose `move`: does a probe (verify_nodes at most, until
        `deadline` and the node count `node_end`) prove that the opponent wins after it?"""
        return self._loses_after(move, self.vcf_fours, self.vct_threats, self.verify_nodes, deadline,
                                 min(node_end, self.node_limit))

    def _loses_after(self, move: int, vcf_fours: int, vct_threats: int, probe_nodes: int, deadline: float,
                     node_budget_end: int) -> bool:
        """After `move`, does the opponent provably win by VCF within `vcf_fours` fours or by VCT within
        `vct_threats` threats (0: not tried)? True when it leaves the opponent a five; False when the budget or
        the deadline is spent, or when the move makes a four (it keeps the initiative). A probe never runs past
        `node_budget_end`."""
        board = self.board
        threats = self.threats
        if self.nodes >= node_budget_end or time.perf_counter() >= deadline:
            return False
        probe_nodes = min(probe_nodes, node_budget_end - self.nodes)
        self._check_limits()
        if self.aborted:
            return False
        board.make(move)
        refuted = board.p4count[16 * (board.side - 1) + P4_FIVE] > 0  # the opponent's five was left open
        if not refuted and board.p4count[16 * (2 - board.side) + P4_FIVE] == 0:
            if vcf_fours > 0:
                refuted = threats.vcf(vcf_fours, probe_nodes, deadline)
                self.nodes += threats.nodes
            if vct_threats > 0 and not refuted:
                refuted = self._vct(vct_threats, probe_nodes, deadline, 2)
        board.unmake()
        return refuted
