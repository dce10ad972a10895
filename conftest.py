"""Collection wiring for the whole tree: the doctests of euchrelog.distributed are collected
only where the dask extra is installed (tests/test_dask.py skips itself otherwise)."""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("distributed") else [
    "src/euchrelog/distributed.py"]
