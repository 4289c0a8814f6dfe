"""Every tunable in one place: evaluation weights, search margins and time ratios. Data, not code."""
from __future__ import annotations

# --- Evaluation -------------------------------------------------------------------------------------------------
# Value of an empty cell for a colour by its combined class (indexed by patterns.Pattern4: NONE, FORBID, FLEX2,
# BLOCK3, FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X, BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE).
# The evaluation sums these over the empty cells from the board's per-class counters.
CLASS_VALUE = (0, 0, 4, 6, 12, 14, 22, 30, 60, 24, 34, 90, 150, 300)
# The side to move's cells count more: its threats are one tempo closer (in 1/16ths).
OWN_WEIGHT_16THS = 20
OPPONENT_WEIGHT_16THS = 16
TEMPO = 20
"""Constant bonus for having the move."""

# --- Search ------------------------------------------------------------------------------------------------------
WIN = 30000
"""Score of a win at the root; a win in n plies scores WIN - n."""
WIN_THRESHOLD = WIN - 1000
"""Scores at or beyond this are mate scores."""

ASPIRATION_WINDOW = 60
LMR_MIN_DEPTH = 3
LMR_MIN_MOVE = 4
MAX_PLY = 128
MAX_CANDIDATES = 400
VCF_QUIESCENCE_NODES = 200
ROOT_VCF_NODES = 20000
ROOT_VCT_NODES = 30000

# --- Time (milliseconds) -----------------------------------------------------------------------------------------
TIME_SAFETY_MS = 150
"""Kept back from every deadline for process start, I/O and the manager's own overhead."""
DEFAULT_TURN_MS = 5000
"""Turn time when the manager sets none."""
SOFT_FRACTION = 0.4
"""Share of the hard limit after which no new iteration starts."""
MATCH_MOVES_TO_GO = 30
MIN_MOVES_TO_GO = 12
"""Moves the remaining match time is spread over (fewer as the game goes on, never below the minimum)."""
HARD_OVER_TARGET = 3.0
"""The hard deadline may exceed the per-move target by this factor (hard positions get more)."""
MAX_SHARE_OF_REMAINING = 0.25
"""Never spend more than this share of the remaining match time on one move."""
MIN_THINK_MS = 5
"""Floor of the hard deadline when time is short but not out."""
