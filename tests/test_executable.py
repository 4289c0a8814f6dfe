"""The built brain, dist/pbrain-pentad, as managers run it: a process on pipes, started from anywhere."""
from __future__ import annotations

import statistics
import subprocess
import time
from pathlib import Path

import pytest

from pbrain.check.transcript import replay
from tests.brains import ProcessBrain, all_transcripts

START_DEADLINE_S = 3.0
"""c-gomoku-cli scores a loss when OK to START takes longer (its default tolerance)."""


def test_runs_the_compiled_core(brain_exe: Path) -> None:
    out = subprocess.run([str(brain_exe), "bench", "--core", "--seconds", "0.2"], capture_output=True, text=True,
                         timeout=60)
    assert "mode compiled" in out.stdout and not out.stderr


def test_start_is_answered_quickly(brain_exe: Path, tmp_path: Path) -> None:
    """Process creation to OK: the onefile bundle unpacks, Python starts, the tables load (no numpy)."""
    times = []
    for _ in range(5):
        began = time.monotonic()
        with ProcessBrain([str(brain_exe)], cwd=tmp_path) as brain:
            brain.line("START 15")
            assert brain.reply(timeout=START_DEADLINE_S) == "OK"
            times.append(time.monotonic() - began)
            brain.line("END")
            assert brain.wait_exit(5)
    print(f"START answered after {statistics.median(times) * 1000:.0f} ms (median of 5, max "
          f"{max(times) * 1000:.0f} ms)")
    assert max(times) < START_DEADLINE_S


def test_renju_tables_are_ready_at_once(brain_exe: Path, tmp_path: Path) -> None:
    """Switching rules must not build tables: INFO rule 4 then a forced move, all well inside a short turn."""
    with ProcessBrain([str(brain_exe)], cwd=tmp_path) as brain:
        brain.line("START 15")
        assert brain.reply(timeout=START_DEADLINE_S) == "OK"
        began = time.monotonic()
        for line in ("INFO rule 4", "INFO timeout_turn 1000", "BOARD", "5,7,1", "6,7,1", "7,7,1", "8,7,1",
                     "4,7,2", "0,0,2", "14,14,2", "0,14,2", "DONE"):
            brain.line(line)
        assert brain.reply(timeout=5) == "9,7"
        assert time.monotonic() - began < 1.0 + 1.0


def test_files_only_where_allowed(brain_exe: Path, tmp_path: Path) -> None:
    """The working directory is the manager's: Pentad reads nothing from it and writes nothing to it; with
    nothing to persist, INFO folder stays untouched too."""
    work, folder = tmp_path / "manager-cwd", tmp_path / "persistent"
    work.mkdir()
    folder.mkdir()
    with ProcessBrain([str(brain_exe)], cwd=work) as brain:
        for line in ("START 15", f"INFO folder {folder}", "INFO timeout_turn 300", "BEGIN"):
            brain.line(line)
        assert brain.reply() == "OK"
        assert brain.reply().count(",") == 1
        brain.line("END")
        assert brain.wait_exit(5)
        assert not brain.problems()
    assert list(work.iterdir()) == [] and list(folder.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", all_transcripts(), ids=lambda p: p.stem)
def test_transcript_against_the_executable(brain_exe: Path, tmp_path: Path, path: Path) -> None:
    with ProcessBrain([str(brain_exe)], cwd=tmp_path) as brain:
        replay(path, brain)


@pytest.mark.slow
def test_passes_every_conformance_scenario(brain_exe: Path) -> None:
    """`pbrain-pentad check` against the built brain: every scenario passes, the optional groups included."""
    from pbrain.check import suite

    outcomes = suite.run_suite([str(brain_exe)], suite.scenarios())
    assert {o.scenario.name: o.message for o in outcomes if o.status != "pass"} == {}
