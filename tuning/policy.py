"""Fit the search's move ordering to a stronger player's choices: a linear softmax policy over the candidate cells.

The search tries a node's moves in order of a static score (pbrain/search/order_weights.py, read by
movegen.order_values): the sum, over the cell's four line patterns and its threat class, of a weight for the side to
move ("own": what the move makes) and one for the opponent ("opponent": what the move takes away), plus history and
killers. Which moves come first decides what late-move reductions and move-count pruning cut. This fits those
weights to the moves an analyst brain chose (tuning.label writes them as "best"): P(cell) is proportional to
exp(w . x(cell)) over the position's candidate cells (the search's own candidates: empty cells near stones), w by
Newton's method on the log-likelihood with a ridge, and the ordering's weights are w times `--scale`. With `--codes`
each pattern code then gets a correction of its own for each role (order_weights' "code" entry; the ordering reads a
cell's score off a table by code, so they cost the search nothing): the softmax over the candidates of the linear
score plus the corrections, fitted by Adam from zero with a ridge towards zero (a code seen in few positions keeps
about its linear score). `--keep-linear` keeps the shipped line and class weights and fits the corrections alone.

    python -m tuning.policy labels.jsonl --dry-run      # drop --dry-run to write pbrain/search/order_weights.py
    python -m tuning.policy data/freestyle-15/shard-*.jsonl.gz --keep-linear --codes --dry-run

It prints, on the training positions and on a tenth of the games held out, how often the analyst's move is the
first (top 1) or among the first three of each ordering, and its mean rank, for the shipped weights and the fit.
Classes and patterns that no training position has (the mover's open four or five: the search answers those before
it orders anything) keep the shipped weights. Labels are tuning.label's JSON lines or tuning.dataset's shards
(`.jsonl.gz`); a position the analyst scores as lost for the side to move (`-M...`) says little about which move is
best and is left out.
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
from pbrain.core.patterns import NUM_PATTERNS, Pattern4
from pbrain.core.rules import Rule
from pbrain.search import movegen, order_weights
from tuning.fit import render, split_by_game
from tuning.net import adam_step

NUM_CLASSES = len(Pattern4)
FEATURES = 2 * NUM_PATTERNS + 2 * NUM_CLASSES
"""Per candidate cell: own line pattern counts, the opponent's, own class (one-hot), the opponent's."""
WEIGHTS_FILE = Path(order_weights.__file__)

Example = Tuple[np.ndarray, int, np.ndarray]
"""A position: its candidates' features (rows), the index of the analyst's move among them, and the shipped
ordering's scores of the candidates."""


class CodePositions:
    """Labelled positions as the ordering sees them, one row a candidate cell (the search's candidates: empty cells
    near stones, less renju black's forbidden points): its pattern code for the side to move (`own`) and for the
    opponent (`opponent`); per position the first row (`starts`, one more at the end), the analyst's move among
    its rows (`best`), the mover's colour index and the game (`games`)."""

    def __init__(self, records: Iterable[dict], rule: Rule) -> None:
        own: List[int] = []
        opponent: List[int] = []
        starts: List[int] = []
        best: List[int] = []
        movers: List[int] = []
        games: List[str] = []
        boards: Dict[int, Board] = {}
        for index, record in enumerate(records):
            board = boards.get(record["size"])
            if board is None:
                board = boards[record["size"]] = Board(record["size"], record["size"], int(rule))
            board.reset()
            for x, y in record["moves"]:
                board.play(x, y)
            mover = board.side
            cells = [c for c in board.candidates() if not (board.renju and mover == 1 and board.is_forbidden(c))]
            target = board.index(*record["best"])
            if target not in cells:
                continue
            starts.append(len(own))
            best.append(cells.index(target))
            movers.append(mover - 1)
            games.append(str(record.get("game", index)))
            own.extend(board.pattern_code(c, mover) for c in cells)
            opponent.extend(board.pattern_code(c, 3 - mover) for c in cells)
        starts.append(len(own))
        self.own = np.array(own, dtype=np.int64)
        self.opponent = np.array(opponent, dtype=np.int64)
        self.starts = np.array(starts, dtype=np.int64)
        self.best = np.array(best, dtype=np.int64)
        self.movers = np.array(movers, dtype=np.int64)
        self.games = np.array(games)

    def __len__(self) -> int:
        return len(self.best)

    def subset(self, keep: np.ndarray) -> "CodePositions":
        """The positions where `keep` is True."""
        out = CodePositions.__new__(CodePositions)
        index = np.nonzero(keep)[0]
        lengths = self.starts[index + 1] - self.starts[index]
        rows = np.concatenate([np.arange(self.starts[i], self.starts[i + 1]) for i in index]) if len(index) else \
            np.zeros(0, dtype=np.int64)
        out.own, out.opponent = self.own[rows], self.opponent[rows]
        out.starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        out.best, out.movers, out.games = self.best[index], self.movers[index], self.games[index]
        return out

    def cell_movers(self) -> np.ndarray:
        """Each row's mover colour index."""
        return np.repeat(self.movers, np.diff(self.starts))

    def scores(self, table: Sequence[int]) -> np.ndarray:
        """Each row's static ordering score under an order_values table (what the search would use)."""
        table = np.asarray(table)
        n = patterns.NUM_CODES
        mover = self.cell_movers()
        return table[2 * mover * n + self.own] + table[(2 * (1 - mover) + 1) * n + self.opponent]


