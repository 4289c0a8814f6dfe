"""Main search through the engine facade: forced answers, must-defend positions, renju legality, limits."""
from __future__ import annotations

import threading
import time

import pytest

from pbrain import params
from pbrain.core.board import Board
from pbrain.core.rules import BLACK, WHITE, Rule
from pbrain.engine import Engine, Limits
from pbrain.search.dfpn import ProofSolver
from pbrain.search.movegen import MoveGen
from pbrain.search.threats import ThreatSolver
from tests.reference import check_vcf_line
from tests.tactics import board_of, engine_of, grid_of, load

DEFEND = load("tactics.json", "defend")
TRAPS = load("tactics.json", "renju_trap")
VCT = load("tactics.json", "vct")
THINK_NODES = 60_000


def engine_with(moves: "list[tuple[int, int]]", rule: Rule = Rule.FREESTYLE, size: int = 15) -> Engine:
    engine = Engine(size, size, rule, memory_bytes=64 << 20)
    for move in moves:
        engine.play(*move)
    return engine


def test_takes_a_five() -> None:
    engine = engine_with([(3, 3), (3, 4), (4, 3), (4, 4), (5, 3), (5, 4), (6, 3), (9, 9)])
    result = engine.think(Limits(max_nodes=1000))
    assert result.move in [(2, 3), (7, 3)] and result.reason == "win"
    assert result.score == params.WIN - 1


def test_blocks_a_four() -> None:
    engine = engine_with([(3, 3), (3, 4), (4, 3), (4, 4), (5, 3), (5, 4), (6, 3)])
    result = engine.think(Limits(max_nodes=1000))
    assert result.move in [(2, 3), (7, 3)]


def test_plays_an_open_four_for_the_win() -> None:
    engine = engine_with([(5, 7), (5, 9), (6, 7), (6, 9), (7, 7), (12, 12)])
    result = engine.think(Limits(max_nodes=5000))
    assert result.move in [(4, 7), (8, 7)]
    assert result.score >= params.WIN_THRESHOLD


def test_defends_an_open_three() -> None:
    engine = engine_with([(7, 7), (5, 5), (8, 7), (12, 12), (9, 7)])
    result = engine.think(Limits(max_nodes=20_000))
    assert result.move in [(6, 7), (10, 7), (5, 7), (11, 7)]


@pytest.mark.parametrize("item", DEFEND, ids=[p["id"] for p in DEFEND])
def test_must_defend(item: dict) -> None:
    """Only the listed defences stop the opponent's VCF; the engine must find one. Every listed losing move is
    checked: the opponent's winning line after it is verified by brute force."""
    engine = engine_of(item)
    result = engine.think(Limits(max_nodes=THINK_NODES))
    assert list(result.move) in [list(d) for d in item["defences"]], f"{result.move} loses"
    board = board_of(item)
    rule = Rule[item["rule"]]
    solver = ThreatSolver(board)
    grid = grid_of(item)
    for x, y in item["losing"][:8]:
        board.place(board.index(x, y))
        assert solver.vcf(40, 2_000_000), f"({x},{y}) was listed as losing"
        grid[x][y] = item["side"]
        check_vcf_line(grid, rule, 3 - item["side"], [board.xy(c) for c in solver.winning_line()])
        grid[x][y] = 0
        board.undo()


