"""Engine facade: a game position, a searcher, and `think` under limits. No I/O and no threads in here (only, with
more than one thread asked for, the helper processes of smp.py for the length of a think).

The protocol layer (and the CLI, and tests) drive Pentad only through this module. Coordinates are (x, y) with
0 <= x < width, 0 <= y < height; colours are rules.BLACK / rules.WHITE.
"""
from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Protocol, Sequence, Tuple

from pbrain import levels, params, records, timeman
from pbrain.core import shapes
from pbrain.core.board import MAX_SIZE, MIN_SIZE, Board, BoardError
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.core.shapes import Threat
from pbrain.mcts import player
from pbrain.search import smp
from pbrain.search.searcher import Searcher
from pbrain.search.tt import entries_for

__all__ = ["Engine", "Limits", "SearchInfo", "SearchResult", "StopFlag", "Point", "Threat", "BoardError", "MIN_SIZE",
           "MAX_SIZE", "SEARCH_KINDS", "DEFAULT_MEMORY_BYTES", "check_move"]
"""The facade's names; Threat, BoardError, MIN_SIZE and MAX_SIZE come from the board, and are the facade's too."""

Point = Tuple[int, int]
DEFAULT_MEMORY_BYTES = 350 * 1024 * 1024
UNTIMED_MS = 1e12
SEARCH_KINDS = player.SEARCHES
"""The searches `set_search_kind` accepts: "alphabeta" (the tournament search) and "mcts"."""


class StopFlag(Protocol):
    """Anything with is_set(), such as threading.Event: the search stops soon after it becomes true."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class Limits:
    """What bounds one `think`. None means "not given"; the protocol's own meanings apply to the time values."""

    turn_ms: Optional[int] = None
    """INFO timeout_turn: milliseconds for this move; 0 answers at once with the static best move."""
    match_ms: Optional[int] = None
    """INFO timeout_match: milliseconds for the whole game; 0 means no limit."""
    time_left_ms: Optional[int] = None
    """INFO time_left: milliseconds left in the game; timeman.UNLIMITED_MS means no limit."""
    max_depth: Optional[int] = None
    """Deepest iteration of the main search, and the most attacking moves a threat search may use: a depth
    limit is a horizon for everything (playing levels, tests)."""
    max_nodes: Optional[int] = None
    """Node budget. With no time value set, node and depth limits alone bound the search, so results are
    reproducible (tests, levels, benchmarks); with none of these set, the default turn time applies."""
    margin_ms: Optional[float] = None
    """Milliseconds kept back from the time limits for I/O and the manager (None: timeman.margin_ms's default
    for the turn; the session passes one that includes the latency it measured)."""


@dataclass(frozen=True)
class SearchInfo:
    """Progress after one completed iteration."""

    depth: int
    """Iteration depth in plies."""
    score: int
    """From the side to move's view; beyond params.WIN_THRESHOLD it is a forced win (WIN - plies)."""
    nodes: int
    """Nodes searched so far in this think."""
    time_ms: int
    """Milliseconds since think started."""
    pv: List[Point]
    """Principal variation, the move to play first."""

    @property
    def nps(self) -> int:
        """Nodes per second so far."""
        return int(self.nodes * 1000 / max(1, self.time_ms))


@dataclass(frozen=True)
class SearchResult:
    """The answer of one think."""

    move: Optional[Point]
    """The move to play; None only when the board is full."""
    score: int
    """From the side to move's view (see SearchInfo.score)."""
    depth: int
    """Deepest completed iteration (0 for instant answers)."""
    nodes: int
    """Nodes searched."""
    time_ms: int
    """Milliseconds spent."""
    pv: List[Point] = field(default_factory=list)
    """Principal variation starting with `move`."""
    reason: str = "search"
    """Why this move: 'win' (five now), 'defend' (the only block), 'vcf' (forced win found), 'static'
    (no time to search), 'vct' (forced win by threats), 'search', 'level' (a pattern-scorer level's choice),
    'mcts' (the Monte Carlo tree search's most visited move), 'mcts-proof' (its proven result), 'forced' (its
    pre-selection left one move) or 'none' (no move: board full)."""

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes * 1000 / max(1, self.time_ms))


