"""Brains under test behind one interface (pbrain.check.brains): the session in this process, or a brain process
(the built executable). Both take bytes on their input and give protocol lines back; tests and transcripts do not
care which it is. Pentad's own transcripts are in protocol_fixtures/."""
from __future__ import annotations

import os
import queue
import threading
from pathlib import Path
from typing import Callable, List, Optional

from pbrain.check.brains import CLOSED, Brain, ProcessBrain, is_chatter
from pbrain.engine import Engine
from pbrain.protocol import parser
from pbrain.protocol.session import Session

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "protocol_fixtures"
__all__ = ["Brain", "ProcessBrain", "SessionBrain", "CLOSED", "is_chatter", "all_transcripts"]


def all_transcripts() -> List[Path]:
    """Every transcript of protocol_fixtures/, sorted."""
    return sorted(FIXTURES.glob("*.txt"))


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
