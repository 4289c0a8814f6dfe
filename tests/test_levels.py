"""Playing levels: the strength scale, the pattern scorer's shapes, the bounded searches, INFO strength."""
from __future__ import annotations

import pytest

from pbrain import levels
from pbrain.core.rules import BLACK, Rule
from pbrain.engine import Engine, Limits
from tests.brains import SessionBrain


def test_strength_selects_levels_weakest_to_full() -> None:
    assert levels.level_for_strength(0).number == 1
    assert levels.level_for_strength(100) is levels.LEVELS[-1]
    assert levels.LEVELS[-1].strength == levels.FULL_STRENGTH
    assert levels.level_for_strength(levels.FULL_STRENGTH - 1) is levels.LEVELS[-2]
    numbers = [levels.level_for_strength(s).number for s in range(101)]
    assert numbers == sorted(numbers) and set(numbers) == {lv.number for lv in levels.LEVELS}
    assert levels.level_by_number(2).name == "novice"
    with pytest.raises(ValueError):
        levels.level_by_number(len(levels.LEVELS) + 1)


def test_engine_plays_full_strength_unless_told() -> None:
    engine = Engine(15)
    assert engine.strength == 100 and engine.level is levels.LEVELS[-1]
    engine.set_strength(250)
    assert engine.strength == 100
    engine.set_strength(-5)
    assert engine.strength == 0 and engine.level.number == 1


def _engine(moves, strength: int) -> Engine:
    engine = Engine(15)
    for move in moves:
        engine.play(*move)
    engine.set_strength(strength)
    return engine


BLACK_FOUR = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)]
"""White to move: black's four (7..10, 7) is open at (6, 7) and (11, 7)."""
WHITE_CAN_WIN = [(7, 7), (3, 3), (8, 8), (3, 4), (12, 1), (3, 5), (1, 12), (3, 6), (9, 9)]
"""White to move: (3, 2) or (3, 7) makes white's five; black has a four at (10, 10)/(6, 6) to answer."""


@pytest.mark.parametrize("strength", [0, 15])
def test_the_pattern_scorer_takes_a_five_before_blocking(strength: int) -> None:
    result = _engine(WHITE_CAN_WIN, strength).think(Limits(turn_ms=1000))
    assert result.move in ((3, 2), (3, 7)) and result.reason == "level"


def test_the_novice_blocks_a_four() -> None:
    result = _engine(BLACK_FOUR, 15).think(Limits(turn_ms=1000))
    assert result.move in ((6, 7), (11, 7))


def test_the_scorer_values_shapes_in_the_seeds_order() -> None:
    engine = _engine([(7, 7), (0, 0), (8, 7), (0, 14)], 15)
    board = engine.board
    three = levels.shape_score(board, board.index(9, 7), BLACK)  # makes an open three
    two = levels.shape_score(board, board.index(7, 9), BLACK)  # a two at most
    assert three > two > 0
    threes = [board.index(x, 7) for x in (5, 6, 9, 10)]  # each makes an open three, straight or split
    assert levels.scorer_move(board, 1) in threes


def test_the_beginner_answers_the_same_position_the_same_way() -> None:
    first = _engine([(7, 7), (8, 8)], 0).think(Limits(turn_ms=1000)).move
    assert _engine([(7, 7), (8, 8)], 0).think(Limits(turn_ms=1000)).move == first


def test_renju_scorer_avoids_forbidden_points() -> None:
    engine = Engine(15, rule=Rule.RENJU)
    for move in [(6, 7), (0, 0), (7, 7), (0, 2), (8, 5), (0, 4), (8, 6), (0, 6)]:  # (8, 7): double three
        engine.play(*move)
    forbidden = set(engine.forbidden_points())
    assert forbidden
    engine.set_strength(15)
    assert engine.think(Limits(turn_ms=1000)).move not in forbidden


def test_search_levels_are_bounded() -> None:
    moves = [(7, 7), (8, 8), (6, 8), (8, 6), (6, 6), (9, 7)]
    for level in [lv for lv in levels.LEVELS if lv.max_depth is not None]:
        result = _engine(moves, level.strength).think(Limits(turn_ms=5000))
        assert result.move is not None
        assert result.depth <= level.max_depth and result.nodes <= level.max_nodes + 2000


def test_info_strength_sets_the_level_and_rejects_bad_values() -> None:
    with SessionBrain(Engine) as brain:
        brain.line("INFO strength 10")
        brain.line("START 15")
        assert brain.reply() == "OK"
        brain.line("BOARD")
        for i, (x, y) in enumerate(WHITE_CAN_WIN):
            brain.line(f"{x},{y},{2 if i % 2 == 0 else 1}")
        brain.line("DONE")
        assert brain.reply() in ("3,2", "3,7")
        brain.line("INFO strength 101")
        brain.line("ABOUT")
        assert brain.reply().startswith("ERROR INFO strength")


def test_the_mcts_level_plays_the_tree_search_within_its_simulations() -> None:
    mcts_levels = [lv for lv in levels.LEVELS if lv.search == "mcts"]
    assert len(mcts_levels) == 1 and mcts_levels[0].max_nodes
    level = mcts_levels[0]
    engine = _engine([(7, 7), (8, 8), (6, 8), (8, 6)], level.strength)
    assert engine.level is level
    result = engine.think(Limits(turn_ms=5000))
    assert result.reason.startswith("mcts") and result.nodes <= level.max_nodes
    assert engine.board.stone(engine.board.index(*result.move)) == 0
