"""Playing levels: from a beginner to full strength, shared by `play` and the protocol (`INFO strength 0..100`).

The two lowest levels are the seeds' one-ply pattern scorer: every empty point near the stones is valued by the
shapes it makes for the side to move (attack) and spoils for the opponent (defence) on its four lines, in the
seeds' vocabulary (five, live four, half four, live three, sleep three, live two, sleep two); the beginner picks
among the better points at random, the novice takes the best. Above them the alpha-beta engine plays with a depth
and a node cap (a depth limit is also the threat searches' horizon), but for one level of the Monte Carlo tree
search with a simulation cap (mcts.player), and the top level is the engine unbounded.
Each level's strength is measured (README, "Levels"), not guessed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Collection, List, Optional, Tuple

from pbrain.core.board import Board
from pbrain.core.patterns import Pattern
from pbrain.core.rules import BLACK

FULL_STRENGTH = 100


@dataclass(frozen=True)
class Level:
    """One playing level."""

    number: int
    """1 (weakest) .. len(LEVELS) (full strength)."""
    name: str
    strength: int
    """The least `INFO strength` value that selects this level."""
    description: str
    scorer_choice: int = 0
    """Pattern-scorer levels: choose at random among this many of the best points (1: always the best); 0: the
    level searches."""
    max_depth: Optional[int] = None
    """Search levels: deepest iteration (and threat horizon); None: unbounded."""
    max_nodes: Optional[int] = None
    """Search levels: node cap per move (MCTS: iterations); None: unbounded."""
    search: str = "alphabeta"
    """Search levels: 'alphabeta' or 'mcts' (the Monte Carlo tree search, mcts.player)."""


LEVELS: Tuple[Level, ...] = (
    Level(1, "beginner", 0, "one-ply pattern scorer choosing at random among its six best points", scorer_choice=6),
    Level(2, "novice", 15, "the seeds' one-ply pattern scorer: attack plus defence by shape values",
          scorer_choice=1),
    Level(3, "casual", 30, "alpha-beta to depth 2", max_depth=2, max_nodes=20_000),
    Level(4, "explorer", 40, "Monte Carlo tree search, 5,000 simulations a move", max_nodes=5_000, search="mcts"),
    Level(5, "club", 50, "alpha-beta to depth 4 with short threat searches", max_depth=4, max_nodes=60_000),
    Level(6, "strong", 75, "alpha-beta to depth 7, 300 k nodes a move", max_depth=7, max_nodes=300_000),
    Level(7, "master", FULL_STRENGTH, "full strength: the tournament engine"),
)
"""Weakest first; the last is full strength (the default)."""


def level_by_number(number: int) -> Level:
    """The level numbered `number` (1..len(LEVELS)); raises ValueError otherwise."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"level must be 1..{len(LEVELS)}, not {number}")
    return LEVELS[number - 1]


def level_for_strength(strength: int) -> Level:
    """The level an `INFO strength` value selects: the strongest whose threshold it reaches (0..100)."""
    chosen = LEVELS[0]
    for level in LEVELS:
        if strength >= level.strength:
            chosen = level
    return chosen


SHAPE_VALUES = {
    Pattern.F5: 100_000,   # five
    Pattern.DF4: 10_000,   # live four (two fours on one line)
    Pattern.F4: 10_000,    # live four
    Pattern.B4: 1_000,     # half (rush) four
    Pattern.F3: 1_000,     # live three
    Pattern.B3: 100,       # sleep three
    Pattern.F2B: 120,      # live two, several ways to a three
    Pattern.F2A: 110,
    Pattern.F2: 100,       # live two
    Pattern.B2: 10,        # sleep two
    Pattern.F1: 5,
    Pattern.B1: 1,
}
"""The seeds' shape values (what one stone makes on one line)."""
DEFENCE_SHARE = 0.9
"""A shape spoilt for the opponent is worth this share of the same shape made: attack comes first."""


def shape_score(board: Board, cell: int, color: int) -> float:
    """The pattern scorer's value of `color` playing the empty cell: its shapes on four lines, with the seeds'
    bonus for two threats at once (two half fours or a four and a live three win like a live four)."""
    total = 0
    strong = 0
    for d in range(4):
        value = SHAPE_VALUES.get(Pattern(board.pattern(cell, color, d)), 0)
        total += value
        if value >= 1_000:
            strong += 1
    if strong >= 2:
        total += 8_000
    return total


def scored_points(board: Board, exclude: Collection[int] = ()) -> List[Tuple[float, int]]:
    """(score, cell) of every candidate point for the side to move but those in `exclude`, best first (black
    skips renju forbidden points)."""
    me = board.side
    opp = 3 - me
    scored = []
    for cell in board.candidates():
        if cell in exclude or (me == BLACK and board.renju and board.is_forbidden(cell)):
            continue
        scored.append((shape_score(board, cell, me) + DEFENCE_SHARE * shape_score(board, cell, opp), cell))
    scored.sort(key=lambda item: -item[0])
    return scored


def scorer_move(board: Board, choice: int, exclude: Collection[int] = ()) -> int:
    """The pattern scorer's move for the side to move (never one in `exclude`): the best point, or one of the
    `choice` best at random (seeded by the position, so a position always gets the same answer); -1 when no
    point is left. A five is always taken."""
    scored = scored_points(board, exclude)
    if not scored:
        return -1
    best_score = scored[0][0]
    if choice <= 1 or best_score >= SHAPE_VALUES[Pattern.F5]:
        return scored[0][1]
    rng = random.Random(board.hash)
    return rng.choice(scored[:choice])[1]
