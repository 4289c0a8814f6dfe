"""Self-play through the engine facade: full strength against the same engine limited to depth 2."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import Engine, Limits

STRONG = Limits(max_nodes=300_000)
"""Full strength: 300,000 nodes a move, about what Pentad searches in a move of a 12 s game against Rapfi (median
280,000) and 0.2-0.3 s on this project's 2-core machine. A node limit rather than time, so the games are the same on
every machine."""
WEAK = Limits(max_depth=2)
"""The same engine limited to depth 2: its main search and every threat search at most two moves deep."""

# (rule, size, opening moves): 10 openings, each played with both colours = 20 games.
OPENINGS = [
    (Rule.FREESTYLE, 15, [(7, 7)]),
    (Rule.FREESTYLE, 15, [(7, 7), (8, 8), (6, 8)]),
    (Rule.FREESTYLE, 15, [(7, 7), (7, 8), (9, 9)]),
    (Rule.FREESTYLE, 20, [(10, 10), (11, 9), (9, 9)]),
    (Rule.FREESTYLE, 20, [(10, 10), (10, 11), (12, 10)]),
    (Rule.STANDARD, 15, [(7, 7), (8, 6), (6, 8)]),
    (Rule.STANDARD, 15, [(7, 7), (6, 7), (9, 8)]),
    (Rule.RENJU, 15, [(7, 7), (8, 8), (8, 6)]),
    (Rule.RENJU, 15, [(7, 7), (7, 8), (6, 9)]),
    (Rule.CARO, 15, [(7, 7), (8, 7), (6, 9)]),
]


def play(rule: Rule, size: int, opening: "list[tuple[int, int]]", strong: int) -> int:
    """Play one game between two engines, one per side (no shared hash table: the depth-2 side must not read
    the deeper side's results); returns the winner's colour (0 for a draw). Asserts every move is legal."""
    engines = {side: Engine(size, size, rule, memory_bytes=96 << 20) for side in (BLACK, WHITE)}
    referee = engines[BLACK]
    for move in opening:
        for engine in engines.values():
            engine.play(*move)
    while not referee.board.is_full():
        side = referee.side_to_move
        result = engines[side].think(STRONG if side == strong else WEAK)
        assert result.move is not None
        x, y = result.move
        assert referee.board.stone(referee.board.index(x, y)) == 0, "move on an occupied point"
        if rule is Rule.RENJU and side == BLACK:
            assert not referee.is_forbidden(x, y), "renju black played a forbidden point"
        for engine in engines.values():
            engine.play(x, y)
        if referee.last_move_wins():
            return side
    return 0


REQUIRED_WINS = 18
"""The target: 90 % of the 20 games. Measured: 20 of 20, and 20 of 20 with half the nodes (150,000 a move)."""


def play_both_colours(index: int) -> "list[bool]":
    """Opening `index` played with full strength as black, then as white: did full strength win each?"""
    rule, size, opening = OPENINGS[index]
    return [play(rule, size, opening, strong) == strong for strong in (BLACK, WHITE)]


@pytest.mark.slow
def test_full_strength_beats_depth_two() -> None:
    """20 games, two at a time (one process per core; spawned, since the test process has threads)."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = [won for pair in pool.map(play_both_colours, range(len(OPENINGS))) for won in pair]
    assert sum(results) >= REQUIRED_WINS, f"full strength won {sum(results)} of {len(results)}"
    assert all(results[0::2]), "with the first move (black), full strength must win every game"
