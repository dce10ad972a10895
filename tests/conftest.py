"""Test-suite wiring: every Hypothesis property test is marked ``slow``, so that
``python -m pytest -m "not slow"`` is a quick run (the fuzz modules mark themselves)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the property tests (those decorated with Hypothesis's ``@given``) slow."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.slow)
