"""benchmarks/turns.py: a lost game's evaluation curve, where it turned, and its class."""
from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "turns.py"
SPEC = importlib.util.spec_from_file_location("turns", SCRIPT)
turns = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(turns)  # type: ignore[union-attr]


class ScriptedAnalyst:
    """An analyst that answers from a table keyed by the number of stones, and records what it was asked."""

    def __init__(self, scores: dict) -> None:
        self.scores = scores
        self.asked: list = []

    def evaluate(self, size: int, rule: str, moves: list) -> object:
        self.asked.append(len(moves))
        return self.scores.get(len(moves))


def test_scores_read_mates_as_the_extremes() -> None:
    assert [turns.score_value(s) for s in ("123", "-45", "+M13", "-M8", None)] == \
        [123, -45, turns.MATE, -turns.MATE, None]


def test_one_move_from_even_to_mated_or_far_behind_is_a_collapse() -> None:
    kind, largest = turns.classify([(4, 40), (6, -120), (8, -turns.MATE)], collapse=500)
    assert kind == "collapse" and largest == (6, -120, -turns.MATE)
    assert turns.classify([(4, 55), (6, 107), (8, -75), (10, -1030), (12, -turns.MATE)], 500) == \
        ("collapse", (10, -1030, -turns.MATE))


def test_a_slow_fall_is_a_drift_and_a_seen_win_is_a_thrown_win() -> None:
    slow = [(4, 100), (6, -200), (8, -450), (10, -700), (12, -950), (14, -1300), (16, -turns.MATE)]
    assert turns.classify(slow, collapse=500)[0] == "drift"
    assert turns.classify([(4, 100), (6, turns.MATE), (8, -300), (10, -turns.MATE)], 500)[0] == "thrown win"
    assert turns.classify([(4, None)], 500) == ("drift", None)


def test_the_trace_asks_before_each_of_the_players_moves_and_stops_at_its_mate() -> None:
    record = {"size": 15, "rule": "freestyle", "opening": [[7, 7], [8, 8], [6, 8]],
              "moves": [[7, 7], [8, 8], [6, 8], [9, 9], [5, 9], [10, 10], [4, 10], [3, 11], [11, 11]]}
    white = ScriptedAnalyst({3: "12", 5: "-30", 7: "-M9"})
    assert turns.trace(record, 2, white) == [(3, 12), (5, -30), (7, -turns.MATE)]
    assert white.asked == [3, 5, 7]  # white moves on an odd stone count; nothing after the mate
    black = ScriptedAnalyst({4: "5", 6: "-8", 8: "-20"})
    assert turns.trace(record, 1, black) == [(4, 5), (6, -8), (8, -20)]
