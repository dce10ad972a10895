"""Random legal games of every variant, for samples and property tests.

:func:`random_game` deals, bids, exchanges, merges, declares and plays whole games through
:class:`~euchrelog.engine.DealState`, choosing every act among the legal ones with a
simple card sense, so a generated record is legal by construction. :func:`play_only`,
:func:`score_sheet` and :func:`hide_cards` reduce a full record to the partial forms a
record may take (RULES.md, "What a record may leave out").

>>> import random
>>> from euchrelog.replay import replay
>>> game = random_game(random.Random(7))
>>> game.tag("Variant"), replay(game).findings
('four-hand', [])
>>> replay(score_sheet(game)).winner == game.end.winner
True
>>> ghost = random_game(random.Random(7), ruleset_for(variant="ghost"))
>>> replay(ghost).findings, replay(score_sheet(ghost)).winner == ghost.end.winner
([], True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .cards import (
    NO_TRUMP,
    Card,
    Rank,
    Suit,
    Trump,
    card_power,
    effective_suit,
    make_deck,
    sort_hand,
    trick_winner,
)
from .engine import DealState, Phase
from .models import (
    Bid,
    Bidding,
    Call,
    Deal,
    Declaration,
    End,
    Exchange,
    Extra,
    Game,
    Hands,
    Merge,
    Number,
    Order,
    Pass,
    Play,
    Score,
    Sheet,
    Swap,
    Tag,
    Trick,
    Upcard,
)
from .rules import FOUR_HAND, MOON, Options, Ruleset, Variant, find_variant, ruleset_from_tags
from .seats import SEATS, Seat, clockwise_from, parse_seat

Detail = Literal["full", "play-only", "score-sheet", "unknown-cards"]
"""How much of each deal a generated record keeps."""

SEAT_TAGS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
"""The tag that names the player of each seat."""

DEFAULT_PLAYERS = {Seat.N: "Ann", Seat.E: "Ben", Seat.S: "Cleo", Seat.W: "Dev"}

MAX_DEALS = 500
"""A game that has not ended after this many deals is recorded as unfinished."""


_RANK_ORDER = {r: i for i, r in enumerate(Rank)}

_BOLDNESS = {"four-hand": 0.0, "cutthroat": 0.5, "three-hand": 0.5, "two-hand": 0.5}
"""How much more a hand is worth when bidding, by variant: with three or two at the table
fewer cards are out against the maker (and in cutthroat the maker may merge the dummy)."""


# ---------------------------------------------------------------- card sense


def _trumps(hand: Iterable[Card], trump: Trump) -> list[Card]:
    return [c for c in hand if effective_suit(c, trump) is trump]


def _trump_power(card: Card, trump: Trump) -> int:
    return card_power(card, trump, trump) if isinstance(trump, Suit) else 0


def _strength(hand: Iterable[Card], trump: Trump) -> float:
    """A rough worth of a hand with ``trump``: about 3 tricks' worth at 6."""
    total = 0.0
    for card in hand:
        if effective_suit(card, trump) is trump:
            power = _trump_power(card, trump)
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
    trumps = _trumps(cards, trump)
    suits = Counter(effective_suit(c, trump) for c in cards)
    total = 0.0
    for card in cards:
        if card in trumps:
            power = _trump_power(card, trump)
            total += 1.0 if power >= 201 else 0.85 if power == 200 else _TRUMP_TRICKS.get(
                card.rank, 0.35)
        elif card.rank is Rank.ACE:
            total += 0.6
        elif card.rank is Rank.KING and suits[card.suit] >= 2:
            total += 0.2
    if len(trumps) >= 4:
        total += 0.4 * (len(trumps) - 3)
    return total


def _card_worth(card: Card, trump: Trump) -> tuple[Suit, float, bool]:
    """A card's effective suit, its worth to :func:`hand_value` and whether it is a side
    king (worth more when guarded)."""
    suit = effective_suit(card, trump)
    assert suit is not None
    if suit is trump:
        power = _trump_power(card, trump)
        return suit, 10.0 + (power - 190 if power >= 200 else power - 100), False
    if card.rank is Rank.ACE:
        return suit, 7.0, False
    if card.rank is Rank.KING:
        return suit, 0.0, True
    return suit, 0.1 * _RANK_ORDER[card.rank], False


def _worth(cards: Iterable[tuple[Suit, float, bool]], trump: Trump) -> float:
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
    return _worth((_card_worth(c, trump) for c in hand), trump)


