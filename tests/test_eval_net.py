"""The evaluation network (pbrain/eval_net.py) and its trainer (tuning/net.py)."""
from __future__ import annotations

import numpy as np
import pytest

from pbrain import eval_net, net_weights
from pbrain.board import Board
from pbrain.evaluation import evaluate, threat_index
from pbrain.patterns import Pattern4
from pbrain.rules import Rule
from tests.test_tuning import random_game
from tuning import net, positions


def random_boards(rule: Rule, seed: int, plies: int = 50):
    """The board after each move of test_tuning's random game (the same board, moved on)."""
    board = Board(15, 15, int(rule))
    for x, y in random_game(rule, seed, plies)["moves"]:
        board.play(x, y)
        yield board


def python_value(entry: dict, board: Board) -> int:
    """The network's score of `board` for the side to move, in plain Python from the weights file's entry."""
    me = board.side
    counts = [board.count(me, k) for k in range(len(Pattern4))] + \
        [board.count(3 - me, k) for k in range(len(Pattern4))]
    bits = [(threat_index(board, me) >> b) & 1 for b in range(eval_net.INPUTS - len(counts))]
    inputs = counts + bits
    total = entry["b2"] * entry["scale"]
    for k in range(entry["hidden"]):
        unit = entry["b1"][k] + sum(v * entry["w1"][i][k] for i, v in enumerate(inputs))
        if unit > 0:
            total += unit * entry["w2"][k] * entry["scale"]
    return int(total)


def test_freestyle_is_valued_by_its_network() -> None:
    entry = net_weights.NETS["freestyle"]
    checked = 0
    for seed in range(3):
        for board in random_boards(Rule.FREESTYLE, seed):
            assert board.net_hidden == entry["hidden"]
            assert abs(evaluate(board, board.side) - python_value(entry, board)) <= 1  # summation order
            checked += 1
    assert checked > 60


def test_a_rule_without_a_network_keeps_the_linear_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "standard" not in net_weights.NETS
    assert Board(15, 15, int(Rule.STANDARD)).net_hidden == 0
    monkeypatch.setattr(net_weights, "NETS", {})
    assert Board(15, 15, int(Rule.FREESTYLE)).net_hidden == 0
    assert eval_net.tables("freestyle")[0] == 0


def test_a_network_follows_takebacks() -> None:
    """The network reads the board's counters: after undo and replay the value is the same as before."""
    board = Board(15, 15, int(Rule.FREESTYLE))
    values = []
    for b in random_boards(Rule.FREESTYLE, 7, plies=30):
        values.append(evaluate(b, b.side))
        board = b
    for value in reversed(values[1:]):
        assert evaluate(board, board.side) == value
        board.undo()


def test_the_trainer_reads_the_networks_inputs_off_the_features() -> None:
    rows, expected = [], []
    matrix = positions.code_matrix(Rule.FREESTYLE)
    for board in random_boards(Rule.FREESTYLE, 2, plies=40):
        me = board.side
        rows.append((positions.features(board, matrix), threat_index(board, me)))
        expected.append([board.count(me, k) for k in range(len(Pattern4))]
                        + [board.count(3 - me, k) for k in range(len(Pattern4))]
                        + [(threat_index(board, me) >> b) & 1 for b in range(9)])
    inputs = net.net_inputs(np.array([r[0] for r in rows]), np.array([r[1] for r in rows]))
    assert inputs.shape[1] == eval_net.INPUTS
    assert np.array_equal(inputs, np.array(expected, float))


def test_training_recovers_a_planted_network() -> None:
    """Labels drawn from a known network: on held-out rows the trained one is far better than a constant guess and
    than one hidden unit (the labels are not a monotone function of one sum of the inputs)."""
    rng = np.random.default_rng(3)
    n = 6000
    inputs = np.hstack([rng.poisson(4.0, (n, 28)).astype(float), rng.integers(0, 2, (n, 9)).astype(float)])
    planted = {"w1": rng.normal(0, 0.4, (37, 4)), "b1": rng.normal(0, 1, 4), "w2": np.array([3.0, -3.0, 2.5, -2.0]),
               "b2": 0.0}
    planted["b1"] -= (inputs.mean(axis=0) @ planted["w1"])  # centre the hidden units on the data
    p = 1 / (1 + np.exp(-net.forward(planted, inputs)))
    y = (rng.random(n) < p).astype(float)
    held = np.arange(n) % 10 == 0
    stop = np.arange(n) % 10 == 1
    trained, _ = net.train(inputs, y, ~held & ~stop, stop, hidden=8, epochs=30, seed=1)
    single, _ = net.train(inputs, y, ~held & ~stop, stop, hidden=1, epochs=30, seed=1)
    best = net.loss(net.forward(planted, inputs[held]), y[held])
    got = net.loss(net.forward(trained, inputs[held]), y[held])
    constant = net.loss(np.full(held.sum(), np.log(y.mean() / (1 - y.mean()))), y[held])
    assert best < got < constant - 0.3  # measured: planted 0.14, trained 0.27, constant 0.69
    assert got < net.loss(net.forward(single, inputs[held]), y[held]) - 0.1  # one unit: 0.42


def test_the_weights_file_round_trips() -> None:
    rng = np.random.default_rng(4)
    entry = {"source": "a test's network, with 'quotes' and \"more\"", "hidden": 3, "scale": 101.5,
             "w1": rng.normal(0, 1, (eval_net.INPUTS, 3)).round(6).tolist(), "b1": [0.5, -0.25, 0.0],
             "w2": [1.0, -2.0, 0.125], "b2": -0.5}
    namespace: dict = {}
    exec(compile(net.render({"freestyle": entry}), "net_weights.py", "exec"), namespace)
    loaded = namespace["NETS"]["freestyle"]
    assert loaded["source"] == entry["source"] and loaded["hidden"] == 3 and loaded["scale"] == 101.5
    assert [list(row) for row in loaded["w1"]] == entry["w1"]
    assert list(loaded["b1"]) == entry["b1"] and list(loaded["w2"]) == entry["w2"] and loaded["b2"] == -0.5
    hidden, packed = eval_net.tables("freestyle")
    assert hidden == net_weights.NETS["freestyle"]["hidden"] and len(packed) == (eval_net.INPUTS + 2) * hidden + 1
