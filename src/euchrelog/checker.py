"""Checking whole sources: a source is read game by game (notation, JSON Lines, or a JSON
document read whole), or cut into batches of whole games for other processes, and its
games' results come back in input order, whether checked here or in a pool of processes.
``euchrelog check`` and :mod:`euchrelog.distributed` (whose :class:`DaskChecker` sends
the batches to a cluster) both build on :class:`Checker`.

The reader and the engine (:mod:`euchrelog.check` and what it imports) are imported with the
first line of a game (:func:`load_reader`), so that an empty source costs only the start of
the command."""

from __future__ import annotations

import collections
import multiprocessing
import multiprocessing.pool
import signal
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from .errors import NotationError
from .files import Limits, read_lines
from .imports import import_frozen
from .kinds import game_per_line, head_of, is_json, kind_of, peek
from .progress import Progress

if TYPE_CHECKING:
    from .check import Chunk, GameCheck


def foreign_kind(path: str, limits: Limits) -> str | None:
    """The format of a source from elsewhere (EGN, EMN, OpenSpiel), or ``None``: told by
    its name and its first lines, which a source that can be read only once keeps for the
    reading that follows (:func:`~euchrelog.files.open_source`)."""
    return kind_of(path, head_of(read_lines(path, limits)))


def _source(path: str, limits: Limits, progress: Progress | None
            ) -> tuple[str, Iterator[str]]:
    """What a source holds (``notation``, ``json-lines`` or ``json``, a JSON document; ``""``
    for nothing but blank lines) and its lines, read as they are needed."""
    first, stream = peek(read_lines(path, limits, progress=progress))
    if not first.strip():
        return "", stream
    if not is_json(first):
        return "notation", stream
    return ("json-lines" if game_per_line(first) else "json"), stream


def source_chunks(path: str, name: str, limits: Limits, progress: Progress | None = None
            ) -> Iterator[Chunk]:
    """The games of a source, as they are read: notation, JSON Lines, or a JSON document."""
    kind, stream = _source(path, limits, progress)
    if not kind:
        return
    load_reader()
    from .check import Chunk, check_json_lines, json_line_chunks, notation_chunks

    if kind == "notation":
        yield from notation_chunks(stream, name)
    elif kind == "json-lines":
        yield from json_line_chunks(stream, name)
    else:  # a JSON document (on one line or many): read whole
        for result in check_json_lines(stream, name):
            yield Chunk(result.index, result.first_line, "", name, json=True, done=result)


@dataclass(frozen=True)
class Batch:
    """Whole games' lines, checked together in another process."""

    first_line: int
    text: str
    """The lines, joined (one string crosses to another process much faster than many)."""
    path: str | None
    json: bool = False


BATCH_LINES = 2000
"""About how many lines go to a process at a time (some 170 full deals)."""


def source_batches(path: str, name: str, limits: Limits, progress: Progress | None = None,
             size: int = 0) -> Iterator[Batch | GameCheck]:
    """A source cut into batches of whole games of about ``size`` lines (default
    :data:`BATCH_LINES`), as it is read (a JSON document, read whole, gives its results at
    once)."""
    kind, stream = _source(path, limits, progress)
    if not kind:
        return
    load_reader()
    if kind == "json":
        from .check import check_json_lines

        yield from check_json_lines(stream, name)
        return
    lines: list[str] = []
    first = 1
    size = size or BATCH_LINES
    want = size
    try:
        for line in stream:
            lines.append(line)
            if len(lines) < want:
                continue
            cut = len(lines) if kind == "json-lines" else game_start(lines)
            if cut <= 0:
                want *= 2  # one long game: wait for its end
                continue
            yield Batch(first, "".join(lines[:cut]), name, kind == "json-lines")
            first += cut
            del lines[:cut]
            want = size
    except NotationError:
        # The games read whole before the unreadable line are checked, as in one process.
        cut = len(lines) if kind == "json-lines" else game_start(lines)
        if cut > 0:
            yield Batch(first, "".join(lines[:cut]), name, kind == "json-lines")
        raise
    if lines:
        yield Batch(first, "".join(lines), name, kind == "json-lines")


