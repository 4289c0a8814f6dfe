"""What `play` and `analyze` share: sizes and rule names from their command lines, and scores put for people."""
from __future__ import annotations

import re
from typing import Dict, Tuple

from pbrain import params, records
from pbrain.core.rules import Rule

RULES: Dict[str, Rule] = {"freestyle": Rule.FREESTYLE, "standard": Rule.STANDARD, "renju": Rule.RENJU,
                          "caro": Rule.CARO}
"""The rule names the command lines take."""


def parse_size(text: str) -> Tuple[int, int]:
    """'15' -> (15, 15), '15x20' -> (15, 20) (width x height); raises ValueError outside the record sizes."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX*]\s*(\d+)\s*)?", text)
    if match is None:
        raise ValueError(f"bad board size '{text}' (give N or WxH, e.g. 15 or 15x20)")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    low, high = records.MIN_SIZE, records.MAX_SIZE
    if not (low <= width <= high and low <= height <= high):
        raise ValueError(f"board size {width}x{height} out of range ({low}..{high})")
    return width, height


def format_eval(score: int) -> str:
    """A score from the mover's view: '+35', '-120', 'win in 4' (the winner's moves to five), 'loss in 3'."""
    if abs(score) >= params.WIN_THRESHOLD:
        plies = params.WIN - abs(score)
        return f"win in {(plies + 1) // 2}" if score > 0 else f"loss in {max(1, plies // 2)}"
    return f"{score:+d}"
