"""The proof-number VCT: it proves the suite's wins and the deep wins the horizon VCT misses, every defence of its
first move loses (checked by solvers of their own), it keeps its table between calls, and it stops when told."""
from __future__ import annotations

import threading
import time

import pytest

from pbrain.core.board import Board
from pbrain.core.rules import BLACK, Rule
from pbrain.engine import Engine
from pbrain.search.dfpn import ProofSolver
from pbrain.search.threats import ThreatSolver
from tests.tactics import board_of, defender_loses, load

VCT_POSITIONS = load("tactics.json", "vct")
PROOF_NODES = 1_000_000

DEEP_WINS = [
    # Positions where Pentad (white, to move) had announced a forced win and then lost it; Rapfi: +M21 and +M13.
    # The horizon VCT needs 8 threats and 1.8 M nodes for the first. It did not prove the second within 12 threats
    # with the hand-set move ordering; with the fitted one (order_weights.py) it proves it with 8, within 1 M nodes.
    "5,6 9,7 9,6 8,8 7,9 8,6 8,7 10,8 11,9 10,5 7,8 7,5 6,4",
    "9,7 5,6 5,9 4,7 8,8 4,6 7,9 6,10 8,9 4,9 10,6 11,5 4,8 3,8 6,5 5,10 6,9 9,9 2,7",
]


def board_of_moves(text: str) -> Board:
    engine = Engine(15)
    for move in text.split():
        engine.play(*map(int, move.split(",")))
    return engine.board


def solver_on(board: Board) -> ProofSolver:
    """A proof-number solver of its own on `board`."""
    return ProofSolver(ThreatSolver(board))


def proven_by_fresh_solver(board: Board) -> bool:
    """Does the side to move win, by a VCF or a proof of a new solver (nothing shared with the one checked)?"""
    threats = ThreatSolver(board)
    return threats.vcf(40, 200_000) or ProofSolver(threats).prove(PROOF_NODES)


@pytest.mark.parametrize("item", VCT_POSITIONS, ids=[p["id"] for p in VCT_POSITIONS])
def test_suite_wins_are_proven_and_every_defence_loses(item: dict) -> None:
    board = board_of(item)
    before = board.snapshot()
    solver = solver_on(board)
    assert solver.prove(PROOF_NODES)
    assert board.snapshot() == before
    first = solver.winning_line()[0]
    board.place(first)
    assert defender_loses(board, item["side"], proven_by_fresh_solver), f"{board.xy(first)} can be refuted"


@pytest.mark.parametrize("moves", DEEP_WINS, ids=["plus-m21", "plus-m13"])
def test_deep_wins_beyond_the_horizon_vct_are_proven(moves: str) -> None:
    board = board_of_moves(moves)
    if moves == DEEP_WINS[0]:
        assert not ThreatSolver(board).vct(8, PROOF_NODES), "the horizon VCT does not prove it within the same budget"
    solver = solver_on(board)
    assert solver.prove(PROOF_NODES)
    line = solver.winning_line()
    assert len(line) >= 9, "a deep win: at least five threats"
    # The line is a game as far as the table still holds the proof: attacker's moves and answers on empty cells.
    for cell in line:
        assert board.stone(cell) == 0
        board.place(cell)
        assert not board.last_move_wins() or cell == line[-1]


@pytest.mark.parametrize("moves", DEEP_WINS, ids=["plus-m21", "plus-m13"])
def test_deep_win_first_move_every_defence_loses(moves: str) -> None:
    board = board_of_moves(moves)
    solver = solver_on(board)
    assert solver.prove(PROOF_NODES)
    attacker = board.side
    board.place(solver.winning_line()[0])
    assert defender_loses(board, attacker, proven_by_fresh_solver)


PENTAZEN_WIN = ("9,9 6,5 6,7 5,6 4,7 7,6 5,4 5,7 6,6 10,9 4,5 6,8 3,6 2,7 4,6 4,4 5,8 2,5 4,9 4,8 3,9 5,9 3,10 2,11 "
                "3,7 3,8 2,8 1,9 4,10 5,11 4,11 7,10")
