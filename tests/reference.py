"""Slow, obviously-correct reference implementations the tests compare the engine against."""
from __future__ import annotations

from pbrain.core.rules import BLACK, WHITE, Rule

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


def random_position(rng, width: int, height: int, stones: int,
                    black_share: float = 0.5) -> "list[tuple[int, int, int]]":
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


def five_points(grid: "list[list[int]]", color: int, rule: Rule) -> "list[tuple[int, int]]":
    """Every empty point where `color` would win at once."""
    return [(x, y) for x in range(len(grid)) for y in range(len(grid[0]))
            if grid[x][y] == 0 and wins(grid, x, y, color, rule)]


def check_vcf_line(grid: "list[list[int]]", rule: Rule, attacker: int, line: "list[tuple[int, int]]",
                   forbidden=None) -> None:
    """Assert that `line` (attacker, defender, attacker, ...) is a win by continuous fours, by brute force:
    every attacker move leaves exactly one five point (or ends the game), every defender move takes it, the
    defender never has a five of its own, and the last attacker move makes five, or leaves two five points, or
    leaves one the defender may not play (renju black). `forbidden(grid, x, y)` says if black may not play
    there. The grid is restored."""
    defender = 3 - attacker
    placed = []
    try:
        for i, (x, y) in enumerate(line):
            assert grid[x][y] == 0, f"move {i} at ({x},{y}) is occupied"
            if i % 2 == 0:
                if attacker == BLACK and forbidden is not None:
                    assert not forbidden(grid, x, y), f"attacker move {i} ({x},{y}) is forbidden"
                defender_fives = five_points(grid, defender, rule)
                assert not defender_fives or defender_fives == [(x, y)], f"defender can win before move {i}"
                if wins(grid, x, y, attacker, rule):
                    assert i == len(line) - 1, "a five before the end of the line"
                    return
                grid[x][y] = attacker
                placed.append((x, y))
                threats = five_points(grid, attacker, rule)
                assert threats, f"attacker move {i} ({x},{y}) is not a four"
                if i == len(line) - 1:
                    assert len(threats) >= 2 or (defender == BLACK and forbidden is not None
                                                 and all(forbidden(grid, *t) for t in threats)), \
                        "the line ends on a four the defender can block"
                    return
                if len(threats) >= 2:
                    return  # open or double four: the defender cannot block both
                assert list(line[i + 1]) == list(threats[0]), f"defender move {i + 1} is not the forced block"
                if defender == BLACK and forbidden is not None and forbidden(grid, *threats[0]):
                    return  # black may not block: white wins
            else:
                grid[x][y] = defender
                placed.append((x, y))
        raise AssertionError("the line ended on a defender move")
    finally:
        for x, y in placed:
            grid[x][y] = 0
