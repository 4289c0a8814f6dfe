"""The tuning pipeline (tuning/): game generation under Ray, features that reproduce the evaluation, the fit, the
weights file it writes."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from pbrain import eval_weights, patterns
from pbrain.board import Board
from pbrain.evaluation import evaluate
from pbrain.rules import Rule
from tuning import fit, games, positions


def random_game(rule: Rule, seed: int, plies: int = 40) -> dict:
    """A game record of random moves near the stones (no engine), cut before anyone wins."""
    rng = random.Random(seed)
    board = Board(15, 15, int(rule))
    moves = []
    for _ in range(plies):
        legal = [c for c in board.candidates() if not (board.side == 1 and board.is_forbidden(c))]
        cell = rng.choice(legal)
        if board.is_win_move(cell, board.side):
            break
        board.place(cell)
        moves.append(list(board.xy(cell)))
    return {"rule": rule.name.lower(), "size": 15, "opening": moves[:2], "moves": moves, "winner": 0}


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU, Rule.CARO])
def test_features_times_weights_is_the_evaluation(rule: Rule) -> None:
    matrix = positions.code_matrix(rule)
    name = rule.name.lower()
    vector = fit.weight_vector(eval_weights.for_rule(name))
    checked = 0
    for seed in range(3):
        for board, _ in positions.game_positions(random_game(rule, seed)):
            assert int(positions.features(board, matrix) @ vector) >> eval_weights.SHIFT == evaluate(board, board.side)
            checked += 1
    assert checked > 30


def test_features_follow_the_weights_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every weight non-zero, the board's incremental sums still equal features . weights."""
    rng = random.Random(5)
    made_up = {"line": {r: tuple(rng.randint(-9, 9) for _ in patterns.Pattern) for r in patterns.ROLES},
               "class": {r: tuple(rng.randint(-50, 50) for _ in patterns.Pattern4) for r in patterns.ROLES},
               "tempo": 37}
    monkeypatch.setitem(eval_weights.WEIGHTS, "standard", made_up)
    matrix = positions.code_matrix(Rule.STANDARD)
    vector = fit.weight_vector(made_up)
    record = random_game(Rule.STANDARD, 9, plies=60)
    board = Board(15, 15, int(Rule.STANDARD))
    assert board.tempo == 37
    for x, y in record["moves"]:
        board.play(x, y)
        assert int(positions.features(board, matrix) @ vector) >> eval_weights.SHIFT == evaluate(board, board.side)
    assert board.snapshot() == board.recomputed()


def test_code_matrix_counts_four_lines_and_one_class() -> None:
    matrix = positions.code_matrix(Rule.RENJU)
    lines = matrix[:, :, :len(patterns.Pattern)]
    classes = matrix[:, :, len(patterns.Pattern):]
    assert (lines.sum(axis=2) == 4).all() and (classes.sum(axis=2) == 1).all()
    forbid = len(patterns.Pattern) + patterns.Pattern4.FORBID
    assert matrix[0, :, forbid].sum() > 0 and matrix[1, :, forbid].sum() == 0  # only black has forbidden cells


def test_quiet_positions_only() -> None:
    record = random_game(Rule.FREESTYLE, 3, plies=80)
    for board, label in positions.game_positions(record):
        assert positions.quiet(board) and label == 0.5


def test_fit_recovers_the_probabilities_that_made_the_labels() -> None:
    rng = np.random.default_rng(3)
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(12)]
    data = positions.extract(records)
    x = data["x"]
    prior = fit.weight_vector(eval_weights.for_rule("freestyle"))
    truth = prior.copy()
    free = ~fit.fixed_columns()
    truth[free] += rng.normal(0, 80, free.sum())
    scale = 2000.0
    y = 1 / (1 + np.exp(-(x @ truth) / scale))  # soft labels, no noise
    w = fit.fit_weights(x, y, prior, scale, ridge=1e-9, iterations=50)
    assert fit.log_loss(x, y, w, scale) <= fit.log_loss(x, y, truth, scale) + 1e-6
    assert fit.log_loss(x, y, w, scale) < fit.log_loss(x, y, prior, scale)
    predicted = 1 / (1 + np.exp(-(x @ w) / scale))
    assert np.max(np.abs(predicted - y)) < 0.01
    assert fit.fit_scale(x, y, truth) == pytest.approx(scale, rel=0.02)


def test_weights_file_round_trips() -> None:
    text = fit.render(eval_weights.WEIGHTS)
    namespace: dict = {}
    exec(compile(text, "eval_weights.py", "exec"), namespace)
    assert namespace["WEIGHTS"] == eval_weights.WEIGHTS
    entry = fit.weights_of(fit.weight_vector(eval_weights.for_rule("freestyle")), "test")
    assert entry["class"] == eval_weights.for_rule("freestyle")["class"] and entry["tempo"] == 640


def test_game_generation_runs_under_ray(tmp_path) -> None:
    out = tmp_path / "games.jsonl"
    assert games.main(["--games", "2", "--size", "9", "--nodes", "3000", "--workers", "2", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        board = Board(9, 9, 0)
        assert record["moves"][:len(record["opening"])] == record["opening"] and len(record["opening"]) == 4
        for x, y in record["moves"]:
            assert board.stone(board.index(x, y)) == 0
            board.play(x, y)
        assert record["winner"] == (3 - board.side if board.last_move_wins() else 0)
    data = positions.extract(records)
    assert data["x"].shape == (len(data["y"]), len(positions.FEATURES)) and len(data["y"]) > 0
