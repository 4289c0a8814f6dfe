"""benchmarks/move_loss.py: positions from games, a build's moves, and the analyst's paired verdict."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "move_loss.py"
SPEC = importlib.util.spec_from_file_location("move_loss", SCRIPT)
move_loss = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(move_loss)  # type: ignore[union-attr]

RECORD = {"rule": "freestyle", "size": 15, "opening": [[7, 7], [8, 8], [6, 8]],
          "moves": [[7, 7], [8, 8], [6, 8], [9, 9], [5, 9], [10, 10], [4, 10], [3, 11], [0, 0], [11, 11], [1, 1],
                    [12, 12]]}
"""Black's open four 7,7 6,8 5,9 4,10 (after 7 stones), blocked at 3,11, still has its five at 8,6, which black
leaves (0,0 and 1,1) until white's 8,8 .. 12,12 is five."""


class ScriptedAnalyst:
    """Scores from a table keyed by the last stone; records what it was asked and whether it was closed."""

    def __init__(self, scores: dict, log: list) -> None:
        self.scores = scores
        self.log = log

    def evaluate(self, size: int, rule: str, moves: list) -> object:
        self.log.append(tuple(moves[-1]))
        return self.scores.get(tuple(moves[-1]))

    def close(self) -> None:
        self.log.append("closed")


def test_win_probabilities_of_scores_and_mates() -> None:
    assert move_loss.win_probability("0", 300) == pytest.approx(0.5)
    assert move_loss.win_probability("300", 300) == pytest.approx(0.7311, abs=1e-4)
    assert move_loss.win_probability("+M9", 300) == 1.0
    assert move_loss.win_probability("-M4", 300) == 0.0
    assert move_loss.win_probability(None, 300) is None


def test_positions_skip_the_opening_the_end_and_the_won_ones() -> None:
    found = move_loss.sample_positions(RECORD, 0, 40, game=3)
    # after the 3 opening stones, up to 2 before the end; not after 8 or 10 stones: black to move has its five
    assert [len(p["moves"]) for p in found] == [3, 4, 5, 6, 7, 9]
    assert [len(p["moves"]) for p in move_loss.sample_positions(RECORD, 5, 7, game=3)] == [5, 6, 7]
    assert all(p["game"] == 3 and p["moves"] == RECORD["moves"][:len(p["moves"])] for p in found)


def test_paired_differences_count_only_the_positions_whose_moves_differ() -> None:
    reference = {0: 0.5, 1: 0.4, 2: 0.9}
    other = {0: 0.6, 1: 0.4, 2: 0.7}
    n, mean, se = move_loss.paired(reference, other, {0: True, 1: False, 2: True})
    assert n == 2 and mean == pytest.approx(-0.05) and se == pytest.approx(0.15)
    assert move_loss.paired(reference, other, {}) == (0, 0.0, 0.0)
    files = [[{"index": 0, "move": [1, 1]}, {"index": 1, "move": [2, 2]}],
             [{"index": 0, "move": [1, 1]}, {"index": 1, "move": [3, 3]}]]
    assert move_loss.differing(files) == {1}


def test_judge_asks_each_new_move_once_and_scores_fives_without_asking() -> None:
    positions = [{"rule": "freestyle", "size": 15, "moves": RECORD["moves"][:8]},
                 {"rule": "freestyle", "size": 15, "moves": RECORD["moves"][:4]}]
    first = [{"index": 0, "move": [8, 6]}, {"index": 1, "move": [5, 9]}]   # black's five; a quiet move
    second = [{"index": 0, "move": [8, 6]}, {"index": 1, "move": [2, 2]}]  # the same five; another move
    log: list = []
    scores = {(5, 9): "-100", (2, 2): "+M7"}  # scores for the opponent, to move after the move
    cache = {move_loss.position_key(positions[1]["moves"] + [[5, 9]]): "-100"}
    new: list = []
    results = move_loss.judge(positions, [first, second], lambda: ScriptedAnalyst(scores, log), 300.0, cache,
                              workers=1, on_new=lambda key, score: new.append(score))
    assert results[0][0] == 1.0 and results[1][0] == 1.0  # both fives: won without asking
    assert results[0][1] == pytest.approx(1 - move_loss.win_probability("-100", 300))
    assert results[1][1] == 0.0  # the opponent mates after it
    assert log == [(2, 2), "closed"] and new == ["+M7"]  # the cached move was not asked again
    only = move_loss.judge(positions, [first, second], lambda: ScriptedAnalyst(scores, []), 300.0, cache,
                           workers=1, only={1})
    assert set(only[0]) == {1} and set(only[1]) == {1}


