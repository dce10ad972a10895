"""The one way in: a source (a file, ``-`` for standard input, a pipe or a device; a folder
gives its ``*.euchre`` files) becomes games, with their places.

:func:`open_source` decides once what a source holds, by one rule for every command: a
format from elsewhere by its extension (``.egn``, ``.emn``) or its first lines (an EGN or
EMN document, an OpenSpiel history); else JSON when its first character that is not blank
is ``{`` (JSON Lines when its first line is one whole game, else a JSON document); else
notation. The name of a file says nothing more: a record of notation saved as
``game.json`` is read as notation by every command.

A :class:`Source` then gives its games as every command needs them: :meth:`Source.chunks`,
each game's text and place (the unit of work the runner, :mod:`euchrelog.runs`, sends to
other processes), read into models by :func:`read_chunk`; :meth:`Source.entries`, the
games read; :meth:`Source.items`, the whole log read losslessly (``convert``, ``fmt``).
Games are numbered from 1 in every source.

>>> import io, os, tempfile
>>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
...     _ = fh.write('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\nunfinished\\n')
>>> source = open_source(fh.name, Limits())
>>> source.kind, [(c.index, c.first_line) for c in source.chunks()]
('notation', [(1, 1)])
>>> [e.game.deals[0].sheet.thrown for e in source.entries() if e.game]
[True]
>>> os.unlink(fh.name)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .errors import LimitError, NotationError, RecordError
from .files import Limits, read_lines
from .findings import Finding
from .kinds import KINDS, game_per_line, head_of, is_document, is_json, json_value, kind_of

if TYPE_CHECKING:
    from .check import GameCheck
    from .interop import Converted
    from .loci import Locus, SourceMap
    from .models import Game, LogItem
    from .progress import Progress

NOTATION = "notation"
JSON_LINES = "json-lines"
JSON_DOCUMENT = "json"
EMPTY = ""
FROM_ELSEWHERE = KINDS
"""The formats read from elsewhere: EGN, EMN and OpenSpiel histories."""

STDIN = "<stdin>"
"""The name of standard input in messages."""


def source_name(path: str) -> str:
    """A source's name in messages: ``<stdin>`` for ``-``."""
    return STDIN if path == "-" else path


def kind_from_head(path: str, head: str) -> str:
    """What a source holds, from its name and its start (:func:`~euchrelog.kinds.head_of`):
    the one rule of :func:`open_source`.

    >>> kind_from_head("a.euchre", '{"tags": []}'), kind_from_head("a.json", "[Event \\"x\\"]")
    ('json-lines', 'notation')
    >>> kind_from_head("a.egn", ""), kind_from_head("-", "{\\n"), kind_from_head("-", "")
    ('egn', 'json', '')
    """
    elsewhere = kind_of(path, head)
    if elsewhere is not None:
        return elsewhere
    first = head.partition("\n")[0]
    if not first.strip():
        return EMPTY
    if not is_json(first):
        return NOTATION
    return JSON_LINES if game_per_line(first) else JSON_DOCUMENT


def open_source(path: str, limits: Limits, progress: Progress | None = None, *,
                kind: str | None = None) -> Source:
    """A source, with what it holds decided by its name and its first lines (a source that
    can be read only once keeps them for the reading that follows,
    :func:`~euchrelog.files.open_source`), or given as ``kind`` (``--from``).

    :raises OSError: when the source cannot be opened.
    """
    if kind is not None:
        return Source(path, kind, limits, progress)
    try:
        head = head_of(read_lines(path, limits))
    except (NotationError, LimitError):  # its first lines cannot be read: reading says so
        head = "#"
    return Source(path, kind_from_head(path, head), limits, progress)


def text_source(text: str, name: str | None = None) -> Source:
    """A source given as text (``name``, if any, names it in findings and tells a format
    from elsewhere by its extension), its kind decided as :func:`open_source` decides it."""
    return Source(name or "", kind_from_head(name or "", head_of(given_lines(text))),
                  given=text)


def _counted(lines: list[str], progress: Progress | None) -> Iterator[str]:
    """The lines, each counted in ``progress`` (its bytes) as it is read."""
    for line in lines:
        if progress is not None:
            progress.advance(len(line.encode("utf-8", "surrogatepass")))
        yield line