@pytest.mark.parametrize("item", DEFEND, ids=[p["id"] for p in DEFEND])
def test_must_defend_with_the_four_three_defence(item: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """With params.FOUR_THREE_DEFENCE on (a node facing a four-three point searches only what takes it away and its
    own fours), the engine still finds a listed defence."""
    monkeypatch.setattr(params, "FOUR_THREE_DEFENCE", 1)
    engine = engine_of(item)
    assert engine.searcher.four_three_defence == 1
    result = engine.think(Limits(max_nodes=THINK_NODES))
    assert list(result.move) in [list(d) for d in item["defences"]], f"{result.move} loses"


def test_the_defence_filter_keeps_a_floor_at_small_node_limits() -> None:
    # The filter's probes of every root move cost about the same whatever the think's size, so its mark is never
    # earlier than params.ROOT_DEFENCE_FLOOR_NODES from the start (unless that is past half the think). At 30,000
    # nodes its share alone leaves it a few thousand nodes, too few to find this position's one VCF defence.
    item = next(p for p in DEFEND if p["id"] == "freestyle20-defend-5")
    nodes = 30_000
    floor = params.ROOT_DEFENCE_FLOOR_NODES
    assert params.ROOT_DEFENCE_SHARE * nodes < floor <= params.ROOT_DEFENCE_FLOOR_SHARE * nodes
    result = engine_of(item).think(Limits(max_nodes=nodes))
    assert list(result.move) in [list(d) for d in item["defences"]], f"{result.move} loses"


ONE_SURVIVOR = ["renju15-defend-10", "freestyle20-defend-15", "standard15-defend-18", "standard15-defend-20"]
"""Defence positions whose defence filter leaves one root move (the opponent's VCT is proven after every other)."""


@pytest.mark.parametrize("item", [p for p in DEFEND if p["id"] in ONE_SURVIVOR], ids=ONE_SURVIVOR)
def test_a_timed_think_keeps_its_one_defence(item: dict) -> None:
    # A timed think with one root move left ponders after it; the root must still be that move afterwards, for the
    # final probe round that follows under a threat (it used to search every legal move again, and to answer with
    # the other listed defence or worse).
    engine = engine_of(item)
    result = engine.think(Limits(turn_ms=300))
    assert list(result.move) in [list(d) for d in item["defences"]], f"{result.move} loses"
    assert engine._searcher.root_count == 1
    # the answer carries the ponder's line after the move: deeper than the one iteration that left it alone
    assert result.depth >= 2 and result.pv[0] == result.move


def test_a_forced_block_reports_the_line_its_ponder_searched() -> None:
    # Black's four (7,7)-(7,10) is blocked at (7,6): white's only move is (7,11). The rest of the turn searches the
    # position after it; the answer is that search's line (it was reported as depth 0, eval 0).
    engine = engine_with([(7, 7), (7, 6), (7, 8), (3, 3), (7, 9), (4, 9), (7, 10)])
    result = engine.think(Limits(turn_ms=300))
    assert result.move == (7, 11) and result.reason == "defend"
    assert result.depth >= 2 and len(result.pv) >= 2 and result.pv[0] == (7, 11)


def test_a_forced_block_that_still_loses_reports_the_mate() -> None:
    # White must block black's four at (7,11); black's open three (3..5,11) then makes an open four: a loss in four
    # plies from white's side (the block, the open four, any answer, the five).
    black = [(7, 7), (7, 8), (7, 9), (7, 10), (3, 11), (4, 11), (5, 11)]
    white = [(7, 6), (0, 0), (14, 14), (0, 14), (14, 0), (13, 0)]
    engine = engine_with([move for pair in zip(black, white + [None]) for move in pair if move is not None])
    result = engine.think(Limits(turn_ms=300))
    assert result.move == (7, 11) and result.reason == "defend"
    assert result.score == -(params.WIN - 4) and result.depth == 2


@pytest.mark.parametrize("item", VCT, ids=[p["id"] for p in VCT])
def test_engine_finds_vct_wins(item: dict) -> None:
    result = engine_of(item).think(Limits(max_nodes=3_000_000))
    assert result.score >= params.WIN_THRESHOLD, "the engine does not see the forced win"


@pytest.mark.parametrize("item", TRAPS, ids=[p["id"] for p in TRAPS])
def test_renju_black_never_plays_a_forbidden_point(item: dict) -> None:
    engine = engine_of(item)
    for nodes in (0, 2000, THINK_NODES):
        limits = Limits(turn_ms=0) if nodes == 0 else Limits(max_nodes=nodes)
        move = engine.think(limits).move
        assert list(move) not in [list(f) for f in item["forbidden"]]
        assert not engine.is_forbidden(*move)


def test_renju_black_cannot_block_with_a_forbidden_point() -> None:
    """White's four can only be blocked at black's forbidden point: black has lost; any legal move is fine."""
    engine = Engine(15, 15, Rule.RENJU)
    stones = [(4, 3, BLACK), (4, 4, BLACK), (4, 5, BLACK), (1, 7, BLACK), (2, 7, BLACK), (3, 7, BLACK),
              (9, 7, BLACK), (5, 7, WHITE), (6, 7, WHITE), (7, 7, WHITE), (8, 7, WHITE), (2, 9, WHITE),
              (10, 10, WHITE), (11, 11, WHITE)]
    engine.set_position(stones, BLACK)
    assert engine.is_forbidden(4, 7)
    result = engine.think(Limits(max_nodes=5000))
    assert result.move != (4, 7) and not engine.is_forbidden(*result.move)
    assert result.score <= -params.WIN_THRESHOLD


def test_static_answer_when_turn_time_is_zero() -> None:
    engine = engine_with([(7, 7), (8, 8), (7, 8)])
    result = engine.think(Limits(turn_ms=0))
    assert result.reason == "static" and result.depth == 0 and result.move is not None


def test_node_limit_and_depth_limit() -> None:
    engine = engine_with([(7, 7), (8, 8), (7, 8)])
    result = engine.think(Limits(max_nodes=3000))
    assert result.nodes <= 3000 + 1200  # the limit is polled every 1024 nodes
    result = engine.think(Limits(max_depth=3))
    assert result.depth == 3


def test_stop_flag_ends_the_search_quickly() -> None:
    engine = engine_with([(7, 7), (8, 8), (7, 8), (6, 6)])
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    started = time.perf_counter()
    result = engine.think(Limits(turn_ms=60_000), stop=stop)
    assert time.perf_counter() - started < 2.0
    assert result.move is not None and result.depth >= 1


def test_info_callback_reports_each_iteration() -> None:
    engine = engine_with([(7, 7), (8, 8), (7, 8)])
    seen = []
    engine.think(Limits(max_depth=4), on_info=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4]
    assert all(i.pv and i.nodes > 0 for i in seen)


def test_think_leaves_the_position_unchanged() -> None:
    engine = engine_with([(7, 7), (8, 8), (7, 8), (6, 6)], Rule.RENJU)
    before = engine.board.snapshot()
    engine.think(Limits(max_nodes=20_000))
    assert engine.board.snapshot() == before


def test_full_board_and_tiny_boards() -> None:
    engine = Engine(5, 5, Rule.STANDARD)
    for i in range(25):
        result = engine.think(Limits(max_nodes=500))
        if result.move is None:
            break
        engine.play(*result.move)
        if engine.last_move_wins():
            break
    else:
        assert engine.board.is_full()
        assert engine.think(Limits(max_nodes=10)).move is None


FORBIDDEN_FOURS_BLACK = [(8, 7), (10, 7), (11, 7), (9, 8), (9, 9), (8, 6), (7, 5),
                         (3, 11), (5, 11), (6, 11), (4, 12), (4, 13), (3, 10), (2, 9)]
FORBIDDEN_FOURS_WHITE = [(8, 9), (3, 13), (11, 10), (8, 5), (7, 6), (5, 13), (3, 9), (12, 6), (11, 6), (2, 10),
                         (12, 8), (10, 10), (10, 5)]


def test_renju_a_forbidden_open_four_point_is_no_threat() -> None:
    """Black's only open-four points, (9,7) and (4,11), are four-three-threes: forbidden. White, to move, is not
    lost for failing to stop both with one stone (it was, when every black FLEX4 cell counted as a threat)."""
    engine = Engine(15, 15, Rule.RENJU, memory_bytes=64 << 20)
    engine.set_position([(x, y, BLACK) for x, y in FORBIDDEN_FOURS_BLACK] +
                        [(x, y, WHITE) for x, y in FORBIDDEN_FOURS_WHITE], WHITE)
    board = engine.board
    open_fours = [board.xy(c) for c in board.candidates() if board.pattern4(c, BLACK) == 12]
    assert sorted(open_fours) == [(4, 11), (9, 7)] and all(engine.is_forbidden(*p) for p in open_fours)
    result = engine.think(Limits(max_depth=4))
    assert abs(result.score) < params.WIN_THRESHOLD


def test_renju_no_defence_is_generated_against_a_forbidden_open_four_point() -> None:
    """Black's open three (8,7) _ (10,7) (11,7) can only become an open four at (9,7), a four-three-three: white
    is not asked to defend against it (before, the three blocks of that point were white's only moves)."""
    engine = Engine(15, 15, Rule.RENJU, memory_bytes=64 << 20)
    engine.set_position([(x, y, BLACK) for x, y in FORBIDDEN_FOURS_BLACK[:7]], WHITE)
    board = engine.board
    assert board.pattern4(board.index(9, 7), BLACK) == 12 and engine.is_forbidden(9, 7)
    gen = MoveGen(board, 2)
    assert not gen.has_flex4(BLACK) and gen.has_flex4(WHITE) is False
    assert gen.gen_defences(0, WHITE) == 0


def test_a_rule_change_forgets_what_the_search_learnt() -> None:
    """The hash keys do not include the rule: after INFO rule, a search must be the one a fresh engine makes."""
    moves = [(7, 7), (8, 8), (7, 8), (6, 6), (7, 9), (7, 6)]
    engine = engine_with(moves)
    engine.think(Limits(max_depth=5))
    engine.set_rule(Rule.STANDARD)
    after_change = engine.think(Limits(max_depth=5))
    fresh = engine_with(moves, Rule.STANDARD).think(Limits(max_depth=5))
    assert (after_change.nodes, after_change.move, after_change.score) == (fresh.nodes, fresh.move, fresh.score)


def test_a_new_game_plays_as_in_a_fresh_process() -> None:
    """START / RESTART forget what earlier games' searches learnt: the same position searched again after a new game
    is the search a fresh engine makes (with the table kept it would be answered from the first game's entries)."""
    moves = [(7, 7), (8, 8), (7, 8), (6, 6), (7, 9), (7, 6)]
    engine = engine_with(moves)
    engine.think(Limits(max_depth=6))
    engine.new_game(15, 15)
    for move in moves:
        engine.play(*move)
    again = engine.think(Limits(max_depth=6))
    fresh = engine_with(moves).think(Limits(max_depth=6))
    assert (again.nodes, again.move, again.score) == (fresh.nodes, fresh.move, fresh.score)


TWO_DOUBLE_THREES_WHITE = [(2, 4), (3, 4), (4, 2), (4, 3), (8, 10), (9, 10), (10, 8), (10, 9)]
"""Two open twos crossing at (4,4) and two more at (10,10): white makes a double open three at either."""
LONE_BLACK = [(0, 0), (0, 7), (0, 14), (7, 0), (14, 0), (14, 7), (14, 14), (7, 14)]


def test_a_double_three_the_opponent_cannot_answer_with_a_four_is_a_win_at_the_horizon() -> None:
    """Black to move cannot stop both of white's double-three points and has no four to make: every black move
    loses. A one-ply search must see it (the side to move with a double three or a four-three, against no four,
    wins); it used to score the position by the evaluation (about -1700)."""
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=64 << 20)
    engine.set_position([(x, y, BLACK) for x, y in LONE_BLACK] +
                        [(x, y, WHITE) for x, y in TWO_DOUBLE_THREES_WHITE], BLACK)
    assert engine.think(Limits(max_depth=1)).score <= -params.WIN_THRESHOLD


