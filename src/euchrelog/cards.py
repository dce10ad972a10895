"""Cards, suits, decks, and trump-dependent ranking.

Ranking is not a property of a card: it depends on trump and on the led suit (the
left bower changes suit), so it lives in :func:`effective_suit` and :func:`card_power`.

>>> card = parse_card("10h")
>>> card
Card('TH')
>>> effective_suit(parse_card("JD"), Suit.HEARTS)
<Suit.HEARTS: 'H'>
>>> right, ten = parse_card("JH"), card
>>> card_power(right, Suit.HEARTS, Suit.CLUBS) > card_power(ten, Suit.HEARTS, Suit.CLUBS)
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum, unique


@unique
class Suit(StrEnum):
    """A suit; the value is its notation letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (where the left bower comes from)."""
        return _PARTNER_SUIT[self]

    @property
    def noun(self) -> str:
        """The suit's plural name in English, lower case."""
        return self.name.lower()

    @property
    def symbol(self) -> str:
        """The suit's symbol, as pages show it (``♥``); the notation reads it too."""
        return _SYMBOL[self]


@unique
class NoTrump(StrEnum):
    """No trump (H5): a round-2 call under the ``no-trump`` option; the value is its
    notation, ``NT``. With no trump there are no bowers and no trump suit."""

    NO_TRUMP = "NT"

    @property
    def noun(self) -> str:
        """How a message names it."""
        return "no trump"


NO_TRUMP = NoTrump.NO_TRUMP
"""The no-trump call (H5)."""

Trump = Suit | NoTrump
"""What fixes the ranking of a deal: a trump suit, or no trump (H5)."""

_SYMBOL = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665",
           Suit.SPADES: "\u2660"}

_PARTNER_SUIT = {
    Suit.CLUBS: Suit.SPADES,
    Suit.SPADES: Suit.CLUBS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
}


@unique
class Rank(StrEnum):
    """A rank; the value is its notation character (the joker is ``JK``)."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"
    JOKER = "JK"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    """2 to 6 are in no euchre deck: a card of such a rank is read, and reported as not in
    the deck (D305), so a scorer's slip is a finding of the rules, not of the notation."""


_RANK_INDEX = {rank: i for i, rank in enumerate(Rank)}
_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}

_PLAIN_ORDER = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN,
                Rank.KING, Rank.ACE)


_INTERNED: dict[tuple[Rank, Suit | None], Card] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A playing card. ``suit`` is ``None`` only for the joker (the Benny)."""

    rank: Rank
    """The card's rank."""
    suit: Suit | None
    """The printed suit; ``None`` for the joker."""
    index: int = field(init=False, repr=False)
    """The card's number, which tables of cards are indexed by."""
    bit: int = field(init=False, repr=False)
    """The card's bit in a mask of cards (``1 << index``): hands and suits are masks."""
    _text: str = field(init=False, repr=False)

    def __new__(cls, rank: Rank, suit: Suit | None) -> Card:
        # One object a card: cards are compared in every check of a play, so equality is
        # identity (see __reduce__ for copies and pickles).
        card = _INTERNED.get((rank, suit))
        if card is None:
            card = _INTERNED[(rank, suit)] = object.__new__(cls)
        return card

    def __post_init__(self) -> None:
        suit = _SUIT_INDEX[self.suit] if self.suit is not None else 4
        object.__setattr__(self, "index", _RANK_INDEX[self.rank] * 5 + suit)
        object.__setattr__(self, "bit", 1 << self.index)
        object.__setattr__(self, "_text", self.rank.value if self.suit is None
                           else self.rank.value + self.suit.value)

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None]]:
        return Card, (self.rank, self.suit)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def is_joker(self) -> bool:
        """Whether this is the Benny."""
        return self.suit is None


JOKER = Card(Rank.JOKER, None)
"""The Benny (deck 25)."""

UNKNOWN = "??"
"""The notation for a card that was not recorded."""

_SUIT_ALIASES = {**{s.value: s for s in Suit}, **{s.symbol: s for s in Suit}}
_RANK_ALIASES = {"7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "T": Rank.TEN,
                 "10": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE,
                 "2": Rank.TWO, "3": Rank.THREE, "4": Rank.FOUR, "5": Rank.FIVE, "6": Rank.SIX}


