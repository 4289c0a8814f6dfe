"""Proven wins are converted: from a position the threat search proves won, the engine plays the win out to a
five against a defending engine (a separate instance with its own tables), re-proving it after every reply."""
from __future__ import annotations

import pytest

from pbrain import params
from pbrain.engine import Limits
from tests.tactics import engine_of, load

VCT = load("tactics.json", "vct")
ATTACK = Limits(max_nodes=2_500_000)
DEFEND = Limits(max_nodes=200_000)
MAX_PLIES = 40


@pytest.mark.parametrize("item", VCT, ids=[p["id"] for p in VCT])
def test_a_proven_win_is_played_out_to_five(item: dict) -> None:
    attacker = engine_of(item)
    first = attacker.think(ATTACK)
    assert first.score >= params.WIN_THRESHOLD and first.reason in ("vcf", "vct")
    defender = engine_of(item)
    attacker_moves = 0
    for ply in range(MAX_PLIES):
        engine = attacker if ply % 2 == 0 else defender
        result = first if ply == 0 else engine.think(ATTACK if ply % 2 == 0 else DEFEND)
        assert result.move is not None
        if ply % 2 == 0:
            attacker_moves += 1
            if result.reason != "defend":  # a block of the defender's four is forced and scored 0
                assert result.score >= params.WIN_THRESHOLD, f"the win was lost after {attacker_moves} moves"
        for side in (attacker, defender):
            side.play(*result.move)
        if attacker.last_move_wins():
            assert ply % 2 == 0, "the defender made five"
            return
    pytest.fail(f"no five within {MAX_PLIES} plies")
