"""The base of the frozen dataclasses that cross processes (``--jobs``, Dask): pickled by
their fields and made again by their constructor. A frozen dataclass compiled by mypyc is
otherwise unpickled attribute by attribute, which its frozen ``__setattr__`` refuses."""

from __future__ import annotations

import dataclasses
from typing import Any


class Frozen:
    """Pickles a frozen dataclass as its constructor and its fields (those it is made
    with)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), tuple(getattr(self, f.name)
                                  for f in dataclasses.fields(self)  # type: ignore[arg-type]
                                  if f.init))
