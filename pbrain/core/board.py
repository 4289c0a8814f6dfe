"""The board: stones, move stack, Zobrist key and the incremental pattern state everything else reads.

Layout: a flat array with a border of PADDING wall cells, index = (y + PADDING) * stride + (x + PADDING), so line
scans never bounds-check. Every line of the board (each direction) is kept as 64-bit words, 2 bits a cell with the
walls beyond its ends (see line_layout); a cell's 20-bit line key (5 neighbours each side) is read off its word, so
a stone changes one or two words a direction, not the keys of its forty neighbours, and re-reads the patterns of the
empty cells within `reach` of it (4 in freestyle, whose patterns never depend on the cells five away; 5 in the other
rules). For every empty cell the board also keeps the Pattern each colour would make on each direction and each
colour's combined class (Pattern4 and the renju double-three flag), with per-colour counters of every class, so "can
the opponent make five?" is one array read, and the sums of the evaluation's cell values (evaluation.values.cell_values,
looked up by each cell's pattern code) for each colour, as the side to move and as the side that waits: kept
running, or, while every code's value is its class's (the weights have no line or code terms), read as the class
counters' dot product with the class values, so that a move's class changes cost no value lookups.

Compiled by Cython (board.pxd has the C types); runs unchanged as plain Python.
"""
from __future__ import annotations

import random
from array import array

import cython

from pbrain.core import patterns
from pbrain.core.geometry import DIRECTIONS, line_layout, near_masks, near_offsets
from pbrain.core.rules import Rule

if not cython.compiled:
    from pbrain.core.geometry import NEAR_WORDS
    from pbrain.core.patterns import BLACK, EMPTY, WALL, WHITE  # noqa: F401  (board.pxd declares them when compiled)
    PADDING = patterns.HALF_LINE
    HALF_KEYS = patterns.HALF_KEYS
    # The C enums of board.pxd, for the interpreted core: PAT_<Pattern name> and P4_<Pattern4 name>.
    globals().update({f"PAT_{p.name}": int(p) for p in patterns.Pattern})
    globals().update({f"P4_{p.name}": int(p) for p in patterns.Pattern4})
    P4_MASK = 15
    FLAG_DOUBLE_THREE = patterns.FLAG_DOUBLE_THREE
    CLASS_SHIFT = 24
    COUNTERS = 36
    EVAL_SUMS = 32
    EVAL_SHIFT = 4
    NUM_CODES = patterns.NUM_CODES
    LOG_PER_PLY = 4 * 2 * PADDING
    VALUE_BIAS = 32768

    def cell_class(board: "Board", cell: int, color: int) -> int:
        """The Pattern4 `color` makes by playing the empty `cell`: its class byte in the cell's state word (board.pxd
        has the compiled twin, inlined where it is cimported)."""
        return (board.state[cell] >> (CLASS_SHIFT + 8 * color)) & P4_MASK

COMPILED = cython.compiled
MIN_SIZE = 5
MAX_SIZE = 32
_ZOBRIST_SEED = 0x5E7AD


_evaluation = None
"""What gives a new Board its evaluation tables: set by the evaluation layer (use_evaluation)."""


def use_evaluation(evaluation: object) -> None:
    """Set what gives every Board made from now on its evaluation tables: `evaluation.board_values(rule)` ->
    (int32 cell values by pattern code as Board.cell_value lays them out, tempo, int32 threat values), read before
    the board is laid out, and `evaluation.board_network(board)` -> (hidden units, packed weights), read from the
    empty board. pbrain.evaluation sets itself when imported, and `import pbrain` imports it."""
    global _evaluation
    _evaluation = evaluation


def _registered_evaluation() -> object:
    """The evaluation set by use_evaluation."""
    if _evaluation is None:
        raise RuntimeError("no evaluation for the board: import pbrain (or pbrain.evaluation) first")
    return _evaluation


class BoardError(ValueError):
    """An illegal board operation: off-board or occupied cell, undo of an empty stack, bad size or colour."""


