"""Every tunable in one place but the evaluation's fitted weights (evaluation/weights.py): search margins, move ordering
and time ratios. Data, not code."""
from __future__ import annotations

# --- Evaluation -------------------------------------------------------------------------------------------------
# The evaluation's weights are fitted data of their own: evaluation/weights.py (written by tuning/fit.py).

# --- Move ordering ------------------------------------------------------------------------------------------------
# A cell's static ordering score comes from its pattern codes for both sides: fitted data of its own
# (order_weights.py, written by tuning/policy.py).

# --- Search ------------------------------------------------------------------------------------------------------
WIN = 30000
"""Score of a win at the root; a win in n plies scores WIN - n."""
WIN_THRESHOLD = WIN - 1000
"""Scores at or beyond this are mate scores."""

MAX_PLY = 128
MAX_DEPTH = 60
"""Deepest iteration when no depth limit is given."""
ASPIRATION_WINDOW = 60
"""Half-width of the first aspiration window around the previous iteration's score."""
LMR_MIN_DEPTH = 3
LMR_MIN_MOVE = 2
"""Late-move reductions apply to quiet moves from this depth and move number on."""
LMR_BASE = 0.5
LMR_DIVISOR = 1.25
"""A reduced quiet move loses int(LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR) plies: at least one, one
less at PV nodes, and never so many that less than one ply is left."""
# Pruning at non-PV nodes without an opponent threat (0 turns each off): reverse futility returns the static eval
# when it beats beta by FUTILITY_MARGIN per ply of depth (depth <= FUTILITY_DEPTH, one ply less when the eval
# improved on two plies ago); futility skips quiet moves when the static eval plus that margin cannot reach alpha.
FUTILITY_MARGIN = 50
FUTILITY_DEPTH = 3
RAZOR_DEPTH = 2
RAZOR_MARGIN = 40
"""Razoring (non-PV nodes without an opponent threat): at depth <= RAZOR_DEPTH, a static eval more than
RAZOR_MARGIN per ply of depth below alpha sends the node to the leaf value (a short VCF or the eval)."""
SINGULAR_DEPTH = 6
SINGULAR_MARGIN = 2
"""Singular extension (depth >= SINGULAR_DEPTH, a TT move from a lower bound at most 3 plies shallower): when no
other move reaches the TT score less SINGULAR_MARGIN per ply in a search of half the depth, the TT move is searched
one ply deeper; when one beats beta too the node is cut (multi-cut); when only the TT score does, one ply less."""
MOVE_COUNT_BASE = 3
MOVE_COUNT_POWER = 1.32
"""Move-count pruning (every node but the root, once a move that does not lose is found): after
MOVE_COUNT_BASE + depth ** MOVE_COUNT_POWER quiet moves the other quiet ones are skipped; half as many when the
side to move's static eval is not better than two plies ago. Moves that make or stop an open three or a four are
never skipped."""
FOUR_THREE_DEFENCE = 0
"""1: a node whose opponent has a four-three point (and no open-four or five threat) searches only its own fours
and the cells that take every such point away (all moves when there are none; not against renju black, whose
four-threes may be false); 0 (shipped): every move. It sees more forced wins for its nodes (benchmarks/vision.py)
without a measured gain in games (benchmarks/data/search-screens.csv)."""
SORTED_PREFIX = 10
"""Moves picked best-first by score; the rest are searched in generation order."""
KILLER_BONUS = 500
COUNTER_BONUS = 500
"""The counter move's bonus: the move that last cut off as the reply to the opponent's last move."""
MAX_ORDER_BONUS = 2000
"""Killer, counter-move and history bonuses added to a move's static ordering score, capped."""
VCF_QUIESCENCE_NODES = 60
VCF_QUIESCENCE_FOURS = 8
VCF_QUIESCENCE_WIDTH = 2
"""Budget of the VCF probe at the leaves of the main search, and its width: past its first four only the attacker's
fours near its last one, the best WIDTH of them (threats.ThreatSolver.vcf_near)."""
ROOT_VCF_NODES = 200000
ROOT_VCF_FOURS = 40
"""Budget of the VCF search before the main search starts."""
ROOT_VCT_NODES = 1000000
ROOT_VCT_THREATS = 8
"""Budget of the VCT search before the main search starts (iterative deepening by 2 threats up to the limit)."""
DEFENCE_VCF_NODES = 4000
DEFENCE_VCT_NODES = 3000
"""Budgets of each probe that decides whether a root move stops the opponent's VCF / VCT (the VCT one: first pass)."""
VERIFY_NODES = 150000
VERIFY_SLICE = 0.05
VERIFY_SHARE = 0.97
THREAT_SEARCH_SHARE = 0.75
THREAT_SEARCH_END = 0.85
"""When the opponent has a threat, each new best move of the main search is probed with this many nodes for
VERIFY_SLICE of the hard time: a move after which the opponent wins is taken out and the depth searched again. No
iteration starts after THREAT_SEARCH_SHARE of the hard time and none runs past THREAT_SEARCH_END of it; then the
chosen move is probed until VERIFY_SHARE of it. When it loses, the best of the others is searched again as deep as
the time left allows; when the probe ends without a win for the opponent, the iterations go on. A node limit is
shared out the same way (a probe: VERIFY_SLICE of it), so that a search at a node limit plays as one at a clock."""
DEFENCE_PROBE_GROWTH = 4
DEFENCE_PROBE_MAX_NODES = 200000
"""Each further pass of the VCT probes over the moves still standing has this many times the budget, up to this."""