def given_lines(text: str, *, strip_bom: bool = True) -> list[str]:
    """The lines of a text as a file's are read: each with its line end, the last without
    one where the text has none (split at ``\n`` only, as a file is read; a ``\r`` before
    it is dropped)."""
    from .notation import text_lines

    body = text.lstrip("\ufeff") if strip_bom else text
    lines = [line + "\n" for line in text_lines(body)]
    if lines and not text.endswith("\n"):
        lines[-1] = lines[-1][:-1]
    return lines


@dataclass(frozen=True)
class Chunk:
    """One game of a source, as the unit of work: its text and place, or the game a source
    read whole gave (a game of a JSON document or from elsewhere), or the outcome of one
    that could not be read."""

    index: int
    """1-based number of the game in its source."""
    first_line: int
    """The game's first line in its source (0 for a game of a document or from
    elsewhere)."""
    text: str
    """The game's text: notation, or one line of JSON Lines (``""`` when read whole)."""
    path: str | None
    """The source's name in messages."""
    json: bool = False
    """Whether the text is one line of JSON Lines rather than notation."""
    done: GameCheck | None = None
    """The outcome of a game that could not be read (its syntax finding)."""
    game: Game | None = None
    """A game read with its source: one of a JSON document."""
    converted: Converted | None = None
    """A game read from elsewhere, with the input's places of its parts."""

    @property
    def form(self) -> str:
        """What the chunk holds, the key of each table of readings of chunks
        (:func:`read_chunk`'s, :data:`euchrelog.check.CHECKS`): ``done`` (the outcome of a
        game that could not be read), ``game`` (a game read whole), ``converted`` (a game
        from elsewhere), ``json`` (a line of JSON Lines) or ``notation``."""
        if self.done is not None:
            return "done"
        if self.game is not None:
            return "game"
        if self.converted is not None:
            return "converted"
        return "json" if self.json else "notation"


@dataclass
class Entry:
    """One game of a source, read: its model and source map, or the check of a game that
    could not be read."""

    path: str
    """The source's name in messages."""
    index: int
    """1-based number of the game in its source."""
    line: int
    """The game's first line in its source (0 for a game of a document or from
    elsewhere)."""
    order: int = 0
    """The source's place among all the sources of a run."""
    game: Game | None = None
    source: SourceMap | None = None
    """Where the parts of a game of notation stand."""
    failed: GameCheck | None = None
    """The syntax finding of a game that could not be read."""
    text: str = ""
    """The game's notation (its ``# noqa`` comments are read from it)."""
    converted: Converted | None = None
    """A game from elsewhere, with where its parts stand in the input."""
    event_hint: str | None = field(default=None)
    """For a game of notation that could not be read: the Event tag in its text, if any."""
    size: int = 0
    """The bytes of the game's text in its source (0 for a game of a document or from
    elsewhere): what a command counts as done when it is done with the game."""

    def find(self, locus: Locus) -> tuple[int, int]:
        """The line and column of a part of the game (its first line for JSON)."""
        if self.source is None:
            return self.line, 1
        return self.source.find(locus)


