"""benchmarks/vision.py: the nodes the search spends before it first reports a forced win, on winning positions."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from pbrain import params

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "vision.py"
SPEC = importlib.util.spec_from_file_location("vision_benchmark", SCRIPT)
vision = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(vision)  # type: ignore[union-attr]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def small_tables(monkeypatch) -> None:
    monkeypatch.setattr(vision, "MEMORY_BYTES", 64 * 1024 * 1024)  # a small hash table: the test's speed only


def test_the_positions_are_the_suites_winning_positions_with_the_winner_to_move() -> None:
    must_defend = [p for p in json.loads((ROOT / "tests/data/must_defend.json").read_text()) if not p.get("win")]
    forced_wins = json.loads((ROOT / "benchmarks/data/forced_wins.json").read_text())
    cases = vision.positions()
    assert len(cases) == len(must_defend) + len(forced_wins)
    for (name, _, _, moves), position in zip(cases, must_defend):
        assert name.startswith("must_defend ") and moves == position["moves"] + [position["losing"]]
    for (name, _, _, moves), position in zip(cases[len(must_defend):], forced_wins):
        assert name.startswith("forced_win ") and moves == position["moves"]


def test_a_short_win_is_seen_early_and_the_count_repeats() -> None:
    name, size, rule, moves = vision.positions()[13]  # must-defend 13: the winner has a short VCF
    assert name == "must_defend 13"
    nodes, _ = vision.nodes_to_win(size, rule, moves, 20_000)
    assert nodes is not None and nodes < 20_000
    assert vision.nodes_to_win(size, rule, moves, 20_000)[0] == nodes  # node counts depend on the build alone


def test_the_summary_counts_the_lines(capsys, monkeypatch) -> None:
    every = vision.positions
    monkeypatch.setattr(vision, "positions", lambda: every()[:6])
    vision.main(["--nodes", "3000"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7
    marks = [line.split()[2] for line in lines[:-1]]
    assert set(marks) <= {"W", "-"}
    assert lines[-1].startswith(f"seen {marks.count('W')} of 6 at 3,000 nodes; geometric mean ")


def test_set_changes_a_parameter_and_refuses_an_unknown_one(monkeypatch) -> None:
    monkeypatch.setattr(params, "LMR_BASE", params.LMR_BASE)  # restored after the test
    monkeypatch.setattr(params, "MOVE_COUNT_BASE", params.MOVE_COUNT_BASE)
    vision.set_param("LMR_BASE=0.25")
    vision.set_param("MOVE_COUNT_BASE=5")
    assert params.LMR_BASE == 0.25 and params.MOVE_COUNT_BASE == 5 and isinstance(params.MOVE_COUNT_BASE, int)
    with pytest.raises(SystemExit):
        vision.set_param("NO_SUCH_KNOB=1")
