"""Importing the heavy parts (the models, the grammar, the engine and its tables) when a
command first needs them, out of the collector's sight.

Such an import makes many objects that live as long as the process. :func:`import_frozen`
imports with the collector paused, then freezes what the process holds
(:func:`gc.freeze`), as the CLI does with what its start-up made: collecting while they
are young only scans them again and again.

>>> import_frozen("euchrelog.check").__name__
'euchrelog.check'
"""

from __future__ import annotations

import gc
import importlib
import sys
from types import ModuleType


def import_frozen(name: str) -> ModuleType:
    """The module ``name`` (absolute), imported as above unless it is imported already."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    paused = gc.isenabled()
    gc.disable()
    try:
        module = importlib.import_module(name)
    finally:
        if paused:
            gc.enable()
    gc.freeze()
    return module
