"""Random legal games of four-hand euchre, for samples and property tests.

:func:`random_game` deals, bids, exchanges, declares and plays whole games through
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
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .cards import Card, Rank, Suit, card_power, effective_suit, make_deck, trick_winner
from .engine import DealState, Phase
from .models import (
    Bid,
    Bidding,
    Call,
    Deal,
    Declaration,
    End,
    Exchange,
    Game,
    Hands,
    Order,
    Pass,
    Play,
    Score,
    Sheet,
    Tag,
    Trick,
    Upcard,
)
from .rules import FOUR_HAND, Options, Ruleset
from .seats import SEATS, Seat, clockwise_from

Detail = Literal["full", "play-only", "score-sheet", "unknown-cards"]
"""How much of each deal a generated record keeps."""

SEAT_TAGS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
"""The tag that names the player of each seat."""

DEFAULT_PLAYERS = {Seat.N: "Ann", Seat.E: "Ben", Seat.S: "Cleo", Seat.W: "Dev"}

MAX_DEALS = 500
"""A game that has not ended after this many deals is recorded as unfinished."""

_SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.SPADES: 2, Suit.HEARTS: 3}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Cards as a player sorts them: by suit, low to high, the joker last.

    >>> from euchrelog.cards import parse_card
    >>> [str(c) for c in sort_hand(parse_card(t) for t in "AH JK 9C TH".split())]
    ['9C', 'TH', 'AH', 'JK']
    """
    return sorted(cards, key=lambda c: (_SUIT_ORDER.get(c.suit, 9) if c.suit else 9,
                                        _RANK_ORDER[c.rank]))


# ---------------------------------------------------------------- card sense


def _trumps(hand: Iterable[Card], trump: Suit) -> list[Card]:
    return [c for c in hand if effective_suit(c, trump) is trump]


def _trump_power(card: Card, trump: Suit) -> int:
    return card_power(card, trump, trump)


def _strength(hand: Iterable[Card], trump: Suit) -> float:
    """A rough worth of a hand with ``trump``: about 3 tricks' worth at 6."""
    total = 0.0
    for card in hand:
        if effective_suit(card, trump) is trump:
            power = _trump_power(card, trump)
            total += 3.0 if power >= 200 else 2.0 if card.rank is Rank.ACE else 1.5
        elif card.rank is Rank.ACE:
            total += 1.0
    return total


def _keep_value(card: Card, hand: Sequence[Card], trump: Suit) -> float:
    """How much the dealer wants to keep ``card`` (the lowest is discarded)."""
    if effective_suit(card, trump) is trump:
        return 100.0 + _trump_power(card, trump)
    same = sum(1 for c in hand if effective_suit(c, trump) is card.suit)
    value = float(_RANK_ORDER[card.rank])
    if card.rank is Rank.ACE:
        value += 10.0
    return value - (0.5 if same == 1 else 0.0)


def _weight(card: Card, trump: Suit, led: Suit) -> tuple[int, int]:
    """Orders cards from cheapest to dearest to give away on a trick."""
    return (card_power(card, trump, led),
            _trump_power(card, trump) if effective_suit(card, trump) is trump
            else _RANK_ORDER[card.rank])


# ---------------------------------------------------------------- one deal


@dataclass
class DealOutcome:
    """What one generated deal was, beside its record."""

    deal: Deal
    """The full record of the deal, without points."""
    points: dict[str, int] = field(default_factory=dict)
    """Points scored, by side (empty for a thrown-in deal)."""
    thrown: bool = False
    """Whether everyone passed twice."""
    maker: Seat | None = None
    trump: Suit | None = None
    alone: bool = False
    """Whether the maker went alone."""
    defender: Seat | None = None
    """The seat that defended alone, if any."""
    maker_tricks: int | None = None
    """Tricks taken by the maker's side."""


