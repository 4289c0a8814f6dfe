"""Regenerate tests/data/tactics.json: positions from fast self-play games, classified with large budgets.

Kinds (side to move is the one whose problem it is):
  vcf        - wins by continuous fours; `fours` is the number of attacking moves in the line found
  vct        - no VCF within a large budget, but a forced win by threats (first move not a four)
  defend     - the opponent has a VCF if we pass; `defences` are the moves after which it has none,
               `losing` every other candidate move (each refuted by a concrete opponent VCF)
  renju_trap - renju, black to move: some near cells are forbidden and must never be played; or white to move
               wins by a VCF whose forced black reply is forbidden
Run: python -m tests.data.make_tactics  (takes a few minutes; the output is deterministic for a given engine).
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from pbrain.board import Board
from pbrain.engine import Engine, Limits
from pbrain.rules import BLACK, Rule
from pbrain.threats import ThreatSolver

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


def board_of(stones, side: int, rule: Rule, size: int) -> Board:
    board = Board(size, size, int(rule))
    for x, y, color in stones:
        board.place(board.index(x, y), color)
    board.set_side(side)
    return board


def classify(stones, side: int, rule: Rule, size: int) -> "dict | None":
    board = board_of(stones, side, rule, size)
    me, opp = side, 3 - side
    if board.count(me, 13) or board.count(opp, 13) or board.count(me, 12):
        return None  # trivial: a five or an open four on the board
    solver = ThreatSolver(board)
    base = {"rule": rule.name, "size": size, "stones": stones, "side": side}
    if solver.vcf(60, BIG_NODES):
        line = [board.xy(c) for c in solver.winning_line()]
        return {**base, "kind": "vcf", "fours": (len(line) + 1) // 2, "line": line}
    if solver.vct(8, BIG_NODES):
        return {**base, "kind": "vct", "first": board.xy(solver.winning_line()[0])}
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


def main() -> None:
    wanted = {"vcf": 40, "vct": 16, "defend": 24, "renju_trap": 16}
    found: list = []
    counts = {k: 0 for k in wanted}
    plan = [(Rule.FREESTYLE, 15, 1), (Rule.FREESTYLE, 20, 2), (Rule.STANDARD, 15, 3), (Rule.RENJU, 15, 4)]
    for rule, size, seed in plan * 3:
        per_rule = {k: 0 for k in wanted}
        for stones, side in self_play_positions(rule, size, games=12, seed=seed + 100 * len(found)):
            item = classify(stones, side, rule, size)
            if item is None:
                continue
            kind = item["kind"]
            if counts[kind] >= wanted[kind] or per_rule[kind] >= wanted[kind] // 3:
                continue
            if kind == "vcf" and item["fours"] < 3 and per_rule[kind] > 3:
                continue  # keep the long ones
            counts[kind] += 1
            per_rule[kind] += 1
            found.append(item)
            print(rule.name, size, kind, item.get("fours", ""), counts, file=sys.stderr)
        if all(counts[k] >= wanted[k] for k in wanted):
            break
    OUT.write_text(json.dumps(found, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {len(found)} positions: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
