"""Labelled positions for training an evaluation: self-play games from random openings, every position after the
opening scored by an analyst brain's search at a fixed node count and marked with the game's result, made in
parallel with Ray and written in shards, so that a run can stop and resume (and a cluster scales it out).

A shard is a number of games of one rule and board size. Its games and labels follow from its index alone (and
the settings), so the data are reproducible: each game starts from a random opening of `--min-stones` to
`--max-stones` stones near the centre (tuning.games.random_opening; none holding a black-white-black triple that is
an opening of the `--exclude` files or its mirror image or rotation: the held-out openings by default), Pentad plays
both sides at `--play-nodes` nodes a move, and in the `--vary-plies` moves after the opening a side plays its
second-best move with probability `--second-best` (tuning.games.play_game). Every position after the opening (of a
game longer than `--per-game` positions, a sample of that many), each once in a shard, goes to the analyst
(tuning.label's protocol; `--nodes` nodes from a cleared hash table: labels that do not depend on the machine's
load), but for the last before a five (the analyst makes the five at once and reports no score) and a game's
positions after `--mates` in a row that the analyst scored as mates (the rest of a forced win). With `--leaves N`
also up to N of the positions Pentad's search evaluates at its leaves (tuning.leaves) when thinking on one position
of the game. A Ray actor holds one analyst process and makes whole shards: it plays the shard's games, then labels
their positions.

Output: `<out>/<rule>-<size>/shard-NNNNN.jsonl.gz`, JSON lines as tuning.label writes them ({"rule", "size", "moves",
"winner", "game", "eval", "best"}) with "result", the game's result for the side to move (1, 0.5 or 0; None for a
leaf), and "source" ("game" or "leaf"). A shard appears whole (written under another name, then renamed); the same
command again skips the shards that exist and goes on. `<out>/settings.json` holds the settings the shards depend
on; a run with other settings into the same folder is refused.

    python -m tuning.dataset --brain /path/to/pbrain-x --target-positions 20000 --out /tmp/data
    python -m tuning.dataset --brain /path/to/pbrain-x --address ray://head:10001 --workers 64 --out /data/big
"""
from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from tuning.games import RULES, GameSpec, play_game, random_opening, start_ray
from tuning.label import game_id, start_analyst
from tuning.leaves import leaf_positions
from tuning.openings import read_openings, shape_key

Point = Tuple[int, int]
Entry = Tuple[str, int, float]
"""One part of the mix: rule, board size, share of the positions."""
HELD_OUT = sorted((Path(__file__).resolve().parent.parent / "benchmarks" / "data").glob("heldout-*.txt"))
"""The held-out opening sets (benchmarks/data/heldout-*.txt: every rule's and size's): no game starts near them."""
DEFAULT_MIX = "freestyle:15:0.7,freestyle:20:0.1,standard:15:0.1,renju:15:0.1"
FIRST_GUESS = 20
"""Positions a game is taken to give before a shard of its kind has finished (for scheduling only)."""
MAX_TRIES = 3
"""Tries of a shard before the run stops (a worker whose shard fails is replaced)."""
LEAF_EVERY = 251
"""tuning.leaves' sampling: a leaf kept every this many nodes."""


@dataclass(frozen=True)
class ShardSpec:
    """One shard to make: its games' rule, board size and index, and the settings its data depend on."""

    rule: str
    size: int
    index: int
    games: int
    seed: int
    play_nodes: int
    min_stones: int
    max_stones: int
    second_best: float
    vary_plies: int
    leaves: int
    mates: int
    per_game: int
    leaf_plies: int = 1
    leaf_nodes: int = 0
    """The think of each leaf position's search: its node budget (0: the self-play's)."""


def parse_mix(text: str) -> List[Entry]:
    """'freestyle:15:0.7,renju:15:0.3' -> [("freestyle", 15, 0.7), ("renju", 15, 0.3)] (shares scaled to sum
    to 1); ValueError on a bad entry."""
    entries = []
    for part in text.split(","):
        rule, size, share = part.strip().split(":")
        if rule not in RULES or not 5 <= int(size) <= 32 or float(share) <= 0:
            raise ValueError(f"not a mix entry (rule:size:share): {part!r}")
        entries.append((rule, int(size), float(share)))
    total = sum(share for _, _, share in entries)
    return [(rule, size, share / total) for rule, size, share in entries]


