"""Board: API contract, incremental state == recomputed state, win detection against a naive scanner."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbrain.core import geometry, patterns
from pbrain.core.board import Board, BoardError
from pbrain.core.patterns import Pattern, Pattern4
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.evaluation import weights as eval_weights
from tests.reference import random_position, wins

ALL_RULES = list(Rule)


def test_pxd_constants_match_python_vocabulary() -> None:
    text = (Path(__file__).parent.parent / "pbrain" / "core" / "board.pxd").read_text()
    declared = dict((name, int(value)) for name, value in re.findall(r"^\s+(\w+) = (\d+)$", text, re.M))
    assert declared["EMPTY"] == patterns.EMPTY and declared["WALL"] == patterns.WALL
    assert declared["PADDING"] == patterns.HALF_LINE
    assert declared["NEAR_WORDS"] == geometry.NEAR_WORDS
    assert declared["FLAG_DOUBLE_THREE"] == patterns.FLAG_DOUBLE_THREE
    assert declared["HALF_KEYS"] == patterns.HALF_KEYS
    assert declared["NUM_CODES"] == patterns.NUM_CODES and declared["EVAL_SHIFT"] == eval_weights.SHIFT
    for p in Pattern:
        assert declared[f"PAT_{p.name}"] == p.value
    for p4 in Pattern4:
        assert declared[f"P4_{p4.name}"] == p4.value


@pytest.mark.parametrize("width,height", [(5, 5), (15, 15), (20, 20), (22, 22), (20, 12), (7, 19), (32, 32)])
def test_sizes_and_coordinates(width: int, height: int) -> None:
    board = Board(width, height, 0)
    assert (board.width, board.height) == (width, height)
    assert len(board.playable) == width * height
    for x, y in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width // 2, height // 2)]:
        assert board.xy(board.index(x, y)) == (x, y)
    assert board.snapshot() == board.recomputed()


@pytest.mark.parametrize("width,height", [(4, 15), (15, 4), (33, 10), (0, 0), (-1, 5)])
def test_bad_sizes_raise(width: int, height: int) -> None:
    with pytest.raises(BoardError):
        Board(width, height or 15, 0)


def test_illegal_operations_raise_and_leave_the_board_unchanged() -> None:
    board = Board(15, 15, 0)
    with pytest.raises(BoardError):
        board.undo()
    board.play(7, 7)
    before = board.snapshot()
    for bad in [(7, 7), (-1, 0), (15, 3), (3, 15), (99, 99)]:
        with pytest.raises(BoardError):
            board.play(*bad)
        assert board.snapshot() == before
    with pytest.raises(BoardError):
        board.place(0)  # a wall cell
    with pytest.raises(BoardError):
        board.place(board.index(1, 1), 3)
    with pytest.raises(BoardError):
        board.set_side(0)
    assert board.snapshot() == before
    assert board.undo() == board.index(7, 7)
    with pytest.raises(BoardError):
        board.undo()


def test_sides_alternate_and_explicit_colours() -> None:
    board = Board(15, 15, 0)
    assert board.side == BLACK
    board.play(7, 7)
    assert board.side == WHITE and board.stone(board.index(7, 7)) == BLACK
    board.place(board.index(8, 8), WHITE)
    board.place(board.index(9, 9), WHITE)  # positions given stone by stone need not alternate
    assert board.side == BLACK
    board.undo()
    assert board.side == WHITE
    assert board.history() == [board.index(7, 7), board.index(8, 8)]


def test_win_flags_and_counts_on_a_simple_four() -> None:
    board = Board(15, 15, 0)
    for x in range(4):
        board.place(board.index(x + 3, 7), BLACK)
    assert board.count(BLACK, Pattern4.FIVE) == 2  # (2,7) and (7,7)
    assert board.count(WHITE, Pattern4.FIVE) == 0
    assert board.is_win_move(board.index(7, 7), BLACK)
    assert not board.is_win_move(board.index(7, 7), WHITE)
    board.place(board.index(7, 7), BLACK)
    assert board.last_move_wins()
    board.undo()
    assert not board.last_move_wins()


def test_full_board() -> None:
    board = Board(5, 5, 0)
    for i, cell in enumerate(board.playable):
        assert not board.is_full()
        board.place(cell, BLACK if (i // 2) % 2 else WHITE)
    assert board.is_full()


def _assert_incremental(board: Board) -> None:
    snap, ref = board.snapshot(), board.recomputed()
    for key in snap:
        assert snap[key] == ref[key], key


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule=st.sampled_from(ALL_RULES),
    width=st.integers(5, 22),
    height=st.integers(5, 22),
    actions=st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), min_size=1, max_size=45),
)
def test_incremental_state_equals_recomputation(rule: Rule, width: int, height: int, actions: list) -> None:
    """After every place and every undo, incremental patterns, classes, counters and key equal a from-scratch
    recomputation, and an undo restores exactly the previous state."""
    board = Board(width, height, int(rule))
    history = []
    for is_undo, pick in actions:
        if is_undo and history:
            board.undo()
            assert board.snapshot() == history.pop()
        else:
            empties = [c for c in board.playable if board.stone(c) == 0]
            if not empties:
                continue
            history.append(board.snapshot())
            board.place(empties[pick % len(empties)])
        _assert_incremental(board)


@pytest.mark.parametrize("width,height", [(32, 32), (23, 31), (32, 6), (22, 22)])
def test_long_lines_kept_in_two_words_stay_exact(width: int, height: int) -> None:
    """Lines longer than one 64-bit word (boards past 22) are kept in two overlapping words: after stones all over
    the board and undos, every key, pattern and counter equals a recomputation."""
    board = Board(width, height, 0)
    rng = random.Random(width * 100 + height)
    cells = list(board.playable)
    rng.shuffle(cells)
    for i, cell in enumerate(cells[: len(cells) * 3 // 4]):
        board.place(cell)
        if i % 97 == 0:
            _assert_incremental(board)
    _assert_incremental(board)
    for _ in range(len(cells) // 3):
        board.undo()
    _assert_incremental(board)


@pytest.mark.parametrize("rule", ALL_RULES)
@pytest.mark.parametrize("width,height", [(15, 15), (20, 20), (9, 14)])
def test_win_detection_matches_naive_scanner(rule: Rule, width: int, height: int) -> None:
    rng = random.Random(f"{rule}{width}{height}")
    for _ in range(12):
        board = Board(width, height, int(rule))
        grid = [[0] * height for _ in range(width)]
        for x, y, color in random_position(rng, width, height, rng.randint(20, 90)):
            grid[x][y] = color
            board.place(board.index(x, y), color)
        for x in range(width):
            for y in range(height):
                if grid[x][y]:
                    continue
                cell = board.index(x, y)
                for color in (BLACK, WHITE):
                    assert board.is_win_move(cell, color) == wins(grid, x, y, color, rule), (x, y, color)


def _board_from_rows(rows: "list[str]", rule: Rule) -> "tuple[Board, list[list[int]]]":
    height, width = len(rows), len(rows[0])
    board = Board(width, height, int(rule))
    grid = [[0] * height for _ in range(width)]
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "XO":
                grid[x][y] = BLACK if ch == "X" else WHITE
                board.place(board.index(x, y), grid[x][y])
    return board, grid


CRAFTED = {
    "overline": [
        "...............",
        ".XXX.XX........",  # (4,1) makes six for black
        "...............",
        "OOOO.O.........",  # (4,3) makes six for white
        "...............",
    ],
    "edge_fives": [
        "XXXX.....OOOO..",
        "..............O",
        "..............O",
        "..............O",
        "..............O",
        "...............",
    ],
    "caro_blocked": [
        "OXXXX.O........",  # (5,0) blocked both ends by white: no caro win
        "..XXXX.........",  # (1,1) or (6,1): open
        "...............",
        "XOOOO.X........",
        "OOOO.OX........",  # (4,4): six for white in caro wins even blocked
        "...............",
    ],
    "rectangle": ["X.XXX...", "O.OOO..O", "........", "XXXX....", "........"],
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
@pytest.mark.parametrize("rule", ALL_RULES)
def test_win_detection_on_crafted_boards(name: str, rule: Rule) -> None:
    board, grid = _board_from_rows(CRAFTED[name], rule)
    for x in range(board.width):
        for y in range(board.height):
            if grid[x][y]:
                continue
            for color in (BLACK, WHITE):
                expected = wins(grid, x, y, color, rule)
                assert board.is_win_move(board.index(x, y), color) == expected, (name, x, y, color)
                board.place(board.index(x, y), color)
                assert board.last_move_wins() == expected
                board.undo()


def test_caro_specifics() -> None:
    board, _ = _board_from_rows(CRAFTED["caro_blocked"], Rule.CARO)
    assert not board.is_win_move(board.index(5, 0), BLACK)
    assert board.is_win_move(board.index(1, 1), BLACK)
    assert board.is_win_move(board.index(4, 4), WHITE)
    board, _ = _board_from_rows(CRAFTED["caro_blocked"], Rule.CARO_EXACT)
    assert not board.is_win_move(board.index(4, 4), WHITE)
    board, _ = _board_from_rows(["XXXX.O", "......", "......", "......", "......"], Rule.CARO)
    assert board.is_win_move(board.index(4, 0), BLACK)  # the edge does not block


def test_overline_rules() -> None:
    rows = CRAFTED["overline"]
    for rule, black_wins, white_wins in [
        (Rule.FREESTYLE, True, True),
        (Rule.STANDARD, False, False),
        (Rule.RENJU, False, True),
    ]:
        board, _ = _board_from_rows(rows, rule)
        assert board.is_win_move(board.index(4, 1), BLACK) == black_wins
        assert board.is_win_move(board.index(4, 3), WHITE) == white_wins


def test_candidates_are_near_stones() -> None:
    board = Board(15, 15, 0)
    assert board.candidates() == [board.index(7, 7)]
    board.play(7, 7)
    near = {board.xy(c) for c in board.candidates()}
    assert (5, 5) in near and (9, 9) in near and (4, 7) in near and (10, 10) in near
    assert (4, 5) not in near and (7, 7) not in near
    assert len(near) == 32
