"""The games of an event as read from their sources, before they are scored.

:func:`read_entries` reads the games of one text (notation or JSON), :func:`iter_entries`
those of a stream of lines one at a time; each game is an :class:`Entry`, kept with its
place, or with its syntax error when it cannot be read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..check import (
    Chunk,
    GameCheck,
    check_json_lines,
    json_line_chunks,
    notation_chunks,
)
from ..errors import NotationError, RecordError
from ..findings import Finding
from ..kinds import game_per_line, is_document, is_json, json_value, peek
from ..models import Game
from ..notation import Locus, ParsedGame, SourceMap, parse_game, text_lines
from ..notation.jsonio import loads_json, parse_game_json


@dataclass
class Entry:
    """One game as read from a source, before it is scored."""

    path: str
    index: int
    """1-based number of the game in its source."""
    line: int
    """The game's first line in its source."""
    order: int = 0
    """The source's place among all sources (findings are sorted by it)."""
    game: Game | None = None
    source: SourceMap | None = None
    failed: GameCheck | None = None
    """The syntax error of a game that could not be read."""
    event_hint: str | None = None
    """For a game that could not be read: the Event tag found in its text, if any."""

    def find(self, locus: Locus) -> tuple[int, int]:
        """The line and column of a part of the game (its first line for JSON)."""
        if self.source is None:
            return self.line, 1
        return self.source.find(locus)


_EVENT_RE = re.compile(r'\[\s*Event\s*"((?:[^"\\\n]|\\.)*)"', re.IGNORECASE)


def read_entries(text: str, path: str, order: int = 0) -> list[Entry]:
    """The games of a text, notation or JSON, each with its place; a game that cannot be
    read is kept as its syntax error."""
    text = text.lstrip("\ufeff")
    return list(iter_entries([line + "\n" for line in text_lines(text)], path, order))


def iter_entries(lines: Iterable[str], path: str, order: int = 0,
                 wanted: Collection[int] | None = None) -> Iterator[Entry]:
    """The games of a source's lines as they are read, notation or JSON Lines, one at a
    time (a JSON document is read whole); with ``wanted``, only the games of those numbers
    are read."""
    first, stream = peek(lines)
    if not is_json(first):
        for chunk in notation_chunks(stream, path):
            if wanted is None or chunk.index in wanted:
                entry = _notation_entry(chunk, order)
                if entry is not None:
                    yield entry
    elif game_per_line(first):
        for chunk in json_line_chunks(stream, path):
            if wanted is None or chunk.index in wanted:
                yield _json_line_entry(chunk, order)
    else:
        buffered = list(stream)
        yield from (e for e in _json_entries("".join(buffered), buffered, path, order)
                    if wanted is None or e.index in wanted)


def _notation_entry(chunk: Chunk, order: int) -> Entry | None:
    """One game of notation, or its syntax error; ``None`` for a chunk of comments."""
    path = chunk.path or ""
    try:
        parsed = parse_game(chunk.text, chunk.first_line)
    except NotationError as err:
        failure = Finding("S101", err.message, err.line, err.column, path=path,
                          game=chunk.index)
        hint = _EVENT_RE.search(chunk.text)
        return Entry(path, chunk.index, chunk.first_line, order, failed=GameCheck(
            chunk.index, chunk.first_line, [failure], None, err.context, syntax_error=True),
            event_hint=hint.group(1).replace('\\"', '"').strip() if hint else None)
    if isinstance(parsed, ParsedGame):
        return Entry(path, chunk.index, chunk.first_line, order, parsed.game, parsed.source)
    return None


def _json_line_entry(chunk: Chunk, order: int) -> Entry:
    """One game of JSON Lines, or the finding that it is not one (S102)."""
    path = chunk.path or ""
    try:
        game = parse_game_json(chunk.text)
    except RecordError as exc:
        finding = Finding("S102", str(exc), chunk.first_line + max(exc.line, 1) - 1,
                          exc.column or 1, path=path, game=chunk.index)
        return Entry(path, chunk.index, chunk.first_line, order, failed=GameCheck(
            chunk.index, chunk.first_line, [finding], syntax_error=True))
    return Entry(path, chunk.index, chunk.first_line, order, game)


def _json_entries(text: str, lines: list[str], path: str, order: int) -> list[Entry]:
    games: dict[int, Game] = {}
    try:
        value = json_value(text)
    except (json.JSONDecodeError, RecordError):
        value = None
    if is_document(value):
        try:
            games = dict(enumerate(loads_json(text).games, 1))
        except RecordError:
            games = {}
    entries = []
    for result in check_json_lines(lines, path):
        game = games.get(result.index)
        if game is None and not result.syntax_error:
            try:
                game = parse_game_json(lines[result.first_line - 1])
            except (RecordError, IndexError):
                game = None
        if game is None:
            entries.append(Entry(path, result.index, result.first_line, order, failed=result))
        else:
            entries.append(Entry(path, result.index, result.first_line, order, game))
    return entries


Reread = Callable[[Sequence[Entry]], Iterable[Entry]]
"""Reads some games again: given entries whose record was dropped, yields them whole (with
their game and source map), matched by order, path and number; a game it cannot find again
is scored as first replayed."""