def game_start(lines: list[str]) -> int:
    """The last place in ``lines`` where :func:`~euchrelog.notation.split_games` starts a
    game (before the comment and blank lines above its first tag), or 0."""
    def kind(line: str) -> str:
        text = line.strip()
        return "blank" if not text or text.startswith("#") else (
            "tag" if text.startswith("[") else "body")

    i = len(lines) - 1
    while i > 0:
        if kind(lines[i]) == "tag":
            j = i
            while j > 0 and kind(lines[j - 1]) == "blank":
                j -= 1
            if j > 0 and kind(lines[j - 1]) == "body":
                return j
            i = j - 1
        else:
            i -= 1
    return 0


def check_batch(batch: Batch) -> list[GameCheck]:
    """Checks the games of a batch (in a worker process), numbered within the batch."""
    from .check import json_line_chunks, notation_chunks
    from .notation import text_lines

    lines = text_lines(batch.text)
    chunks = (json_line_chunks if batch.json else notation_chunks)(lines, batch.path)
    return [_checked(replace(c, first_line=c.first_line + batch.first_line - 1),
                     keep_report=False) for c in chunks]


def load_reader() -> None:
    """Imports the reader and the engine (:mod:`euchrelog.check`), once, out of the
    collector's sight (:func:`~euchrelog.imports.import_frozen`)."""
    import_frozen("euchrelog.check")


def _checked(chunk: Chunk, keep_report: bool = True) -> GameCheck:
    """The check of one game here (:func:`~euchrelog.check.check_chunk`, imported with the
    first game)."""
    from .check import check_chunk

    return check_chunk(chunk, keep_report=keep_report)


def _ignore_interrupts() -> None:
    """In a worker process: leaves Ctrl-C to the main process, which ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Pending(Protocol):
    """The results of a batch being checked elsewhere."""

    def get(self) -> list[GameCheck]:
        """Waits for the results."""
        ...


Sent = tuple[Pending, int]
"""A batch being checked elsewhere, and its size in bytes."""


class Checker:
    """Checks the games of a source in this process, or in a pool of processes, keeping the
    input order."""

    def __init__(self, jobs: int, progress: Progress | None = None) -> None:
        self.jobs = jobs
        self.progress = progress
        self.pool: multiprocessing.pool.Pool | None = None
        self.window = 0
        """How many batches may be out at once; 0 checks the games in this process."""
        self.batch_lines = 0
        """About how many lines a batch holds; 0 for :data:`BATCH_LINES`."""

    def __enter__(self) -> Checker:
        if self.jobs > 1:
            load_reader()
            from .notation import prepare

            prepare()
            context = multiprocessing.get_context(
                "fork" if "fork" in multiprocessing.get_all_start_methods() else None)
            self.pool = context.Pool(self.jobs, _ignore_interrupts)
            self.window = 2 * self.jobs
        return self

    def submit(self, batch: Batch) -> Pending:
        """Starts checking a batch in the pool."""
        assert self.pool is not None
        return self.pool.apply_async(check_batch, (batch,))

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.terminate()

    def run(self, path: str, name: str, limits: Limits) -> Iterator[GameCheck]:
        """The results of the games of a source, in order.

        :raises NotationError: where the source stops being readable, after the results of
            the games before it.
        """
        if not self.window:
            yield from (c.done or _checked(c)
                        for c in source_chunks(path, name, limits, self.progress))
            return
        window: collections.deque[Sent | GameCheck] = collections.deque()
        # (progress counts batches done, not read)
        batches = source_batches(path, name, limits, size=self.batch_lines)
        base = 0
        stop: NotationError | None = None
        while True:
            try:
                item = next(batches)
            except StopIteration:
                break
            except NotationError as exc:
                stop = exc
                break
            window.append((self.submit(item), len(item.text.encode("utf-8")))
                          if isinstance(item, Batch) else item)
            while len(window) > self.window:
                base = yield from in_order(window.popleft(), base, self.progress)
        while window:
            base = yield from in_order(window.popleft(), base, self.progress)
        if stop is not None:
            raise stop


def in_order(item: Sent | GameCheck, base: int, progress: Progress | None = None
              ) -> Generator[GameCheck, None, int]:
    """Yields a batch's results numbered in the whole source (counting its bytes as done in
    ``progress``); returns the last number."""
    if not isinstance(item, tuple):  # a result known already
        yield item
        return item.index
    pending, size = item
    results = pending.get()
    if progress is not None:
        progress.advance(size)
    for result in results:
        result.index += base
        result.findings = [replace(f, game=result.index) for f in result.findings]
        yield result
    return results[-1].index if results else base
