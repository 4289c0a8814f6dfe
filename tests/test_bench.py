"""The search signature: `pbrain-pentad bench` searches fixed positions to a fixed depth with fresh tables, so its
node count changes only when search behaviour changes. A commit that changes it says so and updates this."""
from __future__ import annotations

import pytest

import pbrain
from pbrain import bench

SIGNATURE_NODES = 460502
SIGNATURE_MOVES = [(7, 5), (9, 8), (9, 10), (7, 8), (8, 9), (5, 9)]


@pytest.mark.skipif(not pbrain.compiled(), reason="the full-depth bench takes minutes interpreted")
def test_bench_signature() -> None:
    result = bench.search_bench()
    assert (result.nodes, result.moves) == (SIGNATURE_NODES, SIGNATURE_MOVES)


def test_core_bench_runs() -> None:
    assert bench.core_bench(0.2) > 0
