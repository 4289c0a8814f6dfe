"""benchmarks/must_defend.py: a suite of positions, Pentad's move in each, and a judge brain's verdict on it."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "must_defend.py"
sys.path.insert(0, str(SCRIPT.parent))  # the script imports move_loss from its own folder
SPEC = importlib.util.spec_from_file_location("must_defend", SCRIPT)
must_defend = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(must_defend)  # type: ignore[union-attr]

OPEN_THREE = [[7, 7], [0, 0], [7, 8], [0, 2], [7, 9], [0, 4]]
"""Black to move with an open three (7,7 7,8 7,9): an open four wins."""


def judge_script(folder: Path) -> Path:
    """Pentad itself as the judge brain (it reports `ev -M2` and the like in its MESSAGE lines)."""
    script = folder / "judge.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pbrain "$@"\n')
    script.chmod(0o755)
    return script


def test_a_forced_win_kept_is_counted_and_the_verdict_cached(tmp_path: Path, capsys) -> None:
    suite = tmp_path / "wins.json"
    suite.write_text(json.dumps([{"rule": "FREESTYLE", "size": 15, "moves": OPEN_THREE, "win": True}]))
    cache = tmp_path / "judged.json"
    arguments = ["--suite", str(suite), "--nodes", "3000", "--judge", str(judge_script(tmp_path)),
                 "--judge-ms", "500", "--cache", str(cache)]
    assert must_defend.main(arguments) == 0
    out = capsys.readouterr().out
    assert "kept the forced win in 1 of 1 at 3,000 nodes" in out and "held" not in out
    verdicts = json.loads(cache.read_text())
    assert len(verdicts) == 1 and next(iter(verdicts.values())).startswith("-M")
    # a second run takes the verdict from the cache: a judge that cannot start is never asked
    arguments[arguments.index("--judge") + 1] = str(tmp_path / "missing-judge")
    assert must_defend.main(arguments) == 0
    assert "kept the forced win in 1 of 1" in capsys.readouterr().out