def test_a_double_three_is_no_win_while_the_opponent_has_a_four_to_make() -> None:
    """The same, but black has three in a row against the edge, so a four to make, which could come first. Its
    two four points left out, black's other moves are not lost to the double threes in a one-ply search (they
    are, once that four is spent)."""
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=64 << 20)
    black = LONE_BLACK[:5] + [(14, 12), (14, 13), (14, 14)]
    engine.set_position([(x, y, BLACK) for x, y in black] +
                        [(x, y, WHITE) for x, y in TWO_DOUBLE_THREES_WHITE], BLACK)
    board = engine.board
    assert sorted(board.xy(c) for c in board.candidates() if board.pattern4(c, BLACK) >= 9) == [(14, 10), (14, 11)]
    result = engine.think(Limits(max_depth=1), exclude=[(14, 10), (14, 11)])
    assert result.move is not None and abs(result.score) < params.WIN_THRESHOLD


LOST_UNDER_THREAT = ("5,6 9,7 9,6 10,7 8,7 10,5 8,6 10,6 10,4 8,9 9,5 7,7 8,8 9,8 11,6 10,9 10,8 9,10 9,9 7,10 "
                     "6,11 8,11 11,8 8,10 11,3 12,2 8,4 8,5")
"""PentaZen game of 2026-11-24, Pentad (black) to move and lost: the search reports -M14 or so at depth 7-10. With
the loss seen under the opponent's threat it used to answer after 160-824 ms of a 1000 ms turn (its last iteration
predicted to end past the threat phase's deadline, then no deepening after it); it now searches to the hard
deadline, about 960 ms."""


