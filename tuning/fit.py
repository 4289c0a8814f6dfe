"""Fit the evaluation's weights to labelled positions and write them into pbrain/evaluation/weights.py.

Texel-style logistic regression: the probability that the side to move wins is sigmoid(eval / K), with
eval = w . x (positions.features). K is fitted first with the current weights, so the new weights stay in the
search's units (its margins and windows are in those units); then w is fitted by Newton's method, with a ridge
penalty that pulls every weight toward its current value (scaled by the data's curvature, so one strength serves
all features). Weights the data cannot see (a side to move's five, which the search scores as a win; DEAD lines and
NONE cells, the zero of the scale) keep their current values. Games, not positions, are split into training and
validation sets; the validation loss before and after is printed.

With --codes N, a second step fits a correction for every pattern code that N or more training positions have
(per role, shared by the colours): the same loss with the line / class weights held, a ridge toward 0. The
corrections let the table value combinations of lines that the sum of their parts misvalues (two twos that make
a double-three threat, a three next to a blocked two).

    python -m tuning.fit positions.npz                  # fit every rule in the file, write pbrain/evaluation/weights.py
    python -m tuning.fit positions.npz --dry-run        # print, write nothing
    python -m tuning.fit positions.npz --codes 200      # and per-code corrections

With --threats N, a last step refits the threat table (a value for each evaluation.threat_index, that is each
combination of the two sides' threats, that N or more training positions have; the rarer entries keep their
current values, 0 where there is none) on top of the weights and corrections, a ridge toward the current values;
--hold-weights fits it alone, on the current weights.

    python -m tuning.fit positions.npz --hold-weights --threats 50
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple, Union

import numpy as np

from pbrain.core import patterns
from pbrain.core.patterns import Pattern, Pattern4
from pbrain.evaluation import weights as eval_weights
from tuning.positions import FEATURES

WEIGHTS_FILE = Path(eval_weights.__file__)
NUM_PATTERNS = len(Pattern)
NUM_CLASSES = len(Pattern4)
HALF = NUM_PATTERNS + NUM_CLASSES


def weight_vector(weights: dict) -> np.ndarray:
    """The weights of one rule (eval_weights' form) as a vector in FEATURES order."""
    parts = []
    for role in patterns.ROLES:
        parts += list(weights["line"][role]) + list(weights["class"][role])
    return np.array(parts + [weights["tempo"]], dtype=float)


def weights_of(vector: np.ndarray, source: str) -> dict:
    """A vector in FEATURES order as one rule's entry of eval_weights.WEIGHTS (rounded to integers)."""
    values = [int(round(v)) for v in vector]
    entry: dict = {"line": {}, "class": {}}
    for r, role in enumerate(patterns.ROLES):
        start = r * HALF
        entry["line"][role] = tuple(values[start:start + NUM_PATTERNS])
        entry["class"][role] = tuple(values[start + NUM_PATTERNS:start + HALF])
    entry["tempo"] = values[-1]
    entry["source"] = source
    return entry


def fixed_columns(hold_from: Optional[int] = None, hold_lines: bool = False) -> np.ndarray:
    """Weights that are never fitted: DEAD lines and NONE cells (the zero point of each count), with `hold_from`
    the threat classes from that Pattern4 up, and with `hold_lines` every line pattern (kept at their current
    values)."""
    fixed = np.zeros(len(FEATURES), bool)
    for r in range(2):
        fixed[r * HALF + Pattern.DEAD] = True
        if hold_lines:
            fixed[r * HALF:r * HALF + NUM_PATTERNS] = True
        fixed[r * HALF + NUM_PATTERNS + Pattern4.NONE] = True
        if hold_from is not None:
            fixed[r * HALF + NUM_PATTERNS + hold_from:r * HALF + HALF] = True
    return fixed


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray, scale: float, offset: "np.ndarray | float" = 0.0) -> float:
    """Mean cross-entropy of the results `y` against sigmoid((x . w + offset) / scale)."""
    z = (x @ w + offset) / scale
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit_scale(x: np.ndarray, y: np.ndarray, w: np.ndarray, offset: "np.ndarray | float" = 0.0) -> float:
    """The K that makes sigmoid(eval / K) fit the results best with the weights `w` and the fixed `offset` of each
    position (golden-section on log K)."""
    lo, hi = np.log(5.0), np.log(1e6)
    ratio = (np.sqrt(5.0) - 1) / 2
    for _ in range(60):
        a = hi - ratio * (hi - lo)
        b = lo + ratio * (hi - lo)
        if log_loss(x, y, w, np.exp(a), offset) < log_loss(x, y, w, np.exp(b), offset):
            hi = b
        else:
            lo = a
    return float(np.exp((lo + hi) / 2))


