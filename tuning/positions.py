"""Turn game records into labelled training positions: the evaluation's features and a label for the side to move.

The evaluation is linear in its weights: eval = w . x, where x counts, over the empty cells, each line pattern (four
per cell) and each threat class, for the side to move (+) and for the side that waits (-), plus 1 for the tempo
(`features`). So fitting the weights is a logistic regression of the result on x (`fit.py`).

A position is kept when it is quiet enough for its result to say something about its shape: the side to move cannot
win at once or make an open four, and the opponent has no five to block (those are the search's business).

Labels: the game's result (1 win, 0.5 draw, 0 loss), or, for positions labelled by an analyst brain (tuning.label),
its score as a win probability, sigmoid(score / --eval-scale) (a mate: 1 or 0), mixed with the result by
--result-weight.

    python -m tuning.positions games.jsonl --out positions.npz
    python -m tuning.positions labels.jsonl --eval-scale 200 --result-weight 0.2 --out positions.npz
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.patterns import Pattern, Pattern4
from pbrain.core.rules import Rule
from pbrain.evaluation.static import threat_index

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


def code_counts(board: Board) -> np.ndarray:
    """float64[2 x NUM_CODES]: how many empty cells have each pattern code for the side to move (+, first half)
    and for the side that waits (-, second half): the features of the per-code corrections (eval_weights "code").
    Forbidden cells (renju black) are left out: they are worth their class's weight alone (the board's FORBID count)."""
    mover = board.side
    empties = [c for c in board.playable if board.stone(c) == 0]
    out = np.zeros(2 * patterns.NUM_CODES)
    for part, colour, sign in ((0, mover, 1.0), (1, 3 - mover, -1.0)):
        out[part * patterns.NUM_CODES:(part + 1) * patterns.NUM_CODES] = sign * np.bincount(
            [board.pattern_code(c, colour) for c in empties if board.pattern4(c, colour) != Pattern4.FORBID],
            minlength=patterns.NUM_CODES)
    return out


def correction_vector(weights: dict) -> np.ndarray:
    """float64[2 x NUM_CODES]: one rule's per-code corrections (eval_weights "code") in code_counts' order."""
    out = np.zeros(2 * patterns.NUM_CODES)
    for part, role in enumerate(patterns.ROLES):
        for code, correction in weights.get("code", {}).get(role, ()):
            out[part * patterns.NUM_CODES + code] = correction
    return out


def features(board: Board, matrix: np.ndarray, codes: Optional[np.ndarray] = None) -> np.ndarray:
    """The feature vector x of the position for the side to move (eval = w . x + corrections . codes);
    `matrix` is code_matrix(rule), `codes` the position's code_counts (computed when not given)."""
    codes = code_counts(board) if codes is None else codes
    mover = board.side
    out = np.zeros(len(FEATURES))
    half = NUM_PATTERNS + NUM_CLASSES
    for part, colour in enumerate((mover, 3 - mover)):
        out[part * half:(part + 1) * half] = codes[part * patterns.NUM_CODES:(part + 1) * patterns.NUM_CODES] \
            @ matrix[colour - 1]
        out[part * half + NUM_PATTERNS + Pattern4.FORBID] += (1 - 2 * part) * board.count(colour, Pattern4.FORBID)
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


def score_probability(score: str, scale: float, mate: float = 1.0) -> float:
    """An analyst's score for the side to move ('123', '-45', '+M13', '-M8') as the probability that it wins
    (a mate: `mate`, or 1 - `mate` against)."""
    if "M" in score:
        return 1.0 - mate if score.startswith("-") else mate
    return float(1.0 / (1.0 + np.exp(-int(score) / scale)))


def labelled_position(record: dict, eval_scale: float, result_weight: float,
                      mate: float = 1.0) -> Tuple[Board, float]:
    """The position of a tuning.label record and its label: the analyst's win probability mixed with the result."""
    rule = Rule[record["rule"].upper()]
    board = Board(record["size"], record["size"], int(rule))
    for x, y in record["moves"]:
        board.play(x, y)
    winner = record["winner"]
    result = 0.5 if winner == 0 else float(winner == board.side)
    return board, result_weight * result + (1 - result_weight) * score_probability(record["eval"], eval_scale, mate)


def record_positions(record: dict, eval_scale: float, result_weight: float,
                     mate: Optional[float] = 1.0) -> Iterator[Tuple[Board, float]]:
    """The labelled positions of one record: a tuning.label position (it has an "eval"; a mate score is labelled
    `mate`, or left out when `mate` is None) or a whole game's."""
    if "eval" in record:
        if record["eval"] is not None and (mate is not None or "M" not in record["eval"]):
            yield labelled_position(record, eval_scale, result_weight, 1.0 if mate is None else mate)
    else:
        yield from game_positions(record)


PAIR_GRADES = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3)
"""A strong cell's grade by its Pattern4 (0: not strong): 1 a three or two twos in the making (BLOCK3 ..
BLOCK3_PLUS), 2 an open three (FLEX3 .. FLEX3_2X), 3 a four or more (BLOCK4 .. FIVE)."""
PAIR_RELATIONS = 3
"""On one line within 4 cells (the two can meet in one shape), near (within 2, off the lines), apart."""
PAIR_FEATURES = 2 * 3 * 3 * PAIR_RELATIONS


