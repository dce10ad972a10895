"""Partial records: a full generated record reduced to the forms a record may take
(RULES.md, "What a record may leave out"): the plays only (:func:`play_only`), a score
sheet (:func:`score_sheet`), cards unknown (:func:`hide_cards`); and what a full record's
deal says (:func:`contract`, :func:`trick_bid`, :func:`tricks_taken`)."""

from __future__ import annotations

import random
from collections import Counter

from ..acts import Call, Merge, Number, Order
from ..cards import Trump, trick_winner
from ..models import Deal, Game, Sheet
from ..rules import Ruleset, ruleset_from_tags
from ..seats import Seat


def play_only(game: Game) -> Game:
    """The game without the hands, the dummy or ghost hand, the kitty and the cards kept in a
    merge: what the table saw played."""
    deals = []
    for deal in game.deals:
        up = deal.up.model_copy(update={"kitty": None}) if deal.up is not None else None
        acts = tuple(a.model_copy(update={"keeps": None}) if isinstance(a, Merge) else a
                     for a in deal.acts)
        deals.append(deal.model_copy(update={"hands": (), "up": up, "extra": None,
                                             "acts": acts}))
    return game.model_copy(update={"deals": tuple(deals)})


def contract(deal: Deal) -> tuple[Trump, Seat] | None:
    """Trump and maker as the bidding of a deal fixed them (``None``: thrown in or no bids).

    >>> deal = Deal.model_validate({"number": 1, "dealer": "N", "up": {"card": "9H"},
    ...     "bidding": [{"bids": [{"act": "pass", "seat": "E"}, {"act": "order", "seat": "S"}]}]})
    >>> contract(deal)
    (<Suit.HEARTS: 'H'>, <Seat.S: 'S'>)
    """
    made = next((b for b in deal.bids if isinstance(b, Order | Call)), None)
    if made is None:
        return None
    if isinstance(made, Call):
        return made.suit, made.seat
    if deal.up is None or deal.up.card is None or deal.up.card.suit is None:
        return None
    return deal.up.card.suit, made.seat


def trick_bid(deal: Deal) -> int | None:
    """The winning trick bid of a ghost-hand deal (``None``: no trick bid)."""
    numbers = [b.tricks for b in deal.bids if isinstance(b, Number)]
    return max(numbers) if numbers else None


def tricks_taken(deal: Deal, trump: Trump) -> dict[Seat, int]:
    """Tricks won by each seat that played in a fully recorded deal."""
    taken: Counter[Seat] = Counter()
    seats: dict[Seat, None] = {}
    for trick in deal.tricks:
        cards = [p.card for p in trick.plays]
        known = [c for c in cards if c is not None]
        if len(known) != len(cards) or not known:
            raise ValueError(f"deal {deal.number}: a trick with unknown cards has no winner")
        seats.update(dict.fromkeys(p.seat for p in trick.plays))
        taken[trick.plays[trick_winner(known, trump)].seat] += 1
    return {s: taken[s] for s in seats}


def _sheet(deal: Deal, ruleset: Ruleset) -> Sheet:
    """The score-sheet line of a fully recorded deal."""
    fixed = contract(deal)
    if fixed is None:
        return Sheet(thrown=True)
    trump, maker = fixed
    taken = tricks_taken(deal, trump)
    if not ruleset.variant.scoring:
        return Sheet(trump=trump, maker=maker, bid=trick_bid(deal),
                     taken={s: taken.get(s, 0) for s in ruleset.seats})
    side = ruleset.side(maker)
    lone = (maker,) if not ruleset.options.partner_alone else tuple(
        s for s in ruleset.seats if ruleset.side(s) == side)  # either maker (F9)
    alone = any(d.act == "alone" and d.seat in lone for d in deal.declarations)
    defend = next((d.seat for d in deal.declarations if d.act == "defend"), None)
    tricks = sum(n for s, n in taken.items() if ruleset.side(s) == side)
    return Sheet(trump=trump, maker=maker, alone=alone, defend=defend, tricks=tricks)


def score_sheet(game: Game) -> Game:
    """The game as a scorer writes it: per deal the dealer, a sheet line and the points."""
    tags: dict[str, str] = {}
    for tag in game.tags:
        tags.setdefault(tag.name, tag.value)
    ruleset, _ = ruleset_from_tags(tags)
    deals = [Deal(number=d.number, dealer=d.dealer, sheet=_sheet(d, ruleset), score=d.score,
                  before=d.before, note=d.note) for d in game.deals]
    return game.model_copy(update={"deals": tuple(deals)})


def hide_cards(game: Game, rng: random.Random, rate: float = 0.2) -> Game:
    """The game with about ``rate`` of the cards in the hands, the dummy or ghost hand and
    the kitty unknown (``??``).

    The upcard, the cards kept in a merge and the plays stay known, so every deal still
    scores.
    """
    deals = []
    for deal in game.deals:
        hands = tuple(
            line.model_copy(update={"cards": {
                s: tuple(None if rng.random() < rate else c for c in cards)
                for s, cards in line.cards.items()}})
            for line in deal.hands)
        up = deal.up
        if up is not None and up.kitty is not None:
            up = up.model_copy(update={"kitty": tuple(
                None if rng.random() < rate else c for c in up.kitty)})
        extra = deal.extra
        if extra is not None:
            extra = extra.model_copy(update={"cards": tuple(
                None if rng.random() < rate else c for c in extra.cards)})
        deals.append(deal.model_copy(update={"hands": hands, "up": up, "extra": extra}))
    return game.model_copy(update={"deals": tuple(deals)})
