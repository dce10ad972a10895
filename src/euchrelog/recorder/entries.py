"""What the recorder takes, and in what forms: the cards, seats and maps it accepts
(:data:`CardLike`, :data:`HandsLike`, ...), how a deal starts (:class:`DealCards`), the
entries of a deal (:data:`Entry`), the errors it raises, and the readings of those forms."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from ..cards import Card, make_deck, parse_card
from ..engine import Action
from ..errors import EuchrelogError, IllegalActionError
from ..models import Penalty, Sheet
from ..rules import MOON
from ..seats import Seat, parse_seat

CardLike = Card | str | None
"""A card as a :class:`~euchrelog.cards.Card`, as text (``"TH"``, ``"10h"``), or ``None``
(or ``"??"``) for a card not seen."""
CardsLike = str | Sequence[CardLike]
"""Cards as a sequence, or as one string of cards separated by spaces (``"9C TC QS"``)."""
SeatLike = Seat | str
"""A seat, or its letter."""
SideLike = Seat | str
"""A player (a seat, or its letter) or a side (``NS``, ``EW``)."""
HandsLike = Mapping[Seat, CardsLike] | Mapping[str, CardsLike]
"""Cards by seat (the seat as a :class:`~euchrelog.seats.Seat` or its letter)."""
TakenLike = Mapping[Seat, int] | Mapping[str, int]
"""Tricks by seat."""
PlayersLike = Mapping[Seat, str] | Mapping[str, str]
"""Names by seat."""


class IllegalEntryError(IllegalActionError):
    """An entry the recorder refuses for a reason the deal's engine state does not see: the
    cards of a deal (D303-D306), the dealer (D302), a score-sheet line (C903, B408, C905),
    a deal after the end (D307), a play or card the record could not score (B406, C905)."""


class RecorderError(EuchrelogError, ValueError):
    """A call out of place rather than an act against the rules: no deal is open, a deal is
    already open, nothing to undo."""


@dataclass(frozen=True)
class DealCards:
    """How a deal starts: its number, its dealer and the cards seen before the bidding."""

    number: int
    dealer: Seat
    hands: Mapping[Seat, tuple[Card | None, ...]] = field(default_factory=dict)
    """The hands dealt, by seat, for the seats whose hand is known (``None``: a card not
    seen)."""
    upcard: Card | None = None
    kitty: tuple[Card | None, ...] | None = None
    extra: tuple[Card | None, ...] | None = None
    """The dummy (cutthroat) or the ghost hand (ghost)."""


Entry = Action | Sheet | Penalty
"""What the recorder takes within a deal: a bid, the exchange, a merge, a declaration, a
play, a score-sheet line, or a penalty."""

T = TypeVar("T")


def read_card(value: CardLike) -> Card | None:
    """A card as the recorder takes it.

    :raises IllegalEntryError: (S101) for text that is no card.
    """
    if value is None or isinstance(value, Card):
        return value
    try:
        return parse_card(value.strip())
    except ValueError as exc:
        raise IllegalEntryError("S101", str(exc)) from None


def read_cards(value: CardsLike) -> tuple[Card | None, ...]:
    """Cards as the recorder takes them (see :func:`read_card`)."""
    items: Iterable[CardLike] = value.replace(",", " ").split() if isinstance(value, str) \
        else value
    return tuple(read_card(v) for v in items)


def read_seat(value: SeatLike) -> Seat:
    """A seat as the recorder takes it.

    :raises IllegalEntryError: (S101) for text that is no seat.
    """
    if isinstance(value, Seat):
        return value
    try:
        return parse_seat(value.strip().upper())
    except ValueError as exc:
        raise IllegalEntryError("S101", str(exc)) from None


def seat_items(mapping: Mapping[Seat, T] | Mapping[str, T] | None) -> list[tuple[SeatLike, T]]:
    """The items of a mapping keyed by seats or by seat letters."""
    return list(mapping.items()) if mapping is not None else []


def in_deck(deck: int, card: Card | None, what: str) -> None:
    """Refuses a card outside the game's deck (D305), which a seat whose hand is not
    known could otherwise be entered as holding."""
    if card is not None and card not in make_deck(deck):
        raise IllegalEntryError("D305", f"{card} ({what}) is not in the {deck}-card deck")


def trick_bid(bid: int | str | None) -> int | None:
    """A trick bid (ghost) as a score-sheet line takes it: 3 to 6, or ``moon``.

    :raises IllegalEntryError: (B408) for anything else.
    """
    if bid is None or isinstance(bid, int):
        return bid
    text = bid.strip().lower()
    if text == "moon":
        return MOON
    try:
        return int(text)
    except ValueError:
        raise IllegalEntryError("B408", f"a bid of {bid!r}: a bid is 3 to 6 tricks, or moon") \
            from None


def plain(message: str) -> str:
    """A pydantic message as one lowercase line."""
    text = message.strip().replace("Value error, ", "")
    return text[:1].lower() + text[1:]
