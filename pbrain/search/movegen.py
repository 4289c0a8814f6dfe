"""Move generation: candidate cells, fours, defences against an open three, and move ordering scores.

A MoveGen owns preallocated buffers, one slice of MAX_MOVES per ply; nothing is allocated per node. Black's
forbidden points (renju) are never generated for black.
"""
from __future__ import annotations

from array import array

import cython

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.rules import Rule
from pbrain.search import order_weights

if not cython.compiled:
    from pbrain.core.board import BLACK, EMPTY, PAT_B4, PAT_F3  # noqa: F401

    MAX_MOVES = 1024
    P4_FORBID = 1
    P4_FLEX3_2X = 8
    P4_BLOCK4 = 9
    P4_BLOCK4_FLEX3 = 11
    P4_FLEX4 = 12
    P4_FIVE = 13
    P4_MASK = 15
    FLAG_DOUBLE_THREE = 16
    from pbrain.core.board import CLASS_SHIFT, cell_class  # noqa: F401
    PADDING = 5
    NUM_CODES = 2380

COMPILED = cython.compiled


def order_values(rule: Rule) -> "array[int]":
    """int32[2 colours x 2 roles x NUM_CODES]: the static move ordering score of an empty cell by its pattern code,
    at [(colour index * 2 + role) * NUM_CODES + code] (role 0: the colour to move, 1: its opponent), from the
    fitted weights of `rule` (order_weights.py): the sum of its four line patterns' weights, its class's weight and
    its code's correction. A forbidden cell (renju black) scores its class's weight alone."""
    return patterns.code_values(rule, order_weights.for_rule(rule.name.lower()), patterns.ORDER_ROLES)