def _newton(a: np.ndarray, base: np.ndarray, y: np.ndarray, centre: np.ndarray, scale: float, ridge: float,
            iterations: int, start: Optional[np.ndarray] = None) -> np.ndarray:
    """Newton's method for v on the log loss of sigmoid((base + a . v) / scale), from `start` (default `centre`)
    and with a ridge toward `centre` scaled by each column's curvature (so one strength serves all columns)."""
    v = (centre if start is None else start).astype(float).copy()
    curvature = np.mean(a * a, axis=0) / (4 * scale * scale) + 1e-12
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(base + a @ v) / scale))
        gradient = a.T @ (p - y) / (len(y) * scale) + ridge * curvature * (v - centre)
        hessian = (a * (p * (1 - p))[:, None]).T @ a / (len(y) * scale * scale) + np.diag(ridge * curvature)
        step = np.linalg.solve(hessian, gradient)
        v -= step
        if np.max(np.abs(step)) < 1e-3:
            break
    return v


def fit_weights(x: np.ndarray, y: np.ndarray, prior: np.ndarray, scale: float, ridge: float = 1e-3,
                iterations: int = 30, hold_from: Optional[int] = None,
                offset: "np.ndarray | float" = 0.0, hold_tempo: bool = False, hold_lines: bool = False) -> np.ndarray:
    """Newton's method on the penalised log loss of sigmoid((x . w + offset) / scale), over the columns that vary
    in `x` and are not fixed_columns(); the others keep `prior`. Returns the fitted weights (floats, eval units)."""
    free = ~fixed_columns(hold_from, hold_lines) & (np.std(x, axis=0) > 0)
    free[-1] = not hold_tempo  # tempo: a constant column, the intercept
    w = prior.astype(float).copy()
    w[free] = _newton(x[:, free], x[:, ~free] @ prior[~free] + offset, y, prior[free], scale, ridge, iterations)
    return w


def code_matrix_of(data: "np.lib.npyio.NpzFile | Dict[str, np.ndarray]", rows: np.ndarray,
                   columns: np.ndarray) -> np.ndarray:
    """The dense signed code counts (positions.code_counts) of the positions `rows` (a boolean mask over all
    positions), restricted to the code columns `columns`."""
    where = np.full(len(rows), -1, np.int64)
    where[rows] = np.arange(rows.sum())
    column_of = np.full(2 * patterns.NUM_CODES, -1, np.int64)
    column_of[columns] = np.arange(len(columns))
    keep = (where[data["code_row"]] >= 0) & (column_of[data["code_col"]] >= 0)
    out = np.zeros((int(rows.sum()), len(columns)))
    out[where[data["code_row"][keep]], column_of[data["code_col"][keep]]] = data["code_count"][keep]
    return out


def common_codes(data: "np.lib.npyio.NpzFile | Dict[str, np.ndarray]", rows: np.ndarray, minimum: int) -> np.ndarray:
    """The code columns (0 .. 2 x NUM_CODES) that at least `minimum` of the positions `rows` have."""
    present = rows[data["code_row"]]
    return np.flatnonzero(np.bincount(data["code_col"][present], minlength=2 * patterns.NUM_CODES) >= minimum)


def fit_corrections(z: np.ndarray, base: np.ndarray, y: np.ndarray, scale: float, ridge: float,
                    iterations: int = 30) -> np.ndarray:
    """Corrections c fitted on the log loss of sigmoid((base + z . c) / scale), a ridge toward 0."""
    return _newton(z, base, y, np.zeros(z.shape[1]), scale, ridge, iterations)