"""PentaZen (black, to move) announced a win in 0.3 s here against Pentad (2026-11-24). With the same first guess for
every open three (and for every four) the proof took 892 k nodes; guessed by what each threat makes, 35 k."""


def test_threats_that_make_more_are_tried_first() -> None:
    board = board_of_moves(PENTAZEN_WIN)
    solver = solver_on(board)
    assert solver.prove(100_000)
    attacker = board.side
    board.place(solver.winning_line()[0])
    assert defender_loses(board, attacker, proven_by_fresh_solver)


def test_the_table_is_kept_between_calls_and_clear_forgets_it() -> None:
    board = board_of_moves(DEEP_WINS[1])
    threats = ThreatSolver(board)
    solver = ProofSolver(threats)
    assert solver.prove(PROOF_NODES)
    first, nodes = solver.winning_line()[0], solver.nodes
    assert solver.prove(PROOF_NODES) and solver.winning_line()[0] == first
    assert solver.nodes < max(10, nodes // 10), "the second call reads the first one's proof"
    # After the first move and a defence from the proof, the rest of the proof is still in the table.
    line = solver.winning_line()
    board.place(line[0])
    board.place(line[1])
    assert solver.prove(PROOF_NODES) and solver.nodes < max(10, nodes // 10)
    board.undo()
    board.undo()
    solver.clear()
    assert solver.prove(PROOF_NODES) and solver.nodes == nodes, "clear() forgets them"


def test_no_win_in_a_quiet_position_nor_against_a_counter_attack() -> None:
    board = Board(15, 15, int(Rule.FREESTYLE))
    for x, y in [(7, 7), (7, 8), (8, 8), (6, 6)]:
        board.place(board.index(x, y))
    solver = solver_on(board)
    assert not solver.prove(PROOF_NODES)
    assert solver.disproved, "the search ran out of moves, not of budget"
    # Black can make open threes, but white has an open three already: whatever black threatens, white's open
    # four comes first.
    board = Board(15, 15, int(Rule.FREESTYLE))
    for x, y, c in [(2, 2, 1), (3, 2, 1), (2, 10, 1), (3, 11, 1), (10, 10, 2), (11, 10, 2), (12, 10, 2)]:
        board.place(board.index(x, y), c)
    board.set_side(1)
    assert not solver_on(board).prove(PROOF_NODES)
    board.set_side(2)
    solver = solver_on(board)
    assert solver.prove(PROOF_NODES), "white to move wins"
    assert not solver.disproved


def test_a_search_cut_by_its_budget_is_not_a_disproof() -> None:
    board = board_of_moves(DEEP_WINS[0])
    solver = solver_on(board)
    assert not solver.prove(50)
    assert not solver.disproved, "50 nodes decide nothing here"
    assert solver.prove(PROOF_NODES) and not solver.disproved


def test_a_stop_ends_the_search_within_a_check() -> None:
    board = board_of_moves(DEEP_WINS[0])
    solver = solver_on(board)
    stop = threading.Event()
    stop.set()
    solver.stop = stop
    assert not solver.prove(1 << 40)
    assert solver.nodes <= 1024 + 64
    solver.stop = None
    assert not solver.prove(1 << 40, time.perf_counter())
    assert solver.nodes <= 1024 + 64, "a deadline already past ends it at the first check"


def test_renju_black_never_plays_a_forbidden_point_in_a_proof() -> None:
    for item in [p for p in VCT_POSITIONS if p["rule"] == "RENJU"]:
        board = board_of(item)
        solver = solver_on(board)
        assert solver.prove(PROOF_NODES)
        line = solver.winning_line()
        for i, cell in enumerate(line):
            if board.side == BLACK:
                assert not board.is_forbidden(cell), f"move {i} of the line is forbidden to black"
            board.place(cell)
        for _ in line:
            board.undo()
