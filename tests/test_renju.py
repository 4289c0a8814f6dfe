"""Renju forbidden points against an independent referee: the `renju` package (a port of the Piskvork judge)."""
from __future__ import annotations

import random

import pytest

from pbrain.core.board import Board
from pbrain.core.patterns import Pattern4
from pbrain.core.rules import BLACK, WHITE, Rule
from tests.reference import random_position

referee = pytest.importorskip("renju.check_forbid")

SIZE = 15
INTERESTING = {Pattern4.FORBID, Pattern4.FLEX3_2X, Pattern4.BLOCK4_FLEX3, Pattern4.FLEX4, Pattern4.BLOCK4,
               Pattern4.BLOCK4_PLUS, Pattern4.FIVE, Pattern4.FLEX3, Pattern4.FLEX3_PLUS}


def referee_forbids(grid: "list[list[int]]", x: int, y: int) -> bool:
    """The referee's verdict for black at the empty (x, y) of a square grid indexed grid[x][y]."""
    return referee.get_foul_type(grid, x, y) != 0


def build(stones: "list[tuple[int, int, int]]") -> "tuple[Board, list[list[int]]]":
    board = Board(SIZE, SIZE, int(Rule.RENJU))
    grid = [[0] * SIZE for _ in range(SIZE)]
    for x, y, color in stones:
        grid[x][y] = color
        board.place(board.index(x, y), color)
    return board, grid


def test_random_positions_agree_with_the_referee() -> None:
    """2,000 random positions: every point where black has a three or better, plus a random sample of the
    other empty points, must get the referee's verdict."""
    rng = random.Random(2024)
    checked = forbidden = 0
    for position in range(2000):
        black_share = (0.5, 0.6, 0.7)[position % 3]
        board, grid = build(random_position(rng, SIZE, SIZE, rng.randint(12, 80), black_share))
        empties = [(x, y) for x in range(SIZE) for y in range(SIZE) if grid[x][y] == 0]
        points = [p for p in empties if board.pattern4(board.index(*p), BLACK) in INTERESTING]
        points += rng.sample(empties, min(12, len(empties)))
        for x, y in points:
            expected = referee_forbids(grid, x, y)
            assert board.is_forbidden(board.index(x, y)) == expected, (position, x, y)
            checked += 1
            forbidden += expected
    assert forbidden > 500, "the sample must exercise forbidden points, not just legal ones"
    assert checked > 20_000


def rows_to_stones(rows: "list[str]") -> "list[tuple[int, int, int]]":
    return [(x, y, BLACK if ch == "X" else WHITE) for y, row in enumerate(rows) for x, ch in enumerate(row)
            if ch in "XO"]


# (name, rows with '*' at the point tested, forbidden?)
CLASSICS = [
    ("double three", [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        ".......X.......",
        ".......X.......",
        ".....XX*.......",
    ], True),
    ("three whose extension point is itself forbidden (overline there) is no three", [
        "...............",
        "...............",
        "...............",
        "...............",
        "......X........",
        "......X........",
        "......X........",
        "....XX.*.......",
        "......XX.......",
        "......XX.......",
    ], False),
    ("four-four on one line", [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "..X.X*X.X......",
    ], True),
    ("two fours in two lines", [
        "...............",
        "...............",
        "...............",
        "........X......",
        "........X......",
        "........X......",
        "...............",
        "....XXX.*......",
    ], True),
    ("overline", [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "..XXX*XX.......",
    ], True),
    ("overline beside a five: the five overrides", [
        "...............",
        "...............",
        "...............",
        ".....X.........",
        ".....X.........",
        ".....X.........",
        ".....X.........",
        "..XX.*XX.......",
    ], False),
    ("a five overrides a double three", [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...XXXX*.......",
        ".......XX......",
        ".......X.X.....",
    ], False),
    ("a three blocked by white is no three", [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        ".......O.......",
        ".......X.......",
        ".......X.......",
        ".....XX*.......",
        ".......O.......",
    ], False),
]


