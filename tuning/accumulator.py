"""How much an evaluation learns when each pattern code is a vector: the accumulator design, measured before it is
built into the board.

The shipped network (tuning.net) reads two numbers from the pattern codes of the empty cells: the sum of a learned
value per code, for the side to move and for the side that waits. Here each code has a learned vector of `dims`
numbers per role instead, and the network reads the two summed vectors (the accumulators: what the board would keep
up to date by difference when a stone changes the codes around it) beside the same class counts and threat bits, through
one hidden layer of ReLU units. With dims 1 it is the shipped design, retrained; the report gives the held-out loss
of every width asked for, of the shipped network and of the linear evaluation on the same positions, so that the
width is chosen by data before the board pays for it.

    python -m tuning.accumulator /tmp/positions.npz --dims 1 4 16 --hidden 32 --epochs 30
    python -m tuning.accumulator /tmp/leaves.npz --dims 1 8 --shares 0.25 0.5 1 --csv tuning/data/accumulator-widths.csv

`--shares` fits on that share of the fitting games too (a learning curve: does more data still help, and which
width does it help most); `--csv` appends a row a result to a measurement file (tuning/data/accumulator-widths.csv
holds the ones behind the project's notes).
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
import zlib
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from pbrain.core.patterns import NUM_CODES
from pbrain.evaluation import net_weights
from tuning.net import CodeCounts, adam_step, forward, game_names, loss, net_inputs, shift_to_trained, tenths

Params = List[np.ndarray]


class Accumulated:
    """The code counts of CodeCounts, ordered so that each position's mover entries come before its waiter's: the
    two accumulators of a batch are then sums over runs of consecutive entries."""

    def __init__(self, codes: CodeCounts) -> None:
        self.codes = codes

    def entries(self, chunk: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(slot: 2 * row in chunk + 1 for the waiter, column, count), sorted by slot."""
        local, columns, counts = self.codes.select(chunk)
        slot = 2 * local + (columns >= NUM_CODES)
        order = np.argsort(slot, kind="stable")
        return slot[order], columns[order], counts[order]

    def sums(self, table: np.ndarray, chunk: np.ndarray) -> Tuple[np.ndarray, Tuple[np.ndarray, ...]]:
        """float64[rows, 2 * dims]: each row's mover's then waiter's summed code vectors under `table` (2 * NUM_CODES
        x dims), and the entries (for the gradient)."""
        slot, columns, counts = self.entries(chunk)
        dims = table.shape[1]
        out = np.zeros((2 * len(chunk), dims))
        if len(slot):
            starts = np.flatnonzero(np.concatenate([[True], slot[1:] != slot[:-1]]))
            out[slot[starts]] = np.add.reduceat(table[columns] * counts[:, None], starts, axis=0)
        return out.reshape(len(chunk), 2 * dims), (slot, columns, counts)

    @staticmethod
    def table_gradient(to_sums: np.ndarray, entries: Tuple[np.ndarray, ...], dims: int) -> np.ndarray:
        """d loss / d table from d loss / d sums (rows x 2 * dims)."""
        slot, columns, counts = entries
        per_slot = to_sums.reshape(-1, dims)
        grad = np.empty((2 * NUM_CODES, dims))
        for d in range(dims):
            grad[:, d] = np.bincount(columns, weights=counts * per_slot[slot, d], minlength=2 * NUM_CODES)
        return grad


def predict(params: Params, a: np.ndarray, acc: Accumulated, rows: np.ndarray, batch: int = 4096) -> np.ndarray:
    """Logits of `rows` (standardised inputs `a`)."""
    out = []
    for start in range(0, len(rows), batch):
        chunk = rows[start:start + batch]
        sums, _ = acc.sums(params[4], chunk)
        hidden = np.maximum(np.hstack([a[chunk], sums]) @ params[0] + params[1], 0.0)
        out.append(hidden @ params[2] + params[3][0])
    return np.concatenate(out) if out else np.zeros(0)


