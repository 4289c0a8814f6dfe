"""Time management: the protocol's time settings -> the deadlines of one move. Pure functions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pbrain import params

UNLIMITED_MS = 2147483647
"""The protocol's `time_left` value for an untimed match."""


@dataclass(frozen=True)
class Budget:
    """How long one move may take, in milliseconds from the moment thinking starts."""

    soft_ms: float
    """The aim: no new iteration starts after this (nor one predicted to end past `hard_ms`, when the two
    differ). With a turn limit alone it equals `hard_ms`: an unfinished iteration still improves the move."""
    hard_ms: float
    """Abort the search and answer at this point."""
    limit_ms: Optional[float] = None
    """When the manager itself gives up on the move (the turn limit or what is left of the game), or None
    for no limit: the watchdog answers before it."""

    @property
    def instant(self) -> bool:
        """True when the move must be answered at once (static best move, no search)."""
        return self.hard_ms <= 0


def margin_ms(turn_ms: Optional[int], latency_ms: float = 0.0) -> float:
    """Milliseconds kept back from a turn of `turn_ms` for what the brain cannot see (pipes, scheduling, the
    manager's own clock): a fixed part, a share of the turn, and `latency_ms`, the overrun measured on earlier
    moves (see Latency)."""
    turn = float(turn_ms if turn_ms is not None and turn_ms > 0 else params.DEFAULT_TURN_MS)
    return params.TIME_MARGIN_MS + params.TIME_MARGIN_SHARE * turn + latency_ms


def budget(turn_ms: Optional[int], match_ms: Optional[int], left_ms: Optional[int], moves_played: int,
           margin: Optional[float] = None) -> Budget:
    """Deadlines for one move from `INFO timeout_turn` (0: answer at once), `timeout_match` (0: no limit) and
    `time_left` (UNLIMITED_MS: no limit); None means the manager did not say. Every deadline stays `margin`
    (default margin_ms(turn_ms)) below the manager's limits. A turn limit alone is spent whole; a game clock is
    spread over the moves still to come, with room to spend up to HARD_OVER_TARGET times the share."""
    if turn_ms is not None and turn_ms <= 0:
        return Budget(0, 0)  # "as fast as you can": the static move, whatever it takes
    keep = margin_ms(turn_ms) if margin is None else margin
    limit = float(turn_ms if turn_ms is not None else params.DEFAULT_TURN_MS)
    hard = limit - keep
    soft = hard
    remaining: Optional[float] = None
    if left_ms is not None and left_ms < UNLIMITED_MS and match_ms != 0:
        remaining = float(left_ms)
    elif match_ms is not None and match_ms > 0 and left_ms is None:
        remaining = float(match_ms)  # no time_left yet: assume nothing is spent
    if remaining is not None:
        if remaining <= keep:
            return Budget(0, 0, max(0.0, remaining))
        limit = min(limit, remaining)
        moves_to_go = max(params.MIN_MOVES_TO_GO, params.MATCH_MOVES_TO_GO - moves_played // 4)
        target = remaining / moves_to_go
        hard = min(hard, target * params.HARD_OVER_TARGET, remaining * params.MAX_SHARE_OF_REMAINING - keep)
        soft = min(hard, target)
    hard = max(hard, params.MIN_THINK_MS)
    return Budget(min(soft, hard), hard, None if turn_ms is None and remaining is None else limit)


class Latency:
    """How far past its deadline the brain answers, measured move by move: the part of the safety margin that
    is learnt, not guessed. It follows a new maximum at once and forgets an old one slowly."""

    def __init__(self, initial_ms: float = params.LATENCY_INITIAL_MS) -> None:
        self.ms = initial_ms

    def observe(self, overrun_ms: float) -> None:
        """One answer came `overrun_ms` after the deadline it was given (negative: before it)."""
        self.ms = max(self.ms * params.LATENCY_DECAY, min(max(0.0, overrun_ms), params.LATENCY_CAP_MS))
