"""tuning.dataset: labelled positions from self-play in resumable shards (Pentad itself as a small analyst)."""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from pbrain.core.board import Board
from pbrain.core.rules import Rule
from tuning import dataset
from tuning.openings import read_openings

ROOT = Path(__file__).resolve().parent.parent
ANALYST = f"{sys.executable} -m pbrain"
"""Pentad as the analyst (tuning.label starts a brain in its executable's folder: here the interpreter's, where
`-m pbrain` still finds the editable install)."""
FIELDS = {"rule", "size", "moves", "winner", "game", "eval", "best", "result", "source"}


def small_run(out: Path, *more: str) -> int:
    return dataset.main(["--brain", ANALYST, "--nodes", "200", "--play-nodes", "300", "--games-per-shard", "1",
                         "--mix", "freestyle:15:0.5,renju:15:0.5", "--target-positions", "20", "--workers", "1",
                         "--leaves", "2", "--out", str(out), *more])


def test_shards_are_written_whole_and_a_run_resumes(tmp_path) -> None:
    out = tmp_path / "data"
    assert small_run(out) == 0
    shards = sorted(out.glob("*/shard-*.jsonl.gz"))
    assert {path.parent.name for path in shards} == {"freestyle-15", "renju-15"}
    assert not list(out.glob("*/*.tmp"))
    records = [record for path in shards for record in dataset.read_shard(path)]
    assert len(records) >= 20 and any(r["source"] == "leaf" for r in records)
    for record in records:
        assert set(record) == FIELDS
        assert re.fullmatch(r"[+-]?\d+|[+-]M\d+", record["eval"]), record["eval"]
        if record["source"] == "game":
            assert record["result"] in (0.0, 0.5, 1.0)
        else:
            assert record["source"] == "leaf" and record["result"] is None
        board = Board(15, 15, int(Rule[record["rule"].upper()]))
        for x, y in record["moves"]:
            board.play(x, y)
        assert board.stone(board.index(*record["best"])) == 0, "the analyst's move is on an empty cell"
    for path in shards:
        keys = [dataset.position_key(r["moves"]) for r in dataset.read_shard(path)]
        assert len(set(keys)) == len(keys), "each position once in a shard"

    kept, removed = shards[0], shards[-1]
    before, stamp = removed.read_bytes(), kept.stat().st_mtime_ns
    removed.unlink()
    assert small_run(out) == 0
    assert removed.read_bytes() == before, "the missing shard is made again, the same"
    assert kept.stat().st_mtime_ns == stamp, "a shard written is skipped"
    assert sorted(out.glob("*/shard-*.jsonl.gz")) == shards
    with pytest.raises(SystemExit):
        small_run(out, "--nodes", "300")


def test_games_never_start_from_a_held_out_opening() -> None:
    keys = dataset.held_out_keys(dataset.HELD_OUT)
    held_out = read_openings(dataset.HELD_OUT)
    assert [path.name for path in dataset.HELD_OUT] == ["heldout-freestyle-15.txt", "heldout-freestyle-20.txt",
                                                        "heldout-renju-15.txt", "heldout-standard-15.txt"]
    assert len(held_out) == 250
    for path in dataset.HELD_OUT:
        assert len(dataset.held_out_keys([path])) == len(read_openings([path])), "a set's openings are all unlike"

    def at(opening: tuple) -> tuple:
        return tuple((7 + dx, 7 + dy) for dx, dy in opening)

    (b1, w, b2) = held_out[0]
    mirrored = ((b1[1], b1[0]), (w[1], w[0]), (b2[1], b2[0]))
    assert dataset.touches_held_out(at(held_out[0]), 15, keys)
    assert dataset.touches_held_out(at(mirrored), 15, keys)
    assert dataset.touches_held_out(at((b1, (5, 5), b2, w, (-5, -5))), 15, keys), "within a larger opening"
    assert not dataset.touches_held_out(at((b1, (5, 5), (-5, -5), w)), 15, keys)
    spec = dataset.ShardSpec("freestyle", 15, 0, 3000, 1, 300, 3, 4, 0.0, 0, 0, 0, 0)
    openings = dataset.shard_openings(spec, keys, random.Random(1))
    assert len(openings) == 3000 and not any(dataset.touches_held_out(o, 15, keys) for o in openings)
    assert dataset.shard_openings(spec, set(), random.Random(1)) != openings, "some were drawn and refused"


def test_leaves_come_from_several_thinks_each_once() -> None:
    from tuning.games import GameSpec, play_game

    record = play_game(GameSpec("freestyle", 15, ((7, 7), (8, 8), (6, 8)), 300), random.Random(2), 0.0, 0)
    jobs = dataset.leaf_jobs(record, 12, random.Random(3), thinks=3, nodes=4000)
    assert 1 < len(jobs) <= 12
    assert len({dataset.position_key(job["moves"]) for job in jobs}) == len(jobs)
    assert all(job["source"] == "leaf" and job["result"] is None for job in jobs)
    assert all(len(job["moves"]) > len(record["opening"]) for job in jobs)
    assert dataset.leaf_jobs(record, 0, random.Random(3), thinks=3, nodes=4000) == []