def parse_trump(text: str) -> Trump:
    """Parses a suit (as :func:`parse_suit`) or ``NT`` (any case), no trump.

    :raises ValueError: if ``text`` is neither.

    >>> parse_trump("nt"), parse_trump("h")
    (<NoTrump.NO_TRUMP: 'NT'>, <Suit.HEARTS: 'H'>)
    """
    if text.upper() == NO_TRUMP:
        return NO_TRUMP
    try:
        return parse_suit(text)
    except ValueError:
        raise ValueError(f"not a suit: {text!r} (expected C, D, H, S or NT)") from None


def parse_suit(text: str) -> Suit:
    """Parses a suit letter (any case) or symbol.

    :raises ValueError: if ``text`` is not a suit.
    """
    try:
        return _SUIT_ALIASES[text.upper()]
    except KeyError:
        raise ValueError(f"not a suit: {text!r} (expected C, D, H or S)") from None


@functools.lru_cache(maxsize=512)
def parse_card(text: str) -> Card | None:
    """Parses a card such as ``9H``, ``10s``, ``T♠`` or ``JK``; ``??`` gives ``None``.

    :raises ValueError: if ``text`` is not a card.
    """
    up = text.upper()
    if up == UNKNOWN:
        return None
    if up == "JK":
        return JOKER
    rank = _RANK_ALIASES.get(up[:-1])
    suit = _SUIT_ALIASES.get(up[-1:])
    if rank is None or suit is None:
        raise ValueError(f"not a card: {text!r} (expected a card like 9H, TS or JK)")
    return Card(rank, suit)


@functools.lru_cache(maxsize=512)
def normalize_card(text: str) -> str:
    """Returns the canonical spelling of a card (``10h`` -> ``TH``, ``?? `` stays).

    >>> normalize_card("10♥")
    'TH'
    """
    card = parse_card(text)
    return UNKNOWN if card is None else str(card)


@functools.lru_cache(maxsize=8)
def make_deck(size: int) -> tuple[Card, ...]:
    """Returns the deck of 24, 25 (with the joker) or 32 cards.

    :raises ValueError: for any other size.

    >>> len(make_deck(32))
    32
    """
    if size not in (24, 25, 32):
        raise ValueError(f"unsupported deck size: {size} (expected 24, 25 or 32)")
    low = 0 if size == 32 else 2
    cards = tuple(Card(rank, suit) for suit in Suit for rank in _PLAIN_ORDER[low:])
    return (*cards, JOKER) if size == 25 else cards


_SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.SPADES: 2, Suit.HEARTS: 3}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Cards as a player sorts them: by suit, low to high, the joker last.

    >>> [str(c) for c in sort_hand(parse_card(t) for t in "AH JK 9C TH".split())]
    ['9C', 'TH', 'AH', 'JK']
    """
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit] if c.suit else 9,
                                        _RANK_ORDER[c.rank]))


@functools.lru_cache(maxsize=8)
def deck_set(size: int) -> frozenset[Card]:
    """The cards of the deck of ``size`` (see :func:`make_deck`), as a set."""
    return frozenset(make_deck(size))


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of ``cards`` (see :attr:`Card.bit`)."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


@functools.lru_cache(maxsize=8)
def deck_mask(size: int) -> int:
    """The cards of the deck of ``size`` (see :func:`make_deck`), as a mask."""
    return mask_of(make_deck(size))


@functools.lru_cache(maxsize=8)
def follow_masks(trump: Trump) -> dict[Suit, int]:
    """The mask (see :attr:`Card.bit`) of the cards that follow each suit under ``trump``:
    :func:`effective_suit` as one bit test a hand.

    >>> hand = parse_card("JD").bit | parse_card("9S").bit
    >>> bool(hand & follow_masks(Suit.HEARTS)[Suit.HEARTS])  # the left bower
    True
    """
    masks = dict.fromkeys(Suit, 0)
    for card, suit in zip(_BY_INDEX, suit_list(trump), strict=True):
        if card is not None and suit is not None:
            masks[suit] |= card.bit
    return masks


@functools.lru_cache(maxsize=8)
def suit_list(trump: Trump) -> tuple[Suit | None, ...]:
    """:func:`effective_suit` of every card that can be written (any rank, the joker) under
    ``trump``, as a tuple indexed by :attr:`Card.index` (``None``: no card there, or the
    Benny at no trump, which follows no suit)."""
    return tuple(effective_suit(card, trump) if card is not None else None
                 for card in _BY_INDEX)


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask`` (see :attr:`Card.bit`), in the order of :attr:`Card.index`."""
    out = []
    while mask:
        low = mask & -mask
        card = _BY_INDEX[low.bit_length() - 1]
        assert card is not None  # (a mask holds the bits of cards)
        out.append(card)
        mask ^= low
    return out