def pair_counts(board: Board) -> np.ndarray:
    """float64[PAIR_FEATURES]: where each side's strong cells stand relative to each other, which the pattern codes
    (one cell's four lines) do not see: for the side to move and then the side that waits, the number of pairs of
    its strong empty cells (PAIR_GRADES) by the lower grade, the higher grade and their relation (PAIR_RELATIONS)."""
    out = np.zeros((2, 3, 3, PAIR_RELATIONS))
    stride = board.stride
    cells = board.candidates()
    for role, colour in enumerate((board.side, 3 - board.side)):
        strong = [(cell, grade) for cell in cells if (grade := PAIR_GRADES[board.pattern4(cell, colour)])]
        for i, (a, grade_a) in enumerate(strong):
            for b, grade_b in strong[i + 1:]:
                dx, dy = abs(a % stride - b % stride), abs(a // stride - b // stride)
                apart = max(dx, dy)
                relation = 0 if (dx == 0 or dy == 0 or dx == dy) and apart <= 4 else 1 if apart <= 2 else 2
                out[role, min(grade_a, grade_b) - 1, max(grade_a, grade_b) - 1, relation] += 1
    return out.reshape(-1)


def extract(records: Iterable[dict], eval_scale: float = 200.0, result_weight: float = 0.0,
            mate: Optional[float] = 1.0, pairs: bool = False) -> Dict[str, np.ndarray]:
    """Features, labels, rule names, board sizes and game numbers (record numbers) of every kept position of every
    record, its threat table index ("threat", evaluation.threat_index) and its code counts as a sparse matrix (rows
    "code_row", columns "code_col", values "code_count"); with `pairs`, also each position's pair_counts
    ("pairs")."""
    rows: List[np.ndarray] = []
    threats: List[int] = []
    labels: List[float] = []
    rules: List[str] = []
    sizes: List[int] = []
    games: List[int] = []
    sparse: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    pair_rows: List[np.ndarray] = []
    matrices: Dict[str, np.ndarray] = {}
    game_numbers: Dict[str, int] = {}
    for record in records:
        number = game_numbers.setdefault(record.get("game", f"record {len(game_numbers)}"), len(game_numbers))
        rule = record["rule"]
        if rule not in matrices:
            matrices[rule] = code_matrix(Rule[rule.upper()])
        for board, label in record_positions(record, eval_scale, result_weight, mate):
            codes = code_counts(board)
            columns = np.flatnonzero(codes)
            sparse.append((np.full(len(columns), len(rows)), columns, codes[columns]))
            rows.append(features(board, matrices[rule], codes))
            if pairs:
                pair_rows.append(pair_counts(board))
            labels.append(label)
            threats.append(threat_index(board, board.side))
            rules.append(rule)
            sizes.append(board.width)
            games.append(number)
    row, col, count = (np.concatenate([part[i] for part in sparse]) if sparse else np.zeros(0) for i in range(3))
    data = {"x": np.array(rows).reshape(-1, len(FEATURES)), "y": np.array(labels), "rule": np.array(rules),
            "size": np.array(sizes, dtype=np.int16), "game": np.array(games, dtype=np.int64),
            "threat": np.array(threats, dtype=np.int32), "code_row": row.astype(np.int32),
            "code_col": col.astype(np.int32), "code_count": count.astype(np.int16)}
    if pairs:
        data["pairs"] = np.array(pair_rows, dtype=np.int16).reshape(-1, PAIR_FEATURES)
    return data


def read_games(paths: Sequence[Path]) -> Iterator[dict]:
    """The records of JSON-lines game files, plain or gzipped (by the .gz suffix: tuning.dataset's shards; blank
    lines skipped)."""
    for path in paths:
        with (gzip.open(path, "rt") if path.suffix == ".gz" else path.open()) as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: game files in, one .npz of positions out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, nargs="+", help="JSON-lines game files (tuning.games)")
    parser.add_argument("--eval-scale", type=float, default=200.0,
                        help="analyst scores: the score that means a 73 %% chance to win (default 200)")
    parser.add_argument("--result-weight", type=float, default=0.0,
                        help="analyst-labelled positions: the result's share of the label (default 0)")
    parser.add_argument("--mate-label", type=float, default=1.0,
                        help="the label of a position the analyst scored as a forced win (1 - it for a loss)")
    parser.add_argument("--no-mates", action="store_true",
                        help="leave out positions the analyst scored as a forced win or loss")
    parser.add_argument("--pairs", action="store_true",
                        help="also where each side's strong cells stand relative to each other (pair_counts)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    data = extract(read_games(args.games), args.eval_scale, args.result_weight,
                   None if args.no_mates else args.mate_label, args.pairs)
    np.savez_compressed(args.out, **data)
    print(f"{len(data['y'])} positions from {len(set(data['game'].tolist()))} games -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
