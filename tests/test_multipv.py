"""Multi-PV: the n best root moves, each scored by a search (analysis.n_best, YXNBEST, and the levels)."""
from __future__ import annotations

from typing import List

from pbrain import analysis, params
from pbrain.core.rules import Rule
from pbrain.engine import Engine, Limits, Point
from tests.brains import SessionBrain

THREE_TO_BLOCK = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 5), (9, 5), (6, 7), (9, 6)]
"""White to move; black's open three (9,5)-(9,7): only (9,4) and (9,8) hold, every other move loses."""
QUIET = [(7, 7), (8, 8), (6, 8), (8, 6), (6, 6), (9, 7)]
"""Black to move in a quiet opening: no three on the board."""
DEPTH = 5


def engine_at(moves: List[Point]) -> Engine:
    """A fresh engine (its own hash table) with `moves` played from an empty 15x15 freestyle board, its root
    threat searches kept small (an untimed think would give them their whole node budgets)."""
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=64 << 20)
    searcher = engine.searcher
    searcher.root_vcf_nodes = searcher.root_vct_nodes = searcher.defence_vct_nodes = 20_000
    for move in moves:
        engine.play(*move)
    return engine


def test_n_best_gives_distinct_searched_moves_best_first() -> None:
    ranked = analysis.n_best(engine_at(QUIET), 5, Limits(turn_ms=60_000, max_depth=DEPTH))
    moves = [r.move for r in ranked]
    assert len(moves) == 5 and len(set(moves)) == 5
    taken = set(QUIET)
    assert not taken & set(moves)
    normal = engine_at(QUIET).think(Limits(max_depth=DEPTH))
    assert (ranked[0].move, ranked[0].score) == (normal.move, normal.score)
    alternatives = ranked[1:]
    assert [r.score for r in alternatives] == sorted((r.score for r in alternatives), reverse=True)
    for r in alternatives:  # searched to the depth asked (or to a proven result), not a static look
        assert r.result.reason == "search" and r.pv[0] == r.move
        assert r.result.depth == DEPTH or abs(r.score) >= params.WIN_THRESHOLD
    assert len({r.score for r in ranked}) > 1


def test_a_line_is_the_search_without_the_lines_before_it() -> None:
    engine = engine_at(QUIET)
    ranked = analysis.n_best(engine, 2, Limits(turn_ms=60_000, max_depth=DEPTH))
    other = engine_at(QUIET)
    best = other.think(Limits(max_depth=DEPTH))
    second = other.think(Limits(max_depth=DEPTH), exclude=[best.move])
    assert second.move != best.move
    assert (ranked[1].move, ranked[1].score) == (second.move, second.score)


def test_losing_alternatives_are_scored_as_losses() -> None:
    ranked = analysis.n_best(engine_at(THREE_TO_BLOCK), 4, Limits(turn_ms=60_000, max_depth=DEPTH))
    assert {ranked[0].move, ranked[1].move} == {(9, 4), (9, 8)}
    assert all(abs(r.score) < params.WIN_THRESHOLD for r in ranked[:2])
    assert all(r.score <= -params.WIN_THRESHOLD for r in ranked[2:])


def test_excluding_every_move_but_a_five_plays_the_five() -> None:
    engine = engine_at([(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7), (0, 6)])
    result = engine.think(Limits(max_depth=3), exclude=[(6, 7)])
    assert result.move == (11, 7) and result.score == params.WIN - 1


def test_no_move_left_after_excluding_them_all() -> None:
    engine = Engine(5, 5)
    for y in range(5):
        for x in range(5):
            if (x, y) not in ((2, 2), (4, 4)):
                engine.board.place(engine.board.index(x, y), 1 + (x + 2 * y) % 2)
    engine.board.set_side(1)
    assert engine.think(Limits(max_depth=2), exclude=[(2, 2), (4, 4)]).move is None


def test_yxnbest_prints_the_lines_with_searched_scores() -> None:
    with SessionBrain(Engine) as brain:
        for line in ["START 15", "INFO timeout_turn 2000", "INFO max_depth 4", "YXBOARD"] + [
                f"{x},{y},{1 + i % 2}" for i, (x, y) in enumerate(QUIET)] + ["DONE"]:
            brain.line(line)
        assert brain.reply() == "OK"
        brain.line("YXNBEST 5")
        messages = []
        while True:
            line = brain.reply(timeout=10, skip_chatter=False)
            if not line.startswith("MESSAGE"):
                break
            messages.append(line)
        ranked = [m for m in messages if " multipv " in m]
        assert len(ranked) == 5
        moves = [m.split(" pv ")[1].split()[0] for m in ranked]
        assert len(set(moves)) == 5 and line == moves[0]
        assert all(" depth 4-4 " in m for m in ranked)
