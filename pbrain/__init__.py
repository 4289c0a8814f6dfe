"""Pentad: a Gomoku / Renju brain for the Gomocup / Piskvork protocol.

The hot core (board, evaluation, movegen, threats, tt, rootthreats, alphabeta, search; mcts, mcts_gomoku; connect4,
c4solver, mcts_connect4) is plain Python in Cython's pure-Python mode: it runs as it is, and runs compiled when the
package was built with a C compiler. Set PENTAD_INTERPRETED=1 before the first import to force the interpreted core even
where compiled modules exist (tests and benchmarks compare both).
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys

__version__ = "0.1.0"

HOT_CORE = ("board", "evaluation", "movegen", "threats", "tt", "rootthreats", "alphabeta", "search", "mcts",
            "mcts_gomoku", "connect4", "c4solver", "mcts_connect4", "dfpn")


class _SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Import finder that loads the hot-core modules from their .py sources, ignoring compiled extensions."""

    def find_spec(self, fullname, path=None, target=None):  # type: ignore[no-untyped-def]
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in HOT_CORE:
            return None
        source = os.path.join(os.path.dirname(__file__), name + ".py")
        if not os.path.exists(source):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


if os.environ.get("PENTAD_INTERPRETED"):
    sys.meta_path.insert(0, _SourceOnlyFinder())


def compiled() -> bool:
    """True when the hot core runs as compiled C extensions, False when it runs interpreted."""
    from pbrain import board

    return bool(board.COMPILED)


def mode() -> str:
    """'compiled' or 'interpreted': the mode the hot core runs in."""
    return "compiled" if compiled() else "interpreted"
