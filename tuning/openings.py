"""Balanced openings for matches: random 3-stone openings that an analyst brain scores near even, none of them the
same as (or a mirror or rotation of) an opening in the files to exclude.

Strength is measured on openings no tuning has seen: write a set with this, keep it out of every fit (tuning.games
draws its own random openings), and measure on it. Output: one opening a line in the offset format match runners
read (c-gomoku-cli `type=offset`): `dx,dy, dx,dy, dx,dy` from the centre, black, white, black; white to move.

    python -m tuning.openings --brain /path/to/pbrain-x --count 100 --exclude used.txt --out heldout.txt
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Callable, Iterable, List, Optional, Sequence, Set, Tuple

from tuning.games import random_opening
from tuning.label import Analyst

Offset = Tuple[int, int]
Opening = Tuple[Offset, ...]
Scorer = Callable[[Sequence[Sequence[int]]], Optional[str]]
"""The analyst's score for the side to move after the moves (an integer, or a mate such as "+M9"), or None."""


def parse_line(line: str) -> Opening:
    """'-2,-1, 2,0, 2,-1' -> ((-2, -1), (2, 0), (2, -1)); ValueError on anything else."""
    numbers = [int(v) for v in line.replace(",", " ").split()]
    if not numbers or len(numbers) % 2:
        raise ValueError(f"not an opening in offset format: {line!r}")
    return tuple((numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2))


def format_line(opening: Opening) -> str:
    """The offset line of an opening."""
    return ", ".join(f"{dx},{dy}" for dx, dy in opening)


def shape_key(opening: Opening) -> Tuple[Tuple[int, int, int], ...]:
    """The same for an opening and its 7 mirror images and rotations about the centre: (dx, dy, colour index) of
    the stones, in the first of the 8 orientations in sorted order."""
    images = []
    for flip in (False, True):
        for turn in range(4):
            stones = []
            for i, (dx, dy) in enumerate(opening):
                x, y = (dy, dx) if flip else (dx, dy)
                for _ in range(turn):
                    x, y = -y, x
                stones.append((x, y, i % 2))
            images.append(tuple(sorted(stones)))
    return min(images)


def read_openings(paths: Iterable[Path]) -> List[Opening]:
    """Every opening of the files (blank lines and # comments skipped)."""
    found = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                found.append(parse_line(line))
    return found


def balanced(score: Optional[str], max_eval: int) -> bool:
    """True for a score within max_eval of even (no mate, no missing score)."""
    if score is None or "M" in score:
        return False
    return abs(int(score)) <= max_eval


def find(scorer: Scorer, size: int, count: int, max_eval: int, exclude: Sequence[Opening], seed: int,
         spread: int = 3, max_tries: int = 0) -> List[Opening]:
    """`count` openings of 3 stones within `spread` of the centre of a size x size board whose score for white is
    within max_eval of even, no two alike by symmetry and none like an excluded one. Draws from `seed` (the same
    seed and scorer give the same set); stops after max_tries candidates (default 20 per opening)."""
    rng = random.Random(seed)
    centre = size // 2
    seen: Set[Tuple[Tuple[int, int, int], ...]] = {shape_key(o) for o in exclude}
    found: List[Opening] = []
    for _ in range(max_tries or 20 * count):
        if len(found) == count:
            break
        moves = random_opening(rng, size, 3, spread)
        opening = tuple((x - centre, y - centre) for x, y in moves)
        key = shape_key(opening)
        if key in seen:
            continue
        seen.add(key)
        if balanced(scorer([list(m) for m in moves]), max_eval):
            found.append(opening)
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: an analyst brain in, an openings file out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brain", required=True, help="the analyst brain's executable")
    parser.add_argument("--count", type=int, default=100, help="openings to find")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--rule", default="freestyle", choices=("freestyle", "standard", "renju", "caro"))
    parser.add_argument("--turn-ms", type=int, default=700, help="the analyst's time for each candidate")
    parser.add_argument("--max-eval", type=int, default=100, help="keep scores within this of even")
    parser.add_argument("--exclude", type=Path, nargs="*", default=[], help="openings files to keep out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    analyst = Analyst([args.brain], args.turn_ms, before_each=["YXHASHCLEAR"])
    try:
        found = find(lambda moves: analyst.evaluate(args.size, args.rule, moves), args.size, args.count,
                     args.max_eval, read_openings(args.exclude), args.seed)
    finally:
        analyst.close()
    args.out.write_text("".join(format_line(o) + "\n" for o in found))
    print(f"{len(found)} openings written to {args.out}", file=sys.stderr)
    return 0 if len(found) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