def held_out_keys(paths: Iterable[Path]) -> Set[tuple]:
    """The symmetry keys (openings.shape_key) of the openings in the files."""
    return {shape_key(opening) for opening in read_openings(paths)}


def touches_held_out(opening: Sequence[Point], size: int, keys: Set[tuple]) -> bool:
    """True when two black stones and a white one of the opening (black first) are, about the board's centre, an
    opening with one of `keys` (a game from it may pass through a held-out game's position)."""
    centre = size // 2
    offsets = [(x - centre, y - centre) for x, y in opening]
    return any(shape_key((b1, w, b2)) in keys
               for b1, b2 in itertools.combinations(offsets[0::2], 2) for w in offsets[1::2])


def shard_openings(spec: ShardSpec, keys: Set[tuple], rng: random.Random) -> List[Tuple[Point, ...]]:
    """The shard's `games` openings, drawn from `rng`: none alike by symmetry, none touching the held-out ones."""
    centre = spec.size // 2
    seen: Set[tuple] = set()
    openings = []
    while len(openings) < spec.games:
        opening = random_opening(rng, spec.size, rng.randint(spec.min_stones, spec.max_stones))
        key = shape_key(tuple((x - centre, y - centre) for x, y in opening))
        if key not in seen and not touches_held_out(opening, spec.size, keys):
            seen.add(key)
            openings.append(opening)
    return openings


def position_key(moves: Sequence[Sequence[int]]) -> Tuple[frozenset, frozenset]:
    """The same for every move order that leads to one position: the black and the white stones."""
    stones = [tuple(m) for m in moves]
    return frozenset(stones[0::2]), frozenset(stones[1::2])


def game_jobs(record: dict) -> List[dict]:
    """The positions of a game to label: each after the opening, but for the final one and, in a game won by a
    five, the one before it (the winner's five to play)."""
    moves = record["moves"]
    last = len(moves) - (1 if record["winner"] else 0)
    game = game_id(record)
    jobs = []
    for ply in range(len(record["opening"]), last):
        mover = 1 if ply % 2 == 0 else 2
        result = 0.5 if not record["winner"] else 1.0 if record["winner"] == mover else 0.0
        jobs.append({"rule": record["rule"], "size": record["size"], "moves": moves[:ply],
                     "winner": record["winner"], "game": game, "result": result, "source": "game"})
    return jobs


def leaf_jobs(record: dict, count: int, rng: random.Random, thinks: int = 1, nodes: int = 0) -> List[dict]:
    """Up to `count` leaf positions of Pentad's searches on `thinks` positions of the game after the opening (drawn
    by `rng`), each a think of `nodes` nodes (0: the game's node limit, as in play)."""
    plies = range(len(record["opening"]), len(record["moves"]) - 1)
    if count <= 0 or not plies:
        return []
    chosen = sorted(rng.sample(plies, min(thinks, len(plies))))
    found = list(dict.fromkeys(tuple(map(tuple, moves)) for moves in
                               leaf_positions(record, chosen, nodes or record["nodes"], LEAF_EVERY)))
    found = [[list(point) for point in moves] for moves in found]
    game = game_id(record)
    return [{"rule": record["rule"], "size": record["size"], "moves": moves, "winner": 0, "game": game,
             "result": None, "source": "leaf"} for moves in rng.sample(found, min(count, len(found)))]


