"""benchmarks/losses.py: a lost game is traced to the move that let the opponent's VCT in, and classed."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from tuning.label import read_sgf

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "losses.py"
SPEC = importlib.util.spec_from_file_location("losses", SCRIPT)
losses = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(losses)  # type: ignore[union-attr]

LOST_GAME = """(;FF[4]GM[4]GN[6]RU[0]SZ[15]PB[main]PW[PentaZen]RE[W+1]
;B[ff]C[opening move];W[ji]C[opening move];B[ig]C[opening move]
;W[ii]C[212ms];B[if]C[281ms];W[jh]C[176ms];B[ie]C[280ms];W[id]C[210ms];B[jf]C[279ms];W[jj]C[29ms];B[hf]C[280ms]
;W[gf]C[0ms];B[lf]C[223ms];W[kf]C[0ms];B[jl]C[3ms];W[ih]C[0ms];B[kj]C[14ms];W[hh]C[1ms];B[kh]C[2ms]
;W[kk]C[0ms];B[gg]C[1ms];W[ll]C[0ms])"""
"""A 0.3 s game against PentaZen (2026-11-24): Pentad's (black) ninth stone, (9, 5), let in a VCT that the proof-number
search needs about 80 k nodes for; (10, 6) was the one move after which no VCT is left."""


def test_a_missed_defence_is_found_and_classed_a() -> None:
    (record,) = read_sgf(LOST_GAME)
    assert record["players"] == ["main", "PentaZen"] and record["winner"] == 2
    line = losses.classify(record, 1, 1_000_000, 300_000)
    assert line.startswith("A: move 9 (9, 5)"), line
    assert "safe [(10, 6)]" in line
