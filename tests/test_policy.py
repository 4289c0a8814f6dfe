"""The move ordering's weights (pbrain/search/order_weights.py, movegen.order_values) and the fit that makes them
(tuning/policy.py)."""
from __future__ import annotations

import gzip
import json
import random

import numpy as np
import pytest

from pbrain.core import patterns
from pbrain.core.board import Board
from pbrain.core.patterns import Pattern, Pattern4
from pbrain.core.rules import Rule
from pbrain.engine import Engine, Limits
from pbrain.search import movegen, order_weights
from tuning import fit, policy


def cell_features(board: Board, cell: int, mover: int) -> np.ndarray:
    """A candidate's policy.FEATURES read off the board cell by cell (the reference the fit's features by code
    are checked against)."""
    x = np.zeros(policy.FEATURES)
    for part, colour in enumerate((mover, 3 - mover)):
        for d in range(4):
            x[part * len(Pattern) + board.pattern(cell, colour, d)] += 1
        x[2 * len(Pattern) + part * len(Pattern4) + board.pattern4(cell, colour)] = 1
    return x


def shipped_scores(board: Board, cells: list, mover: int, table) -> np.ndarray:
    """The static ordering scores of `cells` for `mover` under an order_values table, read off the board (the
    reference for CodePositions.scores)."""
    n = patterns.NUM_CODES
    own = 2 * (mover - 1) * n
    other = (2 * (2 - mover) + 1) * n
    return np.array([table[own + board.pattern_code(c, mover)] + table[other + board.pattern_code(c, 3 - mover)]
                     for c in cells], dtype=float)


def random_position(seed: int, plies: int = 14) -> Board:
    """A position of random moves near the stones, nobody with a five to make."""
    rng = random.Random(seed)
    board = Board(15, 15, 0)
    for _ in range(plies):
        cells = [c for c in board.candidates() if not board.is_win_move(c, board.side)]
        board.place(rng.choice(cells))
        if board.count(board.side, Pattern4.FIVE) or board.count(3 - board.side, Pattern4.FIVE):
            break
    return board


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_order_values_sum_the_line_and_class_weights(rule: Rule) -> None:
    table = movegen.order_values(rule)
    weights = order_weights.for_rule(rule.name.lower())
    classes = patterns.code_classes(rule)
    n = patterns.NUM_CODES
    for code in (0, 17, 600, 1500, n - 1):
        combo = patterns.PATTERN_COMBOS[code]
        for ci in range(2):
            cls = classes[ci * n + code] & 15
            for role_index, role in enumerate(patterns.ORDER_ROLES):
                correction = dict(weights.get("code", {}).get(role, ())).get(code, 0)
                shape = sum(weights["line"][role][p] for p in combo) + correction if cls != Pattern4.FORBID else 0
                assert table[(2 * ci + role_index) * n + code] == weights["class"][role][cls] + shape


def test_line_weights_change_the_search_and_class_weights_alone_keep_threats_first(monkeypatch) -> None:
    """The ordering is read from the weights: an own open-three-making line weighed down changes what the same
    search does; the winning and forced moves are found whatever the quiet weights."""
    board_moves = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 5), (9, 5), (6, 7), (9, 6)]

    def think() -> tuple:
        engine = Engine(15, rule=Rule.FREESTYLE, memory_bytes=16 << 20)
        for x, y in board_moves:
            engine.play(x, y)
        result = engine.think(Limits(max_depth=5))
        return result.move, result.nodes

    shipped = think()
    entry = json.loads(json.dumps(order_weights.WEIGHTS["freestyle"]))
    entry["line"]["own"] = [0] * len(Pattern)
    entry["line"]["own"][Pattern.F3] = -500
    monkeypatch.setitem(order_weights.WEIGHTS, "freestyle", entry)
    assert think() != shipped, "the search reads the ordering weights"


def synthetic_examples(count: int, w_true: np.ndarray, seed: int) -> list:
    """Positions whose 'analyst' picks a cell with probability softmax(w_true . x) over the candidates."""
    rng = np.random.default_rng(seed)
    table = movegen.order_values(Rule.FREESTYLE)
    examples = []
    for k in range(count):
        board = random_position(seed * 1000 + k)
        mover = board.side
        cells = board.candidates()
        x = np.array([cell_features(board, c, mover) for c in cells])
        z = x @ w_true
        p = np.exp(z - z.max())
        p /= p.sum()
        examples.append((x, int(rng.choice(len(cells), p=p)), shipped_scores(board, cells, mover, table)))
    return examples


