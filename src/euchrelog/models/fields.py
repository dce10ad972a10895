"""The building blocks of the models: the fields (a card, a seat, trump, a side, counts
and points, comments), and the bases every model derives from (:class:`Record`,
:class:`Tagged`, :class:`Line`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Annotated, Any, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictInt,
    WithJsonSchema,
)

from ..cards import UNKNOWN, Card, Suit, Trump, parse_card, parse_trump
from ..rules.tags import TAG_NAME
from ..seats import SIDE_NAMES, Seat, parse_seat

__all__ = ["CARD_PATTERN", "FORMAT_VERSION", "SIDE_NAMES", "TAG_NAME", "Comment", "Count", "Line",
           "MaybeCard", "Ordinal", "Points", "Record", "SeatField", "SideField", "Tagged",
           "TrumpField", "one_line", "text_of"]

FORMAT_VERSION = 1
"""The version of the notation and of the JSON form."""

CARD_PATTERN = r"^(?i:(?:[2-9TJQKA]|10)[CDHS♣♦♥♠]|JK|\?\?)$"


def _card_in(value: Any) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise ValueError("a card must be a string such as 9H, TS, JK or ??")
    return parse_card(value.strip())


def _card_out(card: Card | None) -> str:
    return UNKNOWN if card is None else str(card)


MaybeCard = Annotated[
    Card | None,
    PlainValidator(_card_in),
    PlainSerializer(_card_out, return_type=str),
    WithJsonSchema({"type": "string", "pattern": CARD_PATTERN, "examples": ["9H", "TS", "??"]}),
]
"""A card, or ``None`` for a card the record does not know (``??``)."""


def _seat_in(value: Any) -> Seat:
    if isinstance(value, Seat):
        return value
    if not isinstance(value, str):
        raise ValueError("a seat must be one of N, E, S, W")
    return parse_seat(value)


def _trump_in(value: Any) -> Trump:
    if isinstance(value, Suit):
        return value
    if not isinstance(value, str):
        raise ValueError("a trump must be one of C, D, H, S or NT")
    return parse_trump(value)


SeatField = Annotated[
    Seat,
    PlainValidator(_seat_in),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["N", "E", "S", "W"]}),
]
TrumpField = Annotated[
    Trump,
    PlainValidator(_trump_in),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["C", "D", "H", "S", "NT"]}),
]
"""A suit, or ``NT`` for no trump (H5)."""


def _side_in(value: Any) -> str:
    if not isinstance(value, str) or value.upper() not in SIDE_NAMES:
        raise ValueError(f"not a side: {value!r} (expected a seat or a team such as NS)")
    return value.upper()


SideField = Annotated[str, PlainValidator(_side_in),
                      WithJsonSchema({"type": "string", "enum": sorted(SIDE_NAMES)})]
"""A side that scores: a team (``NS``, ``EW``) or, in games for one, a seat."""


class Record(BaseModel):
    """Base of every model: frozen, and unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def text_of(value: str, what: str) -> str:
    """``value``, one line of text (``what`` names it in the error otherwise)."""
    if "\n" in value:
        raise ValueError(f"{what} is one line: it cannot hold a line break")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{what} holds a character that is not text (a lone "
                             "surrogate)") from None
    return value


def _comment_in(value: str) -> str:
    return text_of(value, "a comment").strip()


Comment = Annotated[str, AfterValidator(_comment_in)]
"""A comment's text, without the ``#``: one line, with no blanks around it."""


def one_line(value: str) -> str:
    """A tag value: one line of text."""
    return text_of(value, "a tag value")


Count = Annotated[StrictInt, Field(ge=0, le=999_999)]
"""A count the notation writes with at most six digits."""
Points = Annotated[StrictInt, Field(ge=-999_999, le=999_999)]
"""Points, as the notation writes them: at most six digits and a sign."""
Ordinal = Annotated[StrictInt, Field(ge=1, le=999_999)]
"""A deal or trick number: from 1, at most six digits."""


class Tagged(Record):
    """An act whose kind ``act`` has one value, which a model made in Python may leave out
    (``Order(seat=S)``). The field itself has no default, so JSON always writes it (it
    tags the act) and a schema requires it, as before; only the constructor fills it in."""

    if not TYPE_CHECKING:  # (type checkers see the kind as the field's default)

        def __init__(self, **data: Any) -> None:
            if "act" not in data:
                data["act"] = _kind_of(type(self))
            super().__init__(**data)


@functools.cache
def _kind_of(model: type[Tagged]) -> str:
    """The one value of the ``act`` of a :class:`Tagged` model."""
    kind: str = get_args(model.model_fields["act"].annotation)[0]
    return kind


class Line(Record):
    """A model that stands on a line of its own in the notation."""

    before: tuple[Comment, ...] = ()
    """Comment lines directly above this line, without the ``#``."""
    note: Comment | None = None
    """The comment at the end of this line, without the ``#``."""


# ---------------------------------------------------------------- header


