"""Connect Four matches between Pentad's players (pbrain.connect4.players.PLAYERS) at a fixed time a move.

Every opening (random legal moves, `--opening-stones` of them, none of which ends the game or leaves a win in one)
is played twice with the colours swapped; both players run in this process, one at a time. Prints the result table
(wins / losses / draws of the first player, score, Elo difference with a 95 % interval).

    python benchmarks/connect4_match.py mcts alphabeta --games 40 --time 1.0
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbrain.connect4.bitboard import Connect4  # noqa: E402
from pbrain.connect4.players import PLAYERS  # noqa: E402


def openings(count: int, stones: int, seed: int) -> List[str]:
    """`count` distinct random openings of `stones` moves: no win on the board and none to take at once."""
    rng = random.Random(seed)
    found: List[str] = []
    while len(found) < count:
        pos = Connect4()
        for _ in range(stones):
            pos.play(rng.choice(pos.legal_moves()))
            if pos.is_over():
                break
        if pos.is_over() or any(pos.is_winning_move(c) for c in pos.legal_moves()):
            continue
        if pos.moves_string() not in found:
            found.append(pos.moves_string())
    return found


def play_game(opening: str, first: str, second: str, time_s: float) -> Tuple[int, int, List[int]]:
    """One game from `opening`; `first` plays the side to move after it. Returns (result for `first`: 1 win,
    0 draw, -1 loss; the number of moves; the per-move milliseconds of each player, interleaved)."""
    pos = Connect4(opening)
    players = {pos.side: first, 3 - pos.side: second}
    first_colour = pos.side
    times = []
    while not pos.is_over():
        answer = PLAYERS[players[pos.side]](pos, time_s)
        times.append(answer.time_ms)
        if not pos.can_play(answer.column):
            raise RuntimeError(f"{players[pos.side]} played an illegal column {answer.column} in {pos.moves_string()}")
        pos.play(answer.column)
    winner = pos.winner()
    return (0 if winner == 0 else (1 if winner == first_colour else -1)), pos.move_count, times


def elo(score: float, games: int) -> Tuple[float, float]:
    """Elo difference of a score share and the half-width of its 95 % interval (normal approximation)."""
    def to_elo(p: float) -> float:
        p = min(max(p, 1e-3), 1 - 1e-3)
        return -400.0 * math.log10(1.0 / p - 1.0)

    spread = 1.96 * math.sqrt(max(score * (1 - score), 1e-6) / games)
    return to_elo(score), (to_elo(min(score + spread, 1)) - to_elo(max(score - spread, 0))) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", choices=sorted(PLAYERS))
    parser.add_argument("second", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=40, help="games (even: each opening twice)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--opening-stones", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    wins = losses = draws = 0
    max_ms = 0
    started = time.time()
    for i, opening in enumerate(openings((args.games + 1) // 2, args.opening_stones, args.seed)):
        for swap in (False, True):
            if 2 * i + swap >= args.games:
                break
            first, second = (args.second, args.first) if swap else (args.first, args.second)
            result, moves, times = play_game(opening, first, second, args.time)
            result = -result if swap else result
            wins += result == 1
            losses += result == -1
            draws += result == 0
            max_ms = max([max_ms] + times)
            print(f"game {2 * i + swap + 1}: opening {opening}, {args.first} {'second' if swap else 'first'}: "
                  f"{('loss', 'draw', 'win')[result + 1]} in {moves} moves", flush=True)
    games = wins + losses + draws
    score = (wins + 0.5 * draws) / games
    diff, margin = elo(score, games)
    print(f"\n| {args.first} vs {args.second} | games | W | L | D | score | Elo |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {args.time:g} s a move, {args.opening_stones}-stone random openings | {games} | {wins} | {losses} | "
          f"{draws} | {100 * score:.1f} % | {diff:+.0f} ± {margin:.0f} |")
    print(f"slowest move {max_ms} ms; {time.time() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
