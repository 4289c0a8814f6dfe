"""Monte Carlo tree search: the generic searcher (on tic-tac-toe, small enough to prove), the gomoku game interface,
the forced-move pre-selection, and MCTS as the Engine's search."""
from __future__ import annotations

import random
import threading
from typing import List, Optional, Sequence, Tuple

import pytest

from pbrain.connect4.bitboard import Connect4
from pbrain.connect4.players import PLAYERS
from pbrain.connect4.policy import Connect4Policy, preselected
from pbrain.core.board import Board
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import Engine, Limits
from pbrain.mcts.gomoku import GomokuGame, GomokuPolicy, forced_points
from pbrain.mcts.tree import MCTS, UNPROVEN, MCTSConfig, value_to_score
from tests.brains import SessionBrain

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """The game interface on a 3x3 board: cells 0..8, X (1) moves first."""

    def __init__(self, moves: Sequence[int] = ()) -> None:
        self.cells = [0] * 9
        self.history: List[int] = []
        for move in moves:
            self.play(move)

    @property
    def side(self) -> int:
        return 1 + len(self.history) % 2

    def legal_moves(self) -> List[int]:
        return [] if self.result() is not None else [c for c in range(9) if self.cells[c] == 0]

    def play(self, move: int) -> None:
        assert self.cells[move] == 0
        self.cells[move] = self.side
        self.history.append(move)

    def undo(self) -> None:
        self.cells[self.history.pop()] = 0

    def result(self) -> Optional[int]:
        for a, b, c in LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return 0 if len(self.history) == 9 else None


