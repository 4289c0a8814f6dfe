"""Connect Four: 7 columns x 6 rows, stones drop to the lowest free cell, four in a row wins, a full board draws.

Bitboards in Pascal Pons' layout: bit STRIDE * col + row (row 0 at the bottom), 7 bits per column, the 7th an
always-empty sentinel so that shifts never carry one column's cells into the next. A position is two 64-bit words:
`current`, the stones of the side to move, and `mask`, every stone. `current + mask` is a unique key of the
position (the 49-bit key the solver's transposition table stores).

The module-level bit helpers (winning_mask, playable_cells, popcount, ...) are what the solver (solver.py) and
an MCTS build on; Connect4 is the checked, user-facing position with a move history.

Compiled by Cython (connect4.pxd has the C types); runs unchanged as plain Python.
"""
from __future__ import annotations

from array import array

import cython

if not cython.compiled:
    NCOLS = 7
    NROWS = 6
    STRIDE = 7
    NCELLS = 42

COMPILED = cython.compiled
WIDTH = 7
"""Columns."""
HEIGHT = 6
"""Rows."""
FIRST = 1
"""The colour that moves first ('X')."""
SECOND = 2
"""The colour that moves second ('O')."""
SYMBOLS = ".XO"
"""Display character of an empty cell and of each colour."""

# 64-bit constants live in C globals (connect4.pxd): Cython keeps literals above 32 bits as Python objects.
MASK64 = (1 << 64) - 1
BOTTOM = 0x0000040810204081
"""The bottom cell of every column."""
BOARD = BOTTOM * 63
"""Every cell of the board (no sentinel bits)."""
M1 = 0x5555555555555555
M2 = 0x3333333333333333
M4 = 0x0F0F0F0F0F0F0F0F
H01 = 0x0101010101010101
XS_MULT = 0x2545F4914F6CDD1D
SPLIT_GAMMA = 0x9E3779B97F4A7C15
SPLIT_M1 = 0xBF58476D1CE4E5B9
SPLIT_M2 = 0x94D049BB133111EB


class Connect4Error(ValueError):
    """An illegal move (full or unknown column, game over), a bad move string, or an undo with no move."""


def popcount(x: int) -> int:
    """Number of set bits of a 64-bit word."""
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    return ((x * H01) & MASK64) >> 56


def cell_bit(col: int, row: int) -> int:
    """The bit of cell (col, row)."""
    bit = 1  # unsigned long long (connect4.pxd)
    return bit << (STRIDE * col + row)


def column_cells(col: int) -> int:
    """Every cell of column `col`."""
    return cell_bit(col, 0) * 63


def playable_cells(mask: int) -> int:
    """The lowest free cell of every column that is not full."""
    return (mask + BOTTOM) & BOARD


def winning_mask(stones: int, mask: int) -> int:
    """The empty cells (playable now or not) where one more stone would give `stones` four in a row."""
    # vertical: three stones right below
    r = (stones << 1) & (stones << 2) & (stones << 3)
    for d in range(STRIDE - 1, STRIDE + 2):  # both diagonals and horizontal
        pair = (stones << d) & (stones << (2 * d))  # the two cells before the empty one are stones
        r |= pair & (stones << (3 * d))  # xxx_
        r |= pair & (stones >> d)  # xx_x
        pair = (stones >> d) & (stones >> (2 * d))  # the two cells after it are stones
        r |= pair & (stones << d)  # x_xx
        r |= pair & (stones >> (3 * d))  # _xxx
    return r & (BOARD ^ mask)


def has_four(stones: int) -> bool:
    """True when `stones` hold four in a row."""
    pair = stones & (stones >> 1)  # vertical
    if pair & (pair >> 2):
        return True
    for d in range(STRIDE - 1, STRIDE + 2):  # both diagonals and horizontal
        pair = stones & (stones >> d)
        if pair & (pair >> (2 * d)):
            return True
    return False


def move_bit(mask: int, col: int) -> int:
    """The cell a stone dropped in `col` lands on (0 when the column is full)."""
    return playable_cells(mask) & column_cells(col)


def column_of(bit: int) -> int:
    """The column of a one-bit cell bitboard."""
    col = 0
    while (bit >> (STRIDE * (col + 1))) != 0:
        col += 1
    return col