@dataclass(frozen=True)
class Source:
    """A source whose kind is decided (:func:`open_source`), read as it is needed."""

    path: str
    kind: str
    """``notation``, ``json-lines``, ``json`` (a document), ``egn``, ``emn``,
    ``openspiel``, or ``""`` for nothing but blank lines."""
    limits: Limits = field(default_factory=Limits)
    progress: Progress | None = None
    """Counts the bytes read."""
    given: str | None = None
    """The source's text, for a source given as text rather than read from ``path``."""

    @property
    def name(self) -> str | None:
        """The source's name in findings and messages (none for a text given without
        one)."""
        if self.given is not None:
            return self.path or None
        return source_name(self.path)

    @property
    def from_elsewhere(self) -> bool:
        """Whether the source is in a format from elsewhere (EGN, EMN, OpenSpiel)."""
        return self.kind in FROM_ELSEWHERE

    def lines(self, *, strip_bom: bool = True) -> Iterator[str]:
        """The source's lines from its start, within its limits, counted in ``progress``.

        :raises NotationError: at the first line that is not UTF-8, or over a limit.
        """
        if self.given is not None:
            return _counted(given_lines(self.given, strip_bom=strip_bom), self.progress)
        return read_lines(self.path, self.limits, strip_bom=strip_bom, progress=self.progress)

    def text(self) -> str:
        """The whole source as text, byte-order mark and all."""
        return "".join(self.lines(strip_bom=False))

    def chunks(self) -> Iterator[Chunk]:
        """Each game of the source as it is read (a JSON document or a format from
        elsewhere is read whole first).

        :raises NotationError: where the source stops being readable (not UTF-8, a limit),
            after the games before that place.
        """
        return chunks_of(self.kind, self.lines(), self.name)

    def entries(self, order: int = 0, wanted: Collection[int] | None = None
                ) -> Iterator[Entry]:
        """Each game of the source read (:func:`read_chunk`), or with ``wanted`` only the
        games of those numbers; a chunk of comments only is left out.

        :raises NotationError: where the source stops being readable.
        """
        for chunk in self.chunks():
            if wanted is not None and chunk.index not in wanted:
                continue
            entry = read_chunk(chunk, order)
            if entry is not None:
                yield entry

    def items(self, lost: Callable[[str], object] | None = None) -> Iterator[LogItem]:
        """The whole log, game by game, with every comment (for a lossless rewrite): each
        game, or a tuple of comment lines for a text of comments only.

        :param lost: told, for a game from elsewhere, each thing its input says that the
            game does not keep (a phrase with its place).
        :raises NotationError: at the first syntax error of notation.
        :raises RecordError: for JSON that is not a log; a game from elsewhere that cannot
            be converted (a :class:`~euchrelog.interop.ConversionError`, with its place).
        """
        if self.from_elsewhere:
            from .interop import ConversionError, read_source

            for item in read_source(self.kind, "".join(self.lines())):
                if isinstance(item, ConversionError):
                    raise item
                if lost is not None:
                    for what in item.lost:
                        lost(what)
                yield item.game
        elif self.kind in (JSON_LINES, JSON_DOCUMENT):
            from .notation.jsonio import iter_json_log

            yield from iter_json_log(self.lines())
        else:
            from .notation import iter_log

            yield from iter_log(self.lines())


def chunks_of(kind: str, lines: Iterable[str], name: str | None) -> Iterator[Chunk]:
    """Each game of a source of ``kind`` (see :class:`Source`) from its lines, as they are
    read (a JSON document or a format from elsewhere is read whole first)."""
    if kind == NOTATION:
        from .notation import split_games

        for index, (first, text) in enumerate(split_games(lines), 1):
            yield Chunk(index, first, text, name)
    elif kind == JSON_LINES:
        yield from json_line_chunks(lines, name)
    elif kind == JSON_DOCUMENT:
        yield from json_chunks(list(lines), name)
    elif kind in FROM_ELSEWHERE:
        from .interop import ConversionError, read_source

        for index, item in enumerate(read_source(kind, "".join(lines)), 1):
            if isinstance(item, ConversionError):
                finding = Finding("S102", item.message, where=item.where)
                yield failed_chunk(finding, name, index, first_line=0)
            else:
                yield Chunk(index, 0, "", name, converted=item)


def line_chunks(lines: Iterable[str], name: str | None = None) -> Iterator[Chunk]:
    """Each game of a source given as its lines (read once, as they are needed), its kind
    decided as :func:`open_source` decides it."""
    stream = iter(lines)
    head: list[str] = []
    for line in stream:
        head.append(line)
        if line.strip() and line.strip() != "{":
            break
    kind = kind_from_head(name or "", head_of(head))
    return chunks_of(kind, itertools.chain(head, stream), name)


def json_chunks(lines: list[str], name: str | None) -> Iterator[Chunk]:
    """The games of JSON text: a document read whole (or, when the text as a whole is no
    document but its first line is JSON, each line a game); one S102 chunk for a document
    that cannot be read."""
    from .notation.jsonio import loads_json

    text = "".join(lines)
    try:
        data = json_value(text)
    except RecordError as err:
        yield failed_chunk(Finding("S102", str(err), err.line or 1, err.column or 1), name,
                           json=True)
        return
    except json.JSONDecodeError as exc:
        data = None
        try:
            json_value(lines[0] if lines else "")
        except (json.JSONDecodeError, RecordError):  # not JSON Lines either
            cut = " (is the file cut short?)" if exc.pos >= len(text.rstrip()) else ""
            yield failed_chunk(Finding("S102", f"not JSON: {exc.msg.lower()}{cut}",
                                       exc.lineno, exc.colno), name, json=True)
            return
    if not is_document(data):
        yield from json_line_chunks(lines, name)
        return
    try:
        log = loads_json(text)
    except RecordError as err:
        yield failed_chunk(Finding("S102", str(err), err.line or 1, err.column or 1), name,
                           json=True)
        return
    for index, game in enumerate(log.games, 1):
        yield Chunk(index, 1, "", name, json=True, game=game)


