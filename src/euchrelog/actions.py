"""The table of acts: every act a bot can make has a number below :data:`ACTION_COUNT`,
the same in every variant (docs/api.md, "Acts as numbers"), and the acts the engine offers
are made once, kept and numbered here (:func:`numbered`), so that
:meth:`~euchrelog.engine.DealState.legal_actions` builds no model and
:meth:`~euchrelog.engine.DealState.action_id` of an act it offered is one look-up.
Which acts are legal is the engine's to say; this module only names and numbers them.
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import TypeVar

from .acts import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from .cards import CARD_SLOTS, JOKER, NO_TRUMP, Card, Suit, card_at, cards_of, make_deck
from .rules import MOON
from .seats import SEATS, Seat

CARDS_BY_NUMBER: tuple[Card, ...] = (*make_deck(32), JOKER)
"""The cards an act names, by their numbers: clubs, diamonds, hearts, spades, each 7 to
ace, then the Benny (0 to 32)."""
DISCARD_ID = len(CARDS_BY_NUMBER)
"""Acts 0 to 32 play card 0 to 32; 33 to 65: the dealer takes the upcard and discards
card 0 to 32."""
DECLINE_ID = DISCARD_ID + len(CARDS_BY_NUMBER)
"""66: the dealer declines the upcard."""
PASS_ID, ORDER_ID, CALL_ID = DECLINE_ID + 1, DECLINE_ID + 2, DECLINE_ID + 3
"""67: pass; 68: order up; 69 to 73: call clubs, diamonds, hearts, spades, no trump."""
BID_ID = CALL_ID + 5
"""74 to 77: bid 3 to 6 tricks (ghost)."""
SWAP_ID = BID_ID + MOON - 2
"""78: swap with the ghost hand."""
ALONE_ID, DEFEND_ID = SWAP_ID + 1, SWAP_ID + 2
"""79: the maker goes alone; 80 to 83: N, E, S or W defends alone."""
MERGE_ID = DEFEND_ID + len(SEATS)
"""84: the maker merges the dummy, naming no card kept."""
MERGE_KEEPS_ID = MERGE_ID + 1
"""85 to 336: the maker merges the dummy and keeps the five cards of the ten (the hand
and the dummy, by number) whose place among ``itertools.combinations(ten, 5)`` is the
act's number less 85."""
PARTNER_ALONE_ID = MERGE_KEEPS_ID + 252
"""337: the maker's partner goes alone (``partner-alone``)."""
ACTION_COUNT = PARTNER_ALONE_ID + 1
"""How many numbers the table of acts has (338)."""

SEATS_BY_NUMBER: tuple[Seat, ...] = SEATS
"""The seats by their numbers (N E S W: 0 to 3), as a ``defend`` act names them."""
SEAT_NUMBER = {seat: i for i, seat in enumerate(SEATS_BY_NUMBER)}
SUIT_NUMBER = {suit: i for i, suit in enumerate(Suit)}
NUMBER_OF_INDEX: list[int] = [-1] * CARD_SLOTS
"""The number of each card by its :attr:`~euchrelog.cards.Card.index` (-1: none)."""
for _number, _card in enumerate(CARDS_BY_NUMBER):
    NUMBER_OF_INDEX[_card.index] = _number


@functools.lru_cache(maxsize=1 << 16)
def numbers_of(mask: int) -> tuple[int, ...]:
    """The numbers of the cards of ``mask``, ascending (a hand's recur)."""
    return tuple(sorted(NUMBER_OF_INDEX[c.index] for c in cards_of(mask)))


def card_number(card: Card | None) -> int:
    """The number of ``card`` in the table of acts.

    :raises ValueError: for an unknown card or one of no deck.
    """
    number = -1 if card is None else NUMBER_OF_INDEX[card.index]
    if number < 0:
        raise ValueError(f"no act has a number for the card {card or '??'}")
    return number


@functools.cache
def _combinations(n: int, k: int) -> dict[tuple[int, ...], int]:
    """The ``k``-subsets of ``range(n)``, each with its place in
    ``itertools.combinations``."""
    return {c: i for i, c in enumerate(combinations(range(n), k))}


