"""The card census of a deal: the size of each hand, the dummy or ghost hand, the upcard
and kitty, cards outside the deck and cards recorded twice (C1, C8, F2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, deck_set
from ..engine import dealt_cleanly
from ..loci import Locus
from ..rules import Ruleset
from ..seats import Seat
from .results import Emit

if TYPE_CHECKING:
    from ..models import Deal


def check_cards(rules: Ruleset, emit: Emit, d: int, deal: Deal) -> dict[Seat, list[Card | None]]:
    """Deal sizes, cards outside the deck and duplicates (C1, C8, F2)."""
    if not (deal.hands or deal.extra or deal.up or deal.tricks):
        return {}  # a score-sheet deal: no card to look at
    n = deal.number
    deck = deck_set(rules.options.deck)
    hands: dict[Seat, list[Card | None]] = {}
    seen: dict[Card, Locus] = {}
    twice: set[Card] = set()
    size = rules.variant.hand_size
    # A card in a hand with too many cards is the hand's slip (D303), not a duplicate.
    oversized = {card for line in deal.hands for seat, cards in line.cards.items()
                 if seat in rules.seats and len(cards) > size for card in cards}
    dealt = [card for line in deal.hands for cards in line.cards.values() for card in cards]
    if deal.extra is not None:
        dealt.extend(deal.extra.cards)
    if deal.up is not None:
        dealt.append(deal.up.card)
        dealt.extend(deal.up.kitty or ())
    # Most deals hold each card once, all of the deck: nothing to visit card by card.
    clean = dealt_cleanly(dealt, rules.options.deck)

    def visit(card: Card | None, locus: Locus, what: str) -> None:
        # (called only when the deal is not dealt cleanly: each card is looked at)
        if card is None:
            return
        if card not in deck:
            emit("D305", f"deal {n}: {card} ({what}) is not in the "
                         f"{rules.options.deck}-card deck", locus, deal=n)
        elif card in seen:
            twice.add(card)
            if card not in oversized:
                emit("D304", f"deal {n}: {card} ({what}) is recorded twice", locus,
                     deal=n)
        else:
            seen[card] = locus

    for line in deal.hands:
        for seat, cards in line.cards.items():
            if seat not in rules.seats:
                emit("D303", f"deal {n}: a hand for {seat}, but {seat} has no player "
                             f"(the seats are {' '.join(rules.seats)})",
                     ("deal", d, "hands", seat), deal=n, seat=seat)
                continue
            hands[seat] = list(cards)
            if len(cards) != rules.variant.hand_size:
                emit("D303", f"deal {n}: {seat} has {len(cards)} cards, not "
                             f"{rules.variant.hand_size}", ("deal", d, "hands", seat),
                     deal=n, seat=seat)
            for k, card in enumerate(() if clean else cards):
                visit(card, ("deal", d, "hands", seat, "card", k), f"{seat}'s hand")
    for seat, held in hands.items():
        # Which hand really holds a card written twice is unknown: neither, surely.
        hands[seat] = [None if card in twice else card for card in held]
    if deal.extra is not None:
        extra = deal.extra
        if extra.kind != rules.extra_hand:
            has = f"a {rules.extra_hand}" if rules.extra_hand else f"no {extra.kind}"
            emit("D303", f"deal {n}: a {extra.kind} hand, but this game has {has}",
                 ("deal", d, "extra"), deal=n)
        else:
            if len(extra.cards) != rules.extra_size:
                emit("D303", f"deal {n}: the {extra.kind} has {len(extra.cards)} cards, "
                             f"not {rules.extra_size}", ("deal", d, "extra"), deal=n)
            for k, card in enumerate(() if clean else extra.cards):
                visit(card, ("deal", d, "extra", "card", k), f"the {extra.kind}")
    if deal.up is not None and not rules.variant.upcard:
        emit("D306", f"deal {n}: {rules.variant.name} has no upcard and no kitty",
             ("deal", d, "up"), deal=n)
    elif deal.up is not None:
        if not clean:
            visit(deal.up.card, ("deal", d, "up"), "the upcard")
        if deal.up.kitty is not None:
            for k, card in enumerate(() if clean else deal.up.kitty):
                visit(card, ("deal", d, "up", "kitty", k), "the kitty")
            if len(deal.up.kitty) != rules.kitty_size:
                have = len(deal.up.kitty)
                emit("D306", f"deal {n}: the {rules.variant.kitty_name} has {have} "
                             f"card{'' if have == 1 else 's'}, not {rules.kitty_size}",
                     ("deal", d, "up", "kitty", 0), deal=n)
    played = {play.card for trick in deal.tricks for play in trick.plays}
    played.discard(None)
    if deck.issuperset(played):
        return hands
    for t, trick in enumerate(deal.tricks):
        for p, play in enumerate(trick.plays):
            if play.card is not None and play.card not in deck:
                emit("D305", f"deal {n}: {play.card} (played by {play.seat}) is not in "
                             f"the {rules.options.deck}-card deck",
                     ("deal", d, "trick", t, "play", p), deal=n, trick=trick.number)
    return hands
