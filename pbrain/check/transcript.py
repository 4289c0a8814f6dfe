"""Protocol transcripts: parse them and replay them against a brain.

The format is described in protocol_fixtures/README.md. In short: `> line` is sent, `< line` is the next reply
exactly, `~ regex` the next reply by pattern, `& move` the next reply is a legal move on the board the transcript
has set up (replies skip MESSAGE / DEBUG lines unless the expectation is one), `@` lines control time, the end of
the session and (`@unsupported regex`) the answer that means the brain does not support what is being tried.
Comment lines `#: key value` before the first step carry a scenario's metadata (pbrain.check.suite).
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from pbrain.check.brains import CLOSED, Brain, is_chatter
from pbrain.protocol.parser import PROTOCOL_LINE

REPLY_TIMEOUT_S = 30.0
"""How long any expectation may wait (a brain that answers late fails a timing directive, not this)."""
END_TIMEOUT_S = 10.0
OPTIONAL_WAIT_S = 2.0
"""How long an optional line (`? regex`) is waited for before the step is skipped."""
_MOVE = re.compile(r"(\d+),(\d+)")
MANAGER_LINE = re.compile(PROTOCOL_LINE.pattern + r'|(?:MESSAGE|DEBUG)[ \t][^\r\n]*|[A-Za-z]+\s*=\s*"[ -~]*')
"""Every line a manager takes for what it is (a reply, chatter with any text, an ABOUT line of key="value"
pairs); Piskvork takes any other line for a move. Pentad's own output is held to PROTOCOL_LINE, the stricter form
it prints."""
UNSUPPORTED_WAIT_S = 3.0
"""After a command marked `@unsupported`, silence this long also means 'not supported'."""


class ScenarioFailure(AssertionError):
    """The brain did not do what the transcript expects; `reason` says what, in one line."""

    def __init__(self, text: str, reason: str = "") -> None:
        super().__init__(text)
        self.reason = reason or text


class Unsupported(Exception):
    """The brain answered in the way the transcript names as 'not supported' (`@unsupported`)."""


@dataclass
class Step:
    """One line of a transcript."""

    kind: str
    """'send', 'exact', 'pattern', 'optional', 'move', 'within', 'sleep', 'eof', 'exit-within', 'unsupported',
    'too-soon'."""
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
    meta: Dict[str, str] = field(default_factory=dict)
    """`#: key value` lines before the first step."""


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


def parse_text(text: str, name: str) -> Transcript:
    """Read a transcript from its text; ValueError on a line it does not understand."""
    steps: List[Step] = []
    forbid: List[str] = []
    description: List[str] = []
    meta: Dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if line.startswith("#:"):
            key, _, value = line[2:].strip().partition(" ")
            meta[key] = value.strip()
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
        elif tag == "&" and rest.strip() == "move":
            steps.append(Step("move", "a legal move x,y", line_no=number))
        elif tag in ("@within", "@sleep", "@exit-within"):
            steps.append(Step(tag[1:], number=float(rest), line_no=number))
        elif tag == "@eof":
            steps.append(Step("eof", line_no=number))
        elif tag == "@forbid":
            forbid.append(rest)
        elif tag == "@too-soon":
            re.compile(rest)
            steps.append(Step("too-soon", rest, line_no=number))
        elif tag == "@unsupported":
            re.compile(rest)
            steps.append(Step("unsupported", rest, line_no=number))
        else:
            raise ValueError(f"{name}:{number}: cannot read {line!r}")
    return Transcript(name, steps, forbid, " ".join(description), meta)


def parse(path: Path) -> Transcript:
    """Read a transcript file; ValueError on a line it does not understand."""
    return parse_text(path.read_text(encoding="utf-8"), path.stem)


def _wants_chatter(step: Step) -> bool:
    return step.text.startswith("MESSAGE") or step.text.startswith("DEBUG")


class BoardTracker:
    """The position as the commands sent and the moves received set it up, to tell a legal move from an illegal
    one: START / RECTSTART / RESTART empty it, BOARD and YXBOARD replace it, TURN and the brain's moves add to it,
    TAKEBACK removes a stone."""

    def __init__(self) -> None:
        self.width = self.height = 0
        self.stones: Set[Tuple[int, int]] = set()
        self.last_reply: Optional[Tuple[int, int]] = None
        """The brain's last move (what `$last` in a line sent stands for)."""
        self._block: Optional[List[Tuple[int, int]]] = None

    def sent(self, data: bytes) -> None:
        """Follow one line sent to the brain."""
        text = data.decode("ascii", errors="replace").strip()
        word, _, args = text.partition(" ")
        word = word.upper()
        if self._block is not None:
            if word == "DONE":
                self.stones = set(self._block)
                self._block = None
            else:
                numbers = re.findall(r"-?\d+", text)
                if len(numbers) >= 2:
                    self._block.append((int(numbers[0]), int(numbers[1])))
            return
        numbers = [int(n) for n in re.findall(r"-?\d+", args)]
        if word == "START" and numbers:
            self.width = self.height = numbers[0]
            self.stones = set()
        elif word == "RECTSTART" and len(numbers) >= 2:
            self.width, self.height = numbers[0], numbers[1]
            self.stones = set()
        elif word == "RESTART":
            self.stones = set()
        elif word in ("BOARD", "YXBOARD", "SWAP2BOARD"):
            self._block = []
        elif word in ("TURN", "PLAY") and len(numbers) >= 2:
            self.stones.add((numbers[0], numbers[1]))
        elif word == "TAKEBACK" and len(numbers) >= 2:
            self.stones.discard((numbers[0], numbers[1]))

    def problem(self, reply: str) -> Optional[str]:
        """Why `reply` is not a legal move now (None when it is one), and the move is added to the board."""
        match = _MOVE.fullmatch(reply)
        if match is None:
            return f"{reply!r} is not a move x,y"
        point = (int(match.group(1)), int(match.group(2)))
        if not (0 <= point[0] < self.width and 0 <= point[1] < self.height):
            return f"{reply} is off the {self.width}x{self.height} board"
        if point in self.stones:
            return f"{reply} is already taken"
        self.stones.add(point)
        self.last_reply = point
        return None


