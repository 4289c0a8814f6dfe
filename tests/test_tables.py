"""The precomputed table store the standalone brain ships instead of building tables with numpy."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbrain.core import patterns, tables
from pbrain.core.rules import Rule


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tables") / tables.FILE_NAME
    size = patterns.save_tables(path)
    assert 0 < size < 1_000_000, "the store is meant to be small"
    return path


@pytest.mark.parametrize("rule", list(Rule))
def test_stored_tables_equal_the_built_ones(store: Path, rule: Rule) -> None:
    stored = tables.load(rule, store)
    assert stored is not None
    left_base, right_class, compact = patterns.split_line_table(rule)
    assert list(stored.left_base) == left_base.tolist()
    assert list(stored.right_class) == right_class.tolist()
    assert list(stored.compact) == compact.tolist()
    assert list(stored.class_table) == patterns.class_table(rule).tolist()


def test_no_store_means_none(tmp_path: Path) -> None:
    assert tables.load(Rule.RENJU, tmp_path / "missing.bin") is None
    (tmp_path / "junk.bin").write_bytes(b"not a table store")
    assert tables.load(Rule.RENJU, tmp_path / "junk.bin") is None


def test_the_source_tree_ships_no_store() -> None:
    """The store is made by the build (build/pyinstaller/); in the package it would shadow table changes."""
    assert not tables.default_path().exists()
