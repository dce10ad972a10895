"""How euchrelog's parts are imported: the heavy ones (the models, the grammar, the engine
and its tables) when a command first needs them, out of the collector's sight; and a package
that is also called as its function (``euchrelog.replay``).

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
from typing import Any


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


class _CallablePackage(ModuleType):
    """A package called as its function of the same name: ``euchrelog.replay(game)`` is
    ``euchrelog.replay.replay(game)``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(self, self.__name__.rpartition(".")[2])(*args, **kwargs)


def callable_package(name: str) -> None:
    """Makes the package ``name`` (imported) callable as its function of the same name, so
    that the function need not be bound in the package's place, where it would hide the
    package (``import euchrelog.replay.results`` would fail)."""
    sys.modules[name].__class__ = _CallablePackage