def _keep_value(card: Card, hand: Sequence[Card], trump: Trump) -> float:
    """How much the dealer wants to keep ``card`` (the lowest is discarded)."""
    if effective_suit(card, trump) is trump:
        return 100.0 + _trump_power(card, trump)
    same = sum(1 for c in hand if effective_suit(c, trump) is card.suit)
    value = float(_RANK_ORDER[card.rank])
    if card.rank is Rank.ACE:
        value += 10.0
    return value - (0.5 if same == 1 else 0.0)


def _weight(card: Card, trump: Trump, led: Suit) -> tuple[int, int]:
    """Orders cards from cheapest to dearest to give away on a trick."""
    return (card_power(card, trump, led),
            _trump_power(card, trump) if effective_suit(card, trump) is trump
            else _RANK_ORDER[card.rank])


def _lead_weight(card: Card, trump: Trump) -> tuple[int, int]:
    """:func:`_weight` of a card as the lead of a trick."""
    led = effective_suit(card, trump)
    assert led is not None
    return _weight(card, trump, led)


def _no_trump_strength(hand: Iterable[Card]) -> float:
    """A rough worth of a hand with no trump (H5): aces, and kings beside them."""
    cards = list(hand)
    aces = {c.suit for c in cards if c.rank is Rank.ACE}
    return sum(2.0 if c.rank is Rank.ACE else 1.0 if c.rank is Rank.KING and c.suit in aces
               else 0.0 for c in cards)


# ---------------------------------------------------------------- one deal


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
        self.exchange: Exchange | None = None
        self.declarations: list[Declaration | Merge] = []
        self.tricks: list[Trick] = []
        self.true: dict[Seat, set[Card]] = {}
        """The cards a seat really holds, where the state only knows a superset (a swap the
        rules refuse may leave either hand with the seat)."""

    # ------------------------------------------------------------ bidding

    def _wants(self, seat: Seat, suit: Suit, round_: int) -> bool:
        hand = self.state.hands[seat].cards
        if round_ == 1 and seat == self.dealer and self.upcard is not None:
            hand.append(self.upcard)
        count = len(_trumps(hand, suit))
        strength = _strength(hand, suit)
        if round_ == 1 and self.variant.partnership and seat.partner == self.dealer:
            strength += 1.0  # the upcard goes to the partner's hand
        strength += _BOLDNESS.get(self.variant.name, 0.0)
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
        return max(suits, key=lambda s: (_strength(hand, s), self.rng.random()))

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
            state.bid(choice)
            lines.setdefault(round_, []).append(choice)
        self.bidding = [Bidding(bids=tuple(bids)) for _, bids in sorted(lines.items())]

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
        if no_trump is not None and _no_trump_strength(state.hands[seat].cards) >= 4.0 \
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
                    _keep_value(ex.discard, hand, trump) if ex.discard else 999.0,
                    str(ex.discard)))
            state.exchange(choice)
            self.exchange = choice
        acts = list(state.legal_actions())
        decls = [a for a in acts if isinstance(a, Declaration)]
        lone = [d for d in decls if d.act == "alone"]  # the maker, or its partner (F9)
        must = state.check_canadian() is not None  # the dealer's partner ordered (H3)
        if lone and (must or self.force_alone is not False):
            alone = max(lone, key=lambda d: (_strength(state.hands[d.seat].cards, trump),
                                             d.seat == maker))
            hand = state.hands[alone.seat].cards
            count = len(_trumps(hand, trump))
            strength = _strength(hand, trump)
            chance = 0.6 if count >= 4 and strength >= 7 else 0.3 if strength >= 8 else 0.01
            if must or self.force_alone or self.rng.random() < chance:
                state.declare(alone)
                self.declarations.append(alone)
        merges = [a for a in acts if isinstance(a, Merge)]
        if merges and state.alone is None and self.force_merge is not False:
            self._merge(maker, trump, merges)
        defends = [d for d in decls if d.act == "defend" and state.can_declare(d)]
        if defends:
            best = max(defends, key=lambda d: (_strength(state.hands[d.seat].cards, trump),
                                               d.seat.value))
            strength = _strength(state.hands[best.seat].cards, trump)
            if state.alone is not None:
                chance = 0.5 if strength >= 6 else 0.08
            else:
                chance = 0.2 if strength >= 7 else 0.02
            if self.rng.random() < chance:
                state.declare(best)
                self.declarations.append(best)

    def _merge(self, maker: Seat, trump: Trump, merges: Sequence[Merge]) -> None:
        """Takes up the dummy (X5), keeping the best five of the ten cards by
        :func:`hand_value`, unless the maker does without (only under ``dummy=optional``)."""
        required = self.ruleset.options.dummy == "required" or self.force_merge
        if not required and self.rng.random() < 0.12:
            return
        worth = {c: _card_worth(c, trump) for m in merges[:1] for c in self._ten(maker)}
        best = max(merges, key=lambda m: _worth((worth[c] for c in m.keeps or () if c), trump))
        kept = tuple(sort_hand(c for c in best.keeps or () if c))
        choice = Merge(act="merge", seat=maker, keeps=kept)
        self.state.merge(choice)
        self.declarations.append(choice)

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
            mine = _trumps(cards, trump)
            seat = legal[0].seat
            if len(mine) >= 2 and seat in state.makers:
                best = max(mine, key=lambda c: _trump_power(c, trump))
            else:
                off = [c for c in cards if c not in mine]
                pool = off or cards
                best = max(pool, key=lambda c: _lead_weight(c, trump))
            return next(p for p in legal if p.card == best)
        played = [c for _, c in state.current if c is not None]
        led = effective_suit(played[0], trump)
        assert led is not None
        win = trick_winner(played, trump)
        winner = state.current[win][0]
        top = card_power(played[win], trump, led)
        seat = legal[0].seat
        if self._allied(winner, seat):
            pick = min(cards, key=lambda c: _weight(c, trump, led))
        else:
            beating = [c for c in cards if card_power(c, trump, led) > top]
            pool = beating or cards
            pick = min(pool, key=lambda c: _weight(c, trump, led))
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
            state.play(choice)
            if choice.card is not None:
                self.true.get(choice.seat, set()).discard(choice.card)
            if len(state.tricks) > before:
                last = state.tricks[-1]
                self.tricks.append(Trick(number=len(state.tricks),
                                         plays=tuple(Play(seat=s, card=c) for s, c in last)))

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
                    extra=extra, up=up, bidding=tuple(self.bidding), exchange=self.exchange,
                    declarations=tuple(self.declarations),
                    tricks=tuple(self.tricks))
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