def train(inputs: np.ndarray, codes: CodeCounts, y: np.ndarray, fit: np.ndarray, stop: np.ndarray, dims: int,
          hidden: int = 32, epochs: int = 30, seed: int = 0, l2: float = 1e-5, batch: int = 256,
          log: Optional[Sequence[str]] = None) -> Tuple[Params, float, np.ndarray, np.ndarray]:
    """Adam on minibatches of the rows `fit`, keeping the epoch with the least loss on `stop`; code vectors start
    small and random. Returns (params: w1, b1, w2, b2, code table; its stop loss; the inputs' mean and spread)."""
    rng = np.random.default_rng(seed)
    mean = inputs[fit].mean(axis=0)
    spread = inputs[fit].std(axis=0)
    spread[spread < 1e-9] = 1.0
    a = (inputs - mean) / spread
    acc = Accumulated(codes)
    width = a.shape[1] + 2 * dims
    params = [rng.normal(0, 1 / np.sqrt(width), (width, hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1), rng.normal(0, 1e-3, (2 * NUM_CODES, dims))]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    rows, stop_rows = np.flatnonzero(fit), np.flatnonzero(stop)
    best, kept, step, rate = np.inf, [p.copy() for p in params], 0, 2e-3
    for epoch in range(epochs):
        if epoch == epochs // 2:
            rate /= 3
        started = time.monotonic()
        order = rng.permutation(rows)
        for start in range(0, len(order), batch):
            chunk = order[start:start + batch]
            sums, entries = acc.sums(params[4], chunk)
            full = np.hstack([a[chunk], sums])
            pre = full @ params[0] + params[1]
            post = np.maximum(pre, 0.0)
            g = (1.0 / (1.0 + np.exp(-(post @ params[2] + params[3][0]))) - y[chunk]) / len(chunk)
            back = np.outer(g, params[2]) * (pre > 0)
            to_sums = back @ params[0][-2 * dims:].T
            grads = [full.T @ back + l2 * params[0], back.sum(axis=0), post.T @ g + l2 * params[2],
                     np.array([g.sum()]), Accumulated.table_gradient(to_sums, entries, dims) + l2 * params[4]]
            step += 1
            adam_step(params, first, second, grads, step, rate)
        held = loss(predict(params, a, acc, stop_rows), y[stop])
        if log is not None:
            print(f"    dims {dims} epoch {epoch + 1}: stop loss {held:.4f} ({time.monotonic() - started:.0f} s)",
                  file=sys.stderr)
        if held < best:
            best, kept = held, [p.copy() for p in params]
    return kept, best, mean, spread


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: positions in, a table of held-out losses out (nothing is written)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", type=Path, nargs="+", help=".npz files from tuning.positions")
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 8, 16], help="code vector widths to compare")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", action="store_true",
                        help="add the positions' pair counts (tuning.positions --pairs) to the inputs, as log(1 + n)")
    parser.add_argument("--shares", type=float, nargs="+", default=[1.0],
                        help="fit on these shares of the fitting games (a learning curve)")
    parser.add_argument("--csv", type=Path, default=None, help="append a row a result to this CSV file")
    parser.add_argument("--note", default="", help="what the positions are, for the CSV")
    parser.add_argument("--verbose", action="store_true", help="the stop loss of every epoch")
    args = parser.parse_args(argv)
    data = [np.load(path) for path in args.positions]
    columns: Dict[str, np.ndarray] = {key: np.concatenate([d[key] for d in data]) for key in ("x", "y", "rule",
                                                                                                 "threat", "size")}
    columns["game"] = game_names(data)
    offsets = np.cumsum([0] + [len(d["y"]) for d in data])
    code_rows = np.concatenate([d["code_row"] + offset for d, offset in zip(data, offsets)])
    mask = columns["rule"] == args.rule
    if not mask.any():
        parser.error(f"no {args.rule} positions")
    x, y, games, threat, sizes = (columns[key][mask] for key in ("x", "y", "game", "threat", "size"))
    renumber = np.cumsum(mask) - 1
    keep = mask[code_rows]
    inputs, rows, cols, counts = shift_to_trained(
        args.rule, sizes, net_inputs(x, threat), renumber[code_rows[keep]],
        np.concatenate([d["code_col"] for d in data])[keep],
        np.concatenate([d["code_count"] for d in data])[keep].astype(float))
    codes = CodeCounts(rows, cols, counts, int(mask.sum()))
    if args.pairs and not all("pairs" in d for d in data):
        parser.error("--pairs needs positions made with tuning.positions --pairs")
    tenth = tenths(games)
    held, stop, fit = tenth == 0, tenth == 1, tenth >= 2
    held_rows = np.flatnonzero(held)
    print(f"{args.rule}: {int(mask.sum()):,} positions of {len(set(games.tolist())):,} games; "
          f"{int(fit.sum()):,} to fit, {int(stop.sum()):,} to stop, {int(held.sum()):,} held out", file=sys.stderr)
    shipped = net_weights.NETS.get(args.rule)
    shipped_loss = float("nan")
    if shipped is not None:
        logits = forward(shipped, inputs[held], CodeCounts(*_rows_of(codes, held_rows), len(held_rows)))
        shipped_loss = loss(logits, y[held])
        print(f"  the shipped network: held-out loss {shipped_loss:.4f}", file=sys.stderr)
    if args.pairs:
        inputs = np.hstack([inputs, np.log1p(np.concatenate([d["pairs"] for d in data])[mask].astype(float))])
    entropy = _entropy(y[held])
    print(f"  the labels' own entropy: {entropy:.4f}", file=sys.stderr)
    share_of = np.array([zlib.crc32(f"share {game}".encode()) % 1000 for game in games.tolist()]) / 1000
    for share in args.shares:
        part = fit & (share_of < share)
        for dims in args.dims:
            began = time.monotonic()
            params, stop_loss, mean, spread = train(inputs, codes, y, part, stop, dims, args.hidden, args.epochs,
                                                    args.seed, log=[] if args.verbose else None)
            a = (inputs - mean) / spread
            held_loss = loss(predict(params, a, Accumulated(codes), held_rows), y[held])
            print(f"  {int(part.sum()):,} fitted, code vectors of {dims:>2}, {args.hidden} hidden: held-out loss "
                  f"{held_loss:.4f} (stop {stop_loss:.4f}; {time.monotonic() - began:.0f} s)", file=sys.stderr)
            if args.csv is not None:
                new = not args.csv.exists()
                with args.csv.open("a", newline="") as handle:
                    out = csv.writer(handle)
                    if new:
                        out.writerow(["date", "rule", "positions", "inputs", "fit", "held_out", "dims", "hidden",
                                      "epochs", "held_out_loss", "shipped_loss", "labels_entropy"])
                    out.writerow([time.strftime("%Y-%m-%d"), args.rule, args.note,
                                  "classes, codes, pairs" if args.pairs else "classes, codes", int(part.sum()),
                                  int(held.sum()), dims, args.hidden, args.epochs, round(held_loss, 4),
                                  round(shipped_loss, 4), round(entropy, 4)])
    return 0


def _rows_of(codes: CodeCounts, rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The code entries of `rows` renumbered 0..len(rows)-1, signed as tuning.positions stores them."""
    local, columns, counts = codes.select(rows)
    return local, columns, np.where(columns < NUM_CODES, 1.0, -1.0) * counts


def _entropy(y: np.ndarray) -> float:
    """The least loss any prediction can have on soft labels `y`."""
    p = np.clip(y, 1e-12, 1 - 1e-12)
    return float(np.mean(-(p * np.log(p) + (1 - p) * np.log(1 - p))))


if __name__ == "__main__":
    sys.exit(main())
