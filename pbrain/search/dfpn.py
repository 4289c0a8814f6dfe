"""Proof-number VCT: depth-first proof-number search (df-pn) over the threat solver's moves.

The game model of ThreatSolver.vct (the attacker plays fours and open threes, the defender every defence
`MoveGen.gen_defences` knows; a counter-four and the attacker's forced block are one move, so a counter-VCF is a
line of such moves), searched best-first by proof and disproof numbers instead of to a threat horizon: narrow
lines (a four, a three with few answers) are followed as deep as they go, so wins of ten and more threats are
found in the nodes a horizon search spends on eight. Positions never repeat in gomoku (stones are only added), so
the table is a true graph memory; its proofs and disproofs hold for the rest of the game and are kept between
searches (cleared with the searcher's tables: a new game, another rule).

Contract of `prove`: called with the attacker to move, True only for a win proved within the limits (the first
move is winning_line()[0]); False when none was found (limits, a stop, or disproved in the model: then
`disproved` is True). The board is unchanged afterwards.
"""
from __future__ import annotations

import time
from array import array

import cython

from pbrain.search.threats import SIDE_KEYS, ThreatSolver

if not cython.compiled:
    from pbrain.core.board import (  # noqa: F401
        P4_BLOCK4,
        P4_BLOCK4_FLEX3,
        P4_BLOCK4_PLUS,
        P4_FIVE,
        P4_FLEX3,
        P4_FLEX3_2X,
        P4_FLEX3_PLUS,
        P4_FLEX4,
        P4_MASK,
        cell_class,
    )
    from pbrain.search.movegen import MAX_MOVES  # noqa: F401
    from pbrain.search.threats import MAX_THREAT_PLY  # noqa: F401

    INF = 1 << 28
    TABLE_BITS = 18
    MAX_LINE = 64

COMPILED = cython.compiled
ATTACKER_KEYS = (0, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1)
"""Mixed into every key: a position's numbers belong to one attacker (the same stones with the same side to move
are an attack node for one colour and a defence node for the other)."""


def threat_pn(made: int) -> int:
    """The first guess of an attacking move's proof number by the threat class it makes: a double three, a
    four-three or an open four win almost at once (1); a four with a three or a two behind it (2); an open three
    with more behind it (3); a bare four, which spends a threat for one forced reply (4); a bare open three, which
    has several answers (6). Measured: 2.9x fewer nodes (geometric mean) to prove 125 wins that PentaZen found
    against Pentad, than 1 for a four and 2 for a three; disproofs cost the same."""
    if made == P4_FLEX3_2X or made >= P4_BLOCK4_FLEX3:
        return 1
    if made == P4_BLOCK4_PLUS:
        return 2
    if made == P4_FLEX3_PLUS:
        return 3
    if made == P4_BLOCK4:
        return 4
    return 6