class RandomPlayouts:
    """A policy with no priors whose leaf value is one random playout."""

    def moves(self, game: TicTacToe) -> Tuple[List[int], None]:
        return game.legal_moves(), None

    def evaluate(self, game: TicTacToe, seed: int) -> float:
        side = game.side
        played = 0
        while game.result() is None:
            moves = game.legal_moves()
            seed = (seed * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
            game.play(moves[(seed >> 33) % len(moves)])
            played += 1
        outcome = game.result()
        for _ in range(played):
            game.undo()
        return 0.5 if outcome == 0 else (1.0 if outcome == side else 0.0)


def search(game: TicTacToe, **limits: object):
    return MCTS(game, RandomPlayouts()).search(**limits)  # type: ignore[arg-type]


# --- the generic searcher -------------------------------------------------------------------------------------------
def test_takes_an_immediate_win_and_proves_it() -> None:
    game = TicTacToe([0, 3, 1, 4])  # X: 0 1, O: 3 4; X to move wins at 2
    result = search(game, max_iterations=200)
    assert result.move == 2
    assert result.solved == 1 and result.value == 1.0
    assert game.history == [0, 3, 1, 4], "the game is back in its position"


def test_blocks_the_only_defence() -> None:
    game = TicTacToe([0, 3, 8, 4])  # O threatens 5; X has no win: 5 is the only move that does not lose
    result = search(game, max_iterations=3000)
    assert result.move == 5
    losing = [s.move for s in result.stats if s.solved == -1]
    assert set(losing) == {1, 2, 6, 7}


def test_proves_a_draw() -> None:
    game = TicTacToe([0, 4, 8, 1, 7, 6, 2])  # O must block at 5; then the board fills without a line
    result = search(game, max_iterations=5000)
    assert result.solved == 0 and result.move == 5 and result.value == 0.5
    assert result.iterations < 5000, "a proven root ends the search early"


def test_lost_position_is_proven_lost() -> None:
    game = TicTacToe([4, 1, 0])  # O to move: X threatens 8 and O must block, then X wins with a fork? (it is lost)
    result = search(game, max_iterations=20_000)
    assert result.solved == -1
    assert result.move in game.legal_moves()


def test_limits_and_stop() -> None:
    assert search(TicTacToe(), max_iterations=50).iterations == 50
    stop = threading.Event()
    stop.set()
    result = search(TicTacToe(), time_s=30.0, stop=stop)
    assert result.iterations <= 16 and result.move in range(9)
    with pytest.raises(ValueError):
        search(TicTacToe())


def test_exclude_leaves_root_moves_out() -> None:
    result = search(TicTacToe([0, 3, 1, 4]), max_iterations=500, exclude=[2])
    assert result.move != 2 and {s.move for s in result.stats} == {5, 6, 7, 8}
    assert search(TicTacToe([0, 3, 1, 4]), max_iterations=10, exclude=[2, 5, 6, 7, 8]).move == -1


def test_game_over_has_no_move() -> None:
    assert search(TicTacToe([0, 3, 1, 4, 2]), max_iterations=10).move == -1


def test_ucb_and_puct_both_search() -> None:
    class Uniform(RandomPlayouts):
        def moves(self, game: TicTacToe):
            moves = game.legal_moves()
            return moves, [1.0 / len(moves)] * len(moves)

    result = MCTS(TicTacToe([0, 3, 8, 4]), Uniform(), MCTSConfig(exploration=1.0)).search(max_iterations=3000)
    assert result.move == 5


def test_value_to_score() -> None:
    assert value_to_score(0.5, 250) == 0
    assert value_to_score(0.9, 250) > 0 > value_to_score(0.1, 250)
    assert value_to_score(0.9, 250) == -value_to_score(0.1, 250)
    assert value_to_score(1.0, 250) == 2500


# --- gomoku -----------------------------------------------------------------------------------------------------------
def grid_board(rows: Sequence[str], side: int, rule: Rule = Rule.FREESTYLE, size: int = 15) -> Board:
    """A board from text rows (top row first, 'X' black, 'O' white, '.' empty) placed at the top left."""
    board = Board(size, size, int(rule))
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char in "XO":
                board.place(board.index(x, y), BLACK if char == "X" else WHITE)
    board.set_side(side)
    return board


def cells(board: Board, *points: Tuple[int, int]) -> List[int]:
    return sorted(board.index(x, y) for x, y in points)


# Each: rows, side to move, the points the pre-selection must allow, and the name of the case.
FORCED = [
    (["..........", ".XXXX.....", ".OOO......", "..O......."], BLACK, [(0, 1), (5, 1)], "win now"),
    (["..........", "OXXXX.....", ".OO.......", "...O......"], WHITE, [(5, 1)], "block the four"),
    (["..........", "..XXX.....", "..OO......", "...O.O...."], BLACK, [(1, 1), (5, 1)], "make an open four"),
    (["..........", "OXX.X.....", "...X......", "...X......", "..........", "O.O..O..O."], BLACK, [(3, 1)],
     "make a four-three"),
]


@pytest.mark.parametrize("rows,side,allowed,name", FORCED, ids=[case[3] for case in FORCED])
def test_preselection_forces(rows: List[str], side: int, allowed: List[Tuple[int, int]], name: str) -> None:
    board = grid_board(rows, side)
    points = forced_points(board)
    if name == "win now":
        assert len(points) == 1 and points[0] in cells(board, *allowed)
    else:
        assert points == cells(board, *allowed)


def test_preselection_answers_an_open_three() -> None:
    # White has an open three d4-f4 on an open line; black has nothing: only the moves that stop it.
    board = grid_board(["..........", "..........", "..........", "...OOO....", "..........", ".X....X..."],
                       BLACK)
    points = forced_points(board)
    assert points == cells(board, (2, 3), (6, 3))
    for cell in points:  # each leaves white no open four
        board.place(cell, BLACK)
        assert board.count(WHITE, 12) == 0
        board.undo()
    assert board.index(7, 7) not in points


def test_no_force_in_a_quiet_position() -> None:
    board = grid_board(["..........", "...X......", "....O.....", ".........."], BLACK)
    assert forced_points(board) == []
    game = GomokuGame(board)
    moves, priors = GomokuPolicy().moves(game)
    assert len(moves) == len(game.legal_moves()) > 10
    assert abs(sum(priors) - 1.0) < 1e-9 and list(priors) == sorted(priors, reverse=True)


def test_renju_black_never_offered_a_forbidden_point() -> None:
    # Black to move; f6 (5, 5) would be a double three (forbidden in renju).
    rows = ["..........", "..........", "..........", ".....X....", ".....X....", "...XX.....", "..........",
            "..O.O.O..."]
    board = grid_board(rows, BLACK, Rule.RENJU)
    assert board.is_forbidden(board.index(5, 5))
    assert board.index(5, 5) not in GomokuGame(board).legal_moves()


def test_gomoku_game_result() -> None:
    board = grid_board(["XXXX......", "OOOO......"], BLACK)
    game = GomokuGame(board)
    assert game.result() is None and game.side == BLACK
    game.play(board.index(4, 0))
    assert game.result() == BLACK
    game.undo()
    assert game.result() is None and board.move_count == 8


@pytest.mark.parametrize("rows,side,allowed,name", FORCED, ids=[case[3] for case in FORCED])
def test_mcts_engine_plays_the_forced_move(rows: List[str], side: int, allowed: List[Tuple[int, int]],
                                           name: str) -> None:
    board = grid_board(rows, side)
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=32 << 20)
    engine.set_position([(x, y, board.stone(board.index(x, y))) for x in range(15) for y in range(15)
                         if board.stone(board.index(x, y))], side)
    engine.set_search_kind("mcts")
    result = engine.think(Limits(max_nodes=300))
    assert result.move in allowed
    assert result.reason in ("forced", "mcts-proof", "mcts")


