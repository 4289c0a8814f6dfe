"""Move generation: the stone-free threat tests agree with placing the stone and looking."""
from __future__ import annotations

import random

import pytest

from pbrain.board import Board
from pbrain.movegen import MoveGen
from pbrain.patterns import Pattern4
from pbrain.rules import BLACK, WHITE, Rule
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


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO])
def test_stops_open_fours_agrees_with_placing_the_stone(rule: Rule) -> None:
    tested = stopped = 0
    for board in positions(rule, 60, 7 + int(rule)):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            opp = 3 - side
            if board.count(opp, Pattern4.FLEX4) == 0:
                continue
            for cell in board.playable:
                if board.stone(cell) != 0:
                    continue
                board.place(cell, side)
                expected = not gen.has_flex4(opp)
                board.undo()
                assert gen.stops_open_fours(cell, side) == expected, (board.history(), cell, side)
                tested += 1
                stopped += expected
    assert tested > 1000 and stopped > 20  # the positions do hold open threes and their defences


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO])
def test_five_after_agrees_with_placing_the_stone(rule: Rule) -> None:
    tested = found = 0
    for board in positions(rule, 60, 11 + int(rule)):
        gen = MoveGen(board, 1)
        for side in (BLACK, WHITE):
            if board.count(side, Pattern4.FIVE) > 0:
                continue  # five_after's contract: no five point before the stone
            for cell in board.playable:
                if board.stone(cell) != 0:
                    continue
                board.place(cell, side)
                expected = gen.five_point(side, cell)
                board.undo()
                assert gen.five_after(side, cell) == expected, (board.history(), cell, side)
                tested += 1
                found += expected >= 0
    assert tested > 1000 and found > 50
