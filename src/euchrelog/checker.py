"""What ``check`` hands the runner (:mod:`euchrelog.runs`): the check of one game of a
source (:func:`check_one`), how games are batched for other processes, and the reader made
ready before they start.

The reader and the engine (:mod:`euchrelog.check` and what it imports) are imported with the
first game (:func:`load_reader`), so that an empty source costs only the start of the
command."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .imports import import_frozen
from .runs import BATCH_LINES, Batching

if TYPE_CHECKING:
    from .check import GameCheck
    from .sources import Chunk


def load_reader() -> None:
    """Imports the reader and the engine (:mod:`euchrelog.check`), once, out of the
    collector's sight (:func:`~euchrelog.imports.import_frozen`)."""
    import_frozen("euchrelog.check")


def prepare_reader() -> None:
    """Imports the reader and builds its parser, before worker processes are forked."""
    load_reader()
    from .notation import prepare

    prepare()


def check_one(chunk: Chunk) -> GameCheck:
    """The check of one game, without its replay report (small to send back from another
    process)."""
    load_reader()
    from .check import check_chunk

    return check_chunk(chunk, keep_report=False)


def lines_of(chunk: object) -> int:
    """The lines of a game's text (a :class:`~euchrelog.sources.Chunk`'s)."""
    text: str = getattr(chunk, "text", "")
    return text.count("\n") + 1


BY_LINES = Batching(lines_of, BATCH_LINES)
"""Games batched by their lines: about :data:`~euchrelog.runs.BATCH_LINES` a batch."""