def shard_jobs(spec: ShardSpec, keys: Set[tuple]) -> Tuple[List[dict], int]:
    """Play the shard's games: the labelling jobs of their positions, each position once, and the plies played."""
    rng = random.Random(f"{spec.seed}:{spec.rule}:{spec.size}:{spec.index}")
    jobs: List[dict] = []
    seen: Set[tuple] = set()
    played = 0
    for opening in shard_openings(spec, keys, rng):
        record = play_game(GameSpec(spec.rule, spec.size, opening, spec.play_nodes), rng, spec.second_best,
                           spec.vary_plies)
        played += len(record["moves"]) - len(opening)
        positions = game_jobs(record)
        if 0 < spec.per_game < len(positions):  # a long game (a draw on a full board): a sample, in order
            positions = [positions[i] for i in sorted(rng.sample(range(len(positions)), spec.per_game))]
        for job in positions + leaf_jobs(record, spec.leaves, rng, spec.leaf_plies, spec.leaf_nodes):
            key = position_key(job["moves"])
            if key not in seen:
                seen.add(key)
                jobs.append(job)
    return jobs, played


class ShardMaker:
    """One worker (a Ray actor): an analyst brain process, kept for every shard it makes."""

    def __init__(self, command: Sequence[str], nodes: int, turn_ms: int, keys: Set[tuple]) -> None:
        self.analyst = start_analyst(command, turn_ms, max_nodes=nodes)
        self.keys = keys

    def make(self, spec: ShardSpec) -> dict:
        """The shard's records and what it took: {"spec", "records", "plies" played, "play_s", "label_s", "labels"
        asked for, "unscored"}. Positions the analyst gave no score are left out, and a game's positions after
        `mates` in a row that it scored as mates (the rest of a forced win: mates too; 0: no limit)."""
        started = time.perf_counter()
        jobs, plies = shard_jobs(spec, self.keys)
        played = time.perf_counter()
        records = []
        streaks: Dict[str, int] = {}  # game -> mates in a row so far
        labelled = 0
        for job in jobs:
            game = job["game"] if job["source"] == "game" else None
            if game is not None and 0 < spec.mates <= streaks.get(game, 0):
                continue
            score, best = self.analyst.analyse(job["size"], job["rule"], job["moves"])
            labelled += 1
            if score is not None:
                records.append(dict(job, eval=score, best=best))
            if game is not None:
                streaks[game] = streaks.get(game, 0) + 1 if score is not None and "M" in score else 0
        return {"spec": spec, "records": records, "plies": plies, "play_s": played - started,
                "label_s": time.perf_counter() - played, "labels": labelled, "unscored": labelled - len(records)}

    def close(self) -> None:
        """End the analyst."""
        self.analyst.close()


def shard_path(out: Path, rule: str, size: int, index: int) -> Path:
    """Where a shard lives."""
    return out / f"{rule}-{size}" / f"shard-{index:05d}.jsonl.gz"


def write_shard(path: Path, records: Sequence[dict]) -> None:
    """The records as a gzipped JSON-lines file, whole or not at all (a temporary file renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write("".join(json.dumps(record) + "\n" for record in records).encode())
    os.replace(temporary, path)


def read_shard(path: Path) -> List[dict]:
    """The records of a shard."""
    with gzip.open(path, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def existing(out: Path, rule: str, size: int) -> Dict[int, int]:
    """Shard index -> positions, for the shards of a rule and size already written."""
    folder = out / f"{rule}-{size}"
    found = {}
    for path in sorted(folder.glob("shard-*.jsonl.gz")) if folder.is_dir() else []:
        with gzip.open(path, "rt") as lines:
            found[int(path.name[6:11])] = sum(1 for _ in lines)
    return found


def check_settings(out: Path, settings: dict) -> None:
    """Record the settings the shards depend on, or refuse (SystemExit) when the folder's shards were made with
    others."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "settings.json"
    if path.exists():
        before = json.loads(path.read_text())
        if before != settings:
            changed = sorted(k for k in set(before) | set(settings) if before.get(k) != settings.get(k))
            raise SystemExit(f"{out} holds shards made with other settings ({', '.join(changed)}): use another --out")
    else:
        path.write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n")


