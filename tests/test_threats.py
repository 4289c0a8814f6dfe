"""Threat-space search on the tactics suite: VCF wins (short and long) with lines checked by brute force, VCT
wins whose every defence is refuted, and the solver's contract (board unchanged, budgets respected)."""
from __future__ import annotations

import pytest

from pbrain.core.board import Board
from pbrain.core.patterns import Pattern4
from pbrain.core.rules import BLACK, Rule
from pbrain.search.threats import ThreatSolver
from tests.reference import check_vcf_line
from tests.tactics import board_of, defender_loses, grid_of, load

renju_referee = pytest.importorskip("renju.check_forbid")

VCF_POSITIONS = load("tactics.json", "vcf") + load("long_vcf.json")
VCT_POSITIONS = load("tactics.json", "vct")
VCF_NODES = 2_000_000
VCT_NODES = 600_000
"""The deepest win (8 threats) takes 458k nodes: the solver deepens 2, 4, 6, 8 within one budget."""


def forbidden(grid: "list[list[int]]", x: int, y: int) -> bool:
    return renju_referee.get_foul_type(grid, x, y) != 0


@pytest.mark.parametrize("item", VCF_POSITIONS, ids=[p["id"] for p in VCF_POSITIONS])
def test_vcf_found_within_budget_and_line_is_a_real_win(item: dict) -> None:
    board = board_of(item)
    before = board.snapshot()
    solver = ThreatSolver(board)
    assert solver.vcf(80, VCF_NODES), "no VCF found within the node budget"
    assert board.snapshot() == before
    line = [board.xy(c) for c in solver.winning_line()]
    rule = Rule[item["rule"]]
    check_vcf_line(grid_of(item), rule, item["side"], line, forbidden if rule is Rule.RENJU else None)


def test_suite_has_short_and_long_vcfs() -> None:
    lengths = [p.get("min_fours", p.get("fours")) for p in VCF_POSITIONS]
    assert min(lengths) <= 2 and max(lengths) >= 8
    assert {p["rule"] for p in VCF_POSITIONS} >= {"FREESTYLE", "STANDARD", "RENJU"}
    assert {p["size"] for p in VCF_POSITIONS} >= {15, 20}


def test_the_narrow_vcf_finds_most_wins_and_each_line_is_real() -> None:
    """vcf_near (the main search's leaf VCF: a first four with more behind it, then only the two best fours near the
    last one) proves most of the suite's 50 wins in a few dozen nodes; every line it returns is a real win."""
    found = 0
    for item in VCF_POSITIONS:
        board = board_of(item)
        before = board.snapshot()
        solver = ThreatSolver(board)
        if solver.vcf_near(80, VCF_NODES, 2):
            found += 1
            line = [board.xy(c) for c in solver.winning_line()]
            rule = Rule[item["rule"]]
            check_vcf_line(grid_of(item), rule, item["side"], line, forbidden if rule is Rule.RENJU else None)
        assert board.snapshot() == before
    assert len(VCF_POSITIONS) // 2 <= found < len(VCF_POSITIONS)


def test_a_failed_narrow_vcf_leaves_no_refutation_behind() -> None:
    """Where the narrow VCF finds nothing, the full VCF on the same solver still proves the win: a narrow failure is
    no refutation and must not be remembered as one."""
    missed = 0
    for item in VCF_POSITIONS:
        solver = ThreatSolver(board_of(item))
        if not solver.vcf_near(80, VCF_NODES, 2):
            missed += 1
            assert solver.vcf(80, VCF_NODES), item["id"]
    assert missed > 0


def test_the_narrow_vcf_starts_with_more_than_a_plain_four() -> None:
    """The narrow VCF's first four makes more than a plain closed four (class BLOCK4_PLUS or better, PentaZen's VCF
    root): every line it returns starts with one, and where the attacker's only fours are plain ones it gives up
    at its first node, while the full VCF still wins."""
    plain_only = 0
    for item in VCF_POSITIONS:
        board = board_of(item)
        side = board.side
        solver = ThreatSolver(board)
        if solver.vcf_near(80, VCF_NODES, 2):
            assert board.pattern4(solver.winning_line()[0], side) >= Pattern4.BLOCK4_PLUS, item["id"]
        fours = [c for c in board.candidates() if Pattern4.BLOCK4 <= board.pattern4(c, side) <= Pattern4.FLEX4]
        if fours and all(board.pattern4(c, side) == Pattern4.BLOCK4 for c in fours):
            plain_only += 1
            solver.clear()
            assert not solver.vcf_near(80, VCF_NODES, 2) and solver.nodes == 1, item["id"]
            assert solver.vcf(80, VCF_NODES), item["id"]
    assert plain_only > 0


