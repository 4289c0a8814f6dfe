"""The evaluation network (pbrain/network.py) and its trainer (tuning/net.py)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.patterns import NUM_CODES, ROLES, Pattern4
from pbrain.core.rules import Rule
from pbrain.evaluation import net_weights, network
from pbrain.evaluation.static import evaluate, threat_index
from tests.test_tuning import random_game
from tuning import net, positions


def random_boards(rule: Rule, seed: int, plies: int = 50):
    """The board after each move of test_tuning's random game (the same board, moved on)."""
    board = Board(15, 15, int(rule))
    for x, y in random_game(rule, seed, plies)["moves"]:
        board.play(x, y)
        yield board


def code_sum(entry: dict, board: Board, colour: int, role: str) -> float:
    """`colour`'s empty cells valued by the entry's code values for `role`, rounded as the board stores them."""
    values = dict(entry["codes"][role])
    return sum(round(values.get(board.pattern_code(cell, colour), 0.0) * network.CODE_SCALE)
               for cell in board.playable if board.stone(cell) == 0) / network.CODE_SCALE


def python_value(entry: dict, board: Board) -> int:
    """The network's score of `board` for the side to move, in plain Python from the weights file's entry."""
    me = board.side
    counts = [board.count(me, k) for k in range(len(Pattern4))] + \
        [board.count(3 - me, k) for k in range(len(Pattern4))]
    bits = [(threat_index(board, me) >> b) & 1 for b in range(net.THREAT_BITS)]
    inputs = counts + bits + [code_sum(entry, board, me, "mover"), code_sum(entry, board, 3 - me, "waiter")]
    assert len(inputs) == network.INPUTS
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
    assert "caro" not in net_weights.NETS
    assert Board(15, 15, int(Rule.CARO)).net_hidden == 0
    monkeypatch.setattr(net_weights, "NETS", {})
    assert Board(15, 15, int(Rule.FREESTYLE)).net_hidden == 0
    assert network.tables("freestyle")[0] == 0


@pytest.mark.parametrize("width, height", [(20, 20), (32, 32), (11, 11), (20, 15)])
def test_an_empty_board_of_any_size_reads_as_the_trained_one(width: int, height: int) -> None:
    """The class NONE counts and the code sums count every empty cell: a board of another size than the positions
    the network learned from shifts its hidden biases so that its empty board is valued as the empty 15x15 one."""
    trained = Board(network.TRAINED_SIZE, network.TRAINED_SIZE, int(Rule.FREESTYLE))
    board = Board(width, height, int(Rule.FREESTYLE))
    assert board.empty_inputs() != trained.empty_inputs()
    assert abs(evaluate(board, board.side) - evaluate(trained, trained.side)) <= 1


def test_a_position_in_the_middle_of_a_20x20_board_is_valued_as_on_15x15() -> None:
    """Twelve stones at least four cells from 15x15's edges: only the cells near them see the edges differently
    (without the shift: 200-380 more for the side to move on 20x20)."""
    rng = random.Random(5)
    differences = []
    for _ in range(8):
        stones = rng.sample([(x, y) for x in range(4, 11) for y in range(4, 11)], 12)
        small, large = Board(15, 15, int(Rule.FREESTYLE)), Board(20, 20, int(Rule.FREESTYLE))
        for x, y in stones:
            small.play(x, y)
            large.play(x + 2, y + 2)
        differences.append(abs(evaluate(large, large.side) - evaluate(small, small.side)))
    assert sum(differences) / len(differences) < 50


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