class Replay:
    """Plays one transcript against a brain and collects every line exchanged.

    `scale` multiplies every time in the transcript and every wait (for a slow machine or a slow brain). `strict`
    holds the output to Pentad's own rules (PROTOCOL_LINE, no internal error reported); otherwise to what the
    managers accept (MANAGER_LINE)."""

    def __init__(self, transcript: Transcript, brain: Brain, scale: float = 1.0, strict: bool = True,
                 reply_wait_s: float = REPLY_TIMEOUT_S, opponent_pause_s: float = 0.0) -> None:
        self.transcript = transcript
        self.opponent_pause_s = float(transcript.meta.get("pause", opponent_pause_s))
        """How long the player waits after a move of the brain before it sends on, as a manager does while the
        opponent thinks (a transcript's `#: pause S` overrides it)."""
        self.reply_wait_s = reply_wait_s
        self.brain = brain
        self.scale = scale
        self.strict = strict
        self.seen: List[str] = []
        self.exchange: List[str] = []
        """Every line sent ('> ...') and received ('< ...'), in order."""
        self.last_send = time.monotonic()
        self.board = BoardTracker()
        self._pushed: List[str] = []
        self._unsupported: Optional[str] = None

    def _send(self, data: bytes) -> None:
        if b"$last" in data and self.board.last_reply is not None:
            data = data.replace(b"$last", "{},{}".format(*self.board.last_reply).encode())
        self.brain.send(data)
        self.board.sent(data)
        self.exchange.append("> " + data.decode("ascii", errors="replace").rstrip("\r\n"))
        self.last_send = time.monotonic()

    def _read(self, timeout: float) -> Optional[str]:
        if self._pushed:
            return self._pushed.pop()
        line = self.brain.read_line(timeout)
        if line is not None and line != CLOSED:
            self.seen.append(line)
            self.exchange.append("< " + line)
        return line

    def _optional(self, step: Step) -> None:
        """Consume the next reply (or chatter line, for a chatter pattern) if it matches, else leave it there."""
        deadline = time.monotonic() + OPTIONAL_WAIT_S * self.scale
        while True:
            line = self._read(max(0.0, deadline - time.monotonic()))
            if line is None or line == CLOSED:
                return
            if _wants_chatter(step) or not is_chatter(line):
                break
        if re.fullmatch(step.text, line) is None:
            self._pushed.append(line)

    def _too_soon(self, step: Step) -> None:
        """Unsupported (the scenario cannot test what it is for) when a reply matching the step has already come,
        such as a move before the stop command that was to interrupt its search."""
        while True:
            line = self._read(0.0)
            if line is None or line == CLOSED:
                return
            if re.fullmatch(step.text, line):
                raise Unsupported(f"{line!r} came before the next command could be tested")
            if not is_chatter(line):
                self._pushed.append(line)
                return

    def _fail(self, step: Step, message: str) -> ScenarioFailure:
        tail = "\n".join(self.seen[-8:])
        return ScenarioFailure(f"{self.transcript.name}:{step.line_no}: {message}\nlast output:\n{tail}", message)

    def _check(self, step: Step, line: str) -> Optional[str]:
        """Why `line` does not meet `step` (None when it does)."""
        if step.kind == "move":
            return self.board.problem(line)
        if step.kind == "exact":
            return None if line == step.text else f"got {line!r}, expected {step.text!r}"
        return None if re.fullmatch(step.text, line) else f"got {line!r}, expected a line matching {step.text!r}"

    def _expect(self, step: Step, within_ms: Optional[float]) -> None:
        unsupported, self._unsupported = self._unsupported, None
        wait_s = (self.reply_wait_s if unsupported is None else UNSUPPORTED_WAIT_S) * self.scale
        deadline = time.monotonic() + wait_s
        chatter_wanted = _wants_chatter(step)
        while True:
            line = self._read(max(0.0, deadline - time.monotonic()))
            if line is None and unsupported is not None:
                raise Unsupported(f"no reply within {wait_s:.0f} s")
            if line is None:
                raise self._fail(step, f"no reply ({step.text}) within {wait_s:.0f} s "
                                       "(it hangs or ignored the command)")
            if line == CLOSED:
                status = self.brain.exit_status()
                exited = "the brain exited" + ("" if not status else f" with status {status}" +
                                               (f" (signal {-status})" if status < 0 else ""))
                why = "; ".join(self.brain.problems()) or exited
                raise self._fail(step, f"output ended ({why}) before {step.text!r}")
            if not (PROTOCOL_LINE if self.strict else MANAGER_LINE).fullmatch(line):
                raise self._fail(step, f"not a protocol line: {line!r} (a manager takes it for a move)")
            if is_chatter(line) and not chatter_wanted:
                continue
            if not chatter_wanted or is_chatter(line):
                if unsupported is not None and re.fullmatch(unsupported, line):
                    raise Unsupported(f"answered {line!r}")
                problem = self._check(step, line)
                if problem is not None:
                    raise self._fail(step, problem)
                break
            raise self._fail(step, f"got reply {line!r} while expecting {step.text!r}")
        if within_ms is not None:
            elapsed_ms = (time.monotonic() - self.last_send) * 1000
            if elapsed_ms > within_ms * self.scale:
                raise self._fail(step, f"{line!r} came {elapsed_ms:.0f} ms after the last line sent "
                                       f"(allowed {within_ms * self.scale:.0f})")
        if step.kind == "move" and self.opponent_pause_s > 0:
            time.sleep(self.opponent_pause_s)

    def _drain_to_exit(self, step: Step, exit_ms: Optional[float]) -> None:
        """After END / EOF: no further reply, and the brain exits."""
        limit_s = END_TIMEOUT_S if exit_ms is None else exit_ms * self.scale / 1000
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
        if exit_ms is not None and elapsed_ms > exit_ms * self.scale:
            raise self._fail(step, f"exit took {elapsed_ms:.0f} ms (allowed {exit_ms * self.scale:.0f})")

    def run(self) -> None:
        """Replay every step, then check the whole output; ScenarioFailure on the first mismatch, Unsupported when
        the brain gives an `@unsupported` answer."""
        within: Optional[float] = None
        ended = input_closed = False
        last = Step("end", line_no=len(self.transcript.steps))
        for step in self.transcript.steps:
            if step.kind == "send":
                self._send(step.data)
            elif step.kind in ("exact", "pattern", "move"):
                self._expect(step, within)
                within = None
            elif step.kind == "optional":
                self._optional(step)
            elif step.kind == "unsupported":
                self._unsupported = step.text
            elif step.kind == "too-soon":
                self._too_soon(step)
            elif step.kind == "within":
                within = step.number
            elif step.kind == "sleep":
                time.sleep(step.number * self.scale / 1000)
            elif step.kind == "eof":
                self.brain.close_input()
                self.exchange.append("> (end of input)")
                self.last_send = time.monotonic()
                input_closed = True
            elif step.kind == "exit-within":
                self._drain_to_exit(step, step.number)
                ended = True
            last = step
        if not ended:
            if not input_closed:
                self._send(b"END\n")
            self._drain_to_exit(last, None)
        self.check_output(last)

    def check_output(self, step: Step) -> None:
        """Every line printed is a protocol line; none matches a @forbid pattern; no internal errors."""
        rule = PROTOCOL_LINE if self.strict else MANAGER_LINE
        for line in self.seen:
            if not rule.fullmatch(line):
                raise self._fail(step, f"not a protocol line: {line!r}")
            if self.strict and "internal" in line:
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
