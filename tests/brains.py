"""Brains under test behind one interface: the session in this process, or a brain process (the built executable).

Both take bytes on their input and give protocol lines back; tests and transcripts do not care which it is.
"""
from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional, Sequence

from pbrain.engine import Engine
from pbrain.protocol import parser
from pbrain.protocol.session import Session

ROOT = Path(__file__).resolve().parent.parent
CLOSED = "\x00closed"
"""read_line's answer once the brain's output has ended."""


class Brain:
    """A running brain: send bytes, read reply lines, close its input, wait for it to exit."""

    def send(self, data: bytes) -> None:
        """Write raw bytes to the brain's input."""
        raise NotImplementedError

    def read_line(self, timeout: float) -> Optional[str]:
        """The next output line, None after `timeout` seconds, or CLOSED when output has ended."""
        raise NotImplementedError

    def close_input(self) -> None:
        """End of the brain's input (EOF)."""
        raise NotImplementedError

    def wait_exit(self, timeout: float) -> bool:
        """True when the brain has exited (within `timeout` seconds)."""
        raise NotImplementedError

    def kill(self) -> None:
        """Stop it, whatever it is doing."""

    def problems(self) -> List[str]:
        """Anything the brain did wrong outside its replies (stderr output, lines that needed repair)."""
        return []

    def line(self, text: str) -> None:
        """Send one text line with LF."""
        self.send(text.encode() + b"\n")

    def reply(self, timeout: float = 30.0, skip_chatter: bool = True) -> str:
        """The next line, skipping MESSAGE / DEBUG lines by default; AssertionError on timeout or exit."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"no reply within {timeout} s")
            if line == CLOSED:
                raise AssertionError("the brain's output ended")
            if not (skip_chatter and is_chatter(line)):
                return line

    def __enter__(self) -> "Brain":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def is_chatter(line: str) -> bool:
    """MESSAGE and DEBUG lines: information, not replies."""
    return line.startswith("MESSAGE") or line.startswith("DEBUG")


class _Collector:
    """The session's output in this process: every line, and whether the session relied on the writer's repair."""

    def __init__(self) -> None:
        self.lines: "queue.Queue[str]" = queue.Queue()
        self.repaired: List[str] = []
        self._closed = False
        self._lock = threading.Lock()

    def send(self, line: str) -> None:
        fixed = parser.protocol_line(line)
        with self._lock:
            if self._closed:
                return
            if fixed != line:
                self.repaired.append(line)
            self.lines.put(fixed)

    def close(self) -> None:
        with self._lock:
            self._closed = True


class SessionBrain(Brain):
    """pbrain.session.Session running on a thread of this process, fed through a pipe."""

    def __init__(self, engine_factory: Callable[..., Engine] = Engine) -> None:
        self._read_fd, self._write_fd = os.pipe()
        self.output = _Collector()
        self.session = Session(self.output, engine_factory)
        self.status: Optional[int] = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self.status = self.session.run(self._read_fd)
        self.output.lines.put(CLOSED)

    def send(self, data: bytes) -> None:
        os.write(self._write_fd, data)

    def read_line(self, timeout: float) -> Optional[str]:
        try:
            line = self.output.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line == CLOSED:
            self.output.lines.put(CLOSED)
        return line

    def close_input(self) -> None:
        if self._write_fd >= 0:
            os.close(self._write_fd)
            self._write_fd = -1

    def wait_exit(self, timeout: float) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def kill(self) -> None:
        if self._thread.is_alive():
            try:
                self.send(b"END\n")
            except OSError:
                pass
            self._thread.join(5)
        self.close_input()

    def problems(self) -> List[str]:
        return [f"line needed the writer's repair: {line!r}" for line in self.output.repaired]


class ProcessBrain(Brain):
    """A brain process (the built executable, or `python -m pbrain`) on pipes."""

    def __init__(self, argv: Sequence[str], cwd: Optional[Path] = None) -> None:
        self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self._lines: "queue.Queue[str]" = queue.Queue()
        self._raw: List[bytes] = []
        self._stderr = b""
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    @property
    def pid(self) -> int:
        """The process id."""
        return self.proc.pid

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self._raw.append(raw)
            self._lines.put(raw.decode("ascii", errors="replace").rstrip("\r\n"))
        self._lines.put(CLOSED)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        self._stderr = self.proc.stderr.read()

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_line(self, timeout: float) -> Optional[str]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line == CLOSED:
            self._lines.put(CLOSED)
        return line

    def close_input(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def wait_exit(self, timeout: float) -> bool:
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        """Stop the brain: SIGTERM first, so the one-file build's bootloader removes its unpacked files from the
        temp folder; SIGKILL if that does not end it."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def problems(self) -> List[str]:
        self.wait_exit(2)
        out = [f"stderr: {self._stderr[:300]!r}"] if self._stderr else []
        non_ascii = [raw for raw in self._raw if any(b > 0x7E or (b < 0x20 and b not in b"\r\n") for b in raw)]
        return out + [f"non-printable output {raw[:80]!r}" for raw in non_ascii]
