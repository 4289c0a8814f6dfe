"""Train the evaluation network (pbrain/eval_net.py) on labelled positions and write pbrain/net_weights.py.

The network sees what the linear evaluation sees, the class counts of both sides and the threat bits
(eval_net's inputs, taken from tuning.positions' features), but combines them through one hidden layer of ReLU
units instead of summing them. It is trained on the log loss of sigmoid(output) against the labels, by Adam on
minibatches; games, not positions, are split by a hash of their names (`tenths`: the split stays put when data is
added): a tenth held out for the report, another tenth for choosing the epoch (early stopping). The output is stored in the search's units: times the scale K that the rule's shipped
linear evaluation has on the same positions (tuning.fit.fit_scale), so margins and windows keep their meaning.

    python -m tuning.net /tmp/leaf-positions.npz /tmp/more.npz --hidden 16      # writes pbrain/net_weights.py
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

from pbrain import eval_net, eval_weights, net_weights
from pbrain.patterns import Pattern, Pattern4
from tuning.fit import fit_scale, weight_vector

NETS_FILE = Path(net_weights.__file__)
CLASSES = len(Pattern4)
HALF = len(Pattern) + CLASSES  # one role's columns of tuning.positions' features: lines, then classes
THREAT_BITS = eval_net.INPUTS - 2 * CLASSES


def tenths(games: np.ndarray) -> np.ndarray:
    """Each position's tenth, 0-9, by its game's name (CRC-32): a game's positions stay together."""
    return np.array([zlib.crc32(str(game).encode()) % 10 for game in games.tolist()])


def net_inputs(x: np.ndarray, threat: np.ndarray) -> np.ndarray:
    """float64[n, eval_net.INPUTS]: the network's inputs from tuning.positions' features `x` (the waiting side's
    columns are negated counts there) and threat indexes."""
    mover = x[:, len(Pattern):HALF]
    waiter = -x[:, HALF + len(Pattern):2 * HALF]
    bits = (threat.astype(int)[:, None] >> np.arange(THREAT_BITS)) & 1
    return np.hstack([mover, waiter, bits]).astype(float)


def forward(net: dict, inputs: np.ndarray) -> np.ndarray:
    """The network's logits (before the scale) for rows of inputs: the function eval_net computes."""
    hidden = np.maximum(inputs @ np.asarray(net["w1"]) + np.asarray(net["b1"]), 0.0)
    return hidden @ np.asarray(net["w2"]) + net["b2"]


