"""The games of an event as read from their sources (:mod:`euchrelog.sources`), before they
are scored.

:func:`read_entries` reads the games of one text, :func:`iter_entries` those of a stream of
lines one at a time; each game is an :class:`~euchrelog.sources.Entry`, kept with its
place, or with its syntax error when it cannot be read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence

from ..sources import Entry, line_chunks, read_chunk, text_source

__all__ = ["Entry", "Reread", "iter_entries", "read_entries"]


def read_entries(text: str, path: str, order: int = 0) -> list[Entry]:
    """The games of a text, in any form a source can be, each with its place; a game that
    cannot be read is kept as its syntax error."""
    return list(text_source(text, path).entries(order))


def iter_entries(lines: Iterable[str], path: str, order: int = 0,
                 wanted: Collection[int] | None = None) -> Iterator[Entry]:
    """The games of a source's lines as they are read, one at a time (a JSON document is
    read whole); with ``wanted``, only the games of those numbers are read."""
    for chunk in line_chunks(lines, path):
        if wanted is None or chunk.index in wanted:
            entry = read_chunk(chunk, order)
            if entry is not None:
                yield entry


Reread = Callable[[Sequence[Entry]], Iterable[Entry]]
"""Reads some games again: given entries whose record was dropped, yields them whole (with
their game and source map), matched by order, path and number; a game it cannot find again
is scored as first replayed."""