# ---------------------------------------------------------------- a whole game


def game_tags(ruleset: Ruleset, *, players: Mapping[Seat, str] | None = None,
              tags: Mapping[str, str] | None = None) -> list[Tag]:
    """The header of a generated game: ``tags`` first, then Variant, Seats (when not the
    variant's), Deck, Target, Rules and the players of the seats in play."""
    out = [Tag(name=k, value=v) for k, v in (tags or {"Event": "Random game"}).items()]
    variant = ruleset.variant
    out.append(Tag(name="Variant", value=variant.name))
    if ruleset.seats != variant.seats:
        out.append(Tag(name="Seats", value=" ".join(ruleset.seats)))
    options = ruleset.options
    if options.deck != variant.decks[0]:
        out.append(Tag(name="Deck", value=str(options.deck)))
    if options.deals is None:
        out.append(Tag(name="Target", value=str(options.target)))
    rest = replace(options, deck=variant.decks[0], target=variant.target)
    spelled = rest.spell(variant)
    if spelled:
        out.append(Tag(name="Rules", value=spelled))
    names = players if players is not None else DEFAULT_PLAYERS
    out.extend(Tag(name=SEAT_TAGS[s], value=names[s]) for s in ruleset.seats if s in names)
    return out


def finish_game(rng: random.Random, ruleset: Ruleset, deals: Sequence[DealOutcome], *,
                first_dealer: Seat = Seat.N,
                stop_after: int | None = None) -> tuple[list[Deal], End]:
    """Scores ``deals`` (played already, perhaps none) and plays new ones until the game
    ends; returns the scored deal records and the end line.

    A game that ends within ``deals`` is cut there. With ``stop_after``, the record stops
    after that many deals and, if the game has not ended, is marked unfinished.
    """
    sides = ruleset.side_names
    totals = dict.fromkeys(sides, 0)
    records: list[Deal] = []
    dealer = first_dealer
    limit = min(stop_after or MAX_DEALS, MAX_DEALS)
    counted = 0
    while len(records) < limit:
        k = len(records)
        if k < len(deals):
            outcome = deals[k]
            dealer = outcome.deal.dealer
        else:
            outcome = play_deal(rng, ruleset, k + 1, dealer)
        for side, n in outcome.points.items():
            totals[side] += n
        deal = outcome.deal
        if not outcome.thrown:
            deal = deal.model_copy(update={"score": Score(points=dict(outcome.points),
                                                          total=dict(totals))})
        records.append(deal)
        dealer = ruleset.next_dealer(dealer, outcome.thrown)
        counted += ruleset.counts(outcome.thrown)
        if ruleset.outcome(totals, counted) is not None:
            best = max(totals.values())
            leaders = [s for s in sides if totals[s] == best]
            winner = leaders[0] if len(leaders) == 1 else None
            return records, End(act="result", scores=dict(totals), winner=winner)
    return records, End(act="unfinished")


