"""The move ordering's weights (pbrain/search/order_weights.py, movegen.order_values) and the fit that makes them
(tuning/policy.py)."""
from __future__ import annotations

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
                shape = sum(weights["line"][role][p] for p in combo) if cls != Pattern4.FORBID else 0
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
        x = np.array([policy.cell_features(board, c, mover) for c in cells])
        z = x @ w_true
        p = np.exp(z - z.max())
        p /= p.sum()
        examples.append((x, int(rng.choice(len(cells), p=p)), policy.shipped_scores(board, cells, mover, table)))
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
        best = max(cells, key=lambda c: policy.cell_features(board, c, mover)[Pattern.F2A] + rng.random() * 0.1)
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