class Engine:
    """One game position under one rule, and the means to think about it."""

    def __init__(self, width: int = 15, height: int = 0, rule: Rule = Rule.FREESTYLE,
                 memory_bytes: int = DEFAULT_MEMORY_BYTES) -> None:
        self.memory_bytes = memory_bytes
        self.hash_bytes = 0
        self.threads = 1
        self._board = Board(width, height or width, int(rule))
        self._searcher: Optional[Searcher] = None
        self._strength = levels.FULL_STRENGTH
        self._search_kind = "alphabeta"

    # --- position -----------------------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The board (read it; change it only through this facade)."""
        return self._board

    @property
    def width(self) -> int:
        """Board width (x extent)."""
        return self._board.width

    @property
    def height(self) -> int:
        """Board height (y extent)."""
        return self._board.height

    @property
    def rule(self) -> Rule:
        """The rule in force."""
        return Rule(self._board.rule)

    @property
    def side_to_move(self) -> int:
        """BLACK or WHITE."""
        return self._board.side

    def new_game(self, width: int, height: int = 0, rule: Optional[Rule] = None) -> None:
        """An empty width x height board (height defaults to width), keeping the rule unless one is given, and
        nothing learnt in earlier games (so a game plays the same in a fresh process or after others, and no entry
        of another board size or rule is read); raises BoardError for an unsupported size."""
        self._board = Board(width, height or width, int(self.rule if rule is None else rule))
        self.clear_hash()

    def set_rule(self, rule: Rule) -> None:
        """Change the rule, keeping the stones and the side to move, and forget what earlier searches learnt
        (the hash keys do not include the rule)."""
        if rule is self.rule:
            return
        stones, side = self.stones(), self.side_to_move
        self._board = Board(self.width, self.height, int(rule))
        self._place_all(stones, side)
        self.clear_hash()

    def play(self, x: int, y: int) -> None:
        """The side to move plays (x, y); raises BoardError when off the board or occupied."""
        self._board.play(x, y)

    def undo(self) -> Point:
        """Take back the last stone and return where it was; raises BoardError on an empty board."""
        return self._board.xy(self._board.undo())

    def take_back(self, x: int, y: int) -> None:
        """Remove the stone at (x, y), which must be the last one played; raises BoardError otherwise."""
        cell = self._board.index(x, y)
        if self._board.last_move() != cell:
            raise BoardError(f"({x},{y}) is not the last stone played")
        self._board.undo()

    def set_position(self, stones: Sequence[Tuple[int, int, int]], side_to_move: int = 0) -> None:
        """Replace the position by `stones`, (x, y, colour) in the order they were played. The side to move is
        `side_to_move`, or by default the colour with fewer stones (black when equal). On a bad stone list raises
        BoardError and keeps the old position."""
        if side_to_move == 0:
            blacks = sum(1 for _, _, c in stones if c == BLACK)
            side_to_move = BLACK if blacks <= len(stones) - blacks else WHITE
        fresh = Board(self.width, self.height, int(self.rule))
        old, self._board = self._board, fresh
        try:
            self._place_all(stones, side_to_move)
        except BoardError:
            self._board = old
            raise

    def load_game(self, game: records.Game, rule: Optional[Rule] = None) -> None:
        """Set up the game's board and play its moves (`rule` overrides the record's). A move off the board, on a
        stone, forbidden for black under renju or after a five raises RecordError naming it, and the engine keeps
        the position it had."""
        saved = (self.width, self.height, self.rule, [(x, y) for x, y, _ in self.stones()])
        try:
            self.new_game(game.width, game.height, Rule(game.rule) if rule is None else rule)
            for number, (x, y) in enumerate(game.moves, 1):
                check_move(self, number, x, y)
                self.play(x, y)
        except (records.RecordError, BoardError):
            width, height, old_rule, moves = saved
            self.new_game(width, height, old_rule)
            for point in moves:
                self.play(*point)
            raise

    def _place_all(self, stones: Sequence[Tuple[int, int, int]], side_to_move: int) -> None:
        for x, y, color in stones:
            if color not in (BLACK, WHITE):
                raise BoardError(f"bad colour {color} at ({x},{y})")
            self._board.place(self._board.index(x, y), color)
        self._board.set_side(side_to_move)

    def stones(self) -> List[Tuple[int, int, int]]:
        """(x, y, colour) of every stone, in the order placed."""
        return [(*self._board.xy(c), self._board.stone(c)) for c in self._board.history()]

    def last_move_wins(self) -> bool:
        """True when the last stone completed a winning line."""
        return self._board.last_move_wins()

    def is_forbidden(self, x: int, y: int) -> bool:
        """True when black may not play the empty point (x, y) (renju)."""
        return self._board.is_forbidden(self._board.index(x, y))

    def forbidden_points(self) -> List[Point]:
        """Every empty point black may not play (renju; empty otherwise)."""
        if not self._board.renju:
            return []
        return [self._board.xy(c) for c in self._board.playable if self._board.is_forbidden(c)]

    def stone(self, x: int, y: int) -> int:
        """What stands on (x, y): 0 (empty), BLACK or WHITE; raises BoardError off the board."""
        return self._board.stone(self._board.index(x, y))

    def on_board(self, x: int, y: int) -> bool:
        """True when (x, y) is a point of the board."""
        return self._board.on_board(x, y)

    @property
    def move_count(self) -> int:
        """How many stones are on the board."""
        return self._board.move_count

    def last_move(self) -> Optional[Point]:
        """Where the last stone was played, or None on an empty board."""
        cell = self._board.last_move()
        return None if cell < 0 else self._board.xy(cell)

    def is_full(self) -> bool:
        """True when no empty point is left."""
        return self._board.is_full()

    def wins_at(self, x: int, y: int, color: int) -> bool:
        """True when `color` playing the empty point (x, y) would win at once (a five under the rule)."""
        return self._board.is_win_move(self._board.index(x, y), color)

    def winning_line(self) -> Tuple[Point, ...]:
        """The stones of the five the last move made, in order along the line (empty when it did not win)."""
        return shapes.winning_line(self._board)

    def threats(self, color: int) -> List[shapes.Threat]:
        """`color`'s shapes as a person names them: its fours and open threes, then the points where it would make
        a four-three, a double four, a four, a double three or an open three (renju black's forbidden points left
        out)."""
        return shapes.threats(self._board, color)

    # --- thinking ------------------------------------------------------------------------------------------------
    @property
    def strength(self) -> int:
        """The playing strength, 0..100 (100: full strength; see levels.LEVELS)."""
        return self._strength

    @property
    def level(self) -> levels.Level:
        """The playing level the strength selects."""
        return levels.level_for_strength(self._strength)

    def set_strength(self, strength: int) -> None:
        """Play every later think at the level `strength` selects (clamped to 0..100; INFO strength)."""
        self._strength = max(0, min(levels.FULL_STRENGTH, int(strength)))

    @property
    def search_kind(self) -> str:
        """'alphabeta' (the tournament search) or 'mcts' (Monte Carlo tree search) at full strength; a lower
        level plays its own search whatever this says."""
        return self._search_kind

    def set_search_kind(self, kind: str) -> None:
        """Think with `kind` from now on (one of player.SEARCHES); ValueError otherwise."""
        if kind not in player.SEARCHES:
            raise ValueError(f"search must be one of {', '.join(player.SEARCHES)}, not {kind!r}")
        self._search_kind = kind

    def set_memory(self, memory_bytes: int) -> None:
        """The memory the whole process may use (INFO max_memory; 0 means no limit). Resizes the hash table."""
        if memory_bytes != self.memory_bytes:
            self.memory_bytes = memory_bytes
            self._fit_table()

    def clear_hash(self) -> None:
        """Forget everything learnt in earlier searches."""
        if self._searcher is not None:
            self._searcher.clear()

    def set_hash_bytes(self, hash_bytes: int) -> None:
        """Size the transposition table directly (Yixin's INFO hash_size, in KB there); 0 returns to sizing it
        from the memory limit. The memory limit still caps it."""
        if hash_bytes != self.hash_bytes:
            self.hash_bytes = hash_bytes
            self._fit_table()

    def set_threads(self, threads: int) -> None:
        """Search with `threads` processes from now on (INFO thread_num; 0 counts as 1): the main search and
        threads - 1 helpers sharing its hash table (smp.py; where os.fork is missing, the main search alone). Thinks
        bounded by nodes (reproducible ones) and multi-PV thinks always search alone."""
        threads = max(1, threads)
        if threads != self.threads:
            self.threads = threads
            self._fit_table()

    @staticmethod
    def max_threads() -> int:
        """The most processes a think can use here: the machine's cores where helper processes can be made (fork),
        else 1."""
        return (os.cpu_count() or 1) if smp.available() else 1

    def _shared_table(self) -> bool:
        """Must the hash table be shared with helper processes?"""
        return self.threads > 1 and smp.available()

    def _fit_table(self) -> None:
        """Drop the searcher when its table is not the size the memory settings now give, or not shared as the
        thread count asks (the next prepare or think makes a new one); a fitting table is kept, with what it learnt."""
        if self._searcher is not None and (self._searcher.tt.size != entries_for(self.tt_bytes()) or
                                           self._searcher.tt.shared != self._shared_table()):
            self._searcher = None

    def prepare(self) -> None:
        """Make the search's tables now rather than at the first think: a game-sized hash table takes tens to
        hundreds of milliseconds to make resident (tt.zeroed_pages), which the brain spends at START, outside any
        turn."""
        self._bound_searcher()

    @property
    def tables_ready(self) -> bool:
        """Whether the search's tables are made (by prepare, or by a think)."""
        return self._searcher is not None

    def tt_bytes(self) -> int:
        """Bytes the transposition table may take: the requested hash size, or a share of the memory limit, never
        more than params.TT_MAX_BYTES."""
        if self.memory_bytes <= 0:
            return min(params.TT_MAX_BYTES, self.hash_bytes or params.TT_DEFAULT_BYTES)
        spare = (self.memory_bytes - params.PROCESS_BASELINE_BYTES) * params.TT_SHARE
        limit = int(min(params.TT_MAX_BYTES, max(params.TT_MIN_BYTES, spare)))
        return min(limit, self.hash_bytes) if self.hash_bytes else limit

    @property
    def searcher(self) -> Searcher:
        """The searcher bound to this board (its public attributes are the search's knobs: tests, tuning)."""
        return self._bound_searcher()

    def _bound_searcher(self) -> Searcher:
        if self._searcher is None:
            self._searcher = Searcher(self._board, self.tt_bytes(), self._shared_table())
        elif self._searcher.board is not self._board:
            self._searcher.rebind(self._board)
        return self._searcher

    def think(self, limits: Limits = Limits(), on_info: Optional[Callable[[SearchInfo], None]] = None,
              stop: Optional[StopFlag] = None, exclude: Sequence[Point] = ()) -> SearchResult:
        """Choose a move for the side to move within `limits`. `on_info` hears each completed iteration; `stop`
        ends the search early (the best move so far is returned). With `exclude` (multi-PV: the lines already
        found) the main search alone chooses among the other legal moves, and the move is None when none is left.
        The position is unchanged afterwards."""
        started = time.perf_counter()
        board = self._board
        if board.is_full():
            return SearchResult(None, 0, 0, 0, 0, reason="none")
        level = self.level
        if level.scorer_choice:
            cell = levels.scorer_move(board, level.scorer_choice, {board.index(x, y) for x, y in exclude})
            elapsed = int((time.perf_counter() - started) * 1000)
            if cell < 0:
                return SearchResult(None, 0, 0, 0, elapsed, reason="none")
            return SearchResult(board.xy(cell), 0, 0, 0, elapsed, [board.xy(cell)], reason="level")
        if level.search == "mcts" or (self._search_kind == "mcts" and level.strength == levels.FULL_STRENGTH):
            return self._think_mcts(limits, level, on_info, stop, exclude, started)
        if level.max_depth is not None or level.max_nodes is not None:
            limits = dataclasses.replace(limits, max_depth=_least(limits.max_depth, level.max_depth),
                                         max_nodes=_least(limits.max_nodes, level.max_nodes))
        if limits.turn_ms is None and limits.match_ms is None and limits.time_left_ms is None and (
                limits.max_nodes is not None or limits.max_depth is not None):
            budget = timeman.Budget(UNTIMED_MS, UNTIMED_MS)  # node or depth limits alone: reproducible
        else:
            budget = timeman.budget(limits.turn_ms, limits.match_ms, limits.time_left_ms, board.move_count,
                                    limits.margin_ms)
        searcher = self._bound_searcher()
        max_depth = limits.max_depth if limits.max_depth is not None else params.MAX_DEPTH
        max_nodes = limits.max_nodes if limits.max_nodes is not None else 0
        if budget.instant:
            max_depth = 0

        def report(depth: int, score: int, nodes: int, pv: List[int]) -> None:
            if on_info is not None:
                elapsed = int((time.perf_counter() - started) * 1000)
                on_info(SearchInfo(depth, score, nodes, elapsed, [board.xy(c) for c in pv]))

        spent_ms = (time.perf_counter() - started) * 1000  # set-up time counts against this move too
        soft_ms = max(0.0, budget.soft_ms - spent_ms)
        hard_ms = 0.0 if budget.instant else max(1.0, budget.hard_ms - spent_ms)
        helpers = self.threads - 1 if max_nodes == 0 and not exclude and not budget.instant else 0

        def helper_think(k: int) -> None:  # in a helper process (smp.py): search, and only fill the shared table
            searcher.helper = k
            searcher.think(max_depth, 0, soft_ms, hard_ms, None, None)

        searcher.exclude_root_moves([board.index(x, y) for x, y in exclude])
        try:
            with smp.Helpers(helpers, helper_think):
                cell, score, depth, nodes, pv = searcher.think(max_depth, max_nodes, soft_ms, hard_ms, stop, report)
        finally:
            searcher.exclude_root_moves([])
        elapsed = int((time.perf_counter() - started) * 1000)
        if cell < 0:
            return SearchResult(None, 0, 0, nodes, elapsed, reason="none")
        reason = searcher.last_reason
        return SearchResult(board.xy(cell), score, depth, nodes, elapsed, [board.xy(c) for c in pv], reason)

    def _think_mcts(self, limits: Limits, level: levels.Level, on_info: Optional[Callable[[SearchInfo], None]],
                    stop: Optional[StopFlag], exclude: Sequence[Point], started: float) -> SearchResult:
        """`think` with the Monte Carlo tree search: the turn's time (as the alpha-beta search would spend it)
        and/or an iteration cap (the level's, or `limits.max_nodes`)."""
        board = self._board
        iterations = _least(limits.max_nodes, level.max_nodes) or 0
        timed = limits.turn_ms is not None or limits.match_ms is not None or limits.time_left_ms is not None
        time_s = 0.0
        if timed or not iterations:
            budget = timeman.budget(limits.turn_ms, limits.match_ms, limits.time_left_ms, board.move_count,
                                    limits.margin_ms)
            spent_ms = (time.perf_counter() - started) * 1000
            time_s = max(0.001, (min(budget.soft_ms, budget.hard_ms) - spent_ms) / 1000.0)
        answer = player.think(board, time_s, iterations, stop, [board.index(x, y) for x, y in exclude])
        elapsed = int((time.perf_counter() - started) * 1000)
        if answer.cell < 0:
            return SearchResult(None, 0, 0, answer.iterations, elapsed, reason="none")
        pv = [board.xy(c) for c in answer.pv]
        if on_info is not None:
            on_info(SearchInfo(answer.depth, answer.score, answer.iterations, elapsed, pv))
        return SearchResult(board.xy(answer.cell), answer.score, answer.depth, answer.iterations, elapsed, pv,
                            answer.reason)


def _least(a: Optional[int], b: Optional[int]) -> Optional[int]:
    """The smaller of two optional bounds (None: unbounded)."""
    if a is None:
        return b
    return a if b is None else min(a, b)


def check_move(engine: Engine, number: int, x: int, y: int) -> None:
    """RecordError when move `number` of a game, (x, y), cannot be played now on `engine`: off the board, on a
    stone, after a five, or forbidden for black under renju."""
    if not engine.on_board(x, y):
        raise records.RecordError(f"move {number} ({x},{y}) is off the {engine.width}x{engine.height} board")
    name = records.format_point((x, y), engine.height)
    if engine.last_move_wins():
        winner = "black" if engine.stones()[-1][2] == BLACK else "white"
        raise records.RecordError(f"move {number} ({name}) comes after {winner}'s five at move {number - 1}")
    if engine.stone(x, y) != 0:
        raise records.RecordError(f"move {number} ({name}) is on a stone already there")
    if engine.side_to_move == BLACK and engine.is_forbidden(x, y):
        raise records.RecordError(f"move {number} ({name}) is forbidden for black under renju")