def test_the_narrow_vcf_keeps_its_node_budget() -> None:
    """A win the narrow VCF proves in N nodes is not found with a budget of N // 4, nor searched past it by more
    than the root's own fours."""
    item = next(p for p in VCF_POSITIONS if p["id"] == "standard15-vcf-26")
    solver = ThreatSolver(board_of(item))
    assert solver.vcf_near(80, VCF_NODES, 2)
    needed = solver.nodes
    assert not solver.vcf_near(80, needed // 4, 2)
    assert solver.nodes < needed


def test_the_narrow_vcf_remembers_its_answer_for_the_same_limits() -> None:
    """Met again with the same limits, a position gets the narrow VCF's answer back without a search (the win's
    length with it); other limits search again, and the full VCF is not answered from that memory."""
    wins = misses = 0
    for item in VCF_POSITIONS:
        board = board_of(item)
        solver = ThreatSolver(board)
        found = solver.vcf_near(80, VCF_NODES, 2)
        plies, nodes = solver.win_plies, solver.nodes
        assert nodes > 0
        assert solver.vcf_near(80, VCF_NODES, 2) == found
        assert solver.nodes == 0
        if found:
            wins += 1
            assert solver.win_plies == plies
        else:
            misses += 1
            assert solver.vcf(80, VCF_NODES) and solver.nodes > 0  # the full VCF still searches, and wins
        assert solver.vcf_near(80, VCF_NODES, 3) or not found
        assert solver.nodes > 0
    assert wins > 0 and misses > 0


def test_the_narrow_vcf_forgets_its_answers_with_the_solver() -> None:
    item = next(p for p in VCF_POSITIONS if p["id"] == "standard15-vcf-26")
    solver = ThreatSolver(board_of(item))
    assert solver.vcf_near(80, VCF_NODES, 2)
    solver.clear()
    assert solver.vcf_near(80, VCF_NODES, 2)
    assert solver.nodes > 0


@pytest.mark.parametrize("item", [p for p in VCF_POSITIONS if p.get("fours", p.get("min_fours", 0)) >= 3][:6],
                         ids=lambda p: p["id"])
def test_vcf_respects_the_depth_limit(item: dict) -> None:
    """The shortest win has `fours` attacking moves: one fewer allowed cannot succeed."""
    board = board_of(item)
    solver = ThreatSolver(board)
    fours = item.get("min_fours", item.get("fours"))
    assert not solver.vcf(fours - 1, VCF_NODES)
    assert solver.vcf(fours, VCF_NODES)


@pytest.mark.parametrize("item", VCT_POSITIONS, ids=[p["id"] for p in VCT_POSITIONS])
def test_vct_found_and_every_defence_refuted(item: dict) -> None:
    board = board_of(item)
    before = board.snapshot()
    solver = ThreatSolver(board)
    assert solver.vct(8, VCT_NODES)
    assert board.snapshot() == before
    first = solver.winning_line()[0]
    assert board.pattern4(first, item["side"]) < 9, "a VCT position's first move is not a four"
    board.place(first)
    checker = ThreatSolver(board)  # a solver of its own: the root search's proven positions are not evidence
    assert defender_loses(board, item["side"], lambda b: checker.vcf(40, VCF_NODES) or checker.vct(8, VCT_NODES)), \
        f"{board.xy(first)} can be refuted"


@pytest.mark.parametrize("item", VCT_POSITIONS[:4], ids=[p["id"] for p in VCT_POSITIONS[:4]])
def test_a_proven_vct_is_remembered(item: dict) -> None:
    board = board_of(item)
    solver = ThreatSolver(board)
    assert solver.vct(8, VCT_NODES)
    first, nodes = solver.winning_line()[0], solver.nodes
    assert solver.vct(8, VCT_NODES) and solver.winning_line()[0] == first
    assert solver.nodes < max(10, nodes // 10), "the second proof reads the first one's proven positions"
    solver.clear()
    assert solver.vct(8, VCT_NODES) and solver.nodes == nodes, "clear() forgets them"


def test_vct_positions_are_not_vcf() -> None:
    for item in VCT_POSITIONS:
        board = board_of(item)
        assert not ThreatSolver(board).vcf(60, 200_000), item["id"]


def test_vcf_on_an_empty_board_and_node_budget() -> None:
    board = Board(15, 15, 0)
    solver = ThreatSolver(board)
    assert not solver.vcf(20, 1000)
    board.play(7, 7)
    assert not solver.vcf(20, 1000)
    assert solver.nodes <= 1001


def test_white_wins_through_a_forbidden_block() -> None:
    """Renju: white makes a four whose only block is a black double-four point: black cannot block."""
    rows = [
        "...............",
        "...............",
        "...............",
        "....X..........",
        "....X..........",
        "....X..........",
        "...............",
        ".XXX.OOO.X.....",
        "...............",
        "..O............",
    ]
    board = Board(15, 15, int(Rule.RENJU))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "XO":
                board.place(board.index(x, y), BLACK if ch == "X" else 2)
    board.set_side(2)
    # (4,7) is black's double four (row 7 and column 4): forbidden. White's four at (8,7) can only be blocked there.
    assert board.is_forbidden(board.index(4, 7))
    solver = ThreatSolver(board)
    assert solver.vcf(1, 10_000), "one four wins: black may not block it"
    line = [board.xy(c) for c in solver.winning_line()]
    grid = [[0] * 15 for _ in range(15)]
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "XO":
                grid[x][y] = BLACK if ch == "X" else 2
    check_vcf_line(grid, Rule.RENJU, 2, line, forbidden)