def random_game(rng: random.Random, ruleset: Ruleset | None = None, *,
                players: Mapping[Seat, str] | None = None,
                tags: Mapping[str, str] | None = None,
                detail: Detail = "full",
                first_dealer: Seat | None = None,
                stop_after: int | None = None,
                unknown_rate: float = 0.2) -> Game:
    """Plays a whole random game of any variant and returns its record.

    :param ruleset: the variant, house rules and seats (default: four-hand with the
        rulings of RULES.md).
    :param players: the player of each seat (default: stock names); only the seats in play
        are named.
    :param tags: tags to put first, e.g. Event and Date (default: an Event tag).
    :param detail: ``full`` records everything; ``play-only``, ``score-sheet`` and
        ``unknown-cards`` reduce the record as :func:`play_only`, :func:`score_sheet`
        and :func:`hide_cards` do.
    :param first_dealer: the dealer of deal 1 (default: drawn at random).
    :param stop_after: stop the record after this many deals (marked unfinished if the game
        had not ended by then).
    :param unknown_rate: the share of cards :func:`hide_cards` hides.
    """
    ruleset = ruleset or Ruleset()
    dealer = first_dealer if first_dealer is not None else rng.choice(ruleset.seats)
    if dealer not in ruleset.seats:
        raise ValueError(f"the first dealer {dealer} has no player in this game")
    deals, end = finish_game(rng, ruleset, (), first_dealer=dealer, stop_after=stop_after)
    game = Game(tags=tuple(game_tags(ruleset, players=players, tags=tags)), deals=tuple(deals),
                end=end)
    if detail == "play-only":
        return play_only(game)
    if detail == "score-sheet":
        return score_sheet(game)
    if detail == "unknown-cards":
        return hide_cards(game, rng, unknown_rate)
    return game


def ruleset_for(variant: str | Variant = FOUR_HAND, seats: str | Sequence[Seat] = (),
                **options: object) -> Ruleset:
    """A ruleset from a variant (name or object), seats (``"N E W"``) and option names as
    keywords (``deck=25``, ``stick_the_dealer=True``); options not given take the variant's
    defaults.

    >>> ruleset_for(deck=32, stick_the_dealer=True).options.spell(FOUR_HAND)
    'deck=32 stick-the-dealer'
    >>> rules = ruleset_for("cutthroat", "N E W", dummy="required")
    >>> rules.seats, rules.options.spell(rules.variant)
    ((<Seat.N: 'N'>, <Seat.E: 'E'>, <Seat.W: 'W'>), 'dummy=required')
    """
    kind = find_variant(variant) if isinstance(variant, str) else variant
    chosen = tuple(parse_seat(s) for s in seats.split()) if isinstance(seats, str) else tuple(
        seats)
    ordered = tuple(s for s in SEATS if s in chosen)
    base = Options.defaults(kind)
    return Ruleset(kind, replace(base, **options), ordered)  # type: ignore[arg-type]


# ---------------------------------------------------------------- partial records


def play_only(game: Game) -> Game:
    """The game without the hands, the dummy or ghost hand, the kitty and the cards kept in a
    merge: what the table saw played."""
    deals = []
    for deal in game.deals:
        up = deal.up.model_copy(update={"kitty": None}) if deal.up is not None else None
        acts = tuple(a.model_copy(update={"keeps": None}) if isinstance(a, Merge) else a
                     for a in deal.declarations)
        deals.append(deal.model_copy(update={"hands": (), "up": up, "extra": None,
                                             "declarations": acts}))
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


__all__ = [
    "DEFAULT_PLAYERS", "SEAT_TAGS", "DealOutcome", "Detail", "contract", "expected_tricks",
    "finish_game", "game_tags", "hand_value", "hide_cards", "play_deal",
    "play_only", "random_game", "ruleset_for", "score_sheet", "trick_bid",
    "tricks_taken",
]
