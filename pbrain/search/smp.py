"""Lazy SMP: helper processes that search the same position beside the main search and share its hash table.

A helper is a fork of this process made when a think starts (on systems with os.fork): it inherits the board, the
searcher and the transposition table's shared mapping (tt.zeroed_pages), runs the same think on its own schedule of
depths (search.SKIP_SIZE), and writes what it finds into the table, where the main search reads it. Processes, not
threads: the compiled core holds the interpreter lock. A helper never writes to stdout nor answers anything; the main
search's move is the move. The helpers are killed when the main think ends, and, on Linux, die with the thread
that forked them should it go first (an END while thinking).
"""
from __future__ import annotations

import os
import signal
import sys
from typing import Callable, List, Optional

PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process gets when the thread that forked it exits."""


def available() -> bool:
    """Can this system run helper processes (os.fork)?"""
    return hasattr(os, "fork")


class Helpers:
    """A context: `count` helper processes, each running `run(k)` (k = 1..count) in a fork of this process, from
    entering until leaving (then killed and reaped). With count 0, or without os.fork, it does nothing."""

    def __init__(self, count: int, run: Callable[[int], None]) -> None:
        self.count = count if available() else 0
        self.run = run
        self.pids: List[int] = []

    def __enter__(self) -> "Helpers":
        parent = os.getpid()
        prctl = _prctl() if self.count else None  # found before the fork: the helper calls it first thing
        for k in range(1, self.count + 1):
            try:
                pid = os.fork()
            except OSError:  # no memory or process slot for another: search with the helpers there are
                break
            if pid == 0:
                _helper_main(parent, k, self.run, prctl)
            self.pids.append(pid)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Kill the helpers and wait for them to go (a killed process is gone within milliseconds)."""
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in self.pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.pids = []


def _helper_main(parent: int, k: int, run: Callable[[int], None], prctl: Optional[Callable[..., int]]) -> None:
    """The helper process: die with the forking thread, run, and leave without flushing or cleaning up anything
    inherited (os._exit: the parent's buffered output and its threads' state are not the helper's)."""
    code = 0
    try:
        if prctl is not None:  # at once: a thread that ended before this call would not be noticed
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == parent:  # else the parent went before the line above took effect
            run(k)
    except BaseException:  # noqa: B036 (nothing may escape a fork: a stray exception would run the parent's code)
        code = 1
    finally:
        os._exit(code)


def _prctl() -> Optional[Callable[..., int]]:
    """Linux's prctl from the C library, or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