class Board:
    """A W x H board under one rule, with incremental line patterns and threat classes for both colours.

    Per cell, `state` holds one 64-bit word: the packed patterns in its low 32 bits (black's four Patterns in
    the low 16, white's in the high 16, a nibble a direction: see _spread; each colour's half is its index in
    patterns.code_table, the pattern code), then each colour's class byte, FLAG_DOUBLE_THREE | Pattern4, at bit
    CLASS_SHIFT + 8 * colour (black's at 32, white's at 40). Only empty cells' state is kept current.
    Every change a move makes to it is logged, and unmake restores the log
    and the saved counters instead of recomputing anything. The counters: 16 class counts per colour, then the
    evaluation sums at EVAL_SUMS + role * 2 + colour index (role 0: as the side to move, 1: as the side that waits),
    kept only when values_by_class is False (eval_sum reads them either way).
    """

    def __init__(self, width: int, height: int = 0, rule: int = 0) -> None:
        if height == 0:
            height = width
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise BoardError(f"board size {width}x{height} out of range {MIN_SIZE}..{MAX_SIZE}")
        rule_enum = Rule(rule)
        self.width = width
        self.height = height
        self.rule = int(rule_enum)
        self.renju = rule_enum.has_forbidden
        self.caro = rule_enum.blocked_five_loses
        self.stride = width + 2 * PADDING
        self.ncells = self.stride * (height + 2 * PADDING)
        left_base, right_class, compact = patterns.split_line_table(rule_enum)
        self.left_base = array("i", left_base.tobytes())
        self.right_class = array("i", right_class.tobytes())
        self.compact_table = array("B", compact.tobytes())
        self.reach = patterns.line_reach(rule_enum)
        codes = array("H", patterns.code_table())
        half_class = array("B", patterns.class_table(rule_enum).tobytes())  # [65536 * ci + 16 pattern bits]
        evaluation = _registered_evaluation()
        values, tempo, threat_value = evaluation.board_values(rule_enum)
        self.code_table = codes
        self.code_class = patterns.code_classes(rule_enum)
        self.half_class = half_class
        self.cell_value = values
        self.class_value = array("i", [0]) * 64
        self.values_by_class = self._fill_class_values()
        self.half_info = array("Q", [0]) if self.values_by_class else _half_info(half_class, codes, values)
        self.tempo = tempo
        self.threat_value = threat_value
        self.dir_offset = array("i", [dy * self.stride + dx for dx, dy in DIRECTIONS])
        # shift_after[j]: bits, in the key of cell n, of the cell j steps after n; shift_before: j steps before.
        self.shift_after = array("i", [0] + [patterns.neighbour_shift(j) for j in range(1, PADDING + 1)])
        self.shift_before = array("i", [0] + [patterns.neighbour_shift(-j) for j in range(1, PADDING + 1)])
        words, read_slot, second_slot = line_layout(width, height, self.stride)
        self.empty_lines = array("Q", words)
        self.line_slot = array("i", read_slot)
        self.line_slot2 = array("i", second_slot)
        rng = random.Random(_ZOBRIST_SEED)
        self.zobrist = array("Q", [rng.getrandbits(64) for _ in range(2 * self.ncells)])
        self.playable = tuple(self.index(x, y) for y in range(height) for x in range(width))
        self.points = array("i", self.playable)
        self.npoints = len(self.playable)
        self.point_of = array("i", [-1]) * self.ncells
        for i, cell in enumerate(self.playable):
            self.point_of[cell] = i
        self.cand_words = (self.npoints + 63) // 64
        near_word, near_mask = near_masks(width, height, self.stride)
        self.near_word = array("i", near_word)
        self.near_mask = array("Q", near_mask)
        self.reset()
        self.net_hidden, self.net_weights = evaluation.board_network(self)

    def reset(self) -> None:
        """Empty the board; black to move."""
        n = self.ncells
        plies = self.width * self.height + 1
        self.cells = array("i", [WALL]) * n
        for cell in self.playable:
            self.cells[cell] = EMPTY
        self.lines = array("Q", self.empty_lines)
        self.state = array("Q", [0]) * n
        self.p4count = array("i", [0]) * COUNTERS
        self.p4count[0] = self.p4count[16] = len(self.playable)  # every empty cell starts as class NONE
        self.cand = array("Q", [0]) * (self.cand_words * plies)
        self.occupied = array("Q", [0]) * self.cand_words
        self.moves = array("i", [0]) * plies
        self.fives = array("B", [0]) * plies
        self.saved = array("i", [0]) * (COUNTERS * plies)
        self.log_start = array("i", [0]) * plies
        self.log_index = array("i", [0]) * (LOG_PER_PLY * plies)
        self.log_value = array("Q", [0]) * (LOG_PER_PLY * plies)
        self.log_top = 0
        self.move_count = 0
        self.side = BLACK
        self.hash = 0
        for cell in self.playable:
            word = 0
            for d in range(4):
                word |= _spread(self._line_pattern(self._key(cell, d)), d)
            for ci in range(2):
                cls = self._class_word(word >> (16 * ci), ci)
                self.p4count[16 * ci] -= 1
                self.p4count[16 * ci + (cls & P4_MASK)] += 1
                word |= cls << (CLASS_SHIFT + 8 * (ci + 1))
                if not self.values_by_class:
                    self._add_value(self.half_info[(ci << 16) + ((word >> (16 * ci)) & 0xFFFF)], ci, 1)
            self.state[cell] = word

    def _scan_key(self, cell: int, d: int) -> int:
        """The line key of (cell, direction) read from the cells, not from the incremental state."""
        off = self.dir_offset[d]
        key = 0
        for j in range(1, PADDING + 1):
            key |= self.cells[cell + j * off] << self.shift_after[j]
            key |= self.cells[cell - j * off] << self.shift_before[j]
        return key

    def _key(self, cell: int, d: int) -> int:
        """The line key of (cell, direction), read off the cell's line word."""
        slot = self.line_slot[4 * cell + d]
        return _word_key(self.lines[slot >> 6], slot & 63)

    def _line_pattern(self, key: int) -> int:
        """Both colours' Pattern byte for a line key (patterns.line_table, read through its compact form)."""
        return self.compact_table[self.left_base[key & (HALF_KEYS - 1)] + self.right_class[key >> (2 * PADDING)]]

    def _class_word(self, word: int, ci: int) -> int:
        """Colour index `ci`'s class byte (FLAG_DOUBLE_THREE | Pattern4) from its four patterns (the low 16 bits of
        `word`, a nibble a direction)."""
        return self.half_class[(ci << 16) + (word & 0xFFFF)]

    def _class_with_key(self, cell: int, d: int, key: int, ci: int) -> int:
        """Colour index `ci`'s class byte at the empty `cell` were its line key on direction d `key` (the other
        directions as they are): the class a stone nearby on that line would leave, without placing it."""
        mask = 0xF000F  # 32 bits unsigned when compiled (interpreted, the class bytes stay: _class_word masks them)
        word = (self.state[cell] & ~(mask << (4 * d))) | _spread(self._line_pattern(key), d)
        return self._class_word(word >> (16 * ci), ci)

    def _fill_class_values(self) -> bool:
        """Fill class_value[(colour index * 2 + role) * 16 + class] from the cell values; True when every cell's
        value is its class's (no line weights or code corrections): the sums are then the class counters' dot
        product with class_value, and the running sums are not kept."""
        seen = [False] * 64
        for ci in range(2):
            for role in range(2):
                for code in range(NUM_CODES):
                    slot = (ci * 2 + role) * 16 + (self.code_class[NUM_CODES * ci + code] & P4_MASK)
                    value = self.cell_value[(ci * 2 + role) * NUM_CODES + code]
                    if not seen[slot]:
                        seen[slot] = True
                        self.class_value[slot] = value
                    elif self.class_value[slot] != value:
                        return False
        return True

    def empty_inputs(self) -> tuple:
        """(class NONE count, black's code sums as the side to move and as the side that waits): on the empty board,
        the evaluation network's inputs that grow with the board (evaluation.network.tables)."""
        return self.p4count[P4_NONE], self.eval_sum(0, 0), self.eval_sum(0, 1)

    def eval_sum(self, ci: int, role: int) -> int:
        """The sum of the values of colour index `ci`'s empty cells in `role` (0: as the side to move, 1: as the
        side that waits)."""
        if not self.values_by_class:
            return self.p4count[EVAL_SUMS + 2 * role + ci]
        total = 0
        base = (ci * 2 + role) * 16
        for k in range(P4_FIVE + 1):
            total += self.p4count[16 * ci + k] * self.class_value[base + k]
        return total

    def _add_value(self, info: int, ci: int, sign: int) -> None:
        """Add (sign 1) or take away (-1) colour index `ci`'s evaluation values of an empty cell, given its
        half_info entry."""
        self.p4count[EVAL_SUMS + ci] += sign * (((info >> 16) & 0xFFFF) - VALUE_BIAS)
        self.p4count[EVAL_SUMS + 2 + ci] += sign * (((info >> 32) & 0xFFFF) - VALUE_BIAS)

    def _change_value(self, old: int, new: int, ci: int) -> None:
        """Move colour index `ci`'s evaluation sums from an empty cell's old half_info entry to its new one (the
        values' bias cancels)."""
        self.p4count[EVAL_SUMS + ci] += ((new >> 16) & 0xFFFF) - ((old >> 16) & 0xFFFF)
        self.p4count[EVAL_SUMS + 2 + ci] += ((new >> 32) & 0xFFFF) - ((old >> 32) & 0xFFFF)

    # --- coordinates --------------------------------------------------------------------------------------------
    def index(self, x: int, y: int) -> int:
        """The cell index of (x, y); raises BoardError off the board."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise BoardError(f"({x},{y}) is off the {self.width}x{self.height} board")
        return (y + PADDING) * self.stride + (x + PADDING)

    def xy(self, cell: int) -> tuple:
        """The (x, y) of a cell index."""
        return (cell % self.stride - PADDING, cell // self.stride - PADDING)

    def on_board(self, x: int, y: int) -> bool:
        """True when (x, y) is a point of the board."""
        return 0 <= x < self.width and 0 <= y < self.height

    def stone(self, cell: int) -> int:
        """EMPTY, BLACK, WHITE or WALL at a cell index."""
        if not (0 <= cell < self.ncells):
            raise BoardError(f"cell {cell} out of range")
        return self.cells[cell]

    # --- moves -------------------------------------------------------------------------------------------------
    def play(self, x: int, y: int) -> None:
        """Place the side to move's stone at (x, y); raises BoardError when off the board or occupied."""
        self.place(self.index(x, y), 0)

    def place(self, cell: int, color: int = 0) -> None:
        """Place a stone (the side to move's when color is 0) at a cell index; the other colour moves next."""
        if not (0 <= cell < self.ncells) or self.cells[cell] == WALL:
            raise BoardError(f"cell {cell} is off the board")
        if self.cells[cell] != EMPTY:
            raise BoardError("({},{}) is occupied".format(*self.xy(cell)))
        if color == 0:
            color = self.side
        if color != BLACK and color != WHITE:
            raise BoardError(f"bad colour {color}")
        self.make_stone(cell, color)

    def undo(self) -> int:
        """Take back the last stone and return its cell; raises BoardError on an empty board."""
        if self.move_count == 0:
            raise BoardError("no move to take back")
        cell = self.moves[self.move_count - 1]
        self.unmake()
        return cell

    def set_side(self, color: int) -> None:
        """Set the colour to move (for positions given stone by stone)."""
        if color != BLACK and color != WHITE:
            raise BoardError(f"bad colour {color}")
        self.side = color

    def make(self, cell: int) -> None:
        """Place the side to move's stone at an empty cell (no checks: the search's make)."""
        self.make_stone(cell, self.side)

    def make_stone(self, cell: int, color: int) -> None:
        """Place a stone of `color` at an empty cell (no checks)."""
        ply = self.move_count
        self.fives[ply] = cell_class(self, cell, color) == P4_FIVE
        self.moves[ply] = cell
        if cython.compiled:  # one block copy; the loop below is the interpreted twin
            memcpy(cython.address(self.saved[COUNTERS * ply]), cython.address(self.p4count[0]),  # noqa: F821
                   COUNTERS * cython.sizeof(cython.int))
        else:
            for i in range(COUNTERS):
                self.saved[COUNTERS * ply + i] = self.p4count[i]
        self.log_start[ply] = self.log_top
        self.move_count = ply + 1
        self._add_stone(cell, color)
        self._add_candidates(cell, ply)
        self.side = 3 - color

    def unmake(self) -> None:
        """Take back the last stone (no checks: the search's unmake)."""
        self.move_count -= 1
        ply = self.move_count
        cell = self.moves[ply]
        self.side = self.cells[cell]
        self._remove_stone(cell)
        top = self.log_top
        start = self.log_start[ply]
        while top > start:
            top -= 1
            self.state[self.log_index[top]] = self.log_value[top]
        self.log_top = top
        if cython.compiled:
            memcpy(cython.address(self.p4count[0]), cython.address(self.saved[COUNTERS * ply]),  # noqa: F821
                   COUNTERS * cython.sizeof(cython.int))
        else:
            for i in range(COUNTERS):
                self.p4count[i] = self.saved[COUNTERS * ply + i]

    # --- incremental update ------------------------------------------------------------------------------------
    def _log(self, cell: int) -> None:
        """Remember an empty cell's state word before a move first changes it: a stone changes a neighbour along
        one line only, so once a move."""
        top = self.log_top
        self.log_index[top] = cell
        self.log_value[top] = self.state[cell]
        self.log_top = top + 1

    def _add_stone(self, cell: int, color: int) -> None:
        # The cell's own state is not logged: nothing changes an occupied cell's state, and unmake empties it.
        word = self.state[cell]
        for ci in range(2):
            self.p4count[16 * ci + ((word >> (CLASS_SHIFT + 8 * (ci + 1))) & P4_MASK)] -= 1
            if not self.values_by_class:
                self._add_value(self.half_info[(ci << 16) + ((word >> (16 * ci)) & 0xFFFF)], ci, -1)
        self.cells[cell] = color
        self.hash ^= self.zobrist[2 * cell + color - 1]
        stone = color  # 64 bits wide when compiled: shifted up to bit 62
        for d in range(4):
            off = self.dir_offset[d]
            slot = self.line_slot[4 * cell + d]
            line = slot >> 6
            shift = slot & 63
            word = self.lines[line] + (stone << shift)
            self.lines[line] = word
            slot = self.line_slot2[4 * cell + d]
            if slot >= 0:
                self.lines[slot >> 6] += stone << (slot & 63)
            n = cell
            for j in range(1, self.reach + 1):
                n += off
                if self.cells[n] == EMPTY:
                    self._update_line(n, d, _word_key(word, shift + 2 * j))
            n = cell
            for j in range(1, self.reach + 1):
                n -= off
                if self.cells[n] == EMPTY:
                    self._update_line(n, d, _word_key(word, shift - 2 * j))

    def _add_candidates(self, cell: int, ply: int) -> None:
        """The candidate set after the stone on `cell` (move `ply`): the set before it plus the stone's neighbourhood,
        less the stones (one row of cand_words a ply, so unmake has nothing to undo but the stone's bit)."""
        point = self.point_of[cell]
        one = 1  # 64 bits wide when compiled
        self.occupied[point >> 6] |= one << (point & 63)
        src = self.cand_words * ply
        dst = src + self.cand_words
        for w in range(self.cand_words):
            self.cand[dst + w] = self.cand[src + w]
        for k in range(NEAR_WORDS):
            w = self.near_word[NEAR_WORDS * point + k]
            self.cand[dst + w] = (self.cand[dst + w] | self.near_mask[NEAR_WORDS * point + k]) & ~self.occupied[w]

    def _remove_stone(self, cell: int) -> None:
        """Take the stone off its line words and the occupied set; unmake restores the logged state (the candidate
        set of the ply before is still there)."""
        color = self.cells[cell]
        self.cells[cell] = EMPTY
        self.hash ^= self.zobrist[2 * cell + color - 1]
        stone = color  # 64 bits wide when compiled
        for d in range(4):
            slot = self.line_slot[4 * cell + d]
            self.lines[slot >> 6] -= stone << (slot & 63)
            slot = self.line_slot2[4 * cell + d]
            if slot >= 0:
                self.lines[slot >> 6] -= stone << (slot & 63)
        point = self.point_of[cell]
        one = 1  # 64 bits wide when compiled
        self.occupied[point >> 6] &= ~(one << (point & 63))

    def _update_line(self, n: int, d: int, key: int) -> None:
        """Re-read the pattern of an empty cell on one direction after its line key changed to `key`."""
        new = _spread(self._line_pattern(key), d)
        word = self.state[n]
        mask = 0xF000F  # 32 bits unsigned when compiled
        change = (word & (mask << (4 * d))) ^ new
        if change == 0:
            return
        self._log(n)
        old = word
        word ^= change
        if change & 0xFFFF:
            word = self._update_class(word, old, 0)
        if change >> 16:
            word = self._update_class(word, old, 1)
        self.state[n] = word

    def _update_class(self, word: int, old: int, ci: int) -> int:
        """A cell's state word with colour index `ci`'s class byte re-read from its patterns in `word` (`old`: the
        word before its patterns changed); the change counted in the class counters and the evaluation sums."""
        shift = CLASS_SHIFT + 8 * (ci + 1)
        prev = (word >> shift) & 0xFF
        if self.values_by_class:
            cls = self._class_word(word >> (16 * ci), ci)
        else:
            info = self.half_info[(ci << 16) + ((word >> (16 * ci)) & 0xFFFF)]
            cls = info & 0xFF
            self._change_value(self.half_info[(ci << 16) + ((old >> (16 * ci)) & 0xFFFF)], info, ci)
        if cls == prev:
            return word
        if (prev ^ cls) & P4_MASK:  # the class changed, not only the double-three flag
            self.p4count[16 * ci + (prev & P4_MASK)] -= 1
            self.p4count[16 * ci + (cls & P4_MASK)] += 1
        byte = 0xFF  # 64 bits wide when compiled
        return (word & ~(byte << shift)) | (cls << shift)

    # --- queries -----------------------------------------------------------------------------------------------
    def pattern_at(self, cell: int, color: int, d: int) -> int:
        """Pattern that `color` makes on direction d by playing the empty cell (no checks)."""
        return (self.state[cell] >> (16 * (color - 1) + 4 * d)) & 15

    def class_at(self, cell: int, color: int) -> int:
        """Pattern4 of an empty cell for `color` (no checks)."""
        return cell_class(self, cell, color)

    def pattern_code(self, cell: int, color: int) -> int:
        """The pattern code (index into patterns.PATTERN_COMBOS) of an empty cell's four line patterns for `color`:
        what the evaluation's table is indexed by."""
        self._check_empty(cell)
        return self.code_table[(self.state[cell] >> (16 * (color - 1))) & 0xFFFF]

    def pattern(self, cell: int, color: int, direction: int) -> int:
        """Pattern (patterns.Pattern value) that `color` would make on one direction by playing an empty cell."""
        self._check_empty(cell)
        return self.pattern_at(cell, color, direction & 3)

    def pattern4(self, cell: int, color: int) -> int:
        """Pattern4 (combined class) of an empty cell for `color`."""
        self._check_empty(cell)
        return self.class_at(cell, color)

    def _check_empty(self, cell: int) -> None:
        if not (0 <= cell < self.ncells) or self.cells[cell] != EMPTY:
            raise BoardError(f"cell {cell} is not an empty point")

    def count(self, color: int, pattern4: int) -> int:
        """How many empty cells have class `pattern4` for `color` (O(1))."""
        return self.p4count[16 * (color - 1) + (pattern4 & 15)]

    def last_move(self) -> int:
        """The cell of the last stone, or -1 on an empty board."""
        return self.moves[self.move_count - 1] if self.move_count else -1

    def last_move_wins(self) -> bool:
        """True when the last stone completed a winning line under the rule."""
        return self.move_count > 0 and self.fives[self.move_count - 1] != 0

    def is_full(self) -> bool:
        """True when no empty point is left."""
        return self.move_count >= self.width * self.height

    def is_win_move(self, cell: int, color: int) -> bool:
        """True when `color` playing the empty cell makes a winning line."""
        return self.cells[cell] == EMPTY and self.class_at(cell, color) == P4_FIVE

    def is_forbidden(self, cell: int) -> bool:
        """True when black may not play the empty cell (renju: overline, double four, double three; a five
        overrides). Double threes follow the recursive definition: a three counts only if a straight four can
        come from it by a move that is itself not forbidden."""
        if not self.renju or self.cells[cell] != EMPTY:
            return False
        entry = self.state[cell] >> (CLASS_SHIFT + 8 * BLACK)
        if (entry & P4_MASK) == P4_FORBID:
            return True
        if not (entry & FLAG_DOUBLE_THREE):
            return False
        return self._double_three(cell)

    def _double_three(self, cell: int) -> bool:
        """Black at `cell` makes two real threes (each can become a straight four at an allowed point)."""
        threes = 0
        side = self.side
        self.make_stone(cell, BLACK)
        for d in range(4):
            if self.pattern_at(cell, BLACK, d) != PAT_F3:  # the cell's state still holds its empty-cell patterns
                continue
            off = self.dir_offset[d]
            for end in range(2):
                e = cell
                for j in range(4):
                    e += off
                    if self.cells[e] != BLACK:
                        break
                if self.cells[e] == EMPTY and self.pattern_at(e, BLACK, d) == PAT_F4 and not self._bad_extension(e):
                    threes += 1
                    break
                off = -off
        self.unmake()
        self.side = side
        return threes >= 2

    def _bad_extension(self, cell: int) -> bool:
        """An extension point that cannot make the straight four: forbidden, or a five (as the Piskvork judge
        reads it)."""
        return self.class_at(cell, BLACK) == P4_FIVE or self.is_forbidden(cell)

    def candidates(self) -> list:
        """Empty cells near stones (within 2, and 3 along lines), in index order; the centre on an empty board."""
        if self.move_count == 0:
            return [self.index(self.width // 2, self.height // 2)]
        row = self.cand_words * self.move_count
        return [c for i, c in enumerate(self.playable) if (self.cand[row + (i >> 6)] >> (i & 63)) & 1]

    def history(self) -> list:
        """The cells of the stones in the order they were placed."""
        return [self.moves[i] for i in range(self.move_count)]

    def line_key(self, cell: int, direction: int) -> int:
        """The incremental line key of a playable (cell, direction), read off its line word."""
        if not (0 <= cell < self.ncells) or self.cells[cell] == WALL:
            raise BoardError(f"cell {cell} is not on the board")
        return self._key(cell, direction & 3)

    # --- verification ------------------------------------------------------------------------------------------
    def snapshot(self) -> dict:
        """The incremental state of every playable cell, counters and key, as plain Python data."""
        cells = list(self.playable)
        empties = [c for c in cells if self.cells[c] == EMPTY]
        return {
            "stones": [self.cells[c] for c in cells],
            "keys": [self._key(c, d) for c in cells for d in range(4)],
            "patterns": [self.state[c] & 0xFFFFFFFF for c in empties],
            "classes": [(self.state[c] >> (CLASS_SHIFT + 8 * (ci + 1))) & 0xFF for c in empties for ci in range(2)],
            "counts": list(self.p4count),
            "candidates": self.candidates(),
            "hash": self.hash,
            "side": self.side,
            "move_count": self.move_count,
        }

    def recomputed(self) -> dict:
        """The same data as snapshot(), computed from the stones alone (the property tests' reference)."""
        cells = list(self.playable)
        empties = [c for c in cells if self.cells[c] == EMPTY]
        keys = {(c, d): self._scan_key(c, d) for c in cells for d in range(4)}
        words = {c: sum(_spread(self._line_pattern(keys[c, d]), d) for d in range(4)) for c in empties}
        classes = []
        counts = [0] * COUNTERS
        for c in empties:
            for ci in range(2):
                cls = self._class_word(words[c] >> (16 * ci), ci)
                classes.append(cls)
                counts[16 * ci + (cls & P4_MASK)] += 1
                if not self.values_by_class:
                    value = 2 * NUM_CODES * ci + self.code_table[(words[c] >> (16 * ci)) & 0xFFFF]
                    counts[EVAL_SUMS + ci] += self.cell_value[value]
                    counts[EVAL_SUMS + 2 + ci] += self.cell_value[value + NUM_CODES]
        h = 0
        for c in cells:
            if self.cells[c] in (BLACK, WHITE):
                h ^= self.zobrist[2 * c + self.cells[c] - 1]
        offsets = near_offsets(self.stride)
        return {
            "stones": [self.cells[c] for c in cells],
            "keys": [keys[c, d] for c in cells for d in range(4)],
            "patterns": [words[c] for c in empties],
            "classes": classes,
            "counts": counts,
            "candidates": [c for c in cells if self.cells[c] == EMPTY and any(self.cells[c + o] in (BLACK, WHITE)
                                                                             for o in offsets)]
            if self.move_count else [self.index(self.width // 2, self.height // 2)],
            "hash": h,
            "side": self.side,
            "move_count": self.move_count,
        }


_HALF_INFO: dict = {}


def _half_info(half_class: "array[int]", code_table: "array[int]", cell_value: "array[int]") -> "array[int]":
    """The running sums' table, [65536 * colour index + a colour's 16 pattern bits]: the class byte, then the
    cell's value as the side to move and as the side that waits, 16 bits each from bit 16 and bit 32, plus
    VALUE_BIAS (one read where the class table, the code table and two value reads were). Shared by the boards of
    one rule and network."""
    key = (half_class.tobytes(), cell_value.tobytes())
    table = _HALF_INFO.get(key)
    if table is None:
        assert all(-VALUE_BIAS <= v < VALUE_BIAS for v in cell_value), "a cell value does not fit 16 bits"
        roles = [[(cell_value[(ci * 2) * NUM_CODES + code] + VALUE_BIAS) << 16
                  | (cell_value[(ci * 2 + 1) * NUM_CODES + code] + VALUE_BIAS) << 32 for code in range(NUM_CODES)]
                 for ci in range(2)]
        table = array("Q", [cls | roles[i >> 16][code_table[i & 0xFFFF]] for i, cls in enumerate(half_class)])
        _HALF_INFO[key] = table
    return table


def _word_key(word: int, shift: int) -> int:
    """The line key of the cell at bit offset `shift` of a line word: the 5 cells before it (low 10 bits) and the
    5 after it."""
    x = word >> (shift - 2 * PADDING)
    return (x & (HALF_KEYS - 1)) | (((x >> (2 * PADDING + 2)) & (HALF_KEYS - 1)) << (2 * PADDING))


def _spread(byte: int, d: int) -> int:
    """A line-table byte (black's Pattern in the low nibble, white's in the high one) placed in a cell's pattern
    word at direction d: black's four patterns are the word's low 16 bits, white's the high 16, a nibble a
    direction (each colour's half is its code-table index as it stands)."""
    return ((byte & 15) | ((byte >> 4) << 16)) << (4 * d)


def place_undo_loop(board: Board, cells: list, rounds: int) -> int:
    """Place and take back a stone on each of `cells`, `rounds` times, through the search's make/unmake;
    returns the number of place+undo pairs (the core benchmark's work)."""
    buffer = array("i", cells)
    count = len(cells)
    for r in range(rounds):
        for i in range(count):
            board.make(buffer[i])
            board.unmake()
    return rounds * count
