"""The rule-based player: common euchre advice, rule by rule (docs/players.md, where each
rule has its id, B1 to P5). Its hand judgement is the card sense of the generated games
(:mod:`euchrelog.generate.sense`); what is legal is the engine's to say, and the player
only picks among the numbers it is offered."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..acts import Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ..cards import NO_TRUMP, Card, Rank, Suit, Trump, card_power, effective_suit, trick_winner
from ..engine import Action, DealState, Phase
from ..generate.sense import (
    BOLDNESS,
    card_worth,
    cards_worth,
    expected_tricks,
    give_weight,
    hand_strength,
    keep_value,
    lead_weight,
    no_trump_strength,
    trump_power,
    trumps_in,
)
from ..rules import MOON
from ..seats import Seat
from .turns import STAND
from .view import Decision

MAKE = 6.0
"""B1: the :func:`~euchrelog.generate.sense.hand_strength` that makes trump (about three
tricks' worth), less the variant's boldness with fewer players at the table."""
UPCARD = 1.0
"""B2: what the upcard is worth to the side that gets it, in round 1."""
ALONE = 9.5
"""A1: the strength that goes alone (both bowers and a third trump with a side ace, say)."""
NO_TRUMP_MAKE = 6.0
"""B4: the :func:`~euchrelog.generate.sense.no_trump_strength` that calls no trump."""
SWAP_BELOW = 1.5
"""G1: the expected tricks under which a ghost-hand bidder swaps for the ghost hand."""
LEAD_BONUS = 1.0
"""G2: the tricks a ghost-hand bidder counts more for naming trump and leading."""


class RuleBasedPlayer:
    """Plays by rules of thumb (docs/players.md): no randomness, no look at a hidden card."""

    def choose(self, decision: Decision) -> int:
        """The number the rules pick among ``decision.actions``."""
        acts = {n: decision.act(n) for n in decision.actions}
        state = decision.state
        if state.phase is Phase.BIDDING:
            return _bid(state, decision.seat, acts)
        if any(not isinstance(a, Play) for a in acts.values()):
            return _before_lead(state, decision.seat, acts)
        return _play(state, decision.seat, acts)


def _hand(state: DealState, seat: Seat) -> list[Card]:
    return state.hands[seat].cards


def _pick(acts: Mapping[int, Action | None], kind: type) -> list[tuple[int, Action]]:
    return [(n, a) for n, a in acts.items() if a is not None and isinstance(a, kind)]


# ------------------------------------------------------------------ bidding


def _bid(state: DealState, seat: Seat, acts: Mapping[int, Action | None]) -> int:
    if state.variant.bidding == "tricks":
        return _trick_bid(state, seat, acts)
    passes = _pick(acts, Pass)
    calls = _pick(acts, Call)
    orders = _pick(acts, Order)
    need = MAKE - BOLDNESS.get(state.variant.name, 0.0)
    if orders and state.upcard is not None and state.upcard.suit is not None:
        if _order_strength(state, seat, state.upcard.suit) >= need or not passes:
            return orders[0][0]
        return passes[0][0]
    if not calls:
        return passes[0][0]
    hand = _hand(state, seat)
    suits = [(n, c) for n, c in calls if isinstance(c, Call) and c.suit is not NO_TRUMP]
    best = max(suits, key=lambda item: hand_strength(hand, _suit(item[1])), default=None)
    strength = hand_strength(hand, _suit(best[1])) if best is not None else 0.0
    no_trump = next((n for n, c in calls if isinstance(c, Call) and c.suit is NO_TRUMP), None)
    if no_trump is not None and no_trump_strength(hand) >= NO_TRUMP_MAKE and strength < need:
        return no_trump  # B4
    if best is not None and (strength >= need or not passes):
        return best[0]  # B3, B5 (stuck or a Benny: the best suit)
    return passes[0][0] if passes else calls[0][0]


def _suit(act: Action) -> Trump:
    assert isinstance(act, Call)
    return act.suit


def _order_strength(state: DealState, seat: Seat, trump: Suit) -> float:
    """B2: the strength of ordering the upcard: the dealer's hand with the upcard for its
    weakest card; another seat's hand, with the upcard's worth to the side that gets it."""
    hand = _hand(state, seat)
    up = state.upcard
    assert up is not None
    if seat == state.dealer:
        six = [*hand, up]
        drop = min(six, key=lambda c: keep_value(c, six, trump))
        return hand_strength([c for c in six if c != drop], trump)
    strength = hand_strength(hand, trump)
    ally = state.variant.partnership and state.ruleset.side(seat) == state.ruleset.side(
        state.dealer)
    return strength + (UPCARD if ally else -UPCARD)


def _trick_bid(state: DealState, seat: Seat, acts: Mapping[int, Action | None]) -> int:
    """G1-G3: ghost-hand bidding by expected tricks."""
    hand = _hand(state, seat)
    calls = _pick(acts, Call)
    if state.naming and calls:
        return max(calls, key=lambda item: expected_tricks(hand, _plain(item[1])))[0]
    estimate = max(expected_tricks(hand, s) for s in Suit)
    swaps = _pick(acts, Swap)
    if swaps and estimate < SWAP_BELOW:
        return swaps[0][0]
    reach = estimate + LEAD_BONUS
    numbers = sorted(((n, a.tricks) for n, a in acts.items() if isinstance(a, Number)),
                     key=lambda item: item[1])
    moon = next((n for n, t in numbers if t == MOON), None)
    if moon is not None and reach >= state.variant.hand_size - 0.5:
        return moon
    within = [n for n, t in numbers if t < MOON and t <= reach]
    if within:
        return within[0]
    passes = _pick(acts, Pass)
    if passes:
        return passes[0][0]
    return min(acts)


def _plain(act: Action) -> Suit:
    assert isinstance(act, Call) and isinstance(act.suit, Suit)
    return act.suit


# ------------------------------------------------------------------ before the lead


def _before_lead(state: DealState, seat: Seat, acts: Mapping[int, Action | None]) -> int:
    trump = state.trump
    assert trump is not None
    exchanges = _pick(acts, Exchange)
    if exchanges:
        return _exchange(state, trump, exchanges)
    hand = _hand(state, seat)
    standing = STAND in acts
    alone = [n for n, a in _pick(acts, Declaration)
             if isinstance(a, Declaration) and a.act == "alone"]
    if alone and (not standing or hand_strength(hand, trump) >= ALONE):
        return alone[0]  # A1, A2
    merges = _pick(acts, Merge)
    if merges:
        return _merge(state, trump, merges)  # M1
    if standing:
        return STAND  # A3: no lone defence
    return min(n for n in acts if n != STAND)


def _exchange(state: DealState, trump: Trump, exchanges: Sequence[tuple[int, Action]]) -> int:
    """X1: take the upcard and discard the card least worth keeping; decline only when
    taking is not offered."""
    takes = [(n, a) for n, a in exchanges if isinstance(a, Exchange) and a.discard is not None]
    if not takes:
        return exchanges[0][0]
    hand = _hand(state, state.dealer)
    six = [*hand, state.upcard] if state.upcard is not None else hand
    best = min(takes, key=lambda item: _discard_value(item[1], six, trump))
    return best[0]


def _discard_value(act: Action, six: list[Card], trump: Trump) -> tuple[float, str]:
    assert isinstance(act, Exchange) and act.discard is not None
    return keep_value(act.discard, six, trump), str(act.discard)


def _merge(state: DealState, trump: Trump, merges: Sequence[tuple[int, Action]]) -> int:
    """M1: take up the dummy, keeping the five cards of the best worth."""
    def worth(item: tuple[int, Action]) -> tuple[float, int]:
        act = item[1]
        assert isinstance(act, Merge)
        kept = [c for c in act.keeps or () if c is not None]
        return cards_worth((card_worth(c, trump) for c in kept), trump), -item[0]
    return max(merges, key=worth)[0]


# ------------------------------------------------------------------ play


def _play(state: DealState, seat: Seat, acts: Mapping[int, Action | None]) -> int:
    trump = state.trump
    assert trump is not None
    plays = [(n, a.card) for n, a in acts.items() if isinstance(a, Play) and a.card is not None]
    if len(plays) == 1:
        return plays[0][0]
    cards = [c for _, c in plays]
    number = {c: n for n, c in plays}
    if not state.current:
        return number[_lead(state, seat, trump, cards)]
    played = [c for _, c in state.current if c is not None]
    led = effective_suit(played[0], trump)
    if led is None:  # (the Benny led at no trump: nothing beats it)
        return number[min(cards, key=lambda c: lead_weight(c, trump))]
    win = trick_winner(played, trump)
    cheapest = min(cards, key=lambda c: give_weight(c, trump, led))
    if _allied(state, state.current[win][0], seat):
        return number[cheapest]  # P3: partner winning, give the cheapest
    top = card_power(played[win], trump, led)
    beating = [c for c in cards if card_power(c, trump, led) > top]
    if beating:
        return number[min(beating, key=lambda c: give_weight(c, trump, led))]  # P4
    return number[cheapest]  # P5


def _lead(state: DealState, seat: Seat, trump: Trump, cards: list[Card]) -> Card:
    """P1, P2: trump from the top as a maker with two or more; else an off-suit ace; else
    the lowest off-suit card; else the lowest trump."""
    mine = trumps_in(cards, trump) if trump is not NO_TRUMP else []
    if len(mine) >= 2 and seat in state.makers:
        return max(mine, key=lambda c: trump_power(c, trump))
    off = [c for c in cards if c not in mine]
    aces = [c for c in off if c.rank is Rank.ACE]
    if aces:
        return max(aces, key=lambda c: lead_weight(c, trump))
    pool = off or cards
    return min(pool, key=lambda c: lead_weight(c, trump))


def _allied(state: DealState, a: Seat, b: Seat) -> bool:
    """Whether ``a`` taking the trick is good for ``b``: partners, or (cutthroat,
    three-hand) two defenders against the maker."""
    if a == b or state.variant.partnership:
        return state.side(a) == state.side(b)
    if state.variant.scoring:
        defenders = state.defenders
        return a in defenders and b in defenders
    return False
