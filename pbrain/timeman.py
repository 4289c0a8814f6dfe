"""Time management: the protocol's time settings -> a soft and a hard deadline for one move. Pure functions."""
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
    """Do not start a new iteration after this."""
    hard_ms: float
    """Abort the search and answer at this point."""

    @property
    def instant(self) -> bool:
        """True when the move must be answered at once (static best move, no search)."""
        return self.hard_ms <= 0


def budget(turn_ms: Optional[int], match_ms: Optional[int], left_ms: Optional[int], moves_played: int,
           safety_ms: int = params.TIME_SAFETY_MS) -> Budget:
    """Deadlines for one move from `INFO timeout_turn` (0: answer at once), `timeout_match` (0: no limit) and
    `time_left` (UNLIMITED_MS: no limit); None means the manager did not say. The hard deadline stays below
    every limit by `safety_ms`; the soft one spreads the match time over the moves still to come."""
    if turn_ms is not None and turn_ms <= 0:
        return Budget(0, 0)
    hard = float(turn_ms if turn_ms is not None else params.DEFAULT_TURN_MS) - safety_ms
    soft = hard * params.SOFT_FRACTION
    remaining: Optional[float] = None
    if left_ms is not None and left_ms < UNLIMITED_MS and match_ms != 0:
        remaining = float(left_ms)
    elif match_ms is not None and match_ms > 0 and left_ms is None:
        remaining = float(match_ms)  # no time_left yet: assume nothing is spent
    if remaining is not None:
        if remaining <= safety_ms:
            return Budget(0, 0)
        moves_to_go = max(params.MIN_MOVES_TO_GO, params.MATCH_MOVES_TO_GO - moves_played // 4)
        target = remaining / moves_to_go
        soft = min(soft, target)
        hard = min(hard, target * params.HARD_OVER_TARGET, remaining * params.MAX_SHARE_OF_REMAINING - safety_ms)
    hard = max(hard, params.MIN_THINK_MS)
    return Budget(min(soft, hard), hard)
