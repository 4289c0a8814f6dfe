"""Where a player's lost games were lost, by Pentad's own threat solver.

For every game that `--player` lost in an SGF collection (c-gomoku-cli's or Piskvork's; the player is named in its
PB / PW tags), finds the first of the player's moves after which the proof-number VCT proves a win for the opponent
(within `--nodes`), then probes every move the player had there (the empty cells within two of a stone, less the
ones that make a four: those only postpone):

- **A, a defence missed**: some move there is proven safe (the opponent's VCT disproved after it); the player chose
  a losing one.
- **B, lost before**: every move there is proven lost; the losing mistake came earlier, where no VCT was there yet
  (a quiet move of the opponent's made a threat that no reply stops). `B?` when some moves were neither proven
  lost nor safe within the budget.
- **none**: no VCT proven at any of the player's moves (the game was lost to a win outside the threat model).

Prints one line a lost game and the counts. Slow on purpose (up to a second a probe): run it beside nothing else
that is timed.

    .venv/bin/python benchmarks/losses.py /tmp/g/PentaZen.sgf --player pentad
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbrain.core.rules import Rule  # noqa: E402
from pbrain.engine import Engine  # noqa: E402
from pbrain.search.dfpn import ProofSolver  # noqa: E402
from pbrain.search.movegen import MoveGen  # noqa: E402
from pbrain.search.threats import ThreatSolver  # noqa: E402
from tuning.label import games_lost_by, read_sgf  # noqa: E402


def opponent_wins(engine: Engine, nodes: int) -> Tuple[bool, bool]:
    """(proven, disproved): the VCT of the side to move, with a budget of `nodes`."""
    solver = ProofSolver(ThreatSolver(engine.board))
    return solver.prove(nodes, time.perf_counter() + 60), solver.disproved


def makes_a_four(engine: Engine) -> bool:
    """Did the last move leave its player a five to make (a four)?"""
    board = engine.board
    return MoveGen(board, 1).any_five_point(3 - board.side) >= 0


def candidates(engine: Engine, stones: Sequence[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """The legal empty cells within two of a stone."""
    taken = set(stones)
    size = engine.width
    return [(x, y) for y in range(engine.height) for x in range(size) if (x, y) not in taken
            and any(abs(x - a) <= 2 and abs(y - b) <= 2 for a, b in taken) and not engine.is_forbidden(x, y)]


def classify(record: dict, player: int, nodes: int, probe_nodes: int) -> str:
    """One lost game's line: the first losing move and its class (see the module docstring)."""
    moves = [tuple(m) for m in record["moves"]]
    rule = Rule[record["rule"].upper()]
    engine = Engine(record["size"], record["size"], rule=rule)
    first = -1
    for ply, move in enumerate(moves):
        engine.play(*move)
        if ply >= len(record["opening"]) and engine.side_to_move != player and opponent_wins(engine, nodes)[0]:
            first = ply
            break
    if first < 0:
        return "none: no VCT proven after any of its moves"
    engine = Engine(record["size"], record["size"], rule=rule)
    for move in moves[:first]:
        engine.play(*move)
    safe, open_ = [], []
    for move in candidates(engine, moves[:first]):
        engine.play(*move)
        if not makes_a_four(engine):
            proven, disproved = opponent_wins(engine, probe_nodes)
            if disproved:
                safe.append(move)
            elif not proven:
                open_.append(move)
        engine.undo()
    kind = "A" if safe else "B?" if open_ else "B"
    return f"{kind}: move {first + 1} {moves[first]} lets a VCT in; safe {safe[:8]}, undecided {open_[:8]}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sgf", type=Path, help="an SGF collection (c-gomoku-cli writes <out>/<opponent>.sgf)")
    parser.add_argument("--player", required=True, help="the player's name in the PB / PW tags")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="the VCT budget after each of its moves")
    parser.add_argument("--probe-nodes", type=int, default=300_000, help="the VCT budget after each alternative")
    args = parser.parse_args(argv)
    counts: Counter = Counter()
    for number, record, player in games_lost_by(read_sgf(args.sgf.read_text()), args.player):
        line = classify(record, player, args.nodes, args.probe_nodes)
        counts[line.split(":")[0]] += 1
        print(f"game {number}: {line}", flush=True)
    print(", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())) or "no lost games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
