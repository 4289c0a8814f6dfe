"""Slow, obviously-correct reference implementations the tests compare the engine against."""
from __future__ import annotations

from pbrain.rules import BLACK, WHITE, Rule

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))


def run_and_ends(grid: "list[list[int]]", x: int, y: int, color: int, dx: int, dy: int) -> "tuple[int, int, int]":
    """Length of the run of `color` through (x, y) along (dx, dy), treating (x, y) as `color`, and the stones
    just past each end (0 for empty, -1 for the edge)."""
    width, height = len(grid), len(grid[0])
    ends = []
    run = 1
    for sign in (1, -1):
        cx, cy = x + sign * dx, y + sign * dy
        while 0 <= cx < width and 0 <= cy < height and grid[cx][cy] == color:
            run += 1
            cx, cy = cx + sign * dx, cy + sign * dy
        ends.append(grid[cx][cy] if 0 <= cx < width and 0 <= cy < height else -1)
    return run, ends[0], ends[1]


def wins(grid: "list[list[int]]", x: int, y: int, color: int, rule: Rule) -> bool:
    """Does `color` playing the empty (x, y) win under `rule`? grid[x][y] holds 0, BLACK or WHITE."""
    other = 3 - color
    for dx, dy in DIRECTIONS:
        run, end1, end2 = run_and_ends(grid, x, y, color, dx, dy)
        blocked = end1 == other and end2 == other
        if rule is Rule.FREESTYLE and run >= 5:
            return True
        if rule is Rule.STANDARD and run == 5:
            return True
        if rule is Rule.RENJU and (run == 5 or (run > 5 and color == WHITE)):
            return True
        if rule is Rule.CARO and (run > 5 or (run == 5 and not blocked)):
            return True
        if rule is Rule.CARO_EXACT and run == 5 and not blocked:
            return True
    return False


def random_position(rng, width: int, height: int, stones: int, black_share: float = 0.5) -> "list[tuple[int, int, int]]":
    """(x, y, colour) stones clustered around a random centre, as games cluster."""
    cx, cy = rng.randrange(width), rng.randrange(height)
    taken = set()
    out = []
    while len(out) < min(stones, width * height - 1):
        x = min(width - 1, max(0, int(rng.gauss(cx, 3))))
        y = min(height - 1, max(0, int(rng.gauss(cy, 3))))
        if (x, y) in taken:
            continue
        taken.add((x, y))
        out.append((x, y, BLACK if rng.random() < black_share else WHITE))
    return out
