"""Where a player's lost games turned, by a stronger brain's evaluation.

For every game that `--player` lost in an SGF collection (c-gomoku-cli's or Piskvork's; the player is named in its
PB / PW tags), an analyst brain (any that reports its score in MESSAGE lines: `Eval 123` / `Eval +M13` like Rapfi,
or `ev -45` like Pentad) scores the position before each of the player's moves, the player to move, until it sees
the player mated. The game is classed by that curve:

- **thrown win**: the analyst saw a forced win for the player (+M) at some move, and the game was lost after all.
- **collapse**: one move of the player's (with the opponent's reply) took the score down by `--collapse` or more
  from above `-collapse`: a move that let in an attack the player did not see.
- **drift**: the score fell over many moves, none of them a collapse: lost on the evaluation, not on a tactic.

Prints the curve and the class of each lost game, the largest drop (the player's move, the scores before and after),
and the counts. The analyst is timed: run it beside nothing else that is timed.

    .venv/bin/python benchmarks/turns.py /tmp/g/PentaZen.sgf --player pentad --analyst /path/to/pbrain-rapfi
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tuning.label import Analyst, games_lost_by, read_sgf  # noqa: E402

MATE = 10000
"""The value of a forced win (+M) in a curve; a forced loss is -MATE."""


def score_value(text: Optional[str]) -> Optional[int]:
    """An analyst's score ('123', '-45', '+M13', '-M8') as a number, mates as +-MATE; None stays None."""
    if text is None:
        return None
    if "M" in text:
        return -MATE if text.startswith("-") else MATE
    return int(text)


def classify(curve: Sequence[Tuple[int, Optional[int]]], collapse: int) -> Tuple[str, Optional[Tuple[int, int, int]]]:
    """The class of a lost game from its curve ((stones on the board, score for the player to move) before each of
    the player's moves) and its largest drop (stones, score before, score after), None with fewer than two scores."""
    scored = [(k, v) for k, v in curve if v is not None]
    drops = [(before - after, k, before, after) for (k, before), (_, after) in zip(scored, scored[1:])
             if before < MATE]
    largest = max(drops) if drops else None
    if any(v >= MATE for _, v in scored):
        kind = "thrown win"
    elif any(drop >= collapse and before > -collapse for drop, _, before, _ in drops):
        kind = "collapse"
    else:
        kind = "drift"
    return kind, (largest[1], largest[2], largest[3]) if largest else None


def trace(record: dict, player: int, analyst: Analyst) -> List[Tuple[int, Optional[int]]]:
    """The analyst's score before each of `player`'s moves (1 black, 2 white) after the opening, until it sees the
    player mated."""
    moves = record["moves"]
    curve: List[Tuple[int, Optional[int]]] = []
    for k in range(len(record["opening"]), len(moves)):
        if k % 2 != player - 1:  # black moves on an even stone count
            continue
        value = score_value(analyst.evaluate(record["size"], record["rule"], moves[:k]))
        curve.append((k, value))
        if value is not None and value <= -MATE:
            break
    return curve


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sgf", type=Path, help="an SGF collection (c-gomoku-cli's <out>/<opponent>.sgf)")
    parser.add_argument("--player", required=True, help="the player's name in the PB / PW tags")
    parser.add_argument("--analyst", required=True, help="the analyst brain's executable")
    parser.add_argument("--turn-ms", type=int, default=500, help="the analyst's time a position (default 500)")
    parser.add_argument("--collapse", type=int, default=500,
                        help="a drop of this much from above -this is a collapse (default 500)")
    parser.add_argument("--games", type=int, default=0, help="stop after this many lost games (0: all)")
    args = parser.parse_args(argv)
    analyst = Analyst([args.analyst], args.turn_ms)
    counts: Counter = Counter()
    try:
        for number, record, player in games_lost_by(read_sgf(args.sgf.read_text()), args.player):
            curve = trace(record, player, analyst)
            kind, largest = classify(curve, args.collapse)
            counts[kind] += 1
            shown = " ".join(f"{k}:{'?' if v is None else v}" for k, v in curve)
            drop = ""
            if largest is not None:
                k, before, after = largest
                drop = f"; largest drop at stone {k + 1} {tuple(record['moves'][k])}: {before} -> {after}"
            print(f"game {number} ({'black' if player == 1 else 'white'}): {kind}{drop}\n  {shown}", flush=True)
            if args.games and sum(counts.values()) >= args.games:
                break
    finally:
        analyst.close()
    print(", ".join(f"{kind} {counts[kind]}" for kind in ("collapse", "thrown win", "drift")),
          f"of {sum(counts.values())} lost games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
