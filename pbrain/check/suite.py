"""The conformance scenarios (scenarios/*.txt, transcripts with metadata), run one by one against a fresh brain
process each, and the report: passed, failed (with the lines exchanged and the managers a failure would upset) or
not supported."""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from pbrain.check.brains import ProcessBrain
from pbrain.check.transcript import Replay, ScenarioFailure, Transcript, Unsupported, parse

SCENARIOS = Path(__file__).resolve().with_name("scenarios")
"""The scenario files, beside this module (in the bundle too)."""
LEVELS = ("required", "recommended", "optional")
"""required: what the managers need (a failure loses games); recommended: what the protocol asks and some manager
or GUI relies on; optional: extension groups (Yixin-Board's commands, renju, rectangular boards)."""
OPPONENT_PAUSE_S = 0.2
"""After each move of the brain the check waits this long before it sends on, as a manager does while the other
brain thinks (scenario `instant_reply` sends at once)."""
REPLY_WAIT_S = 10.0
"""How long a scenario waits for any one reply (times the timeout scale) before it reports the brain as hanging."""
DESCRIPTION_WIDTH = 80
"""A passed scenario's line shows this much of its description."""
EXCHANGE_LINES = 40
"""The last lines exchanged that a failure's report shows."""


@dataclass(frozen=True)
class Scenario:
    """One brain-agnostic protocol scenario."""

    name: str
    description: str
    level: str
    group: str
    managers: List[str]
    transcript: Transcript


@dataclass
class Outcome:
    """What one scenario found."""

    scenario: Scenario
    status: str
    """'pass', 'fail' or 'unsupported'."""
    message: str = ""
    exchange: List[str] = field(default_factory=list)
    seconds: float = 0.0


def load(path: Path) -> Scenario:
    """A scenario file; ValueError when its metadata is missing or wrong."""
    transcript = parse(path)
    meta = transcript.meta
    level = meta.get("level", "")
    if level not in LEVELS or not meta.get("group") or not meta.get("managers"):
        raise ValueError(f"{path.name}: needs '#: level' ({', '.join(LEVELS)}), '#: group' and '#: managers'")
    managers = [name.strip() for name in meta["managers"].split(",") if name.strip()]
    return Scenario(path.stem, transcript.description, level, meta["group"], managers, transcript)


def scenarios() -> List[Scenario]:
    """Every scenario, required ones first, then by name."""
    found = [load(path) for path in sorted(SCENARIOS.glob("*.txt"))]
    return sorted(found, key=lambda s: (LEVELS.index(s.level), s.name))


def select(all_scenarios: List[Scenario], only: Sequence[str] = (), skip: Sequence[str] = ()) -> List[Scenario]:
    """The scenarios named by `only` (names or groups; all when empty) less those named by `skip`; ValueError on a
    name that is neither a scenario nor a group."""
    known = {s.name for s in all_scenarios} | {s.group for s in all_scenarios} | set(LEVELS)
    unknown = [name for name in [*only, *skip] if name not in known]
    if unknown:
        raise ValueError(f"no scenario or group named {', '.join(unknown)} (see --list)")

    def named(scenario: Scenario, names: Sequence[str]) -> bool:
        return bool({scenario.name, scenario.group, scenario.level} & set(names))

    return [s for s in all_scenarios if (not only or named(s, only)) and not named(s, skip)]


def run_scenario(scenario: Scenario, argv: Sequence[str], scale: float = 1.0) -> Outcome:
    """Start the brain (`argv`) in an empty working folder of its own, replay the scenario, stop the brain."""
    began = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="pentad-check-"))
    replay: Optional[Replay] = None
    try:
        brain = ProcessBrain(argv, cwd=folder)
    except OSError as error:
        shutil.rmtree(folder, ignore_errors=True)
        return Outcome(scenario, "fail", f"cannot start the brain: {error}", [], time.monotonic() - began)
    try:
        replay = Replay(scenario.transcript, brain, scale=scale, strict=False, reply_wait_s=REPLY_WAIT_S,
                        opponent_pause_s=OPPONENT_PAUSE_S)
        replay.run()
        status, message = "pass", ""
    except ScenarioFailure as failure:
        status, message = "fail", failure.reason
    except Unsupported as answer:
        status, message = "unsupported", str(answer)
    finally:
        brain.kill()
        shutil.rmtree(folder, ignore_errors=True)
    exchange = replay.exchange[-EXCHANGE_LINES:] if replay is not None else []
    return Outcome(scenario, status, message, exchange, time.monotonic() - began)


def run_suite(argv: Sequence[str], chosen: Sequence[Scenario], scale: float = 1.0,
              progress: Optional[Callable[[Outcome], None]] = None) -> List[Outcome]:
    """Every chosen scenario against a fresh brain process each, in order."""
    outcomes = []
    for scenario in chosen:
        outcome = run_scenario(scenario, argv, scale)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


