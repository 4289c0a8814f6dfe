"""Every tunable in one place: evaluation weights, search margins and time ratios. Data, not code."""
from __future__ import annotations

# --- Evaluation -------------------------------------------------------------------------------------------------
# Value of an empty cell for a colour, by the line pattern that colour would make there, per direction
# (indexed by patterns.Pattern: DEAD, OL, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, DF4, F5).
PATTERN_VALUE = (0, 0, 1, 3, 4, 10, 13, 16, 20, 45, 50, 50, 120, 120, 300)

# Extra value of an empty cell by its combined class (indexed by patterns.Pattern4: NONE, FORBID, FLEX2, BLOCK3,
# FLEX2_2X, BLOCK3_PLUS, FLEX3, FLEX3_PLUS, FLEX3_2X, BLOCK4, BLOCK4_PLUS, BLOCK4_FLEX3, FLEX4, FIVE).
PATTERN4_VALUE = (0, 0, 0, 0, 10, 15, 0, 30, 120, 0, 20, 250, 400, 800)

# Weight of the side to move's own cell values against the opponent's, in 1/16ths (attack is worth more when
# it is our move).
SIDE_TO_MOVE_WEIGHT_16THS = 20
OPPONENT_WEIGHT_16THS = 16
# Constant bonus for having the move.
TEMPO = 20

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
TIME_SAFETY_MS = 120
"""Kept back from every deadline for process start, I/O and the manager's own overhead."""
MATCH_MOVES_TO_GO = 22
"""Moves we budget the remaining match time over."""
SOFT_FRACTION = 0.45
"""Share of the move budget after which no new iteration starts."""
DEFAULT_TURN_MS = 5000
