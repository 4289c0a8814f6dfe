"""Protocol transcripts (protocol_fixtures/*.txt): parse them and replay them against a brain.

The format is described in protocol_fixtures/README.md. In short: `> line` is sent, `< line` is the next reply
exactly, `~ regex` the next reply by pattern (replies skip MESSAGE / DEBUG lines unless the expectation is one),
and `@` lines control time and the end of the session.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

from pbrain.protocol import parser
from tests.brains import CLOSED, Brain, is_chatter

FIXTURES = Path(__file__).resolve().parent.parent / "protocol_fixtures"
REPLY_TIMEOUT_S = 30.0
"""How long any expectation may wait (a brain that answers late fails a timing directive, not this)."""
END_TIMEOUT_S = 10.0
OPTIONAL_WAIT_S = 2.0
"""How long an optional line (`? regex`) is waited for before the step is skipped."""


@dataclass
class Step:
    """One line of a transcript."""

    kind: str
    """'send', 'exact', 'pattern', 'optional', 'within', 'sleep', 'eof', 'exit-within'."""
    text: str = ""
    data: bytes = b""
    number: float = 0.0
    line_no: int = 0


@dataclass
class Transcript:
    """A parsed transcript."""

    name: str
    steps: List[Step]
    forbid: List[str] = field(default_factory=list)
    """Patterns no output line may match anywhere in the session (`@forbid`)."""
    description: str = ""


def unescape(text: str) -> bytes:
    """`> ` line text to bytes: \\r \\n \\t \\0 \\\\ and \\xNN escapes, everything else as UTF-8."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            simple = {"r": b"\r", "n": b"\n", "t": b"\t", "0": b"\0", "\\": b"\\"}
            if nxt in simple:
                out += simple[nxt]
                i += 2
                continue
            if nxt == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 2:i + 4]):
                out.append(int(text[i + 2:i + 4], 16))
                i += 4
                continue
        out += c.encode()
        i += 1
    return bytes(out)


def parse(path: Path) -> Transcript:
    """Read a transcript file; ValueError on a line it does not understand."""
    steps: List[Step] = []
    forbid: List[str] = []
    description: List[str] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if line.startswith("#"):
            if not steps:
                description.append(line.lstrip("# "))
            continue
        tag, _, rest = line.partition(" ")
        if tag == ">":
            steps.append(Step("send", data=unescape(rest) + b"\n", line_no=number))
        elif tag == "<":
            steps.append(Step("exact", rest, line_no=number))
        elif tag in ("~", "?"):
            re.compile(rest)
            steps.append(Step("pattern" if tag == "~" else "optional", rest, line_no=number))
        elif tag in ("@within", "@sleep", "@exit-within"):
            steps.append(Step(tag[1:], number=float(rest), line_no=number))
        elif tag == "@eof":
            steps.append(Step("eof", line_no=number))
        elif tag == "@forbid":
            forbid.append(rest)
        else:
            raise ValueError(f"{path.name}:{number}: cannot read {line!r}")
    return Transcript(path.stem, steps, forbid, " ".join(description))


def all_transcripts() -> List[Path]:
    """Every transcript file, sorted."""
    return sorted(FIXTURES.glob("*.txt"))


def _wants_chatter(step: Step) -> bool:
    return step.text.startswith("MESSAGE") or step.text.startswith("DEBUG")


def _matches(step: Step, line: str) -> bool:
    return line == step.text if step.kind == "exact" else re.fullmatch(step.text, line) is not None