def conforms(outcomes: Sequence[Outcome]) -> bool:
    """True when every required scenario run passed."""
    return all(o.status == "pass" for o in outcomes if o.scenario.level == "required")


_MARK = {"pass": "pass", "fail": "FAIL", "unsupported": "n/s "}


def outcome_line(outcome: Outcome) -> str:
    """One line of the report: status, name, level, and why when it did not pass."""
    s = outcome.scenario
    line = f"{_MARK[outcome.status]}  {s.name:<20} {s.level:<12}"
    if outcome.status == "fail":
        line += f"{outcome.message}  [upsets {', '.join(s.managers)}]"
    elif outcome.status == "unsupported":
        line += f"not supported ({outcome.message})"
    else:
        line += s.description if len(s.description) <= DESCRIPTION_WIDTH else \
            s.description[:DESCRIPTION_WIDTH - 3].rstrip() + "..."
    return line.rstrip()


def summary(outcomes: Sequence[Outcome]) -> str:
    """The closing lines: counts by status and level, and the verdict."""
    counts: Dict[str, int] = {status: 0 for status in _MARK}
    for outcome in outcomes:
        counts[outcome.status] += 1
    failed = [o for o in outcomes if o.status == "fail"]
    by_level = ", ".join(f"{sum(1 for o in failed if o.scenario.level == level)} {level}" for level in LEVELS)
    verdict = "every required scenario passed" if conforms(outcomes) else "a required scenario failed"
    return (f"{counts['pass']} passed, {counts['fail']} failed ({by_level}), {counts['unsupported']} not supported: "
            f"{verdict}.")


def failure_details(outcomes: Sequence[Outcome]) -> List[str]:
    """For each failure: what the scenario tries, what went wrong and the last lines exchanged."""
    lines: List[str] = []
    for outcome in outcomes:
        if outcome.status == "fail":
            lines += ["", f"{outcome.scenario.name}: {outcome.scenario.description}",
                      f"  {outcome.message}", "  lines exchanged (> sent, < received):"]
            lines += [f"    {line}" for line in outcome.exchange]
    return lines


def text_report(outcomes: Sequence[Outcome], argv: Sequence[str]) -> str:
    """The whole report for people: a line a scenario, the lines exchanged for each failure, the summary."""
    lines = [f"Protocol check of {' '.join(argv)}: {len(outcomes)} scenarios", ""]
    lines += [outcome_line(o) for o in outcomes]
    return "\n".join(lines + failure_details(outcomes) + ["", summary(outcomes)])


def json_report(outcomes: Sequence[Outcome], argv: Sequence[str]) -> str:
    """The whole report as one JSON object, for programs."""
    return json.dumps({
        "brain": list(argv),
        "conforms": conforms(outcomes),
        "scenarios": [{"name": o.scenario.name, "level": o.scenario.level, "group": o.scenario.group,
                       "managers": o.scenario.managers, "status": o.status, "message": o.message,
                       "seconds": round(o.seconds, 3), "exchange": o.exchange if o.status == "fail" else []}
                      for o in outcomes],
        "summary": summary(outcomes),
    }, indent=2)


def run_check(brain: str, brain_args: Sequence[str], only: Sequence[str] = (), skip: Sequence[str] = (),
              scale: float = 1.0, as_json: bool = False, listing: bool = False) -> int:
    """`pbrain-pentad check`: run the chosen scenarios against the brain and print the report. Exit status 0 when
    every required scenario passed, 1 when one failed, 2 for a usage error."""
    try:
        chosen = select(scenarios(), only, skip)
    except ValueError as error:
        print(f"pbrain-pentad check: {error}", file=sys.stderr)
        return 2
    if listing:
        for s in chosen:
            print(f"{s.name:<20} {s.level:<12} {s.group:<10} {s.description}")
        return 0
    if not (scale > 0):
        print("pbrain-pentad check: --timeout-scale must be above 0", file=sys.stderr)
        return 2
    if not Path(brain).is_file() and shutil.which(brain) is None:
        print(f"pbrain-pentad check: no brain executable at {brain}", file=sys.stderr)
        return 2
    argv = [str(Path(brain).resolve()) if Path(brain).is_file() else brain, *brain_args]  # it runs elsewhere

    def progress(outcome: Outcome) -> None:
        if not as_json:
            print(outcome_line(outcome), flush=True)

    if not as_json:
        print(f"Protocol check of {' '.join(argv)}: {len(chosen)} scenarios\n", flush=True)
    outcomes = run_suite(argv, chosen, scale, progress)
    if as_json:
        print(json_report(outcomes, argv))
    else:
        print("\n".join(failure_details(outcomes) + ["", summary(outcomes)]))
    return 0 if conforms(outcomes) else 1
