"""The main search's transposition table: buckets of two 16-byte entries (the key and a packed word: move, score,
depth, bound, age), a bucket in one half of a cache line. The key is stored XOR the word (Hyatt's lockless
hashing): when helper processes share the table (smp.py), an entry half written by one and half by another no
longer matches any key, so a torn entry is never read. A store replaces the entry of the same position, else the
bucket's less worthy entry: the shallower one, an entry from an earlier search counting AGE_PENALTY depth units (two
plies of the main search's quarter plies) shallower per search since. Mate scores are stored relative to the node
and read back relative to the root.

Compiled by Cython (tt.pxd has the C types); runs unchanged as plain Python.
"""
from __future__ import annotations

import mmap

import cython

from pbrain import params

if not cython.compiled:
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    BOUND_EXACT = 3
    MATE_THRESHOLD = 29000
    AGE_PENALTY = 8  # depth units (two plies) an entry loses in the replacement choice per search since written

COMPILED = cython.compiled
ENTRY_BYTES = 16
assert params.WIN_THRESHOLD == 29000


def entries_for(memory_bytes: int) -> int:
    """Largest power-of-two entry count whose table fits in `memory_bytes` (at least 1024)."""
    entries = 1024
    while entries * 2 * ENTRY_BYTES <= memory_bytes:
        entries *= 2
    return entries


def zeroed_pages(size: int, shared: bool = False) -> mmap.mmap:
    """`size` zeroed bytes of anonymous memory, private (or `shared` with the processes forked from this one), on
    Linux in 2 MB pages where the system grants them, and every page faulted in now rather than during a search.

    A probe lands on a random entry: with 4 KB pages nearly every one also misses the TLB (the prefetch of the
    child's bucket was 7 % of a search's time), with 2 MB pages a 64 MB table needs 32 entries of it (6-8 % more
    nodes a second). A huge page first touched in the search could wait on the kernel's compaction (END and STOP
    answered after 100-130 ms in some searches when the pages came on demand), so they are all touched here, before
    any search (25-330 ms for 128 MB on this VM): the table is resident at its full size from the start."""
    if not (hasattr(mmap, "MAP_PRIVATE") and hasattr(mmap, "MADV_HUGEPAGE")):
        return mmap.mmap(-1, size)  # zeroed, and brought in page by page as the table fills (shared on a fork)
    pages = mmap.mmap(-1, size, flags=(mmap.MAP_SHARED if shared else mmap.MAP_PRIVATE) | mmap.MAP_ANONYMOUS)
    try:
        pages.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # a kernel without transparent huge pages: 4 KB pages, faulted in below all the same
        pass
    for offset in range(0, size, mmap.PAGESIZE):
        pages[offset] = 0
    return pages


ZERO_CHUNK = bytes(1 << 21)


def zero_in_place(pages: mmap.mmap) -> None:
    """Write zeros over all of `pages`, keeping its memory (and its huge pages) mapped."""
    size = len(pages)
    for offset in range(0, size, len(ZERO_CHUNK)):
        end = min(size, offset + len(ZERO_CHUNK))
        pages[offset:end] = ZERO_CHUNK[:end - offset]


class TranspositionTable:
    """Search results by position key: best move, score, depth and bound. A successful probe() leaves the entry
    in move / score / depth / bound. A `shared` table's memory is shared with the processes forked after it is
    made (the helpers of smp.py)."""

    def __init__(self, memory_bytes: int, shared: bool = False) -> None:
        self.size = entries_for(memory_bytes)
        self.shared = shared
        self.move = -1
        self.score = 0
        self.depth = 0
        self.bound = 0
        self.age = 0
        self.pages = None
        self.clear()

    def clear(self) -> None:
        """Forget every entry: the first time, make the table (zeroed_pages); after that, zero it in place (about
        25 ms for 128 MB, where making it again takes 25-330 ms)."""
        # Entry i is entries[2 i] (its key) and entries[2 i + 1] (its data word).
        if self.pages is None:
            self.pages = zeroed_pages(ENTRY_BYTES * self.size, self.shared)
            self.entries = memoryview(self.pages).cast("Q")
        else:
            zero_in_place(self.pages)
        self.age = 0

    def new_search(self) -> None:
        """Start a new search: entries written before it age (they are replaced first)."""
        self.age = (self.age + 1) & 63

    def prefetch(self, key: int) -> None:
        """Start bringing `key`'s bucket into the cache (a hint to the CPU, compiled only), so that a probe of it
        soon after does not wait for memory."""
        if cython.compiled:
            slot = key & (self.size - 2)
            __builtin_prefetch(cython.address(self.entries[2 * slot]))  # noqa: F821 (tt.pxd declares the C builtin)

    def probe(self, key: int, ply: int) -> bool:
        """True when `key` has an entry; then move (-1 for none), score (a mate counted from the root, the node
        being `ply` plies deep), depth and bound hold it."""
        slot = key & (self.size - 2)
        data = self.entries[2 * slot + 1]  # read once: the word checked against the key is the word used
        if self.entries[2 * slot] ^ data != key:
            slot += 1
            data = self.entries[2 * slot + 1]
            if self.entries[2 * slot] ^ data != key:
                return False
        self.move = (data & 0xFFFF)
        self.move -= 1
        self.score = (data >> 16) & 0xFFFF
        self.score -= 32768
        self.depth = (data >> 32) & 0xFFFF
        self.bound = (data >> 48) & 3
        if self.score >= MATE_THRESHOLD:
            self.score -= ply
        elif self.score <= -MATE_THRESHOLD:
            self.score += ply
        return True

    def store(self, key: int, move: int, score: int, depth: int, bound: int, ply: int) -> None:
        """Keep a result for `key` (score from the node `ply` plies deep: a mate is stored counted from the node)
        in its own entry, else in place of the bucket's less worthy one."""
        if score >= MATE_THRESHOLD:
            score += ply
        elif score <= -MATE_THRESHOLD:
            score -= ply
        slot = key & (self.size - 2)
        if self.entries[2 * slot] ^ self.entries[2 * slot + 1] != key and (
                self.entries[2 * slot + 2] ^ self.entries[2 * slot + 3] == key or
                self._worth(slot + 1) < self._worth(slot)):
            slot += 1
        data = self.age
        data = (data << 2) | bound
        data = (data << 16) | depth
        data = (data << 16) | (score + 32768)
        data = (data << 16) | (move + 1)
        self.entries[2 * slot] = key ^ data
        self.entries[2 * slot + 1] = data

    def _worth(self, slot: int) -> int:
        """How much the entry in `slot` is worth keeping: its depth, less AGE_PENALTY per search since it was
        written (an empty slot: -1)."""
        data = self.entries[2 * slot + 1]
        if data == 0:
            return -1
        return ((data >> 32) & 0xFFFF) - AGE_PENALTY * ((self.age - (data >> 50)) & 63)
