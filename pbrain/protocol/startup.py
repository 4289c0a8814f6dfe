"""How long ago the brain was launched: managers such as the Gomocup judge start the first move's clock when they
start the process, so the time spent starting up (the one-file build unpacks itself first) is charged to move 1.
"""
from __future__ import annotations

import os
import sys
from typing import Optional


def _linux_age_s(pid: int) -> Optional[float]:
    """Seconds since process `pid` started, from /proc (None where that cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as uptime:
            up_s = float(uptime.read().split()[0])
        return max(0.0, up_s - int(fields[19]) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return None


def _launcher_pid() -> int:
    """The one-file build's launcher (a parent process running the same executable), or this process."""
    if getattr(sys, "frozen", False):
        try:
            if os.readlink(f"/proc/{os.getppid()}/exe") == os.readlink("/proc/self/exe"):
                return os.getppid()
        except OSError:
            pass
    return os.getpid()


def process_age_ms() -> float:
    """Milliseconds since this brain was launched (its one-file launcher included); 0 where the system does not
    say (only Linux's /proc is read)."""
    if not sys.platform.startswith("linux"):
        return 0.0
    age = _linux_age_s(_launcher_pid())
    return 0.0 if age is None else age * 1000.0
