"""Loading the tactics suite (tests/data/*.json) into boards and grids."""
from __future__ import annotations

import json
from pathlib import Path

from pbrain.core.board import Board
from pbrain.core.rules import BLACK, Rule
from pbrain.engine import Engine

DATA = Path(__file__).parent / "data"


def load(name: str, kind: "str | None" = None) -> list:
    """Positions of one file, optionally of one kind; each gets an `id` for test names."""
    path = DATA / name
    items = json.loads(path.read_text()) if path.exists() else []
    out = [item for item in items if kind is None or item.get("kind", kind) == kind]
    for i, item in enumerate(out):
        item["id"] = f"{item['rule'].lower()}{item['size']}-{item.get('kind', 'vcf')}-{i}"
    return out


def position_board(stones, side: int, rule: Rule, size: int) -> Board:
    """A size x size board under `rule` holding (x, y, colour) stones, `side` to move."""
    board = Board(size, size, int(rule))
    for x, y, color in stones:
        board.place(board.index(x, y), color)
    board.set_side(side)
    return board


def board_of(item: dict) -> Board:
    """The board of a suite position."""
    return position_board(item["stones"], item["side"], Rule[item["rule"]], item["size"])


def engine_of(item: dict) -> Engine:
    engine = Engine(item["size"], item["size"], Rule[item["rule"]], memory_bytes=64 << 20)
    engine.set_position([tuple(s) for s in item["stones"]], item["side"])
    return engine


def grid_of(item: dict) -> "list[list[int]]":
    grid = [[0] * item["size"] for _ in range(item["size"])]
    for x, y, color in item["stones"]:
        grid[x][y] = color
    return grid


def defender_loses(board: Board, attacker: int, attacker_wins, counter_fours: int = 3) -> bool:
    """The defender is to move while the attacker's threat stands: does every reply lose? A reply that leaves the
    attacker's four loses to the five; a reply that makes a four is answered by the attacker's forced block, after
    which the defender must find another reply; after any other reply `attacker_wins(board)` must prove the win."""
    defender = 3 - attacker
    replies = [c for c in board.candidates() if not (defender == BLACK and board.is_forbidden(c))]
    for reply in replies:
        board.place(reply)
        try:
            if board.last_move_wins():
                return False
            if any(board.is_win_move(c, attacker) for c in board.candidates()):
                continue
            blocks = [c for c in board.candidates() if board.is_win_move(c, defender)]
            if blocks:
                if len(blocks) > 1 or counter_fours == 0 or (attacker == BLACK and board.is_forbidden(blocks[0])):
                    return False
                board.place(blocks[0])
                try:
                    if not defender_loses(board, attacker, attacker_wins, counter_fours - 1):
                        return False
                finally:
                    board.undo()
            elif not attacker_wins(board):
                return False
        finally:
            board.undo()
    return True