def corrections_of(columns: np.ndarray, values: np.ndarray) -> dict:
    """Fitted corrections as eval_weights' "code" entry: per role, (code, correction) pairs (rounded, zeros left
    out)."""
    out: dict = {role: [] for role in patterns.ROLES}
    for column, value in zip(columns.tolist(), values.tolist()):
        if int(round(value)):
            out[patterns.ROLES[column // patterns.NUM_CODES]].append((column % patterns.NUM_CODES, int(round(value))))
    return {role: tuple(pairs) for role, pairs in out.items()}


def split_by_game(games: np.ndarray, share: float = 0.1, seed: int = 1) -> Tuple[np.ndarray, np.ndarray]:
    """Boolean masks (train, validation) that keep every game's positions on one side."""
    rng = np.random.default_rng(seed)
    ids = np.unique(games)
    held = set(rng.choice(ids, size=max(1, int(len(ids) * share)), replace=False).tolist()) if len(ids) > 1 else set()
    validation = np.array([g in held for g in games.tolist()], bool)
    return ~validation, validation


def _literal(value: object, indent: int) -> str:
    """`value` (dicts of dicts, tuples of ints, strings, numbers) as Python source, one key a line."""
    if isinstance(value, dict):
        inner = " " * (indent + 4)
        lines = [f"{inner}{json.dumps(key)}: {_literal(item, indent + 4)}," for key, item in value.items()]
        return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # (code, correction) pairs, wrapped
        items = [repr(item) for item in value]
        lines, line = [], ""
        for item in items:
            if line and len(line) + len(item) + indent > 112:
                lines.append(line)
                line = ""
            line += item + ", "
        lines.append(line)
        inner = " " * (indent + 4)
        return "(\n" + "\n".join(inner + text.rstrip() for text in lines) + "\n" + " " * indent + ")"
    return repr(value)


def render(weights: Dict[str, Union[dict, str]], path: Path = WEIGHTS_FILE) -> str:
    """The text of a weights module (eval_weights.py unless `path` names another, such as order_weights.py) with
    `weights` as its WEIGHTS."""
    source = path.read_text()
    start = source.index(" = ", source.index("\nWEIGHTS: ")) + len(" = ")
    end = source.index("\n\n\ndef for_rule")
    return source[:start] + _literal(weights, 0) + source[end:]


def fit_rule(data: "np.lib.npyio.NpzFile | Dict[str, np.ndarray]", mask: np.ndarray, rule: str, ridge: float,
             codes: int = 0, hold_from: Optional[int] = None, threats: int = 0,
             hold_weights: bool = False, hold_tempo: bool = False,
             hold_lines: bool = False) -> Tuple[np.ndarray, dict, dict, tuple]:
    """Fit one rule's weights on the positions `mask` (or keep them: `hold_weights`), with `codes` > 0 the
    corrections of the codes that many training positions have, and with `threats` > 0 the threat table's values
    that many training positions have; returns (vector, "code" entry or {}, report, "threat" entry or ())."""
    x, y, games = data["x"][mask], data["y"][mask], data["game"][mask]
    prior = weight_vector(eval_weights.for_rule(rule))
    # A threat table that is not refitted stays in the evaluation: its values are part of every position's score.
    index = data["threat"][mask]
    shipped = np.array(eval_weights.threat_values(rule), dtype=float)  # the whole table, by threat index
    table_values = shipped[index]  # each position's entry of the shipped table
    kept = table_values if threats == 0 else np.zeros(len(y))
    train, valid = split_by_game(games)
    # K from the whole shipped evaluation (its table too), so that what is refitted stays in the search's units.
    scale = fit_scale(x[train], y[train], prior, table_values[train])
    w = prior.copy() if hold_weights else fit_weights(x[train], y[train], prior, scale, ridge, hold_from=hold_from,
                                                      offset=kept[train], hold_tempo=hold_tempo,
                                                      hold_lines=hold_lines)
    report = {"positions": int(len(y)), "games": int(len(np.unique(games))), "scale": round(scale, 1),
              "train_loss": (log_loss(x[train], y[train], prior, scale, kept[train]),
                             log_loss(x[train], y[train], w, scale, kept[train]))}
    if valid.any():
        report["validation_loss"] = (log_loss(x[valid], y[valid], prior, scale, kept[valid]),
                                     log_loss(x[valid], y[valid], w, scale, kept[valid]))
    base_train, base_valid = x[train] @ w + kept[train], x[valid] @ w + kept[valid]
    corrections: dict = {}
    if codes > 0:
        rows = np.flatnonzero(mask)
        train_rows, valid_rows = np.zeros(len(data["y"]), bool), np.zeros(len(data["y"]), bool)
        train_rows[rows[train]] = True
        valid_rows[rows[valid]] = True
        columns = common_codes(data, train_rows, codes)
        c = fit_corrections(code_matrix_of(data, train_rows, columns), base_train, y[train], scale, ridge)
        report["codes"] = int(len(columns))
        corrections = corrections_of(columns, c)
        base_train = base_train + code_matrix_of(data, train_rows, columns) @ c
        base_valid = base_valid + code_matrix_of(data, valid_rows, columns) @ c
        if valid.any():
            report["validation_loss_codes"] = _loss(base_valid, y[valid], scale)
    table: tuple = ()
    if threats > 0:
        used, counts = np.unique(index[train], return_counts=True)
        used = used[counts >= threats]
        onehot = (index[:, None] == used[None, :]).astype(float)
        rare = table_values * (onehot.sum(axis=1) == 0)  # entries too rare to refit keep their values
        t = _newton(onehot[train], base_train + rare[train], y[train], shipped[used], scale, ridge, 50,
                    np.zeros(len(used)))
        report["threat_entries"] = int(len(used))
        refitted = shipped.copy()
        refitted[used] = t
        table = tuple((i, int(round(v))) for i, v in enumerate(refitted.tolist()) if round(v) != 0)
        if valid.any():
            report["validation_loss_threats"] = (_loss(base_valid + table_values[valid], y[valid], scale),
                                                 _loss(base_valid + rare[valid] + onehot[valid] @ t, y[valid], scale))
    return w, corrections, report, table


def _loss(z: np.ndarray, y: np.ndarray, scale: float) -> float:
    """Mean cross-entropy of `y` against sigmoid(z / scale)."""
    z = z / scale
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: positions in, eval_weights.py out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", type=Path, help=".npz from tuning.positions")
    parser.add_argument("--ridge", type=float, default=1e-3, help="pull toward the current weights (default 1e-3)")
    parser.add_argument("--min-positions", type=int, default=1000, help="rules with fewer positions are left alone")
    parser.add_argument("--codes", type=int, default=0,
                        help="also fit corrections of the codes that this many training positions have (0: none)")
    parser.add_argument("--hold-classes", choices=[k.name for k in Pattern4], default=None,
                        help="keep the threat classes from this one up at their current values")
    parser.add_argument("--threats", type=int, default=0,
                        help="also fit the threat table's entries that this many training positions have (0: none)")
    parser.add_argument("--hold-weights", action="store_true",
                        help="keep the line and class weights (fit only the codes and threats asked for)")
    parser.add_argument("--hold-tempo", action="store_true", help="keep the side to move's bonus at its value")
    parser.add_argument("--hold-lines", action="store_true",
                        help="keep the line weights (fit the classes and the tempo: with the lines at 0 the "
                             "evaluation keeps its faster class-count form)")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    args = parser.parse_args(argv)
    data = np.load(args.positions)
    weights = dict(eval_weights.WEIGHTS)
    for rule in sorted(set(data["rule"].tolist())):
        mask = data["rule"] == rule
        if mask.sum() < args.min_positions:
            print(f"{rule}: {mask.sum()} positions, fewer than {args.min_positions}: left alone", file=sys.stderr)
            continue
        hold = None if args.hold_classes is None else int(Pattern4[args.hold_classes])
        w, corrections, report, table = fit_rule(data, mask, rule, args.ridge, args.codes, hold, args.threats,
                                                 args.hold_weights, args.hold_tempo, args.hold_lines)
        print(f"{rule}: {report}", file=sys.stderr)
        source = (f"tuning.fit on {time.strftime('%Y-%m-%d')}: {report['positions']} positions from "
                  f"{report['games']} games, K {report['scale']}")
        weights[rule] = weights_of(w, source)
        if corrections:
            weights[rule]["code"] = corrections
        table = table or eval_weights.for_rule(rule).get("threat", ())  # not refitted: kept
        if table:
            weights[rule]["threat"] = table
            for index, value in table:
                print(f"  threat {index:3d} {index:09b} {value:8d}", file=sys.stderr)
        for name, old, new in zip(FEATURES, weight_vector(eval_weights.for_rule(rule)), w):
            print(f"  {name:24} {old:7.0f} -> {new:8.1f}", file=sys.stderr)
    if not args.dry_run:
        WEIGHTS_FILE.write_text(render(weights))
        print(f"wrote {WEIGHTS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
