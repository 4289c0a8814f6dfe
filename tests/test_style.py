"""The code is checked the way it was written: the linter (ruff) and the type checker (mypy), as configured in
pyproject.toml, find nothing."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess:
    """A checker run from the repository root, as `python -m <checker>`."""
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
