"""The hot core gives identical results interpreted and compiled; the build compiled it where it could."""
from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pbrain
from pbrain import hotcore

ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def run_workload(name: str, interpreted: bool) -> dict:
    """The workload's result in a fresh process (once per session: the switch test and the board comparison share
    the interpreted board run)."""
    env = dict(os.environ)
    env.pop("PENTAD_INTERPRETED", None)
    if interpreted:
        env["PENTAD_INTERPRETED"] = "1"
    out = subprocess.run([sys.executable, "-m", "tests.modes", name], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=900, check=True)
    return json.loads(out.stdout)


def test_core_is_compiled_where_a_compiler_exists() -> None:
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler on this machine: the interpreted core is the expected build")
    assert pbrain.compiled(), "the install should have compiled the hot core (see README: pip install -e .)"


def test_compiled_modules_are_not_stale() -> None:
    for name in pbrain.HOT_CORE:
        folder, _, base = (ROOT / hotcore.source_path(name)).with_suffix("").as_posix().rpartition("/")
        built = list(Path(folder).glob(f"{base}.*.so")) + list(Path(folder).glob(f"{base}.*.pyd"))
        sources = [p for p in (Path(folder) / f"{base}.py", Path(folder) / f"{base}.pxd") if p.exists()]
        for binary in built:
            for source in sources:
                assert binary.stat().st_mtime >= source.stat().st_mtime, (
                    f"{binary.name} is older than {source.name}: rebuild with `pip install -e .`")


def test_interpreted_switch_works() -> None:
    assert run_workload("board", interpreted=True)["mode"] == "interpreted"


@pytest.mark.skipif(not pbrain.compiled(), reason="needs the compiled core to compare against")
def test_board_identical_interpreted_and_compiled() -> None:
    compiled = run_workload("board", interpreted=False)
    interpreted = run_workload("board", interpreted=True)
    assert compiled["mode"] == "compiled"
    assert compiled["digest"] == interpreted["digest"]


@pytest.mark.skipif(not pbrain.compiled(), reason="needs the compiled core to compare against")
def test_search_identical_interpreted_and_compiled() -> None:
    """The same fixed-depth search gives the same node counts and moves in both modes."""
    compiled = run_workload("search", interpreted=False)
    interpreted = run_workload("search", interpreted=True)
    assert compiled["digest"] == interpreted["digest"]


@pytest.mark.skipif(not pbrain.compiled(), reason="needs the compiled core to compare against")
def test_mcts_identical_interpreted_and_compiled() -> None:
    """Iteration-capped tree searches (gomoku and Connect Four) visit the same moves in both modes."""
    compiled = run_workload("mcts", interpreted=False)
    interpreted = run_workload("mcts", interpreted=True)
    assert compiled["digest"] == interpreted["digest"]
