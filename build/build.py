"""Build the standalone brain: `python build/build.py` -> dist/pbrain-pentad (dist\\pbrain-pentad.exe on Windows).

Compiles the hot core in place first when it is not compiled yet (needs Cython and a C compiler), runs
PyInstaller on build/pbrain-pentad.spec, then checks that the result answers START and runs the compiled core.
Options: --onedir (a folder instead of one file), --quiet.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "build" / "pbrain-pentad.spec"
EXE_NAME = "pbrain-pentad" + (".exe" if os.name == "nt" else "")


def executable(onedir: bool = False) -> Path:
    """Where the build puts the brain."""
    return ROOT / "dist" / "pbrain-pentad" / EXE_NAME if onedir else ROOT / "dist" / EXE_NAME


def ensure_compiled() -> None:
    """Compile the Cython core in place unless it already is (an editable install normally did it)."""
    check = "import pbrain, sys; sys.exit(0 if pbrain.compiled() else 1)"
    if subprocess.run([sys.executable, "-c", check], cwd=ROOT).returncode == 0:
        return
    # through pip, whose isolated build brings the setuptools pyproject.toml asks for (a venv's own is often older)
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-e", "."], cwd=ROOT, check=True)
    if subprocess.run([sys.executable, "-c", check], cwd=ROOT).returncode != 0:
        sys.exit("build.py: the core did not compile (is a C compiler installed?)")


def smoke_test(path: Path) -> float:
    """Start the brain, send START 15, return the seconds until OK; fails loudly otherwise."""
    started = time.perf_counter()
    proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"START 15\n")
    proc.stdin.flush()
    line = proc.stdout.readline().strip()
    elapsed = time.perf_counter() - started
    out, err = proc.communicate(b"END\n", timeout=10)
    if line != b"OK" or err:
        sys.exit(f"build.py: {path} answered {line!r} to START (stderr {err!r})")
    mode = subprocess.run([str(path), "bench", "--core", "--seconds", "0.2"], capture_output=True, text=True)
    if "mode compiled" not in mode.stdout:
        sys.exit(f"build.py: {path} does not run the compiled core:\n{mode.stdout}{mode.stderr}")
    return elapsed


def main() -> int:
    """Build, check and report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--onedir", action="store_true", help="a folder dist/pbrain-pentad/ instead of one file")
    parser.add_argument("--quiet", action="store_true", help="PyInstaller's log at WARN level")
    args = parser.parse_args()
    ensure_compiled()
    env = dict(os.environ, PENTAD_ONEDIR="1" if args.onedir else "0")
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--distpath", str(ROOT / "dist"),
               "--workpath", str(ROOT / "build" / "pyinstaller"), str(SPEC)]
    if args.quiet:
        command[3:3] = ["--log-level", "WARN"]
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    path = executable(args.onedir)
    seconds = smoke_test(path)
    print(f"built {path.relative_to(ROOT)}: {path.stat().st_size / 1e6:.1f} MB, START answered in {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
