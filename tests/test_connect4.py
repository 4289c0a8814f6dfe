"""Connect Four: the rules (pbrain.connect4.bitboard), the solver (pbrain.connect4.solver) and the alpha-beta
player, checked against bitbully (an independent C++ engine) on random positions."""
from __future__ import annotations

import importlib.util
import pickle
import random
import sys
import threading
from pathlib import Path

import pytest

from pbrain.connect4 import bitboard as connect4
from pbrain.connect4 import players as c4players
from pbrain.connect4 import solver as c4solver
from pbrain.connect4.bitboard import FIRST, HEIGHT, SECOND, WIDTH, Connect4, Connect4Error
from pbrain.connect4.players import PLAYERS, Answer, alphabeta_move, score_text
from pbrain.connect4.solver import PROVEN, Solver

bitbully = pytest.importorskip("bitbully")

DRAW = "455714637617614767242476316455122212535333"
"""A game that fills the board without four in a row."""


def random_game(rng: random.Random, stop_at: int = 42) -> Connect4:
    """A random game from the empty board, stopped at `stop_at` stones or at its end."""
    pos = Connect4()
    while pos.move_count < stop_at and not pos.is_over():
        pos.play(rng.choice(pos.legal_moves()))
    return pos


def random_positions(seed: int, count: int, low: int, high: int) -> list:
    """`count` positions (not over) from random play with low..high stones."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = random_game(rng, rng.randint(low, high))
        if not pos.is_over():
            found.append(pos)
    return found


def bb_board(pos: Connect4):
    return bitbully.Board.from_moves(pos.history())


@pytest.fixture(scope="module")
def agent():
    return bitbully.BitBully()


@pytest.fixture(scope="module")
def solver():
    return Solver(1 << 20)


# -- rules -------------------------------------------------------------------------------------------------------


def test_empty_board() -> None:
    pos = Connect4()
    assert (WIDTH, HEIGHT, FIRST, SECOND) == (7, 6, 1, 2)
    assert pos.side == FIRST and pos.move_count == 0
    assert pos.legal_moves() == list(range(7))
    assert pos.result() is None and pos.winner() == 0 and not pos.is_over() and not pos.is_full()
    assert pos.key() == 0 and pos.history() == [] and pos.moves_string() == ""
    assert pos.winning_cells() == []


def test_stones_drop_and_sides_alternate() -> None:
    pos = Connect4("4453")
    assert pos.side == FIRST and pos.move_count == 4
    assert [pos.stone(3, 0), pos.stone(3, 1), pos.stone(4, 0), pos.stone(2, 0)] == [1, 2, 1, 2]
    assert pos.stone(3, 2) == 0 and pos.stone(0, 0) == 0
    assert pos.history() == [3, 3, 4, 2]
    pos.play(0)
    assert pos.side == SECOND and pos.stone(0, 0) == FIRST
    assert str(Connect4("4453")).splitlines() == [". . . . . . ."] * 4 + [
        ". . . O . . .", ". . O X X . .", "1 2 3 4 5 6 7"]


@pytest.mark.parametrize("moves, winner, cells", [
    ("1122334", 1, [(0, 0), (1, 0), (2, 0), (3, 0)]),  # horizontal
    ("1213141", 1, [(0, 0), (0, 1), (0, 2), (0, 3)]),  # vertical
    ("6245674335435414524725", 2, [(1, 1), (2, 2), (3, 3), (4, 4)]),  # rising diagonal
    ("623526732326466115336242143754114", 1, [(0, 1), (1, 2), (2, 3), (3, 4)]),
    ("65174242133577314617667574", 2, [(3, 3), (4, 2), (5, 1), (6, 0)]),  # falling diagonal
])
def test_wins(moves: str, winner: int, cells: list) -> None:
    pos = Connect4(moves)
    assert pos.winner() == winner and pos.result() == winner and pos.is_over()
    assert sorted(pos.winning_cells()) == sorted(cells)
    assert pos.legal_moves() == [] and not any(pos.can_play(c) for c in range(7))
    with pytest.raises(Connect4Error, match="over"):
        pos.play(5)
    assert pos.undo() == int(moves[-1]) - 1
    assert pos.winner() == 0 and pos.result() is None and pos.is_winning_move(int(moves[-1]) - 1)


def test_full_board_is_a_draw() -> None:
    pos = Connect4(DRAW)
    assert pos.is_full() and pos.is_over() and pos.result() == 0 and pos.winner() == 0
    assert pos.legal_moves() == [] and pos.winning_cells() == []
    with pytest.raises(Connect4Error, match="full"):
        pos.play(0)
    board = bb_board(pos)
    assert board.is_full() and board.is_game_over() and not board.has_win()


def test_bad_moves_are_refused_clearly() -> None:
    with pytest.raises(Connect4Error, match=r"move 3 \('8'\): not a column digit"):
        Connect4("448")
    with pytest.raises(Connect4Error, match=r"move 7 \('4'\): column 4 is full"):
        Connect4("4444444")
    with pytest.raises(Connect4Error, match=r"move 8 \('4'\): the game is already over, X has won"):
        Connect4("11223344")
    with pytest.raises(Connect4Error, match="not a column digit"):
        Connect4("0")
    with pytest.raises(Connect4Error, match="string"):
        Connect4([3, 3])  # type: ignore[arg-type]
    pos = Connect4("444444")
    for col in (-1, 7):
        assert not pos.can_play(col) and not pos.is_winning_move(col)
        with pytest.raises(Connect4Error, match="off the board"):
            pos.play(col)
    with pytest.raises(Connect4Error, match="column 4 is full"):
        pos.play(3)
    assert pos.moves_string() == "444444"
    with pytest.raises(Connect4Error, match="no move"):
        Connect4().undo()
    with pytest.raises(Connect4Error, match="off the board"):
        pos.stone(7, 0)
    assert issubclass(Connect4Error, ValueError)


def test_undo_copy_key_and_round_trip() -> None:
    rng = random.Random(5)
    for _ in range(50):
        pos = random_game(rng)
        states = []
        replay = Connect4()
        for col in pos.history():
            states.append((replay.key(), replay.side, replay.move_count, replay.legal_moves()))
            replay.play(col)
        assert Connect4(pos.moves_string()).key() == pos.key()
        assert repr(pos) == f"Connect4({pos.moves_string()!r})"
        assert pickle.loads(pickle.dumps(pos)).moves_string() == pos.moves_string()
        twin = pos.copy()
        while states:
            key, side, count, legal = states.pop()
            pos.undo()
            assert (pos.key(), pos.side, pos.move_count, pos.legal_moves()) == (key, side, count, legal)
        assert pos.key() == 0 and twin.move_count > 0 and twin.key() == replay.key()
    assert Connect4("4455").key() == Connect4("5544").key() != Connect4("4545").key()


def test_bit_helpers() -> None:
    pos = Connect4("4433")
    assert pos.possible() == sum(1 << (7 * c + (2 if c in (2, 3) else 0)) for c in range(7))
    pos = Connect4("443322")  # X to move wins at 1 or 5
    assert pos.is_winning_move(0) and pos.is_winning_move(4) and not pos.is_winning_move(3)
    assert pos.winning_positions() & pos.possible() == (1 << 0) | (1 << 28)
    pos.play(6)  # O must block one of two: every move loses
    assert pos.non_losing_moves() == 0
    pos = Connect4("443322")  # O's three on the second row wait for the cells at 1 and 5
    assert pos.opponent_winning_positions() == (1 << 1) | (1 << 29)
    assert pos.move_score(4) == 2 and pos.move_score(6) == 2 and pos.move_score(3) == 2


def test_random_playout_is_deterministic_and_leaves_the_position() -> None:
    pos = Connect4("4453")
    key = pos.key()
    results = [pos.random_playout(seed) for seed in range(300)]
    assert results == [pos.random_playout(seed) for seed in range(300)]
    assert set(results) <= {0, 1, 2} and {1, 2} <= set(results)
    assert pos.key() == key and pos.moves_string() == "4453"
    assert Connect4("443322").random_playout(1) == FIRST  # takes the win at once
    assert Connect4("1122334").random_playout(9) == FIRST  # already won
    assert Connect4(DRAW).random_playout(3) == 0
    assert Connect4("4433227").random_playout(-12) == FIRST  # O cannot block both: any seed, even negative


# -- the cross-check against bitbully ----------------------------------------------------------------------------


def test_rules_agree_with_bitbully_on_10000_positions() -> None:
    rng = random.Random(2024)
    checked = 0
    outcomes = {0: 0, 1: 0, 2: 0}
    while checked < 10_000:
        pos = Connect4()
        board = bitbully.Board()
        while True:
            assert pos.side == board.current_player()
            assert pos.move_count == board.count_tokens()
            assert pos.is_full() == board.is_full()
            assert pos.is_over() == board.is_game_over()
            assert (pos.winner() != 0) == board.has_win()
            assert pos.winner() == (board.winner() or 0)
            checked += 1
            if pos.is_over():
                break
            assert pos.legal_moves() == sorted(board.legal_moves())
            for col in range(7):
                assert pos.is_winning_move(col) == (board.is_legal_move(col) and board.can_win_next(col))
            col = rng.choice(pos.legal_moves())
            pos.play(col)
            assert board.play(col)
        outcomes[pos.result()] += 1
    assert outcomes[1] and outcomes[2]


def test_interpreted_core_matches_the_compiled_one() -> None:
    """The .py sources run as plain Python give the same rules, keys, playouts and solver scores."""
    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"pentad_interpreted_{name}",
                                                      Path(connect4.__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    slow = load("bitboard")
    compiled_core = sys.modules["pbrain.connect4.bitboard"]
    sys.modules["pbrain.connect4.bitboard"] = slow  # the interpreted solver imports the interpreted core
    try:
        slow_solver_module = load("solver")
    finally:
        sys.modules["pbrain.connect4.bitboard"] = compiled_core
    assert not slow.COMPILED and not slow_solver_module.COMPILED
    rng = random.Random(77)
    for _ in range(40):
        fast = random_game(rng)
        pos = slow.Connect4(fast.moves_string())
        assert (pos.key(), pos.side, pos.result(), pos.winning_cells()) == (fast.key(), fast.side, fast.result(),
                                                                          fast.winning_cells())
        while pos.move_count:
            pos.undo()
            fast.undo()
            assert pos.key() == fast.key() and pos.legal_moves() == fast.legal_moves()
            assert pos.non_losing_moves() == fast.non_losing_moves()
            assert [pos.random_playout(s) for s in range(3)] == [fast.random_playout(s) for s in range(3)]
    slow_solver = slow_solver_module.Solver(1 << 12)
    fast_solver = Solver(1 << 12)
    for pos in random_positions(3, 4, 30, 34):
        assert slow_solver.score_moves(slow.Connect4(pos.moves_string())) == fast_solver.score_moves(pos)
    for pos in random_positions(4, 4, 10, 20):  # the same tree, node for node
        assert slow_solver.search(slow.Connect4(pos.moves_string()), 5) == fast_solver.search(pos, 5)
    assert slow_solver.nodes == fast_solver.nodes


# -- the solver --------------------------------------------------------------------------------------------------


def test_solver_scores_equal_bitbully(agent, solver) -> None:
    positions = random_positions(11, 150, 16, 22) + random_positions(12, 150, 23, 36)
    positions += [Connect4(DRAW[:k]) for k in range(30, 42)]  # up to one empty cell
    for pos in positions:
        expected = agent.score_all_moves(bb_board(pos))
        assert solver.score_moves(pos) == [expected.get(col) for col in range(7)], pos.moves_string()
        best = max(expected.values())
        assert solver.solve(pos) == best
        assert solver.solve(pos, weak=True) == (best > 0) - (best < 0)
        weak = solver.score_moves(pos, weak=True)
        assert weak == [None if s is None else (s > 0) - (s < 0) for s in (expected.get(c) for c in range(7))]
    assert solver.nodes > 0


def test_best_move_reaches_the_score(agent) -> None:
    solver = Solver(1 << 20)
    for pos in random_positions(13, 60, 14, 30):
        expected = agent.score_all_moves(bb_board(pos))
        best = max(expected.values())
        score, col = solver.best_move(pos)
        assert score == best and expected[col] == best, pos.moves_string()
        score, col = solver.best_move(pos, weak=True)
        assert score == (best > 0) - (best < 0) and (expected[col] > 0) - (expected[col] < 0) == score


def test_heuristic_search_to_the_end_is_exact(solver) -> None:
    for pos in random_positions(14, 20, 30, 36):
        exact = solver.solve(pos)
        score, col, depth = solver.search(pos, 42)
        assert 1 <= depth <= 42 - pos.move_count and 0 <= col < 7 and pos.can_play(col)
        if exact == 0:
            assert score == 0
        else:
            assert score == (PROVEN + exact if exact > 0 else -PROVEN + exact)
    score, col, depth = solver.search(Connect4("4453"), 4)
    assert depth == 4 and abs(score) < PROVEN and Connect4("4453").can_play(col)


def test_solver_interrupts_and_refuses_finished_games() -> None:
    solver = Solver(1 << 16)
    stop = threading.Event()
    stop.set()
    pos = Connect4("4453")
    assert solver.solve(pos, stop=stop) is None
    assert solver.solve(pos, deadline=1e-9) is None
    assert solver.score_moves(pos, stop=stop) is None
    assert solver.best_move(pos, stop=stop) is None
    assert solver.search(pos, 10, stop=stop)[2] == 0
    assert solver.solve(Connect4("443322")) == 18  # a win at once: (43 - 6) // 2, no search needed
    for over in ("1122334", DRAW):
        with pytest.raises(Connect4Error, match="over"):
            solver.solve(Connect4(over))
    solver.clear()
    assert solver.tt_bits == 16


# -- the alpha-beta player ---------------------------------------------------------------------------------------


def test_alphabeta_keeps_the_value(agent) -> None:
    for pos in random_positions(15, 25, 12, 22):
        expected = agent.score_all_moves(bb_board(pos))
        before = pos.moves_string()
        answer = alphabeta_move(pos, 0.3)
        assert pos.moves_string() == before
        best = max(expected.values())
        assert (expected[answer.column] > 0) - (expected[answer.column] < 0) == (best > 0) - (best < 0), before
        if answer.exact:
            assert answer.score == expected[answer.column] == best
    assert PLAYERS["alphabeta"] is alphabeta_move


def test_answers_and_texts() -> None:
    answer = alphabeta_move(Connect4("443322"), 0.5)
    assert answer.column in (0, 4) and answer.exact and answer.score == 18 and answer.text == "win in 1"
    assert isinstance(answer, Answer) and answer.nodes == 0
    with pytest.raises(AttributeError):
        answer.column = 3  # type: ignore[misc]
    answer = alphabeta_move(Connect4("444444"), 0.5)
    assert answer.column != 3
    assert score_text(0, 10) == "draw"
    assert score_text(18, 6) == "win in 1"  # X's 4th stone: 22 - 18 = 4 stones at the end, 3 on the board
    assert score_text(-17, 7) == "loss in 1"  # O to move, X's next (5th) stone wins: (43 - 8) // 2 = 17
    assert score_text(-1, 0) == "loss in 21" and score_text(1, 0) == "win in 21"
    with pytest.raises(Connect4Error):
        alphabeta_move(Connect4(DRAW), 0.1)
    stop = threading.Event()
    stop.set()
    answer = alphabeta_move(Connect4("4453"), 10.0, stop)
    assert Connect4("4453").can_play(answer.column)
    assert c4players.solver() is c4players.solver()
    assert sys.modules["pbrain.connect4.solver"] is c4solver
