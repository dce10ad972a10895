"""One generated deal: a shuffle dealt (:func:`shuffle_deal`, :func:`new_deal`) and played
through :class:`~euchrelog.engine.DealState`, every act chosen among the legal ones with
the card sense of :mod:`.sense` (:func:`play_deal`, :class:`DealOutcome`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ..acts import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ..cards import (
    NO_TRUMP,
    Card,
    Suit,
    Trump,
    card_power,
    effective_suit,
    make_deck,
    sort_hand,
    trick_winner,
)
from ..engine import DealState, Phase
from ..models import Bidding, Deal, Extra, Hands, Trick, Upcard
from ..rules import MOON, Ruleset
from ..seats import Seat, clockwise_from
from .sense import (
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


@dataclass
class DealOutcome:
    """What one generated deal was, beside its record."""

    deal: Deal
    """The full record of the deal, without points."""
    points: dict[str, int] = field(default_factory=dict)
    """Points scored, by side (empty for a thrown-in deal)."""
    thrown: bool = False
    """Whether everyone passed."""
    maker: Seat | None = None
    trump: Trump | None = None
    alone: bool = False
    """Whether the maker went alone."""
    defender: Seat | None = None
    """The seat that defended alone, if any."""
    maker_tricks: int | None = None
    """Tricks taken by the maker's side."""
    bid: int | None = None
    """The winning trick bid (ghost)."""
    taken: dict[Seat, int] | None = None
    """Tricks taken by each seat."""
    merged: bool = False
    """Whether the maker took up the dummy (cutthroat)."""
    swapped: Seat | None = None
    """The seat that swapped hands with the ghost hand (ghost)."""


@dataclass(frozen=True)
class Dealt:
    """The cards of one shuffle, as :class:`~euchrelog.engine.DealState` takes them."""

    hands: dict[Seat, list[Card]]
    upcard: Card | None
    kitty: list[Card] | None
    extra: list[Card] | None
    """The dummy or the ghost hand, in variants that deal one."""


def shuffle_deal(rng: random.Random, ruleset: Ruleset, dealer: Seat, *,
                 sort: bool = True) -> Dealt:
    """Shuffles the deck of ``ruleset`` and deals it from the dealer's left (F2); each
    hand sorted as a player sorts it, unless not ``sort``."""
    deck = list(make_deck(ruleset.options.deck))
    rng.shuffle(deck)
    size = ruleset.variant.hand_size
    order = clockwise_from(dealer.left, ruleset.seats)
    arrange = sort_hand if sort else list
    hands = {seat: arrange(deck[size * i:size * i + size]) for i, seat in enumerate(order)}
    k = size * len(order)
    extra = arrange(deck[k:k + ruleset.extra_size]) if ruleset.extra_size else None
    k += ruleset.extra_size
    upcard, kitty = (deck[k], deck[k + 1:]) if ruleset.variant.upcard else (None, None)
    return Dealt(hands, upcard, kitty, extra)


def new_deal(rng: random.Random, ruleset: Ruleset, dealer: Seat) -> DealState:
    """A :class:`~euchrelog.engine.DealState` of a new shuffle, every card known: the
    start of a deal for a bot to play.

    >>> from euchrelog.generate import ruleset_for
    >>> state = new_deal(random.Random(1), ruleset_for(), Seat.N)
    >>> state.phase.value, len(state.legal_actions())
    ('bidding', 2)
    """
    dealt = shuffle_deal(rng, ruleset, dealer, sort=False)  # (the state holds masks)
    return DealState(ruleset, dealer, hands=dealt.hands, upcard=dealt.upcard,
                     kitty=dealt.kitty, extra=dealt.extra)