class _DealPlayer:
    """Plays one deal at random through a :class:`DealState`."""

    def __init__(self, rng: random.Random, ruleset: Ruleset, number: int, dealer: Seat, *,
                 hands: Mapping[Seat, Sequence[Card]] | None = None,
                 upcard: Card | None = None, kitty: Sequence[Card] | None = None) -> None:
        self.rng = rng
        self.ruleset = ruleset
        self.number = number
        self.dealer = dealer
        if hands is None:
            deck = list(make_deck(ruleset.options.deck))
            rng.shuffle(deck)
            order = clockwise_from(dealer.left, SEATS)
            hands = {seat: sort_hand(deck[5 * i:5 * i + 5]) for i, seat in enumerate(order)}
            upcard = deck[20]
            kitty = deck[21:]
        assert upcard is not None and kitty is not None
        self.hands = {s: list(hands[s]) for s in SEATS}
        self.upcard = upcard
        self.kitty = list(kitty)
        self.state = DealState(ruleset, dealer, hands=self.hands, upcard=upcard,
                               kitty=self.kitty)
        self.bidding: list[Bidding] = []
        self.exchange: Exchange | None = None
        self.declarations: list[Declaration] = []
        self.tricks: list[Trick] = []

    # ------------------------------------------------------------ bidding

    def _wants(self, seat: Seat, suit: Suit, round_: int) -> bool:
        hand = list(self.state.hands[seat].known)
        if round_ == 1 and seat == self.dealer:
            hand.append(self.upcard)
        count = len(_trumps(hand, suit))
        strength = _strength(hand, suit)
        if round_ == 1 and seat.partner == self.dealer:
            strength += 1.0  # the upcard goes to the partner's hand
        if count >= 3:
            chance = 0.9 if strength >= 5 else 0.7
        elif count == 2 and strength >= 5:
            chance = 0.35
        else:
            chance = 0.02
        return self.rng.random() < chance

    def _best_suit(self, seat: Seat, exclude: Suit | None) -> Suit:
        hand = list(self.state.hands[seat].known)
        suits = [s for s in Suit if s is not exclude]
        return max(suits, key=lambda s: (_strength(hand, s), self.rng.random()))

    def bid(self, lines: dict[int, list[Bid]] | None = None) -> None:
        """Runs the bidding to its end: trump fixed or the deal thrown in.

        ``lines`` holds the bids made so far, by round.
        """
        state = self.state
        lines = {} if lines is None else lines
        while state.phase is Phase.BIDDING:
            legal = [a for a in state.legal_actions() if isinstance(a, Pass | Order | Call)]
            assert legal, "no legal bid"
            round_ = state.round
            seat = legal[0].seat
            choice: Bid
            if round_ == 0:
                suit = self._best_suit(seat, None)
                choice = next(b for b in legal if isinstance(b, Call) and b.suit is suit)
            elif round_ == 1:
                order = next((b for b in legal if isinstance(b, Order)), None)
                up_suit = self.upcard.suit
                assert up_suit is not None
                if order is not None and self._wants(seat, up_suit, 1):
                    choice = order
                else:
                    choice = next(b for b in legal if isinstance(b, Pass))
            else:
                calls = [b for b in legal if isinstance(b, Call)]
                best = self._best_suit(seat, self.upcard.suit)
                passing = next((b for b in legal if isinstance(b, Pass)), None)
                if passing is None or self._wants(seat, best, 2):
                    choice = next(b for b in calls if b.suit is best)
                else:
                    choice = passing
            state.bid(choice)
            lines.setdefault(round_, []).append(choice)
        self.bidding = [Bidding(bids=tuple(bids)) for _, bids in sorted(lines.items())]

    # ------------------------------------------------------------ before the lead

    def exchange_and_declare(self) -> None:
        """The dealer's exchange (after a round-1 order or a Benny) and lone declarations."""
        state = self.state
        trump, maker = state.trump, state.maker
        assert trump is not None and maker is not None
        if state.fixed_in_round in (0, 1):
            options = [a for a in state.legal_actions() if isinstance(a, Exchange)]
            declines = [a for a in options if a.act == "declines"]
            takes = [a for a in options if a.act == "takes"]
            maker_side = self.dealer in state.makers
            if declines and self.rng.random() < (0.03 if maker_side else 0.15):
                choice = declines[0]
            else:
                hand = [*state.hands[self.dealer].known, self.upcard]
                choice = min(takes, key=lambda ex: (
                    _keep_value(ex.discard, hand, trump) if ex.discard else 999.0,
                    str(ex.discard)))
            state.exchange(choice)
            self.exchange = choice
        decls = [a for a in state.legal_actions() if isinstance(a, Declaration)]
        alone = Declaration(act="alone", seat=maker)
        if alone in decls:
            hand = list(state.hands[maker].known)
            count = len(_trumps(hand, trump))
            strength = _strength(hand, trump)
            chance = 0.6 if count >= 4 and strength >= 7 else 0.3 if strength >= 8 else 0.01
            if self.rng.random() < chance:
                state.declare(alone)
                self.declarations.append(alone)
        defends = [d for d in state.legal_actions()
                   if isinstance(d, Declaration) and d.act == "defend"]
        if defends:
            best = max(defends, key=lambda d: (_strength(state.hands[d.seat].known, trump),
                                               d.seat.value))
            strength = _strength(state.hands[best.seat].known, trump)
            if state.alone is not None:
                chance = 0.5 if strength >= 6 else 0.08
            else:
                chance = 0.2 if strength >= 7 else 0.02
            if self.rng.random() < chance:
                state.declare(best)
                self.declarations.append(best)

    # ------------------------------------------------------------ play

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
                best = max(pool, key=lambda c: _weight(c, trump, effective_suit(c, trump)
                                                        or trump))
            return next(p for p in legal if p.card == best)
        played = [c for _, c in state.current if c is not None]
        led = effective_suit(played[0], trump)
        assert led is not None
        win = trick_winner(played, trump)
        winner = state.current[win][0]
        top = card_power(played[win], trump, led)
        seat = legal[0].seat
        if state.side(winner) == state.side(seat):
            pick = min(cards, key=lambda c: _weight(c, trump, led))
        else:
            beating = [c for c in cards if card_power(c, trump, led) > top]
            pool = beating or cards
            pick = min(pool, key=lambda c: _weight(c, trump, led))
        return next(p for p in legal if p.card == pick)

    def play(self) -> None:
        """Plays the five tricks."""
        state = self.state
        while state.phase is not Phase.DONE:
            legal = [a for a in state.legal_actions() if isinstance(a, Play)]
            assert legal, f"deal {self.number}: no legal play"
            before = len(state.tricks)
            state.play(self._choose(legal))
            if len(state.tricks) > before:
                last = state.tricks[-1]
                self.tricks.append(Trick(number=len(state.tricks),
                                         plays=tuple(Play(seat=s, card=c) for s, c in last)))

    # ------------------------------------------------------------ the whole deal

    def run(self) -> DealOutcome:
        """Bids, exchanges, declares and plays; returns the record and its points."""
        self.bid()
        if self.state.phase is Phase.DECLARING:
            self.exchange_and_declare()
            self.play()
        return self.outcome()

    def outcome(self) -> DealOutcome:
        """The record of the deal as played so far, and its points."""
        state = self.state
        deal = Deal(number=self.number, dealer=self.dealer,
                    hands=(Hands(cards={s: tuple(self.hands[s]) for s in SEATS}),),
                    up=Upcard(card=self.upcard, kitty=tuple(self.kitty)),
                    bidding=tuple(self.bidding), exchange=self.exchange,
                    declarations=tuple(self.declarations), tricks=tuple(self.tricks))
        if state.phase is Phase.THROWN:
            return DealOutcome(deal, thrown=True)
        assert state.maker is not None
        maker_tricks = state.maker_tricks()
        assert maker_tricks is not None
        who, points = self.ruleset.deal_points(maker_tricks, maker_alone=state.alone is not None,
                                               defender_alone=state.defender is not None)
        maker_side = state.side(state.maker)
        sides = self.ruleset.side_names
        side = maker_side if who == "makers" else next(s for s in sides if s != maker_side)
        return DealOutcome(deal, {side: points}, maker=state.maker, trump=state.trump,
                           alone=state.alone is not None, defender=state.defender,
                           maker_tricks=maker_tricks)


