"""Pentad: a Gomoku / Renju engine, and the Python API to it.

    >>> import pbrain
    >>> engine = pbrain.Engine(15, rule=pbrain.Rule.FREESTYLE)
    >>> for point in pbrain.parse_moves("h8 i9 h9", 15, 15):
    ...     engine.play(*point)
    >>> result = engine.think(pbrain.Limits(max_depth=4))
    >>> pbrain.format_point(result.move, 15) in ("h7", "h10")
    True

The names below (`__all__`) are the API: the engine facade and its value objects, rules and colours, `h8`
coordinates and game records, playing levels and multi-PV analysis. Everything else in the package is how the
engine works inside (see the README's map of the code).

The hot core (hotcore.HOT_CORE: the board, the evaluation, the search; MCTS; Connect Four) is plain Python in
Cython's pure-Python mode: it runs as it is, and runs compiled when the package was built with a C compiler. Set
PENTAD_INTERPRETED=1 before the first import to force the interpreted core even where compiled modules exist (tests
and benchmarks compare both).
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

__version__ = "1.0.0"

from pbrain.hotcore import HOT_CORE

_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Import finder that loads the hot-core modules (hotcore.HOT_CORE, dotted names) from their .py sources,
    ignoring compiled extensions."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> "importlib.machinery.ModuleSpec | None":
        if fullname not in HOT_CORE:
            return None
        source = os.path.join(_PACKAGE_ROOT, *fullname.split(".")) + ".py"
        if not os.path.exists(source):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


if os.environ.get("PENTAD_INTERPRETED"):
    sys.meta_path.insert(0, _SourceOnlyFinder())

# The public API (imported after the finder is in place, so that it decides how the hot core loads).
from pbrain.analysis import Ranked, n_best  # noqa: E402
from pbrain.core.rules import BLACK, WHITE, Rule, RuleError, opponent  # noqa: E402
from pbrain.engine import BoardError, Engine, Limits, SearchInfo, SearchResult, StopFlag, Threat, check_move  # noqa: E402
from pbrain.levels import Level, level_by_number, level_for_strength  # noqa: E402
from pbrain.params import WIN, WIN_THRESHOLD  # noqa: E402
from pbrain.records import (  # noqa: E402
    Game,
    RecordError,
    format_moves,
    format_point,
    load,
    parse_moves,
    parse_point,
    read_move_list,
    read_psq,
    read_sgf,
    save,
    write_move_list,
    write_psq,
    write_sgf,
)

__all__ = [
    "__version__", "compiled", "mode", "HOT_CORE",
    "Engine", "Limits", "SearchInfo", "SearchResult", "StopFlag", "Threat", "BoardError", "check_move",
    "Rule", "RuleError", "BLACK", "WHITE", "opponent", "WIN", "WIN_THRESHOLD",
    "Game", "RecordError", "load", "save", "read_psq", "write_psq", "read_sgf", "write_sgf", "read_move_list",
    "write_move_list", "parse_point", "format_point", "parse_moves", "format_moves",
    "Level", "level_by_number", "level_for_strength", "n_best", "Ranked",
]


def compiled() -> bool:
    """True when the hot core runs as compiled C extensions, False when it runs interpreted."""
    from pbrain.core import board

    return bool(board.COMPILED)


def mode() -> str:
    """'compiled' or 'interpreted': the mode the hot core runs in."""
    return "compiled" if compiled() else "interpreted"