class Replay:
    """Plays one transcript against a brain and collects every output line."""

    def __init__(self, transcript: Transcript, brain: Brain) -> None:
        self.transcript = transcript
        self.brain = brain
        self.seen: List[str] = []
        self.last_send = time.monotonic()
        self._pushed: List[str] = []

    def _read(self, timeout: float) -> Optional[str]:
        if self._pushed:
            return self._pushed.pop()
        line = self.brain.read_line(timeout)
        if line is not None and line != CLOSED:
            self.seen.append(line)
        return line

    def _optional(self, step: Step) -> None:
        """Consume the next reply (or chatter line, for a chatter pattern) if it matches, else leave it there."""
        deadline = time.monotonic() + OPTIONAL_WAIT_S
        while True:
            line = self._read(max(0.0, deadline - time.monotonic()))
            if line is None or line == CLOSED:
                return
            if _wants_chatter(step) or not is_chatter(line):
                break
        if re.fullmatch(step.text, line) is None:
            self._pushed.append(line)

    def _fail(self, step: Step, message: str) -> AssertionError:
        tail = "\n".join(self.seen[-8:])
        return AssertionError(f"{self.transcript.name}:{step.line_no}: {message}\nlast output:\n{tail}")

    def _expect(self, step: Step, within_ms: Optional[float]) -> None:
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        chatter_wanted = _wants_chatter(step)
        while True:
            line = self._read(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise self._fail(step, f"no reply matching {step.text!r} within {REPLY_TIMEOUT_S} s")
            if line == CLOSED:
                raise self._fail(step, f"output ended before {step.text!r}")
            if is_chatter(line) and not chatter_wanted:
                continue
            if not chatter_wanted or is_chatter(line):
                if not _matches(step, line):
                    raise self._fail(step, f"got {line!r}, expected {step.kind} {step.text!r}")
                break
            raise self._fail(step, f"got reply {line!r} while expecting {step.text!r}")
        if within_ms is not None:
            elapsed_ms = (time.monotonic() - self.last_send) * 1000
            if elapsed_ms > within_ms:
                raise self._fail(step, f"{step.text!r} came {elapsed_ms:.0f} ms after the last line sent "
                                       f"(allowed {within_ms:.0f})")

    def _drain_to_exit(self, step: Step, exit_ms: Optional[float]) -> None:
        """After END / EOF: no further reply, and the brain exits."""
        limit_s = END_TIMEOUT_S if exit_ms is None else exit_ms / 1000
        exited = self.brain.wait_exit(limit_s)
        elapsed_ms = (time.monotonic() - self.last_send) * 1000
        if not exited:
            raise self._fail(step, f"the brain did not exit within {limit_s * 1000:.0f} ms")
        while True:
            line = self._read(2.0)
            if line is None or line == CLOSED:
                break
            if not is_chatter(line):
                raise self._fail(step, f"unexpected reply {line!r} at the end")
        if exit_ms is not None and elapsed_ms > exit_ms:
            raise self._fail(step, f"exit took {elapsed_ms:.0f} ms (allowed {exit_ms:.0f})")

    def run(self) -> None:
        """Replay every step, then check the whole output; AssertionError on the first mismatch."""
        within: Optional[float] = None
        ended = input_closed = False
        last = Step("end", line_no=len(self.transcript.steps))
        for step in self.transcript.steps:
            if step.kind == "send":
                self.brain.send(step.data)
                self.last_send = time.monotonic()
            elif step.kind in ("exact", "pattern"):
                self._expect(step, within)
                within = None
            elif step.kind == "optional":
                self._optional(step)
            elif step.kind == "within":
                within = step.number
            elif step.kind == "sleep":
                time.sleep(step.number / 1000)
            elif step.kind == "eof":
                self.brain.close_input()
                self.last_send = time.monotonic()
                input_closed = True
            elif step.kind == "exit-within":
                self._drain_to_exit(step, step.number)
                ended = True
            last = step
        if not ended:
            if not input_closed:
                self.brain.send(b"END\n")
                self.last_send = time.monotonic()
            self._drain_to_exit(last, None)
        self.check_output(last)

    def check_output(self, step: Step) -> None:
        """Every line printed is a protocol line; none matches a @forbid pattern; no internal errors."""
        for line in self.seen:
            if not parser.PROTOCOL_LINE.fullmatch(line):
                raise self._fail(step, f"not a protocol line: {line!r}")
            if "internal" in line:
                raise self._fail(step, f"internal error reported: {line!r}")
            for pattern in self.transcript.forbid:
                if re.search(pattern, line):
                    raise self._fail(step, f"{line!r} matches the forbidden {pattern!r}")
        problems = self.brain.problems()
        if problems:
            raise self._fail(step, "; ".join(problems))


def replay(path: Path, brain: Brain) -> Tuple[Transcript, List[str]]:
    """Parse and replay one transcript file; returns it and the brain's output."""
    transcript = parse(path)
    session = Replay(transcript, brain)
    session.run()
    return transcript, session.seen