def loss(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of the labels `y` against sigmoid(logits)."""
    return float(np.mean(np.logaddexp(0.0, logits) - y * logits))


def train(inputs: np.ndarray, y: np.ndarray, fit: np.ndarray, stop: np.ndarray, hidden: int = 16,
          epochs: int = 50, seed: int = 0, l2: float = 1e-4, batch: int = 256) -> Tuple[dict, float]:
    """Train on the rows `fit`, keeping the epoch with the least loss on the rows `stop`. Returns the network
    (w1 [inputs][hidden], b1, w2, b2: the input standardisation folded into w1 and b1) and that loss."""
    rng = np.random.default_rng(seed)
    mean = inputs[fit].mean(axis=0)
    spread = inputs[fit].std(axis=0)
    spread[spread < 1e-9] = 1.0
    a = (inputs - mean) / spread
    params = [rng.normal(0, 1 / np.sqrt(a.shape[1]), (a.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    rows = np.flatnonzero(fit)
    best, kept, step, rate = np.inf, [p.copy() for p in params], 0, 3e-3
    for epoch in range(epochs):
        if epoch == epochs // 2:
            rate = 1e-3
        order = rng.permutation(rows)
        for start in range(0, len(order), batch):
            chunk = order[start:start + batch]
            pre = a[chunk] @ params[0] + params[1]
            post = np.maximum(pre, 0.0)
            g = (1.0 / (1.0 + np.exp(-(post @ params[2] + params[3][0]))) - y[chunk]) / len(chunk)
            back = np.outer(g, params[2]) * (pre > 0)
            grads = [a[chunk].T @ back + l2 * params[0], back.sum(axis=0), post.T @ g + l2 * params[2],
                     np.array([g.sum()])]
            step += 1
            for p, m, v, d in zip(params, first, second, grads):  # Adam
                m *= 0.9
                m += 0.1 * d
                v *= 0.999
                v += 0.001 * d * d
                p -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        held = loss(np.maximum(a[stop] @ params[0] + params[1], 0.0) @ params[2] + params[3][0], y[stop])
        if held < best:
            best, kept = held, [p.copy() for p in params]
    w1 = kept[0] / spread[:, None]
    b1 = kept[1] - (mean / spread) @ kept[0]
    return {"hidden": hidden, "w1": w1, "b1": b1, "w2": kept[2], "b2": float(kept[3][0])}, best


def linear_scale(x: np.ndarray, y: np.ndarray, threat: np.ndarray, rule: str) -> float:
    """The shipped linear evaluation's K on these positions, in score units (eval_weights' sixteenths undone)."""
    table = np.array(eval_weights.threat_values(rule), dtype=float)[threat.astype(int)]
    return fit_scale(x, y, weight_vector(eval_weights.for_rule(rule)), table) / (1 << eval_weights.SHIFT)


def _numbers(values: Sequence[float]) -> str:
    return "(" + ", ".join(repr(round(float(v), 6) + 0.0) for v in values) + ")"


def render(nets: Dict[str, dict]) -> str:
    """The text of net_weights.py with `nets` as its NETS."""
    lines = ['"""The evaluation network\'s weights (eval_net), per rule; written by tuning.net."""', "", "NETS = {"]
    for rule, net in nets.items():
        lines += [f"    {json.dumps(rule)}: {{", f'        "source": {json.dumps(net["source"])},',
                  f'        "hidden": {net["hidden"]},', f'        "scale": {net["scale"]!r},', '        "w1": (']
        lines += [f"            {_numbers(row)}," for row in net["w1"]]
        lines += ["        ),", f'        "b1": {_numbers(net["b1"])},', f'        "w2": {_numbers(net["w2"])},',
                  f'        "b2": {round(float(net["b2"]), 6) + 0.0!r},', "    },"]
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
    columns = {key: np.concatenate([d[key] for d in data]) for key in ("x", "y", "rule", "game", "threat")}
    nets = dict(net_weights.NETS)
    for rule in sorted(set(columns["rule"].tolist())):
        mask = columns["rule"] == rule
        if mask.sum() < args.min_positions:
            print(f"{rule}: {mask.sum()} positions, fewer than {args.min_positions}: left alone", file=sys.stderr)
            continue
        x, y, games, threat = (columns[key][mask] for key in ("x", "y", "game", "threat"))
        inputs = net_inputs(x, threat)
        tenth = tenths(games)
        held, stop, fit = tenth == 0, tenth == 1, tenth >= 2
        scale = args.scale or linear_scale(x[~held], y[~held], threat[~held], rule)
        net, stop_loss = train(inputs, y, fit, stop, args.hidden, args.epochs, args.seed)
        table = np.array(eval_weights.threat_values(rule), dtype=float)[threat[held].astype(int)]
        linear = (x[held] @ weight_vector(eval_weights.for_rule(rule)) + table) / (scale * (1 << eval_weights.SHIFT))
        report = (f"{int(mask.sum()):,} positions of {len(set(games.tolist()))} games, {args.hidden} hidden units; "
                  f"held-out loss {loss(forward(net, inputs[held]), y[held]):.4f} (the linear evaluation: "
                  f"{loss(linear, y[held]):.4f}), K {scale:.2f}")
        print(f"{rule}: {report}", file=sys.stderr)
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
