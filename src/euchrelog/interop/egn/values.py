"""The JSON values of an EGN file as read (an object of known fields, a whole number, a
one-line string, each refused at its JSON path when it is not), and JSON and annotation text
kept in the notation's tags and comments."""

from __future__ import annotations

import json
from typing import Any

from ...errors import RecordError
from ...kinds import json_value
from .. import ConversionError


def fail(message: str, where: str) -> ConversionError:
    """The error to raise for ``message`` at ``where`` in the input."""
    return ConversionError(message, where)


def checked_object(value: Any, where: str, keys: frozenset[str]) -> dict[str, Any]:
    """``value``, an object whose fields are all among ``keys``."""
    if not isinstance(value, dict):
        raise fail("expected an object", where)
    for key in value:
        if key not in keys:
            raise fail(f"unknown field {key!r}", where)
    return value


def whole_number(value: Any, where: str, low: int | None = None,
                 high: int | None = None) -> int:
    """``value``, a whole number (not a bool), from ``low`` and to ``high`` when given."""
    if type(value) is not int or (low is not None and value < low) or (
            high is not None and value > high):
        span = f" from {low} to {high}" if high is not None else ""
        raise fail(f"expected a whole number{span}, found {json.dumps(value)}", where)
    return value


def one_line_text(value: Any, where: str) -> str:
    """``value``, a string without a line break (the notation keeps it as a tag)."""
    if not isinstance(value, str):
        raise fail("expected a string", where)
    if "\n" in value or "\r" in value:
        raise fail("a line break: the notation keeps this as a one-line tag", where)
    return value


def as_comment(text: str) -> str:
    """An annotation as comment text: as written when a comment keeps it so, else as a
    JSON string."""
    if text == text.strip() and "\n" not in text and "\r" not in text and not text.startswith(
            '"'):
        return text
    return json.dumps(text, ensure_ascii=False)


def uncomment(text: str) -> str:
    """An annotation from its comment text (the reverse of :func:`as_comment`)."""
    return str(kept_json(text, "an annotation")) if text.startswith('"') else text


def kept_json(text: str, what: str) -> Any:
    """JSON kept in a tag or a comment; one that is not JSON, or over the limits of JSON
    read from a source, is refused."""
    try:
        return json_value(text)
    except RecordError as exc:
        raise fail(f"{exc}: {text[:40]!r}", what) from None
    except ValueError:
        raise fail(f"not JSON: {text[:40]!r}", what) from None


def compact(value: Any) -> str:
    """JSON as a tag or a comment keeps it: on one line, without spaces."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
