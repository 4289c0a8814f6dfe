"""The hot core: the modules compiled by Cython when the package is built (pure-Python mode).

The one list of them, read by setup.py (which compiles them), by the interpreted-mode finder in pbrain/__init__.py
(which loads them from source under PENTAD_INTERPRETED=1) and by the tests. Plain data: importing this module
imports nothing else, so setup.py can read it before the package's dependencies exist.
"""
HOT_CORE = (
    "pbrain.core.board",
    "pbrain.evaluation.static",
    "pbrain.search.movegen",
    "pbrain.search.threats",
    "pbrain.search.dfpn",
    "pbrain.search.tt",
    "pbrain.search.rootthreats",
    "pbrain.search.alphabeta",
    "pbrain.search.searcher",
    "pbrain.mcts.tree",
    "pbrain.mcts.gomoku",
    "pbrain.connect4.bitboard",
    "pbrain.connect4.solver",
    "pbrain.connect4.policy",
)
"""Dotted names of the compiled modules; each is pbrain/<package>/<name>.py with its C types in a .pxd beside it."""


def source_path(module: str) -> str:
    """The .py path of a hot-core module, relative to the repository root (e.g. pbrain/core/board.py)."""
    return module.replace(".", "/") + ".py"