def test_engine_search_kind() -> None:
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=32 << 20)
    assert engine.search_kind == "alphabeta"
    with pytest.raises(ValueError):
        engine.set_search_kind("minimax")
    engine.set_search_kind("mcts")
    engine.play(7, 7)
    engine.play(8, 8)
    result = engine.think(Limits(max_nodes=500))
    assert result.reason == "mcts" and result.nodes == 500
    assert result.move is not None and engine.board.stone(engine.board.index(*result.move)) == 0
    assert result.pv[0] == result.move and len(engine.stones()) == 2
    timed = engine.think(Limits(turn_ms=200))
    assert timed.move is not None and timed.nodes > 0
    other = engine.think(Limits(max_nodes=300), exclude=[result.move])
    assert other.move != result.move


def test_mcts_finds_a_win_in_three() -> None:
    # Black to move has an open three with room: the open four wins (pre-selection), and the tree proves it.
    board = grid_board(["..........", "..XXX.....", "..OO......", "...O.O...."], BLACK)
    result = MCTS(GomokuGame(board), GomokuPolicy()).search(max_iterations=2000)
    assert result.solved == 1
    assert result.move in cells(board, (1, 1), (5, 1))
    assert result.solved != UNPROVEN


def test_info_search_selects_mcts_and_rejects_bad_values() -> None:
    with SessionBrain(Engine) as brain:
        brain.line("INFO search mcts")
        brain.line("INFO max_node 400")
        brain.line("START 15")
        assert brain.reply() == "OK"
        brain.line("BOARD")
        for x, y, color in [(7, 7, 1), (0, 0, 2), (8, 7, 1), (0, 2, 2), (9, 7, 1), (0, 4, 2), (10, 7, 1)]:
            brain.line(f"{x},{y},{2 if color == 1 else 1}")  # BOARD colours: 1 own, 2 the opponent's
        brain.line("DONE")
        assert brain.reply() in ("6,7", "11,7"), "white blocks black's four (a pre-selected move)"
        brain.line("INFO search minimax")
        brain.line("ABOUT")
        assert brain.reply().startswith("ERROR INFO search")


# --- Connect Four -------------------------------------------------------------------------------------------------
def test_connect4_preselection() -> None:
    assert preselected(Connect4("445566")) in ([2], [6])  # X wins at once on the bottom row
    assert preselected(Connect4("11223")) == [3]  # O must block X's bottom-row three at column 4
    assert preselected(Connect4("4")) == [3, 2, 4, 1, 5, 0, 6]
    assert preselected(Connect4("1212121")) == []  # the game is over


def test_connect4_preselection_never_hands_over_a_win() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(800):
        pos = Connect4()
        for _ in range(rng.randrange(6, 30)):
            if pos.is_over():
                break
            pos.play(rng.choice(pos.legal_moves()))
        if pos.is_over() or any(pos.is_winning_move(c) for c in pos.legal_moves()):
            continue
        keep = preselected(pos)
        safe = []
        for col in pos.legal_moves():
            pos.play(col)
            if not pos.is_over() and not any(pos.is_winning_move(c) for c in pos.legal_moves()):
                safe.append(col)
            pos.undo()
        assert sorted(keep) == (sorted(safe) if safe else pos.legal_moves()), pos.moves_string()
        checked += 1
    assert checked > 300


def test_connect4_mcts_players_take_and_block_wins() -> None:
    for name in ("mcts", "uct"):
        assert PLAYERS[name](Connect4("445566"), 0.2).column in (2, 6)
        assert PLAYERS[name](Connect4("11223"), 0.2).column == 3
    assert PLAYERS["mcts"](Connect4("4455"), 0.2).text == "win"  # the open two wins: proven


def test_connect4_mcts_proves_and_plain_uct_does_not() -> None:
    pos = Connect4("4455")
    proven = MCTS(pos, Connect4Policy()).search(max_iterations=2000)
    assert proven.solved == 1 and proven.move in (2, 5)
    plain = MCTS(pos, Connect4Policy(plain=True), MCTSConfig(solver=False)).search(max_iterations=2000)
    assert plain.solved == UNPROVEN and plain.iterations == 2000
    assert pos.moves_string() == "4455"


def test_unguided_playout_is_uniform_and_leaves_the_position() -> None:
    pos = Connect4("44")
    results = [pos.random_playout(seed, False) for seed in range(3000)]
    assert pos.moves_string() == "44"
    assert set(results) <= {0, 1, 2} and results.count(1) > 1000 and results.count(2) > 1000
    assert results == [pos.random_playout(seed, False) for seed in range(3000)], "the same seed, the same game"
    assert Connect4("1212121").random_playout(5, False) == 1  # a finished game returns its winner