class Plan:
    """Which shard to make next: of the mix entry furthest behind its share of the target (counting the shards
    under way at the positions its finished shards averaged), the first index not written nor under way."""

    def __init__(self, out: Path, mix: Sequence[Entry], target: int, games: int) -> None:
        self.targets = {(rule, size): share * target for rule, size, share in mix}
        self.done = {key: existing(out, *key) for key in self.targets}
        self.busy: Dict[Tuple[str, int], Set[int]] = {key: set() for key in self.targets}
        self.games = games

    def positions(self, key: Optional[Tuple[str, int]] = None) -> int:
        """Positions written (of one entry, or all)."""
        return sum(sum(self.done[k].values()) for k in ([key] if key else self.targets))

    def _expected(self, key: Tuple[str, int]) -> float:
        done = self.done[key]
        per_shard = sum(done.values()) / len(done) if done else FIRST_GUESS * self.games
        return sum(done.values()) + per_shard * len(self.busy[key])

    def _behind(self) -> List[Tuple[float, Tuple[str, int]]]:
        return [(self._expected(key) / target, key) for key, target in self.targets.items()
                if self._expected(key) < target]

    def complete(self) -> bool:
        """True when the shards written meet every entry's target."""
        return not any(self.busy.values()) and not self._behind()

    def next(self) -> Optional[Tuple[str, int, int]]:
        """(rule, size, index) of the next shard to make, or None when the shards written and under way meet
        every entry's target."""
        behind = self._behind()
        if not behind:
            return None
        key = min(behind)[1]
        index = next(i for i in itertools.count() if i not in self.done[key] and i not in self.busy[key])
        self.busy[key].add(index)
        return (*key, index)

    def release(self, rule: str, size: int, index: int) -> None:
        """A shard no longer under way (to be given again)."""
        self.busy[(rule, size)].discard(index)

    def finish(self, rule: str, size: int, index: int, positions: int) -> None:
        """A shard written."""
        self.busy[(rule, size)].discard(index)
        self.done[(rule, size)][index] = positions


