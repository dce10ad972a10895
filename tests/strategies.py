"""Hypothesis strategies for random legal games of every variant, and fault injectors.

The strategies draw a variant, its seats and house rules and a seed, and let
:func:`euchrelog.generate.random_game` play the game, so every drawn game is legal by
construction.

Each fault injector takes a valid, fully recorded game and a :class:`random.Random`,
and returns the game with exactly one fault in it and the finding code the replay must
report, or ``None`` when the game offers no place for that fault. An injector picks its
place by the cards alone (trick winners, suits, turns), never by asking the replay, so
the property "one fault, one finding" tests the engine rather than restating it. Where a
fault changes what may follow (a bid that does not outbid, a second swap, a deal played
without the dummy), the deal is played on legally from the faulty act and the game is
scored and finished again from there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Literal, TypeVar

from hypothesis import strategies as st

from euchrelog.cards import NO_TRUMP, Card, Rank, Suit, Trump, effective_suit, trick_winner
from euchrelog.generate import (
    DealOutcome,
    Detail,
    contract,
    finish_game,
    play_deal,
    play_only,
    random_game,
)
from euchrelog.models import (
    Call,
    Claim,
    Deal,
    Declaration,
    Exchange,
    Game,
    Merge,
    Number,
    Order,
    Pass,
    Play,
    Score,
    Swap,
    Tag,
    Trick,
)
from euchrelog.rules import VARIANTS, Options, Ruleset, find_variant, ruleset_from_tags
from euchrelog.seats import SEATS, Seat, clockwise_from
from make_samples import charge

Injected = tuple[Game, str]
"""A game with one fault, and the code of the finding it must yield."""

Injector = Callable[[Game, random.Random], Injected | None]

T = TypeVar("T")

VARIANT_NAMES = tuple(v.name for v in VARIANTS)
"""Every variant: four-hand, cutthroat, three-hand, ghost, two-hand."""


# ---------------------------------------------------------------- strategies


def _seat_choices(name: str) -> list[tuple[Seat, ...]]:
    """The seats a game of the variant may be played on, the default first."""
    variant = find_variant(name)
    others = [c for c in combinations(SEATS, len(variant.seats)) if c != variant.seats]
    return [variant.seats, *others]


@st.composite
def rulesets(draw: st.DrawFn, variant: str | None = None,
             forced: Mapping[str, Any] | None = None) -> Ruleset:
    """A variant (drawn unless given), its seats and every house rule of RULES.md that
    applies to it; ``forced`` fixes some options (by field name). Most games go to a
    target, most on the variant's default seats."""
    name = variant if variant is not None else draw(st.sampled_from(VARIANT_NAMES))
    kind = find_variant(name)
    takes = kind.options
    seats = _seat_choices(name)
    chosen = draw(st.sampled_from([seats[0]] * len(seats) + seats))
    base = Options.defaults(kind)
    target = kind.target
    updates: dict[str, Any] = {
        "deck": draw(st.sampled_from(kind.decks)),
        "target": draw(st.sampled_from((target, target // 2, (target * 3) // 4, target))),
        "deals": draw(st.sampled_from((None, None, None, 1, 4, 8))),
        "renege": draw(st.sampled_from((None, 1, 3))),
    }
    if "dealer-pickup" in takes:
        updates["dealer_pickup"] = draw(st.sampled_from(("optional", "required")))
    if "stick-the-dealer" in takes:
        updates["stick_the_dealer"] = draw(st.booleans())
    if "lone-defender" in takes:
        updates["lone_defender"] = draw(st.booleans())
    if "lone-lead" in takes:
        updates["lone_lead"] = draw(st.sampled_from(("maker-left", "dealer-left")))
    if "lone-defender-euchre" in takes:
        updates["lone_defender_euchre"] = draw(st.sampled_from((None, 4)))
    if "dummy" in takes:
        updates["dummy"] = draw(st.sampled_from(("optional", "optional", "required", "off")))
    if "failed-moon" in takes:
        updates["failed_moon"] = draw(st.sampled_from((-6, -24)))
    if "canadian-loner" in takes:
        updates["canadian_loner"] = draw(st.booleans())
    if "no-trump" in takes:
        # The Benny belongs to the trump suit: no-trump is not played with it (T205).
        updates["no_trump"] = draw(st.booleans()) and updates["deck"] != 25
    if "euchred-loner" in takes:
        updates["euchred_loner"] = draw(st.sampled_from((2, 2, 3, 4)))
    if "euchre-scoring" in takes:
        updates["euchre_scoring"] = draw(st.sampled_from(("defenders", "defenders", "set")))
    if "pass-out" in takes:
        updates["pass_out"] = draw(st.sampled_from(("next-dealer", "next-dealer",
                                                    "same-dealer")))
    if "partner-alone" in takes:
        updates["partner_alone"] = draw(st.booleans())
    if "natural-pickup" in takes:
        updates["natural_pickup"] = draw(st.booleans())
    updates.update(forced or {})
    return Ruleset(kind, replace(base, **updates), chosen)


@st.composite
def games(draw: st.DrawFn, details: Sequence[Detail] = ("full",), variant: str | None = None,
          forced: Mapping[str, Any] | None = None) -> Game:
    """A random legal game: a seed, a variant with its seats and house rules, and a level of
    detail."""
    seed = draw(st.integers(0, 2**32 - 1))
    ruleset = draw(rulesets(variant, forced))
    detail = draw(st.sampled_from(tuple(details)))
    return random_game(random.Random(seed), ruleset, detail=detail)


@dataclass(frozen=True)
class Fault:
    """A fault injector, the variants it applies to and the options its games need."""

    inject: Injector
    variants: tuple[str, ...] = VARIANT_NAMES
    forced: Mapping[str, Any] = field(default_factory=dict)
    """Options the drawn game must have (by field name), e.g. ``dummy="required"``."""


@st.composite
def faulty_games(draw: st.DrawFn, fault: Fault | Injector,
                 variant: str = "four-hand") -> Injected | None:
    """A random legal game with one fault (``None`` if the game had no place for it)."""
    if not isinstance(fault, Fault):
        fault = Fault(fault)
    game = draw(games(variant=variant, forced=fault.forced))
    fault_seed = draw(st.integers(0, 2**16))
    return fault.inject(game, random.Random(fault_seed))


# ---------------------------------------------------------------- helpers


def ruleset_of(game: Game) -> Ruleset:
    """The ruleset a game's tags declare."""
    tags: dict[str, str] = {}
    for tag in game.tags:
        tags.setdefault(tag.name, tag.value)
    return ruleset_from_tags(tags)[0]


def _with_deal(game: Game, d: int, deal: Deal) -> Game:
    deals = list(game.deals)
    deals[d] = deal
    return game.model_copy(update={"deals": tuple(deals)})


def _with_trick(deal: Deal, t: int, plays: Sequence[Play]) -> Deal:
    tricks = list(deal.tricks)
    tricks[t] = tricks[t].model_copy(update={"plays": tuple(plays)})
    return deal.model_copy(update={"tricks": tuple(tricks)})


def _cards(trick: Trick) -> list[Card]:
    cards = [p.card for p in trick.plays]
    assert all(c is not None for c in cards)
    return [c for c in cards if c is not None]


def _winner(plays: Sequence[Play], trump: Trump) -> Seat:
    cards = [p.card for p in plays if p.card is not None]
    assert len(cards) == len(plays)
    return plays[trick_winner(cards, trump)].seat


def _led(trick: Trick, trump: Trump) -> Suit:
    led = effective_suit(_cards(trick)[0], trump)
    assert led is not None
    return led


def _played(game: Game) -> Iterator[tuple[int, Deal, Trump, Seat]]:
    """The deals that were played out, with their index, trump and maker."""
    tricks = ruleset_of(game).variant.tricks
    for d, deal in enumerate(game.deals):
        fixed = contract(deal)
        if fixed is not None and len(deal.tricks) == tricks and deal.hands:
            yield d, deal, fixed[0], fixed[1]


def _pick(rng: random.Random, items: Sequence[T]) -> T | None:
    return rng.choice(items) if items else None


def _swap(deal: Deal, t: int, p: int, u: int, q: int) -> Deal:
    """The deal with play ``p`` of trick ``t`` and play ``q`` of trick ``u`` swapping cards."""
    a = deal.tricks[t].plays[p]
    b = deal.tricks[u].plays[q]
    first = list(deal.tricks[t].plays)
    first[p] = a.model_copy(update={"card": b.card})
    deal = _with_trick(deal, t, first)
    second = list(deal.tricks[u].plays)
    second[q] = b.model_copy(update={"card": a.card})
    return _with_trick(deal, u, second)


def _follows(deal: Deal, trump: Trump, v: int, seat: Seat, suit: Suit) -> bool:
    """Whether ``seat`` followed suit in trick ``v`` if ``suit`` was led there."""
    trick = deal.tricks[v]
    if _led(trick, trump) is not suit:
        return True
    return any(p.seat == seat and p.card is not None
               and effective_suit(p.card, trump) is suit for p in trick.plays)


def _renege_swaps(deal: Deal, trump: Trump) -> list[tuple[int, int, int, int]]:
    """Swaps that make a seat fail to follow in trick ``t`` though it holds the card ``A``
    it followed with, which it plays instead of a card ``B`` in a later trick ``u``.

    Only one renege comes of it: the seat does not lead trick ``u`` and did not follow suit
    there with ``B``, the suit of ``A`` is not led in between to a seat without another
    card of it, and no trick changes its winner.
    """
    out = []
    for t, trick in enumerate(deal.tricks):
        led = _led(trick, trump)
        for p, play in enumerate(trick.plays[1:], 1):
            a = play.card
            assert a is not None
            if effective_suit(a, trump) is not led:
                continue
            for u in range(t + 1, len(deal.tricks)):
                later = deal.tricks[u]
                if not all(_follows(deal, trump, v, play.seat, led) for v in range(t + 1, u)):
                    break
                for q, other in enumerate(later.plays[1:], 1):
                    b = other.card
                    assert b is not None
                    if (other.seat != play.seat or effective_suit(b, trump) is led
                            or effective_suit(b, trump) is _led(later, trump)):
                        continue
                    swapped = _swap(deal, t, p, u, q)
                    if (_winner(swapped.tricks[t].plays, trump) == _winner(trick.plays, trump)
                            and _winner(swapped.tricks[u].plays, trump)
                            == _winner(later.plays, trump)):
                        out.append((t, p, u, q))
    return out


def outcomes(game: Game) -> list[DealOutcome]:
    """The deals of a valid generated game, with the points written for each."""
    out = []
    for deal in game.deals:
        points = dict(deal.score.points or {}) if deal.score is not None else {}
        out.append(DealOutcome(deal.model_copy(update={"score": None}), points,
                               thrown=contract(deal) is None))
    return out


def _rescored(game: Game, d: int, outcome: DealOutcome, rng: random.Random) -> Game:
    """The game with deal ``d`` replaced, scored again and finished from there."""
    played = outcomes(game)
    played[d] = outcome
    records, end = finish_game(rng, ruleset_of(game), played,
                               first_dealer=game.deals[0].dealer)
    return game.model_copy(update={"deals": tuple(records), "end": end})


def _dealt(deal: Deal) -> dict[Seat, list[Card]]:
    assert deal.hands
    return {s: [c for c in cards if c is not None] for s, cards in deal.hands[0].cards.items()}


def _replayed(game: Game, d: int, bids: Sequence[Any], rng: random.Random, *,
              ruleset: Ruleset | None = None, merge: bool | None = None,
              alone: bool | None = None) -> Game:
    """The game with deal ``d`` played again from its cards: the bidding taken as ``bids``
    (applied as recorded, faults and all) and finished legally, the maker's merge and lone
    hand as forced; then the game is scored and finished again from there."""
    deal = game.deals[d]
    up = deal.up
    kitty = [c for c in up.kitty or () if c is not None] if up is not None else None
    extra = [c for c in deal.extra.cards if c is not None] if deal.extra is not None else None
    outcome = play_deal(rng, ruleset or ruleset_of(game), deal.number, deal.dealer,
                        hands=_dealt(deal), upcard=up.card if up is not None else None,
                        kitty=kitty, extra=extra, bids=bids, merge=merge, alone=alone)
    return _rescored(game, d, outcome, rng)


def _hand_before_play(deal: Deal, seat: Seat) -> list[Card]:
    """The cards ``seat`` holds at the first lead: the cards it plays."""
    return [p.card for t in deal.tricks for p in t.plays if p.seat == seat and p.card]


def _outside(deal: Deal) -> list[Card]:
    """Cards no seat can hold in the play of a deal: the kitty, else (ghost) the hand no one
    plays (the ghost hand, or the one given up for it)."""
    if deal.up is not None:
        return [c for c in deal.up.kitty or () if c is not None]
    if deal.extra is None:
        return []
    swapper = next((b.seat for b in deal.bids if isinstance(b, Swap)), None)
    if swapper is None:
        return [c for c in deal.extra.cards if c is not None]
    return _dealt(deal)[swapper]


# ---------------------------------------------------------------- injectors


def renege_known(game: Game, rng: random.Random, *,
                 no_trump: bool = False) -> Injected | None:
    """R801: a seat that holds the led suit plays another suit (hands recorded); with
    ``no_trump``, only in a deal played at no trump (H5)."""
    places = [(d, deal, trump, swap) for d, deal, trump, _ in _played(game)
              if not no_trump or trump is NO_TRUMP for swap in _renege_swaps(deal, trump)]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, _, (t, p, u, q) = place
    return _with_deal(game, d, _swap(deal, t, p, u, q)), "R801"


def _upcard_held(deal: Deal, trump: Trump, t: int, p: int) -> bool:
    """Whether play ``p`` of trick ``t`` is by a dealer who took the upcard, of the led suit,
    and still holds it: a play-only record then still proves the renege at the play."""
    play = deal.tricks[t].plays[p]
    ex = deal.exchange
    up = deal.up.card if deal.up is not None else None
    if ex is None or ex.act != "takes" or up is None or play.seat != deal.dealer:
        return False
    if effective_suit(up, trump) is not _led(deal.tricks[t], trump):
        return False
    return any(x.card == up for trick in deal.tricks[t:] for x in trick.plays)


def renege_by_evidence(game: Game, rng: random.Random) -> Injected | None:
    """R802: the renege of :func:`renege_known` in a play-only record, proved when the seat
    later plays the suit it showed out of (not by a dealer still holding the upcard of the
    led suit, which proves it at the play)."""
    places = []
    for d, deal, trump, _ in _played(game):
        for t, p, u, q in _renege_swaps(deal, trump):
            swapped = _swap(deal, t, p, u, q)
            if not _upcard_held(swapped, trump, t, p):
                places.append((d, swapped))
    place = _pick(rng, places)
    if place is None:
        return None
    d, swapped = place
    return play_only(_with_deal(game, d, swapped)), "R802"


def renege_upcard_held(game: Game, rng: random.Random) -> Injected | None:
    """R801 in a play-only record: the dealer took the upcard and does not follow with it."""
    places = []
    for d, deal, trump, _ in _played(game):
        for t, p, u, q in _renege_swaps(deal, trump):
            swapped = _swap(deal, t, p, u, q)
            if _upcard_held(swapped, trump, t, p):
                places.append((d, swapped))
    place = _pick(rng, places)
    if place is None:
        return None
    d, swapped = place
    return play_only(_with_deal(game, d, swapped)), "R801"


def _shown_out(deal: Deal, seat: Seat, trump: Trump, before: int) -> set[Suit]:
    """The suits ``seat`` failed to follow in the tricks before trick index ``before``."""
    out = set()
    for trick in deal.tricks[:before]:
        led = _led(trick, trump)
        for play in trick.plays[1:]:
            if (play.seat == seat and play.card is not None
                    and effective_suit(play.card, trump) is not led):
                out.add(led)
    return out


def _substitutes(deal: Deal, trump: Trump, u: int, q: int,
                 cards: Sequence[Card]) -> Iterator[tuple[Card, bool]]:
    """Cards that may replace play ``q`` of trick ``u`` as one fault: the trick keeps its
    winner, and a seat that followed suit still follows (and one that did not, still does
    not). The flag tells whether the card is of a suit the seat showed out of before,
    which makes the card a false proof of a renege (P1)."""
    trick = deal.tricks[u]
    play = trick.plays[q]
    assert play.card is not None
    led = _led(trick, trump)
    shown = _shown_out(deal, play.seat, trump, u)
    for card in cards:
        if q > 0 and ((effective_suit(card, trump) is led)
                      != (effective_suit(play.card, trump) is led)):
            continue
        plays = list(trick.plays)
        plays[q] = play.model_copy(update={"card": card})
        if _winner(plays, trump) == _winner(trick.plays, trump):
            yield card, effective_suit(card, trump) in shown


def _not_held(game: Game, rng: random.Random, proof: bool) -> Injected | None:
    places = []
    for d, deal, trump, _ in _played(game):
        u = len(deal.tricks) - 1
        outside = _outside(deal)
        for q in range(len(deal.tricks[u].plays)):
            places += [(d, deal, q, card) for card, shown in
                       _substitutes(deal, trump, u, q, outside) if shown == proof]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, q, card = place
    u = len(deal.tricks) - 1
    plays = list(deal.tricks[u].plays)
    plays[q] = plays[q].model_copy(update={"card": card})
    deal = _with_trick(deal, u, plays)
    if deal.up is not None:
        deal = deal.model_copy(update={"up": deal.up.model_copy(update={"kitty": None})})
    return _with_deal(game, d, deal), "P702"


def card_not_held(game: Game, rng: random.Random) -> Injected | None:
    """P702: in the last trick a seat plays a card of the kitty, which the record leaves out
    (ghost: a card of the hand no one plays, which the record keeps); the seat's recorded
    hand does not hold it."""
    return _not_held(game, rng, proof=False)


def card_not_held_shown_out(game: Game, rng: random.Random) -> Injected | None:
    """P702 as :func:`card_not_held`, with a card of a suit the seat showed out of earlier.

    The seat's hand is recorded, so the card is simply not held; it proves no renege.
    """
    return _not_held(game, rng, proof=True)


def _played_twice(game: Game, rng: random.Random, proof: bool) -> Injected | None:
    places = []
    for d, deal, trump, _ in _played(game):
        last = len(deal.tricks) - 1
        for u in range(1, last + 1):
            for q, play in enumerate(deal.tricks[u].plays):
                if q == 0 and u != last:
                    continue  # a new lead would change what the others must follow
                earlier = [p.card for t in deal.tricks[:u] for p in t.plays
                           if p.seat == play.seat and p.card is not None]
                places += [(d, deal, u, q, card) for card, shown in
                           _substitutes(deal, trump, u, q, earlier) if shown == proof]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, u, q, card = place
    plays = list(deal.tricks[u].plays)
    plays[q] = plays[q].model_copy(update={"card": card})
    return _with_deal(game, d, _with_trick(deal, u, plays)), "P703"


def card_played_twice(game: Game, rng: random.Random) -> Injected | None:
    """P703: a seat plays again a card it played in an earlier trick (in a trick it does
    not lead, or in the last trick); no winner changes."""
    return _played_twice(game, rng, proof=False)


def card_played_twice_shown_out(game: Game, rng: random.Random) -> Injected | None:
    """P703 as :func:`card_played_twice`, with a card of a suit the seat showed out of in
    between; the card, known to be played already, proves no renege."""
    return _played_twice(game, rng, proof=True)


def play_out_of_turn(game: Game, rng: random.Random) -> Injected | None:
    """P701: the second and third cards of a trick are recorded in the wrong order; in a
    trick of two cards (two-hand, a lone maker against a lone defender), the two cards, of
    one suit, are."""
    places = []
    for d, deal, trump, _ in _played(game):
        for t, trick in enumerate(deal.tricks):
            if len(trick.plays) >= 3:
                places.append((d, deal, t, 1))
            elif len(trick.plays) == 2 and len({effective_suit(c, trump)
                                                for c in _cards(trick)}) == 1:
                places.append((d, deal, t, 0))
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, t, i = place
    plays = list(deal.tricks[t].plays)
    plays[i], plays[i + 1] = plays[i + 1], plays[i]
    return _with_deal(game, d, _with_trick(deal, t, plays)), "P701"


def bid_out_of_turn(game: Game, rng: random.Random) -> Injected | None:
    """B401: two passes next to each other on a bid line are recorded in the wrong order
    (not a pass that follows its seat's swap with the ghost hand)."""
    places = [(d, deal, k, i) for d, deal in enumerate(game.deals)
              for k, line in enumerate(deal.bidding)
              for i in range(len(line.bids) - 1)
              if isinstance(line.bids[i], Pass) and isinstance(line.bids[i + 1], Pass)
              and not (i and isinstance(line.bids[i - 1], Swap))]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, k, i = place
    bids = list(deal.bidding[k].bids)
    bids[i], bids[i + 1] = bids[i + 1], bids[i]
    lines = list(deal.bidding)
    lines[k] = lines[k].model_copy(update={"bids": tuple(bids)})
    return _with_deal(game, d, deal.model_copy(update={"bidding": tuple(lines)})), "B401"


def turned_down_suit(game: Game, rng: random.Random) -> Injected | None:
    """B403: a round-2 call names the suit of the turned-down upcard.

    The deal is then played on (legally, with that trump) from the same cards, and the
    game is scored and finished again from there.
    """
    places = [k for k, deal in enumerate(game.deals)
              if deal.up is not None and deal.up.card is not None and deal.up.card.suit is not None
              and len(deal.bidding) == 2 and deal.hands and isinstance(deal.bids[-1], Call)]
    d = _pick(rng, places)
    if d is None:
        return None
    deal = game.deals[d]
    assert deal.up is not None and deal.up.card is not None
    call = deal.bids[-1]
    assert isinstance(call, Call)
    bids = [*deal.bids[:-1], call.model_copy(update={"suit": deal.up.card.suit})]
    return _replayed(game, d, bids, rng), "B403"


def discard_not_held(game: Game, rng: random.Random) -> Injected | None:
    """K502: the dealer discards a card of the kitty; the card really discarded stays in the
    recorded hand, and its suit is never led when the dealer cannot follow with another."""
    places: list[tuple[int, Deal, Card]] = []
    for d, deal, trump, _ in _played(game):
        ex = deal.exchange
        if ex is None or ex.act != "takes" or ex.discard is None or deal.up is None:
            continue
        kept = effective_suit(ex.discard, trump)
        safe = True
        for trick in deal.tricks:
            for play in trick.plays:
                if (play.seat == deal.dealer and _led(trick, trump) is kept
                        and play.card is not None and effective_suit(play.card, trump) is not kept):
                    safe = False
        if safe:
            places.extend((d, deal, card) for card in deal.up.kitty or () if card is not None)
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, card = place
    ex = deal.exchange
    assert ex is not None
    deal = _with_exchange(deal, ex.model_copy(update={"discard": card}))
    return _with_deal(game, d, deal), "K502"


def _with_exchange(deal: Deal, exchange: Exchange) -> Deal:
    """The deal with its exchange replaced by ``exchange`` (first among the acts, when it has
    none)."""
    old = deal.exchange
    acts = (tuple(exchange if a is old else a for a in deal.acts) if old is not None
            else (exchange, *deal.acts))
    return deal.model_copy(update={"acts": acts})


def _declared(game: Game, rng: random.Random, act: Literal["alone", "defend"], code: str,
              who: Callable[[Ruleset, Deal, Seat], list[Seat]]) -> Injected | None:
    ruleset = ruleset_of(game)
    places = [(d, deal, seat) for d, deal, _, maker in _played(game)
              for seat in who(ruleset, deal, maker)]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, seat = place
    acts = (*deal.acts, Declaration(act=act, seat=seat))
    return _with_deal(game, d, deal.model_copy(update={"acts": acts})), code


def _may_not_go_alone(ruleset: Ruleset, deal: Deal, maker: Seat) -> list[Seat]:
    """Seats that may not declare alone in a deal: the maker's partner (four-hand; under
    partner-alone a defender), a defender (cutthroat), the maker too where no one declares
    alone (two-hand, three-hand, ghost)."""
    if ruleset.variant.partnership and ruleset.options.partner_alone:
        return [s for s in ruleset.seats if ruleset.side(s) != ruleset.side(maker)]
    if ruleset.variant.partnership:
        return [maker.partner]
    if ruleset.variant.alone == "declared":
        return [s for s in ruleset.seats if s != maker]
    return [maker]


def alone_not_allowed(game: Game, rng: random.Random) -> Injected | None:
    """A601: a seat that may not go alone declares it (the declaration is void)."""
    return _declared(game, rng, "alone", "A601", _may_not_go_alone)


def _may_not_defend(ruleset: Ruleset, deal: Deal, maker: Seat) -> list[Seat]:
    """Seats that may not defend alone: the maker's side, or anyone without lone defenders."""
    if not ruleset.options.lone_defender or ruleset.variant.alone == "never":
        return [s for s in ruleset.seats if s != maker]
    if ruleset.variant.partnership:
        return [maker.partner]
    return [maker]


def defend_not_allowed(game: Game, rng: random.Random) -> Injected | None:
    """A602: a seat that may not defend alone declares it (the declaration is void)."""
    return _declared(game, rng, "defend", "A602", _may_not_defend)


def duplicate_card(game: Game, rng: random.Random) -> Injected | None:
    """D304: a card of a hand is written in the kitty too, in place of a kitty card (ghost:
    in the ghost hand, when no one swapped)."""
    places = [(d, deal) for d, deal in enumerate(game.deals)
              if deal.hands and ((deal.up is not None and deal.up.kitty)
                                 or (deal.extra is not None and deal.extra.kind == "ghost"
                                     and not any(isinstance(b, Swap) for b in deal.bids)))]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal = place
    held = [c for cards in deal.hands[0].cards.values() for c in cards if c is not None]
    if deal.up is not None and deal.up.kitty:
        kitty = list(deal.up.kitty)
        kitty[rng.randrange(len(kitty))] = rng.choice(held)
        deal = deal.model_copy(update={"up": deal.up.model_copy(
            update={"kitty": tuple(kitty)})})
    else:
        assert deal.extra is not None
        ghost = list(deal.extra.cards)
        ghost[rng.randrange(len(ghost))] = rng.choice(held)
        deal = deal.model_copy(update={"extra": deal.extra.model_copy(
            update={"cards": tuple(ghost)})})
    return _with_deal(game, d, deal), "D304"


_SEAT_KEYS = ("seat", "dealer", "maker", "defend")


def _rotated(data: Any) -> Any:
    """Dumped deal data with every seat moved to its partner's place (sides stay)."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key in _SEAT_KEYS and isinstance(value, str):
                out[key] = Seat(value).partner.value
            elif key == "cards" and isinstance(value, dict):
                out[key] = {Seat(s).partner.value: v for s, v in value.items()}
            else:
                out[key] = _rotated(value)
        return out
    if isinstance(data, list | tuple):
        return [_rotated(v) for v in data]
    return data


def wrong_dealer(game: Game, rng: random.Random) -> Injected | None:
    """D302: from some deal on, the record has every seat moved to its partner's place, so
    that deal alone is dealt by the wrong seat and the rest follows from it (four-hand)."""
    if len(game.deals) < 2:
        return None
    d = rng.randrange(1, len(game.deals))
    deals = list(game.deals[:d])
    deals += [Deal.model_validate(_rotated(deal.model_dump())) for deal in game.deals[d:]]
    return game.model_copy(update={"deals": tuple(deals)}), "D302"


def wrong_dealer_after_redeal(game: Game, rng: random.Random) -> Injected | None:
    """D302 under ``pass-out=same-dealer`` (H4): after a deal everyone passed, the record
    has the next deal dealt by the dealer's partner (every seat moved to its partner's place
    from there on, as :func:`wrong_dealer`), not by the same dealer again (four-hand)."""
    places = [d for d in range(1, len(game.deals)) if contract(game.deals[d - 1]) is None
              and game.deals[d - 1].bidding]
    d = _pick(rng, places)
    if d is None:
        return None
    deals = list(game.deals[:d])
    deals += [Deal.model_validate(_rotated(deal.model_dump())) for deal in game.deals[d:]]
    return game.model_copy(update={"deals": tuple(deals)}), "D302"


def penalised(game: Game, rng: random.Random) -> tuple[Game, int, str, int] | None:
    """The game with a penalty (H6) charged in one deal to a player or side that does not
    win, the running totals and the result written with it: the game, the deal's index, the
    side charged and the points (``None`` where the penalty would change how the game went:
    a tie on top broken, so that it ends earlier)."""
    ruleset = ruleset_of(game)
    end = game.end
    if end is None or end.winner is None or not game.deals:
        return None
    d = rng.randrange(len(game.deals))
    seat = rng.choice([s for s in ruleset.seats if ruleset.side(s) != end.winner])
    who = rng.choice((seat.value, ruleset.side(seat)))
    side = ruleset.side(seat)
    points = rng.randint(1, 3)
    reason = rng.choice(("table talk", "false renege claim", 'said "pass" out of turn'))
    out = charge(game, ((game.deals[d].number, who, points, reason),))
    totals = dict.fromkeys(ruleset.side_names, 0)
    counted = 0
    for k, deal in enumerate(out.deals):
        totals = dict(deal.score.total) if deal.score and deal.score.total else totals
        counted += ruleset.counts(contract(deal) is None)
        outcome = ruleset.outcome(totals, counted)
        if (outcome is None) != (k < len(out.deals) - 1) or (
                outcome is not None and outcome.winner != end.winner):
            return None  # the penalty changes how the game goes (a tie on top broken)
    return out, d, side, points


def penalty_forgotten(game: Game, rng: random.Random) -> Injected | None:
    """C902: a penalty is charged in a deal, but the scorer forgets to take it off that
    deal's running total and carries the slip on; the result line has the true scores."""
    made = penalised(game, rng)
    if made is None:
        return None
    charged, d, side, points = made
    deals = list(charged.deals)
    first = deals[d].score
    if first is None or first.total is None:
        return None
    for k in range(d, len(deals)):
        score = deals[k].score
        if score is not None and score.total is not None:
            total = {**score.total, side: score.total[side] + points}
            deals[k] = deals[k].model_copy(update={"score": score.model_copy(
                update={"total": total})})
    return charged.model_copy(update={"deals": tuple(deals)}), "C902"


def wrong_points(game: Game, rng: random.Random) -> Injected | None:
    """C901: one deal's points are written one too high; the totals after it are left out."""
    places = [d for d, deal in enumerate(game.deals)
              if deal.score is not None and deal.score.points]
    d = _pick(rng, places)
    if d is None:
        return None
    deals = list(game.deals)
    for k in range(d, len(deals)):
        score = deals[k].score
        if score is None:
            continue
        points = dict(score.points or {})
        if k == d:
            side = rng.choice(sorted(points))
            points[side] += 1
        deals[k] = deals[k].model_copy(update={"score": Score(points=points)})
    return game.model_copy(update={"deals": tuple(deals)}), "C901"


def wrong_total(game: Game, rng: random.Random) -> Injected | None:
    """C902: one running total is written one too high, and the scorer carries the error
    on; the result line has the true scores."""
    places = [d for d, deal in enumerate(game.deals)
              if deal.score is not None and deal.score.total]
    d = _pick(rng, places)
    if d is None:
        return None
    first = game.deals[d].score
    assert first is not None and first.total is not None
    side = rng.choice(sorted(first.total))
    deals = list(game.deals)
    for k in range(d, len(deals)):
        score = deals[k].score
        if score is None or score.total is None:
            continue
        total = dict(score.total)
        total[side] += 1
        deals[k] = deals[k].model_copy(update={"score": score.model_copy(
            update={"total": total})})
    return game.model_copy(update={"deals": tuple(deals)}), "C902"


def wrong_winner(game: Game, rng: random.Random) -> Injected | None:
    """G953: the result line names another side the winner."""
    end = game.end
    if end is None or end.winner is None:
        return None
    other = rng.choice([s for s in ruleset_of(game).side_names if s != end.winner])
    return game.model_copy(update={"end": end.model_copy(update={"winner": other})}), "G953"


def false_claim(game: Game, rng: random.Random) -> Injected | None:
    """R803: a renege is claimed against a seat that followed suit every time."""
    place = _pick(rng, list(_played(game)))
    if place is None:
        return None
    d, deal, _, _ = place
    seat = rng.choice([p.seat for p in deal.tricks[0].plays])
    claim = Claim(seat=seat, trick=rng.choice((None, rng.randint(1, len(deal.tricks)))))
    return _with_deal(game, d, deal.model_copy(update={"claims": (claim,)})), "R803"


# ---------------------------------------------------------------- more faults


def _with_up(game: Game, d: int, **update: Any) -> Game:
    deal = game.deals[d]
    assert deal.up is not None
    return _with_deal(game, d, deal.model_copy(update={"up": deal.up.model_copy(
        update=update)}))


def renege_claimed(game: Game, rng: random.Random) -> Injected | None:
    """R801 as :func:`renege_known`, claimed at the table: the deal scores the penalty (P3;
    ghost: the offender's loss is added to the deal as played) and the game is scored
    again from there."""
    places = [(d, deal, swap) for d, deal, trump, _ in _played(game)
              for swap in _renege_swaps(deal, trump)]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, (t, p, u, q) = place
    ruleset = ruleset_of(game)
    seat = deal.tricks[t].plays[p].seat
    penalty = ruleset.renege_penalty(lone_hand=bool(deal.declarations))
    if penalty < 0:
        sides = {ruleset.side(seat): penalty}
    else:
        sides = {s: penalty for s in ruleset.side_names if s != ruleset.side(seat)}
    if not ruleset.variant.scoring:
        assert deal.score is not None and deal.score.points is not None
        played = deal.score.points  # no trick changes its winner
        sides = {s: played.get(s, 0) + sides.get(s, 0) for s in ruleset.side_names}
    faulty = _swap(deal, t, p, u, q).model_copy(
        update={"claims": (Claim(seat=seat, trick=rng.choice((None, t + 1))),),
                "score": None})
    return _rescored(game, d, DealOutcome(faulty, sides), rng), "R801"


def dead_card(game: Game, rng: random.Random) -> Injected | None:
    """P708: in the last trick a seat plays a card the record puts in the kitty."""
    if not ruleset_of(game).variant.upcard:
        return None
    injected = _not_held(game, rng, proof=False)
    if injected is None:
        return None
    faulty, _ = injected
    d = next(k for k, (a, b) in enumerate(zip(game.deals, faulty.deals, strict=True))
             if a != b)
    up = game.deals[d].up
    assert up is not None
    return _with_up(faulty, d, kitty=up.kitty), "P708"


def _sitting_out(ruleset: Ruleset, deal: Deal, maker: Seat) -> list[Seat]:
    """The seats that sit out a deal: the partner of a lone hand (four-hand), the other
    defender beside a lone defender (cutthroat, three-hand)."""
    out = []
    for decl in deal.declarations:
        if ruleset.variant.partnership:
            out.append(decl.seat.partner)
        elif decl.act == "defend":
            out += [s for s in ruleset.seats if s not in (maker, decl.seat)]
    return out


def sitting_out_plays(game: Game, rng: random.Random, *, last: bool = False) -> Injected | None:
    """P704: a seat that sits out (the partner of a lone hand, the other defender beside a
    lone defender) plays a card of its hand inside a trick."""
    ruleset = ruleset_of(game)
    places = [(d, deal, seat) for d, deal, _, maker in _played(game)
              for seat in _sitting_out(ruleset, deal, maker)]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, seat = place
    card = rng.choice(deal.hands[0].cards[seat])
    t = len(deal.tricks) - 1 if last else rng.randrange(len(deal.tricks) - 1)
    plays = list(deal.tricks[t].plays)
    plays.insert(len(plays) if last else rng.randrange(len(plays) + 1),
                 Play(seat=seat, card=card))
    return _with_deal(game, d, _with_trick(deal, t, plays)), "P704"


def sitting_out_plays_last(game: Game, rng: random.Random) -> Injected | None:
    """P704 as :func:`sitting_out_plays`, the card written at the end of the last trick."""
    return sitting_out_plays(game, rng, last=True)


def _stuck(game: Game) -> Game | None:
    """The game under stick-the-dealer, if it is legal that way (no deal thrown in)."""
    if ruleset_of(game).options.stick_the_dealer:
        return game
    if any(contract(deal) is None for deal in game.deals):
        return None
    tags = list(game.tags)
    k = next((i for i, tag in enumerate(tags) if tag.name.lower() == "rules"), None)
    if k is None:
        k = next(i for i, tag in enumerate(tags) if tag.name.lower() == "variant") + 1
        tags.insert(k, Tag(name="Rules", value="stick-the-dealer"))
    else:
        tags[k] = tags[k].model_copy(update={"value": tags[k].value + " stick-the-dealer"})
    return game.model_copy(update={"tags": tuple(tags)})


def dealer_stuck_passes(game: Game, rng: random.Random) -> Injected | None:
    """B404: under stick-the-dealer everyone passes round 2, the dealer too; the deal is
    thrown in and the game scored again from there. A game with no deal thrown in is taken
    as played under stick-the-dealer."""
    stuck = _stuck(game)
    places = [d for d, deal in enumerate(game.deals) if len(deal.bidding) == 2]
    d = _pick(rng, places)
    if stuck is None or d is None:
        return None
    deal = stuck.deals[d]
    bids = tuple(Pass(act="pass", seat=b.seat) for b in deal.bidding[0].bids)
    thrown = Deal(number=deal.number, dealer=deal.dealer, hands=deal.hands, extra=deal.extra,
                  up=deal.up,
                  bidding=(deal.bidding[0], deal.bidding[1].model_copy(update={"bids": bids})))
    return _rescored(stuck, d, DealOutcome(thrown, thrown=True), rng), "B404"


def short_hand(game: Game, rng: random.Random) -> Injected | None:
    """D303: one card of a hand is left out of the record (the hand is one short)."""
    d = rng.randrange(len(game.deals))
    deal = game.deals[d]
    if not deal.hands:
        return None
    cards = dict(deal.hands[0].cards)
    seat = rng.choice(sorted(cards))
    held = list(cards[seat])
    del held[rng.randrange(len(held))]
    cards[seat] = tuple(held)
    hands = (deal.hands[0].model_copy(update={"cards": cards}),)
    return _with_deal(game, d, deal.model_copy(update={"hands": hands})), "D303"


def card_not_in_deck(game: Game, rng: random.Random) -> Injected | None:
    """D305: a seven in the kitty of a game without sevens."""
    if ruleset_of(game).options.deck == 32:
        return None
    d = rng.randrange(len(game.deals))
    up = game.deals[d].up
    if up is None or not up.kitty:
        return None
    kitty = list(up.kitty)
    kitty[rng.randrange(len(kitty))] = Card(Rank.SEVEN, rng.choice(list(Suit)))
    return _with_up(game, d, kitty=tuple(kitty)), "D305"


def short_kitty(game: Game, rng: random.Random) -> Injected | None:
    """D306: one card of the kitty is left out of the record."""
    d = rng.randrange(len(game.deals))
    up = game.deals[d].up
    if up is None or not up.kitty:
        return None
    kitty = list(up.kitty)
    del kitty[rng.randrange(len(kitty))]
    return _with_up(game, d, kitty=tuple(kitty)), "D306"


def short_trick(game: Game, rng: random.Random) -> Injected | None:
    """P705: the last card of the last trick is left out (the points written stand)."""
    place = _pick(rng, list(_played(game)))
    if place is None:
        return None
    d, deal, _, _ = place
    t = len(deal.tricks) - 1
    return _with_deal(game, d, _with_trick(deal, t, deal.tricks[t].plays[:-1])), "P705"


def trick_misnumbered(game: Game, rng: random.Random) -> Injected | None:
    """P707: one trick carries a wrong number."""
    place = _pick(rng, list(_played(game)))
    if place is None:
        return None
    d, deal, _, _ = place
    tricks = list(deal.tricks)
    t = rng.randrange(len(tricks))
    tricks[t] = tricks[t].model_copy(update={"number": t + 7})
    return _with_deal(game, d, deal.model_copy(update={"tricks": tuple(tricks)})), "P707"


def deal_misnumbered(game: Game, rng: random.Random) -> Injected | None:
    """D301: one deal in the middle of a game carries a wrong number.

    The engine checks each number against the one before, so the next deal is reported too.
    """
    if len(game.deals) < 3:
        return None
    d = rng.randrange(1, len(game.deals) - 1)
    deal = game.deals[d]
    return _with_deal(game, d, deal.model_copy(update={"number": deal.number + 5})), "D301"


def wrong_result(game: Game, rng: random.Random) -> Injected | None:
    """G952: the result line has one side's final score one too high."""
    end = game.end
    if end is None or end.act != "result" or not end.scores:
        return None
    scores = dict(end.scores)
    scores[rng.choice(sorted(scores))] += 1
    return game.model_copy(update={"end": end.model_copy(update={"scores": scores})}), "G952"


# ---------------------------------------------------------------- faults of one variant


def second_swap(game: Game, rng: random.Random) -> Injected | None:
    """B409 (ghost): after one seat swapped with the ghost hand, a later bidder swaps too.

    The deal is played on legally from the second swap, as the engine applies it, and the
    game is scored and finished again from there.
    """
    places = []
    for d, deal in enumerate(game.deals):
        bids = list(deal.bids)
        k = next((i for i, b in enumerate(bids) if isinstance(b, Swap)), None)
        if k is None or not deal.hands or deal.extra is None:
            continue
        order = clockwise_from(deal.dealer.left, ruleset_of(game).seats)
        later = order[order.index(bids[k].seat) + 1:]
        for seat in later:
            i = next(i for i, b in enumerate(bids) if b.seat == seat)
            places.append((d, [*bids[:i], Swap(act="swap", seat=seat)]))
    place = _pick(rng, places)
    if place is None:
        return None
    d, bids = place
    return _replayed(game, d, bids, rng), "B409"


def low_bid(game: Game, rng: random.Random) -> Injected | None:
    """B408 (ghost): a seat that passed is recorded bidding no more than the high bid so far
    (the moon outbids nothing); the deal is played on legally from there."""
    places = []
    for d, deal in enumerate(game.deals):
        if not deal.hands or deal.extra is None:
            continue
        high = 0
        bids = list(deal.bids)
        for i, bid in enumerate(bids):
            if isinstance(bid, Number):
                high = max(high, bid.tricks)
            elif isinstance(bid, Pass) and high:
                for n in range(3, high + 1):
                    places.append((d, [*bids[:i], Number(act="bid", seat=bid.seat, tricks=n)]))
    place = _pick(rng, places)
    if place is None:
        return None
    d, bids = place
    return _replayed(game, d, bids, rng), "B408"


def lone_merge(game: Game, rng: random.Random) -> Injected | None:
    """K505 (cutthroat): a maker goes alone and is also recorded taking up the dummy,
    keeping the five cards already held, so the play is the same either way. The deal is
    played again from its bidding with the maker alone."""
    ruleset = ruleset_of(game)
    if ruleset.extra_hand != "dummy":
        return None
    d = _pick(rng, [d for d, _, _, _ in _played(game)])
    if d is None:
        return None
    bids = list(game.deals[d].bids)
    again = _replayed(game, d, bids, rng, alone=True)
    deal = again.deals[d]
    fixed = contract(deal)
    assert fixed is not None
    maker = fixed[1]
    if not any(x.act == "alone" for x in deal.declarations):
        return None
    keeps = tuple(sorted(_hand_before_play(deal, maker), key=str))
    merge = Merge(act="merge", seat=maker, keeps=keeps)  # after the alone: refused (X6)
    deal = deal.model_copy(update={"acts": (*deal.acts, merge)})
    return _with_deal(again, d, deal), "K505"


def _with_merge(deal: Deal, merge: Merge) -> Deal:
    """The deal with its dummy merge replaced by ``merge``."""
    acts = tuple(merge if isinstance(a, Merge) else a for a in deal.acts)
    return deal.model_copy(update={"acts": acts})


def _merged(game: Game) -> Iterator[tuple[int, Deal, Trump, Seat]]:
    for d, deal, trump, maker in _played(game):
        if deal.merge is not None and deal.merge.keeps and deal.up is not None:
            yield d, deal, trump, maker


def merge_keeps_other(game: Game, rng: random.Random) -> Injected | None:
    """K506 (cutthroat): the merge line names a kitty card among the five kept, in place of
    one the maker really kept and plays."""
    places = [(d, deal, k, card) for d, deal, _, _ in _merged(game)
              for k in range(5) for card in _outside(deal)]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, k, card = place
    assert deal.merge is not None and deal.merge.keeps is not None
    keeps = list(deal.merge.keeps)
    keeps[k] = card
    deal = _with_merge(deal, deal.merge.model_copy(update={"keeps": tuple(keeps)}))
    return _with_deal(game, d, deal), "K506"


def merge_keeps_other_played(game: Game, rng: random.Random) -> Injected | None:
    """K506 (cutthroat): the maker keeps a kitty card in the merge and plays it in the last
    trick, in place of a kept card that is then never played (no winner changes, and the
    card is of no suit the maker showed out of)."""
    places = []
    for d, deal, trump, maker in _merged(game):
        u = len(deal.tricks) - 1
        q = next(i for i, p in enumerate(deal.tricks[u].plays) if p.seat == maker)
        places += [(d, deal, q, card) for card, shown in
                   _substitutes(deal, trump, u, q, _outside(deal)) if not shown]
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, q, card = place
    assert deal.merge is not None and deal.merge.keeps is not None
    u = len(deal.tricks) - 1
    plays = list(deal.tricks[u].plays)
    old = plays[q].card
    plays[q] = plays[q].model_copy(update={"card": card})
    keeps = tuple(card if c == old else c for c in deal.merge.keeps)
    deal = _with_merge(_with_trick(deal, u, plays), deal.merge.model_copy(
        update={"keeps": keeps}))
    return _with_deal(game, d, deal), "K506"


def merge_missing(game: Game, rng: random.Random) -> Injected | None:
    """K507 (cutthroat, dummy=required): a maker neither takes up the dummy nor goes alone.
    The deal is played again from its bidding that way, and the game is scored and finished
    again from there."""
    ruleset = ruleset_of(game)
    if ruleset.options.dummy != "required":
        return None
    d = _pick(rng, [d for d, _, _, _ in _played(game)])
    if d is None:
        return None
    optional = Ruleset(ruleset.variant, replace(ruleset.options, dummy="optional"),
                       ruleset.seats)
    return _replayed(game, d, list(game.deals[d].bids), rng, ruleset=optional,
                     merge=False, alone=False), "K507"


def renege_no_trump(game: Game, rng: random.Random) -> Injected | None:
    """R801 in a deal played at no trump, where the jacks follow their own suits (H5)."""
    return renege_known(game, rng, no_trump=True)


def canadian_not_alone(game: Game, rng: random.Random) -> Injected | None:
    """A604 (canadian-loner): the dealer's partner orders up in round 1 and plays the deal
    with the dealer instead of alone. The deal is played again from its bidding that way,
    and the game is scored and finished again from there."""
    ruleset = ruleset_of(game)
    if not ruleset.options.canadian_loner:
        return None
    places = [d for d, deal, _, maker in _played(game)
              if maker == deal.dealer.partner and isinstance(deal.bids[-1], Order)]
    d = _pick(rng, places)
    if d is None:
        return None
    house = Ruleset(ruleset.variant, replace(ruleset.options, canadian_loner=False),
                    ruleset.seats)
    return _replayed(game, d, list(game.deals[d].bids), rng, ruleset=house,
                     alone=False), "A604"


def pickup_not_natural(game: Game, rng: random.Random) -> Injected | None:
    """K508 (natural-pickup): a dealer who held no card of the upcard's suit, and so
    declined it, is written taking it and discarding it again (the play is the same)."""
    if not ruleset_of(game).options.natural_pickup:
        return None
    places = []
    for d, deal, _, _ in _played(game):
        up = deal.up.card if deal.up is not None else None
        held = deal.hands[0].cards.get(deal.dealer, ())
        if (up is not None and deal.exchange is not None and deal.exchange.act == "declines"
                and isinstance(deal.bids[-1], Order) and None not in held
                and all(c is not None and c.suit is not up.suit for c in held)):
            places.append((d, deal, up))
    place = _pick(rng, places)
    if place is None:
        return None
    d, deal, up = place
    taken = Exchange(seat=deal.dealer, upcard=up, discard=up)
    return _with_deal(game, d, _with_exchange(deal, taken)), "K508"


def no_trump_off(game: Game, rng: random.Random) -> Injected | None:
    """B410: a round-2 call of a suit becomes a call of no trump in a game without the
    no-trump option. The deal is played on (legally, at no trump) from the same cards,
    and the game is scored and finished again from there."""
    rules = ruleset_of(game)
    if rules.options.no_trump or rules.options.deck == 25:
        return None  # (the generator plays no Benny at no trump: tests/test_canadian_no_trump.py)
    places = [d for d, deal in enumerate(game.deals)
              if len(deal.bidding) == 2 and deal.hands and isinstance(deal.bids[-1], Call)]
    d = _pick(rng, places)
    if d is None:
        return None
    call = game.deals[d].bids[-1]
    assert isinstance(call, Call)
    bids = [*game.deals[d].bids[:-1], call.model_copy(update={"suit": NO_TRUMP})]
    return _replayed(game, d, bids, rng), "B410"


# ---------------------------------------------------------------- the catalogue

_ALL = VARIANT_NAMES
_FOUR = ("four-hand",)
_UPCARD = ("four-hand", "cutthroat", "three-hand", "two-hand")
_CUTTHROAT = ("cutthroat",)
_LONE = ("four-hand", "cutthroat", "three-hand")
_GHOST = ("ghost",)

FAULTS: dict[str, Fault] = {
    "R801": Fault(renege_known),
    "R801-claimed": Fault(renege_claimed),
    "R801-upcard-held": Fault(renege_upcard_held, _UPCARD),
    "R802": Fault(renege_by_evidence),
    "P702": Fault(card_not_held),
    "P703": Fault(card_played_twice),
    "P701": Fault(play_out_of_turn),
    "B401": Fault(bid_out_of_turn),
    "B403": Fault(turned_down_suit, _UPCARD),
    "K502": Fault(discard_not_held, _UPCARD),
    "A601": Fault(alone_not_allowed),
    "D304": Fault(duplicate_card),
    "D302": Fault(wrong_dealer, _FOUR),
    "D302-after-redeal": Fault(wrong_dealer_after_redeal, _FOUR, {"pass_out": "same-dealer"}),
    "C902-penalty-forgotten": Fault(penalty_forgotten),
    "C901": Fault(wrong_points),
    "C902": Fault(wrong_total),
    "G953": Fault(wrong_winner),
    "R803": Fault(false_claim),
    "P708": Fault(dead_card, _UPCARD),
    "A602": Fault(defend_not_allowed),
    "P704": Fault(sitting_out_plays, _LONE),
    "B404": Fault(dealer_stuck_passes, _UPCARD, {"pass_out": "next-dealer"}),
    "D303": Fault(short_hand),
    "D305": Fault(card_not_in_deck, _UPCARD),
    "D306": Fault(short_kitty, _UPCARD),
    "P705": Fault(short_trick),
    "P707": Fault(trick_misnumbered),
    "G952": Fault(wrong_result),
    "P702-after-show-out": Fault(card_not_held_shown_out),
    "P703-after-show-out": Fault(card_played_twice_shown_out),
    "D301-middle": Fault(deal_misnumbered),
    "P704-end-of-last-trick": Fault(sitting_out_plays_last, _LONE),
    "B408": Fault(low_bid, _GHOST),
    "B409": Fault(second_swap, _GHOST),
    "K505": Fault(lone_merge, _CUTTHROAT, {"dummy": "optional"}),
    "K506": Fault(merge_keeps_other, _CUTTHROAT, {"dummy": "optional"}),
    "K506-played": Fault(merge_keeps_other_played, _CUTTHROAT, {"dummy": "required"}),
    "K507": Fault(merge_missing, _CUTTHROAT, {"dummy": "required"}),
    "A604": Fault(canadian_not_alone, _FOUR, {"canadian_loner": True}),
    "B410": Fault(no_trump_off, _FOUR, {"no_trump": False}),
    "K508": Fault(pickup_not_natural, _UPCARD, {"natural_pickup": True}),
    "R801-no-trump": Fault(renege_no_trump, _FOUR, {"no_trump": True, "deck": 24}),
}
"""The injectors the engine reports as one finding, named by the code they must produce,
with the variants they are injected into."""

CORE = ("R801", "P702", "P701", "B401", "C901", "C902", "A601", "C902-penalty-forgotten")
"""The faults injected into games of every variant with the most examples (A601: an
``alone`` where no one may declare it, as in two-hand and three-hand; a penalty, H6, left
out of the running total)."""

VARIANT_FAULTS = ("B408", "B409", "K505", "K506", "K506-played", "K507", "D302-after-redeal")
"""The faults of one variant."""

