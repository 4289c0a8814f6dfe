"""Fit the search's move ordering to a stronger player's choices: a linear softmax policy over the candidate cells.

The search tries a node's moves in order of a static score (pbrain/search/order_weights.py, read by
movegen.order_values): the sum, over the cell's four line patterns and its threat class, of a weight for the side to
move ("own": what the move makes) and one for the opponent ("opponent": what the move takes away), plus history and
killers. Which moves come first decides what late-move reductions and move-count pruning cut. This fits those
weights to the moves an analyst brain chose (tuning.label writes them as "best"): P(cell) is proportional to
exp(w . x(cell)) over the position's candidate cells (the search's own candidates: empty cells near stones), w by
Newton's method on the log-likelihood with a ridge, and the ordering's weights are w times `--scale`.

    python -m tuning.policy labels.jsonl --dry-run      # drop --dry-run to write pbrain/search/order_weights.py

It prints, on the training positions and on a tenth of the games held out, how often the analyst's move is the
first (top 1) or among the first three of each ordering, and its mean rank, for the shipped weights and the fit.
Classes and patterns that no training position has (the mover's open four or five: the search answers those before
it orders anything) keep the shipped weights.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.patterns import NUM_PATTERNS, Pattern4
from pbrain.core.rules import Rule
from pbrain.search import movegen, order_weights
from tuning.fit import render, split_by_game

NUM_CLASSES = len(Pattern4)
FEATURES = 2 * NUM_PATTERNS + 2 * NUM_CLASSES
"""Per candidate cell: own line pattern counts, the opponent's, own class (one-hot), the opponent's."""
WEIGHTS_FILE = Path(order_weights.__file__)

Example = Tuple[np.ndarray, int, np.ndarray]
"""A position: its candidates' features (rows), the index of the analyst's move among them, and the shipped
ordering's scores of the candidates."""


def cell_features(board: Board, cell: int, mover: int) -> np.ndarray:
    """x(cell) for the side `mover`: see FEATURES."""
    x = np.zeros(FEATURES)
    for part, colour in enumerate((mover, 3 - mover)):
        for d in range(4):
            x[part * NUM_PATTERNS + board.pattern(cell, colour, d)] += 1
        x[2 * NUM_PATTERNS + part * NUM_CLASSES + board.pattern4(cell, colour)] = 1
    return x


def shipped_scores(board: Board, cells: Sequence[int], mover: int, table: Sequence[int]) -> np.ndarray:
    """The static ordering scores of `cells` for `mover` under an order_values table (what the search uses)."""
    n = patterns.NUM_CODES
    own = 2 * (mover - 1) * n
    other = (2 * (2 - mover) + 1) * n
    return np.array([table[own + board.pattern_code(c, mover)] + table[other + board.pattern_code(c, 3 - mover)]
                     for c in cells], dtype=float)


def example(record: dict, table: Sequence[int]) -> Optional[Example]:
    """The training example of a labelled position (None when the analyst's move is not a candidate)."""
    rule = Rule[record["rule"].upper()]
    board = Board(record["size"], record["size"], int(rule))
    for x, y in record["moves"]:
        board.play(x, y)
    mover = board.side
    cells = [c for c in board.candidates() if not (board.renju and mover == 1 and board.is_forbidden(c))]
    best = board.index(*record["best"])
    if best not in cells:
        return None
    features = np.array([cell_features(board, c, mover) for c in cells])
    return features, cells.index(best), shipped_scores(board, cells, mover, table)


def read_labels(paths: Iterable[Path]) -> Iterator[dict]:
    """Labelled positions (tuning.label's JSON lines) that have the analyst's move."""
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                if record.get("best"):
                    yield record


def _loss_gradient_hessian(w: np.ndarray, examples: Sequence[Example],
                           ridge: float) -> Tuple[float, np.ndarray, np.ndarray]:
    loss = 0.5 * ridge * float(w @ w)
    gradient = ridge * w.copy()
    hessian = ridge * np.eye(len(w))
    for x, k, _ in examples:
        z = x @ w
        p = np.exp(z - z.max())
        p /= p.sum()
        loss -= float(np.log(p[k] + 1e-300))
        mean = p @ x
        gradient -= x[k] - mean
        centred = x - mean
        hessian += (centred * p[:, None]).T @ centred
    return loss, gradient, hessian


def fit(examples: Sequence[Example], ridge: float = 1.0, iterations: int = 30) -> np.ndarray:
    """w maximising the softmax log-likelihood of the analyst's moves less ridge / 2 * |w|^2 (Newton's method
    with a backtracking step)."""
    w = np.zeros(FEATURES)
    loss, gradient, hessian = _loss_gradient_hessian(w, examples, ridge)
    for _ in range(iterations):
        step = np.linalg.solve(hessian, gradient)
        t = 1.0
        while True:
            trial = w - t * step
            trial_loss, trial_gradient, trial_hessian = _loss_gradient_hessian(trial, examples, ridge)
            if trial_loss <= loss or t < 1e-3:
                break
            t *= 0.5
        w, loss, gradient, hessian = trial, trial_loss, trial_gradient, trial_hessian
        if float(np.abs(t * step).max()) < 1e-5:
            break
    return w