def play_deal(rng: random.Random, ruleset: Ruleset, number: int, dealer: Seat, *,
              hands: Mapping[Seat, Sequence[Card]] | None = None,
              upcard: Card | None = None, kitty: Sequence[Card] | None = None,
              bids: Sequence[Bid] | None = None) -> DealOutcome:
    """Plays one deal at random, from a new shuffle or from the given cards.

    With ``bids``, the bidding is taken as recorded, applied leniently as the replay does
    (so it may hold a fault), and the deal goes on legally from there.
    """
    player = _DealPlayer(rng, ruleset, number, dealer, hands=hands, upcard=upcard, kitty=kitty)
    if bids is None:
        return player.run()
    state = player.state
    lines: dict[int, list[Bid]] = {}
    for bid in bids:
        lines.setdefault(state.round, []).append(bid)
        state.apply_bid(bid)
    player.bid(lines)
    if state.phase is Phase.DECLARING:
        player.exchange_and_declare()
        player.play()
    return player.outcome()


# ---------------------------------------------------------------- a whole game


def game_tags(ruleset: Ruleset, *, players: Mapping[Seat, str] | None = None,
              tags: Mapping[str, str] | None = None) -> list[Tag]:
    """The header of a generated game: ``tags`` first, then Variant, Deck, Target, Rules
    and the players."""
    out = [Tag(name=k, value=v) for k, v in (tags or {"Event": "Random game"}).items()]
    out.append(Tag(name="Variant", value=ruleset.variant.name))
    options = ruleset.options
    if options.deck != ruleset.variant.decks[0]:
        out.append(Tag(name="Deck", value=str(options.deck)))
    if options.deals is None:
        out.append(Tag(name="Target", value=str(options.target)))
    rest = replace(options, deck=ruleset.variant.decks[0], target=ruleset.variant.target)
    spelled = rest.spell(ruleset.variant)
    if spelled:
        out.append(Tag(name="Rules", value=spelled))
    names = players if players is not None else DEFAULT_PLAYERS
    out.extend(Tag(name=SEAT_TAGS[s], value=names[s]) for s in SEATS if s in names)
    return out


