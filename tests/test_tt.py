"""The transposition table: two-entry buckets, replacement by depth and age, mate scores relative to the node."""
from __future__ import annotations

import os
import sys

import pytest

from pbrain.search.tt import TranspositionTable, zero_in_place, zeroed_pages

TABLE_BYTES = 1 << 16
BOUND_LOWER, BOUND_UPPER, BOUND_EXACT = 1, 2, 3  # tt.py's bounds (compiled, they are C constants)


def same_bucket_keys(table: TranspositionTable, count: int) -> list:
    """`count` distinct keys that share one bucket."""
    return [(i << 40) | 6 for i in range(1, count + 1)]


def test_probe_returns_what_was_stored() -> None:
    table = TranspositionTable(TABLE_BYTES)
    table.store(12345, 17, -250, 6, BOUND_LOWER, 3)
    assert table.probe(12345, 3)
    assert (table.move, table.score, table.depth, table.bound) == (17, -250, 6, BOUND_LOWER)
    assert not table.probe(54321, 3)


def test_depths_past_64_plies_are_kept_whole() -> None:
    # Depth is stored in quarter plies: `INFO max_depth 100` reaches 400 units at the root.
    table = TranspositionTable(TABLE_BYTES)
    table.store(777, 5, 40, 400, BOUND_UPPER, 0)
    assert table.probe(777, 0)
    assert (table.move, table.score, table.depth, table.bound) == (5, 40, 400, BOUND_UPPER)


def test_no_move_is_kept_as_minus_one() -> None:
    table = TranspositionTable(TABLE_BYTES)
    table.store(99, -1, 0, 2, BOUND_UPPER, 0)
    assert table.probe(99, 0) and table.move == -1


def test_mate_scores_are_relative_to_the_node() -> None:
    table = TranspositionTable(TABLE_BYTES)
    table.store(7, 40, 30000 - 9, 5, BOUND_EXACT, 4)  # a win 9 plies from the root, found 4 plies deep
    assert table.probe(7, 2) and table.score == 30000 - 7
    table.store(8, 40, -(30000 - 9), 5, BOUND_EXACT, 4)
    assert table.probe(8, 6) and table.score == -(30000 - 11)


def test_two_positions_share_a_bucket() -> None:
    table = TranspositionTable(TABLE_BYTES)
    a, b = same_bucket_keys(table, 2)
    table.store(a, 1, 10, 3, BOUND_EXACT, 0)
    table.store(b, 2, 20, 3, BOUND_EXACT, 0)
    assert table.probe(a, 0) and table.move == 1
    assert table.probe(b, 0) and table.move == 2


def test_a_full_bucket_keeps_the_deeper_entry() -> None:
    table = TranspositionTable(TABLE_BYTES)
    deep, shallow, new = same_bucket_keys(table, 3)
    table.store(deep, 1, 0, 9, BOUND_EXACT, 0)
    table.store(shallow, 2, 0, 2, BOUND_EXACT, 0)
    table.store(new, 3, 0, 4, BOUND_EXACT, 0)
    assert table.probe(deep, 0) and table.probe(new, 0)
    assert not table.probe(shallow, 0)


def test_the_same_position_is_overwritten_in_place() -> None:
    table = TranspositionTable(TABLE_BYTES)
    deep, other = same_bucket_keys(table, 2)
    table.store(deep, 1, 0, 9, BOUND_EXACT, 0)
    table.store(other, 2, 0, 8, BOUND_EXACT, 0)
    table.store(other, 3, 5, 1, BOUND_UPPER, 0)  # a shallower result for a stored position still replaces it
    assert table.probe(other, 0) and (table.move, table.depth) == (3, 1)
    assert table.probe(deep, 0) and table.move == 1


def test_entries_of_old_searches_give_way() -> None:
    table = TranspositionTable(TABLE_BYTES)
    old_deep, recent, new = same_bucket_keys(table, 3)
    table.store(old_deep, 1, 0, 32, BOUND_EXACT, 0)  # depth units: 8 plies of the main search's quarter plies
    for _ in range(4):
        table.new_search()
    table.store(recent, 2, 0, 12, BOUND_EXACT, 0)
    table.store(new, 3, 0, 12, BOUND_EXACT, 0)  # the 32-unit entry is 4 searches old: worth 0 now
    assert not table.probe(old_deep, 0)
    assert table.probe(recent, 0) and table.probe(new, 0)


def test_clear_forgets_everything() -> None:
    table = TranspositionTable(TABLE_BYTES)
    table.store(5, 1, 0, 3, BOUND_EXACT, 0)
    table.clear()
    assert not table.probe(5, 0)


def test_clear_forgets_the_whole_table_in_place() -> None:
    # Cleared again (a new game), the table is zeroed where it is: entries at both ends and in between are gone.
    table = TranspositionTable(4 << 20)
    keys = [table.size, table.size + 1, table.size // 2, 2 * table.size - 1]
    for key in keys:
        table.store(key, 3, 11, 8, BOUND_LOWER, 0)
    table.new_search()
    table.clear()
    assert table.age == 0 and not any(table.probe(key, 0) for key in keys)


def test_zero_in_place_covers_sizes_that_are_not_whole_chunks() -> None:
    for size in (4096, 3 << 20):
        pages = zeroed_pages(size)
        pages[0] = pages[size // 2] = pages[-1] = 7
        zero_in_place(pages)
        assert len(pages) == size and pages[:] == bytes(size)


def test_a_game_sized_table_starts_empty_and_keeps_entries_at_both_ends() -> None:
    # The table is one anonymous mapping: zeroed, writable end to end.
    table = TranspositionTable(128 * 1024 * 1024)
    first, last = table.size, table.size - 2  # keys of the first and the last bucket (key & (size - 2))
    assert not table.probe(first, 0) and not table.probe(last, 0) and not table.probe(last + 1, 0)
    table.store(first, 3, 11, 8, BOUND_LOWER, 0)
    table.store(last + 1, 4, -11, 12, BOUND_UPPER, 0)
    assert table.probe(first, 0) and (table.move, table.score) == (3, 11)
    assert table.probe(last + 1, 0) and (table.move, table.score, table.depth) == (4, -11, 12)


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_zeroed_pages_are_zero_and_writable_end_to_end() -> None:
    pages = zeroed_pages(3 << 20)
    assert len(pages) == 3 << 20 and pages[:4096] == bytes(4096) and pages[-4096:] == bytes(4096)
    pages[0] = pages[-1] = 255
    assert (pages[0], pages[-1], pages[1]) == (255, 255, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident size read from /proc")
def test_a_table_is_resident_before_any_search() -> None:
    # Its pages are faulted in when it is made, so that no probe in a search waits on the kernel for one.
    before = _resident_bytes()
    table = TranspositionTable(32 << 20)
    assert _resident_bytes() - before >= 30 << 20
    assert not table.probe(12345, 0)