def rank_stats(examples: Sequence[Example], scores_of) -> Dict[str, float]:
    """Where the analyst's move stands in an ordering (scores_of(example) -> the candidates' scores): the share of
    positions where it is first and among the first three, and its mean rank from 1 (ties count half)."""
    ranks = []
    for ex in examples:
        scores = scores_of(ex)
        k = ex[1]
        ranks.append(1 + float((scores > scores[k]).sum()) + 0.5 * float((scores == scores[k]).sum() - 1))
    r = np.array(ranks)
    return {"top1": float(np.mean(r <= 1)), "top3": float(np.mean(r <= 3)), "mean_rank": float(r.mean()),
            "positions": len(r)}


def weights_of(w: np.ndarray, scale: float, seen: np.ndarray, shipped: dict, source: str) -> dict:
    """order_weights' entry for a rule from a fit: w times `scale`, rounded; features no training position had
    (`seen` False) keep the shipped weights."""
    out: dict = {"line": {}, "class": {}}
    for part, role in enumerate(patterns.ORDER_ROLES):
        for group, size, offset in (("line", NUM_PATTERNS, part * NUM_PATTERNS),
                                    ("class", NUM_CLASSES, 2 * NUM_PATTERNS + part * NUM_CLASSES)):
            old = shipped[group][role]
            out[group][role] = tuple(int(round(scale * w[offset + i])) if seen[offset + i] else int(old[i])
                                     for i in range(size))
    out["source"] = source
    return out


def _print_stats(label: str, stats: Dict[str, float]) -> None:
    print(f"  {label:34s} top1 {stats['top1']:.3f}  top3 {stats['top3']:.3f}  mean rank {stats['mean_rank']:.2f}"
          f"  ({stats['positions']} positions)")


def fit_rule(records: List[dict], rule: str, ridge: float, scale: float) -> Optional[dict]:
    """Fit one rule's ordering on its labelled positions and print how the orderings rank the analyst's moves;
    the new order_weights entry, or None when no position has a usable label."""
    table = movegen.order_values(Rule[rule.upper()])
    examples, games = [], []
    for index, record in enumerate(records):
        ex = example(record, table)
        if ex is not None:
            examples.append(ex)
            games.append(record.get("game", str(index)))
    if not examples:
        return None
    train, validation = split_by_game(np.array(games))
    train_set = [ex for ex, keep in zip(examples, train) if keep]
    validation_set = [ex for ex, keep in zip(examples, validation) if keep]
    w = fit(train_set, ridge)
    seen = np.zeros(FEATURES, bool)
    for x, _, _ in train_set:
        seen |= x.any(axis=0)
    print(f"{rule}: {len(train_set)} training positions, {len(validation_set)} held out")
    for name, subset in (("training", train_set), ("validation", validation_set)):
        if subset:
            _print_stats(f"{name}, shipped ordering", rank_stats(subset, lambda ex: ex[2]))
            _print_stats(f"{name}, fitted ordering", rank_stats(subset, lambda ex: ex[0] @ w))
    shipped = order_weights.for_rule(rule)
    source = (f"tuning.policy on {len(train_set)} positions with an analyst's moves, ridge {ridge}, scale {scale}; "
              "the mover's open four and five keep the hand-set class weights")
    weights = weights_of(w, scale, seen, shipped, source)
    for group in ("line", "class"):
        names = [p.name for p in (patterns.Pattern if group == "line" else Pattern4)]
        for role in patterns.ORDER_ROLES:
            print(f"  {group} {role}: " + ", ".join(f"{n} {old}->{new}" for n, old, new in
                                                    zip(names, shipped[group][role], weights[group][role])))
    return weights


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: labelled positions in, pbrain/search/order_weights.py out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", type=Path, nargs="+", help="tuning.label's JSON lines (with the analyst's moves)")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--scale", type=float, default=1000.0,
                        help="ordering units per unit of log-probability (1000: the static order outweighs history)")
    parser.add_argument("--min-positions", type=int, default=200, help="rules with fewer keep their weights")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    args = parser.parse_args(argv)
    by_rule: Dict[str, List[dict]] = {}
    for record in read_labels(args.labels):
        by_rule.setdefault(record["rule"], []).append(record)
    new = dict(order_weights.WEIGHTS)
    for rule, records in sorted(by_rule.items()):
        if len(records) < args.min_positions:
            print(f"{rule}: {len(records)} positions, fewer than {args.min_positions}: weights kept")
            continue
        weights = fit_rule(records, rule, args.ridge, args.scale)
        if weights is not None:
            new[rule] = weights
    if args.dry_run:
        return 0
    args.out.write_text(render(new, WEIGHTS_FILE))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
