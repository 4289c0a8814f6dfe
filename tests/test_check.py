"""`pbrain-pentad check`: the scenarios are well formed and brain-agnostic (a small correct brain passes the required
ones), and a brain that hangs, crashes, floods, chatters or outlives END is reported, not waited on for ever."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from pbrain.check import suite

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "data" / "fake_brains"


def fake(name: str) -> List[str]:
    """The command line of a fake brain of tests/data/fake_brains."""
    return [sys.executable, str(FAKES / f"{name}.py")]


def scenario(name: str) -> suite.Scenario:
    return next(s for s in suite.scenarios() if s.name == name)


def test_scenarios_are_well_formed() -> None:
    found = suite.scenarios()
    names = [s.name for s in found]
    assert len(found) >= 25 and len(set(names)) == len(names)
    assert {s.level for s in found} == set(suite.LEVELS)
    assert {"yixin", "renju", "core"} <= {s.group for s in found}
    for s in found:
        assert s.description and s.managers
        assert any(step.kind in ("exact", "pattern", "move") for step in s.transcript.steps), s.name


def test_select_by_name_group_and_level() -> None:
    found = suite.scenarios()
    assert [s.name for s in suite.select(found, ["about"])] == ["about"]
    assert {s.group for s in suite.select(found, ["yixin"])} == {"yixin"}
    assert all(s.level != "optional" for s in suite.select(found, skip=["optional"]))
    with pytest.raises(ValueError, match="no scenario or group named nonsense"):
        suite.select(found, ["nonsense"])


def test_a_small_correct_brain_passes_every_required_scenario() -> None:
    chosen = suite.select(suite.scenarios(), skip=["optional"])
    outcomes = suite.run_suite(fake("minimal"), chosen)
    failed = {o.scenario.name: o.message for o in outcomes if o.status != "pass"}
    assert failed == {}
    assert suite.conforms(outcomes)


def test_a_hanging_brain_is_reported_within_the_wait() -> None:
    began = time.monotonic()
    outcome = suite.run_scenario(scenario("start_15"), fake("hang"), scale=0.2)
    assert outcome.status == "fail" and "no reply (OK) within 2 s (it hangs" in outcome.message
    assert time.monotonic() - began < 30


def test_a_crashing_brain_is_reported() -> None:
    outcome = suite.run_scenario(scenario("start_15"), fake("crash"), scale=0.5)
    assert outcome.status == "fail" and "exited" in outcome.message
    assert outcome.exchange[0] == "> START 15"


def test_a_flooding_brain_is_stopped_and_reported() -> None:
    began = time.monotonic()
    outcome = suite.run_scenario(scenario("start_15"), fake("flood"), scale=0.5)
    assert outcome.status == "fail" and "flooded" in outcome.message
    assert time.monotonic() - began < 60


def test_a_non_protocol_line_is_reported() -> None:
    outcome = suite.run_scenario(scenario("about"), fake("chatty"))
    assert outcome.status == "fail" and "not a protocol line: 'hello from a chatty brain'" in outcome.message


def test_a_brain_that_outlives_end_is_reported() -> None:
    outcome = suite.run_scenario(scenario("end"), fake("no_exit"))
    assert outcome.status == "fail" and "did not exit within 1000 ms" in outcome.message
    assert "upsets Piskvork, GomocupJudge, c-gomoku-cli" in suite.outcome_line(outcome)


def test_an_unsupported_extension_is_not_a_failure() -> None:
    outcome = suite.run_scenario(scenario("rectstart"), fake("minimal"))
    assert outcome.status == "unsupported"
    assert suite.conforms([outcome])


def test_silence_to_an_optional_command_is_not_supported() -> None:
    outcome = suite.run_scenario(scenario("rectstart"), fake("hang"), scale=0.5)
    assert outcome.status == "unsupported" and "no reply" in outcome.message


def test_a_move_before_the_stop_cannot_test_the_stop() -> None:
    """The minimal brain answers at once: YXSTOP would come after its move, so the scenario says so."""
    outcome = suite.run_scenario(scenario("yixin_stop"), fake("minimal"))
    assert outcome.status == "unsupported" and "came before the next command could be tested" in outcome.message


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbrain", "check", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_the_command_line_reports_json_and_exit_status() -> None:
    done = run_cli("--json", "--only", "about,start_15", *fake("minimal"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["conforms"] and [s["status"] for s in report["scenarios"]] == ["pass", "pass"]
    failed = run_cli("--only", "start_15", "--timeout-scale", "0.5", *fake("crash"))
    assert failed.returncode == 1
    assert "FAIL  start_15" in failed.stdout and "lines exchanged" in failed.stdout and "> START 15" in failed.stdout


def test_the_command_line_refuses_bad_requests() -> None:
    assert run_cli("--only", "nonsense", *fake("minimal")).returncode == 2
    missing = run_cli(str(ROOT / "no-such-brain"))
    assert missing.returncode == 2 and "no brain executable" in missing.stderr
    listing = run_cli("--list")
    assert listing.returncode == 0 and "yixin_stop" in listing.stdout