class ProofSolver:
    """df-pn VCT on a ThreatSolver's board and move generator (its buffers are shared: one search at a time);
    a table of proof / disproof numbers."""

    def __init__(self, threats: ThreatSolver) -> None:
        self._bind(threats)
        size = 1 << TABLE_BITS
        self.keys = array("Q", [0]) * size
        self.pn = array("i", [0]) * size
        self.dn = array("i", [0]) * size
        self.work = array("i", [0]) * size
        self.child_keys = array("Q", [0]) * (MAX_THREAT_PLY * MAX_MOVES)
        self.child_counter = array("i", [0]) * (MAX_THREAT_PLY * MAX_MOVES)
        self.child_pn = array("i", [0]) * (MAX_THREAT_PLY * MAX_MOVES)
        self.child_dn = array("i", [0]) * (MAX_THREAT_PLY * MAX_MOVES)
        self.line = array("i", [0]) * MAX_LINE
        self.line_length = 0
        self.nodes = 0
        self.node_limit = 0
        self.next_check = 0
        self.deadline = 0.0
        self.aborted = False
        self.disproved = False
        """The last prove() showed that the attacker has no win in the model (not merely none found)."""
        self.attacker_key = 0
        self.side_flip = SIDE_KEYS[1] ^ SIDE_KEYS[2]
        self.stop = None
        """Anything with is_set(), looked at with the deadline every 1024 nodes."""

    def _bind(self, threats: ThreatSolver) -> None:
        """Work with `threats`: its board, its move generator's buffers and its threat moves."""
        self.threats = threats
        self.board = threats.board
        self.gen = threats.gen

    def clear(self) -> None:
        """Forget every position (another game, another rule)."""
        for i in range(1 << TABLE_BITS):
            self.keys[i] = 0
            self.pn[i] = 0
            self.dn[i] = 0
            self.work[i] = 0

    def winning_line(self) -> list:
        """The last proven win: the attacker's first move, then one defence and the attack after it, and so on
        (as far as the table still holds the proof)."""
        return [self.line[i] for i in range(self.line_length)]

    def prove(self, max_nodes: int, deadline: float = 0.0) -> bool:
        """Does the side to move win by continuous threats (within `max_nodes` nodes, before time.perf_counter()
        reaches `deadline` when it is not 0)? `nodes` is what it cost; the table is kept for the next call."""
        board = self.board
        self.nodes = 0
        self.node_limit = max_nodes
        self.next_check = 1024
        self.deadline = deadline
        self.aborted = False
        self.line_length = 0
        self.disproved = False
        self.attacker_key = ATTACKER_KEYS[board.side]
        key = self._key()
        self._mid(key, True, 0, INF, INF)
        slot = self._find(key)
        if slot >= 0 and self.dn[slot] == 0:
            self.disproved = True
        if slot < 0 or self.pn[slot] != 0:
            return False
        self._extract_line()
        return self.line_length > 0

    # --- the table ----------------------------------------------------------------------------------------------
    def _key(self) -> int:
        """The threat solver's position key, mixed with the attacker's."""
        return self.threats._key() ^ self.attacker_key

    def _find(self, key: int) -> int:
        """The slot holding `key`, or -1 (a bucket is two slots)."""
        slot = key & ((1 << TABLE_BITS) - 2)
        if self.keys[slot] == key:
            return slot
        if self.keys[slot + 1] == key:
            return slot + 1
        return -1

    def _store(self, key: int, pn: int, dn: int, work: int) -> None:
        """Keep `key`'s numbers: in its own slot, or over the bucket's entry with less work under it."""
        slot = key & ((1 << TABLE_BITS) - 2)
        if self.keys[slot] != key:
            if self.keys[slot + 1] == key or self.work[slot + 1] <= self.work[slot]:
                slot += 1
        self.keys[slot] = key
        self.pn[slot] = pn
        self.dn[slot] = dn
        self.work[slot] = work

    # --- the search ---------------------------------------------------------------------------------------------
    def _mid(self, key: int, attacking: bool, ply: int, th_pn: int, th_dn: int) -> None:
        """Search the position (attacker to move when `attacking`) until its proof number reaches th_pn or its
        disproof number th_dn, or the limits; its numbers are in the table afterwards."""
        self.nodes += 1
        start = self.nodes
        if self.nodes >= self.next_check:
            self._check_limits()
        if attacking:
            n = self._expand_attack(ply)
        else:
            n = self._expand_defence(ply)
        if n < 0:  # -1: proven, -2: disproven
            if n == -1:
                self._store(key, 0, INF, 1)
            else:
                self._store(key, INF, 0, 1)
            return
        base = ply * MAX_MOVES
        gen = self.gen
        board = self.board
        # The children's numbers (the expansion's guesses) replaced by the table's where it has them, read once;
        # after that only the child just searched changes (a transposition updated elsewhere meanwhile is seen on
        # the next visit).
        for i in range(n):
            child = self._find(self.child_keys[base + i])
            if child >= 0:
                self.child_pn[base + i] = self.pn[child]
                self.child_dn[base + i] = self.dn[child]
        pn = 1
        dn = 1
        while True:
            # This node's numbers from its children's, and the child to search next.
            best = -1
            best_value = INF + 1
            second = INF
            best_pn = 0
            best_dn = 0
            total = 0
            for i in range(n):
                cpn = self.child_pn[base + i]
                cdn = self.child_dn[base + i]
                # OR node: minimise the proof number, sum the disproof numbers; AND node the other way round.
                # A counter-four child is a defence node again; its numbers are already the attacker's.
                if attacking:
                    value = cpn
                    total += cdn
                else:
                    value = cdn
                    total += cpn
                if total > INF:
                    total = INF
                if value < best_value:
                    second = best_value
                    best_value = value
                    best = i
                    best_pn = cpn
                    best_dn = cdn
                elif value < second:
                    second = value
            if attacking:
                pn = best_value
                dn = total
            else:
                pn = total
                dn = best_value
            if pn >= th_pn or dn >= th_dn or self.aborted:
                break
            if second > INF:
                second = INF
            grow = second + (second >> 2) + 1
            if attacking:
                child_th_pn = th_pn if th_pn < grow else grow
                child_th_dn = th_dn - dn + best_dn
                if child_th_dn > INF:
                    child_th_dn = INF
                child_attacking = False
            else:
                child_th_dn = th_dn if th_dn < grow else grow
                child_th_pn = th_pn - pn + best_pn
                if child_th_pn > INF:
                    child_th_pn = INF
                child_attacking = True
            move = gen.moves[base + best]
            counter = self.child_counter[base + best]
            board.make(move)
            if counter >= 0:
                board.make(counter)
                self._mid(self.child_keys[base + best], False, ply + 2, child_th_pn, child_th_dn)
                board.unmake()
            else:
                self._mid(self.child_keys[base + best], child_attacking, ply + 1, child_th_pn, child_th_dn)
            board.unmake()
            child = self._find(self.child_keys[base + best])
            if child >= 0:
                self.child_pn[base + best] = self.pn[child]
                self.child_dn[base + best] = self.dn[child]
        self._store(key, pn, dn, self.nodes - start + 1)

    def _check_limits(self) -> None:
        """Set `aborted` when the node budget, the deadline or the stop flag says so."""
        self.next_check = self.nodes + 1024
        if self.nodes >= self.node_limit:
            self.aborted = True
        elif self.deadline > 0.0 and time.perf_counter() >= self.deadline:
            self.aborted = True
        elif self.stop is not None and self.stop.is_set():
            self.aborted = True

    def _expand_attack(self, ply: int) -> int:
        """An attack node: -1 won, -2 lost, else the number of threats at this ply, with their child keys and
        first guesses of their numbers."""
        board = self.board
        gen = self.gen
        me = board.side
        opp = 3 - me
        if board.p4count[16 * (me - 1) + P4_FIVE] > 0:
            return -1
        opp_fives = board.p4count[16 * (opp - 1) + P4_FIVE]
        if opp_fives > 1:
            return -2
        base = ply * MAX_MOVES
        if ply + 6 >= MAX_THREAT_PLY:
            return -2
        if opp_fives == 1:
            block = gen.any_five_point(opp)
            cls = cell_class(board, block, me)
            if cls < P4_FLEX3 or cls == P4_FIVE or not gen.legal(block, me):
                return -2  # the block must keep the initiative
            gen.moves[base] = block
            n = 1
        else:
            if board.p4count[16 * (me - 1) + P4_FLEX4] > 0 and gen.legal_point_of_class(me, P4_FLEX4) >= 0:
                return -1
            n = self.threats._gen_threats(ply, me)
            if n == 0:
                return -2
        key = self._key() ^ self.side_flip
        for i in range(n):
            move = gen.moves[base + i]
            self.child_keys[base + i] = key ^ board.zobrist[2 * move + me - 1]
            self.child_counter[base + i] = -1
            self.child_pn[base + i] = threat_pn(cell_class(board, move, me))
            self.child_dn[base + i] = 1
        return n

    def _expand_defence(self, ply: int) -> int:
        """A defence node (the defender to move after a threat): -1 won for the attacker, -2 lost, else the
        number of defences at this ply (a counter-four with the attacker's forced block as one child), with their
        child keys and first guesses of their numbers."""
        board = self.board
        gen = self.gen
        me = board.side
        opp = 3 - me
        if board.p4count[16 * (me - 1) + P4_FIVE] > 0:
            return -2  # the defender wins first
        attacker_fives = board.p4count[16 * (opp - 1) + P4_FIVE]
        if attacker_fives > 1:
            return -1
        base = ply * MAX_MOVES
        if ply + 6 >= MAX_THREAT_PLY:
            return -2
        if attacker_fives == 1:
            block = gen.any_five_point(opp)
            if not gen.legal(block, me):
                return -1
            gen.moves[base] = block
            n = 1
        else:
            if not gen.has_flex4(opp):
                return -2  # no threat after all
            n = gen.gen_defences(ply, me)
            if n == 0:
                return -1
        key = self._key() ^ self.side_flip
        for i in range(n):
            move = gen.moves[base + i]
            counter = -1
            if cell_class(board, move, me) >= P4_BLOCK4:
                counter = gen.five_after(me, move)
            if counter >= 0:
                if not gen.legal(counter, opp):
                    return -2  # a counter-four the attacker may not block
                self.child_keys[base + i] = (key ^ self.side_flip ^ board.zobrist[2 * move + me - 1]
                                             ^ board.zobrist[2 * counter + opp - 1])
            else:
                self.child_keys[base + i] = key ^ board.zobrist[2 * move + me - 1]
            self.child_counter[base + i] = counter
            self.child_pn[base + i] = 1
            self.child_dn[base + i] = 1
        return n

    # --- the proof ---------------------------------------------------------------------------------------------
    def _extract_line(self) -> None:
        """Follow the proof from the root: a five, an open four, a proven threat, and after each the defence with
        the most work under it."""
        board = self.board
        gen = self.gen
        attacking = True
        ply = 0
        self.line_length = 0
        while self.line_length + 2 < MAX_LINE:
            me = board.side
            if attacking:
                if board.p4count[16 * (me - 1) + P4_FIVE] > 0:
                    self.line[self.line_length] = gen.any_five_point(me)
                    self.line_length += 1
                    break
                if board.p4count[16 * (2 - me) + P4_FIVE] == 0 and board.p4count[16 * (me - 1) + P4_FLEX4] > 0:
                    four = gen.legal_point_of_class(me, P4_FLEX4)
                    if four >= 0:
                        self.line[self.line_length] = four
                        self.line_length += 1
                        break
                n = self._expand_attack(ply)
            else:
                n = self._expand_defence(ply)
            if n < 0:
                break
            base = ply * MAX_MOVES
            pick = -1
            most = -1
            for i in range(n):
                child = self._find(self.child_keys[base + i])
                if child < 0 or self.pn[child] != 0:
                    continue
                if attacking:
                    if pick < 0 or self.work[child] < most:
                        pick = i
                        most = self.work[child]
                elif self.work[child] > most:
                    pick = i
                    most = self.work[child]
            if pick < 0:
                break
            move = gen.moves[base + pick]
            counter = self.child_counter[base + pick]
            self.line[self.line_length] = move
            self.line_length += 1
            board.make(move)
            ply += 1
            if counter >= 0:
                self.line[self.line_length] = counter
                self.line_length += 1
                board.make(counter)
                ply += 1
            else:
                attacking = not attacking
        for i in range(ply):  # one stone a ply
            board.unmake()
