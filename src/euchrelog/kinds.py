"""What a source holds, told from its name and its first lines, before any reader is
imported: notation, JSON Lines, a JSON document, or a format from elsewhere (EGN, EMN, an
OpenSpiel history); and :func:`json_value`, the one way in for JSON values of a source.

>>> is_json('  {"tags": []}'), game_per_line('{"tags": []}'), game_per_line('{"games": []}')
(True, True, False)
>>> kind_of("match.emn", ""), kind_of("-", '{"actions": [3, 1]}'), kind_of("-", "deal 1")
('emn', 'openspiel', None)
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import RecordError


def is_json(text: str) -> bool:
    """Whether ``text`` looks like JSON rather than notation."""
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def peek(lines: Iterable[str]) -> tuple[str, Iterator[str]]:
    """The first line that is not blank (``""`` if none), and all the lines still to be
    read, that one included."""
    stream = iter(lines)
    head: list[str] = []
    for line in stream:
        head.append(line)
        if line.strip():
            break
    return (head[-1] if head else ""), itertools.chain(head, stream)


def is_document(value: Any) -> bool:
    """Whether a JSON value is a log document (``games``, ``format``, or nothing at all)
    rather than one game."""
    return isinstance(value, dict) and (not value or "games" in value or "format" in value)


def game_per_line(first: str) -> bool:
    """Whether JSON whose first line that is not blank is ``first`` is JSON Lines, one game
    a line, rather than a JSON document."""
    try:
        value = json_value(first)
    except (json.JSONDecodeError, RecordError):
        return False
    return isinstance(value, dict) and not is_document(value)


MAX_DEPTH = 100
"""How deeply a JSON value read from a source may nest its arrays and objects: far more
than any record needs (a game of notation nests 7 deep, a log 9, an EGN file up to 9, an
EMN match 10), and few enough that every reader can walk what it is given."""


def json_value(text: str) -> Any:
    """``json.loads``, with nesting deeper than :data:`MAX_DEPTH` and integers too long for
    Python refused as a :class:`RecordError`: the one way in for JSON values of a source
    (documents, the first line of JSON Lines, the formats from elsewhere; a game of JSON
    Lines is read by its schema, which takes no nesting deeper than a game's).

    :raises json.JSONDecodeError: for text that is not JSON.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise _too_deep(text) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # int(): more digits than sys.get_int_max_str_digits()
        raise RecordError("the JSON has a number too long to read") from None
    if too_deep(value):
        raise _too_deep(text)
    return value


TOO_DEEP = f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)"
"""The message of JSON nested deeper than :data:`MAX_DEPTH`."""


def too_deep(value: Any) -> bool:
    """Whether a value parsed from JSON nests its arrays and objects deeper than
    :data:`MAX_DEPTH` (a walk level by level, without recursion)."""
    level = [value] if type(value) in (dict, list) else []
    for _ in range(MAX_DEPTH):
        if not level:
            return False
        level = [item for node in level for item in (node.values() if type(node) is dict
                                                     else node)
                 if type(item) is dict or type(item) is list]
    return bool(level)


_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
"""The strings and the brackets of JSON text."""


def _too_deep(text: str) -> RecordError:
    """The error of JSON text nested too deeply, at the line and column of the first bracket
    past :data:`MAX_DEPTH` (the column alone in text of one line)."""
    depth, at = 0, 0
    for token in _NESTING.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                at = token.start()
                break
        elif bracket in ("]", "}"):
            depth -= 1
    column = at - text.rfind("\n", 0, at)
    if "\n" not in text.rstrip("\n"):  # one line: its number is the caller's to give
        return RecordError(f"{TOO_DEEP} at column {column}")
    line = text.count("\n", 0, at) + 1
    return RecordError(f"{TOO_DEEP} at line {line}, column {column}")


KINDS = ("egn", "emn", "openspiel")
"""The formats read from elsewhere (``--from``)."""
EXTENSIONS = {".egn": "egn", ".emn": "emn"}
_FILE_TYPE = re.compile(r'\A\ufeff?\s*\{\s*"(?:fileType|file_type)"\s*:\s*"Euchre (Game|Match) '
                        r'Notation"')
"""The start of an EGN or EMN document: its first member is its ``fileType``."""


def head_of(lines: Iterable[str]) -> str:
    """The start of a source that :func:`kind_of` tells its format by: its first line that
    is not blank, and when that line only opens an object (a JSON document written over
    many lines), the next line that is not blank too. Reads no further."""
    head = ""
    for line in lines:
        if line.strip():
            head += line
            if head.strip() != "{":
                break
    return head


def kind_of(path: str, head: str) -> str | None:
    """The format a source is in, when it is one from elsewhere: by its extension (``.egn``,
    ``.emn``); else by how it starts (``head``, see :func:`head_of`), the same for a file,
    standard input or a pipe: EGN or EMN by a first member ``"fileType": "Euchre Game
    Notation"`` (or ``Match``), an OpenSpiel history by the structure of its first line (see
    :func:`is_history`)."""
    for extension, kind in EXTENSIONS.items():
        if path.lower().endswith(extension):
            return kind
    document = _FILE_TYPE.match(head)
    if document is not None:
        return "egn" if document[1] == "Game" else "emn"
    first_line = head.partition("\n")[0]
    if not first_line.lstrip().startswith("{"):
        return None
    try:
        item = json_value(first_line)
    except ValueError:  # not JSON, or over a limit (a RecordError)
        return None
    return "openspiel" if is_history(item) else None


def is_history(item: Any) -> bool:
    """Whether a JSON value has the structure of a line of a file of OpenSpiel histories: an object
    of ``actions``, a list of whole numbers, and optionally ``params``, an object of
    true-or-false values."""
    if not isinstance(item, dict) or "actions" not in item or set(item) - {"actions",
                                                                            "params"}:
        return False
    actions, params = item["actions"], item.get("params", {})
    return (isinstance(actions, list) and all(type(a) is int for a in actions)
            and isinstance(params, dict) and all(type(v) is bool for v in params.values()))
