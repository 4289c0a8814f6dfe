"""Precomputed pattern tables: written once at build time, read by the frozen brain instead of building them.

Building the tables with numpy takes ~0.7 s and ~110 MB of numpy intermediates per rule; the standalone brain
ships them instead (one small file next to the package, inside the bundle), so it answers START at once and never
imports numpy. Without the file (a source checkout, `pip install`) patterns.py builds the tables as before.
"""
from __future__ import annotations

import functools
import json
import sys
import zlib
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Tuple

from pbrain.core.rules import Rule

FILE_NAME = "pattern-tables.bin"
"""The store's file name; it lives beside this module (in the bundle: sys._MEIPASS/pbrain/core/)."""
MAGIC = b"PENTAD-TABLES-2\n"
_PARTS = (("left_base", "i"), ("right_class", "i"), ("compact", "B"), ("class_table", "B"), ("code_table", "H"))


@dataclass(frozen=True)
class RuleTables:
    """One rule's tables as the board reads them (see patterns.split_line_table and patterns.class_table)."""

    left_base: "array[int]"
    """int32 per left half-line key: base offset into `compact`."""
    right_class: "array[int]"
    """int32 per right half-line key: its class index."""
    compact: "array[int]"
    """uint8: both colours' Pattern byte by (left class, right class)."""
    class_table: "array[int]"
    """uint8[2 * 65536]: per colour and four packed patterns, FLAG_DOUBLE_THREE | Pattern4."""
    code_table: "array[int]"
    """uint16[65536]: the pattern code of four packed patterns (the same for every rule)."""

    def split(self) -> "Tuple[array[int], array[int], array[int]]":
        """(left_base, right_class, compact), the shape of patterns.split_line_table."""
        return self.left_base, self.right_class, self.compact


def default_path() -> Path:
    """Where the store is looked for: beside this module, never in the working directory."""
    return Path(__file__).resolve().with_name(FILE_NAME)


def write(path: Path, parts: "Dict[Rule, Dict[str, array[int]]]") -> int:
    """Write every rule's tables (per rule, the arrays named as RuleTables's fields) to `path`; returns the file
    size in bytes. patterns.save_tables builds them."""
    header: Dict[str, object] = {"byteorder": sys.byteorder, "rules": {}}
    blobs = []
    offset = 0
    for rule in Rule:
        arrays = parts[rule]
        entry = {}
        for name, typecode in _PARTS:
            data = array(typecode, arrays[name].tobytes()).tobytes()
            entry[name] = [offset, len(data)]
            blobs.append(data)
            offset += len(data)
        header["rules"][rule.name] = entry  # type: ignore[index]
    head = json.dumps(header).encode()
    payload = MAGIC + len(head).to_bytes(4, "little") + head + zlib.compress(b"".join(blobs), 9)
    path.write_bytes(payload)
    return len(payload)


def _read(path: Path) -> Optional[Dict[Rule, RuleTables]]:
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    if not raw.startswith(MAGIC):
        return None
    start = len(MAGIC) + 4
    size = int.from_bytes(raw[len(MAGIC):start], "little")
    header = json.loads(raw[start:start + size])
    body = zlib.decompress(raw[start + size:])
    out = {}
    for rule in Rule:
        entry = header["rules"][rule.name]
        parts = []
        for name, typecode in _PARTS:
            begin, length = entry[name]
            part = array(typecode, body[begin:begin + length])
            if header["byteorder"] != sys.byteorder:
                part.byteswap()
            parts.append(part)
        out[rule] = RuleTables(*parts)
    return out


@functools.lru_cache(maxsize=None)
def _store(path: Path) -> Optional[Dict[Rule, RuleTables]]:
    return _read(path)


def load(rule: Rule, path: Optional[Path] = None) -> Optional[RuleTables]:
    """The stored tables of `rule`, or None when there is no store (then the caller builds them)."""
    store = _store(path or default_path())
    return None if store is None else store[rule]