def code_features(rule: Rule) -> np.ndarray:
    """float[2 colours, NUM_CODES, NUM_PATTERNS + NUM_CLASSES]: a pattern code's line pattern counts and its class
    (one-hot) for each colour: one side's half of a candidate's FEATURES, read by code."""
    classes = patterns.code_classes(rule)
    n = patterns.NUM_CODES
    out = np.zeros((2, n, NUM_PATTERNS + NUM_CLASSES))
    for code, combo in enumerate(patterns.PATTERN_COMBOS):
        for p in combo:
            out[:, code, p] += 1
        for ci in range(2):
            out[ci, code, NUM_PATTERNS + (classes[ci * n + code] & 15)] = 1
    return out


def linear_examples(positions: CodePositions, rule: Rule, table: Sequence[int]) -> List[Example]:
    """The linear fit's examples of `positions` (features by code_features; the scores of an order_values table)."""
    features = code_features(rule)
    scores = positions.scores(table)
    examples = []
    for i in range(len(positions)):
        rows = slice(positions.starts[i], positions.starts[i + 1])
        mover = positions.movers[i]
        own = features[mover][positions.own[rows]]
        opponent = features[1 - mover][positions.opponent[rows]]
        x = np.hstack([own[:, :NUM_PATTERNS], opponent[:, :NUM_PATTERNS], own[:, NUM_PATTERNS:],
                       opponent[:, NUM_PATTERNS:]])  # FEATURES' order: lines, then classes
        examples.append((x, int(positions.best[i]), scores[rows]))
    return examples


def fit_codes(positions: CodePositions, rule: Rule, table: Sequence[int], scale: float, ridge: float,
              iterations: int = 150, rate: float = 0.05) -> Tuple[np.ndarray, np.ndarray]:
    """Per-code corrections (in ordering units, one array a role) that maximise the softmax log-likelihood of the
    analyst's moves, over the scores of `table` (order_values without corrections) divided by `scale`, less
    ridge / 2 * |corrections|^2 (the log-likelihood a position; Adam, `iterations` full-data steps). A cell whose
    class is FORBID for its colour takes no correction (patterns.code_values gives it its class weight alone)."""
    n = patterns.NUM_CODES
    classes = np.array(patterns.code_classes(rule)).reshape(2, n) & 15
    mover = positions.cell_movers()
    base = positions.scores(table) / scale
    rows = (positions.own, positions.opponent)
    masks = (classes[mover, positions.own] != int(Pattern4.FORBID),
             classes[1 - mover, positions.opponent] != int(Pattern4.FORBID))
    starts, best, count = positions.starts[:-1], positions.starts[:-1] + positions.best, len(positions)
    segment = np.repeat(np.arange(count), np.diff(positions.starts))
    corrections = [np.zeros(n), np.zeros(n)]
    moment = [np.zeros(n), np.zeros(n)]
    second = [np.zeros(n), np.zeros(n)]
    for step in range(1, iterations + 1):
        z = base + corrections[0][rows[0]] * masks[0] + corrections[1][rows[1]] * masks[1]
        top = np.maximum.reduceat(z, starts)
        e = np.exp(z - top[segment])
        gz = e / np.add.reduceat(e, starts)[segment]
        gz[best] -= 1.0
        gz /= count
        gradients = [np.bincount(rows[role], gz * masks[role], n) + ridge * corrections[role] for role in range(2)]
        adam_step(corrections, moment, second, gradients, step, rate)
    return corrections[0] * scale, corrections[1] * scale


def read_labels(paths: Iterable[Path]) -> Iterator[dict]:
    """Labelled positions (tuning.label's JSON lines, or tuning.dataset's gzipped shards) that have the analyst's
    move, less those it scores as lost for the side to move."""
    for path in paths:
        text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
        for line in text.splitlines():
            if line.strip():
                record = json.loads(line)
                if record.get("best") and not str(record.get("eval", "")).startswith("-M"):
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
    scores = [np.asarray(scores_of(ex), dtype=float) for ex in examples]
    starts = np.concatenate([[0], np.cumsum([len(x) for x in scores])]).astype(np.int64)
    return segment_rank_stats(np.concatenate(scores) if scores else np.zeros(0), starts,
                              np.array([ex[1] for ex in examples], dtype=np.int64))


