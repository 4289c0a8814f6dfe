"""The public API: every name it promises exists and is documented, and the API page's examples run."""
from __future__ import annotations

import doctest
import inspect
from pathlib import Path

import pbrain

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_exists_and_is_documented() -> None:
    for name in pbrain.__all__:
        value = getattr(pbrain, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"pbrain.{name} has no docstring"


def test_the_api_page_examples_run() -> None:
    results = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 20 and results.failed == 0


def test_the_package_docstring_example_runs() -> None:
    results = doctest.testmod(pbrain)
    assert results.attempted >= 4 and results.failed == 0
