"""Move generation: the stone-free threat tests agree with placing the stone and looking."""
from __future__ import annotations

import random

import pytest

from pbrain.core.board import Board
from pbrain.core.patterns import Pattern4
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.search.movegen import MoveGen
from tests.reference import random_position


def positions(rule: Rule, count: int, seed: int):
    """Random clustered positions (15x15 and a 9x7 rectangle), black or white to move."""
    rng = random.Random(seed)
    for k in range(count):
        width, height = (15, 15) if k % 3 else (9, 7)
        board = Board(width, height, rule)
        for x, y, colour in random_position(rng, width, height, rng.randrange(6, 40)):
            board.place(board.index(x, y), colour)
            if board.last_move_wins():
                board.undo()
        yield board


def outcomes(rule: Rule, seed: int, wanted, fast, after):
    """For every empty cell and side of the positions where wanted(board, side) holds: (fast answer, the answer
    after(gen, cell, side) gives with the stone placed)."""
    for board in positions(rule, 60, seed):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            if not wanted(board, side):
                continue
            for cell in board.playable:
                if board.stone(cell) != 0:
                    continue
                board.place(cell, side)
                expected = after(gen, cell, side)
                board.undo()
                yield fast(gen, cell, side), expected, (board.history(), cell, side)


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO])
def test_stops_open_fours_agrees_with_placing_the_stone(rule: Rule) -> None:
    tested = stopped = 0
    for answer, expected, where in outcomes(rule, 7 + int(rule),
                                            lambda board, side: board.count(3 - side, Pattern4.FLEX4) > 0,
                                            lambda gen, cell, side: gen.stops_open_fours(cell, side),
                                            lambda gen, cell, side: not gen.has_flex4(3 - side)):
        assert answer == expected, where
        tested += 1
        stopped += expected
    assert tested > 1000 and stopped > 20  # the positions do hold open threes and their defences


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO])
def test_five_after_agrees_with_placing_the_stone(rule: Rule) -> None:
    # five_after's contract: the side has no five point before the stone
    tested = found = 0
    for answer, expected, where in outcomes(rule, 11 + int(rule),
                                            lambda board, side: board.count(side, Pattern4.FIVE) == 0,
                                            lambda gen, cell, side: gen.five_after(side, cell),
                                            lambda gen, cell, side: gen.five_point(side, cell)):
        assert answer == expected, where
        tested += 1
        found += expected >= 0
    assert tested > 1000 and found > 50


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.CARO, Rule.CARO_EXACT])
def test_defences_are_the_own_fours_and_every_cell_that_stops_the_open_fours(rule: Rule) -> None:
    """gen_defences (which looks for the opponent's open-four cells near the last move first) lists exactly the
    side's four-making cells and the cells after which the opponent has no open-four cell, each once (in caro
    also a cell beyond the five-to-be, which leaves it blocked at both ends). Its contract: neither side has a five
    point; the search plays or blocks a five before it generates moves."""
    tested = 0
    for board in positions(rule, 200, 23 + int(rule)):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            if not gen.has_flex4(3 - side) or gen.any_five_point(BLACK) >= 0 or gen.any_five_point(WHITE) >= 0:
                continue
            n = gen.gen_defences(0, side)
            listed = [gen.moves[i] for i in range(n)]
            expected = set()
            for cell in board.playable:
                if board.stone(cell) != 0:
                    continue
                if board.pattern4(cell, side) >= Pattern4.BLOCK4:
                    expected.add(cell)
                    continue
                board.place(cell, side)
                if not gen.has_flex4(3 - side):
                    expected.add(cell)
                board.undo()
            assert len(listed) == len(set(listed)) and set(listed) == expected, (board.history(), side)
            tested += 1
    assert tested > 20


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO])
def test_four_three_defences_are_the_own_fours_and_every_cell_that_takes_the_four_threes(rule: Rule) -> None:
    """gen_four_three_defences lists exactly the side's four-making cells and the cells after which the opponent
    has no four-three point left and none of its former ones is a double open three, each once. Its contract: no
    five point and no open-four threat on the board (the search answers those first); renju only against white."""
    tested = 0
    for board in positions(rule, 1200, 31 + int(rule)):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            opp = 3 - side
            if board.count(opp, Pattern4.BLOCK4_FLEX3) == 0 or gen.has_flex4(opp) or \
                    gen.any_five_point(BLACK) >= 0 or gen.any_five_point(WHITE) >= 0 or \
                    (rule == Rule.RENJU and opp == BLACK):
                continue
            threats = [c for c in board.playable if board.stone(c) == 0 and
                       board.pattern4(c, opp) == Pattern4.BLOCK4_FLEX3]
            n = gen.gen_four_three_defences(0, side)
            listed = [gen.moves[i] for i in range(n)]
            expected = set()
            for cell in board.playable:
                if board.stone(cell) != 0 or (rule == Rule.RENJU and side == BLACK and board.is_forbidden(cell)):
                    continue
                if board.pattern4(cell, side) >= Pattern4.BLOCK4:
                    expected.add(cell)
                    continue
                board.place(cell, side)
                if board.count(opp, Pattern4.BLOCK4_FLEX3) == 0 and all(
                        board.stone(t) != 0 or board.pattern4(t, opp) != Pattern4.FLEX3_2X for t in threats):
                    expected.add(cell)
                board.undo()
            assert len(listed) == len(set(listed)) and set(listed) == expected, (board.history(), side)
            tested += 1
    assert tested > 20


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_any_five_point_is_the_first_five_point_in_board_order(rule: Rule) -> None:
    tested = 0
    for board in positions(rule, 80, 31 + int(rule)):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            fives = [c for c in board.playable if board.stone(c) == 0 and board.pattern4(c, side) == Pattern4.FIVE]
            assert gen.any_five_point(side) == (fives[0] if fives else -1), (board.history(), side)
            tested += bool(fives)
    assert tested > 10


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO])
def test_class_range_generation_finds_every_playable_cell_of_the_range_in_board_order(rule: Rule) -> None:
    ranges = [(Pattern4.FLEX3, Pattern4.FLEX4), (Pattern4.BLOCK4, Pattern4.FLEX4),
              (Pattern4.BLOCK4_PLUS, Pattern4.FLEX4)]
    found = 0
    for board in positions(rule, 60, 47 + int(rule)):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            forbidden = rule == Rule.RENJU and side == BLACK
            for low, high in ranges:
                expected = [c for c in board.playable if board.stone(c) == 0 and low <= board.pattern4(c, side) <= high
                            and not (forbidden and board.is_forbidden(c))]
                n = gen.gen_classes(0, side, low, high)
                assert [gen.moves[i] for i in range(n)] == expected, (board.history(), side, low, high)
                found += n
    assert found > 100
