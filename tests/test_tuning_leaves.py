"""The leaf positions of the search as tuning data: the search's sampling hook, tuning.leaves and
tuning.label --as-is."""
from __future__ import annotations

import json
import random

from pbrain.core.board import Board
from pbrain.core.rules import Rule
from pbrain.engine import Engine, Limits
from tuning import label, leaves

GAME = {"rule": "freestyle", "size": 15, "opening": [[6, 8], [8, 9], [9, 5]], "winner": 1,
        "moves": [[6, 8], [8, 9], [9, 5], [7, 7], [6, 7], [6, 6], [8, 8], [9, 8], [7, 9], [6, 10], [5, 8]]}
"""The start of a game from a balanced opening: no side has a forced win at its plies 4 to 10, so the thinks
search (a think that proves a win by threats at once reaches no leaf)."""


def legal_position(moves: list, size: int = 15) -> bool:
    """Every move on an empty cell of the board, and no five made on the way (the search does not play on past
    one)."""
    board = Board(size, size, 0)
    for x, y in moves:
        if not board.on_board(x, y) or board.stone(board.index(x, y)) != 0:
            return False
        board.play(x, y)
        if board.last_move_wins():
            return False
    return True


def test_the_search_keeps_the_leaves_it_reaches_when_asked() -> None:
    engine = Engine(15, 15, Rule.FREESTYLE, memory_bytes=16 << 20)
    for x, y in GAME["moves"][:6]:
        engine.play(x, y)
    searcher = engine.searcher
    engine.think(Limits(max_nodes=20000))
    assert searcher.leaf_samples == [], "off by default: nothing kept"
    searcher.leaf_sample_every = 97
    engine.think(Limits(max_nodes=20000))
    root = [engine.board.index(x, y) for x, y in GAME["moves"][:6]]
    samples = searcher.leaf_samples
    assert len(samples) >= 5
    for cells in samples:
        assert cells[:6] == root and len(cells) > 6, "a leaf lies below the root"
        assert legal_position([list(engine.board.xy(cell)) for cell in cells])


def test_leaf_positions_are_written_once_each_with_their_game(tmp_path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(GAME) + "\n")
    out = tmp_path / "leaves.jsonl"
    assert leaves.main([str(games), "--first", "4", "--last", "10", "--every", "3", "--nodes", "15000",
                        "--sample-every", "101", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) >= 5
    assert len({tuple(map(tuple, r["moves"])) for r in records}) == len(records), "each position once"
    assert len({r["game"] for r in records}) == 1
    for r in records:
        assert r["rule"] == "freestyle" and r["size"] == 15 and r["winner"] == 0
        prefix = next(ply for ply in (10, 7, 4) if r["moves"][:ply] == GAME["moves"][:ply])
        assert len(r["moves"]) > prefix and legal_position(r["moves"])


def test_as_is_jobs_label_each_record_once_as_it_stands() -> None:
    first = {"rule": "freestyle", "size": 15, "moves": [[7, 7], [8, 8], [9, 9]], "winner": 0, "game": "g1"}
    renju = {"rule": "renju", "size": 15, "moves": [[7, 7]], "winner": 0, "game": "g2"}
    unnamed = {"rule": "freestyle", "size": 15, "moves": [[1, 1]]}
    jobs = label.as_is_jobs([first, dict(first), renju, unnamed])
    assert [job["moves"] for job in jobs] == [first["moves"], renju["moves"], unnamed["moves"]], "the repeat dropped"
    assert jobs[0]["game"] == "g1" and jobs[2]["game"] and jobs[2]["winner"] == 0
    assert [job["moves"] for job in label.as_is_jobs([first, renju], rule="renju")] == [renju["moves"]]


def test_sampled_jobs_cut_each_game_at_its_sampled_plies() -> None:
    record = dict(GAME, moves=GAME["moves"][:9])
    jobs = label.sampled_jobs([record, dict(record)], 3, random.Random(1))
    plies = label.sample_positions(record, 3, random.Random(1))
    assert [len(job["moves"]) for job in jobs] == plies, "the repeated game is sampled once"
    assert all(job["moves"] == record["moves"][:len(job["moves"])] and job["winner"] == 1 for job in jobs)