def test_fit_recovers_a_planted_preference() -> None:
    w_true = np.zeros(policy.FEATURES)
    w_true[Pattern.F2A] = 1.5                      # own open twos made
    w_true[len(Pattern) + Pattern.F2A] = 1.0       # the opponent's taken away
    w_true[Pattern.DEAD] = -1.0
    train = synthetic_examples(150, w_true, 1)
    held = synthetic_examples(60, w_true, 2)
    w = policy.fit(train, ridge=0.1)
    assert w[Pattern.F2A] > 0.7 and w[len(Pattern) + Pattern.F2A] > 0.4 and w[Pattern.DEAD] < -0.3, w[:14]
    fitted = policy.rank_stats(held, lambda ex: ex[0] @ w)
    blind = policy.rank_stats(held, lambda ex: np.zeros(len(ex[0])))
    assert fitted["mean_rank"] < blind["mean_rank"] - 1.0, (fitted, blind)


def test_rank_stats_count_ties_as_half() -> None:
    examples = [(np.zeros((4, policy.FEATURES)), 1, np.array([5.0, 9.0, 1.0, 0.0])),
                (np.zeros((4, policy.FEATURES)), 0, np.array([3.0, 3.0, 3.0, 7.0]))]
    stats = policy.rank_stats(examples, lambda ex: ex[2])
    assert stats["top1"] == 0.5 and stats["mean_rank"] == pytest.approx((1 + 3) / 2)


def test_unseen_features_keep_the_shipped_weights_and_the_file_round_trips() -> None:
    shipped = order_weights.for_rule("freestyle")
    w = np.full(policy.FEATURES, 0.5)
    seen = np.ones(policy.FEATURES, bool)
    own_five = 2 * len(Pattern) + Pattern4.FIVE
    seen[own_five] = False
    entry = policy.weights_of(w, 100.0, seen, shipped, "test")
    assert entry["class"]["own"][Pattern4.FIVE] == shipped["class"]["own"][Pattern4.FIVE]
    assert entry["class"]["own"][Pattern4.FLEX3] == 50 and entry["line"]["opponent"][Pattern.B3] == 50
    text = fit.render({"freestyle": entry}, policy.WEIGHTS_FILE)
    namespace: dict = {}
    exec(compile(text, "order_weights.py", "exec"), namespace)
    assert namespace["WEIGHTS"]["freestyle"] == entry and "def for_rule" in text


def test_the_command_line_fits_labelled_positions(tmp_path, capsys) -> None:
    """Labels whose analyst always answers where it makes the most open twos: the fit weighs that pattern up
    and writes a weights file that loads."""
    rng = random.Random(3)
    lines = []
    for k in range(40):
        board = random_position(500 + k, plies=rng.randrange(6, 16))
        mover = board.side
        cells = board.candidates()
        best = max(cells, key=lambda c: cell_features(board, c, mover)[Pattern.F2A] + rng.random() * 0.1)
        lines.append(json.dumps({"rule": "freestyle", "size": 15, "moves": [list(m) for m in
                                 [board.xy(c) for c in board.history()]], "eval": "0", "best": list(board.xy(best)),
                                 "game": str(k)}))
    labels = tmp_path / "labels.jsonl"
    labels.write_text("\n".join(lines) + "\n")
    out = tmp_path / "order_weights.py"
    assert policy.main([str(labels), "--min-positions", "10", "--out", str(out)]) == 0
    namespace: dict = {}
    exec(compile(out.read_text(), "order_weights.py", "exec"), namespace)
    fitted = namespace["WEIGHTS"]["freestyle"]
    assert fitted["line"]["own"][Pattern.F2A] > 0
    assert "fitted ordering" in capsys.readouterr().out


def test_rules_without_an_ordering_fit_of_their_own_use_freestyles() -> None:
    """Standard, renju and caro order moves by freestyle's fitted weights (the same shapes), not by HAND_SET,
    until a fit of their own is shipped."""
    for rule in ("standard", "renju", "caro", "caro_exact"):
        expected = order_weights.WEIGHTS.get(rule, order_weights.WEIGHTS["freestyle"])
        assert order_weights.for_rule(rule) is expected
        assert order_weights.for_rule(rule) is not order_weights.HAND_SET


def test_a_point_forbidden_to_black_is_worth_no_more_to_white_than_a_dead_cell() -> None:
    """Under renju, white's ordering scores a point black may not play (class FORBID for black) as what the
    fit gives a black cell of class NONE with four dead lines: taking it takes nothing from black."""
    weights = order_weights.for_rule("renju")
    table = movegen.order_values(Rule.RENJU)
    classes = patterns.code_classes(Rule.RENJU)
    n = patterns.NUM_CODES
    forbidden = [code for code in range(n) if classes[code] & 15 == Pattern4.FORBID]
    assert forbidden
    dead = weights["class"]["opponent"][Pattern4.NONE] + 4 * weights["line"]["opponent"][Pattern.DEAD]
    # black is colour index 0; role 1 is the opponent's (white to move scores what its move takes from black)
    assert all(table[(2 * 0 + 1) * n + code] == dead for code in forbidden)


