"""benchmarks/vct.py: the proof-number VCT on fixed positions, from an empty table each, counted by outcome."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "vct.py"
SPEC = importlib.util.spec_from_file_location("vct_benchmark", SCRIPT)
vct = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(vct)  # type: ignore[union-attr]
DATA = Path(__file__).resolve().parent / "data"


def test_the_positions_are_the_suites_after_the_losing_move_and_the_vct_tactics() -> None:
    must_defend = [p for p in json.loads((DATA / "must_defend.json").read_text()) if not p.get("win")]
    tactics = [p for p in json.loads((DATA / "tactics.json").read_text()) if p["kind"] == "vct"]
    cases = vct.positions()
    assert len(cases) == len(must_defend) + len(tactics)
    for (name, engine), position in zip(cases, must_defend):
        assert name.startswith("must_defend ")
        assert engine.board.move_count == len(position["moves"]) + 1  # the losing move played: the winner to move
        assert not engine.last_move_wins()
    for (name, engine), position in zip(cases[len(must_defend):], tactics):
        assert name.startswith("tactics ")
        assert engine.board.side == position["side"]  # the attacker to move


def test_the_counts_add_up_and_repeat(capsys) -> None:
    vct.main(["--nodes", "3000"])
    first = capsys.readouterr().out.splitlines()
    assert len(first) == len(vct.positions()) + 1
    outcomes = [line.split()[-2] for line in first[:-1]]
    assert set(outcomes) <= {"P", "D", "-"} and "P" in outcomes  # some VCTs are proved within 3,000 nodes
    summary = first[-1]
    assert summary.startswith(f"proved {outcomes.count('P')}, disproved {outcomes.count('D')}, "
                              f"open {outcomes.count('-')} of {len(outcomes)} at 3,000 nodes")
    vct.main(["--nodes", "3000"])
    again = capsys.readouterr().out.splitlines()
    assert again[:-1] == first[:-1]  # node counts depend on the build alone
