"""benchmarks/speed.py: fixed-node thinks, so a build's node count is the same on every run."""
from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "speed.py"
SPEC = importlib.util.spec_from_file_location("speed", SCRIPT)
speed = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(speed)  # type: ignore[union-attr]


def test_the_node_count_is_the_same_every_run(capsys) -> None:
    nodes, seconds = speed.measure(3000)
    assert 0 < nodes <= len(speed.POSITIONS) * 3000 * 2 and seconds > 0  # a node limit: some overshoot, no more
    assert speed.measure(3000)[0] == nodes
    speed.main(["--nodes", "2000", "--runs", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(line.startswith("nodes ") and line.endswith(" M") for line in lines)
    assert lines[0].split()[1] == lines[1].split()[1]
