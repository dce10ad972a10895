"""Card sense: rough worths of hands and cards, by which a generated game bids, exchanges,
merges, declares and plays (:func:`expected_tricks`, :func:`hand_value` and the weights
below)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import Card, Rank, Suit, Trump, card_power, effective_suit

_RANK_ORDER = {r: i for i, r in enumerate(Rank)}

BOLDNESS = {"four-hand": 0.0, "cutthroat": 0.5, "three-hand": 0.5, "two-hand": 0.5}
"""How much more a hand is worth when bidding, by variant: with three or two at the table
fewer cards are out against the maker (and in cutthroat the maker may merge the dummy)."""


def trumps_in(hand: Iterable[Card], trump: Trump) -> list[Card]:
    """The cards of ``hand`` that are trumps (the bowers too)."""
    return [c for c in hand if effective_suit(c, trump) is trump]


def trump_power(card: Card, trump: Trump) -> int:
    """The power of a card as a trump (0 with no trump)."""
    return card_power(card, trump, trump) if isinstance(trump, Suit) else 0


def hand_strength(hand: Iterable[Card], trump: Trump) -> float:
    """A rough worth of a hand with ``trump``: about 3 tricks' worth at 6."""
    total = 0.0
    for card in hand:
        if effective_suit(card, trump) is trump:
            power = trump_power(card, trump)
            total += 3.0 if power >= 200 else 2.0 if card.rank is Rank.ACE else 1.5
        elif card.rank is Rank.ACE:
            total += 1.0
    return total


_TRUMP_TRICKS = {Rank.ACE: 0.7, Rank.KING: 0.55, Rank.QUEEN: 0.45}


def expected_tricks(hand: Iterable[Card], trump: Suit) -> float:
    """A rough count of the tricks a hand takes with ``trump`` (ghost-hand bidding).

    >>> from euchrelog.cards import parse_card
    >>> hand = [parse_card(t) for t in "JH JD AH KH AS 9C".split()]
    >>> round(expected_tricks(hand, Suit.HEARTS), 2)
    4.1
    """
    cards = list(hand)
    trumps = trumps_in(cards, trump)
    suits = Counter(effective_suit(c, trump) for c in cards)
    total = 0.0
    for card in cards:
        if card in trumps:
            power = trump_power(card, trump)
            total += 1.0 if power >= 201 else 0.85 if power == 200 else _TRUMP_TRICKS.get(
                card.rank, 0.35)
        elif card.rank is Rank.ACE:
            total += 0.6
        elif card.rank is Rank.KING and suits[card.suit] >= 2:
            total += 0.2
    if len(trumps) >= 4:
        total += 0.4 * (len(trumps) - 3)
    return total


def card_worth(card: Card, trump: Trump) -> tuple[Suit, float, bool]:
    """A card's effective suit, its worth to :func:`hand_value` and whether it is a side
    king (worth more when guarded)."""
    suit = effective_suit(card, trump)
    assert suit is not None
    if suit is trump:
        power = trump_power(card, trump)
        return suit, 10.0 + (power - 190 if power >= 200 else power - 100), False
    if card.rank is Rank.ACE:
        return suit, 7.0, False
    if card.rank is Rank.KING:
        return suit, 0.0, True
    return suit, 0.1 * _RANK_ORDER[card.rank], False


def cards_worth(cards: Iterable[tuple[Suit, float, bool]], trump: Trump) -> float:
    """The worth of a hand from its cards' :func:`card_worth`: theirs, more for a guarded
    side king, and more for each side suit void."""
    value = 0.0
    counts = dict.fromkeys(Suit, 0)
    kings: list[Suit] = []
    for suit, worth, king in cards:
        counts[suit] += 1
        value += worth
        if king:
            kings.append(suit)
    value += sum(3.0 if counts[s] >= 2 else 1.5 for s in kings)
    return value + 2.0 * sum(1 for s in Suit if s is not trump and not counts[s])


def hand_value(hand: Iterable[Card], trump: Suit) -> float:
    """How good a hand is to play with ``trump``: the merge heuristic (X5).

    Trumps count most, high ones more; then side aces, guarded kings and short suits.

    >>> from euchrelog.cards import parse_card
    >>> strong = [parse_card(t) for t in "JH JD AH 9H AS".split()]
    >>> weak = [parse_card(t) for t in "9C TC QD KS 9H".split()]
    >>> hand_value(strong, Suit.HEARTS) > hand_value(weak, Suit.HEARTS)
    True
    """
    return cards_worth((card_worth(c, trump) for c in hand), trump)


def keep_value(card: Card, hand: Sequence[Card], trump: Trump) -> float:
    """How much the dealer wants to keep ``card`` (the lowest is discarded)."""
    if effective_suit(card, trump) is trump:
        return 100.0 + trump_power(card, trump)
    same = sum(1 for c in hand if effective_suit(c, trump) is card.suit)
    value = float(_RANK_ORDER[card.rank])
    if card.rank is Rank.ACE:
        value += 10.0
    return value - (0.5 if same == 1 else 0.0)


def give_weight(card: Card, trump: Trump, led: Suit) -> tuple[int, int]:
    """Orders cards from cheapest to dearest to give away on a trick."""
    return (card_power(card, trump, led),
            trump_power(card, trump) if effective_suit(card, trump) is trump
            else _RANK_ORDER[card.rank])


def lead_weight(card: Card, trump: Trump) -> tuple[int, int]:
    """:func:`give_weight` of a card as the lead of a trick."""
    led = effective_suit(card, trump)
    assert led is not None
    return give_weight(card, trump, led)


def no_trump_strength(hand: Iterable[Card]) -> float:
    """A rough worth of a hand with no trump (H5): aces, and kings beside them."""
    cards = list(hand)
    aces = {c.suit for c in cards if c.rank is Rank.ACE}
    return sum(2.0 if c.rank is Rank.ACE else 1.0 if c.rank is Rank.KING and c.suit in aces
               else 0.0 for c in cards)
