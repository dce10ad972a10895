"""A plain exhaustive minimax of the play of a deal, the yardstick of the double-dummy
solver (tests/test_analysis.py) and of its benchmark (bench/analysis.py).

No pruning, no table, no shortcut: every legal card at every turn, the makers taking the
most tricks and the defenders the fewest. The rules are the engine's own functions: a
card may be played when :func:`~euchrelog.engine.follows_suit` says so, and
:func:`~euchrelog.cards.trick_winner` names who wins a trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from euchrelog.cards import Card, Trump, effective_suit, follow_masks, mask_of, trick_winner
from euchrelog.engine import follows_suit
from euchrelog.seats import Seat


def legal_cards(hand: Sequence[Card], trick: Sequence[tuple[Seat, Card]], trump: Trump
                ) -> list[Card]:
    """The cards of ``hand`` that may be played on ``trick`` (any card on a lead)."""
    if not trick:
        return list(hand)
    led = effective_suit(trick[0][1], trump)
    assert led is not None
    held = mask_of(hand)
    return [c for c in hand if follows_suit(held, c.bit, follow_masks(trump)[led])]


def minimax(trump: Trump, seats: Sequence[Seat], makers: frozenset[Seat],
            hands: Mapping[Seat, Sequence[Card]], leader: Seat,
            trick: Sequence[tuple[Seat, Card]] = ()) -> int:
    """The makers' tricks from this position on under perfect play, the current trick
    included. ``seats`` play clockwise; ``leader`` led the current ``trick``."""
    if not trick and not any(hands.values()):
        return 0
    start = seats.index(leader)
    turn = seats[(start + len(trick)) % len(seats)]
    results = []
    for card in legal_cards(hands[turn], trick, trump):
        rest = {**hands, turn: [c for c in hands[turn] if c is not card]}
        played = [*trick, (turn, card)]
        if len(played) == len(seats):
            winner = played[trick_winner([c for _, c in played], trump)][0]
            results.append(int(winner in makers) + minimax(trump, seats, makers, rest, winner))
        else:
            results.append(minimax(trump, seats, makers, rest, leader, played))
    return max(results) if turn in makers else min(results)