def segment_rank_stats(scores: np.ndarray, starts: np.ndarray, best: np.ndarray) -> Dict[str, float]:
    """rank_stats of positions laid out in rows: position i's candidates' scores are scores[starts[i]:starts[i + 1]]
    and the analyst's move is its candidate best[i]."""
    if len(best) == 0:
        return {"top1": 0.0, "top3": 0.0, "mean_rank": 0.0, "positions": 0}
    segment = np.repeat(np.arange(len(best)), np.diff(starts))
    chosen = scores[starts[:-1] + best][segment]
    above = np.add.reduceat((scores > chosen).astype(float), starts[:-1])
    level = np.add.reduceat((scores == chosen).astype(float), starts[:-1])
    r = 1 + above + 0.5 * (level - 1)
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


def fit_rule(records: List[dict], rule: str, ridge: float, scale: float, codes: bool = False,
             keep_linear: bool = False, code_ridge: float = 1e-4, iterations: int = 150,
             linear_positions: int = 30000) -> Optional[dict]:
    """Fit one rule's ordering on its labelled positions (the line and class weights on at most `linear_positions`
    training positions, unless `keep_linear`; then, with `codes`, the per-code corrections on all of them) and print
    how the shipped and the fitted orderings rank the analyst's moves; the new order_weights entry, or None when no
    position has a usable label."""
    rule_enum = Rule[rule.upper()]
    positions = CodePositions(records, rule_enum)
    if not len(positions):
        return None
    train, validation = split_by_game(positions.games)
    train_set, validation_set = positions.subset(train), positions.subset(validation)
    shipped = order_weights.for_rule(rule)
    shipped_table = movegen.order_values(rule_enum)
    linear = shipped
    if not keep_linear:
        sample = train_set.subset(np.arange(len(train_set)) < linear_positions)
        examples = linear_examples(sample, rule_enum, shipped_table)
        w = fit(examples, ridge)
        seen = np.zeros(FEATURES, bool)
        for x, _, _ in examples:
            seen |= x.any(axis=0)
        linear = weights_of(w, scale, seen, shipped, "")
    source = (f"tuning.policy on {len(train_set)} positions with an analyst's moves: "
              + ("the shipped line and class weights" if keep_linear else f"line and class weights ridge {ridge}")
              + (f", code corrections ridge {code_ridge}, {iterations} steps" if codes else "")
              + f", scale {scale}; the mover's open four and five keep the hand-set class weights")
    weights: dict = {"line": linear["line"], "class": linear["class"]}
    if codes:
        table = patterns.code_values(rule_enum, weights, patterns.ORDER_ROLES)
        corrections = fit_codes(train_set, rule_enum, table, scale, code_ridge, iterations)
        weights["code"] = {role: tuple((code, int(v)) for code, v in enumerate(np.round(values).astype(int)) if v)
                           for role, values in zip(patterns.ORDER_ROLES, corrections)}
    weights["source"] = source
    fitted_table = patterns.code_values(rule_enum, weights, patterns.ORDER_ROLES)
    print(f"{rule}: {len(train_set)} training positions, {len(validation_set)} held out")
    for name, subset in (("training", train_set), ("validation", validation_set)):
        if len(subset):
            for label, table in (("shipped", shipped_table), ("fitted", fitted_table)):
                _print_stats(f"{name}, {label} ordering", segment_rank_stats(subset.scores(table), subset.starts,
                                                                             subset.best))
    for group in ("line", "class"):
        names = [p.name for p in (patterns.Pattern if group == "line" else Pattern4)]
        for role in patterns.ORDER_ROLES:
            print(f"  {group} {role}: " + ", ".join(f"{n} {old}->{new}" for n, old, new in
                                                    zip(names, shipped[group][role], weights[group][role])))
    if codes:
        print("  code corrections: " + ", ".join(f"{role} {len(weights['code'][role])}"
                                                 for role in patterns.ORDER_ROLES))
    return weights


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: labelled positions in, pbrain/search/order_weights.py out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", type=Path, nargs="+",
                        help="tuning.label's JSON lines or tuning.dataset's shards (with the analyst's moves)")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--scale", type=float, default=1000.0,
                        help="ordering units per unit of log-probability (1000: the static order outweighs history)")
    parser.add_argument("--min-positions", type=int, default=200, help="rules with fewer keep their weights")
    parser.add_argument("--codes", action="store_true", help="fit a correction of each pattern code too")
    parser.add_argument("--keep-linear", action="store_true", help="keep the shipped line and class weights")
    parser.add_argument("--code-ridge", type=float, default=1e-4)
    parser.add_argument("--code-steps", type=int, default=150, help="Adam steps of the code corrections")
    parser.add_argument("--linear-positions", type=int, default=30000,
                        help="training positions of the line and class fit (the first ones)")
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
        weights = fit_rule(records, rule, args.ridge, args.scale, args.codes, args.keep_linear, args.code_ridge,
                           args.code_steps, args.linear_positions)
        if weights is not None:
            new[rule] = weights
    if args.dry_run:
        return 0
    args.out.write_text(render(new, WEIGHTS_FILE))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