def labelled_records(count: int, seed: int, pick) -> list:
    """Freestyle positions of random moves, each labelled with pick(board, cells, rng) as the analyst's move."""
    rng = random.Random(seed)
    records = []
    for k in range(count):
        board = random_position(seed * 1000 + k, plies=rng.randrange(6, 16))
        best = pick(board, board.candidates(), rng)
        records.append({"rule": "freestyle", "size": 15, "moves": [list(board.xy(c)) for c in board.history()],
                        "eval": "0", "best": list(board.xy(best)), "game": f"{seed}-{k}"})
    return records


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_code_positions_read_the_cells_as_the_search_orders_them(rule: Rule) -> None:
    """The features by code are cell_features, and the scores by code are the ordering's (shipped_scores), for
    every candidate of random positions."""
    records = labelled_records(6, 4, lambda board, cells, rng: rng.choice(cells))
    for record in records:
        record["rule"] = rule.name.lower()
    positions = policy.CodePositions(records, rule)
    assert len(positions) == len(records)
    table = movegen.order_values(rule)
    features = policy.code_features(rule)
    examples = policy.linear_examples(positions, rule, table)
    scores = positions.scores(table)
    for i, record in enumerate(records):
        board = Board(15, 15, int(rule))
        for x, y in record["moves"]:
            board.play(x, y)
        mover = board.side
        cells = [c for c in board.candidates() if not (board.renju and mover == 1 and board.is_forbidden(c))]
        rows = slice(positions.starts[i], positions.starts[i + 1])
        expected = np.array([cell_features(board, c, mover) for c in cells])
        assert np.array_equal(examples[i][0], expected)
        assert np.array_equal(scores[rows], shipped_scores(board, cells, mover, table))
        assert cells[positions.best[i]] == board.index(*record["best"])
        assert features.shape == (2, patterns.NUM_CODES, len(Pattern) + len(Pattern4))


def test_code_corrections_learn_a_planted_code() -> None:
    """An analyst that plays a cell whose own code is one chosen code whenever there is one: that code's
    correction comes out the largest, and the fitted ordering ranks the analyst's moves better than the linear."""
    weights = order_weights.for_rule("freestyle")
    plain = {"line": weights["line"], "class": weights["class"]}
    table = patterns.code_values(Rule.FREESTYLE, plain, patterns.ORDER_ROLES)
    probe = policy.CodePositions(labelled_records(30, 6, lambda board, cells, rng: cells[0]), Rule.FREESTYLE)
    counts = np.bincount(probe.own, minlength=patterns.NUM_CODES)
    counts[np.argsort(-counts)[:3]] = 0  # not the commonest codes: one a position or so
    planted = int(np.argmax(counts))

    def pick(board: Board, cells: list, rng: random.Random) -> int:
        marked = [c for c in cells if board.pattern_code(c, board.side) == planted]
        return rng.choice(marked or cells)

    positions = policy.CodePositions(labelled_records(120, 7, pick), Rule.FREESTYLE)
    own, _ = policy.fit_codes(positions, Rule.FREESTYLE, table, 1000.0, 1e-4)
    assert int(np.argmax(own)) == planted and own[planted] > 500
    corrected = dict(plain, code={"own": tuple((c, int(v)) for c, v in enumerate(np.round(own)) if v)})
    fitted = policy.segment_rank_stats(positions.scores(patterns.code_values(Rule.FREESTYLE, corrected,
                                                                             patterns.ORDER_ROLES)),
                                       positions.starts, positions.best)
    linear = policy.segment_rank_stats(positions.scores(table), positions.starts, positions.best)
    assert fitted["mean_rank"] < linear["mean_rank"] - 1.0, (fitted, linear)


def test_the_command_line_reads_shards_and_writes_code_corrections(tmp_path, capsys) -> None:
    """tuning.dataset's gzipped shards in, positions the analyst scores as lost left out, and with --codes the
    weights file carries code corrections that the ordering table reads."""
    records = labelled_records(40, 8, lambda board, cells, rng: max(
        cells, key=lambda c: cell_features(board, c, board.side)[Pattern.F2A] + rng.random() * 0.1))
    records[0]["eval"] = "-M9"
    shard = tmp_path / "shard-00000.jsonl.gz"
    shard.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    assert len(list(policy.read_labels([shard]))) == 39
    out = tmp_path / "order_weights.py"
    assert policy.main([str(shard), "--min-positions", "10", "--keep-linear", "--codes", "--out", str(out)]) == 0
    namespace: dict = {}
    exec(compile(out.read_text(), "order_weights.py", "exec"), namespace)
    fitted = namespace["WEIGHTS"]["freestyle"]
    assert fitted["line"] == order_weights.for_rule("freestyle")["line"]
    assert fitted["code"]["own"] and "code corrections" in capsys.readouterr().out
    table = patterns.code_values(Rule.FREESTYLE, fitted, patterns.ORDER_ROLES)
    plain = patterns.code_values(Rule.FREESTYLE, {"line": fitted["line"], "class": fitted["class"]},
                                 patterns.ORDER_ROLES)
    code, correction = fitted["code"]["own"][0]
    assert table[code] - plain[code] == correction