def _splitmix(x: int) -> int:
    """A well-mixed nonzero 64-bit PRNG state from any seed."""
    x = (x + SPLIT_GAMMA) & MASK64
    x = ((x ^ (x >> 30)) * SPLIT_M1) & MASK64
    x = ((x ^ (x >> 27)) * SPLIT_M2) & MASK64
    x = x ^ (x >> 31)
    if x == 0:
        x = SPLIT_GAMMA
    return x


class Connect4:
    """A Connect Four position with its move history; colour 1 ('X') moves first, 2 ('O') second."""

    def __init__(self, moves: str = "") -> None:
        self.current = 0
        self.mask = 0
        self.side = FIRST
        self.move_count = 0
        self.won = 0
        self.hist = array("b", [0]) * NCELLS
        if not isinstance(moves, str):
            raise Connect4Error(f"moves must be a string of column digits 1..7, not {type(moves).__name__}")
        for i, ch in enumerate(moves):
            if ch not in "1234567":
                raise Connect4Error(f"move {i + 1} ({ch!r}): not a column digit 1..7")
            col = ord(ch) - ord("1")
            if self.won:
                raise Connect4Error(f"move {i + 1} ({ch!r}): the game is already over, {SYMBOLS[self.won]} has won")
            if not self.can_play(col):
                raise Connect4Error(f"move {i + 1} ({ch!r}): column {col + 1} is full")
            self._push(col)

    # -- fast paths (no checks) ------------------------------------------------------------------------------------

    def _push(self, col: int) -> None:
        """Drop the side to move's stone in `col` (playable, game not over)."""
        bit = move_bit(self.mask, col)
        mover = self.current | bit
        if has_four(mover):
            self.won = self.side
        self.current = self.current ^ self.mask  # the opponent's stones: the next side to move
        self.mask = self.mask | bit
        self.hist[self.move_count] = col
        self.move_count += 1
        self.side = 3 - self.side

    def possible(self) -> int:
        """Bitboard of the playable cells (0 once the game is won)."""
        if self.won:
            return 0
        return playable_cells(self.mask)

    def winning_positions(self) -> int:
        """Bitboard of the empty cells where the side to move would connect four."""
        return winning_mask(self.current, self.mask)

    def opponent_winning_positions(self) -> int:
        """Bitboard of the empty cells where the side that just moved would connect four."""
        return winning_mask(self.current ^ self.mask, self.mask)

    def non_losing_moves(self) -> int:
        """Bitboard of the playable cells after which the opponent cannot win at once (0: every move loses;
        meaningful when the side to move has no winning move itself)."""
        poss = self.possible()
        opp = self.opponent_winning_positions()
        forced = poss & opp
        if forced:
            if forced & (forced - 1):
                return 0  # two cells to block
            poss = forced
        return poss & (BOARD ^ (opp >> 1))  # never play right below an opponent's winning cell

    def move_score(self, col: int) -> int:
        """Ordering score of a legal move: the number of winning cells the side to move has after it."""
        bit = move_bit(self.mask, col)
        return popcount(winning_mask(self.current | bit, self.mask | bit))

    # -- the checked interface -------------------------------------------------------------------------------------

    def can_play(self, col: int) -> bool:
        """True when `col` (0..6) is on the board and not full, and the game is not over."""
        if col < 0 or col >= NCOLS or self.won:
            return False
        return (self.mask & cell_bit(col, NROWS - 1)) == 0

    def legal_moves(self) -> list:
        """The playable columns (0-based, ascending); empty once the game is over."""
        if self.won:
            return []
        return [col for col in range(NCOLS) if (self.mask & cell_bit(col, NROWS - 1)) == 0]

    def play(self, col: int) -> None:
        """Drop the side to move's stone in `col` (0..6; error messages name columns 1..7)."""
        if col < 0 or col >= NCOLS:
            raise Connect4Error(f"column index {col} is off the board (0..{NCOLS - 1} for columns 1..{NCOLS})")
        if self.won:
            raise Connect4Error(f"the game is over: {SYMBOLS[self.won]} has won")
        if self.mask & cell_bit(col, NROWS - 1):
            raise Connect4Error(f"column {col + 1} is full")
        self._push(col)

    def undo(self) -> int:
        """Take back the last move; returns its column."""
        if self.move_count == 0:
            raise Connect4Error("no move to undo")
        self.move_count -= 1
        col = self.hist[self.move_count]
        cells = self.mask & column_cells(col)
        top = (cells + cell_bit(col, 0)) >> 1  # the highest stone of the column
        self.mask = self.mask ^ top
        self.current = self.current ^ self.mask
        self.side = 3 - self.side
        self.won = 0
        return col

    def winner(self) -> int:
        """0 while nobody has four in a row, else the winning colour."""
        return self.won

    def is_full(self) -> bool:
        """True when all 42 cells are taken."""
        return self.move_count == NCELLS

    def is_over(self) -> bool:
        """True after a win or on a full board."""
        return self.won != 0 or self.move_count == NCELLS

    def result(self):  # type: ignore[no-untyped-def]
        """None while the game goes on, 0 for a draw, else the winning colour."""
        if self.won:
            return self.won
        if self.move_count == NCELLS:
            return 0
        return None

    def is_winning_move(self, col: int) -> bool:
        """True when the side to move connects four by playing `col`."""
        if not self.can_play(col):
            return False
        return (winning_mask(self.current, self.mask) & move_bit(self.mask, col)) != 0

    def stone(self, col: int, row: int) -> int:
        """The colour on (col, row), row 0 at the bottom; 0 for an empty cell."""
        if not (0 <= col < NCOLS and 0 <= row < NROWS):
            raise Connect4Error(f"cell ({col}, {row}) is off the board")
        bit = cell_bit(col, row)
        if (self.mask & bit) == 0:
            return 0
        if self.current & bit:
            return self.side
        return 3 - self.side

    def history(self) -> list:
        """The columns played (0-based), in order."""
        return [self.hist[i] for i in range(self.move_count)]

    def moves_string(self) -> str:
        """The moves as 1-based column digits: Connect4(pos.moves_string()) is the same position."""
        return "".join(chr(ord("1") + self.hist[i]) for i in range(self.move_count))

    def copy(self) -> Connect4:
        """An independent copy with the same history."""
        other = Connect4()
        other.current = self.current
        other.mask = self.mask
        other.side = self.side
        other.move_count = self.move_count
        other.won = self.won
        for i in range(self.move_count):
            other.hist[i] = self.hist[i]
        return other

    def key(self) -> int:
        """A unique key of the position (not of the history): current + mask, below 2**49."""
        return self.current + self.mask

    def winning_cells(self) -> list:
        """The (col, row) cells of a four in a row, [] when there is none (several fours: one of them)."""
        if not self.won:
            return []
        stones = self.current ^ self.mask  # the winner moved last
        for d in (1, STRIDE, STRIDE - 1, STRIDE + 1):
            pair = stones & (stones >> d)
            starts = pair & (pair >> (2 * d))
            for start in range(STRIDE * NCOLS):
                if (starts >> start) & 1:
                    return [((start + k * d) // STRIDE, (start + k * d) % STRIDE) for k in range(4)]
        return []

    def random_playout(self, seed: int, guided: bool = True) -> int:
        """Play random moves to the end of the game and return the winner, 0 for a draw; `guided` takes a win,
        else blocks the opponent's, when there is one (unguided: every move uniformly at random). The position is
        left unchanged; the same seed, the same game."""
        return self._playout(_splitmix(seed & MASK64), guided)

    def _playout(self, state: int, guided: bool) -> int:
        """random_playout from a mixed nonzero xorshift64* state."""
        if self.won:
            return self.won
        cur = self.current
        mask = self.mask
        n = self.move_count
        side = self.side
        while n < NCELLS:
            poss = playable_cells(mask)
            bit = 0
            if guided:
                if winning_mask(cur, mask) & poss:
                    return side
                threats = winning_mask(cur ^ mask, mask) & poss
                if threats:
                    if threats & (threats - 1):
                        return 3 - side  # two cells to block: the opponent wins next move
                    bit = threats
            if bit == 0:
                state ^= state >> 12
                state ^= (state << 25) & MASK64
                state ^= state >> 27
                k = (((state * XS_MULT) & MASK64) >> 32) % popcount(poss)
                for _ in range(k):
                    poss &= poss - 1
                bit = poss & -poss
                if not guided and has_four(cur | bit):
                    return side  # (guided, a random move is never a win: a win would have been taken)
            cur = cur ^ mask
            mask = mask | bit
            n += 1
            side = 3 - side
        return 0

    def __str__(self) -> str:
        rows = []
        for row in range(NROWS - 1, -1, -1):
            rows.append(" ".join(SYMBOLS[self.stone(col, row)] for col in range(NCOLS)))
        rows.append(" ".join(str(col + 1) for col in range(NCOLS)))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Connect4({self.moves_string()!r})"

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Connect4, (self.moves_string(),))
