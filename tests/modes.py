"""Deterministic workloads whose results must be identical interpreted and compiled (run by test_modes)."""
from __future__ import annotations

import hashlib
import json
import random
import sys

from pbrain.core.board import Board
from pbrain.core.rules import Rule


def board_digest() -> str:
    """Digest of the board state along random place/undo sequences under every rule."""
    out = hashlib.sha256()
    for rule in Rule:
        for width, height in ((15, 15), (11, 7)):
            rng = random.Random(f"{rule}-{width}")
            board = Board(width, height, int(rule))
            for _ in range(120):
                empties = [c for c in board.playable if board.stone(c) == 0]
                if board.move_count and (rng.random() < 0.25 or not empties):
                    board.undo()
                else:
                    board.place(rng.choice(empties))
                snap = board.snapshot()
                forbidden = [c for c in empties if board.is_forbidden(c)] if rule is Rule.RENJU else []
                out.update(json.dumps([snap, forbidden, board.last_move_wins()]).encode())
    return out.hexdigest()




def search_digest() -> str:
    """The bench positions searched to depth 3 within a small node budget, then to depth 4 with singular extensions
    from depth 2 on (at the shipped depth they start past what an interpreted run can reach): nodes and moves per
    position."""
    from pbrain import bench
    from pbrain.engine import Engine, Limits

    out = []
    for singular_depth, depth, nodes in ((None, 3, 20_000), (2, 4, 10_000)):
        for rule, size, played in bench.POSITIONS:
            engine = Engine(size, size, rule, memory_bytes=bench.BENCH_MEMORY)
            for x, y in played:
                engine.play(x, y)
            if singular_depth is not None:
                engine.searcher.singular_depth = singular_depth
            result = engine.think(Limits(max_depth=depth, max_nodes=nodes))
            out.append([result.nodes, result.move, result.score, result.depth])
    return json.dumps(out)


def mcts_digest() -> str:
    """Monte Carlo tree searches with iteration caps (gomoku with the static-eval policy, Connect Four with
    playouts): the move, and the visits and proofs of the root moves."""
    from pbrain.connect4.bitboard import Connect4
    from pbrain.connect4.policy import Connect4Policy
    from pbrain.mcts.gomoku import GomokuGame, GomokuPolicy
    from pbrain.mcts.tree import MCTS

    out = []
    for rule, moves in ((Rule.FREESTYLE, [(7, 7), (8, 8), (7, 8)]), (Rule.RENJU, [(7, 7), (8, 7), (6, 8), (8, 8)])):
        board = Board(15, 15, int(rule))
        for x, y in moves:
            board.play(x, y)
        result = MCTS(GomokuGame(board), GomokuPolicy()).search(max_iterations=1500)
        out.append([result.move, [(s.move, s.visits, s.solved) for s in result.stats[:5]]])
    for moves in ("44", "4433", "3456"):
        result = MCTS(Connect4(moves), Connect4Policy()).search(max_iterations=3000)
        out.append([result.move, [(s.move, s.visits, s.solved) for s in result.stats]])
    return json.dumps(out)


WORKLOADS = {"board": board_digest, "search": search_digest, "mcts": mcts_digest}

if __name__ == "__main__":
    import pbrain

    print(json.dumps({"mode": pbrain.mode(), "digest": WORKLOADS[sys.argv[1]]()}))