def test_a_loss_seen_under_a_threat_is_searched_on_for_the_turn() -> None:
    # A mate score from a search with reductions and pruning is no proof: the turn goes on finding the defence
    # or the longest resistance (lower bound only; the deadline itself is the protocol tests' business).
    engine = engine_with([tuple(map(int, move.split(","))) for move in LOST_UNDER_THREAT.split()])
    result = engine.think(Limits(turn_ms=1000))
    assert result.score <= -params.WIN_THRESHOLD, "data: the search sees the loss"
    assert result.time_ms >= 880


OWN_VCT_UNDECIDED = ("8,9 5,6 4,8 3,6 5,7 4,5 6,7 3,8 6,6 3,9 3,7 2,7 4,7 7,7 1,8 4,9 1,6 5,9 6,9 6,8 4,10 7,5 "
                     "1,9 1,5 5,4 3,5 5,5 3,3 2,5")
"""A position of a game against PentaZen (a move-loss screen position), white to move: white's own VCT is neither
proven nor disproven in 1,000,000 proof-number nodes, while black, were it to move, wins by a VCT proven in under
2,000."""


def test_an_own_vct_that_runs_past_the_threat_mark_leaves_the_opponents_vct_a_quick_look() -> None:
    # The look at the opponent's VCT ends before the own VCT's mark (params.ROOT_THREAT_SHARE): when the own attack
    # is neither proven nor refuted by then, the main search has the turn instead of the defence filter and the
    # probes (the main search's turn measured as worth more than a slice of the turn for that look). The opponent's
    # VCF is still looked for.
    moves = [tuple(map(int, move.split(","))) for move in OWN_VCT_UNDECIDED.split()]
    board = Board(15, 15, int(Rule.FREESTYLE))
    for x, y in moves:
        board.play(x, y)
    assert not ProofSolver(ThreatSolver(board)).prove(100_000), "data: the own VCT is not proven quickly"
    board.set_side(3 - board.side)
    assert ProofSolver(ThreatSolver(board)).prove(20_000), "data: the opponent wins by VCT were it to move"
    assert not ThreatSolver(board).vcf(40, 200_000), "data: but not by VCF"
    assert params.ROOT_THREAT_SHARE < params.ROOT_VCT_SHARE
    engine = engine_with(moves)
    engine.think(Limits(turn_ms=1000))
    assert not engine._searcher.threatened