def _every_card() -> tuple[Card | None, ...]:
    """Every card that can be written, at its :attr:`Card.index` (``None`` between)."""
    cards = [Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER]
    out: list[Card | None] = [None] * (1 + max(card.index for card in (*cards, JOKER)))
    for card in (*cards, JOKER):
        out[card.index] = card
    return tuple(out)


_BY_INDEX = _every_card()


def card_at(index: int) -> Card | None:
    """The card whose :attr:`Card.index` is ``index``, if any."""
    return _BY_INDEX[index] if 0 <= index < len(_BY_INDEX) else None


CARD_SLOTS = len(_BY_INDEX)
"""One more than the highest :attr:`Card.index`: the length of a table by card."""


def effective_suit(card: Card, trump: Trump | None) -> Suit | None:
    """The suit a card follows and leads as: trump for both bowers and the Benny.

    With no trump fixed, or no trump called (H5), the printed suit (``None`` for the
    joker).
    """
    if trump is None or trump is NO_TRUMP:
        return card.suit
    if card.suit is None:
        return trump
    if card.rank is Rank.JACK and card.suit is trump.partner:
        return trump
    return card.suit


@functools.lru_cache(maxsize=64)
def _power_table(trump: Trump, led: Suit) -> dict[Card, int]:
    table: dict[Card, int] = {}
    for suit in Suit:
        for i, rank in enumerate(_PLAIN_ORDER):
            table[Card(rank, suit)] = (i + 1) if suit is led else 0
    if trump is NO_TRUMP:
        # No bowers: each jack ranks in its own suit, between Q and 10 (H5). no-trump is
        # not played with the Benny (T205); where a record has both anyway, the Benny
        # follows no suit and beats every card.
        table[JOKER] = 202
        return table
    for i, rank in enumerate(r for r in _PLAIN_ORDER if r is not Rank.JACK):
        table[Card(rank, trump)] = 100 + i
    table[Card(Rank.JACK, trump.partner)] = 200
    table[Card(Rank.JACK, trump)] = 201
    table[JOKER] = 202
    return table


def card_power(card: Card, trump: Trump, led: Suit) -> int:
    """The card's strength in a trick with this trump and led suit; 0 cannot win (nor can a
    card of no euchre deck).

    Trump beats the led suit, which beats everything else (C2, C3, C6); with no trump,
    the led suit wins, its jack between Q and 10 (H5).

    >>> jack, queen = parse_card("JS"), parse_card("QS")
    >>> card_power(jack, NO_TRUMP, Suit.SPADES) < card_power(queen, NO_TRUMP, Suit.SPADES)
    True
    >>> card_power(parse_card("JC"), NO_TRUMP, Suit.SPADES)
    0
    """
    return _power_table(trump, led).get(card, 0)


def trick_winner(cards: list[Card], trump: Trump) -> int:
    """The index of the winning card among ``cards`` (played in order, first led)."""
    return trick_winner_on(cards, trump, effective_suit(cards[0], trump))


def trick_winner_on(cards: list[Card], trump: Trump, led: Suit | None) -> int:
    """:func:`trick_winner`, given the suit the first card leads as (its
    :func:`effective_suit`, which a caller may hold in a table already)."""
    if led is None:
        return 0  # the Benny led at no trump: it beats every card
    power = power_list(trump, led)
    powers = [power[card.index] for card in cards]
    return powers.index(max(powers))  # the first of the highest


@functools.lru_cache(maxsize=64)
def power_list(trump: Trump, led: Suit) -> tuple[int, ...]:
    """:func:`card_power` as a tuple indexed by :attr:`Card.index`: the table
    :func:`trick_winner` reads (the first card of the highest power wins)."""
    return tuple(card_power(card, trump, led) if card is not None else 0
                 for card in _BY_INDEX)
