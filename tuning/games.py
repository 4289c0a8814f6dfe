"""Generate games for fitting the evaluation: Pentad against itself, one engine per side, in parallel with Ray.

Each game starts from a random opening (a few stones of each colour near the centre, no five-in-a-row threat), then
both sides play under a node limit, so a game depends only on its opening and the engine's code (not on the
machine's speed or load). Output: one JSON object per line, {"rule", "size", "opening", "moves", "winner"}, where
"moves" includes the opening and "winner" is 1 (black), 2 (white) or 0 (draw).

    python -m tuning.games --games 2000 --nodes 20000 --out games.jsonl            # local Ray, every core
    python -m tuning.games --games 20000 --address ray://head:10001 --out big.jsonl  # a Ray cluster
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple

Point = Tuple[int, int]
RULES = ("freestyle", "standard", "renju", "caro")


@dataclass(frozen=True)
class GameSpec:
    """One game to play: rule name, board size, opening moves (alternating, black first) and the node limit."""

    rule: str
    size: int
    opening: Tuple[Point, ...]
    nodes: int


def random_opening(rng: random.Random, size: int, stones: int, spread: int = 3) -> Tuple[Point, ...]:
    """`stones` distinct points within `spread` of the centre, black first (no shape there can be a threat yet:
    with at most 3 stones a side nothing is a four)."""
    centre = size // 2
    cells: List[Point] = []
    while len(cells) < stones:
        point = (centre + rng.randint(-spread, spread), centre + rng.randint(-spread, spread))
        if point not in cells:
            cells.append(point)
    return tuple(cells)


def specs(games: int, rule: str, size: int, nodes: int, stones: int, seed: int) -> List[GameSpec]:
    """The games of one run: a random opening each, drawn from `seed` (the same seed gives the same games)."""
    rng = random.Random(seed)
    return [GameSpec(rule, size, random_opening(rng, size, stones), nodes) for _ in range(games)]


def play_game(spec: GameSpec, rng: Optional[random.Random] = None, second_best: float = 0.0, plies: int = 0) -> dict:
    """Play one game between two engines (no shared hash table) and return its record. With `rng`, at each of the
    first `plies` moves after the opening the side to move plays, with probability `second_best`, its second-best
    move instead (a search of the root without its best move), so that games from one opening vary; not where its
    best move is forced (a five, the only defence, a win by threats) nor where the second one is a proven loss."""
    from pbrain import params
    from pbrain.core.rules import BLACK, WHITE, Rule
    from pbrain.engine import Engine, Limits

    rule = Rule[spec.rule.upper()]
    engines = {side: Engine(spec.size, spec.size, rule, memory_bytes=32 << 20) for side in (BLACK, WHITE)}
    referee = engines[BLACK]
    moves: List[Point] = []
    winner = 0
    for move in spec.opening:
        for engine in engines.values():
            engine.play(*move)
        moves.append(move)
    limits = Limits(max_nodes=spec.nodes)
    while not referee.board.is_full():
        side = referee.side_to_move
        result = engines[side].think(limits)
        if result.move is None:
            break
        move = result.move
        if (rng is not None and len(moves) < len(spec.opening) + plies and result.reason == "search"
                and rng.random() < second_best):
            other = engines[side].think(limits, exclude=[move])
            if other.move is not None and other.score > -params.WIN_THRESHOLD:
                move = other.move
        for engine in engines.values():
            engine.play(*move)
        moves.append(move)
        if referee.last_move_wins():
            winner = side
            break
    record = asdict(spec)
    record.update(moves=[list(m) for m in moves], winner=winner, opening=[list(m) for m in spec.opening])
    return record


def start_ray(address: Optional[str], workers: Optional[int]) -> None:
    """Connect to the Ray cluster at `address`, or start a local instance with `workers` CPUs (None: all)."""
    import ray

    ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
             log_to_driver=False, ignore_reinit_error=True, logging_level="ERROR")


def run(game_specs: Sequence[GameSpec], address: Optional[str] = None, workers: Optional[int] = None) -> Iterator[dict]:
    """Play the games in parallel under Ray (a local instance unless `address` names a cluster) and yield each
    record as it finishes (in finishing order)."""
    import ray

    start_ray(address, workers)
    try:
        remote = ray.remote(play_game)
        pending = [remote.remote(spec) for spec in game_specs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        ray.shutdown()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: generate games and append them to a JSON-lines file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rule", choices=RULES, default="freestyle")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--nodes", type=int, default=20000, help="node limit per move")
    parser.add_argument("--stones", type=int, default=4, help="stones in each random opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="local Ray: CPUs to use (default: all)")
    parser.add_argument("--address", default=None, help="a Ray cluster to run on (default: a local instance)")
    parser.add_argument("--out", type=Path, required=True, help="JSON-lines file (appended to)")
    args = parser.parse_args(argv)
    started = time.time()
    count = 0
    with args.out.open("a") as out:
        for record in run(specs(args.games, args.rule, args.size, args.nodes, args.stones, args.seed),
                          args.address, args.workers):
            out.write(json.dumps(record) + "\n")
            out.flush()
            count += 1
            if count % 50 == 0:
                print(f"{count} games, {time.time() - started:.0f} s", file=sys.stderr)
    print(f"{count} games in {time.time() - started:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
