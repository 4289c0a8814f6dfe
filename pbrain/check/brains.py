"""Brains under test behind one interface: bytes go in, protocol lines come out.

ProcessBrain runs any brain executable on pipes and guards against a brain that floods its output or writes lines
without end; the tests add a brain running in their own process (tests/brains.py).
"""
from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import List, Optional, Sequence

CLOSED = "\x00closed"
"""read_line's answer once the brain's output has ended."""
MAX_LINE_BYTES = 64 * 1024
"""A longer output line is cut there (and reported): no protocol line is anywhere near it."""
MAX_OUTPUT_LINES = 20000
"""A brain that prints more lines than this in one scenario is flooding: it is stopped and reported."""


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

    def exit_status(self) -> Optional[int]:
        """The exit status once it has exited (negative: killed by that signal), else None."""
        return None

    def problems(self) -> List[str]:
        """Anything the brain did wrong outside its replies (stderr output, lines that needed repair, a flood)."""
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


class ProcessBrain(Brain):
    """A brain process (any executable with its arguments) on pipes."""

    def __init__(self, argv: Sequence[str], cwd: Optional[Path] = None) -> None:
        self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self._lines: "queue.Queue[str]" = queue.Queue()
        self._raw: List[bytes] = []
        self._stderr = b""
        self.flooded = False
        self.long_lines = 0
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    @property
    def pid(self) -> int:
        """The process id."""
        return self.proc.pid

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        count = 0
        while True:
            raw = self.proc.stdout.readline(MAX_LINE_BYTES)
            if not raw:
                break
            if not raw.endswith(b"\n") and len(raw) >= MAX_LINE_BYTES:
                self.long_lines += 1
            count += 1
            if count > MAX_OUTPUT_LINES:
                self.flooded = True
                self._stop_process()
                break
            self._raw.append(raw)
            self._lines.put(raw.decode("ascii", errors="replace").rstrip("\r\n"))
        self._lines.put(CLOSED)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        kept = bytearray()
        while True:
            chunk = os.read(self.proc.stderr.fileno(), 65536)
            if not chunk:
                break
            if len(kept) < 4096:
                kept += chunk[:4096 - len(kept)]
        self._stderr = bytes(kept)

    def send(self, data: bytes) -> None:
        """Write to the brain; a brain that has exited or closed its input simply gets nothing."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass

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

    def exit_status(self) -> Optional[int]:
        return self.proc.poll()

    def _stop_process(self) -> None:
        """SIGTERM first, so a one-file bundle's bootloader removes its unpacked files; SIGKILL if that does not
        end it."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def kill(self) -> None:
        """Stop the brain, whatever it is doing."""
        self._stop_process()

    def problems(self) -> List[str]:
        self.wait_exit(2)
        out = [f"wrote to stderr: {self._stderr[:300]!r}"] if self._stderr else []
        if self.flooded:
            out.append(f"flooded its output (more than {MAX_OUTPUT_LINES} lines): stopped")
        if self.long_lines:
            out.append(f"printed {self.long_lines} line(s) longer than {MAX_LINE_BYTES} bytes")
        non_ascii = [raw for raw in self._raw if not raw.startswith((b"MESSAGE", b"DEBUG"))
                     and any(b > 0x7E or (b < 0x20 and b not in b"\r\n") for b in raw)]
        return out + [f"non-printable output {raw[:80]!r}" for raw in non_ascii[:3]]