class _DealPlayer:
    """Plays one deal at random through a :class:`DealState`."""

    def __init__(self, rng: random.Random, ruleset: Ruleset, number: int, dealer: Seat, *,
                 hands: Mapping[Seat, Sequence[Card]] | None = None,
                 upcard: Card | None = None, kitty: Sequence[Card] | None = None,
                 extra: Sequence[Card] | None = None,
                 merge: bool | None = None, alone: bool | None = None) -> None:
        self.rng = rng
        self.ruleset = ruleset
        self.variant = ruleset.variant
        self.seats = ruleset.seats
        self.number = number
        self.dealer = dealer
        self.force_merge = merge
        self.force_alone = alone
        if hands is None:
            dealt = shuffle_deal(rng, ruleset, dealer)
            hands, upcard, kitty, extra = dealt.hands, dealt.upcard, dealt.kitty, dealt.extra
        self.hands = {s: list(hands[s]) for s in self.seats}
        self.extra = list(extra) if extra is not None and ruleset.extra_hand else None
        self.upcard = upcard
        self.kitty = list(kitty) if kitty is not None else None
        self.state = DealState(ruleset, dealer, hands=self.hands, upcard=upcard,
                               kitty=self.kitty, extra=self.extra)
        self.bidding: list[Bidding] = []
        self.acts: list[Exchange | Declaration | Merge] = []
        """The exchange, the merge and lone declarations, in the order made."""
        self.tricks: list[Trick] = []
        self.true: dict[Seat, set[Card]] = {}
        """The cards a seat really holds, where the state only knows a superset (a swap the
        rules refuse may leave either hand with the seat)."""

    # ------------------------------------------------------------ bidding

    def _wants(self, seat: Seat, suit: Suit, round_: int) -> bool:
        hand = self.state.hands[seat].cards
        if round_ == 1 and seat == self.dealer and self.upcard is not None:
            hand.append(self.upcard)
        count = len(trumps_in(hand, suit))
        strength = hand_strength(hand, suit)
        if round_ == 1 and self.variant.partnership and seat.partner == self.dealer:
            strength += 1.0  # the upcard goes to the partner's hand
        strength += BOLDNESS.get(self.variant.name, 0.0)
        if count >= 3:
            chance = 0.9 if strength >= 5 else 0.7
        elif count == 2 and strength >= 5:
            chance = 0.35
        else:
            chance = 0.02
        return self.rng.random() < chance

    def _best_suit(self, seat: Seat, exclude: Suit | None) -> Suit:
        hand = self.state.hands[seat].cards
        suits = [s for s in Suit if s is not exclude]
        return max(suits, key=lambda s: (hand_strength(hand, s), self.rng.random()))

    def _best_tricks(self, seat: Seat) -> tuple[float, Suit]:
        hand = sort_hand(self.state.hands[seat].cards)  # a fixed order: the same float sums
        return max((expected_tricks(hand, s), s) for s in Suit)

    def bid(self, lines: dict[int, list[Bid]] | None = None) -> None:
        """Runs the bidding to its end: trump fixed or the deal thrown in.

        ``lines`` holds the bids made so far, by round.
        """
        state = self.state
        lines = {} if lines is None else lines
        while state.phase is Phase.BIDDING:
            round_ = state.round
            tricks = self.variant.bidding == "tricks"
            choice = self._trick_bid() if tricks else self._euchre_bid()
            state.do(choice)
            lines.setdefault(round_, []).append(choice)
        # (the models take the engine's plain acts as they are: ``cast`` says so to a type
        # checker without pydantic's plugin, as the compiled build's is)
        self.bidding = [Bidding(bids=cast(Any, tuple(bids))) for _, bids in sorted(lines.items())]

    def _euchre_bid(self) -> Bid:
        """The next act of two-round bidding (F3-F7, X3, T2, T3)."""
        state = self.state
        legal = [a for a in state.legal_actions() if isinstance(a, Pass | Order | Call)]
        assert legal, "no legal bid"
        round_ = state.round
        seat = legal[0].seat
        if round_ == 0:
            suit = self._best_suit(seat, None)
            return next(b for b in legal if isinstance(b, Call) and b.suit is suit)
        if round_ == 1:
            order = next((b for b in legal if isinstance(b, Order)), None)
            assert self.upcard is not None and self.upcard.suit is not None
            if order is not None and self._wants(seat, self.upcard.suit, 1):
                return order
            return next(b for b in legal if isinstance(b, Pass))
        calls = [b for b in legal if isinstance(b, Call)]
        no_trump = next((b for b in calls if b.suit is NO_TRUMP), None)
        if no_trump is not None and no_trump_strength(state.hands[seat].cards) >= 4.0 \
                and self.rng.random() < 0.8:
            return no_trump
        best = self._best_suit(seat, self.upcard.suit if self.upcard is not None else None)
        passing = next((b for b in legal if isinstance(b, Pass)), None)
        if passing is None or self._wants(seat, best, 2):
            return next(b for b in calls if b.suit is best)
        return passing

    def _trick_bid(self) -> Bid:
        """The next act of ghost-hand bidding (G2-G5): swap, pass, a trick bid, or the high
        bidder naming trump."""
        state = self.state
        legal = list(state.legal_actions())
        assert legal, "no legal bid"
        if state.naming:
            assert state.high is not None
            _, suit = self._best_tricks(state.high[0])
            return next(b for b in legal if isinstance(b, Call) and b.suit is suit)
        seat = legal[0].seat
        swap = Swap(act="swap", seat=seat)
        estimate, _ = self._best_tricks(seat)
        if swap in legal and estimate < 1.9 and self.rng.random() < 0.35:
            return swap
        numbers = sorted((b for b in legal if isinstance(b, Number)), key=lambda b: b.tricks)
        # The bidder names trump and leads: a hand is worth more than its estimate.
        reach = 1.3 * estimate + self.rng.uniform(-0.5, 0.5)
        moon = next((b for b in numbers if b.tricks == MOON), None)
        if moon is not None and reach >= 5.0 and self.rng.random() < 0.6:
            return moon
        within = [b for b in numbers if b.tricks < MOON and b.tricks <= reach]
        if within:
            return within[-1] if self.rng.random() < 0.25 else within[0]
        return next(b for b in legal if isinstance(b, Pass))

    # ------------------------------------------------------------ before the lead

    def exchange_and_declare(self) -> None:
        """The dealer's exchange (after a round-1 order or a Benny), the dummy merge and lone
        declarations."""
        state = self.state
        trump, maker = state.trump, state.maker
        assert trump is not None and maker is not None
        if self.variant.upcard and state.fixed_in_round in (0, 1):
            options = [a for a in state.legal_actions() if isinstance(a, Exchange)]
            declines = [a for a in options if a.act == "declines"]
            takes = [a for a in options if a.act == "takes"]
            maker_side = self.dealer in state.makers
            # (natural-pickup may leave the dealer only the decline)
            if declines and (not takes or self.rng.random() < (0.03 if maker_side else 0.15)):
                choice = declines[0]
            else:
                hand = state.hands[self.dealer].cards
                if self.upcard is not None:
                    hand.append(self.upcard)
                choice = min(takes, key=lambda ex: (
                    keep_value(ex.discard, hand, trump) if ex.discard else 999.0,
                    str(ex.discard)))
            state.do(choice)
            self.acts.append(choice)
        acts = list(state.legal_actions())
        decls = [a for a in acts if isinstance(a, Declaration)]
        lone = [d for d in decls if d.act == "alone"]  # the maker, or its partner (F9)
        must = state.check_canadian() is not None  # the dealer's partner ordered (H3)
        if lone and (must or self.force_alone is not False):
            alone = max(lone, key=lambda d: (hand_strength(state.hands[d.seat].cards, trump),
                                             d.seat == maker))
            hand = state.hands[alone.seat].cards
            count = len(trumps_in(hand, trump))
            strength = hand_strength(hand, trump)
            chance = 0.6 if count >= 4 and strength >= 7 else 0.3 if strength >= 8 else 0.01
            if must or self.force_alone or self.rng.random() < chance:
                state.do(alone)
                self.acts.append(alone)
        merges = [a for a in acts if isinstance(a, Merge)]
        if merges and state.alone is None and self.force_merge is not False:
            self._merge(maker, trump, merges)
        defends = [d for d in decls if d.act == "defend" and state.can(d)]
        if defends:
            best = max(defends, key=lambda d: (hand_strength(state.hands[d.seat].cards, trump),
                                               d.seat.value))
            strength = hand_strength(state.hands[best.seat].cards, trump)
            if state.alone is not None:
                chance = 0.5 if strength >= 6 else 0.08
            else:
                chance = 0.2 if strength >= 7 else 0.02
            if self.rng.random() < chance:
                state.do(best)
                self.acts.append(best)

    def _merge(self, maker: Seat, trump: Trump, merges: Sequence[Merge]) -> None:
        """Takes up the dummy (X5), keeping the best five of the ten cards by
        :func:`hand_value`, unless the maker does without (only under ``dummy=optional``)."""
        required = self.ruleset.options.dummy == "required" or self.force_merge
        if not required and self.rng.random() < 0.12:
            return
        worth = {c: card_worth(c, trump) for m in merges[:1] for c in self._ten(maker)}
        best = max(merges, key=lambda m: cards_worth((worth[c] for c in m.keeps or () if c), trump))
        kept = tuple(sort_hand(c for c in best.keeps or () if c))
        choice = Merge(act="merge", seat=maker, keeps=kept)
        self.state.do(choice)
        self.acts.append(choice)

    def _ten(self, maker: Seat) -> set[Card]:
        """The maker's hand and the dummy: the cards a merge keeps five of."""
        return set(self.state.hands[maker].cards) | set(self.state.extra.cards)

    # ------------------------------------------------------------ play

    def _allied(self, a: Seat, b: Seat) -> bool:
        """Whether ``a`` winning a trick is good for ``b``."""
        state = self.state
        if a == b or self.variant.partnership:
            return state.side(a) == state.side(b)
        if self.variant.scoring:  # cutthroat, three-hand: the defenders play together
            return a in state.defenders and b in state.defenders
        return False

    def _choose(self, legal: list[Play]) -> Play:
        state = self.state
        trump = state.trump
        assert trump is not None
        if len(legal) == 1 or self.rng.random() < 0.15:
            return self.rng.choice(legal)
        cards = [p.card for p in legal if p.card is not None]
        if not state.current:
            mine = trumps_in(cards, trump)
            seat = legal[0].seat
            if len(mine) >= 2 and seat in state.makers:
                best = max(mine, key=lambda c: trump_power(c, trump))
            else:
                off = [c for c in cards if c not in mine]
                pool = off or cards
                best = max(pool, key=lambda c: lead_weight(c, trump))
            return next(p for p in legal if p.card == best)
        played = [c for _, c in state.current if c is not None]
        led = effective_suit(played[0], trump)
        assert led is not None
        win = trick_winner(played, trump)
        winner = state.current[win][0]
        top = card_power(played[win], trump, led)
        seat = legal[0].seat
        if self._allied(winner, seat):
            pick = min(cards, key=lambda c: give_weight(c, trump, led))
        else:
            beating = [c for c in cards if card_power(c, trump, led) > top]
            pool = beating or cards
            pick = min(pool, key=lambda c: give_weight(c, trump, led))
        return next(p for p in legal if p.card == pick)

    def settle_hands(self) -> None:
        """Picks the hand a seat really holds when the state allows more than one, after a
        recorded bidding with a fault in it: one of the hands dealt (or the ghost hand) that
        the state allows."""
        size = self.variant.hand_size
        dealt = [set(h) for h in self.hands.values()]
        if self.extra is not None:
            dealt.append(set(self.extra))
        for seat in self.seats:
            known = set(self.state.hands[seat].cards)
            if len(known) > size:
                options = sorted((h for h in dealt if h <= known),
                                 key=lambda h: sorted(map(str, h)))
                assert options, f"deal {self.number}: {seat} holds no hand that was dealt"
                self.true[seat] = set(self.rng.choice(options))

    def _real(self, legal: list[Play]) -> list[Play]:
        """The legal plays of the cards the seat really holds, following suit with them."""
        seat = legal[0].seat
        true = self.true.get(seat)
        trump = self.state.trump
        if true is None or trump is None:
            return legal
        mine = [p for p in legal if p.card in true]
        current = self.state.current
        if current and current[0][1] is not None:
            led = effective_suit(current[0][1], trump)
            follow = [p for p in mine if p.card and effective_suit(p.card, trump) is led]
            mine = follow or mine
        return mine

    def play(self) -> None:
        """Plays the tricks of the deal."""
        state = self.state
        while state.phase is not Phase.DONE:
            legal = self._real([a for a in state.legal_actions() if isinstance(a, Play)])
            assert legal, f"deal {self.number}: no legal play"
            before = len(state.tricks)
            choice = self._choose(legal)
            state.do(choice)
            if choice.card is not None:
                self.true.get(choice.seat, set()).discard(choice.card)
            if len(state.tricks) > before:
                last = state.tricks[-1]
                self.tricks.append(Trick(number=len(state.tricks), plays=cast(
                    Any, tuple(Play(seat=s, card=c) for s, c in last))))

    # ------------------------------------------------------------ the whole deal

    def run(self) -> DealOutcome:
        """Bids, exchanges, merges, declares and plays; returns the record and its points."""
        self.bid()
        if self.state.phase is Phase.DECLARING:
            self.exchange_and_declare()
            self.play()
        return self.outcome()

    def outcome(self) -> DealOutcome:
        """The record of the deal as played so far, and its points."""
        state = self.state
        extra = (Extra(kind=self.ruleset.extra_hand, cards=tuple(self.extra))
                 if self.extra is not None and self.ruleset.extra_hand else None)
        up = (Upcard(card=self.upcard, kitty=tuple(self.kitty) if self.kitty is not None
                     else None) if self.variant.upcard else None)
        deal = Deal(number=self.number, dealer=self.dealer,
                    hands=(Hands(cards={s: tuple(self.hands[s]) for s in self.seats}),),
                    extra=extra, up=up, bidding=tuple(self.bidding),
                    acts=cast(Any, tuple(self.acts)), tricks=tuple(self.tricks))
        if state.phase is Phase.THROWN:
            return DealOutcome(deal, thrown=True, swapped=state.swapped)
        assert state.maker is not None
        taken = state.tricks_won()
        maker_tricks = state.maker_tricks()
        assert taken is not None and maker_tricks is not None
        bid = state.contract if not self.variant.scoring else None
        scored = state.points()
        assert scored is not None
        points = {s: scored[s] for s in self.ruleset.side_names if s in scored}
        return DealOutcome(deal, points, maker=state.maker, trump=state.trump,
                           alone=state.alone is not None, defender=state.defender,
                           maker_tricks=maker_tricks, bid=bid, taken=taken,
                           merged=state.merged, swapped=state.swapped)


