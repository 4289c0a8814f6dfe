"""Threat-space search: VCF (victory by continuous fours) and VCT (fours and open threes).

Contract of both solvers: called with the attacker to move, they answer True only for a forced win the search
proved within its limits (the winning line is left in `line[0:line_length]`), and False when none was found;
False is not a proof that none exists (limits, aborts). The board is unchanged afterwards.
"""
from __future__ import annotations

import time
from array import array

import cython

from pbrain.core.board import Board
from pbrain.search.movegen import MoveGen

if not cython.compiled:
    from pbrain.core.board import (  # noqa: F401  # noqa: F401
        BLACK,
        EMPTY,
        P4_BLOCK4,
        P4_BLOCK4_PLUS,
        P4_FIVE,
        P4_FLEX3,
        P4_FLEX3_2X,
        P4_FLEX4,
        P4_MASK,
        cell_class,
    )
    from pbrain.search.movegen import MAX_MOVES  # noqa: F401

    MAX_THREAT_PLY = 128
    TT_BITS = 18
    VCT_TABLE = 1 << TT_BITS
    NEAR_BITS = 16
    VCF_INSIDE_VCT = 10

COMPILED = cython.compiled
SIDE_KEYS = (0, 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F)
"""Zobrist keys of the side to move (index: colour), mixed into the board hash by every table keyed on positions."""


