"""Sample the positions the main search evaluates at its leaves, for labelling (tuning.label --as-is).

The evaluation is asked about the positions at the search's horizon, not about the quiet positions of games: in
the middle game most of them hold open threes and fours for one side or both (Rapfi at 100 ms calls about 60 % of
them decided). A fit to labels of such positions fits the evaluation where the search uses it. This thinks on
positions of game records (every `--every` plies from `--first` to `--last`) to a node budget, with the search
keeping the moves of the leaf reached at every `--sample-every`-th node (AlphaBeta.leaf_sample_every), and writes
each leaf position once, as a JSON line {"rule", "size", "moves", "winner": 0, "game"} ("game" names the record it
came from, so that a fit keeps a game's positions together).

    python -m tuning.leaves games.sgf more.jsonl --nodes 100000 --out leaves.jsonl
    python -m tuning.label leaves.jsonl --as-is --brain /path/to/pbrain-x --turn-ms 100 --workers 2 --out labels.jsonl
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence

from pbrain.core.rules import Rule
from pbrain.engine import Engine, Limits
from tuning.label import distinct_records, game_id, read_records

MEMORY_BYTES = 64 << 20
"""Hash table memory of each think (a fresh table a position)."""


def leaf_positions(record: dict, plies: Iterable[int], nodes: int, every: int) -> Iterator[List[List[int]]]:
    """The moves ([x, y] each) of the leaves sampled while thinking `nodes` nodes on the record's position after
    each of `plies` moves (plies past the game's end are skipped)."""
    rule = Rule[record["rule"].upper()]
    size = record["size"]
    moves = record["moves"]
    for ply in plies:
        if ply >= len(moves):
            break
        engine = Engine(size, size, rule, memory_bytes=MEMORY_BYTES)
        for x, y in moves[:ply]:
            engine.play(x, y)
        searcher = engine.searcher
        searcher.leaf_sample_every = every
        searcher.leaf_samples = []
        engine.think(Limits(max_nodes=nodes))
        board = engine.board
        for cells in searcher.leaf_samples:
            yield [list(board.xy(cell)) for cell in cells]


def sample(records: Iterable[dict], first: int, last: int, step: int, nodes: int, every: int,
           limit: int = 0) -> Iterator[dict]:
    """Each distinct leaf position of the records' thinks as a record for tuning.label --as-is (at most `limit`
    of them; 0: all); "game" names the record it came from (label.game_id)."""
    def all_leaves() -> Iterator[dict]:
        for record in records:
            game = game_id(record)
            for moves in leaf_positions(record, range(first, last + 1, step), nodes, every):
                yield {"rule": record["rule"], "size": record["size"], "moves": moves, "winner": 0, "game": game}

    for count, leaf in enumerate(distinct_records(all_leaves()), 1):
        yield leaf
        if 0 < limit <= count:
            return


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: game files in, leaf positions (JSON lines) out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, nargs="+", help="JSON-lines (tuning.games) or SGF game files")
    parser.add_argument("--first", type=int, default=8, help="the first ply thought on (default 8)")
    parser.add_argument("--last", type=int, default=40, help="the last ply thought on (default 40)")
    parser.add_argument("--every", type=int, default=6, help="plies between the positions thought on (default 6)")
    parser.add_argument("--nodes", type=int, default=100000, help="node budget of each think (default 100,000)")
    parser.add_argument("--sample-every", type=int, default=1009,
                        help="keep the leaf reached at every this-many-th node (default 1,009)")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many positions (0: all)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if min(args.every, args.nodes, args.sample_every) < 1 or args.first < 0:
        parser.error("--every, --nodes and --sample-every must be positive, --first not negative")
    count = 0
    with args.out.open("w") as out:
        for count, record in enumerate(sample(read_records(args.games), args.first, args.last, args.every,
                                              args.nodes, args.sample_every, args.limit), 1):
            out.write(json.dumps(record) + "\n")
    print(f"{count} leaf positions -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
