"""tuning.openings: balanced held-out openings, unlike each other and the excluded ones by symmetry."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Sequence

from tuning import openings


def test_offset_lines_round_trip() -> None:
    line = "-2,-1, 2,0, 2,-1"
    assert openings.format_line(openings.parse_line(line)) == line
    assert openings.parse_line("0,0,1,1,-1,2") == ((0, 0), (1, 1), (-1, 2))


def test_mirrors_and_rotations_are_one_shape_and_colours_count() -> None:
    base = ((0, 0), (1, 1), (-1, 2))
    rotated = tuple((-y, x) for x, y in base)
    mirrored = tuple((y, x) for x, y in base)
    assert openings.shape_key(base) == openings.shape_key(rotated) == openings.shape_key(mirrored)
    swapped_colours = ((1, 1), (0, 0), (-1, 2))
    assert openings.shape_key(base) != openings.shape_key(swapped_colours)


def test_balanced_takes_scores_near_even_only() -> None:
    assert openings.balanced("-35", 100) and openings.balanced("100", 100)
    assert not openings.balanced("101", 100) and not openings.balanced("+M9", 100)
    assert not openings.balanced(None, 100)


def test_find_keeps_balanced_distinct_openings_and_leaves_out_the_excluded(tmp_path: Path) -> None:
    asked: List[Sequence[Sequence[int]]] = []

    def scorer(moves: Sequence[Sequence[int]]) -> Optional[str]:
        asked.append(moves)
        return str((moves[0][0] * 37 + moves[2][1] * 11) % 300 - 150)  # a made-up analyst

    excluded_file = tmp_path / "used.txt"
    first = openings.find(scorer, 15, 5, 100, [], seed=3)
    excluded_file.write_text(openings.format_line(first[0]) + "\n# a comment\n\n")
    excluded = openings.read_openings([excluded_file])
    again = openings.find(scorer, 15, 5, 100, excluded, seed=3)
    assert len(first) == len(again) == 5
    keys = {openings.shape_key(o) for o in again}
    assert len(keys) == 5 and openings.shape_key(first[0]) not in keys
    for opening in again:
        assert len(opening) == 3 and all(abs(d) <= 3 for point in opening for d in point)
    assert openings.find(scorer, 15, 5, 100, [], seed=3) == first  # the same seed, the same set
