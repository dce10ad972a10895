"""The JSON forms of a log: one document, or JSON Lines with one game per line.

>>> from euchrelog.models import End, Game, Log, Tag
>>> log = Log(games=[Game(tags=[Tag(name="Event", value="x")], end=End(act="unfinished"))])
>>> text = dumps_json(log)
>>> loads_json(text) == log
True
>>> loads_json(dumps_json(log, lines=True)) == log
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from pydantic import ValidationError

from ..errors import RecordError
from ..kinds import game_per_line, is_document, json_value, peek
from ..models import FORMAT_VERSION, Game, Log, LogItem, log_items


def game_to_json(game: Game) -> str:
    """A game as one line of compact JSON."""
    return game.model_dump_json(exclude_defaults=True)


def dumps_json(log: Log, *, lines: bool = False, indent: int | None = 2) -> str:
    """Serialises a log as a JSON document, or as JSON Lines when ``lines`` is true."""
    if lines:
        return "".join(game_to_json(g) + "\n" for g in log.games)
    data: dict[str, Any] = {"format": "euchrelog", "version": FORMAT_VERSION}
    data.update(log.model_dump(mode="json", exclude_defaults=True))
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def write_json(items: Iterable[LogItem], fp: TextIO, *, lines: bool = False) -> None:
    """Writes games as they come: JSON Lines, or one JSON document with the same text as
    :func:`dumps_json` of the whole log, without holding it."""
    if lines:
        for item in items:
            if isinstance(item, Game):
                fp.write(game_to_json(item) + "\n")
        return
    stream = iter(items)
    first = next(stream, None)
    if not isinstance(first, Game):
        fp.write(dumps_json(Log(comments=first or ())))
        return
    fp.write(dumps_json(Log())[:-3] + ',\n  "games": [\n')
    game = first
    for item in stream:
        if isinstance(item, Game):
            fp.write(_indented(game) + ",\n")
            game = item
    fp.write(_indented(game) + "\n  ]\n}\n")


def _indented(game: Game) -> str:
    text = json.dumps(game.model_dump(mode="json", exclude_defaults=True), indent=2,
                      ensure_ascii=False)
    return "    " + text.replace("\n", "\n    ")


def iter_json_log(lines: Iterable[str]) -> Iterator[LogItem]:
    """Reads JSON Lines game by game, or a JSON document whole, as log items.

    :raises RecordError: at the first line or document that is not a game or a log.
    """
    first, stream = peek(lines)
    if not game_per_line(first):
        yield from log_items(loads_json("".join(stream)))
        return
    yield from _json_lines(stream)


def _error(exc: ValidationError, where: str) -> RecordError:
    first = exc.errors()[0]
    path = ".".join(str(p) for p in first.get("loc", ()))
    message = first["msg"].removeprefix("Value error, ")
    at = f"{where}: {path}: " if path else f"{where}: "
    return RecordError(f"{at}{message[:1].lower()}{message[1:]}")


def parse_game_json(text: str | bytes, where: str = "game") -> Game:
    """Validates one game from JSON.

    :raises RecordError: if it does not match the schema.
    """
    try:
        return Game.model_validate_json(text)
    except ValidationError as exc:
        raise _error(exc, where) from None


def iter_json_games(lines: Iterable[str]) -> Iterator[tuple[int, Game | RecordError]]:
    """Reads JSON Lines game by game: yields (line number, game or error), going on
    after a bad line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield number, parse_game_json(line, f"line {number}")
        except RecordError as exc:
            yield number, exc


def loads_json(text: str) -> Log:
    """Reads a JSON document or JSON Lines into a :class:`~euchrelog.models.Log`.

    :raises RecordError: if the text is not a log in either form.
    """
    stripped = text.strip()
    try:
        data = json_value(stripped) if stripped else {}
    except json.JSONDecodeError:
        data = None
    if is_document(data):
        try:
            return Log.model_validate(data)
        except ValidationError as exc:
            raise _error(exc, "document") from None
    if isinstance(data, dict):
        return Log(games=(parse_game_json(stripped),))
    return Log(games=tuple(g for g in _json_lines(text.split("\n")) if isinstance(g, Game)))


def _json_lines(lines: Iterable[str]) -> Iterator[Game]:
    """The games of JSON Lines, one a line; only the last may have comments after it.

    :raises RecordError: at the first line that is not a game.
    """
    trailing = 0  # the line of a game with comments after it
    for number, item in iter_json_games(lines):
        if isinstance(item, RecordError):
            raise item
        if trailing:
            raise RecordError(f"line {trailing}: after: only the last game has comments after "
                              "it (the comments above a game belong to its first tag)")
        trailing = number if item.after else 0
        yield item


