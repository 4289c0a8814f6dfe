"""tuning.accumulator: the code-vector (accumulator) evaluation's trainer, checked against the shipped design and by
its gradient."""
from __future__ import annotations

import csv

import numpy as np

from pbrain.core.board import Board
from pbrain.core.patterns import NUM_CODES
from pbrain.core.rules import Rule
from tests.test_eval_net import planted_codes
from tests.test_tuning import random_game
from tuning import accumulator, net, positions


def test_width_one_sums_are_the_shipped_code_sums() -> None:
    rng = np.random.default_rng(1)
    codes = planted_codes(rng, 50, np.arange(50))
    values = rng.normal(0, 1, 2 * NUM_CODES)
    chunk = np.array([3, 0, 17, 49, 8])
    sums, _ = accumulator.Accumulated(codes).sums(values[:, None], chunk)
    assert np.allclose(sums, codes.sums(values, chunk))


def test_the_code_table_gradient_is_the_numerical_one() -> None:
    rng = np.random.default_rng(2)
    codes = planted_codes(rng, 20, np.arange(20))
    acc = accumulator.Accumulated(codes)
    dims = 3
    table = rng.normal(0, 1, (2 * NUM_CODES, dims))
    weights = rng.normal(0, 1, 2 * dims)
    chunk = np.arange(20)

    def objective(t: np.ndarray) -> float:
        return float(np.sum(np.tanh(acc.sums(t, chunk)[0] @ weights)))

    sums, entries = acc.sums(table, chunk)
    to_sums = (1 - np.tanh(sums @ weights) ** 2)[:, None] * weights[None, :]
    grad = accumulator.Accumulated.table_gradient(to_sums, entries, dims)
    used = np.unique(entries[1])
    for column in used[:6]:
        for d in range(dims):
            bumped = table.copy()
            bumped[column, d] += 1e-6
            assert abs((objective(bumped) - objective(table)) / 1e-6 - grad[column, d]) < 1e-3
    unused = np.setdiff1d(np.arange(2 * NUM_CODES), used)
    assert np.all(grad[unused] == 0)


def test_wider_code_vectors_learn_what_one_sum_cannot() -> None:
    """Labels that depend on two different sums of the same codes: a width of 2 learns them, a width of 1 does
    not."""
    rng = np.random.default_rng(4)
    n = 5000
    inputs = rng.poisson(3.0, (n, 5)).astype(float)
    codes = planted_codes(np.random.default_rng(5), n, np.arange(n))
    planted = rng.normal(0, 1, (2 * NUM_CODES, 2))
    sums, _ = accumulator.Accumulated(codes).sums(planted, np.arange(n))
    first, second = sums[:, 0] + sums[:, 2], sums[:, 1] + sums[:, 3]
    p = 1 / (1 + np.exp(-(4.0 * np.abs(first) - 4.0 * np.abs(second))))
    y = (rng.random(n) < p).astype(float)
    held, stop = np.arange(n) % 10 == 0, np.arange(n) % 10 == 1
    losses = {}
    for dims in (1, 2):
        params, _, mean, spread = accumulator.train(inputs, codes, y, ~held & ~stop, stop, dims, hidden=16,
                                                    epochs=25, seed=1, batch=64)
        logits = accumulator.predict(params, (inputs - mean) / spread, accumulator.Accumulated(codes),
                                     np.flatnonzero(held))
        losses[dims] = net.loss(logits, y[held])
    assert losses[2] < losses[1] - 0.2  # measured: width 1 0.61, width 2 0.19


def test_the_command_writes_a_row_a_share_and_width(tmp_path) -> None:
    records = [dict(random_game(Rule.FREESTYLE, seed, 30), eval=str(seed * 37 % 400 - 200), game=f"g{seed}")
               for seed in range(40)]
    labelled = [dict(record, moves=record["moves"][:ply]) for record in records for ply in (10, 20, 30)]
    data = positions.extract(labelled, 300.0, pairs=True)
    assert data["pairs"].shape == (len(data["y"]), positions.PAIR_FEATURES) and data["pairs"].sum() > 0
    np.savez(tmp_path / "positions.npz", **data)
    table = tmp_path / "widths.csv"
    for more in ([], ["--pairs"]):
        assert accumulator.main([str(tmp_path / "positions.npz"), "--dims", "1", "2", "--shares", "0.5", "1",
                                 "--epochs", "2", "--hidden", "4", "--csv", str(table), "--note", "test", *more]) == 0
    rows = list(csv.DictReader(table.open()))
    assert [(row["dims"], row["positions"]) for row in rows] == [("1", "test"), ("2", "test")] * 4
    assert [row["inputs"] for row in rows] == ["classes, codes"] * 4 + ["classes, codes, pairs"] * 4
    assert int(rows[0]["fit"]) < int(rows[2]["fit"]) and all(0 < float(row["held_out_loss"]) < 2 for row in rows)


def test_pair_counts_see_where_strong_cells_stand() -> None:
    board = Board(15, 15, int(Rule.FREESTYLE))
    assert not positions.pair_counts(board).any()
    for x, y in ((7, 7), (0, 0), (8, 7), (0, 14), (9, 7)):  # black's open three on row 8, white far apart
        board.play(x, y)
    counts = positions.pair_counts(board).reshape(2, 3, 3, positions.PAIR_RELATIONS)
    assert board.side == 2 and counts[1, 2, 2, 0] >= 1  # the waiting side (black): its two open-four cells, in line
    assert not counts[0].any()  # white has no strong cell
    mirrored = Board(15, 15, int(Rule.FREESTYLE))
    for x, y in ((7, 7), (0, 0), (8, 7), (0, 14), (9, 7)):
        mirrored.play(14 - x, y)
    assert (positions.pair_counts(mirrored) == positions.pair_counts(board)).all()
