"""Regenerate tests/data/tactics.json: positions from fast self-play games, classified with large budgets.

Kinds (side to move is the one whose problem it is):
  vcf        - wins by continuous fours; `fours` is the shortest such win (iterative deepening on the number of
               attacking fours); from random dense positions, which hold more and longer VCFs than self-play
  vct        - no VCF within a large budget, but a forced win by threats (first move not a four)
  defend     - the opponent has a VCF if we pass; `defences` are the moves after which it has none,
               `losing` every other candidate move (each refuted by a concrete opponent VCF)
  renju_trap - renju, black to move: some near cells are forbidden and must never be played; or white to move
               wins by a VCF whose forced black reply is forbidden
Run: python -m tests.data.make_tactics [kind ...]  (all kinds take ~15 minutes; the output is deterministic for a
given engine; naming kinds regenerates only those and keeps the rest of the file).
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from pbrain.core.board import Board
from pbrain.core.rules import BLACK, Rule
from pbrain.engine import Engine, Limits
from pbrain.search.threats import ThreatSolver
from tests.tactics import position_board

OUT = Path(__file__).with_name("tactics.json")
BIG_NODES = 400_000


def self_play_positions(rule: Rule, size: int, games: int, seed: int):
    """Yield (stones, side) after every move of fast randomised self-play games."""
    rng = random.Random(seed)
    for _ in range(games):
        engine = Engine(size, size, rule, memory_bytes=64 << 20)
        c = size // 2
        for _ in range(rng.randint(3, 7)):
            while True:
                x, y = c + rng.randint(-3, 3), c + rng.randint(-3, 3)
                try:
                    engine.play(x, y)
                    break
                except Exception:
                    continue
        for _ in range(size * size):
            if engine.last_move_wins() or engine.board.is_full():
                break
            yield engine.stones(), engine.side_to_move
            result = engine.think(Limits(max_nodes=rng.choice((800, 2000, 5000)), max_depth=8))
            if result.move is None:
                break
            engine.play(*result.move)


def shortest_vcf(board: Board, solver: ThreatSolver, limit: int = 60) -> int:
    """Fewest attacking fours that win for the side to move (0: no VCF within BIG_NODES)."""
    if not solver.vcf(limit, BIG_NODES):
        return 0
    for fours in range(1, limit + 1):
        if solver.vcf(fours, BIG_NODES):
            return fours
    return 0


def random_vcf_positions(rule: Rule, size: int, count: int, seed: int) -> list:
    """Random clustered positions where the side to move wins by VCF, longest-first variety."""
    rng = random.Random(seed)
    by_length: dict = {}
    for _ in range(6000):
        sigma, share = rng.choice((4, 5, 6)), rng.choice((0.55, 0.6, 0.65))
        cx, cy = rng.randrange(4, size - 4), rng.randrange(4, size - 4)
        taken, stones = set(), []
        while len(stones) < min(rng.randint(40, 110), size * size // 2):
            x = min(size - 1, max(0, int(rng.gauss(cx, sigma))))
            y = min(size - 1, max(0, int(rng.gauss(cy, sigma))))
            if (x, y) not in taken:
                taken.add((x, y))
                stones.append([x, y, 1 if rng.random() < share else 2])
        side = rng.choice((1, 2))
        board = position_board(stones, side, rule, size)
        if board.count(1, 13) or board.count(2, 13) or board.count(side, 12):
            continue
        solver = ThreatSolver(board)
        fours = shortest_vcf(board, solver)
        if fours and len(by_length.setdefault(fours, [])) < 2:
            solver.vcf(60, BIG_NODES)
            line = [board.xy(c) for c in solver.winning_line()]
            by_length[fours].append({"rule": rule.name, "size": size, "stones": stones, "side": side,
                                     "kind": "vcf", "fours": fours, "line": line})
    lengths = sorted(by_length)
    spread = []  # alternately the longest and the shortest remaining lengths
    while lengths:
        spread.append(lengths.pop())
        if lengths:
            spread.append(lengths.pop(0))
    picked = [p for length in spread for p in by_length[length][:1]]
    picked += [p for length in spread for p in by_length[length][1:]]
    return picked[:count]


def classify(stones, side: int, rule: Rule, size: int) -> "dict | None":
    board = position_board(stones, side, rule, size)
    me, opp = side, 3 - side
    if board.count(me, 13) or board.count(opp, 13) or board.count(me, 12):
        return None  # trivial: a five or an open four on the board
    solver = ThreatSolver(board)
    base = {"rule": rule.name, "size": size, "stones": stones, "side": side}
    if solver.vcf(60, BIG_NODES):
        return None  # VCF positions come from random_vcf_positions
    if solver.vct(8, BIG_NODES):
        first = solver.winning_line()[0]
        if board.pattern4(first, me) >= 9:  # Pattern4.BLOCK4: a four first is not what this kind is for
            return None
        return {**base, "kind": "vct", "first": board.xy(first), "vct_nodes": solver.nodes}
    # Must-defend: would the opponent win by VCF if we passed?
    board.set_side(opp)
    threat = solver.vcf(40, BIG_NODES)
    board.set_side(me)
    if threat:
        defences, losing = [], []
        for cell in board.candidates():
            if board.stone(cell) != 0 or (me == BLACK and board.is_forbidden(cell)):
                continue
            board.place(cell)
            (losing if solver.vcf(40, BIG_NODES) else defences).append(board.xy(cell))
            board.undo()
        if 1 <= len(defences) <= 6:
            return {**base, "kind": "defend", "defences": defences, "losing": losing}
    if rule is Rule.RENJU and me == BLACK:
        forbidden = [board.xy(c) for c in board.candidates() if board.is_forbidden(c)]
        if forbidden:
            return {**base, "kind": "renju_trap", "forbidden": forbidden}
    return None


def main(kinds: "list[str]") -> None:
    """Regenerate the given kinds (all when empty), keeping the other kinds' positions from the current file."""
    kinds = kinds or ["vcf", "vct", "defend", "renju_trap"]
    old = json.loads(OUT.read_text()) if OUT.exists() else []
    found: list = [item for item in old if item["kind"] not in kinds]
    for rule, size, seed in [(Rule.FREESTYLE, 15, 11), (Rule.FREESTYLE, 20, 12), (Rule.STANDARD, 15, 13),
                             (Rule.RENJU, 15, 14)]:
        if "vcf" in kinds:
            found += random_vcf_positions(rule, size, 10, seed)
            print(rule.name, size, "vcf", len(found), file=sys.stderr)
    wanted = {k: n for k, n in {"vct": 16, "defend": 24, "renju_trap": 16}.items() if k in kinds}
    counts = {k: 0 for k in wanted}
    plan = [(Rule.FREESTYLE, 15, 1), (Rule.FREESTYLE, 20, 2), (Rule.STANDARD, 15, 3), (Rule.RENJU, 15, 4)]
    for round_ in range(4 if wanted else 0):
        for rule, size, seed in plan:
            per_rule = {k: 0 for k in wanted}
            for stones, side in self_play_positions(rule, size, games=10, seed=seed + 1000 * round_):
                item = classify(stones, side, rule, size)
                if item is None:
                    continue
                kind = item["kind"]
                if counts[kind] >= wanted[kind] or per_rule[kind] >= max(2, wanted[kind] // 8):
                    continue
                counts[kind] += 1
                per_rule[kind] += 1
                found.append(item)
                print(rule.name, size, kind, counts, file=sys.stderr)
        if all(counts[k] >= wanted[k] for k in wanted):
            break
    OUT.write_text(json.dumps(found, separators=(",", ":")) + "\n")
    print(f"wrote {len(found)} positions: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
