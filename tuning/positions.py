"""Turn game records into labelled training positions: the evaluation's features and the game's result.

The evaluation is linear in its weights: eval = w . x, where x counts, over the empty cells, each line pattern (four
per cell) and each threat class, for the side to move (+) and for the side that waits (-), plus 1 for the tempo
(`features`). So fitting the weights is a logistic regression of the result on x (`fit.py`).

A position is kept when it is quiet enough for its result to say something about its shape: the side to move cannot
win at once or make an open four, and the opponent has no five to block (those are the search's business).

    python -m tuning.positions games.jsonl --out positions.npz
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from pbrain import patterns
from pbrain.board import Board
from pbrain.patterns import Pattern, Pattern4
from pbrain.rules import Rule

FEATURES: Tuple[str, ...] = tuple(
    f"{role}_{kind}_{name}" for role in patterns.ROLES
    for kind, names in (("line", [p.name for p in Pattern]), ("class", [k.name for k in Pattern4]))
    for name in names) + ("tempo",)
"""Feature names, in the order of the weight vector (mover's lines, mover's classes, waiter's lines, waiter's
classes, tempo)."""
NUM_PATTERNS = len(Pattern)
NUM_CLASSES = len(Pattern4)


def code_matrix(rule: Rule) -> np.ndarray:
    """float64[2 colours, NUM_CODES, lines + classes]: how many of each line pattern, and which class, a cell with
    each pattern code has, per colour (classes differ by colour under renju)."""
    classes = patterns.code_classes(rule)
    out = np.zeros((2, patterns.NUM_CODES, NUM_PATTERNS + NUM_CLASSES))
    for code, combo in enumerate(patterns.PATTERN_COMBOS):
        for p in combo:
            out[:, code, p] += 1
        for ci in range(2):
            out[ci, code, NUM_PATTERNS + (classes[ci * patterns.NUM_CODES + code] & 15)] = 1
    return out


def features(board: Board, matrix: np.ndarray) -> np.ndarray:
    """The feature vector x of the position for the side to move (eval = w . x); `matrix` is code_matrix(rule)."""
    mover = board.side
    out = np.zeros(len(FEATURES))
    empties = [c for c in board.playable if board.stone(c) == 0]
    half = NUM_PATTERNS + NUM_CLASSES
    for part, colour, sign in ((0, mover, 1.0), (1, 3 - mover, -1.0)):
        codes = np.bincount([board.pattern_code(c, colour) for c in empties], minlength=patterns.NUM_CODES)
        out[part * half:(part + 1) * half] = sign * (codes @ matrix[colour - 1])
    out[-1] = 1.0
    return out


def quiet(board: Board) -> bool:
    """No win in one or two for the side to move and no five for the opponent to block."""
    mover = board.side
    return (board.count(mover, Pattern4.FIVE) == 0 and board.count(mover, Pattern4.FLEX4) == 0
            and board.count(3 - mover, Pattern4.FIVE) == 0)


def game_positions(record: dict) -> Iterator[Tuple[Board, float]]:
    """Each quiet position of a game after its opening, with the result for the side to move (1 win, 0.5 draw,
    0 loss). The same Board object is yielded again and again, one move further each time."""
    rule = Rule[record["rule"].upper()]
    board = Board(record["size"], record["size"], int(rule))
    opening = len(record["opening"])
    for ply, (x, y) in enumerate(record["moves"]):
        if ply >= opening and quiet(board):
            winner = record["winner"]
            yield board, 0.5 if winner == 0 else float(winner == board.side)
        board.play(x, y)


def extract(records: Iterable[dict]) -> Dict[str, np.ndarray]:
    """Features, labels, rule names and game numbers of every kept position of every game."""
    rows: List[np.ndarray] = []
    labels: List[float] = []
    rules: List[str] = []
    games: List[int] = []
    matrices: Dict[str, np.ndarray] = {}
    for number, record in enumerate(records):
        rule = record["rule"]
        if rule not in matrices:
            matrices[rule] = code_matrix(Rule[rule.upper()])
        for board, label in game_positions(record):
            rows.append(features(board, matrices[rule]))
            labels.append(label)
            rules.append(rule)
            games.append(number)
    return {"x": np.array(rows).reshape(-1, len(FEATURES)), "y": np.array(labels), "rule": np.array(rules),
            "game": np.array(games, dtype=np.int64)}


def read_games(paths: Sequence[Path]) -> Iterator[dict]:
    """The records of JSON-lines game files (blank lines skipped)."""
    for path in paths:
        with path.open() as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: game files in, one .npz of positions out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, nargs="+", help="JSON-lines game files (tuning.games)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    data = extract(read_games(args.games))
    np.savez_compressed(args.out, **data)
    print(f"{len(data['y'])} positions from {len(set(data['game'].tolist()))} games -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