@pytest.mark.parametrize("size", [15, 20])
def test_the_trainer_computes_what_the_engine_does(size: int) -> None:
    """The trainer's inputs, code sums and forward pass, from tuning.positions' features and code counts, give the
    engine's evaluation (to the code values' rounding and the final truncation); off 15x15 once the board's size
    shift is taken off the inputs (on 20x20 that shift is worth hundreds of points)."""
    entry = net_weights.NETS["freestyle"]
    game = dict(random_game(Rule.FREESTYLE, 2, 40), size=size)
    data = positions.extract([game])
    assert data["size"].tolist() == [size] * len(data["y"])
    raw = net.net_inputs(data["x"], data["threat"])
    inputs, rows, columns, counts = net.shift_to_trained("freestyle", data["size"], raw, data["code_row"],
                                                          data["code_col"], data["code_count"])
    codes = net.CodeCounts(rows, columns, counts, len(data["y"]))
    assert inputs.shape[1] == net.CLASS_INPUTS == network.INPUTS - 2
    logits = net.forward(entry, inputs, codes)
    expected = []
    for board, _ in positions.game_positions(game):
        me = board.side
        assert list(raw[len(expected)]) == [board.count(me, k) for k in range(len(Pattern4))] + \
            [board.count(3 - me, k) for k in range(len(Pattern4))] + \
            [(threat_index(board, me) >> b) & 1 for b in range(net.THREAT_BITS)]
        expected.append(evaluate(board, me))
    assert len(expected) == len(logits) > 10
    assert np.abs(logits * entry["scale"] - np.array(expected)).max() < 8
    if size != network.TRAINED_SIZE:  # the shift matters: unshifted, the trainer would read another value
        unshifted = net.forward(entry, raw, net.CodeCounts(data["code_row"], data["code_col"], data["code_count"],
                                                           len(data["y"])))
        assert np.abs(unshifted * entry["scale"] - np.array(expected)).mean() > 100


def planted_codes(rng: np.random.Generator, n: int, order: np.ndarray) -> net.CodeCounts:
    """Eight code counts a row (rows in `order`): codes 0-29 of the side to move and of the waiting side (negated,
    as tuning.positions stores them)."""
    rows = np.repeat(order, 8)
    columns = rng.integers(0, 30, 8 * n) + NUM_CODES * rng.integers(0, 2, 8 * n)
    counts = rng.integers(1, 5, 8 * n) * np.where(columns < NUM_CODES, 1, -1)
    return net.CodeCounts(rows, columns, counts, n)


def test_training_recovers_a_planted_network() -> None:
    """Labels drawn from a known network with code values: on held-out rows the trained one is far better than a
    constant guess, than one hidden unit (the labels are not a monotone function of one sum of the inputs) and
    than the same training on code counts that belong to other rows (the code values are learned)."""
    rng = np.random.default_rng(3)
    n = 6000
    inputs = np.hstack([rng.poisson(4.0, (n, 28)).astype(float), rng.integers(0, 2, (n, 9)).astype(float)])
    codes = planted_codes(np.random.default_rng(5), n, np.arange(n))
    values = np.zeros(2 * NUM_CODES)
    values[:30] = rng.normal(0, 0.5, 30)
    values[NUM_CODES:NUM_CODES + 30] = rng.normal(0, 0.5, 30)
    planted = {"w1": rng.normal(0, 0.4, (39, 4)), "b1": rng.normal(0, 1, 4), "w2": np.array([3.0, -3.0, 2.5, -2.0]),
               "b2": 0.0, "codes": {role: [(code, values[part * NUM_CODES + code]) for code in range(30)]
                                    for part, role in enumerate(ROLES)}}
    full = np.hstack([inputs, codes.sums(values)])
    planted["b1"] -= (full.mean(axis=0) @ planted["w1"])  # centre the hidden units on the data
    p = 1 / (1 + np.exp(-net.forward(planted, inputs, codes)))
    y = (rng.random(n) < p).astype(float)
    held = np.arange(n) % 10 == 0
    stop = np.arange(n) % 10 == 1
    trained, _ = net.train(inputs, codes, y, ~held & ~stop, stop, hidden=8, epochs=30, seed=1)
    single, _ = net.train(inputs, codes, y, ~held & ~stop, stop, hidden=1, epochs=30, seed=1)
    others = planted_codes(np.random.default_rng(5), n, np.random.default_rng(6).permutation(n))
    blind, _ = net.train(inputs, others, y, ~held & ~stop, stop, hidden=8, epochs=30, seed=1)
    best = net.loss(net.forward(planted, inputs, codes)[held], y[held])
    got = net.loss(net.forward(trained, inputs, codes)[held], y[held])
    constant = net.loss(np.full(held.sum(), np.log(y.mean() / (1 - y.mean()))), y[held])
    assert best < got < constant - 0.3  # measured: planted 0.13, trained 0.29, constant 0.69
    assert got < net.loss(net.forward(single, inputs, codes)[held], y[held]) - 0.1  # one unit: 0.41
    assert got < net.loss(net.forward(blind, inputs, others)[held], y[held]) - 0.05  # others' codes: 0.41


