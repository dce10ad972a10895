"""What the tests must know of the build they run on (pure Python or compiled by mypyc)."""

from __future__ import annotations

import pytest

from euchrelog import COMPILED

PURE_ONLY = pytest.mark.skipif(
    COMPILED, reason="the compiled build binds its calls when it is built, so a function "
                     "or method replaced at run time is not the one called: the pure build "
                     "runs this test, and the two builds are of the same source")
"""For a test that replaces a function or method of a compiled module at run time."""

PURE_START_UP = pytest.mark.skipif(
    COMPILED, reason="the compiled build imports the models with its modules (mypyc looks up "
                     "at run time the classes its annotations name): the start-up without "
                     "pydantic is the pure build's")
"""For a test of what the pure build's start-up imports."""