class ThreatSolver:
    """VCF / VCT solver with its own move buffers and a small transposition table of refuted positions."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.gen = MoveGen(board, MAX_THREAT_PLY)
        self.line = array("i", [0]) * MAX_THREAT_PLY
        self.line_length = 0
        self.win_plies = 0
        self.win_threats = 0
        # Refuted positions: VCF entries in the first half, VCT entries (table VCT_TABLE) in the second.
        self.tt_keys = array("Q", [0]) * (2 << TT_BITS)
        self.tt_depth = array("i", [0]) * (2 << TT_BITS)
        # Proven VCT attack nodes and the move that won there: met again, they end the search (the next move's
        # re-proof follows the old proof instead of searching it anew).
        self.win_keys = array("Q", [0]) * (1 << TT_BITS)
        self.win_moves = array("i", [0]) * (1 << TT_BITS)
        self.nodes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.black_key = SIDE_KEYS[1]
        self.white_key = SIDE_KEYS[2]
        self.width = 0
        """0: every four is tried (vcf); otherwise the narrow VCF of vcf_near."""
        # vcf_near's answers by position (win_plies, 0 for none), for the limits in near_limits.
        self.near_keys = array("Q", [0]) * (1 << NEAR_BITS)
        self.near_plies = array("i", [0]) * (1 << NEAR_BITS)
        self.near_limits = array("l", [0, 0, 0])
        self.stop = None
        """Anything with is_set() (the searcher's stop flag), looked at with the deadline every 1024 nodes."""

    def clear(self) -> None:
        """Forget refuted positions (their keys may belong to another game)."""
        for i in range(2 << TT_BITS):
            self.tt_keys[i] = 0
            self.tt_depth[i] = 0
        for i in range(1 << TT_BITS):
            self.win_keys[i] = 0
            self.win_moves[i] = 0
        self._clear_near()

    def _clear_near(self) -> None:
        for i in range(1 << NEAR_BITS):
            self.near_keys[i] = 0
            self.near_plies[i] = 0

    def winning_line(self) -> list:
        """Cells of the last proven win, attacker's and defender's moves alternating."""
        return [self.line[i] for i in range(self.line_length)]

    # --- VCF ----------------------------------------------------------------------------------------------------
    def vcf(self, max_fours: int, max_nodes: int, deadline: float = 0.0) -> bool:
        """Does the side to move win by continuous fours (at most `max_fours` of its own moves, `max_nodes`
        nodes, until time.perf_counter() reaches `deadline` if it is not 0)? On True the line is in
        winning_line() and the winning stone comes `win_plies` plies from now."""
        self.nodes = 0
        self.node_limit = max_nodes
        self.deadline = deadline
        self.line_length = 0
        return self._vcf(max_fours, 0)

    def vcf_near(self, max_fours: int, max_nodes: int, width: int) -> bool:
        """vcf() narrowed for the main search's leaves: a first four that makes more than a plain closed four (one
        with a closed three or an open two beside it, a four-three, an open or double four: class BLOCK4_PLUS or
        better, as PentaZen's VCF root asks), then only the attacker's fours within 4 cells along a line of its last
        four, and of those the `width` best ordered. Its wins are proofs like vcf()'s; a failure proves less, so it
        is not remembered as a refutation. The answer is remembered instead, by position, for the same limits: a
        position met again (the main search's leaves transpose) gets it back at once, win_plies with it but not the
        line, and no nodes."""
        if self.near_limits[0] != max_fours or self.near_limits[1] != max_nodes or self.near_limits[2] != width:
            self._clear_near()
            self.near_limits[0] = max_fours
            self.near_limits[1] = max_nodes
            self.near_limits[2] = width
        key = self._key()
        slot = key & ((1 << NEAR_BITS) - 1)
        if self.near_keys[slot] == key:
            self.nodes = 0
            self.line_length = 0
            self.win_plies = self.near_plies[slot]
            return self.win_plies > 0
        self.width = width
        found = self.vcf(max_fours, max_nodes)
        self.width = 0
        if self.node_limit > 0:  # not interrupted by the stop flag: the answer stands for these limits
            self.near_keys[slot] = key
            self.near_plies[slot] = self.win_plies if found else 0
        return found

    def _interrupted(self) -> bool:
        """Is the deadline (when one is set) past, or the stop flag set?"""
        if self.deadline > 0.0 and time.perf_counter() >= self.deadline:
            return True
        return self.stop is not None and self.stop.is_set()

    def _key(self) -> int:
        board = self.board
        return board.hash ^ (self.black_key if board.side == BLACK else self.white_key)

    def _refuted(self, table: int, key: int, depth: int) -> bool:
        """Was this position shown to have no win within `depth` (or more) in `table` (0: VCF, VCT_TABLE)?"""
        slot = table + (key & ((1 << TT_BITS) - 1))
        return self.tt_keys[slot] == key and self.tt_depth[slot] >= depth

    def _store_refuted(self, table: int, key: int, depth: int) -> None:
        slot = table + (key & ((1 << TT_BITS) - 1))
        self.tt_keys[slot] = key
        self.tt_depth[slot] = depth

    def _vcf(self, depth: int, ply: int) -> bool:
        board = self.board
        gen = self.gen
        me = board.side
        opp = 3 - me
        self.nodes += 1
        five = gen.any_five_point(me)
        if five >= 0:
            self.line[ply] = five
            self.line_length = ply + 1
            self.win_plies = ply + 1
            return True
        if (self.nodes & 1023) == 0 and self._interrupted():
            self.node_limit = 0
        if self.nodes > self.node_limit or depth <= 0 or ply + 2 >= MAX_THREAT_PLY:
            return False
        base = ply * MAX_MOVES
        if board.p4count[16 * (opp - 1) + P4_FIVE] > 0:
            # The defender threatens five: the attacker must block, and only a blocking four keeps the attack on.
            if board.p4count[16 * (opp - 1) + P4_FIVE] > 1:
                return False
            block = gen.any_five_point(opp)
            cls = cell_class(board, block, me)
            if cls < P4_BLOCK4 or cls == P4_FIVE or not gen.legal(block, me):
                return False
            gen.moves[base] = block
            n = 1
        else:
            if self.width > 0 and ply > 0:  # narrow: the fours near the attacker's last four (before the block)
                n = gen.gen_fours_near(ply, me, board.moves[board.move_count - 2])
            else:  # the first four of a narrow VCF makes more than a plain four
                n = gen.gen_fours(ply, me, P4_BLOCK4_PLUS if self.width > 0 else P4_BLOCK4)
            if n == 0:
                return False
            gen.sort(ply, n)
            if self.width > 0 and ply > 0 and n > self.width:
                n = self.width
        key = self._key()
        if self._refuted(0, key, depth):
            return False
        for i in range(n):
            move = gen.moves[base + i]
            board.make(move)
            reply = gen.five_point(me, move)
            if reply < 0:  # not a four after all (cannot happen for four classes): skip
                board.unmake()
                continue
            if cell_class(board, move, me) == P4_FLEX4 or self._second_five(me, move, reply):
                board.unmake()
                self.line[ply] = move
                self.line_length = ply + 1
                self.win_plies = ply + 3
                return True
            if opp == BLACK and board.renju and board.is_forbidden(reply):
                board.unmake()
                self.line[ply] = move
                self.line[ply + 1] = reply
                self.line_length = ply + 2
                self.win_plies = ply + 3
                return True
            board.make(reply)
            won = self._vcf(depth - 1, ply + 2)
            board.unmake()
            board.unmake()
            if won:
                self.line[ply] = move
                self.line[ply + 1] = reply
                return True
        if self.nodes <= self.node_limit and self.width == 0:
            self._store_refuted(0, key, depth)
        return False

    # --- VCT ----------------------------------------------------------------------------------------------------
    def vct(self, max_threats: int, max_nodes: int, deadline: float = 0.0, first_threats: int = 2) -> bool:
        """Does the side to move win by continuous threats: fours and open threes, at most `max_threats` of its
        own moves, every defence tried (blocks of the three, counter-fours, a counter-VCF)? On True the first
        move is winning_line()[0]; the rest of the line is one defence per threat. Deepens by two threats at a
        time (2, 4, .. max_threats) within one node budget: a deep horizon first would spend the budget in long
        lines before trying the short ones; `first_threats` is the first horizon (a re-proof starts near the old
        proof's). win_threats is the horizon that found the win."""
        self.nodes = 0
        self.node_limit = max_nodes
        self.deadline = deadline
        self.win_plies = 0
        self.win_threats = 0
        threats = min(max(1, first_threats), max_threats)
        while True:
            self.line_length = 0
            if self._attack(threats, 0):
                if self.line_length == 0:
                    self.line_length = 1  # the defender had no defence at all after the first threat
                self.win_threats = threats
                return True
            if threats >= max_threats or self.nodes > self.node_limit:
                return False
            threats = min(threats + 2, max_threats)

    def _attack(self, depth: int, ply: int) -> bool:
        """VCT, attacker to move."""
        board = self.board
        gen = self.gen
        me = board.side
        opp = 3 - me
        self.nodes += 1
        if board.p4count[16 * (me - 1) + P4_FIVE] > 0:
            self.line[ply] = gen.any_five_point(me)
            self.line_length = ply + 1
            return True
        if (self.nodes & 1023) == 0 and self._interrupted():
            self.node_limit = 0
        if self.nodes > self.node_limit or ply + 4 >= MAX_THREAT_PLY:
            return False
        opp_fives = board.p4count[16 * (opp - 1) + P4_FIVE]
        if opp_fives > 1:
            return False
        base = ply * MAX_MOVES
        if opp_fives == 1:
            block = gen.any_five_point(opp)
            cls = cell_class(board, block, me)
            if cls < P4_FLEX3 or cls == P4_FIVE or not gen.legal(block, me):
                return False  # the block must keep the initiative
            gen.moves[base] = block
            n = 1
        else:
            if board.p4count[16 * (me - 1) + P4_FLEX4] > 0:
                four = gen.legal_point_of_class(me, P4_FLEX4)
                if four >= 0:
                    self.line[ply] = four
                    self.line_length = ply + 1
                    return True
            if depth <= 0:
                return self._vcf(VCF_INSIDE_VCT, ply)
            n = self._gen_threats(ply, me)
            if n == 0:
                return False
        key = self._key()
        slot = key & ((1 << TT_BITS) - 1)
        if self.win_keys[slot] == key and self._known_win(slot, base, n):
            # Proven before (another move order, an earlier horizon or the last think): a win is a win.
            self.line[ply] = self.win_moves[slot]
            self.line_length = ply + 1
            return True
        if self._refuted(VCT_TABLE, key, depth):
            return False
        for i in range(n):
            move = gen.moves[base + i]
            board.make(move)
            won = self._defend(depth - 1, ply + 1)
            board.unmake()
            if won:
                self.line[ply] = move
                self.win_keys[slot] = key
                self.win_moves[slot] = move
                return True
        if self.nodes <= self.node_limit:
            self._store_refuted(VCT_TABLE, key, depth)
        return False

    def _known_win(self, slot: int, base: int, n: int) -> bool:
        """Is the move that won this position before among the n threats at `base` (a key collision check)?"""
        gen = self.gen
        for i in range(n):
            if gen.moves[base + i] == self.win_moves[slot]:
                return True
        return False

    def _defend(self, depth: int, ply: int) -> bool:
        """VCT, defender to move after the attacker's threat: True when every defence still loses."""
        board = self.board
        gen = self.gen
        me = board.side
        opp = 3 - me
        self.nodes += 1
        if board.p4count[16 * (me - 1) + P4_FIVE] > 0:
            return False  # the defender wins first
        attacker_fives = board.p4count[16 * (opp - 1) + P4_FIVE]
        if attacker_fives > 1:
            self.line_length = ply
            return True
        if attacker_fives == 1:
            block = gen.any_five_point(opp)
            if not gen.legal(block, me):
                self.line[ply] = block
                self.line_length = ply + 1
                return True
            board.make(block)
            won = self._attack(depth, ply + 1)
            board.unmake()
            if won:
                self.line[ply] = block
            return won
        if self.nodes > self.node_limit or not gen.has_flex4(opp):
            return False  # out of budget, or the move was no threat after all
        if self._vcf(VCF_INSIDE_VCT, ply):
            return False  # the defender has a winning counter-attack
        base = ply * MAX_MOVES
        n = gen.gen_defences(ply, me)
        for i in range(n):
            move = gen.moves[base + i]
            board.make(move)
            counter = gen.five_point(me, move)
            if counter >= 0:
                # A counter-four: the attacker must block it, then the defender is to move again.
                if not gen.legal(counter, opp):
                    won = False
                else:
                    board.make(counter)
                    won = self._defend(depth, ply + 2)
                    board.unmake()
            else:
                won = self._attack(depth, ply + 1)
            board.unmake()
            if not won:
                return False
            if i == 0:
                self.line[ply] = move
        return True

    def _gen_threats(self, ply: int, me: int) -> int:
        """Attacker moves for VCT: fours first, then moves that make an open three (or better)."""
        n = self.gen.gen_classes(ply, me, P4_FLEX3, P4_FLEX4)
        self.gen.sort(ply, n)
        return n

    def _second_five(self, me: int, move: int, first: int) -> bool:
        """After `me` played `move`, is there a five point other than `first` (an open or double four)?"""
        board = self.board
        for d in range(4):
            off = board.dir_offset[d]
            for j in range(-4, 5):
                c = move + j * off
                if c != first and board.cells[c] == EMPTY and cell_class(board, c, me) == P4_FIVE:
                    return True
        return False