def test_games_of_different_positions_files_keep_apart() -> None:
    """tuning.positions numbers each file's games from 0: game 0 of one file is not game 0 of the next."""
    first, second = {"game": np.array([0, 0, 1])}, {"game": np.array([0, 1, 1])}
    names = net.game_names([first, second])
    assert len(set(names.tolist())) == 4
    assert names[:3].tolist() == ["0", "0", "1"]  # the first file's split by tenths is kept
    assert list(net.tenths(names[:3])) == list(net.tenths(first["game"]))


def test_the_weights_file_round_trips() -> None:
    rng = np.random.default_rng(4)
    entry = {"source": "a test's network, with 'quotes' and \"more\"", "hidden": 3, "scale": 101.5,
             "w1": rng.normal(0, 1, (network.INPUTS, 3)).round(6).tolist(), "b1": [0.5, -0.25, 0.0],
             "w2": [1.0, -2.0, 0.125], "b2": -0.5, "codes": {"mover": [(3, 0.25), (17, -1.5)], "waiter": [(5, 2.0)]}}
    namespace: dict = {}
    exec(compile(net.render({"freestyle": entry}), "net_weights.py", "exec"), namespace)
    loaded = namespace["NETS"]["freestyle"]
    assert loaded["source"] == entry["source"] and loaded["hidden"] == 3 and loaded["scale"] == 101.5
    assert [list(row) for row in loaded["w1"]] == entry["w1"]
    assert list(loaded["b1"]) == entry["b1"] and list(loaded["w2"]) == entry["w2"] and loaded["b2"] == -0.5
    assert {role: list(pairs) for role, pairs in loaded["codes"].items()} == entry["codes"]
    hidden, packed = network.tables("freestyle")
    assert hidden == net_weights.NETS["freestyle"]["hidden"] and len(packed) == (network.INPUTS + 2) * hidden + 1


def test_a_forbidden_cell_has_no_code_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under renju a code that is forbidden for black is worth nothing to black (the trainer's positions leave
    such cells out) and its value to white."""
    classes = patterns.code_classes(Rule.RENJU)
    forbidden = next(code for code in range(NUM_CODES) if classes[code] & 15 == Pattern4.FORBID)
    entry = dict(net_weights.NETS["freestyle"], codes={"mover": [(forbidden, 1.0)], "waiter": [(forbidden, -2.0)]})
    monkeypatch.setattr(net_weights, "NETS", {"renju": entry})
    values = network.code_values(Rule.RENJU)
    for role, value in enumerate((1.0, -2.0)):
        assert values[role * NUM_CODES + forbidden] == 0  # black
        assert values[(2 + role) * NUM_CODES + forbidden] == value * network.CODE_SCALE  # white
    assert network.code_values(Rule.CARO) is None


def test_the_command_says_so_when_no_game_is_held_out(tmp_path, capsys: pytest.CaptureFixture) -> None:
    for games, held_out in ((6, False), (7, True)):  # game numbers 0-5 hash to tenths 9, 3, 7, 1, 8, 6; game 6 to 0
        records = [dict(random_game(Rule.FREESTYLE, seed, 30), eval=str(seed * 37 % 400 - 200))
                   for seed in range(games)]
        labelled = [dict(record, moves=record["moves"][:ply], game=f"g{n}") for n, record in enumerate(records)
                    for ply in (10, 20, 30)]
        np.savez(tmp_path / "positions.npz", **positions.extract(labelled, 300.0))
        assert net.main([str(tmp_path / "positions.npz"), "--dry-run", "--min-positions", "1", "--epochs", "2",
                                "--hidden", "4"]) == 0
        report = capsys.readouterr().err
        assert "nan" not in report
        assert ("held-out loss" in report) is held_out
        assert ("no game in the held-out tenth" in report) is not held_out
