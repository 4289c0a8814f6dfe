"""Connect Four solver: exact negamax with alpha-beta, and a depth-limited heuristic search for when the proof takes
too long.

Scores (Pons' convention, the same as bitbully's): from the side to move's view, a win whose winning stone is
dropped when the board holds m stones scores (43 - m) // 2, i.e. 22 minus the winner's stone count at the end
(21: the next stone wins on an empty board); a loss is minus the opponent's score; a draw is 0.

The exact search proves null windows (alpha, alpha + 1) and narrows the score by bisection from 0 (a weak solve
is only the probes around 0). It plays only non-losing moves (an opponent's playable winning cell must be blocked;
two lose; never drop under an opponent's winning cell), bounds every node by the earliest possible win and loss,
and keeps lower and upper bounds plus the best move in a transposition table of 8-byte entries (49-bit key),
which it also probes for the children before searching them (enhanced transposition cutoff). Moves are tried best
first: the table's move, then by the winning cells the move gives (those on the mover's good rows count twice),
centre first.

The heuristic search (`search`) is the same negamax cut at a depth, with its own depth-keyed table; its leaves
score the winning cells of both sides that the other side's cells below do not shadow, by row parity (the first
player wants them on odd rows, the second on even rows: zugzwang fills the board in that order).

Compiled by Cython (solver.pxd has the C types); runs unchanged as plain Python.
"""
from __future__ import annotations

import mmap
from array import array
from time import perf_counter

import cython

from pbrain.connect4.bitboard import Connect4, Connect4Error

if not cython.compiled:
    from pbrain.connect4.bitboard import (  # noqa: F401  # noqa: F401
        BOARD,
        BOTTOM,
        MASK64,
        NCELLS,
        NCOLS,
        column_cells,
        column_of,
        playable_cells,
        popcount,
        winning_mask,
    )

    MAX_PLY = 44
    CHECK_MASK = 4095
    UNKNOWN = -1000
    HWIN = 1000
    HINF = 30000
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    BOUND_EXACT = 3
    HEURISTIC_TT_BITS = 20
    ETC_BELOW = 36

COMPILED = cython.compiled
PROVEN = HWIN
"""search() scores from PROVEN + s up (from -PROVEN - s down) are a proven win (loss) of solver score s."""
ORDER = (3, 2, 4, 1, 5, 0, 6)
"""Columns from the centre out: the tie-break of the move ordering."""
HASH_MULT = 0x9E3779B97F4A7C15
X_ROWS = BOTTOM * 21
"""Rows 1, 3, 5 counted from 1 at the bottom (row indexes 0, 2, 4): the first player's good threat rows."""
O_ROWS = BOTTOM * 42
"""Rows 2, 4, 6 (indexes 1, 3, 5): the second player's good threat rows."""
THREAT_GOOD = 20
"""Heuristic weight of a winning cell on the owner's good row parity (X: rows 1, 3, 5; O: rows 2, 4, 6)."""
THREAT_OTHER = 5
"""Heuristic weight of any other winning cell."""
THREAT_STACKED = 30
"""Heuristic bonus for two winning cells of one side right above each other (the lower one wins once reached)."""
THREAT_ALONE = 20
"""Heuristic bonus for having winning cells on one's good rows when the opponent has none on its own."""
CENTRE_STONE = 2
"""Heuristic weight of a stone in the centre column."""


def _table(entries: int):  # type: ignore[no-untyped-def]
    """A zeroed table of 64-bit words (an anonymous mapping: pages are only allocated as they are touched)."""
    return memoryview(mmap.mmap(-1, 8 * entries)).cast("Q")