def run(args: argparse.Namespace) -> int:
    """Make shards until the target is met: `args.workers` actors (each one CPU), a shard each at a time."""
    import ray

    mix = parse_mix(args.mix)
    settings = {"seed": args.seed, "games_per_shard": args.games_per_shard, "play_nodes": args.play_nodes,
                "min_stones": args.min_stones, "max_stones": args.max_stones, "second_best": args.second_best,
                "vary_plies": args.vary_plies, "leaves": args.leaves, "mates": args.mates, "per_game": args.per_game,
                "nodes": args.nodes,
                **({"leaf_plies": args.leaf_plies, "leaf_nodes": args.leaf_nodes} if args.leaves else {}),
                "brain": Path(args.brain.split()[0]).name, "exclude": sorted(str(p) for p in args.exclude)}
    check_settings(args.out, settings)
    plan = Plan(args.out, mix, args.target_positions, args.games_per_shard)
    print(f"{plan.positions()} positions in {sum(map(len, plan.done.values()))} shards already", file=sys.stderr)
    if plan.complete():
        return 0
    keys = held_out_keys(args.exclude)
    start_ray(args.address, args.workers)
    workers = args.workers or int(ray.cluster_resources().get("CPU", 1))
    maker = ray.remote(num_cpus=1)(ShardMaker)
    def new_actor():
        return maker.remote(args.brain.split(), args.nodes, args.turn_ms, keys)

    actors = [new_actor() for _ in range(workers)]
    pending: Dict[object, Tuple[object, ShardSpec]] = {}
    failures: Dict[ShardSpec, int] = {}
    totals = {"plies": 0, "play_s": 0.0, "label_s": 0.0, "labels": 0, "unscored": 0, "shards": 0}
    started = time.time()

    def give(actor) -> None:
        step = plan.next()
        if step is not None:
            rule, size, index = step
            spec = ShardSpec(rule, size, index, args.games_per_shard, args.seed, args.play_nodes, args.min_stones,
                             args.max_stones, args.second_best, args.vary_plies, args.leaves, args.mates,
                             args.per_game, args.leaf_plies, args.leaf_nodes)
            pending[actor.make.remote(spec)] = actor, spec

    try:
        for actor in actors:
            give(actor)
        while pending:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            actor, spec = pending.pop(ref)
            try:
                shard = ray.get(ref)
            except ray.exceptions.RayError as error:  # the analyst died or hung: a new worker makes the shard again
                failures[spec] = failures.get(spec, 0) + 1
                print(f"{spec.rule}-{spec.size} shard {spec.index} failed ({failures[spec]}): {error}", file=sys.stderr)
                if failures[spec] >= MAX_TRIES:
                    raise
                ray.kill(actor)
                actors[actors.index(actor)] = actor = new_actor()
                plan.release(spec.rule, spec.size, spec.index)
                give(actor)
                continue
            write_shard(shard_path(args.out, spec.rule, spec.size, spec.index), shard["records"])
            plan.finish(spec.rule, spec.size, spec.index, len(shard["records"]))
            for name in ("plies", "play_s", "label_s", "labels", "unscored"):
                totals[name] += shard[name]
            totals["shards"] += 1
            print(f"{spec.rule}-{spec.size} shard {spec.index}: {len(shard['records'])} positions; "
                  f"{plan.positions()} in all, {time.time() - started:.0f} s; self-play "
                  f"{totals['plies'] / max(totals['play_s'], 1e-9):.1f} plies/s, labels "
                  f"{totals['labels'] / max(totals['label_s'], 1e-9):.1f}/s a worker, unscored {totals['unscored']}",
                  file=sys.stderr, flush=True)
            give(actor)
    finally:
        for actor in actors:
            actor.close.remote()
        ray.shutdown()
    print(f"{plan.positions()} positions -> {args.out}; this run: {totals['shards']} shards, self-play "
          f"{totals['play_s']:.0f} s, labelling {totals['label_s']:.0f} s (worker time)", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brain", required=True, help="the analyst's command line (a Gomocup brain)")
    parser.add_argument("--nodes", type=int, default=10000, help="the analyst's nodes per position (INFO max_node)")
    parser.add_argument("--turn-ms", type=int, default=10000, help="the analyst's time ceiling per position")
    parser.add_argument("--play-nodes", type=int, default=10000, help="self-play: Pentad's node limit per move")
    parser.add_argument("--mix", default=DEFAULT_MIX, help="rule:size:share,... (default %(default)s)")
    parser.add_argument("--target-positions", type=int, default=1_000_000, help="stop when the shards hold this many")
    parser.add_argument("--games-per-shard", type=int, default=50)
    parser.add_argument("--min-stones", type=int, default=3, help="the fewest stones of a random opening")
    parser.add_argument("--max-stones", type=int, default=6, help="the most stones of a random opening")
    parser.add_argument("--second-best", type=float, default=0.1,
                        help="probability of the second-best move at each of the --vary-plies moves after the opening")
    parser.add_argument("--vary-plies", type=int, default=10)
    parser.add_argument("--mates", type=int, default=4,
                        help="a game's positions after this many scored as mates in a row are skipped (0: none)")
    parser.add_argument("--per-game", type=int, default=60,
                        help="positions of a longer game: a sample of this many (0: all)")
    parser.add_argument("--leaves", type=int, default=0, help="search-leaf positions labelled per game")
    parser.add_argument("--leaf-plies", type=int, default=1, help="--leaves: positions of a game thought on")
    parser.add_argument("--leaf-nodes", type=int, default=0,
                        help="--leaves: each think's node budget (default: --play-nodes)")
    parser.add_argument("--exclude", type=Path, nargs="*", default=HELD_OUT,
                        help="openings files no game may start from (default: benchmarks/data/heldout-*.txt)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="workers (one CPU each; default: every CPU)")
    parser.add_argument("--address", default=None, help="a Ray cluster to run on (default: a local instance)")
    parser.add_argument("--out", type=Path, required=True, help="the folder of the shards")
    args = parser.parse_args(argv)
    if not 1 <= args.min_stones <= args.max_stones <= 6:
        parser.error("1 <= --min-stones <= --max-stones <= 6 (more could hold a threat)")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
