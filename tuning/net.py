"""Train the evaluation network (pbrain/evaluation/network.py) on labelled positions and write
pbrain/evaluation/net_weights.py.

The network sees what the linear evaluation sees, the class counts of both sides and the threat bits
(taken from tuning.positions' features), and two sums of per-pattern-code values over the empty cells of each side
(from the positions' code counts; the values are learned with the network), and combines them through one hidden
layer of ReLU units instead of summing them. It is trained on the log loss of sigmoid(output) against the labels,
by Adam on minibatches; games, not positions, are split by a hash of their names (`tenths`: the split stays put
when data is added): a tenth held out for the report, another tenth for choosing the epoch (early stopping). The
output is stored in the search's units: times the scale K that the rule's shipped linear evaluation has on the
same positions (tuning.fit.fit_scale), so margins and windows keep their meaning.

    python -m tuning.net /tmp/leaf-positions.npz /tmp/more.npz --hidden 16   # writes pbrain/evaluation/net_weights.py
    python -m tuning.net /tmp/leaf-positions.npz --dry-run
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from pbrain.core.board import Board
from pbrain.core.patterns import NUM_CODES, ROLES, Pattern, Pattern4
from pbrain.core.rules import Rule
from pbrain.evaluation import net_weights
from pbrain.evaluation import network as eval_net
from pbrain.evaluation import weights as eval_weights
from tuning.fit import fit_scale, weight_vector
from tuning.positions import code_counts, correction_vector

NETS_FILE = Path(net_weights.__file__)
CLASSES = eval_net.CLASSES
HALF = len(Pattern) + CLASSES  # one role's columns of tuning.positions' features: lines, then classes
CLASS_INPUTS = eval_net.INPUTS - 2
"""The network's inputs before its two code sums."""
THREAT_BITS = CLASS_INPUTS - 2 * CLASSES


def tenths(games: np.ndarray) -> np.ndarray:
    """Each position's tenth, 0-9, by its game's name (CRC-32): a game's positions stay together."""
    return np.array([zlib.crc32(str(game).encode()) % 10 for game in games.tolist()])


def game_names(files: Sequence[Dict[str, np.ndarray]]) -> np.ndarray:
    """The positions' game names over several positions files: tuning.positions numbers the games of each file
    from 0, so the games of the files after the first are named "file index/number" (the first file's names stay,
    and with them its split by tenths)."""
    return np.concatenate([d["game"].astype(str) if i == 0 else np.char.add(f"{i}/", d["game"].astype(str))
                           for i, d in enumerate(files)])


def net_inputs(x: np.ndarray, threat: np.ndarray) -> np.ndarray:
    """float64[n, CLASS_INPUTS]: the network's inputs but the code sums, from tuning.positions' features `x` (the
    waiting side's columns are negated counts there) and threat indexes."""
    mover = x[:, len(Pattern):HALF]
    waiter = -x[:, HALF + len(Pattern):2 * HALF]
    bits = (threat.astype(int)[:, None] >> np.arange(THREAT_BITS)) & 1
    return np.hstack([mover, waiter, bits]).astype(float)


def size_shift(rule: str, size: int) -> Tuple[int, np.ndarray]:
    """What an empty size x size board holds beyond an empty TRAINED_SIZE one among the network's inputs: (class
    NONE cells, code counts as tuning.positions.code_counts gives them). The engine folds it into the hidden biases
    (eval_net.tables); `shift_to_trained` takes it off the inputs, so that positions of every size train one
    network that the engine reads alike."""
    large = Board(size, size, int(Rule[rule.upper()]))
    trained = Board(eval_net.TRAINED_SIZE, eval_net.TRAINED_SIZE, int(Rule[rule.upper()]))
    return large.empty_inputs()[0] - trained.empty_inputs()[0], code_counts(large) - code_counts(trained)


