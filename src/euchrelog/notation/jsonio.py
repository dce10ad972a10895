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
import re
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from pydantic import ValidationError

from ..errors import RecordError
from ..kinds import TOO_DEEP, game_per_line, is_document, json_value, peek
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


_SINGULAR = {"games": "game", "deals": "deal", "tricks": "trick", "plays": "play",
             "tags": "tag", "hands": "hands line", "bidding": "bid line", "bids": "bid",
             "declarations": "declaration", "penalties": "penalty", "claims": "renege claim",
             "kitty": "kitty card", "cards": "card", "keeps": "card kept", "before": "comment",
             "after": "comment", "comments": "comment"}
"""What one item of a list of the JSON form is called, by the list's key."""
_KINDS = {"string_type": "a string", "int_type": "a whole number", "bool_type": "true or false",
          "float_type": "a number", "dict_type": "an object", "model_type": "an object",
          "list_type": "a list", "tuple_type": "a list", "int_from_float": "a whole number",
          "string_too_long": "a shorter string", "none_required": "null"}
"""What a value of each kind the schema asks for is called, by pydantic's error type."""


def _json_kind(value: object) -> str:
    """What a JSON value is, in a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return repr(value)


def _where(loc: tuple[int | str, ...]) -> str:
    """A place in the JSON form in words: ``("games", 0, "deals", 2, "dealer")`` is
    ``game 1, deal 3, dealer``."""
    words: list[str] = []
    for k, step in enumerate(loc):
        if isinstance(step, int):
            before = loc[k - 1] if k else ""
            words.append(f"{_SINGULAR.get(str(before), 'item')} {step + 1}")
        elif k + 1 < len(loc) and isinstance(loc[k + 1], int) and step in _SINGULAR:
            continue  # (named with its number, next)
        else:
            words.append(str(step))
    return ", ".join(words)


def _message(error: Any, loc: tuple[int | str, ...]) -> tuple[str, tuple[int | str, ...]]:
    """One of pydantic's errors in the project's words, about the value at ``loc`` (its
    place, without the names pydantic adds to it), and the place of that value (for a key
    that is missing, its object)."""
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    if kind == "missing":
        what = f"{loc[-1]} is missing" if loc else "a key is missing"
        return f"{_where(loc[:-1]) + ': ' if len(loc) > 1 else ''}{what}", loc[:-1]
    if kind == "extra_forbidden":
        return (f"{_where(loc[:-1]) + ': ' if len(loc) > 1 else ''}unknown key "
                f"{str(loc[-1])!r}"), loc
    where = f"{_where(loc)}: " if loc else ""
    if kind == "too_short":
        least, has = ctx.get("min_length", 1), ctx.get("actual_length", 0)
        item = "item" if least == 1 else "items"
        return f"{where}at least {least} {item} needed, {has or 'none'} given", loc
    if kind == "too_long":
        return (f"{where}at most {ctx.get('max_length')} items, "
                f"{ctx.get('actual_length')} given"), loc
    if kind in _KINDS:
        return f"{where}expected {_KINDS[kind]}, found {_json_kind(value)}", loc
    if kind == "literal_error":
        return f"{where}expected {ctx.get('expected')}, found {_json_kind(value)}", loc
    if kind == "union_tag_invalid":
        return (f"{where}{ctx.get('discriminator', 'kind')} {ctx.get('tag')!r} is none of "
                f"{ctx.get('expected_tags')}"), loc
    if kind == "union_tag_not_found":
        return f"{where}no {ctx.get('discriminator', 'kind')}", loc
    if kind in ("greater_than_equal", "greater_than"):
        return f"{where}{_json_kind(value)} is less than {ctx.get('ge', ctx.get('gt'))}", loc
    if kind in ("less_than_equal", "less_than"):
        return f"{where}{_json_kind(value)} is more than {ctx.get('le', ctx.get('lt'))}", loc
    if kind == "string_pattern_mismatch":
        return f"{where}{_json_kind(value)} is not written as the notation writes it", loc
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}{message[:1].lower()}{message[1:]}", loc


def locate(text: str, path: tuple[int | str, ...], start: int = 0) -> int:
    """Where (an index of ``text``) the value at ``path`` of the JSON value in ``text``
    (from ``start`` on) begins: of the value, or of the nearest part of it that is there
    (a key pydantic adds to a path, a union's tag, is passed over).

    >>> text = '{"a": [1, {"b": "x"}]}'
    >>> text[locate(text, ("a", 1, "b")):]
    '"x"}]}'
    """
    return _walk(text, path, start)[0]


def _walk(text: str, path: tuple[int | str, ...], start: int = 0
          ) -> tuple[int, tuple[int | str, ...]]:
    """:func:`locate`, and the steps of ``path`` that the text has (not those pydantic
    adds)."""
    decoder = json.JSONDecoder()
    passed: list[int | str] = []

    def space(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    i = space(start)
    try:
        for step in path:
            if i >= len(text):
                break
            if text[i] == "{" and isinstance(step, str):
                j = space(i + 1)
                found = None
                while j < len(text) and text[j] == '"':
                    key, j = decoder.raw_decode(text, j)
                    j = space(space(j) + 1)  # (past the colon)
                    if key == step:
                        found = j
                        break
                    j = space(decoder.raw_decode(text, j)[1])
                    j = space(j + 1) if j < len(text) and text[j] == "," else j
                if found is not None:
                    i = found
                    passed.append(step)
            elif text[i] == "[" and isinstance(step, int):
                j = space(i + 1)
                for _ in range(step):
                    if j >= len(text) or text[j] == "]":
                        return i, tuple(passed)
                    j = space(decoder.raw_decode(text, j)[1])
                    j = space(j + 1) if j < len(text) and text[j] == "," else j
                if j >= len(text) or text[j] == "]":
                    return i, tuple(passed)
                i = j
                passed.append(step)
            else:
                break
    except (ValueError, RecursionError, IndexError):
        pass
    return i, tuple(passed)


_AT = re.compile(r" at line (\d+) column (\d+)$")


def _error(exc: ValidationError, text: str | bytes, start: int = 0) -> RecordError:
    """A validation error as a :class:`RecordError` in the project's words, placed at the
    line and column of the value it is about in ``text``."""
    first = exc.errors()[0]
    if first["type"] == "json_invalid":  # (text that is not JSON: where it stops being)
        said = str((first.get("ctx") or {}).get("error", first["msg"]))
        m = _AT.search(said)
        where = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        said = _AT.sub("", said)
        return RecordError(TOO_DEEP if "recursion limit" in said else f"not JSON: {said}",
                           *where)
    source = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    loc: tuple[int | str, ...] = tuple(first.get("loc", ()))
    missing = first["type"] == "missing" and bool(loc)
    _, present = _walk(source, loc[:-1] if missing else loc, start)
    if len(present) == len(loc) - missing:
        present = loc  # (every step is in the text)
    elif missing:
        present = (*present, loc[-1])
    message, place = _message(first, present)
    at = locate(source, place, start)
    line = source.count("\n", 0, at) + 1
    column = at - (source.rfind("\n", 0, at) + 1) + 1
    return RecordError(message, line, column)


def parse_game_json(text: str | bytes) -> Game:
    """Validates one game from JSON.

    :raises RecordError: if it does not match the schema, placed in ``text``.
    """
    try:
        return Game.model_validate_json(text)
    except ValidationError as exc:
        raise _error(exc, text) from None


def iter_json_games(lines: Iterable[str]) -> Iterator[tuple[int, Game | RecordError]]:
    """Reads JSON Lines game by game: yields (line number, game or error), going on
    after a bad line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield number, parse_game_json(line)
        except RecordError as exc:
            yield number, RecordError(str(exc), number, exc.column)


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
            raise _error(exc, text, len(text) - len(text.lstrip())) from None
    if isinstance(data, dict):
        return Log(games=(parse_game_json(text),))
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
            raise RecordError("after: only the last game has comments after it (the comments "
                              "above a game belong to its first tag)", trailing, 1)
        trailing = number if item.after else 0
        yield item


