"""Cards and trump-dependent ranking (C1-C4, C6)."""

from __future__ import annotations

import pytest

from euchrelog.cards import (
    JOKER,
    Card,
    Suit,
    card_power,
    effective_suit,
    make_deck,
    normalize_card,
    parse_card,
    trick_winner,
)


def card(text: str) -> Card:
    parsed = parse_card(text)
    assert parsed is not None
    return parsed


def cards(text: str) -> list[Card]:
    return [card(c) for c in text.split()]


@pytest.mark.parametrize(("text", "canonical"), [
    ("9h", "9H"), ("10S", "TS"), ("t♠", "TS"), ("A♦", "AD"), ("jk", "JK"), ("??", "??"),
    ("Q♣", "QC"), ("7d", "7D"),
])
def test_spellings(text: str, canonical: str) -> None:
    assert normalize_card(text) == canonical


@pytest.mark.parametrize("text", ["1H", "JX", "", "10", "HH", "1C", "5"])
def test_not_cards(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_decks() -> None:
    assert len(make_deck(24)) == 24 and JOKER not in make_deck(24)
    assert len(make_deck(25)) == 25 and JOKER in make_deck(25)
    assert len(set(make_deck(32))) == 32
    with pytest.raises(ValueError):
        make_deck(52)


def test_bowers_and_benny_belong_to_trump() -> None:
    left = card("JD")
    assert effective_suit(left, Suit.HEARTS) is Suit.HEARTS
    assert effective_suit(left, Suit.SPADES) is Suit.DIAMONDS
    assert effective_suit(JOKER, Suit.CLUBS) is Suit.CLUBS
    order = cards("JK JH JD AH KH QH TH 9H")  # trump high to low with the Benny (C3)
    powers = [card_power(c, Suit.HEARTS, Suit.CLUBS) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)


def test_plain_suit_without_its_jack() -> None:
    # Hearts trump: diamonds lost its jack to the left bower, clubs keeps its jack.
    assert card_power(card("JC"), Suit.HEARTS, Suit.CLUBS) > card_power(
        card("TC"), Suit.HEARTS, Suit.CLUBS)


@pytest.mark.parametrize(("plays", "trump", "winner"), [
    ("AC KC QC JC", Suit.HEARTS, 0),     # no trump: the highest of the led suit
    ("AC 9H KC QC", Suit.HEARTS, 1),     # a low trump beats the led ace
    ("AH JD KH 9H", Suit.HEARTS, 1),     # the left bower beats the ace of trump
    ("JD JH AH KH", Suit.HEARTS, 1),     # the right bower beats the left
    ("AS AD KS 9S", Suit.CLUBS, 0),      # an off-suit ace cannot win
    ("9S 8S 7S JK", Suit.DIAMONDS, 3),   # the Benny is the highest trump
])
def test_trick_winner(plays: str, trump: Suit, winner: int) -> None:
    assert trick_winner(cards(plays), trump) == winner