@pytest.mark.parametrize("name,rows,expected", CLASSICS, ids=[c[0] for c in CLASSICS])
def test_classic_positions(name: str, rows: "list[str]", expected: bool) -> None:
    target = next((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*")
    board, grid = build(rows_to_stones(rows))
    assert referee_forbids(grid, *target) == expected, "the referee reads this position differently"
    assert board.is_forbidden(board.index(*target)) == expected


def test_white_is_never_forbidden_and_other_rules_have_no_forbidden_points() -> None:
    rows = CLASSICS[0][1]
    target = next((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*")
    for rule in (Rule.FREESTYLE, Rule.STANDARD, Rule.CARO):
        board = Board(SIZE, SIZE, int(rule))
        for x, y, color in rows_to_stones(rows):
            board.place(board.index(x, y), color)
        assert not board.is_forbidden(board.index(*target))
        assert board.pattern4(board.index(*target), BLACK) == Pattern4.FLEX3_2X


def test_forbidden_check_leaves_the_board_unchanged() -> None:
    board, _ = build(rows_to_stones(CLASSICS[1][1]))
    before = board.snapshot()
    for cell in board.playable:
        if board.stone(cell) == 0:
            board.is_forbidden(cell)
    assert board.snapshot() == before


# A full board but for (3, 7), where black would make eight in a row: black's only point is forbidden. No five or
# overline stands on it for either side, and both have 112 stones, so black is to move.
FULL_BUT_ONE = [
    "OXOOXXOOXXOOXXO", "OOXXOOXXOOXXOOX", "OXOOXXOOXXOOXXO", "OOXXOOXXOOXXOOX", "XXOOXXOOXXOOXXO",
    "OOXXOOXXOOXXOOX", "XXOOXXOOXXOOXXO", "XXX.XXXXOOXXOOX", "XXOOXXOOXXOOXXO", "OOXXOOXXOOXXOOX",
    "OXOOXXOOXXOOXXO", "OOXXOOXXOOXXOOX", "XXOOXXOOXXOOXXO", "OOXXOOXXOOXXOOX", "OXOOXXOOXXOOXXO",
]


def _renju_black_answer(rows: "list[str]") -> str:
    """The brain's move as black (its own stones the X) in the renju position `rows`, at 300 ms a move."""
    from tests.brains import SessionBrain

    with SessionBrain() as brain:
        for line in ("START 15", "INFO rule 4", "INFO timeout_turn 300"):
            brain.line(line)
        assert brain.reply() == "OK"
        brain.line("BOARD")
        for x, y, color in rows_to_stones(rows):
            brain.line(f"{x},{y},{1 if color == BLACK else 2}")
        brain.line("DONE")
        return brain.reply(timeout=10)


def test_black_left_only_forbidden_points_plays_one_else_never() -> None:
    """No manager lets a brain pass: with nothing but forbidden points left black must play one (and loses by the
    rules, not by an error or silence); with one allowed point beside them it plays that one."""
    board, grid = build(rows_to_stones(FULL_BUT_ONE))
    assert sum(row.count(BLACK) for row in grid) == sum(row.count(WHITE) for row in grid)
    assert referee.get_foul_type(grid, 3, 7) == 3 and board.is_forbidden(board.index(3, 7))
    assert _renju_black_answer(FULL_BUT_ONE) == "3,7"
    rows = list(FULL_BUT_ONE)
    rows[14] = rows[14][:13] + ".."  # a black and a white stone taken off the corner: two points black may play
    board, grid = build(rows_to_stones(rows))
    assert not board.is_forbidden(board.index(13, 14)) and not board.is_forbidden(board.index(14, 14))
    assert _renju_black_answer(rows) in ("13,14", "14,14")


@pytest.mark.parametrize("search", ["alphabeta", "mcts"])
def test_leaving_black_only_forbidden_points_is_a_win_for_white(search: str) -> None:
    """Black left with nothing but forbidden points must play one and loses: both searches score such a node as
    black's loss, so white takes the last allowed point (seen in a game against Rapfi: white left black the
    overline point, and Pentad, as black, had counted the line a draw; the tree search crashed on such a node)."""
    from pbrain import params
    from pbrain.engine import Engine, Limits

    rows = list(FULL_BUT_ONE)
    rows[0] = "." + rows[0][1:]  # a white stone taken off the corner: white to move, two points left
    engine = Engine(15, 15, Rule.RENJU)
    engine.set_search_kind(search)
    engine.set_position(rows_to_stones(rows), WHITE)
    assert engine.is_forbidden(3, 7) and not engine.is_forbidden(0, 0)
    result = engine.think(Limits(max_depth=4) if search == "alphabeta" else Limits(max_nodes=200))
    assert result.move == (0, 0)
    assert result.score >= params.WIN_THRESHOLD