class MoveGen:
    """Move lists for one searcher: `moves`/`scores` hold MAX_MOVES entries per ply."""

    def __init__(self, board: Board, plies: int) -> None:
        self.board = board
        self.plies = plies
        self.moves = array("i", [0]) * (plies * MAX_MOVES)
        self.scores = array("i", [0]) * (plies * MAX_MOVES)
        self.marks = array("i", [0]) * board.ncells
        self.mark_stamp = 0
        self.threat_cells = array("i", [0]) * board.ncells  # gen_defences' scratch: the opponent's FLEX4 cells
        # line_step[delta + line_span]: (d << 4) | (j + PADDING) when delta is j steps (1 <= |j| <= PADDING) along
        # direction d, else -1 (the steps are distinct: the stride is wider than 2 PADDING)
        self.line_span = PADDING * (board.stride + 1)
        self.line_step = array("i", [-1]) * (2 * self.line_span + 1)
        for d in range(4):
            for j in range(-PADDING, PADDING + 1):
                if j != 0:
                    self.line_step[j * self.board.dir_offset[d] + self.line_span] = (d << 4) | (j + PADDING)
        self.order = order_values(Rule(board.rule))

    def legal(self, cell: int, side: int) -> bool:
        """May `side` play the empty `cell`? (Only renju black has forbidden points.)"""
        board = self.board
        if side != BLACK or not board.renju:
            return True
        entry = board.state[cell] >> (CLASS_SHIFT + 8 * BLACK)  # the class byte, with the double-three flag
        if (entry & P4_MASK) == P4_FORBID:
            return False
        if entry & FLAG_DOUBLE_THREE:
            return not board.is_forbidden(cell)
        return True

    def has_flex4(self, side: int) -> bool:
        """Has `side` a cell where it would make an open four, and may it play one? (A renju point forbidden to
        black is no threat.)"""
        board = self.board
        if board.p4count[16 * (side - 1) + P4_FLEX4] == 0:
            return False
        if side != BLACK or not board.renju:
            return True
        return self.legal_point_of_class(side, P4_FLEX4) >= 0

    def order_score(self, cell: int, side: int) -> int:
        """Static ordering: the cell's value for `side` by its pattern code (what the move makes) plus its value
        by the opponent's pattern code (what the move takes away): order_values."""
        board = self.board
        word = board.state[cell]  # the pattern codes: each colour's 16 pattern bits through the code table
        mine = board.code_table[(word >> (16 * side - 16)) & 0xFFFF]
        theirs = board.code_table[(word >> (32 - 16 * side)) & 0xFFFF]
        return self.order[(2 * side - 2) * NUM_CODES + mine] + self.order[(5 - 2 * side) * NUM_CODES + theirs]

    def gen_all(self, ply: int, side: int) -> int:
        """Every legal empty cell near a stone (the centre on an empty board), with ordering scores."""
        board = self.board
        base = ply * MAX_MOVES
        n = 0
        if board.move_count == 0:
            self.moves[base] = board.points[(board.height // 2) * board.width + board.width // 2]
            self.scores[base] = 0
            return 1
        row = board.cand_words * board.move_count
        for w in range(board.cand_words):
            bits = board.cand[row + w]  # the candidate set's word: bit i is point 64 w + i, in board order
            while bits:
                cell = board.points[64 * w + _low_bit(bits)]
                bits &= bits - 1
                if self.legal(cell, side):
                    self.moves[base + n] = cell
                    self.scores[base + n] = self.order_score(cell, side)
                    n += 1
        return n

    def gen_fours(self, ply: int, side: int, lowest: int) -> int:
        """Every legal cell where `side` makes a four of class `lowest` (P4_BLOCK4: any four) up to FLEX4, with
        ordering scores."""
        return self.gen_classes(ply, side, lowest, P4_FLEX4)

    def gen_classes(self, ply: int, side: int, lowest: int, highest: int) -> int:
        """Every legal cell of `side`'s class `lowest` (at least P4_FLEX3: an open three) to `highest`, in board
        order, with ordering scores."""
        board = self.board
        base = ply * MAX_MOVES
        own = 16 * (side - 1)
        wanted = 0
        for k in range(lowest, highest + 1):
            wanted += board.p4count[own + k]
        n = 0
        found = 0
        # Such a cell has an own stone within two along its line: it is in the candidate set (board order).
        row = board.cand_words * board.move_count
        w = 0
        while found < wanted and w < board.cand_words:
            bits = board.cand[row + w]
            while bits and found < wanted:
                cell = board.points[64 * w + _low_bit(bits)]
                bits &= bits - 1
                cls = cell_class(board, cell, side)
                if lowest <= cls <= highest:
                    found += 1
                    if self.legal(cell, side):
                        self.moves[base + n] = cell
                        self.scores[base + n] = self.order_score(cell, side)
                        n += 1
            w += 1
        return n

    def gen_fours_near(self, ply: int, side: int, around: int) -> int:
        """gen_fours() for the cells within 4 of `around` along its four lines only, in the same (cell) order."""
        board = self.board
        base = ply * MAX_MOVES
        n = 0
        for d in range(4):
            off = board.dir_offset[d]
            for j in range(-4, 5):
                cell = around + j * off
                if j == 0 or board.cells[cell] != EMPTY:
                    continue
                cls = cell_class(board, cell, side)
                if P4_BLOCK4 <= cls <= P4_FLEX4 and self.legal(cell, side):
                    i = n  # insert in cell order, as gen_fours's scan finds them
                    while i > 0 and self.moves[base + i - 1] > cell:
                        self.moves[base + i] = self.moves[base + i - 1]
                        i -= 1
                    self.moves[base + i] = cell
                    n += 1
        for i in range(n):
            self.scores[base + i] = self.order_score(self.moves[base + i], side)
        return n

    def gen_defences(self, ply: int, side: int) -> int:
        """`side` to move faces open-four threats (the opponent's FLEX4 cells): its own fours, and every legal
        cell after which the opponent has no FLEX4 cell left. Ordering scores included."""
        board = self.board
        opp = 3 - side
        n = self._own_fours_marked(ply, side)
        stamp = self.mark_stamp
        found = self._list_threats(opp, P4_FLEX4)
        # In caro a five blocked at both ends does not win: a stone just beyond the five-to-be can stop an open
        # four too, so there every empty cell within reach of the line is a candidate.
        caro = board.caro
        reach = PADDING if caro else 4
        for i in range(found):
            cell = self.threat_cells[i]
            if not self.legal(cell, opp):
                continue  # renju: black may not play it, so it threatens nothing
            # Stopping an open four means taking a cell the opponent needs for it: the threat cell itself or a
            # cell on the same line where the opponent would make a four. Each candidate is verified.
            n = self._try_defence(ply, n, cell, side, stamp, found, P4_FLEX4)
            for d in range(4):
                if board.pattern_at(cell, opp, d) < PAT_B4:
                    continue
                off = board.dir_offset[d]
                for j in range(-reach, reach + 1):
                    c = cell + j * off
                    if j != 0 and board.cells[c] == EMPTY and (caro or board.pattern_at(c, opp, d) >= PAT_B4):
                        n = self._try_defence(ply, n, c, side, stamp, found, P4_FLEX4)
        return n

    def _own_fours_marked(self, ply: int, side: int) -> int:
        """gen_fours(ply, side, P4_BLOCK4), each four marked with a new mark_stamp (so that a defence generator
        lists a cell once)."""
        base = ply * MAX_MOVES
        n = self.gen_fours(ply, side, P4_BLOCK4)
        self.mark_stamp += 1
        for k in range(n):
            self.marks[self.moves[base + k]] = self.mark_stamp
        return n

    def _list_threats(self, opp: int, cls: int) -> int:
        """List the opponent's cells of class `cls` in threat_cells, in board order, and return how many. They are
        usually all on the lines through its last move (the threat it just made), so look there first and scan the
        board only when some are elsewhere."""
        board = self.board
        threats = board.p4count[16 * (opp - 1) + cls]
        found = 0
        if board.move_count > 0:
            last = board.moves[board.move_count - 1]
            for d in range(4):
                off = board.dir_offset[d]
                for j in range(-PADDING, PADDING + 1):
                    c = last + j * off
                    if j != 0 and board.cells[c] == EMPTY and cell_class(board, c, opp) == cls and found < threats:
                        k = found  # insertion into board order (cell indices grow in board order)
                        while k > 0 and self.threat_cells[k - 1] > c:
                            self.threat_cells[k] = self.threat_cells[k - 1]
                            k -= 1
                        self.threat_cells[k] = c
                        found += 1
        if found < threats:
            found = 0
            i = 0
            while found < threats and i < board.npoints:
                c = board.points[i]
                i += 1
                if board.cells[c] == EMPTY and cell_class(board, c, opp) == cls:
                    self.threat_cells[found] = c
                    found += 1
        return found

    def gen_four_three_defences(self, ply: int, side: int) -> int:
        """`side` to move faces the opponent's four-three points (BLOCK4_FLEX3 cells) and no open-four or five
        threat: its own fours, and every legal cell within reach of a four-three point on one of its lines of an
        open three or more after which the opponent has no four-three point left (nor a double open three made of
        one). Ordering scores included. A defence that only prepares a four for the forced block is not among
        them."""
        board = self.board
        opp = 3 - side
        n = self._own_fours_marked(ply, side)
        stamp = self.mark_stamp
        found = self._list_threats(opp, P4_BLOCK4_FLEX3)
        for i in range(found):
            cell = self.threat_cells[i]
            for d in range(4):
                if board.pattern_at(cell, opp, d) < PAT_F3:
                    continue  # the four and the open three stand on the other lines: a stone here leaves both
                off = board.dir_offset[d]
                for j in range(-PADDING, PADDING + 1):
                    c = cell + j * off
                    if board.cells[c] == EMPTY:
                        n = self._try_defence(ply, n, c, side, stamp, found, P4_BLOCK4_FLEX3)
        return n

    def _try_defence(self, ply: int, n: int, cell: int, side: int, stamp: int, threats: int, cls: int) -> int:
        """Append `cell` to the ply's moves (once a stamp) if `side` may play it and it takes away the opponent's
        threat cells of class `cls`, all `threats` of them listed in threat_cells (FLEX4 cells in renju: none left
        on the board, as stops_open_fours says)."""
        board = self.board
        if self.marks[cell] == stamp:
            return n
        self.marks[cell] = stamp
        if not self.legal(cell, side):
            return n
        if self.stops_open_fours(cell, side) if board.renju and cls == P4_FLEX4 else \
                self._stops_listed(cell, side, threats, cls):
            self.moves[ply * MAX_MOVES + n] = cell
            self.scores[ply * MAX_MOVES + n] = self.order_score(cell, side)
            n += 1
        return n

    def stops_open_fours(self, cell: int, side: int) -> bool:
        """Would `side`'s stone on the empty `cell` leave the opponent no open-four (FLEX4) cell it may play? Read
        from the line keys without placing the stone (renju plays it: the stone can change what black may play)."""
        board = self.board
        opp = 3 - side
        if board.renju:
            board.make_stone(cell, side)
            stops = not self.has_flex4(opp)
            board.unmake()
            return stops
        # Only the cell itself and the empty cells within reach on its four lines change; count the opponent's
        # FLEX4 cells among them that lose the class (a stone never makes the other colour's patterns stronger).
        left = board.p4count[16 * (opp - 1) + P4_FLEX4]
        if cell_class(board, cell, opp) == P4_FLEX4:
            left -= 1
        for d in range(4):
            off = board.dir_offset[d]
            for j in range(-PADDING, PADDING + 1):
                if left == 0:
                    return True
                c = cell + j * off
                if j != 0 and board.cells[c] == EMPTY and cell_class(board, c, opp) == P4_FLEX4 \
                        and self._class_after(c, d, j, side, opp) != P4_FLEX4:
                    left -= 1
        return left == 0

    def _stops_listed(self, cell: int, side: int, threats: int, cls: int) -> bool:
        """Does `side`'s stone on `cell` take away every threat cell listed in threat_cells[:threats], the opponent's
        cells of class `cls` (FLEX4: open-four points, outside renju; BLOCK4_FLEX3: four-three points)? Each must be
        `cell` itself or lose the class to the stone on its line within PADDING (a four-three point left a double
        open three is still a threat)."""
        for i in range(threats):
            t = self.threat_cells[i]
            if t == cell:
                continue
            delta = t - cell + self.line_span
            if delta < 0 or delta > 2 * self.line_span:
                return False
            step = self.line_step[delta]
            if step < 0:
                return False
            after = self._class_after(t, step >> 4, (step & 15) - PADDING, side, 3 - side)
            if after == cls or (cls == P4_BLOCK4_FLEX3 and after == P4_FLEX3_2X):
                return False
        return True

    def five_after(self, side: int, move: int) -> int:
        """The cell where `side` would make five once it plays the empty `move`, found on the lines through it
        without placing the stone, or -1: what five_point(side, move) answers after the stone when `side` has no
        five point before it."""
        board = self.board
        for d in range(4):
            if board.pattern_at(move, side, d) < PAT_B4:
                continue  # no four on this line: no five point after the stone
            off = board.dir_offset[d]
            for j in range(-4, 5):
                c = move + j * off
                if j != 0 and board.cells[c] == EMPTY and self._class_after(c, d, j, side, side) == P4_FIVE:
                    return c
        return -1

    def _class_after(self, cell: int, d: int, j: int, stone: int, color: int) -> int:
        """The Pattern4 of `color` at the empty `cell` once a `stone`-coloured stone stands j steps before it on
        direction d (cell = stone's cell + j * offset; j < 0: after it), the other directions as they are."""
        board = self.board
        if j > 0:
            delta = stone << board.shift_before[j]
        else:
            delta = stone << board.shift_after[-j]
        return board._class_with_key(cell, d, board._key(cell, d) + delta, color - 1) & P4_MASK

    def five_point(self, side: int, around: int) -> int:
        """A cell on the four lines through `around` (within 4) where `side` makes five, or -1."""
        board = self.board
        for d in range(4):
            off = board.dir_offset[d]
            for j in range(-4, 5):
                c = around + j * off
                if board.cells[c] == EMPTY and cell_class(board, c, side) == P4_FIVE:
                    return c
        return -1

    def any_five_point(self, side: int) -> int:
        """Some cell where `side` makes five, or -1 (the first in board order when there are several)."""
        board = self.board
        count = board.p4count[16 * (side - 1) + P4_FIVE]
        if count == 0:
            return -1
        if count == 1:  # the one five point is almost always on a line through the last move: look there first
            c = self.five_point(side, board.moves[board.move_count - 1])
            if c >= 0:
                return c
        for i in range(board.npoints):
            c = board.points[i]
            if board.cells[c] == EMPTY and cell_class(board, c, side) == P4_FIVE:
                return c
        return -1

    def has_legal_point(self, side: int) -> bool:
        """May `side` play some empty cell anywhere on the board? (Renju black left only forbidden points may not.)"""
        board = self.board
        for i in range(board.npoints):
            c = board.points[i]
            if board.cells[c] == EMPTY and self.legal(c, side):
                return True
        return False

    def legal_point_of_class(self, side: int, cls: int) -> int:
        """Some empty cell of class `cls` (a Pattern4) that `side` may play, or -1."""
        board = self.board
        for i in range(board.npoints):
            c = board.points[i]
            if board.cells[c] == EMPTY and cell_class(board, c, side) == cls and \
                    self.legal(c, side):
                return c
        return -1

    def pick(self, ply: int, i: int, n: int) -> None:
        """Move the best-scored of moves i..n-1 to position i (lazy ordering: most nodes cut off early)."""
        base = ply * MAX_MOVES
        best = i
        best_score = self.scores[base + i]
        for j in range(i + 1, n):
            score = self.scores[base + j]
            if score > best_score:
                best = j
                best_score = score
        if best != i:
            move = self.moves[base + i]
            self.scores[base + best] = self.scores[base + i]
            self.moves[base + i] = self.moves[base + best]
            self.scores[base + i] = best_score
            self.moves[base + best] = move

    def sort(self, ply: int, n: int) -> None:
        """Order a ply's moves by score, highest first (stable insertion sort: lists are short)."""
        base = ply * MAX_MOVES
        for i in range(1, n):
            move = self.moves[base + i]
            score = self.scores[base + i]
            j = i - 1
            while j >= 0 and self.scores[base + j] < score:
                self.moves[base + j + 1] = self.moves[base + j]
                self.scores[base + j + 1] = self.scores[base + j]
                j -= 1
            self.moves[base + j + 1] = move
            self.scores[base + j + 1] = score


def _low_bit(bits: int) -> int:
    """The index of the lowest set bit of a non-zero 64-bit word."""
    if cython.compiled:
        return __builtin_ctzll(bits)  # noqa: F821
    return (bits & -bits).bit_length() - 1