def test_choose_plays_the_build_on_the_path_with_a_node_budget() -> None:
    positions = [{"rule": "freestyle", "size": 15, "moves": RECORD["moves"][:6]}]
    chosen = move_loss.choose_moves(positions, 2000)
    assert chosen[0]["index"] == 0
    assert chosen[0]["move"] in ([4, 10], [8, 6])  # black's open three becomes an open four
    assert chosen == move_loss.choose_moves(positions, 2000)  # reproducible: no clock


def test_choose_with_a_turn_thinks_under_the_clock() -> None:
    # A quiet position (no five, four or open three to answer): under a node budget of 300 the search stops at a
    # shallow depth; with a 300 ms turn it deepens on (the node budget is not used), compiled or interpreted.
    positions = [{"rule": "freestyle", "size": 15, "moves": [[7, 7], [8, 8], [6, 8]]}]
    by_nodes = move_loss.choose_moves(positions, 300)
    timed = move_loss.choose_moves(positions, 300, turn_ms=300)
    assert timed[0]["move"] is not None
    assert timed[0]["depth"] > by_nodes[0]["depth"]


def test_a_node_limited_analyst_gets_its_options_and_answers_the_same_twice() -> None:
    import sys

    from tuning.label import Analyst

    analyst = Analyst([sys.executable, "-m", "pbrain"], 100000, options=["INFO max_node 3000"],
                      before_each=["YXHASHCLEAR"])
    try:
        moves = RECORD["moves"][:5]
        first = analyst.evaluate(15, "freestyle", moves)
        assert first is not None and move_loss.win_probability(first, 300) is not None
        assert analyst.evaluate(15, "freestyle", moves) == first
    finally:
        analyst.close()


class MovingAnalyst(ScriptedAnalyst):
    """A scripted analyst that also answers `analyse` with the move and score of a table keyed by the stones."""

    def __init__(self, answers: dict, log: list) -> None:
        super().__init__({}, log)
        self.answers = answers

    def analyse(self, size: int, rule: str, moves: list) -> tuple:
        self.log.append(len(moves))
        return self.answers[len(moves)]


def test_the_analysts_own_moves_make_a_moves_file_in_position_order() -> None:
    positions = [{"rule": "freestyle", "size": 15, "moves": RECORD["moves"][:n]} for n in (4, 6, 5)]
    answers = {4: ("12", [5, 9]), 5: ("+M9", [4, 10]), 6: ("-30", [2, 2])}
    log: list = []
    rows = move_loss.analyst_moves(positions, lambda: MovingAnalyst(answers, log), workers=2)
    assert rows == [{"index": 0, "move": [5, 9], "score": "12"}, {"index": 1, "move": [2, 2], "score": "-30"},
                    {"index": 2, "move": [4, 10], "score": "+M9"}]
    assert sorted(entry for entry in log if entry != "closed") == [4, 5, 6] and "closed" in log


def test_the_forced_share_splits_the_differences_decided_by_a_forced_win() -> None:
    reference = {0: 0.0, 1: 0.4, 2: 0.5, 3: 1.0, 4: 0.3}
    other = {0: 0.6, 1: 0.5, 2: 1.0, 3: 1.0, 4: 0.9}
    moved = {0: True, 1: True, 2: True, 3: True, 4: False}
    forced, forced_sum, rest, rest_sum = move_loss.forced_share(reference, other, moved)
    # 0: a move into a forced loss against a holding one; 2: a forced win found; 3: both forced wins, no difference
    assert (forced, rest) == (2, 2)
    assert forced_sum == pytest.approx(0.6 + 0.5) and rest_sum == pytest.approx(0.1)
    assert move_loss.forced_share(reference, other, {}) == (0, 0.0, 0, 0.0)
