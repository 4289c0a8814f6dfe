"""The protocol session's settings: what INFO lines have set, and how each INFO key is checked and applied."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional

from pbrain.core.rules import Rule, rule_from_protocol
from pbrain.engine import DEFAULT_MEMORY_BYTES, SEARCH_KINDS, Engine
from pbrain.protocol import parser
from pbrain.protocol.parser import ProtocolError

MIN_MEMORY_BYTES = 32 * 1024 * 1024
"""A smaller `INFO max_memory` is reported as an ERROR (Pentad still plays, with the smallest hash)."""
INT_KEYS = frozenset({"timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule",
                      "max_depth", "max_node", "thread_num", "hash_size", "pondering", "show_detail",
                      "caution_factor", "strength"})
"""INFO keys with a whole-number value that Pentad reads; other keys but `folder` and `search` are ignored."""
NON_NEGATIVE = frozenset({"timeout_turn", "timeout_match", "max_memory", "hash_size", "thread_num"})


@dataclass
class Settings:
    """What INFO has set (None: the manager did not say)."""

    turn_ms: Optional[int] = None
    match_ms: Optional[int] = None
    time_left_ms: Optional[int] = None
    """Kept up to date between INFO time_left lines by subtracting the time each answer took."""
    max_depth: Optional[int] = None
    max_nodes: Optional[int] = None
    memory_bytes: int = DEFAULT_MEMORY_BYTES
    hash_bytes: int = 0
    """Yixin's INFO hash_size (given in KB): the transposition table's size; 0 sizes it from max_memory."""
    rule: Rule = Rule.FREESTYLE
    strength: int = 100
    """INFO strength (Rapfi's key), 0..100: the playing level (levels.LEVELS); 100 is full strength."""
    search: str = "alphabeta"
    """INFO search (Pentad's key): 'alphabeta' (the default) or 'mcts', the Monte Carlo tree search."""
    threads: int = 1
    """INFO thread_num (Yixin's key): the processes a think searches with (Engine.set_threads)."""
    show_detail: int = 1
    """0: no MESSAGE lines about the search; 1: one summary per move; 2, 3: also one per completed iteration."""
    extras: Dict[str, int] = field(default_factory=dict)
    """Accepted keys Pentad does not act on (game_type, pondering, caution_factor)."""
    folder: str = ""

    def apply(self, key: str, value: str, engine: Optional[Engine]) -> None:
        """Apply `INFO key value` to these settings and to the game's engine, if there is one. Raises
        ProtocolError (or RuleError) for a bad value; unknown keys are ignored, as the protocol asks."""
        what = f"INFO {key}"
        if key == "folder":  # Pentad has nothing to persist yet; kept for when it does
            self.folder = value
            return
        if key == "search":
            kind = value.strip().lower()
            if kind not in SEARCH_KINDS:
                raise ProtocolError(f"{what}: {value.strip()!r} is not one of {', '.join(SEARCH_KINDS)}")
            self.search = kind
            if engine is not None:
                engine.set_search_kind(kind)
            return
        if key not in INT_KEYS:
            return  # unknown keys (and `evaluate`, the GUI's mouse position) are ignored
        number = parser.to_int(value.split()[0] if value else "", what)
        if key in NON_NEGATIVE and number < 0:
            raise ProtocolError(f"{what}: {number} must not be negative")
        if key == "timeout_turn":
            self.turn_ms = number
        elif key == "timeout_match":
            self.match_ms = number
        elif key == "time_left":
            self.time_left_ms = number
        elif key == "max_depth":
            self.max_depth = number if number > 0 else None
        elif key == "max_node":
            self.max_nodes = number if number > 0 else None
        elif key == "show_detail":
            self.show_detail = number
        elif key == "strength":
            if not 0 <= number <= 100:
                raise ProtocolError(f"{what}: {number} is not in 0..100")
            self.strength = number
            if engine is not None:
                engine.set_strength(number)
        elif key == "rule":
            self.rule = rule_from_protocol(number)
            if engine is not None:
                engine.set_rule(self.rule)
        elif key == "max_memory":
            self.memory_bytes = number
            if engine is not None:
                engine.set_memory(number)
            if 0 < number < MIN_MEMORY_BYTES:
                raise ProtocolError(f"{what}: {number} bytes is below the {MIN_MEMORY_BYTES >> 20} MB Pentad "
                                    "needs; playing with the smallest hash table")
        elif key == "thread_num":
            self.threads = max(1, number)
            if engine is not None:
                engine.set_threads(self.threads)
        elif key == "hash_size":
            self.hash_bytes = number * 1024
            if engine is not None:
                engine.set_hash_bytes(self.hash_bytes)
        else:
            self.extras[key] = number
