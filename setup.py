"""Build hook: compile the hot core (Cython pure-Python mode) when a C compiler is present.

Without a compiler (or with PENTAD_NO_COMPILE=1) the package installs as plain Python and runs interpreted.
"""
import os
import runpy
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

HOTCORE_MODULE = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pbrain", "hotcore.py"))
"""pbrain/hotcore.py's namespace: HOT_CORE (the compiled modules) and source_path, read without importing pbrain."""
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": True,
    "infer_types": True,
    "annotation_typing": False,  # Python annotations are for mypy; C types live in the .pxd files
}
JOBS = os.cpu_count() or 1
"""Modules translated (Cython) and compiled (the C compiler) side by side: one per core."""


class OptionalBuildExt(build_ext):
    """build_ext that compiles the modules side by side (one per core unless `--parallel` says otherwise) and falls
    back to the interpreted package instead of failing the install."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: still install
            print(f"pentad: not compiling the core ({exc}); it will run interpreted", file=sys.stderr)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"pentad: could not compile {ext.name} ({exc}); it will run interpreted", file=sys.stderr)


def extensions() -> list:
    if os.environ.get("PENTAD_NO_COMPILE"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    sources = [HOTCORE_MODULE["source_path"](name) for name in HOTCORE_MODULE["HOT_CORE"]]
    sources = [path for path in sources if os.path.exists(path)]
    return cythonize(sources, compiler_directives=DIRECTIVES, quiet=True, nthreads=JOBS)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
