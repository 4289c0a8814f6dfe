"""Answers built from several `Engine.think` calls: the n best moves (YXNBEST) and swap2 decisions.

Only the facade is used: think for a move and a score, play / undo to look one move ahead. Every function shares
one time budget between its thinks, honours `stop`, and leaves the engine's position as it found it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence

from pbrain import timeman
from pbrain.core.rules import BLACK
from pbrain.engine import Engine, Limits, Point, SearchInfo, SearchResult, StopFlag

InfoSink = Optional[Callable[[SearchInfo], None]]

SWAP2_EVEN_MARGIN = 60
"""A swap2 position whose score (for the side to move) is within this of zero counts as balanced."""
NBEST_ROOT_SHARE = 0.5
"""YXNBEST: share of the time the first (full) search gets; the alternatives share the rest."""
NBEST_FLOOR = Limits(max_depth=2, max_nodes=5000)
"""YXNBEST: the search that scores a line once the time is spent (a few milliseconds)."""
SWAP2_OPENINGS = (
    ((0, 0), (1, -1), (0, 2)),
    ((0, 0), (1, 0), (2, 2)),
    ((0, 0), (2, 1), (1, 3)),
    ((0, 0), (1, 1), (-2, 2)),
    ((0, 0), (2, 0), (1, 2)),
    ((0, 0), (-1, 1), (3, 1)),
)
"""Swap2 first stones (black, white, black) as offsets from the centre; the most balanced one is proposed."""


class Clock:
    """One move's time budget, shared out between several thinks."""

    def __init__(self, limits: Limits, moves_played: int) -> None:
        self.limits = limits
        self.started = time.monotonic()
        self.budget = timeman.budget(limits.turn_ms, limits.match_ms, limits.time_left_ms, moves_played,
                                     limits.margin_ms)

    def left_ms(self) -> float:
        """Milliseconds left of the hard budget."""
        return self.budget.hard_ms - (time.monotonic() - self.started) * 1000

    def share(self, fraction: float) -> Limits:
        """Limits for one think that may use `fraction` of the time left (the instant mode stays instant)."""
        if self.budget.instant:
            return Limits(turn_ms=0, max_depth=self.limits.max_depth, max_nodes=self.limits.max_nodes)
        own_ms = max(1.0, self.left_ms() * fraction)
        # this budget already kept the margin back from the manager's limits: none is kept twice
        return Limits(turn_ms=int(own_ms), max_depth=self.limits.max_depth, max_nodes=self.limits.max_nodes,
                      margin_ms=0)

    def out_of_time(self, stop: Optional[StopFlag]) -> bool:
        """True when the budget is spent or a stop was asked for."""
        return (stop is not None and stop.is_set()) or (not self.budget.instant and self.left_ms() <= 0)


@dataclass(frozen=True)
class Ranked:
    """One of the n best moves."""

    move: Point
    score: int
    """From the mover's view."""
    result: SearchResult
    """The search that scored it (for a reply it is the opponent's search after `move`)."""
    pv: List[Point] = field(default_factory=list)
    """`move` and the line expected after it."""


def n_best(engine: Engine, count: int, limits: Limits, stop: Optional[StopFlag] = None,
           on_info: InfoSink = None) -> List[Ranked]:
    """Up to `count` moves with their searched scores and lines (multi-PV): the full search's move first, then
    each next line by a search of the root without the moves already listed, the best of those first. The
    first search has NBEST_ROOT_SHARE of the time (all of it for one line), the others share the rest."""
    clock = Clock(limits, len(engine.stones()))
    root = engine.think(clock.share(NBEST_ROOT_SHARE if count > 1 else 1.0), on_info, stop)
    if root.move is None:
        return []
    best = [Ranked(root.move, root.score, root, list(root.pv) or [root.move])]
    others: List[Ranked] = []
    listed = [root.move]
    while len(listed) < count and not (stop is not None and stop.is_set()):
        lines_left = count - len(listed)
        # out of time, the lines asked for still come, each from a search as short as NBEST_FLOOR allows
        limits_now = clock.share(1.0 / lines_left) if not clock.out_of_time(stop) else NBEST_FLOOR
        line = engine.think(limits_now, stop=stop, exclude=listed)
        if line.move is None:
            break  # no legal move left
        listed.append(line.move)
        others.append(Ranked(line.move, line.score, line, list(line.pv) or [line.move]))
    return best + sorted(others, key=lambda r: -r.score)