class Solver:
    """Exact Connect Four solver with a transposition table of `tt_entries` (rounded to a power of two) 8-byte
    entries, and the depth-limited heuristic search (`search`). Not thread-safe; reuse one per process. The
    evaluation weights are public attributes (w_good, w_other, w_stacked, w_alone, w_centre) for tuning."""

    def __init__(self, tt_entries: int = 1 << 23) -> None:
        bits = 10
        while (1 << (bits + 1)) <= tt_entries:
            bits += 1
        self.tt_bits = bits
        self.table = _table(1 << bits)
        self.hkeys = _table(1 << HEURISTIC_TT_BITS)
        self.hdata = _table(1 << HEURISTIC_TT_BITS)
        self.order = array("i", ORDER)
        self.move_bits = array("Q", [0]) * (8 * MAX_PLY)
        self.move_cols = array("i", [0]) * (8 * MAX_PLY)
        self.scores = array("i", [0]) * (8 * MAX_PLY)
        self.nodes = 0
        self.aborted = False
        self.deadline = 0.0
        self.stop = None
        self.root_best = -1
        self.best_col = -1
        self.w_good = THREAT_GOOD
        self.w_other = THREAT_OTHER
        self.w_stacked = THREAT_STACKED
        self.w_centre = CENTRE_STONE
        self.w_alone = THREAT_ALONE

    def clear(self) -> None:
        """Forget both transposition tables."""
        self.table = _table(1 << self.tt_bits)
        self.hkeys = _table(1 << HEURISTIC_TT_BITS)
        self.hdata = _table(1 << HEURISTIC_TT_BITS)

    # -- limits ----------------------------------------------------------------------------------------------------

    def _start(self, deadline: float, stop) -> None:  # type: ignore[no-untyped-def]
        """Arm the limits of one public call: a perf_counter() deadline (0: none) and a stop event (None: none)."""
        self.deadline = deadline
        self.stop = stop
        self.aborted = False
        self._check()

    def _check(self) -> None:
        """Set `aborted` once the deadline has passed or the stop event is set."""
        if self.deadline > 0.0 and perf_counter() >= self.deadline:
            self.aborted = True
        elif self.stop is not None and self.stop.is_set():
            self.aborted = True

    # -- the exact search ------------------------------------------------------------------------------------------

    def _negamax(self, cur: int, mask: int, n: int, alpha: int, beta: int, ply: int) -> int:
        """Score of the position (side to move's stones `cur`, all stones `mask`, `n` of them) within the window:
        a value <= alpha is an upper bound, >= beta a lower bound, else exact. Contract: the side to move cannot
        win at once and the game is not over. At ply 0, root_best is left on the move that raised alpha (-1 if
        none did). Returns 0 without storing anything once `aborted`."""
        self.nodes += 1
        if (self.nodes & CHECK_MASK) == 0:
            self._check()
        if self.aborted:
            return 0
        poss = playable_cells(mask)
        opp_wins = winning_mask(cur ^ mask, mask)
        forced = poss & opp_wins
        if forced:
            if forced & (forced - 1):
                return -((NCELLS - n) // 2)  # two cells to block: the opponent's next stone wins
            poss = forced
        moves = poss & (BOARD ^ (opp_wins >> 1))
        if moves == 0:
            return -((NCELLS - n) // 2)  # every move lets the opponent win next
        if n >= NCELLS - 2:
            return 0  # our stone cannot win nor let the opponent's last one win
        low = -((NCELLS - 2 - n) // 2)  # the opponent cannot win before its second stone from now
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (NCELLS - 1 - n) // 2  # nor can we before our second stone
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        key = cur + mask
        slot = ((key * HASH_MULT) & MASK64) >> (64 - self.tt_bits)
        entry = self.table[slot]
        tt_col = -1
        if (entry >> 15) == key and ((entry >> 6) & 63) != 0:
            tt_col = ((entry >> 12) & 7) - 1
            if ply > 0:  # no cut at the root: its caller wants the move behind the bound
                stored_low = ((entry >> 6) & 63) - 32
                stored_high = (entry & 63) - 32
                if stored_low >= beta:
                    return stored_low
                if stored_high <= alpha:
                    return stored_high
                if stored_low > alpha:
                    alpha = stored_low
                if stored_high < beta:
                    beta = stored_high
        if ply > 0 and n < ETC_BELOW:
            score = self._child_cutoff(cur, mask, moves, beta)
            if score >= beta:
                return score
        count = self._order_moves(cur, mask, moves, tt_col, ply, X_ROWS if (n & 1) == 0 else O_ROWS)
        base = 8 * ply
        alpha0 = alpha
        best = -HINF
        best_col = -1
        for i in range(count):
            bit = self.move_bits[base + i]
            score = -self._negamax(cur ^ mask, mask | bit, n + 1, -beta, -alpha, ply + 1)
            if self.aborted:
                return 0
            if score > best:
                best = score
                best_col = self.move_cols[base + i]
                if score > alpha:
                    alpha = score
                    if ply == 0:
                        self.root_best = best_col
                    if alpha >= beta:
                        break
        if best >= beta:
            self._store(key, slot, best, 32, best_col)
        elif best <= alpha0:
            self._store(key, slot, -32, best, -1)
        else:
            self._store(key, slot, best, best, best_col)
        return best

    def _child_cutoff(self, cur: int, mask: int, moves: int, beta: int) -> int:
        """Enhanced transposition cutoff: the best lower bound (at least `beta`) that a child's stored exact upper
        bound gives one of `moves`, found before searching any of them; -HINF when none reaches `beta`."""
        child = cur ^ mask
        rest = moves
        while rest:
            bit = rest & (0 - rest)
            rest ^= bit
            child_key = child + (mask | bit)
            entry = self.table[((child_key * HASH_MULT) & MASK64) >> (64 - self.tt_bits)]
            if (entry >> 15) == child_key and ((entry >> 6) & 63) != 0:
                score = entry & 63
                score = 32 - score  # the move's lower bound: minus the child's stored upper bound
                if score >= beta:
                    return score
        return -HINF

    def _store(self, key: int, slot: int, low: int, high: int, col: int) -> None:
        """Keep bounds low..high (-32 / 32: none) and the best column (-1: none) of `key`, merged with what the
        slot already holds for the same key."""
        entry = self.table[slot]
        if (entry >> 15) == key and ((entry >> 6) & 63) != 0:
            old_low = ((entry >> 6) & 63) - 32
            old_high = (entry & 63) - 32
            if old_low > low and old_low <= high:
                low = old_low
            if old_high < high and old_high >= low:
                high = old_high
            if col < 0:
                col = ((entry >> 12) & 7) - 1
        if low < -31:
            low = -31
        if high > 31:
            high = 31
        self.table[slot] = (key << 15) | ((col + 1) << 12) | ((low + 32) << 6) | (high + 32)

    def _order_moves(self, cur: int, mask: int, moves: int, tt_col: int, ply: int, good: int) -> int:
        """Put the moves of `moves` (a bitboard of cells) into the ply's buffers, best first; returns how many."""
        base = 8 * ply
        count = 0
        scores = self.scores
        for i in range(NCOLS):
            col = self.order[i]
            bit = moves & column_cells(col)
            if bit == 0:
                continue
            if col == tt_col:
                score = 1000
            else:
                threats = winning_mask(cur | bit, mask | bit)
                score = popcount(threats) + popcount(threats & good)
            j = count
            while j > 0 and scores[base + j - 1] < score:
                self.move_bits[base + j] = self.move_bits[base + j - 1]
                self.move_cols[base + j] = self.move_cols[base + j - 1]
                scores[base + j] = scores[base + j - 1]
                j -= 1
            self.move_bits[base + j] = bit
            self.move_cols[base + j] = col
            scores[base + j] = score
            count += 1
        return count

    # -- the root of the exact search ------------------------------------------------------------------------------

    def _solve(self, cur: int, mask: int, n: int, weak: bool) -> int:
        """Exact score (weak: its sign) of a position that is not over, or UNKNOWN once `aborted`; best_col is left
        on a move that reaches it (with weak, one that keeps the sign)."""
        poss = playable_cells(mask)
        wins = poss & winning_mask(cur, mask)
        if wins:
            self.best_col = column_of(wins & (0 - wins))
            return 1 if weak else (NCELLS + 1 - n) // 2
        safe = self._fallback(cur, mask)
        if safe == 0:
            return -1 if weak else -((NCELLS - n) // 2)
        if n >= NCELLS - 2:
            return 0  # a safe stone, then at most the opponent's last one: no four
        if weak:
            low = -1
            high = 1
        else:
            low = -((NCELLS - 2 - n) // 2)
            high = (NCELLS - 1 - n) // 2
        score = 0
        while low < high:
            med = 0 if low < 0 < high else low + (high - low) // 2
            self.root_best = -1
            score = self._negamax(cur, mask, n, med, med + 1, 0)
            if self.aborted:
                return UNKNOWN
            if score <= med:
                high = score
            else:
                low = score
                if self.root_best >= 0:
                    self.best_col = self.root_best
        if weak:
            return (score > 0) - (score < 0)
        return low

    def _fallback(self, cur: int, mask: int) -> int:
        """Set best_col to the first safe move from the centre (else one that blocks a threat, else any legal one);
        returns the safe moves (a bitboard). For a side to move that cannot win at once."""
        poss = playable_cells(mask)
        opp_wins = winning_mask(cur ^ mask, mask)
        forced = poss & opp_wins
        safe = poss
        if forced:
            safe = 0 if forced & (forced - 1) else forced
        safe &= BOARD ^ (opp_wins >> 1)
        pick = safe if safe else (forced if forced else poss)
        self.best_col = -1
        for i in range(NCOLS):
            col = self.order[i]
            if pick & column_cells(col):
                self.best_col = col
                break
        return safe

    def _root(self, pos: Connect4, deadline: float, stop) -> None:  # type: ignore[no-untyped-def]
        """Check that `pos` can be searched and arm the limits."""
        if pos.is_over():
            raise Connect4Error("the game is over: there is nothing to solve")
        self._start(deadline, stop)

    def solve(self, pos: Connect4, weak: bool = False, deadline: float = 0.0, stop=None):  # type: ignore
        """The exact score of `pos` for the side to move (weak: only its sign, -1 / 0 / 1), or None when the
        perf_counter() `deadline` (0: none) passed or `stop.is_set()` first. Connect4Error if the game is over."""
        self._root(pos, deadline, stop)
        score = self._solve(pos.current, pos.mask, pos.move_count, weak)
        return None if score == UNKNOWN else score

    def best_move(self, pos: Connect4, weak: bool = False, deadline: float = 0.0,  # type: ignore
                  stop=None):
        """(score, column) like solve(), with a column that reaches the score (weak: keeps the win / draw / loss;
        in a lost position the longest resistance only when exact), or None when interrupted."""
        self._root(pos, deadline, stop)
        score = self._solve(pos.current, pos.mask, pos.move_count, weak)
        return None if score == UNKNOWN else (score, self.best_col)

    def score_moves(self, pos: Connect4, weak: bool = False, deadline: float = 0.0, stop=None):  # type: ignore
        """Per column 0..6 the score of playing it, from the mover's view (weak: its sign), None for a full column;
        None instead of the list when interrupted. Connect4Error if the game is over."""
        self._root(pos, deadline, stop)
        cur = pos.current
        mask = pos.mask
        n = pos.move_count
        scores = []
        for col in range(NCOLS):
            bit = playable_cells(mask) & column_cells(col)
            if bit == 0:
                scores.append(None)
                continue
            if winning_mask(cur, mask) & bit:
                scores.append(1 if weak else (NCELLS + 1 - n) // 2)
                continue
            if n + 1 == NCELLS:
                scores.append(0)
                continue
            score = self._solve(cur ^ mask, mask | bit, n + 1, weak)
            if score == UNKNOWN:
                return None
            scores.append(-score)
        return scores

    # -- the depth-limited heuristic search ------------------------------------------------------------------------

    def search(self, pos: Connect4, max_depth: int = 42, deadline: float = 0.0, stop=None):  # type: ignore
        """Iterative deepening negamax to `max_depth` plies with the heuristic evaluation at the leaves.

        Returns (score, column, depth) of the deepest completed iteration; (0, a safe column, 0) if not even depth 1
        completed in time. A score of PROVEN + s or more (-PROVEN - s or less) is a proven win (loss) of solver
        score s; a search as deep as the game has moves left is exact. Connect4Error if the game is over."""
        self._root(pos, deadline, stop)
        cur = pos.current
        mask = pos.mask
        n = pos.move_count
        poss = playable_cells(mask)
        wins = poss & winning_mask(cur, mask)
        if wins:
            return (HWIN + (NCELLS + 1 - n) // 2, column_of(wins & (0 - wins)), 1)
        self._fallback(cur, mask)
        result = (0, self.best_col, 0)
        for depth in range(1, min(max_depth, NCELLS - n) + 1):
            self.root_best = -1
            score = self._hsearch(cur, mask, n, depth, -HINF, HINF, 0)
            if self.aborted:
                break
            col = self.root_best
            if col < 0:  # every move loses at once
                col = result[1]
            result = (score, col, depth)
            if score >= HWIN or score <= -HWIN:
                break
        return result

    def _hsearch(self, cur: int, mask: int, n: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Fail-soft alpha-beta to `depth` plies, heuristic scores at the leaves, proven results as +-(HWIN + s).
        Contract as in _negamax (no win at once for the side to move; root_best at ply 0)."""
        self.nodes += 1
        if (self.nodes & CHECK_MASK) == 0:
            self._check()
        if self.aborted:
            return 0
        poss = playable_cells(mask)
        opp_wins = winning_mask(cur ^ mask, mask)
        forced = poss & opp_wins
        if forced:
            if forced & (forced - 1):
                return -HWIN - (NCELLS - n) // 2
            poss = forced
        moves = poss & (BOARD ^ (opp_wins >> 1))
        if moves == 0:
            return -HWIN - (NCELLS - n) // 2
        if n >= NCELLS - 2:
            return 0
        if depth <= 0:
            return self._evaluate(cur, mask, n)
        key = cur + mask
        slot = ((key * HASH_MULT) & MASK64) >> (64 - HEURISTIC_TT_BITS)
        tt_col = -1
        if self.hkeys[slot] == key + 1:
            data = self.hdata[slot]
            tt_col = ((data >> 24) & 7) - 1
            if ply > 0 and ((data >> 16) & 63) >= depth:
                stored = (data & 0xFFFF) - 32768
                bound = (data >> 22) & 3
                if bound == BOUND_EXACT:
                    return stored
                if bound == BOUND_LOWER and stored >= beta:
                    return stored
                if bound == BOUND_UPPER and stored <= alpha:
                    return stored
        if ply > 0 and n < ETC_BELOW:
            score = self._child_cutoff(cur, mask, moves, beta)
            if score >= beta:
                return score
        count = self._order_moves(cur, mask, moves, tt_col, ply, X_ROWS if (n & 1) == 0 else O_ROWS)
        base = 8 * ply
        alpha0 = alpha
        best = -HINF
        best_col = -1
        for i in range(count):
            bit = self.move_bits[base + i]
            score = -self._hsearch(cur ^ mask, mask | bit, n + 1, depth - 1, -beta, -alpha, ply + 1)
            if self.aborted:
                return 0
            if score > best:
                best = score
                best_col = self.move_cols[base + i]
                if score > alpha:
                    alpha = score
                    if ply == 0:
                        self.root_best = best_col
                    if alpha >= beta:
                        break
        bound = BOUND_EXACT
        if best >= beta:
            bound = BOUND_LOWER
        elif best <= alpha0:
            bound = BOUND_UPPER
        self.hkeys[slot] = key + 1
        self.hdata[slot] = (best + 32768) | (depth << 16) | (bound << 22) | ((best_col + 1) << 24)
        return best

    def _evaluate(self, cur: int, mask: int, n: int) -> int:
        """Heuristic score for the side to move: winning cells weighted by row parity, stacked pairs of them, and
        stones in the centre column."""
        opp = cur ^ mask
        mine = winning_mask(cur, mask)
        theirs = winning_mask(opp, mask)
        # a winning cell above one of the other side's is out of reach: the other side gets there first
        shadow_mine = (mine << 1) | (mine << 2) | (mine << 3) | (mine << 4) | (mine << 5)
        shadow_theirs = (theirs << 1) | (theirs << 2) | (theirs << 3) | (theirs << 4) | (theirs << 5)
        mine &= BOARD ^ (shadow_theirs & BOARD)
        theirs &= BOARD ^ (shadow_mine & BOARD)
        if n & 1:
            my_rows = O_ROWS
        else:
            my_rows = X_ROWS
        their_rows = BOARD ^ my_rows
        good_mine = popcount(mine & my_rows)
        good_theirs = popcount(theirs & their_rows)
        score = self.w_good * (good_mine - good_theirs)
        score += self.w_other * (popcount(mine & their_rows) - popcount(theirs & my_rows))
        score += self.w_stacked * (popcount(mine & (mine >> 1)) - popcount(theirs & (theirs >> 1)))
        if good_mine and not good_theirs:
            score += self.w_alone
        elif good_theirs and not good_mine:
            score -= self.w_alone
        centre = column_cells(3)
        score += self.w_centre * (popcount(cur & centre) - popcount(opp & centre))
        return score