def finish_game(rng: random.Random, ruleset: Ruleset, deals: Sequence[DealOutcome], *,
                first_dealer: Seat = Seat.N,
                stop_after: int | None = None) -> tuple[list[Deal], End]:
    """Scores ``deals`` (played already, perhaps none) and plays new ones until the game
    ends; returns the scored deal records and the end line.

    A game that ends within ``deals`` is cut there. With ``stop_after``, the record stops
    after that many deals and, if the game has not ended, is marked unfinished.
    """
    options = ruleset.options
    sides = ruleset.side_names
    totals = dict.fromkeys(sides, 0)
    records: list[Deal] = []
    dealer = first_dealer
    limit = min(stop_after or MAX_DEALS, MAX_DEALS)
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
        dealer = clockwise_from(dealer.left, ruleset.seats)[0]
        done = (len(records) >= options.deals if options.deals
                else max(totals.values()) >= options.target)
        if done:
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
    """Plays a whole random game of four-hand euchre and returns its record.

    :param ruleset: the house rules (default: the rulings of RULES.md).
    :param players: the player of each seat (default: four stock names).
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
    if ruleset.variant is not FOUR_HAND:
        raise ValueError(f"only four-hand games can be generated, not {ruleset.variant.name}")
    dealer = first_dealer if first_dealer is not None else rng.choice(SEATS)
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


def ruleset_for(**options: object) -> Ruleset:
    """A four-hand ruleset from option names as keywords (``deck=25``, ``stick_the_dealer``).

    >>> ruleset_for(deck=32, stick_the_dealer=True).options.spell(FOUR_HAND)
    'deck=32 stick-the-dealer'
    """
    return Ruleset(FOUR_HAND, replace(Options(), **options))  # type: ignore[arg-type]


# ---------------------------------------------------------------- partial records


def play_only(game: Game) -> Game:
    """The game without the hands and the kitty: what the table saw played."""
    deals = []
    for deal in game.deals:
        up = deal.up.model_copy(update={"kitty": None}) if deal.up is not None else None
        deals.append(deal.model_copy(update={"hands": (), "up": up}))
    return game.model_copy(update={"deals": tuple(deals)})


def contract(deal: Deal) -> tuple[Suit, Seat] | None:
    """Trump and maker as the bidding of a deal fixed them (``None``: thrown in or no bids).

    >>> deal = Deal.model_validate({"number": 1, "dealer": "N", "up": {"card": "9H"},
    ...     "bidding": [{"bids": [{"act": "pass", "seat": "E"}, {"act": "order", "seat": "S"}]}]})
    >>> contract(deal)
    (<Suit.HEARTS: 'H'>, <Seat.S: 'S'>)
    """
    made = next((b for b in deal.bids if not isinstance(b, Pass)), None)
    if made is None:
        return None
    if isinstance(made, Call):
        return made.suit, made.seat
    if deal.up is None or deal.up.card is None or deal.up.card.suit is None:
        return None
    return deal.up.card.suit, made.seat


def _sheet(deal: Deal) -> Sheet:
    """The score-sheet line of a fully recorded deal."""
    fixed = contract(deal)
    if fixed is None:
        return Sheet(thrown=True)
    trump, maker = fixed
    alone = any(d.act == "alone" and d.seat == maker for d in deal.declarations)
    defend = next((d.seat for d in deal.declarations if d.act == "defend"), None)
    side = {maker, maker.partner}
    tricks = 0
    for trick in deal.tricks:
        cards = [p.card for p in trick.plays]
        known = [c for c in cards if c is not None]
        if len(known) != len(cards) or not known:
            raise ValueError(f"deal {deal.number}: a trick with unknown cards has no winner")
        if trick.plays[trick_winner(known, trump)].seat in side:
            tricks += 1
    return Sheet(trump=trump, maker=maker, alone=alone, defend=defend, tricks=tricks)


def score_sheet(game: Game) -> Game:
    """The game as a scorer writes it: per deal the dealer, a sheet line and the points."""
    deals = [Deal(number=d.number, dealer=d.dealer, sheet=_sheet(d), score=d.score,
                  before=d.before, note=d.note) for d in game.deals]
    return game.model_copy(update={"deals": tuple(deals)})


def hide_cards(game: Game, rng: random.Random, rate: float = 0.2) -> Game:
    """The game with about ``rate`` of the cards in the hands and kitty unknown (``??``).

    The upcard and the plays stay known, so every deal still scores.
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
        deals.append(deal.model_copy(update={"hands": hands, "up": up}))
    return game.model_copy(update={"deals": tuple(deals)})


__all__ = [
    "DEFAULT_PLAYERS", "SEAT_TAGS", "DealOutcome", "Detail", "contract", "finish_game", "game_tags",
    "hide_cards", "play_deal", "play_only", "random_game", "ruleset_for", "score_sheet",
    "sort_hand",
]
