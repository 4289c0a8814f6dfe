"""Shared fixtures: the standalone brain is built once per test session (only when missing or stale)."""
from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXECUTABLE = ROOT / "dist" / ("pbrain-pentad.exe" if sys.platform == "win32" else "pbrain-pentad")
BUILD_INPUTS = ("pbrain/**/*.py", "pbrain/**/*.pxd", "pbrain/**/*.so", "pbrain/**/*.pyd", "build/build.py",
                "build/*.spec")


def executable_is_stale() -> bool:
    """True when dist/pbrain-pentad is missing or older than anything it is built from."""
    if not EXECUTABLE.is_file():
        return True
    built = EXECUTABLE.stat().st_mtime
    return any(path.stat().st_mtime > built for pattern in BUILD_INPUTS for path in ROOT.glob(pattern))


@pytest.fixture(scope="session")
def brain_exe() -> Path:
    """The built brain, (re)built with build/build.py when missing or older than its sources."""
    if executable_is_stale():
        subprocess.run([sys.executable, str(ROOT / "build" / "build.py"), "--quiet"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    assert EXECUTABLE.is_file() and not executable_is_stale()
    return EXECUTABLE


@pytest.fixture
def no_collector_pauses() -> Iterator[None]:
    """For tests that time the brain in this process: the objects earlier tests left are frozen out of the cyclic
    collector, whose full passes over them took up to 75 ms (more on a slow CI machine) and once made a 400 ms
    watchdog answer 113 ms late."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