@functools.cache
def subsets(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """The ``k``-subsets of ``range(n)`` in the order of ``itertools.combinations``."""
    return tuple(_combinations(n, k))


def combination_rank(picked: list[int], n: int) -> int:
    """The place of the subset ``picked`` of ``range(n)`` among its size's subsets.

    :raises ValueError: when it is past the merges of the table of acts.
    """
    rank = _combinations(n, len(picked)).get(tuple(picked))
    if rank is None or rank >= ACTION_COUNT - MERGE_KEEPS_ID:
        raise ValueError("the table of acts has no number for this merge")
    return rank


def combination(rank: int, n: int, k: int) -> tuple[int, ...] | None:
    """The ``k``-subset of ``range(n)`` at place ``rank`` (see :func:`combination_rank`)."""
    each = subsets(n, k)
    return each[rank] if rank < len(each) else None


@functools.cache
def play_table() -> dict[Seat, dict[int, Play]]:
    """A play of every card by every seat, by the card's
    :attr:`~euchrelog.cards.Card.index` (the models are frozen: one serves every deal)."""
    cards = [card_at(i) for i in range(CARD_SLOTS)]
    return {seat: {c.index: numbered(Play(seat=seat, card=c), NUMBER_OF_INDEX[c.index])
                   for c in cards if c is not None}
            for seat in SEATS}


NUMBERED: dict[int, int] = {}
"""The numbers of the acts the engine keeps (each made once, and kept for good), by their
``id()``: :meth:`~euchrelog.engine.DealState.action_id` of an act it offered is one look-up."""

_A = TypeVar("_A")


def numbered(act: _A, number: int) -> _A:
    """Keeps ``act`` (one the engine keeps for good) with its number, if it has one."""
    if number >= 0:
        NUMBERED[id(act)] = number
    return act


@functools.lru_cache(maxsize=1 << 16)
def plays_of(mask: int, seat: Seat) -> tuple[Play, ...]:
    """The plays by ``seat`` of the cards of ``mask``, in the order of their names."""
    plays = play_table()[seat]
    return tuple(plays[c.index] for c in by_name(mask))


@functools.cache
def exchange_act(dealer: Seat, upcard: Card | None, discard: Card | None,
                  act: str = "takes") -> Exchange:
    """The dealer's exchange: taking ``upcard`` (named when known) and discarding
    ``discard``, or declining (``act``)."""
    if act == "declines":
        return numbered(Exchange(seat=dealer, act="declines"), DECLINE_ID)
    number = -1 if discard is None else NUMBER_OF_INDEX[discard.index]
    return numbered(Exchange(seat=dealer, takes=upcard is not None, upcard=upcard,
                              discard=discard), number if number < 0 else DISCARD_ID + number)


@functools.cache
def declaration_act(act: str, seat: Seat) -> Declaration:
    """A lone declaration (``alone`` or ``defend``) by ``seat``; a defend keeps its number,
    an alone's (the maker's or the partner's) is the state's to tell."""
    number = -1 if act == "alone" else DEFEND_ID + SEAT_NUMBER[seat]
    return numbered(Declaration(act=act, seat=seat), number)


@functools.cache
def unnamed_merge(maker: Seat) -> Merge:
    """A dummy merge by the maker that names no card kept."""
    return numbered(Merge(seat=maker), MERGE_ID)


@functools.cache
def bid_candidates(seats: tuple[Seat, ...]) -> tuple[Bid, ...]:
    """Every bid of every seat, in the order
    :meth:`~euchrelog.engine.DealState.legal_actions` offers them."""
    numbers = (PASS_ID, ORDER_ID, SWAP_ID, *range(CALL_ID, BID_ID), *range(BID_ID, SWAP_ID))
    return tuple(bid_of(number, seat) for seat in seats for number in numbers)


@functools.cache
def bid_of(number: int, seat: Seat) -> Bid:
    """The bid of ``number`` in the table of acts, by ``seat``."""
    bid: Bid
    if number == PASS_ID:
        bid = Pass(seat=seat)
    elif number == ORDER_ID:
        bid = Order(seat=seat)
    elif number == SWAP_ID:
        bid = Swap(seat=seat)
    elif number < BID_ID:
        bid = Call(seat=seat, suit=(*Suit, NO_TRUMP)[number - CALL_ID])
    else:
        bid = Number(seat=seat, tricks=number - BID_ID + 3)
    return numbered(bid, number)


PLAIN_BIDS: dict[type, int] = {Pass: PASS_ID, Order: ORDER_ID, Swap: SWAP_ID}
"""The numbers of the bids that name nothing but their seat."""

_NAME_RANK: list[int] = [0] * CARD_SLOTS
"""Each card's place in the order of the cards' names, by its
:attr:`~euchrelog.cards.Card.index` (how :meth:`~euchrelog.engine.DealState.legal_actions`
lists plays)."""
for _place, _card in enumerate(sorted(
        (c for c in map(card_at, range(CARD_SLOTS)) if c is not None), key=str)):
    _NAME_RANK[_card.index] = _place


def by_name(mask: int) -> list[Card]:
    """The cards of ``mask`` in the order of their names (as ``sorted(..., key=str)``)."""
    return [card for _, card in sorted((_NAME_RANK[c.index], c) for c in cards_of(mask))]


@functools.cache
def pickups(dealer: Seat, upcard: Card | None) -> dict[int, Exchange]:
    """The dealer's pickups of ``upcard``, by the index of the card discarded (each made
    when first asked for, by :func:`exchange_act`)."""
    return {}
