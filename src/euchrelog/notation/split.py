"""Splitting a file into games, and reading a whole file game by game.

A file is split into games before parsing (:func:`split_games`), so a syntax error costs
only its own game and checking goes on with the next one (:func:`read_games`);
:func:`iter_log` and :func:`loads` read a whole log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

from ..errors import NotationError
from ..kinds import is_json
from ..loci import GameText, ParsedGame
from .lines import text_lines
from .reader import parse_game

if TYPE_CHECKING:  # (what reads games one by one, as check does, makes no log)
    from ..models import Game, Log, LogItem


def split_games(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Splits the lines of a file into games: yields (first line number, text) per game.

    A game starts at a tag line that follows a line of another kind; the comment lines
    just above it belong to it.
    """
    chunk: list[str] = []
    first = 1
    pending = 0  # trailing comment or blank lines at the end of ``chunk``
    seen_body = False
    number = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        head = line.lstrip()[:1]  # what the line starts with, spacing aside
        if not head or head == "#":
            chunk.append(line)
            pending += 1
            continue
        if head != "[":
            seen_body = True
        elif seen_body:
            keep = len(chunk) - pending
            yield first, "\n".join(chunk[:keep]) + "\n"
            chunk = chunk[keep:]
            first = number - len(chunk)
            seen_body = False
        chunk.append(line)
        pending = 0
    if chunk and any(s.strip() for s in chunk):
        yield first, "\n".join(chunk) + "\n"
    del number


def read_games(lines: Iterable[str]) -> Iterator[GameText]:
    """Reads games one by one, going on after a syntax error (bulk checking)."""
    for first, chunk in split_games(lines):
        try:
            result = parse_game(chunk, first)
        except NotationError as exc:
            yield GameText(first, error=exc)
            continue
        if isinstance(result, ParsedGame):
            yield GameText(first, parsed=result)
        else:
            yield GameText(first, comments=result)


def iter_log(lines: Iterable[str]) -> Iterator[LogItem]:
    """Reads notation game by game, holding no more than one game: yields each game (the
    comments after the last one in its ``after``), or, for a text with no game, its
    comment lines as one tuple.

    :raises NotationError: at the first syntax error.
    """
    held: Game | None = None
    comments: list[str] = []
    for item in read_games(lines):
        if item.error is not None:
            raise item.error
        if item.parsed is None:
            comments.extend(item.comments)
            continue
        if held is not None:
            yield held
        held = item.parsed.game
    if held is not None:
        if comments:
            held = held.model_copy(update={"after": held.after + tuple(comments)})
        yield held
    elif comments:
        yield tuple(comments)


def loads(text: str) -> Log:
    """Parses notation text, or the JSON forms of a log (a document or JSON Lines, read
    by :func:`~euchrelog.notation.jsonio.loads_json`), into a
    :class:`~euchrelog.models.Log`.

    >>> loads('{"tags": [{"name": "Event", "value": "x"}], "end": {"act": "unfinished"}}\\n'
    ...       ).games[0].tag("Event")
    'x'

    :raises NotationError: at the first syntax error of notation.
    :raises RecordError: for JSON that is not a log or a game a line.
    """
    if is_json(text):
        from .jsonio import loads_json

        return loads_json(text.lstrip("\ufeff"))
    return log_of(iter_log(text_lines(text.lstrip("\ufeff"))))


def log_of(items: Iterable[LogItem]) -> Log:
    """The :class:`~euchrelog.models.Log` of what :func:`iter_log` yields."""
    from ..models import Game, Log

    items = list(items)
    games = tuple(i for i in items if isinstance(i, Game))
    comments = next((i for i in items if isinstance(i, tuple)), ())
    return Log(games=games, comments=comments)


def load(fp: TextIO) -> Log:
    """Reads notation, or either JSON form, from a text file object (see :func:`loads`)."""
    return loads(fp.read())

