"""The static evaluation: per-cell values by pattern code, the evaluation network and their fitted weights (data).

Importing the package hands the board its tables (core.board.use_evaluation): the board keeps the sums, the values
are the evaluation's.
"""
from pbrain.core import board as _board
from pbrain.evaluation import values as _values

_board.use_evaluation(_values)