def failed_chunk(finding: Finding, name: str | None, index: int = 1, *, first_line: int = 1,
                 json: bool = False) -> Chunk:
    """The chunk of a game that cannot be read, with its one (syntax) finding."""
    from .check import GameCheck

    placed = replace(finding, path=name, game=index)
    return Chunk(index, first_line, "", name, json=json, done=GameCheck(
        index, first_line, [placed], syntax_error=True))


def json_line_chunks(lines: Iterable[str], path: str | None = None) -> Iterator[Chunk]:
    """One chunk per line of JSON Lines that is not blank."""
    index = 0
    for number, line in enumerate(lines, 1):
        if line.strip():
            index += 1
            yield Chunk(index, number, line, path, json=True)


def read_chunk(chunk: Chunk, order: int = 0) -> Entry | None:
    """A chunk's game read into its model and source map, or kept with its syntax finding
    when it cannot be read; ``None`` for a chunk of comments only."""
    entry = _read_chunk(chunk, order)
    if entry is not None and chunk.text:
        entry.size = len(chunk.text.encode("utf-8", "surrogatepass"))
    return entry


def _read_chunk(chunk: Chunk, order: int) -> Entry | None:
    return _READS[chunk.form](chunk, order, chunk.path or "")


def _read_done(chunk: Chunk, order: int, path: str) -> Entry:
    return Entry(path, chunk.index, chunk.first_line, order, failed=chunk.done)


def _read_model(chunk: Chunk, order: int, path: str) -> Entry:
    return Entry(path, chunk.index, chunk.first_line, order, chunk.game)


def _read_converted(chunk: Chunk, order: int, path: str) -> Entry:
    assert chunk.converted is not None
    return Entry(path, chunk.index, 0, order, chunk.converted.game, converted=chunk.converted)


def _read_json_line(chunk: Chunk, order: int, path: str) -> Entry:
    from .check import GameCheck
    from .notation.jsonio import parse_game_json

    try:
        game = parse_game_json(chunk.text)
    except RecordError as exc:
        finding = Finding("S102", str(exc), chunk.first_line + max(exc.line, 1) - 1,
                          exc.column or 1, path=path, game=chunk.index)
        return Entry(path, chunk.index, chunk.first_line, order, failed=GameCheck(
            chunk.index, chunk.first_line, [finding], syntax_error=True))
    return Entry(path, chunk.index, chunk.first_line, order, game)


def _read_notation(chunk: Chunk, order: int, path: str) -> Entry | None:
    from .check import GameCheck
    from .loci import ParsedGame
    from .notation import parse_game

    try:
        parsed = parse_game(chunk.text, chunk.first_line)
    except NotationError as err:
        failure = Finding("S101", err.message, err.line, err.column, path=path,
                          game=chunk.index)
        return Entry(path, chunk.index, chunk.first_line, order, failed=GameCheck(
            chunk.index, chunk.first_line, [failure], None, err.context, syntax_error=True),
            text=chunk.text, event_hint=event_tag(chunk.text))
    if isinstance(parsed, ParsedGame):
        return Entry(path, chunk.index, chunk.first_line, order, parsed.game, parsed.source,
                     text=chunk.text)
    return None


_READS: dict[str, Callable[[Chunk, int, str], Entry | None]] = {
    "done": _read_done,
    "game": _read_model,
    "converted": _read_converted,
    "json": _read_json_line,
    "notation": _read_notation,
}
"""How each form of chunk (:attr:`Chunk.form`) is read into an entry."""


def event_tag(text: str) -> str | None:
    """The value of the Event tag in the text of a game that could not be read, if any.

    >>> event_tag('[Event "Club \\\\"A\\\\""]\\ndeal 1 ???'), event_tag("deal 1")
    ('Club "A"', None)
    """
    import re

    found = re.search(r'\[\s*Event\s*"((?:[^"\\\n]|\\.)*)"', text, re.IGNORECASE)
    return found.group(1).replace('\\"', '"').strip() if found else None
