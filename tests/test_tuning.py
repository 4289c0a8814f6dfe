"""The tuning pipeline (tuning/): game generation under Ray, features that reproduce the evaluation, the fit, the
weights file it writes."""
from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.rules import Rule
from pbrain.evaluation import net_weights
from pbrain.evaluation import weights as eval_weights
from pbrain.evaluation.static import evaluate, threat_index
from tuning import fit, games, label, positions


@pytest.fixture
def linear_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rule evaluates with its linear weights (the fits' features), even one with a network."""
    monkeypatch.setattr(net_weights, "NETS", {})


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
@pytest.mark.usefixtures("linear_evaluation")
def test_features_times_weights_is_the_evaluation(rule: Rule) -> None:
    matrix = positions.code_matrix(rule)
    name = rule.name.lower()
    vector = fit.weight_vector(eval_weights.for_rule(name))
    corrections = positions.correction_vector(eval_weights.for_rule(name))
    checked = 0
    for seed in range(3):
        for board, _ in positions.game_positions(random_game(rule, seed)):
            codes = positions.code_counts(board)
            total = positions.features(board, matrix, codes) @ vector + codes @ corrections
            total += eval_weights.threat_values(name)[threat_index(board, board.side)]
            assert int(total) >> eval_weights.SHIFT == evaluate(board, board.side)
            checked += 1
    assert checked > 30


@pytest.mark.usefixtures("linear_evaluation")
def test_class_only_weights_are_read_off_the_class_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights with no line or code terms: the board keeps no running sums, and the evaluation is still
    features . weights, through takebacks too."""
    rng = random.Random(8)
    made_up = {"line": {r: (0,) * len(patterns.Pattern) for r in patterns.ROLES},
               "class": {r: tuple(rng.randint(-50, 50) for _ in patterns.Pattern4) for r in patterns.ROLES},
               "tempo": 21}
    monkeypatch.setitem(eval_weights.WEIGHTS, "standard", made_up)
    matrix = positions.code_matrix(Rule.STANDARD)
    vector = fit.weight_vector(made_up)
    board = Board(15, 15, int(Rule.STANDARD))
    assert board.values_by_class
    for x, y in random_game(Rule.STANDARD, 3, plies=50)["moves"]:
        board.play(x, y)
        if board.move_count % 7 == 0:
            board.undo()
            board.play(x, y)
        assert int(positions.features(board, matrix) @ vector) >> eval_weights.SHIFT == evaluate(board, board.side)
    assert board.snapshot() == board.recomputed()


@pytest.mark.usefixtures("linear_evaluation")
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
    assert board.tempo == 37 and not board.values_by_class  # line weights: the board keeps running sums
    for x, y in record["moves"]:
        board.play(x, y)
        assert int(positions.features(board, matrix) @ vector) >> eval_weights.SHIFT == evaluate(board, board.side)
    assert board.snapshot() == board.recomputed()


@pytest.mark.usefixtures("linear_evaluation")
def test_the_threat_table_adds_its_entry_for_the_threats_on_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """eval = features . weights + threat table[threat_index]; the index's bits follow the two sides' threats."""
    table = tuple((index, 16 * (index % 7) - 40) for index in range(1 << eval_weights.THREAT_BITS))
    monkeypatch.setitem(eval_weights.WEIGHTS, "standard", dict(eval_weights.for_rule("freestyle"), threat=table))
    matrix = positions.code_matrix(Rule.STANDARD)
    vector = fit.weight_vector(eval_weights.for_rule("standard"))
    board = Board(15, 15, int(Rule.STANDARD))
    seen = set()
    for x, y in random_game(Rule.STANDARD, 4, plies=60)["moves"]:
        board.play(x, y)
        index = threat_index(board, board.side)
        seen.add(index)
        assert int(positions.features(board, matrix) @ vector) + dict(table)[index] >> eval_weights.SHIFT == \
            evaluate(board, board.side)
        me, opp = board.side, 3 - board.side
        assert bool(index & 0b10) == (board.count(me, patterns.Pattern4.FLEX3)
                                      + board.count(me, patterns.Pattern4.FLEX3_PLUS) > 0)
        assert bool(index & 0b100000000) == (board.count(opp, patterns.Pattern4.FLEX4) > 0)
    assert len(seen) > 5


def test_code_matrix_counts_four_lines_and_one_class() -> None:
    matrix = positions.code_matrix(Rule.RENJU)
    lines = matrix[:, :, :len(patterns.Pattern)]
    classes = matrix[:, :, len(patterns.Pattern):]
    assert (lines.sum(axis=2) == 4).all() and (classes.sum(axis=2) == 1).all()
    forbid = len(patterns.Pattern) + patterns.Pattern4.FORBID
    assert matrix[0, :, forbid].sum() > 0 and matrix[1, :, forbid].sum() == 0  # only black has forbidden cells


def test_quiet_positions_only() -> None:
    record = random_game(Rule.FREESTYLE, 3, plies=80)
    for board, result in positions.game_positions(record):
        assert positions.quiet(board) and result == 0.5


def test_fit_recovers_the_probabilities_that_made_the_labels() -> None:
    rng = np.random.default_rng(3)
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(12)]
    data = positions.extract(records)
    x = data["x"]
    prior = np.zeros(len(positions.FEATURES))  # the fit's start and ridge centre, whatever the shipped weights are
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
    held = fit.fit_weights(x, y, prior + 7.0, scale, ridge=1e-9, iterations=50, hold_from=patterns.Pattern4.FLEX3)
    for r in range(2):
        start = r * fit.HALF + len(patterns.Pattern)
        assert np.all(held[start + patterns.Pattern4.FLEX3:start + len(patterns.Pattern4)] == 7.0)
        assert np.any(held[start + patterns.Pattern4.FLEX2:start + patterns.Pattern4.FLEX3] != 7.0)
    assert held[-1] != 7.0, "the tempo is the intercept: fitted unless held"
    assert fit.fit_weights(x, y, prior + 7.0, scale, ridge=1e-9, iterations=50, hold_tempo=True)[-1] == 7.0
    lines_held = fit.fit_weights(x, y, prior + 7.0, scale, ridge=1e-9, iterations=50, hold_lines=True)
    for r in range(2):
        start = r * fit.HALF
        assert np.all(lines_held[start:start + len(patterns.Pattern)] == 7.0)
        assert np.any(lines_held[start + len(patterns.Pattern):start + fit.HALF] != 7.0)


def test_the_threat_fit_recovers_the_values_that_made_the_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    # No shipped table: K (fitted on the whole shipped evaluation) then sees the weights alone, as the labels do.
    monkeypatch.setitem(eval_weights.WEIGHTS, "freestyle", dict(eval_weights.for_rule("freestyle"), threat=()))
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(12)]
    data = dict(positions.extract(records))
    prior = fit.weight_vector(eval_weights.for_rule("freestyle"))
    used, counts = np.unique(data["threat"], return_counts=True)
    truth = {int(i): 60.0 * ((int(i) * 37) % 11 - 5) for i in used}
    scale = 400.0
    z = data["x"] @ prior + np.array([truth[int(i)] for i in data["threat"]])
    data["y"] = 1 / (1 + np.exp(-z / scale))  # soft labels, no noise
    data["rule"] = np.array(["freestyle"] * len(z))
    _, _, report, table = fit.fit_rule(data, data["rule"] == "freestyle", "freestyle", 1e-9, threats=1,
                                       hold_weights=True)
    common = [int(i) for i, n in zip(used, counts) if n >= 20]
    assert len(common) >= 3
    fitted = dict(table)
    # K is fitted on the weights alone, so the table comes out in its units: compare the shape, not the values.
    assert np.corrcoef([fitted.get(i, 0) for i in common], [truth[i] for i in common])[0, 1] > 0.95
    assert report["validation_loss_threats"][1] < report["validation_loss_threats"][0]


def test_a_threat_refit_keeps_the_entries_too_rare_to_refit() -> None:
    """Entries of the shipped table that too few training positions have keep their values (a refit on a small
    set does not wipe what a larger one learnt); the ones refitted move from them."""
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(6)]
    data = dict(positions.extract(records))
    data["y"] = np.full(len(data["threat"]), 0.5)
    data["rule"] = np.array(["freestyle"] * len(data["y"]))
    current = dict(eval_weights.for_rule("freestyle")["threat"])
    used, counts = np.unique(data["threat"], return_counts=True)
    rare = [i for i in current if i not in set(used[counts >= 5].tolist())]
    assert rare, "data: some shipped entries are too rare here"
    _, _, report, table = fit.fit_rule(data, data["rule"] == "freestyle", "freestyle", 1e-3, threats=5,
                                       hold_weights=True)
    fitted = dict(table)
    assert all(fitted.get(i) == current[i] for i in rare)
    assert report["threat_entries"] >= 1


def test_a_kept_threat_table_counts_in_the_weight_fit() -> None:
    """Labels made by the shipped evaluation itself (its weights plus its threat table): a fit of the weights that
    keeps the table (threats=0) has nothing to correct."""
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(12)]
    data = dict(positions.extract(records))
    prior = fit.weight_vector(eval_weights.for_rule("freestyle"))
    table = np.array(eval_weights.threat_values("freestyle"), dtype=float)
    assert np.any(table[data["threat"]] != 0), "data: the table has entries for these positions"
    scale = 400.0
    data["y"] = 1 / (1 + np.exp(-(data["x"] @ prior + table[data["threat"]]) / scale))
    data["rule"] = np.array(["freestyle"] * len(data["y"]))
    w, _, report, kept = fit.fit_rule(data, data["rule"] == "freestyle", "freestyle", 1e-3)
    assert report["scale"] == pytest.approx(scale, rel=0.02)
    assert report["train_loss"][1] <= report["train_loss"][0] + 1e-9
    assert np.max(np.abs(w - prior)) < 2.0, "the weights stay where they were"
    assert kept == (), "the table is not refitted"


def test_a_threat_refit_is_scaled_by_the_whole_shipped_evaluation() -> None:
    """Labels made by the shipped evaluation itself: K comes out as the labels' scale when the table is refitted
    too (K is fitted on the weights and the shipped table), and the refitted entries stay near their values."""
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(12)]
    data = dict(positions.extract(records))
    prior = fit.weight_vector(eval_weights.for_rule("freestyle"))
    table = np.array(eval_weights.threat_values("freestyle"), dtype=float)
    scale = 400.0
    data["y"] = 1 / (1 + np.exp(-(data["x"] @ prior + table[data["threat"]]) / scale))
    data["rule"] = np.array(["freestyle"] * len(data["y"]))
    _, _, report, refitted = fit.fit_rule(data, data["rule"] == "freestyle", "freestyle", 1e-9, threats=20,
                                          hold_weights=True)
    assert report["scale"] == pytest.approx(scale, rel=0.02)
    assert report["threat_entries"] >= 2
    used, counts = np.unique(data["threat"], return_counts=True)
    fitted = dict(refitted)
    for index in used[counts >= 40].tolist():
        assert abs(fitted.get(index, 0) - table[index]) < 0.05 * scale


def test_weights_file_round_trips() -> None:
    text = fit.render(eval_weights.WEIGHTS)
    namespace: dict = {}
    exec(compile(text, "eval_weights.py", "exec"), namespace)
    assert namespace["WEIGHTS"] == eval_weights.WEIGHTS
    entry = fit.weights_of(fit.weight_vector(eval_weights.for_rule("freestyle")), "test")
    shipped = eval_weights.for_rule("freestyle")
    assert entry["class"] == shipped["class"] and entry["line"] == shipped["line"]
    assert entry["tempo"] == shipped["tempo"]


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


SGF = """(;FF[4]GM[4]GN[1]RU[0]SZ[15]PB[a]PW[b]RE[B+1]
;B[hh]C[opening move];W[ig]C[opening move];B[hg]C[12ms];W[hf]C[9ms];B[gg]C[8ms])
(;FF[4]GM[4]GN[2]RU[4]SZ[15]RE[W+1]
;B[hh]C[opening move];W[ii]C[3ms])
(;FF[4]GM[4]GN[3]RU[7]SZ[15]RE[W+1]
;B[hh]C[opening move];W[ii]C[3ms])"""


def test_sgf_games_read_as_game_records() -> None:
    first, second = label.read_sgf(SGF)  # rule 7 (not a Pentad rule) is skipped
    assert first == {"rule": "freestyle", "size": 15, "opening": [[7, 7], [8, 6]],
                     "moves": [[7, 7], [8, 6], [7, 6], [7, 5], [6, 6]], "winner": 1, "players": ["a", "b"]}
    assert second["rule"] == "renju" and second["winner"] == 2 and second["opening"] == [[7, 7]]
    assert second["players"] == ["", ""], "no PB / PW tags"


def test_the_games_a_player_lost_are_found_by_name_with_its_colour() -> None:
    records = list(label.read_sgf(SGF))
    assert [(n, p) for n, _, p in label.games_lost_by(records, "b")] == [(1, 2)], "b (white) lost game 1"
    assert list(label.games_lost_by(records, "a")) == [], "a (black) won it"
    records[0]["winner"] = 2
    assert [(n, p) for n, _, p in label.games_lost_by(records, "a")] == [(1, 1)]
    records[0]["winner"] = 0
    assert list(label.games_lost_by(records, "a")) == [], "a draw is no loss"


def test_sampled_positions_are_quiet_and_after_the_opening() -> None:
    record = random_game(Rule.FREESTYLE, 4, plies=50)
    plies = label.sample_positions(record, 6, random.Random(2))
    assert len(plies) == 6 and plies == sorted(set(plies)) and plies[0] >= len(record["opening"])
    for ply in plies:
        board = Board(15, 15, 0)
        for x, y in record["moves"][:ply]:
            board.play(x, y)
        assert positions.quiet(board)


def test_max_ply_keeps_the_sample_in_the_opening_and_middle_game() -> None:
    record = random_game(Rule.FREESTYLE, 4, plies=50)
    plies = label.sample_positions(record, 50, random.Random(2), max_ply=20)
    assert plies and max(plies) <= 20 and plies[0] >= len(record["opening"])
    assert max(label.sample_positions(record, 50, random.Random(2))) > 20, "data: the game has later quiet positions"


def test_scores_are_read_from_message_lines() -> None:
    for line, score in (("MESSAGE Depth 11-17 | Eval 216 | Time 20ms | H7 G8", "216"),
                        ("MESSAGE Depth 9-30 | Eval -M12 | Time 2ms", "-M12"),
                        ("MESSAGE depth 7-12 ev -45 n 100 pv 7,7", "-45"), ("MESSAGE depth 3 ev +M5", "+M5")):
        assert label.EVAL_PATTERN.search(line).group(1) == score
    assert label.EVAL_PATTERN.search("MESSAGE every move evaluated") is None


def test_a_brain_labels_positions_over_the_protocol() -> None:
    """Pentad itself as the analyst: a position with an open four for the side to move is a mate for it, one
    where the opponent has an open four is a mate against it."""
    root = Path(__file__).resolve().parent.parent
    jobs = [{"rule": "freestyle", "size": 15, "winner": 1, "game": "g",
             "moves": [[7, 7], [0, 0], [8, 7], [0, 2], [9, 7], [0, 4], [10, 7], [0, 6]]},
            {"rule": "freestyle", "size": 15, "winner": 1, "game": "g",
             "moves": [[7, 7], [0, 0], [8, 7], [0, 2], [9, 7], [0, 4], [10, 7]]}]
    # A mate ends the think at once; the generous turn only keeps a loaded machine's watchdog (which answers
    # with no score) out of it.
    labelled = list(label.label_all(jobs, [sys.executable, "-m", "pbrain"], 5000, 2, cwd=root))
    assert [item["moves"] for item in labelled] == [job["moves"] for job in jobs]
    assert [str(item["eval"])[:2] for item in labelled] == ["+M", "-M"], labelled
    ends = ([6, 7], [11, 7])
    assert labelled[0]["best"] in ends, "the five"
    assert labelled[1]["best"] in ends, "a block of the open four (either end: it loses anyway)"


def test_a_node_budget_makes_the_analyst_reproducible() -> None:
    """With max_nodes the analyst searches each position to a node count from a cleared table: the same labels
    twice, whatever the machine's load."""
    root = Path(__file__).resolve().parent.parent
    record = random_game(Rule.FREESTYLE, 7, plies=12)
    jobs = [{"rule": "freestyle", "size": 15, "winner": 0, "game": "g", "moves": record["moves"][:n]}
            for n in (8, 10, 12)]
    runs = [list(label.label_all(jobs, [sys.executable, "-m", "pbrain"], 60000, 1, cwd=root, max_nodes=3000))
            for _ in range(2)]
    key = {json.dumps(item["moves"]): (item["eval"], item["best"]) for item in runs[0]}
    assert key == {json.dumps(item["moves"]): (item["eval"], item["best"]) for item in runs[1]}
    assert all(best is not None for _, best in key.values())


def test_analyst_scores_become_probabilities() -> None:
    assert positions.score_probability("+M9", 200) == 1.0 and positions.score_probability("-M4", 200) == 0.0
    assert positions.score_probability("0", 200) == 0.5
    assert positions.score_probability("200", 200) == pytest.approx(1 / (1 + np.exp(-1)))
    record = {"rule": "freestyle", "size": 15, "moves": [[7, 7], [8, 8], [7, 8]], "winner": 1, "eval": "-200",
              "game": "x"}
    board, target = positions.labelled_position(record, 200.0, 0.25)
    assert board.side == 2  # white to move, black won the game
    assert target == pytest.approx(0.75 / (1 + np.exp(1)))
    data = positions.extract([record, dict(record, eval=None), dict(record, eval="+M3", game="y")])
    assert len(data["y"]) == 2 and data["y"][1] == 1.0 and list(data["game"]) == [0, 1]
    assert positions.score_probability("-M4", 200, mate=0.9) == pytest.approx(0.1)
    quiet_only = positions.extract([record, dict(record, eval="+M3", game="y")], mate=None)
    assert len(quiet_only["y"]) == 1 and quiet_only["y"][0] == pytest.approx(1 / (1 + np.exp(1)))


@pytest.mark.usefixtures("linear_evaluation")
def test_code_corrections_enter_the_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-code corrections ("code") are added to the table: the evaluation is features . w + codes . corrections."""
    rng = random.Random(8)
    base = eval_weights.for_rule("freestyle")
    record = random_game(Rule.STANDARD, 11, plies=50)
    seen = set()
    board = Board(15, 15, int(Rule.STANDARD))
    for x, y in record["moves"]:
        board.play(x, y)
        seen.update(np.flatnonzero(positions.code_counts(board)).tolist())
    columns = np.array(sorted(seen))
    values = np.array([rng.randint(-40, 40) or 1 for _ in columns], float)
    made_up = dict(base, code=fit.corrections_of(columns, values))
    monkeypatch.setitem(eval_weights.WEIGHTS, "standard", made_up)
    matrix = positions.code_matrix(Rule.STANDARD)
    vector = fit.weight_vector(made_up)
    corrections = positions.correction_vector(made_up)
    assert np.array_equal(corrections[columns], values)
    board = Board(15, 15, int(Rule.STANDARD))
    for x, y in record["moves"]:
        board.play(x, y)
        codes = positions.code_counts(board)
        total = positions.features(board, matrix, codes) @ vector + codes @ corrections
        total += eval_weights.threat_values("standard")[threat_index(board, board.side)]
        assert int(total) >> eval_weights.SHIFT == evaluate(board, board.side)
    text = fit.render(dict(eval_weights.WEIGHTS, standard=made_up))
    namespace: dict = {}
    exec(compile(text, "eval_weights.py", "exec"), namespace)
    assert namespace["WEIGHTS"]["standard"]["code"] == made_up["code"]


def test_fit_recovers_planted_code_corrections() -> None:
    records = [random_game(Rule.FREESTYLE, seed, plies=60) for seed in range(20, 32)]
    data = positions.extract(records)
    everything = np.ones(len(data["y"]), bool)
    columns = fit.common_codes(data, everything, 40)
    assert len(columns) > 5
    z = fit.code_matrix_of(data, everything, columns)
    assert np.allclose(z.sum(axis=1), [np.sum(positions.code_counts(board)[columns]) for board in
                                       (b for record in records for b, _ in positions.game_positions(record))])
    rng = np.random.default_rng(4)
    truth = rng.normal(0, 30, len(columns))
    scale = 2000.0
    base = data["x"] @ fit.weight_vector(eval_weights.for_rule("freestyle"))
    y = 1 / (1 + np.exp(-(base + z @ truth) / scale))
    c = fit.fit_corrections(z, base, y, scale, ridge=1e-7, iterations=50)
    predicted = 1 / (1 + np.exp(-(base + z @ c) / scale))
    assert np.max(np.abs(predicted - y)) < 0.01


def test_game_files_are_read_plain_or_gzipped(tmp_path) -> None:
    records = [{"rule": "freestyle", "size": 15, "moves": [[7, 7], [8, 8]], "winner": 1, "eval": "12"},
               {"rule": "renju", "size": 15, "moves": [[7, 7]], "winner": 2, "eval": "-M3"}]
    text = "\n".join(json.dumps(record) for record in records) + "\n\n"
    plain, packed = tmp_path / "labels.jsonl", tmp_path / "shard-00000.jsonl.gz"
    plain.write_text(text)
    with gzip.open(packed, "wt") as handle:
        handle.write(text)
    assert list(positions.read_games([plain, packed])) == records + records