def play_deal(rng: random.Random, ruleset: Ruleset, number: int, dealer: Seat, *,
              hands: Mapping[Seat, Sequence[Card]] | None = None,
              upcard: Card | None = None, kitty: Sequence[Card] | None = None,
              extra: Sequence[Card] | None = None,
              bids: Sequence[Bid] | None = None,
              merge: bool | None = None, alone: bool | None = None) -> DealOutcome:
    """Plays one deal at random, from a new shuffle or from the given cards.

    With ``bids``, the bidding is taken as recorded, applied leniently as the replay does
    (so it may hold a fault), and the deal goes on legally from there. ``merge`` and
    ``alone`` force the maker's choice (``None``: the maker chooses; ``False``: never;
    ``True``: whenever it is legal).
    """
    player = _DealPlayer(rng, ruleset, number, dealer, hands=hands, upcard=upcard, kitty=kitty,
                         extra=extra, merge=merge, alone=alone)
    if bids is None:
        return player.run()
    state = player.state
    lines: dict[int, list[Bid]] = {}
    for bid in bids:
        lines.setdefault(state.round, []).append(bid)
        state.apply_bid(bid)
    player.bid(lines)
    player.settle_hands()
    if state.phase is Phase.DECLARING:
        player.exchange_and_declare()
        player.play()
    return player.outcome()
