"""Board geometry, computed once per board size and kept (every board of that size shares it): the line
directions, the cells near a stone (as offsets and as bits of the candidate set), and how the lines are laid out in
64-bit words (board.py keeps them up to date). Plain Python: nothing here runs in the search."""
from __future__ import annotations

import functools

from pbrain.core.patterns import HALF_LINE as PADDING
from pbrain.core.patterns import WALL

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))
"""(dx, dy) of the four line directions, in the order of every per-direction array."""


def near_offsets(stride: int) -> "list[int]":
    """Cell offsets whose stones make a cell a candidate: within 2 in every direction, and 3 along lines."""
    offsets = [dy * stride + dx for dy in range(-2, 3) for dx in range(-2, 3) if dx or dy]
    offsets += [3 * (dy * stride + dx) for dx, dy in DIRECTIONS]
    offsets += [-3 * (dy * stride + dx) for dx, dy in DIRECTIONS]
    return offsets


NEAR_WORDS = 5
"""Most candidate-set words one stone's neighbourhood touches (7 rows of at most 32 points, its own word among them)."""


@functools.lru_cache(maxsize=None)
def near_masks(width: int, height: int, stride: int) -> "tuple[tuple[int, ...], tuple[int, ...]]":
    """Each point's neighbourhood (near_offsets, clipped to the board) as bits of the candidate set, whose bit i is
    point i (row-major): (words, masks), NEAR_WORDS entries a point, the point's own word always among them (unused
    entries: word 0, mask 0)."""
    offsets = near_offsets(stride)
    words: list = []
    masks: list = []
    for y in range(height):
        for x in range(width):
            cell = (y + PADDING) * stride + x + PADDING
            bits: dict = {(y * width + x) // 64: 0}
            for off in offsets:
                n = cell + off
                nx, ny = n % stride - PADDING, n // stride - PADDING
                if 0 <= nx < width and 0 <= ny < height:
                    i = ny * width + nx
                    bits[i // 64] = bits.get(i // 64, 0) | (1 << (i % 64))
            assert len(bits) <= NEAR_WORDS
            entries = sorted(bits.items()) + [(0, 0)] * (NEAR_WORDS - len(bits))
            words += [w for w, _ in entries]
            masks += [m for _, m in entries]
    return tuple(words), tuple(masks)


LINE_WORD_CELLS = 32
"""Cells (2 bits each) in one 64-bit line word."""
LINE_SEGMENT_STEP = 11
"""Lines longer than a word (with their walls) are kept as words starting every LINE_SEGMENT_STEP cells, so that
some word holds any 21 consecutive cells: a stone's neighbours' keys all come from one word."""


@functools.lru_cache(maxsize=None)
def line_layout(width: int, height: int, stride: int) -> tuple:
    """The line words of an empty board: (initial words, read slots, second write slots).

    A line's cells are numbered from its first board cell at 5 (after PADDING walls) to its last + PADDING walls.
    A word holds LINE_WORD_CELLS of them from a segment start (0, 11, 22, ...). A slot is word index * 64 + the bit
    offset of the cell in that word: read_slot[4 * cell + d] is in the first word holding the 10 cells either side
    of the cell (every key its stone changes is read there); second_slot the other word holding the cell, or -1."""
    words: list = []
    read_slot = [0] * (4 * stride * (height + 2 * PADDING))
    second_slot = [-1] * len(read_slot)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        for y in range(height):
            for x in range(width):
                if 0 <= x - dx < width and 0 <= y - dy < height:
                    continue  # not the first cell of its line
                line = []
                cx, cy = x, y
                while 0 <= cx < width and 0 <= cy < height:
                    line.append((cy + PADDING) * stride + cx + PADDING)
                    cx += dx
                    cy += dy
                positions = len(line) + 2 * PADDING
                starts = [0]
                while starts[-1] + LINE_WORD_CELLS < positions:
                    starts.append(starts[-1] + LINE_SEGMENT_STEP)
                first = len(words)
                for start in starts:
                    word = 0
                    for q in range(start, start + LINE_WORD_CELLS):
                        if q < PADDING or q >= len(line) + PADDING:
                            word |= WALL << (2 * (q - start))
                    words.append(word)
                for k, cell in enumerate(line):
                    p = k + PADDING
                    holding = [i for i, start in enumerate(starts) if start <= p < start + LINE_WORD_CELLS]
                    low, high = max(0, p - 2 * PADDING), min(positions - 1, p + 2 * PADDING)
                    reader = [i for i in holding if starts[i] <= low and high < starts[i] + LINE_WORD_CELLS][0]
                    read_slot[4 * cell + d] = (first + reader) * 64 + 2 * (p - starts[reader])
                    others = [i for i in holding if i != reader]
                    assert len(others) <= 1, "a line longer than two words"
                    if others:
                        second_slot[4 * cell + d] = (first + others[0]) * 64 + 2 * (p - starts[others[0]])
    return tuple(words), tuple(read_slot), tuple(second_slot)