@dataclass(frozen=True)
class Swap2Choice:
    """What to answer in a swap2 opening."""

    action: str
    """'open' (the first three stones), 'swap' (take the other colour), 'move' (play on) or 'put2' (add two
    stones and let the opponent choose)."""
    moves: List[Point]
    """The stones to add, in order (none for 'swap')."""
    score: int = 0
    """The deciding score, from the view of the side that was to move."""


def swap2_openings(width: int, height: int) -> List[List[Point]]:
    """The SWAP2_OPENINGS that fit a width x height board, as points (at least one: near the centre)."""
    cx, cy = width // 2, height // 2
    fitting = [[(cx + dx, cy + dy) for dx, dy in opening] for opening in SWAP2_OPENINGS]
    fitting = [o for o in fitting if all(0 <= x < width and 0 <= y < height for x, y in o)]
    return fitting or [[(cx, cy), (cx + 1, cy), (cx, cy + 1)]]


def swap2_open(engine: Engine, limits: Limits, stop: Optional[StopFlag] = None,
               on_info: InfoSink = None) -> Swap2Choice:
    """On the empty board: the candidate opening (black, white, black) whose position is closest to even."""
    clock = Clock(limits, 0)
    fitting = swap2_openings(engine.width, engine.height)
    best: Optional[Swap2Choice] = None
    for index, opening in enumerate(fitting):
        if best is not None and clock.out_of_time(stop):
            break
        for point in opening:
            engine.play(*point)
        try:
            score = engine.think(clock.share(1.0 / (len(fitting) - index)), stop=stop).score
        finally:
            for _ in opening:
                engine.undo()
        if best is None or abs(score) < abs(best.score):
            best = Swap2Choice("open", list(opening), score)
    assert best is not None
    return best


def swap2_after_three(engine: Engine, limits: Limits, stop: Optional[StopFlag] = None,
                      on_info: InfoSink = None) -> Swap2Choice:
    """Three stones down, white to move: play on as white when white is better, swap to black when black is,
    and add two balancing stones (white's best, then black's best) when it is even."""
    clock = Clock(limits, 3)
    result = engine.think(clock.share(0.6), on_info, stop)
    if result.move is None:
        return Swap2Choice("swap", [], result.score)
    if result.score > SWAP2_EVEN_MARGIN:
        return Swap2Choice("move", [result.move], result.score)
    if result.score < -SWAP2_EVEN_MARGIN:
        return Swap2Choice("swap", [], result.score)
    engine.play(*result.move)
    try:
        answer = engine.think(clock.share(1.0), stop=stop)
    finally:
        engine.undo()
    if answer.move is None:
        return Swap2Choice("move", [result.move], result.score)
    return Swap2Choice("put2", [result.move, answer.move], result.score)


def swap2_after_five(engine: Engine, limits: Limits, stop: Optional[StopFlag] = None,
                     on_info: InfoSink = None) -> Swap2Choice:
    """Five stones down, white to move: play on as white unless black is better, then swap to black."""
    result = engine.think(Clock(limits, 5).share(1.0), on_info, stop)
    if result.move is None or result.score < 0:
        return Swap2Choice("swap", [], result.score)
    return Swap2Choice("move", [result.move], result.score)


Swap2Decider = Callable[[Engine, Limits, Optional[StopFlag], InfoSink], Swap2Choice]


def swap2_stage(count: int) -> Optional[Swap2Decider]:
    """The swap2 decision for a board of `count` stones (0, 3 or 5), or None for any other count."""
    return {0: swap2_open, 3: swap2_after_three, 5: swap2_after_five}.get(count)


def opening_colours(count: int) -> Sequence[int]:
    """Colours of swap2 stones in the order placed: black, white, black, ..."""
    return [BLACK if i % 2 == 0 else 3 - BLACK for i in range(count)]
