"""The package's layers: imports point one way (core <- evaluation <- search <- engine <- protocol, front ends), the
front ends and the protocol use only the public API, and the one hot-core list is what gets compiled and what
PENTAD_INTERPRETED=1 loads from source."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest

import pbrain
from pbrain import hotcore

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pbrain"

RANK: Dict[str, float] = {
    "hotcore": 0, "params": 0,
    "core": 1, "evaluation": 2, "search": 3, "mcts": 4, "connect4": 5,
    "levels": 6, "timeman": 6, "records": 6, "engine": 7, "analysis": 8,
    "pbrain": 8.5,  # the public API (pbrain/__init__.py): what the front ends and the protocol build on
    "protocol": 9, "frontends": 9, "bench": 9,
    "check": 9.5,  # the conformance check reads the protocol's own definition of a protocol line
    "cli": 10, "__main__": 11,
}
"""A module may import its own group and groups of a lower rank only. A group is a subpackage (core, search, ...)
or a top-level module (engine, records, ...)."""
PUBLIC_API = {"pbrain", "pbrain.engine", "pbrain.analysis", "pbrain.records", "pbrain.levels", "pbrain.params",
              "pbrain.timeman", "pbrain.core.rules"}
"""What the protocol and the front ends may import from the layers below them (Connect Four's front end also reads
pbrain.connect4, the game it plays)."""
API_ONLY = ("protocol", "frontends", "check")


def module_name(path: Path) -> str:
    """pbrain/core/board.py -> pbrain.core.board; pbrain/core/__init__.py -> pbrain.core."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_sources() -> Dict[str, str]:
    """Every module of the package by dotted name, with its source."""
    return {module_name(path): path.read_text() for path in sorted(PACKAGE.rglob("*.py"))}


def group(module: str) -> str:
    """The layer group of a dotted pbrain module name."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "pbrain"


def imports(source: str, known: set) -> Iterator[Tuple[int, str]]:
    """(line, imported pbrain module) for every import of a pbrain module in `source`, at any depth (including
    imports inside functions and `if not cython.compiled:` blocks). `from pbrain.x import name` counts as importing
    pbrain.x.name when that is a module, else pbrain.x."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pbrain":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"line {node.lineno}: the package uses absolute imports"
            base = node.module or ""
            if base.split(".")[0] != "pbrain":
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield node.lineno, full if full in known else base


def violations(sources: Dict[str, str]) -> List[str]:
    """Every import that points up a layer, or past the public API from the protocol or a front end, and every read
    of an engine's board outside the engine."""
    known = set(sources)
    found = []
    for module, source in sources.items():
        mine = group(module)
        assert mine in RANK, f"{module}: no layer for group {mine!r} (add it to RANK)"
        for line, target in imports(source, known):
            theirs = group(target)
            if theirs != mine and RANK[theirs] >= RANK[mine]:
                found.append(f"{module}:{line} imports {target} ({theirs} is not below {mine})")
            elif mine in API_ONLY and theirs != mine and target not in PUBLIC_API and \
                    not (mine == "frontends" and theirs == "connect4") and \
                    not (mine == "check" and target == "pbrain.protocol.parser"):
                found.append(f"{module}:{line} imports {target}, not the public API")
        if mine in API_ONLY:
            for number, text in enumerate(source.splitlines(), 1):
                if "engine.board" in text or "engine._board" in text:
                    found.append(f"{module}:{number} reads the engine's board")
    return found


def test_imports_point_down_the_layers() -> None:
    assert violations(package_sources()) == []


@pytest.mark.parametrize("module, planted, expected", [
    ("pbrain.core.board", "from pbrain.search import searcher\n", "search is not below core"),
    ("pbrain.evaluation.static", "import pbrain.engine\n", "engine is not below evaluation"),
    ("pbrain.search.movegen", "from pbrain import analysis\n", "analysis is not below search"),
    ("pbrain.protocol.session", "from pbrain.search.tt import entries_for\n", "not the public API"),
    ("pbrain.frontends.play", "from pbrain.core.board import Board\n", "not the public API"),
    ("pbrain.frontends.play", "from pbrain.protocol import parser\n", "protocol is not below frontends"),
    ("pbrain.frontends.analyze", "def f(engine):\n    return engine.board.stone(0)\n", "reads the engine's board"),
])
def test_a_planted_violation_is_reported(module: str, planted: str, expected: str) -> None:
    sources = package_sources()
    sources[module] += "\n" + planted
    found = violations(sources)
    assert len(found) == 1 and expected in found[0], found


def test_no_package_folder_is_crowded() -> None:
    for folder in [PACKAGE, *(p for p in PACKAGE.iterdir() if (p / "__init__.py").exists())]:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        assert len(modules) <= 12, f"{folder.relative_to(ROOT)} holds {len(modules)} modules"


# --- the hot core ----------------------------------------------------------------------------------------------------
def test_hot_core_list_matches_the_typed_modules() -> None:
    """Every module with C types (a .pxd beside it) is on the one list, and every listed module exists."""
    typed = {module_name(path.with_suffix(".py")) for path in PACKAGE.rglob("*.pxd")}
    assert typed == set(hotcore.HOT_CORE)
    for name in hotcore.HOT_CORE:
        assert (ROOT / hotcore.source_path(name)).is_file()


LOADED = """
import importlib, json, sys
import pbrain
from pbrain import hotcore
files = {name: importlib.import_module(name).__file__ for name in hotcore.HOT_CORE}
print(json.dumps({"mode": pbrain.mode(), "files": files}))
"""


def loaded_files(interpreted: bool) -> dict:
    """The mode and the file every hot-core module was loaded from, in a fresh process."""
    env = dict(os.environ)
    env.pop("PENTAD_INTERPRETED", None)
    if interpreted:
        env["PENTAD_INTERPRETED"] = "1"
    out = subprocess.run([sys.executable, "-c", LOADED], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    return json.loads(out.stdout)


def compiled_modules(files: Dict[str, str]) -> List[str]:
    """The modules loaded from a compiled extension rather than their .py source."""
    return [name for name, path in files.items() if not path.endswith(".py")]


def test_interpreted_mode_loads_every_hot_module_from_source() -> None:
    loaded = loaded_files(interpreted=True)
    assert loaded["mode"] == "interpreted"
    assert compiled_modules(loaded["files"]) == []
    for name, path in loaded["files"].items():
        assert Path(path).resolve() == (ROOT / hotcore.source_path(name)).resolve()


@pytest.mark.skipif(not pbrain.compiled(), reason="needs the compiled core to tell the two apart")
def test_the_interpreted_check_sees_compiled_modules() -> None:
    """The check above would fail were the finder to miss a module: without the switch every module is compiled."""
    loaded = loaded_files(interpreted=False)
    assert loaded["mode"] == "compiled"
    assert sorted(compiled_modules(loaded["files"])) == sorted(hotcore.HOT_CORE)