def shift_to_trained(rule: str, sizes: np.ndarray, inputs: np.ndarray, rows: np.ndarray, columns: np.ndarray,
                     counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The inputs (net_inputs) and code counts (rows, columns, signed counts) of positions on boards of `sizes`,
    with each board's size_shift taken off: the class NONE counts of both sides lowered, and entries added to the
    code counts. Positions of TRAINED_SIZE are left as they are."""
    inputs = inputs.copy()
    extra = [(rows, columns, counts)]
    for size in sorted(set(sizes.tolist()) - {eval_net.TRAINED_SIZE}):
        at = np.flatnonzero(sizes == size)
        none, codes = size_shift(rule, size)
        inputs[at, Pattern4.NONE] -= none
        inputs[at, CLASSES + Pattern4.NONE] -= none
        shifted = np.flatnonzero(codes)
        extra.append((np.repeat(at, len(shifted)), np.tile(shifted, len(at)), np.tile(-codes[shifted], len(at))))
    return (inputs,) + tuple(np.concatenate([part[i] for part in extra]) for i in range(3))


class CodeCounts:
    """The positions' pattern-code counts, row by row (compressed rows): columns 0..NUM_CODES-1 count the side to
    move's empty cells with each code, the next NUM_CODES the waiting side's (tuning.positions' code counts, whose
    waiting side is negated: the sign is taken off by column). A row may hold a column more than once (the counts
    add up)."""

    def __init__(self, rows: np.ndarray, columns: np.ndarray, counts: np.ndarray, n: int) -> None:
        order = np.argsort(rows, kind="stable")
        self.columns = columns[order].astype(np.int64)
        self.counts = np.where(self.columns < NUM_CODES, 1.0, -1.0) * counts[order]
        self.starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))]).astype(np.int64)
        self.n = n

    def select(self, chunk: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The entries of rows `chunk`: (row within chunk, column, count)."""
        begin = self.starts[chunk]
        lengths = self.starts[chunk + 1] - begin
        local = np.repeat(np.arange(len(chunk)), lengths)
        index = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths) + np.repeat(begin, lengths)
        return local, self.columns[index], self.counts[index]

    def sums(self, values: np.ndarray, chunk: Optional[np.ndarray] = None) -> np.ndarray:
        """float64[rows, 2]: each row's code sums under `values` (2 x NUM_CODES, the mover's then the waiter's)."""
        chunk = np.arange(self.n) if chunk is None else chunk
        local, columns, counts = self.select(chunk)
        slot = 2 * local + (columns >= NUM_CODES)
        return np.bincount(slot, weights=counts * values[columns], minlength=2 * len(chunk)).reshape(-1, 2)


def forward(net: dict, inputs: np.ndarray, codes: CodeCounts) -> np.ndarray:
    """The network's logits (before the scale) for rows of inputs (net_inputs) and their code counts: the function
    eval_net computes."""
    # the code values are laid out as the linear evaluation's per-code corrections: one reader serves both
    full = np.hstack([inputs, codes.sums(correction_vector({"code": net["codes"]}))])
    hidden = np.maximum(full @ np.asarray(net["w1"]) + np.asarray(net["b1"]), 0.0)
    return hidden @ np.asarray(net["w2"]) + net["b2"]


