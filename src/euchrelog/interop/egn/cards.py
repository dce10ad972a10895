"""EGN cards, read and written: ``9c``, ``Nc`` (nine), ``R``/``L`` (the bowers), ``B`` (the
Benny), ``Xx`` (unknown), and the suit letters that EGN calls share."""

from __future__ import annotations

import json
import re
from typing import Any

from ...cards import NO_TRUMP, Card, Suit, Trump, parse_card
from .values import fail

SUITS = {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}
"""The suit letters of EGN cards and calls."""
_RANKS = {"N": "9", "T": "T", "J": "J", "Q": "Q", "K": "K", "A": "A", "9": "9", "8": "8",
          "7": "7"}
_CARD = re.compile(r"([78N9TJQKAX])([SsHhCcDdxtngh])|([LRB])")


def read_card(value: Any, where: str, trump: Trump | None) -> Card | None:
    """An EGN card: ``9c``, ``Nc`` (nine), ``R``/``L`` (the bowers), ``B`` (the Benny),
    ``Xx`` (unknown)."""
    m = _CARD.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        raise fail(f"not an EGN card: {json.dumps(value)}", where)
    if m.group(3) == "B":
        return parse_card("JK")
    if m.group(3):
        if trump is None:
            raise fail(f"bower {value} before trump is fixed", where)
        if trump is NO_TRUMP:
            raise fail(f"bower {value} at no trump, which has no bowers", where)
        return parse_card("J" + str(trump if value == "R" else trump.partner))
    rank, suit = m.group(1), m.group(2)
    if rank == "X" and suit == "x":
        return None
    if rank == "X" or suit == "x":
        raise fail(f"card {value} has an unknown {'rank' if rank == 'X' else 'suit'}: the "
                   "notation writes a card whole, or ?? when unknown", where)
    if suit.lower() not in SUITS:
        raise fail(f"card {value} names a generic suit (trump, next, green): the notation "
                   "writes real suits", where)
    return parse_card(_RANKS[rank] + suit.upper())


def card_text(card: Card | None) -> str:
    """A card as EGN writes it: ``Th``, ``B`` for the Benny, ``Xx`` for unknown."""
    if card is None:
        return "Xx"
    text = str(card)
    return "B" if text == "JK" else text[0] + text[1].lower()
