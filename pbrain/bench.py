"""Benchmarks: the search signature (fixed positions, fixed depth, fresh tables, one thread) and the board core.

The total node count of `search_bench` is a signature: it changes only when search behaviour changes. Commits
that change search behaviour quote the new number; refactors keep it.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import List, Tuple

import pbrain
from pbrain.core.rules import Rule
from pbrain.engine import Engine, Limits, SearchResult

BENCH_DEPTH = 7
BENCH_MEMORY = 64 * 1024 * 1024

# (rule, board size, moves from an empty board): openings and middle games from self-play.
POSITIONS: List[Tuple[Rule, int, List[Tuple[int, int]]]] = [
    (Rule.FREESTYLE, 15, [(7, 7)]),
    (Rule.FREESTYLE, 15, [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 5), (9, 5), (6, 7), (9, 6)]),
    (Rule.FREESTYLE, 20, [(10, 10), (11, 10), (9, 11), (11, 11), (11, 9), (8, 12), (10, 9), (12, 9), (12, 8),
                          (13, 7), (13, 8), (10, 8)]),
    (Rule.STANDARD, 15, [(7, 7), (6, 8), (8, 8), (6, 6), (7, 9), (9, 7), (6, 7), (7, 6), (5, 7), (4, 7),
                         (5, 6)]),
    (Rule.RENJU, 15, [(7, 7), (7, 8), (9, 9), (6, 6), (9, 8), (9, 7)]),
    (Rule.CARO, 15, [(7, 7), (8, 7), (6, 8), (8, 8), (8, 6)]),
]


@dataclass(frozen=True)
class BenchResult:
    """Outcome of one search benchmark run."""

    mode: str
    """'compiled' or 'interpreted'."""
    depth: int
    """Fixed depth searched in every position."""
    nodes: int
    """Total nodes over all positions: the signature."""
    time_ms: int
    """Total wall time of the searches."""
    moves: List[Tuple[int, int]]
    """Best move per position (part of what must match between modes)."""

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes * 1000 / max(1, self.time_ms))


def timed_think(rule: Rule, size: int, played: "List[Tuple[int, int]]", limits: Limits,
                memory_bytes: int) -> "Tuple[SearchResult, float]":
    """Think once in a fresh engine (fresh tables, `memory_bytes` its limit) after `played`; the result and the
    think's seconds (setting up the position not counted)."""
    engine = Engine(size, size, rule, memory_bytes=memory_bytes)
    for x, y in played:
        engine.play(x, y)
    start = time.perf_counter()
    result = engine.think(limits)
    return result, time.perf_counter() - start


def search_bench(depth: int = BENCH_DEPTH) -> BenchResult:
    """Search every bench position to `depth` with fresh tables; total the nodes."""
    nodes = 0
    elapsed = 0.0
    moves = []
    for rule, size, played in POSITIONS:
        result, seconds = timed_think(rule, size, played, Limits(max_depth=depth), BENCH_MEMORY)
        elapsed += seconds
        nodes += result.nodes
        moves.append(result.move)
    return BenchResult(pbrain.mode(), depth, nodes, int(elapsed * 1000), moves)


def core_bench(seconds: float = 2.0) -> float:
    """Best place + undo pairs per second (full pattern update) on a fixed 15x15 middle-game position."""
    from pbrain.core.board import Board, place_undo_loop

    board = Board(15, 15, 0)
    rng = random.Random(3)
    for _ in range(30):
        board.place(rng.choice(board.candidates()))
    cells = board.candidates()
    rounds = 1
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        pairs = place_undo_loop(board, cells, rounds)
        spent = time.perf_counter() - start
        if spent < 0.05:
            rounds *= 2
            continue
        best = max(best, pairs / spent)
    return best