# --- Memory -----------------------------------------------------------------------------------------------------
PROCESS_BASELINE_BYTES = 44 * 1024 * 1024
"""What the process uses besides the transposition table (interpreter, numpy, tables, buffers, the threat and
proof-number tables)."""
TT_SHARE = 0.6
"""Share of the memory left above the baseline that the transposition table takes."""
TT_MAX_BYTES = 512 * 1024 * 1024
TT_MIN_BYTES = 1024 * 1024
TT_DEFAULT_BYTES = 128 * 1024 * 1024
"""Transposition table size when the manager sets no memory limit."""

# --- Time (milliseconds) -----------------------------------------------------------------------------------------
TIME_MARGIN_MS = 15
TIME_MARGIN_SHARE = 0.02
"""Kept back from every limit for what the brain cannot see (pipes, scheduling, the manager's clock): this much
plus this share of the turn, plus the overrun measured on earlier moves (timeman.Latency)."""
LATENCY_INITIAL_MS = 10.0
LATENCY_DECAY = 0.9
LATENCY_CAP_MS = 200.0
"""The measured overrun: its value before any move, how fast an old maximum fades (per move), its ceiling."""
DEFAULT_TURN_MS = 5000
"""Turn time when the manager sets none."""
MATCH_MOVES_TO_GO = 30
MIN_MOVES_TO_GO = 12
"""Moves the remaining match time is spread over (fewer as the game goes on, never below the minimum)."""
HARD_OVER_TARGET = 3.0
"""The hard deadline may exceed the per-move target by this factor (hard positions get more)."""
MAX_SHARE_OF_REMAINING = 0.25
"""Never spend more than this share of the remaining match time on one move."""
MIN_THINK_MS = 5
"""Floor of the hard deadline when time is short but not out."""
ITERATION_GROWTH_MIN = 1.5
ITERATION_GROWTH_MAX = 8.0
ITERATION_GROWTH_DEFAULT = 3.0
"""Bounds (and the first guess) of the ratio between one iteration's time and the last one's: how the next
iteration's time is predicted."""
ROOT_VCF_SHARE = 0.05
ROOT_VCT_SHARE = 0.1
ROOT_THREAT_SHARE = 0.075
ROOT_DEFENCE_SHARE = 0.125
"""Where the root threat phases end, as shares of the soft time and of a node limit counted from the start (own VCF,
own VCT, the look at the opponent's VCT were it to move, the defence filter's probe of each move). The look at the
opponent's VCT ends before the own VCT's mark: when the own VCT runs past it (an attack neither proven nor
refuted), that look is a quick one and a VCT it misses leaves the root unfiltered and unprobed, so the main search
has the turn. The opponent's VCF is always looked for (a defence probe's budget at least, until the filter's mark).
The main search has the rest: the filter's mark at 12.5 % rather than 25 % gives it a ply more in many threatened
positions."""
ROOT_DEFENCE_FLOOR_MS = 15.0
ROOT_DEFENCE_FLOOR_NODES = 15000
ROOT_DEFENCE_FLOOR_SHARE = 0.5
"""The defence filter's mark is never earlier than this many milliseconds (nodes) from the start, unless that is
past this share of the think: its probes of every root move cost about the same whatever the turn."""
CONVERT_SHARE = 0.7
"""When the last move was a proven win, the share of the hard time (and of a node limit) the re-proof may use."""
PONDER_SHARE = 0.85
"""A forced move under a turn limit: the position after it is searched (for the next think's hash table)
until this share of the hard time."""
WATCHDOG_STOP_GRACE_MS = 10
"""The watchdog sets the stop flag this long after the engine's own hard deadline ..."""
WATCHDOG_ANSWER_MARGIN_MS = 10
"""... and answers for it this long before the manager's limit ..."""
WATCHDOG_UNLIMITED_GRACE_MS = 500
"""... or, when the manager sets no limit, this long after the engine's hard deadline."""