def loss(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of the labels `y` against sigmoid(logits)."""
    return float(np.mean(np.logaddexp(0.0, logits) - y * logits))


def adam_step(params: Sequence[np.ndarray], first: Sequence[np.ndarray], second: Sequence[np.ndarray],
              grads: Sequence[np.ndarray], step: int, rate: float) -> None:
    """One Adam update of `params` in place from `grads` (step counts from 1; `first` and `second` are the
    moment estimates, updated in place)."""
    for p, m, v, d in zip(params, first, second, grads):
        m *= 0.9
        m += 0.1 * d
        v *= 0.999
        v += 0.001 * d * d
        p -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)


def train(inputs: np.ndarray, codes: CodeCounts, y: np.ndarray, fit: np.ndarray, stop: np.ndarray, hidden: int = 16,
          epochs: int = 50, seed: int = 0, l2: float = 1e-4, batch: int = 256) -> Tuple[dict, float]:
    """Train on the rows `fit`, keeping the epoch with the least loss on the rows `stop`; the code values start at
    zero and are learned with the weights (codes never seen stay zero). Returns the network (w1 [inputs][hidden],
    b1, w2, b2: the standardisation of the other inputs folded into w1 and b1; codes: per role, (code, value) for
    every code with a value) and that loss."""
    rng = np.random.default_rng(seed)
    mean = inputs[fit].mean(axis=0)
    spread = inputs[fit].std(axis=0)
    spread[spread < 1e-9] = 1.0
    a = (inputs - mean) / spread
    width = a.shape[1] + 2
    params = [rng.normal(0, 1 / np.sqrt(width), (width, hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1), np.zeros(2 * NUM_CODES)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    rows = np.flatnonzero(fit)
    stop_rows = np.flatnonzero(stop)
    best, kept, step, rate = np.inf, [p.copy() for p in params], 0, 3e-3
    for epoch in range(epochs):
        if epoch == epochs // 2:
            rate = 1e-3
        order = rng.permutation(rows)
        for start in range(0, len(order), batch):
            chunk = order[start:start + batch]
            full = np.hstack([a[chunk], codes.sums(params[4], chunk)])
            pre = full @ params[0] + params[1]
            post = np.maximum(pre, 0.0)
            g = (1.0 / (1.0 + np.exp(-(post @ params[2] + params[3][0]))) - y[chunk]) / len(chunk)
            back = np.outer(g, params[2]) * (pre > 0)
            to_sums = back @ params[0][-2:].T  # d loss / d (mover's sum, waiter's sum), row by row
            local, columns, counts = codes.select(chunk)
            to_codes = np.bincount(columns, weights=counts * to_sums[local, (columns >= NUM_CODES).astype(int)],
                                   minlength=2 * NUM_CODES)
            grads = [full.T @ back + l2 * params[0], back.sum(axis=0), post.T @ g + l2 * params[2],
                     np.array([g.sum()]), to_codes + l2 * params[4]]
            step += 1
            adam_step(params, first, second, grads, step, rate)
        full = np.hstack([a[stop], codes.sums(params[4], stop_rows)])
        held = loss(np.maximum(full @ params[0] + params[1], 0.0) @ params[2] + params[3][0], y[stop])
        if held < best:
            best, kept = held, [p.copy() for p in params]
    w1 = kept[0].copy()
    w1[:-2] /= spread[:, None]
    b1 = kept[1] - (mean / spread) @ kept[0][:-2]
    values = kept[4]
    net_codes = {role: [(code, float(values[part * NUM_CODES + code])) for code in range(NUM_CODES)
                        if values[part * NUM_CODES + code] != 0.0] for part, role in enumerate(ROLES)}
    return {"hidden": hidden, "w1": w1, "b1": b1, "w2": kept[2], "b2": float(kept[3][0]), "codes": net_codes}, best


def linear_scale(x: np.ndarray, y: np.ndarray, threat: np.ndarray, rule: str) -> float:
    """The shipped linear evaluation's K on these positions, in score units (eval_weights' sixteenths undone)."""
    table = np.array(eval_weights.threat_values(rule), dtype=float)[threat.astype(int)]
    return fit_scale(x, y, weight_vector(eval_weights.for_rule(rule)), table) / (1 << eval_weights.SHIFT)


def _numbers(values: Sequence[float]) -> str:
    return "(" + ", ".join(repr(round(float(v), 6) + 0.0) for v in values) + ")"


def render(nets: Dict[str, dict]) -> str:
    """The text of net_weights.py with `nets` as its NETS."""
    lines = ['"""The evaluation network\'s weights (evaluation.network), per rule; written by tuning.net."""', "",
             "NETS = {"]
    for rule, net in nets.items():
        lines += [f"    {json.dumps(rule)}: {{", f'        "source": {json.dumps(net["source"])},',
                  f'        "hidden": {net["hidden"]},', f'        "scale": {net["scale"]!r},', '        "w1": (']
        lines += [f"            {_numbers(row)}," for row in net["w1"]]
        lines += ["        ),", f'        "b1": {_numbers(net["b1"])},', f'        "w2": {_numbers(net["w2"])},',
                  f'        "b2": {round(float(net["b2"]), 6) + 0.0!r},', '        "codes": {']
        for role in ROLES:
            pairs = ", ".join(f"({code}, {round(float(value), 6) + 0.0!r})" for code, value in net["codes"][role])
            lines.append(f"            {json.dumps(role)}: ({pairs}{',' if len(net['codes'][role]) == 1 else ''}),")
        lines += ["        },", "    },"]
    return "\n".join(lines + ["}", ""])


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: positions in, net_weights.py out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", type=Path, nargs="+", help=".npz files from tuning.positions")
    parser.add_argument("--hidden", type=int, default=16, help=f"hidden units (at most {eval_net.MAX_HIDDEN})")
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-positions", type=int, default=10000, help="rules with fewer positions are left alone")
    parser.add_argument("--scale", type=float, default=0.0,
                        help="the output's scale, score units a unit of logit (default: the linear evaluation's K)")
    parser.add_argument("--data", default="", help="what the positions are, for the weights file's source note")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    args = parser.parse_args(argv)
    if not 0 < args.hidden <= eval_net.MAX_HIDDEN:
        parser.error(f"--hidden must be 1..{eval_net.MAX_HIDDEN}")
    data = [np.load(path) for path in args.positions]
    columns = {key: np.concatenate([d[key] for d in data]) for key in ("x", "y", "rule", "threat")}
    columns["game"] = game_names(data)
    columns["size"] = np.concatenate([d["size"] if "size" in d else np.full(len(d["y"]), eval_net.TRAINED_SIZE)
                                      for d in data])  # files from before sizes were kept: 15x15
    offsets = np.cumsum([0] + [len(d["y"]) for d in data])
    code_rows = np.concatenate([d["code_row"] + offset for d, offset in zip(data, offsets)])
    code_cols = np.concatenate([d["code_col"] for d in data])
    code_entries = np.concatenate([d["code_count"] for d in data])
    nets = dict(net_weights.NETS)
    for rule in sorted(set(columns["rule"].tolist())):
        mask = columns["rule"] == rule
        if mask.sum() < args.min_positions:
            print(f"{rule}: {mask.sum()} positions, fewer than {args.min_positions}: left alone", file=sys.stderr)
            continue
        x, y, games, threat, sizes = (columns[key][mask] for key in ("x", "y", "game", "threat", "size"))
        renumber = np.cumsum(mask) - 1
        keep = mask[code_rows]
        inputs, rows, cols, counts = shift_to_trained(rule, sizes, net_inputs(x, threat), renumber[code_rows[keep]],
                                                      code_cols[keep], code_entries[keep].astype(float))
        codes = CodeCounts(rows, cols, counts, int(mask.sum()))
        tenth = tenths(games)
        held, stop, fit = tenth == 0, tenth == 1, tenth >= 2
        scale = args.scale or linear_scale(x[~held], y[~held], threat[~held], rule)
        net, stop_loss = train(inputs, codes, y, fit, stop, args.hidden, args.epochs, args.seed)
        logits = forward(net, inputs, codes)
        table = np.array(eval_weights.threat_values(rule), dtype=float)[threat[held].astype(int)]
        linear = (x[held] @ weight_vector(eval_weights.for_rule(rule)) + table) / (scale * (1 << eval_weights.SHIFT))
        held_out = (f"held-out loss {loss(logits[held], y[held]):.4f} (the linear evaluation: "
                    f"{loss(linear, y[held]):.4f})" if held.any() else
                    "no game in the held-out tenth (too few games to measure)")
        report = (f"{int(mask.sum()):,} positions of {len(set(games.tolist()))} games, {args.hidden} hidden units; "
                  f"{held_out}, K {scale:.2f}")
        print(f"{rule}: {report}", file=sys.stderr)
        shipped = net_weights.NETS.get(rule)
        shipped_logits = forward(shipped, inputs, codes) if shipped else None
        for size in sorted(set(sizes[held].tolist())):
            at = held & (sizes == size)
            before = "" if shipped_logits is None else f", the shipped network {loss(shipped_logits[at], y[at]):.4f}"
            print(f"  held out on {size}x{size}: {int(at.sum()):,} positions, loss {loss(logits[at], y[at]):.4f}"
                  f"{before}, the linear "
                  f"evaluation {loss(linear[at[held]], y[at]):.4f}", file=sys.stderr)
        data_note = f" ({args.data})" if args.data else ""
        net.update(source=f"tuning.net on {time.strftime('%Y-%m-%d')}: {report}{data_note}", scale=round(scale, 2))
        net["w1"] = [list(row) for row in net["w1"]]
        nets[rule] = net
    if not args.dry_run:
        NETS_FILE.write_text(render(nets))
        print(f"wrote {NETS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
