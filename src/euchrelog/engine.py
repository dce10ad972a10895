"""The state of one deal, with verify / can / do for every act.

:class:`DealState` is the one place that knows what is legal. Bots and the recorder call
:meth:`~DealState.verify` (raises :class:`~euchrelog.errors.IllegalActionError`),
:meth:`~DealState.can` (a bool) and :meth:`~DealState.do` (verifies, then changes the
state) for any act, or the per-kind aliases (``verify_bid``, ``can_play``, ``play``, ...);
:meth:`DealState.legal_actions` lists exactly the acts ``do`` takes now, and every act has
a number (:meth:`DealState.legal_action_ids`, :meth:`DealState.do_id`; docs/api.md).
The replay of a record uses the lenient pair instead:
``check_*`` returns the fault, ``apply_*`` applies the act as recorded anyway, so one
mistake yields one finding and the rest of the deal is still checked. :meth:`DealState.run`
is the bulk entry that proves a whole deal clean (the fast path of ``check``), with the
same rules.

What the record puts in each hand, what the hand surely holds and the cards played are
masks of cards (:attr:`~euchrelog.cards.Card.bit`), as are the suits under each trump; the
place of every other card is a table by card, and a trick a list of (seat, card) pairs.
The common case of a legal play is a few bit tests (:meth:`DealState._plain`), and only a
play that fails them is looked into for its finding.

>>> from euchrelog.cards import parse_card
>>> from euchrelog.models import Exchange, Order, Pass, Play
>>> from euchrelog.seats import Seat
>>> hands = {Seat.E: "9C TC QS KS AD", Seat.S: "9S TS AS 9D TD",
...          Seat.W: "JD AH KH QH 9H", Seat.N: "AC KC QC JC KD"}
>>> state = DealState(Ruleset(), Seat.N,
...                   hands={s: [parse_card(c) for c in h.split()] for s, h in hands.items()},
...                   upcard=parse_card("JH"))
>>> state.bid(Pass(act="pass", seat=Seat.E))
>>> state.can_bid(Order(act="order", seat=Seat.W))
False
>>> state.bid(Order(act="order", seat=Seat.S)); state.trump
<Suit.HEARTS: 'H'>
>>> state.exchange_due, len(state.legal_actions()), state.legal_action_ids()[:2]
(True, 10, [37, 38])
>>> state.do(Exchange(seat=Seat.N, discard=parse_card("KD"))); state.to_play()
<Seat.E: 'E'>
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from operator import attrgetter
from typing import Any, cast

from .actions import (
    ACTION_COUNT,
    ALONE_ID,
    BID_ID,
    CALL_ID,
    CARDS_BY_NUMBER,
    DECLINE_ID,
    DEFEND_ID,
    DISCARD_ID,
    MERGE_ID,
    MERGE_KEEPS_ID,
    NUMBERED,
    PARTNER_ALONE_ID,
    PLAIN_BIDS,
    SEAT_NUMBER,
    SEATS_BY_NUMBER,
    SUIT_NUMBER,
    bid_candidates,
    bid_of,
    by_name,
    card_number,
    combination,
    combination_rank,
    declaration_act,
    exchange_act,
    numbers_of,
    pickups,
    play_table,
    plays_of,
    subsets,
    unnamed_merge,
)
from .cards import (
    CARD_SLOTS,
    JOKER,
    NO_TRUMP,
    Card,
    Suit,
    Trump,
    card_at,
    cards_of,
    deck_mask,
    follow_masks,
    mask_of,
    sort_hand,
    suit_list,
    trick_winner_on,
)
from .errors import IllegalActionError, RenegeError
from .models import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from .rules import MOON, Ruleset
from .seats import Seat, clockwise_from

Action = Pass | Order | Call | Number | Swap | Exchange | Merge | Declaration | Play
"""Any act :meth:`DealState.legal_actions` can offer."""

Played = tuple[Seat, Card | None]
"""A card played, by its seat (``None``: a card the record does not know), as the tricks of
:class:`DealState` hold it."""

_NO_EXCHANGE = "K501"
"""The fault of an exchange that could not happen at all, which is not applied."""


class Phase(Enum):
    """Where a deal stands."""

    BIDDING = "bidding"
    DECLARING = "declaring"
    """Trump is fixed; the exchange and lone declarations may come before the first lead."""
    PLAYING = "playing"
    DONE = "done"
    THROWN = "thrown"
    """Everyone passed both rounds."""


@dataclass(slots=True)
class HandInfo:
    """What the record tells of one seat's hand, as masks of cards
    (:attr:`~euchrelog.cards.Card.bit`)."""

    known: int = 0
    """The cards the record puts in the hand, not yet played (some may be gone: a discard
    the record does not name)."""
    held: int = 0
    """The cards of ``known`` that are surely still in the hand: they prove a renege."""
    free: int = 0
    """Slots whose card the record does not know."""

    @property
    def cards(self) -> list[Card]:
        """The cards of :attr:`known`, in a fixed order."""
        return cards_of(self.known)

    def __str__(self) -> str:
        """The cards of the hand, ``??`` for each slot not known: ``9C TC JH ??``."""
        return " ".join([*map(str, sort_hand(self.cards)), *["??"] * self.free]) or "-"

    def __repr__(self) -> str:
        """The masks as cards: ``HandInfo(known=9C TC JH, held=9C TC, free=1)``."""
        return (f"HandInfo(known={_card_list(self.known)}, held={_card_list(self.held)}, "
                f"free={self.free})")


@dataclass(frozen=True)
class Evidence:
    """A renege proved by a later play (P1): where it happened and what proves it."""

    seat: Seat
    trick: int
    """0-based trick index of the renege."""
    play: int
    """0-based play index of the renege in its trick."""
    led: Suit
    card: Card
    """The card played on the renege."""
    proof: Card
    proof_trick: int


_NO_PROOFS: tuple[Evidence, ...] = ()
"""No reneges proved (an act that is no play)."""


class DealState:
    """The mutable state of one deal under a ruleset."""

    def __init__(self, ruleset: Ruleset, dealer: Seat, *,
                 hands: Mapping[Seat, Sequence[Card | None]] | None = None,
                 upcard: Card | None = None,
                 kitty: Sequence[Card | None] | None = None,
                 extra: Sequence[Card | None] | None = None) -> None:
        self.ruleset = ruleset
        self.variant = ruleset.variant
        self.dealer = dealer
        self.upcard = upcard
        self._deck = deck_mask(ruleset.options.deck)
        self.seats = ruleset.seats
        self.hands: dict[Seat, HandInfo] = {}
        where: list[str | None] = [None] * CARD_SLOTS
        self._where = where
        """The known place of each card (by :attr:`~euchrelog.cards.Card.index`) but a
        played one: a seat letter, ``kitty``, ``up``, ``discard``, ... (see :attr:`where`)."""
        self.played = 0
        """The mask of the cards played."""
        size = self.variant.hand_size
        written = hands or {}
        for seat in self.seats:
            cards = written.get(seat)
            if not cards:
                self.hands[seat] = HandInfo(0, 0, size)
                continue
            # A hand recorded with too many cards holds none of them surely, and no hand a
            # card written in an earlier hand too.
            known = held = 0
            letter = _LETTERS[seat]
            for card in cards:
                if card is not None:
                    known |= card.bit
                    place = where[card.index]
                    if place is None:
                        where[card.index] = letter
                    elif place != letter:
                        continue
                    held |= card.bit
            if len(cards) > size:
                held = 0
            self.hands[seat] = HandInfo(known, held, max(size - known.bit_count(), 0))
        self.extra_kind = ruleset.extra_hand
        """``dummy``, ``ghost`` or ``None``: the hand dealt to the empty side."""
        self.extra = HandInfo(0, 0, ruleset.extra_size)
        if extra:
            extra_known = mask_of(c for c in extra if c is not None)
            self.extra = HandInfo(extra_known, extra_known,
                                  ruleset.extra_size - extra_known.bit_count())
            for card in cards_of(extra_known):
                self._settle(card, self.extra_kind or "dummy")
        if upcard is not None:
            self._settle(upcard, "up")
        for hidden in kitty or ():
            if hidden is not None:
                self._settle(hidden, "kitty")
        self.phase = Phase.BIDDING
        self.round = 0 if upcard == JOKER and self.variant.upcard else 1
        self.high: tuple[Seat, int] | None = None
        """The highest trick bid so far (ghost)."""
        self.swapped: Seat | None = None
        """The seat that swapped hands with the ghost hand."""
        self.merged = False
        self.acted: list[Seat] = []
        self._bidders = _clockwise(dealer.left, self.seats)
        self.trump: Trump | None = None
        self.follows: tuple[Suit | None, ...] = _PRINTED_FOLLOWS
        """The suit each card follows (by :attr:`~euchrelog.cards.Card.index`) under the
        trump fixed, or its printed suit while none is (see :meth:`fix_trump`)."""
        self.suit_masks: dict[Suit, int] = _PRINTED_MASKS
        """The mask of the cards that follow each suit, as :attr:`follows`."""
        self.maker: Seat | None = None
        self._makers: tuple[Seat | None, tuple[Seat, ...], tuple[Seat, ...]] = (None, (), ())
        """The maker the sides below are of, the maker's side and the defenders (see
        :attr:`makers`, :attr:`defenders`)."""
        self._lineups: tuple[tuple[Seat | None, ...], tuple[tuple[Seat, ...], Seat]] = (
            (), ((), dealer))
        """The maker, lone maker and lone defender the line-up below is of, and the line-up
        (see :meth:`_lineup`)."""
        self.fixed_in_round = 0
        self.exchanged = False
        self.alone: Seat | None = None
        self.defender: Seat | None = None
        self.playing: tuple[Seat, ...] = ()
        self.current: list[Played] = []
        self.tricks: list[list[Played]] = []
        self.winners: list[Seat | None] = []
        self.leader: Seat | None = None
        self.showouts: dict[Seat, dict[Suit, tuple[int, int, Card]]] = {s: {} for s in self.seats}
        self.reneges: list[tuple[Seat, int, int]] = []
        """Reneges found so far: seat, trick index, play index."""
        self._merge_list: tuple[tuple[Seat, int, int] | None, tuple[Merge, ...]] = (None, ())
        """The merges of :meth:`_merges`, and the maker and cards they are of."""
        self._dealt: _Dealt | None = (ruleset, dealer, hands, upcard, kitty, extra)
        """The deal as dealt (this constructor's arguments, kept as given), from which
        :meth:`undo` plays :attr:`_done` again; ``None`` once the state is changed other
        than by :meth:`do` (the lenient ``apply_*`` of a record)."""
        self._done: list[Action | int] = []
        """The acts :meth:`do` made (an act) and :meth:`do_id` (its number), in order."""

    # ------------------------------------------------------------ helpers

    def copy(self) -> DealState:
        """An independent copy of the state, to try acts on without changing this one
        (:meth:`undo` walks its own history back).

        Every attribute is copied by name (not by :func:`copy.copy`, which the compiled
        build's classes do not support); ``tests/test_engine.py`` holds the list to
        :meth:`__init__`'s."""
        other = DealState(self.ruleset, self.dealer)
        other._set_from(self, share=False)
        return other

    def _set_from(self, src: DealState, *, share: bool) -> None:
        """Gives this state (of the same ruleset and dealer) every attribute of ``src``:
        its own copies of the mutable ones, unless ``share`` (``src`` is thrown away)."""
        self.upcard, self.phase, self.round = src.upcard, src.phase, src.round
        self.extra_kind, self.played = src.extra_kind, src.played
        self.high, self.swapped, self.merged = src.high, src.swapped, src.merged
        self.trump, self.follows, self.suit_masks = src.trump, src.follows, src.suit_masks
        self.maker, self._makers, self._lineups = src.maker, src._makers, src._lineups
        self.fixed_in_round, self.exchanged = src.fixed_in_round, src.exchanged
        self.alone, self.defender, self.playing = src.alone, src.defender, src.playing
        self.leader, self._merge_list, self._dealt = src.leader, src._merge_list, src._dealt
        if share:
            self.hands, self.extra, self._where = src.hands, src.extra, src._where
            self.acted, self.current, self.tricks = src.acted, src.current, src.tricks
            self.winners, self.showouts, self.reneges = src.winners, src.showouts, src.reneges
            self._done = src._done
            return
        self.hands = {s: HandInfo(h.known, h.held, h.free) for s, h in src.hands.items()}
        extra = src.extra
        self.extra = HandInfo(extra.known, extra.held, extra.free)
        self._where, self.acted = list(src._where), list(src.acted)
        self.current = list(src.current)
        self.tricks = [list(t) for t in src.tricks]
        self.winners = list(src.winners)
        self.showouts = {s: dict(v) for s, v in src.showouts.items()}
        self.reneges = list(src.reneges)
        self._done = list(src._done)

    def __eq__(self, other: object) -> bool:
        """Whether ``other`` is a state of the same deal at the same point: the same
        ruleset, dealer and cards where they are, the same acts' effects (not the history
        :meth:`undo` keeps)."""
        if not isinstance(other, DealState):
            return NotImplemented
        return _facts(self) == _facts(other)

    def __repr__(self) -> str:
        """One line: the variant, the dealer, the phase, trump and maker, the hands, the
        trick under way and the tricks won."""
        return f"<DealState {'; '.join(self._lines())}>"

    def __str__(self) -> str:
        """The state as lines, as :meth:`__repr__` tells it."""
        return "\n".join(self._lines())

    def _lines(self) -> list[str]:
        """What :meth:`__str__` shows, line by line."""
        head = f"{self.variant.name}, dealer {self.dealer}, {self.phase.value}"
        if self.trump is not None:
            head += f", trump {self.trump}"
        if self.maker is not None:
            head += f" (maker {self.maker}"
            head += f", {self.alone} alone" if self.alone is not None else ""
            head += f", {self.defender} defends" if self.defender is not None else ""
            head += f", bid {self.contract}" if self.contract is not None else ""
            head += ")"
        lines = [head]
        out = self.sitting_out
        lines += [f"{seat}: {hand}" + (" (sits out)" if seat in out else "")
                  for seat, hand in self.hands.items()]
        if self.extra_kind is not None and (self.extra.known or self.extra.free):
            lines.append(f"{self.extra_kind}: {self.extra}")
        if self.upcard is not None:
            lines.append(f"up {self.upcard}")
        if self.current:
            plays = " ".join(f"{s} {'??' if c is None else c}" for s, c in self.current)
            lines.append(f"trick {len(self.tricks) + 1}: {plays}")
        won: dict[str, int] = {}
        for seat in self.seats:
            won.setdefault(self.side(seat), 0)
        for winner in self.winners:
            if winner is not None:
                won[self.side(winner)] += 1
        tally = " ".join(f"{side} {n}" for side, n in won.items())
        lines.append(f"tricks {len(self.tricks)}: {tally}")
        points = self.points() if self.phase in (Phase.DONE, Phase.THROWN) else None
        if points is not None:
            lines.append("points " + (" ".join(f"{side} {n}" for side, n in points.items())
                                      or "none (thrown in)"))
        return lines

    @property
    def where(self) -> dict[Card, str]:
        """The known places of cards: a seat letter, ``kitty``, ``up``, ``discard``,
        ``dummy``, ``ghost``, ``dead`` (the hand given up for the ghost hand) or ``played``."""
        places = {card_at(i): place for i, place in enumerate(self._where) if place is not None}
        places.update(dict.fromkeys(cards_of(self.played), "played"))
        return cast(dict[Card, str], places)

    def place_of(self, card: Card) -> str | None:
        """The known place of ``card`` (see :attr:`where`), or ``None``."""
        return "played" if card.bit & self.played else self._where[card.index]

    def _settle(self, card: Card, place: str) -> None:
        """Puts ``card`` at ``place`` unless the record put it somewhere first."""
        if self._where[card.index] is None:
            self._where[card.index] = place

    def _put(self, card: Card, place: str) -> None:
        """Puts ``card`` at ``place``."""
        self._where[card.index] = place

    def check_act(self, act: Action) -> IllegalActionError | None:
        """The fault of any act now (a bid, exchange, merge, declaration or play)."""
        return _ACTS[type(act)][0](self, act)

    def apply_act(self, act: Action) -> list[Evidence]:
        """Applies any act as recorded; returns the earlier reneges a play proves."""
        self._dealt = None  # (changed as a record may write it: no undo)
        if type(act) is Play:
            return self.apply_play(act)
        _ACTS[type(act)][1](self, act)
        return []

    def run(self, acts: Iterable[Action], tricks: Iterable[list[Played]]) -> bool:
        """The bulk entry, for replaying a whole deal: applies the acts before the play, then
        the tricks (each a list of seats and cards, which the state keeps), while each act
        is legal. Whether all were, each trick being whole.

        The state stops at the first act that is not (or at a trick left short or run
        into the next), having begun the play if it is in the first trick; the per-act
        ``check_*`` methods then tell what is wrong.
        """
        self._dealt = None  # (changed as a record may write it: no undo)
        for act in acts:
            check, apply = _ACTS[type(act)]
            if check(self, act) is not None or apply(self, act):
                return False
        for trick in tricks:
            if self.phase is _DECLARING and trick:
                # The first lead: the deal is about to be played.
                if (self._dummy_fault(*trick[0]) is not None
                        or self.check_canadian() is not None):
                    return False
                self._start_play()
            proved = self.play_trick(trick)
            if proved is None:  # not plainly legal: card by card, to see
                done = len(self.tricks)
                for seat, card in trick:
                    if ((card is not None and not card.bit & self._deck)
                            or self._check_play(seat, card) is not None
                            or self._apply_play(seat, card)):
                        return False  # a card of no deck is the replay's to report (D305)
                if self.current or len(self.tricks) != done + 1:
                    return False
            elif proved:
                return False
        return True

    def faults(self, acts: Iterable[Action | None]) -> int:
        """Applies ``acts`` as recorded (``None`` closes a trick) and counts the faults,
        short tricks and proved reneges among them: how well a reading of the record fits
        the rules."""
        count = 0
        for act in acts:
            if act is None:
                if self.phase is Phase.PLAYING and self.current:
                    count += len(self.current) < len(self.playing)  # a short trick
                    self.end_trick()
                continue
            count += self.check_act(act) is not None
            count += len(self.apply_act(act))
        return count

    def seats_due(self, act: Action) -> tuple[Seat, ...]:
        """The seats that could have made ``act`` now, when it is written under a seat that
        may not make it (P4: an act under the wrong seat is taken as the due seat's)."""
        if isinstance(act, Play):
            turn = self.to_play()
            return (turn,) if turn is not None else ()
        if isinstance(act, Exchange):
            return (self.dealer,) if self.phase is Phase.DECLARING else ()
        if isinstance(act, Merge):
            return (self.maker,) if self.maker is not None else ()
        if isinstance(act, Declaration):
            if self.phase is not Phase.DECLARING:
                return ()
            if act.act == "alone":
                return self._lone_makers()
            return self.defenders
        due = self._bidder()
        return (due,) if due is not None else ()

    @property
    def bidders(self) -> tuple[Seat, ...]:
        """The bidding order: from the dealer's left, dealer last."""
        return self._bidders

    def _due_bidder(self) -> Seat | None:
        """The first seat of the bidding order that has not bid in this round."""
        acted = self.acted
        for seat in self._bidders:
            if seat not in acted:
                return seat
        return None

    def _all_bid(self) -> bool:
        """Whether every seat has bid in this round."""
        return len(self.acted) == len(self._bidders)

    def side(self, seat: Seat) -> str:
        """The side ``seat`` scores for."""
        return self.ruleset.side(seat)

    @property
    def makers(self) -> tuple[Seat, ...]:
        """The maker and the maker's partners."""
        maker = self.maker
        if maker is None:
            return ()
        if self._makers[0] is not maker:
            self._side_with(maker)
        return self._makers[1]

    def _side_with(self, maker: Seat) -> None:
        """Keeps the maker's side and the defenders of ``maker``."""
        kept = _tables(self.ruleset)[3]
        sides = kept.get(maker)
        if sides is None:
            side = self.side(maker)
            makers = tuple(s for s in self.seats if self.side(s) == side)
            sides = kept[maker] = (makers, tuple(s for s in self.seats if s not in makers))
        self._makers = (maker, *sides)

    @property
    def defenders(self) -> tuple[Seat, ...]:
        """The seats against the makers."""
        maker = self.maker
        if maker is None:
            return ()
        if self._makers[0] is not maker:
            self._side_with(maker)
        return self._makers[2]

    @property
    def sitting_out(self) -> tuple[Seat, ...]:
        """Seats that sit out this deal because of a lone hand."""
        return sitting_out(self.ruleset, self.maker, self.alone, self.defender)

    @property
    def lone_hand(self) -> bool:
        """Whether a lone hand (maker or defender) is being played."""
        return self.alone is not None or self.defender is not None

    def _place(self, card: Card) -> str:
        place = self.place_of(card)
        if card == self.upcard and place == self.dealer.value:
            return f"it is the upcard, taken by the dealer {self.dealer}"
        up = ("it is the turned-down upcard" if self.fixed_in_round == 2
              or self.phase is Phase.THROWN else "it is the upcard, which the dealer did not "
              "take up")
        return {"kitty": f"it is in the {self.variant.kitty_name}", "up": up,
                "discard": "it was discarded", "played": self._played_where(card),
                "dummy": "it is in the dummy", "ghost": "it is in the ghost hand",
                "dead": "it is in the hand given up for the ghost hand"}.get(
            place or "", f"it was dealt to {place}" if place else "")

    def _played_where(self, card: Card) -> str:
        """Who played ``card`` already, and in which trick."""
        for k, trick in enumerate((*self.tricks, self.current)):
            for seat, played in trick:
                if played == card:
                    when = f"trick {k + 1}" if k < len(self.tricks) else "this trick"
                    return f"{seat} played it in {when}"
        return "it was already played"

    # ------------------------------------------------------------ bidding

    def check_bid(self, bid: Bid) -> IllegalActionError | None:
        """The fault of this bid now, or ``None`` if it is legal."""
        seat = bid.seat
        if self.phase is not Phase.BIDDING:
            return IllegalActionError(
                "B405", "{seat} bids {act} after the bidding ended", seat=seat, act=bid.act)
        if seat not in self.seats:
            return IllegalActionError("B401", "{seat} has no player and cannot bid", seat=seat)
        if (isinstance(bid, Call) and bid.suit is NO_TRUMP
                and not self.ruleset.options.no_trump):
            return IllegalActionError(
                "B410", "{seat} calls no trump, but the game is not played with no-trump (H5)",
                seat=seat)
        if self.variant.bidding == "tricks":
            return self._check_trick_bid(bid)
        if isinstance(bid, (Number, Swap)):
            what = "a trick bid" if isinstance(bid, Number) else "a swap"
            return IllegalActionError(
                "B402", "{seat} makes {what}, but {variant} is bid by ordering up or naming trump",
                seat=seat, what=what, variant=self.variant.name)
        if self.round == 0:
            if seat != self.dealer or not isinstance(bid, Call):
                return IllegalActionError(
                    "B407", "the upcard is the benny: the dealer {dealer} names trump, not {seat} "
                            "{act}", seat=seat, dealer=self.dealer, act=bid.act)
            return None
        if seat in self.acted:
            return IllegalActionError("B401", "{seat} bids twice in round {round}", seat=seat,
                                      round=self.round)
        expected = self._due_bidder()
        if seat != expected:
            return IllegalActionError(
                "B401", "{seat} bids out of turn in round {round}: it is {expected}'s turn",
                seat=seat, round=self.round, expected=expected)
        if self.round == 1 and isinstance(bid, Call):
            return IllegalActionError(
                "B402", "{seat} names {suit} in round 1, where a player may only order up or pass",
                seat=seat, suit=bid.suit.noun)
        if self.round == 2 and isinstance(bid, Order):
            return IllegalActionError(
                "B402", "{seat} orders up in round 2, where the upcard is turned down", seat=seat)
        if (self.round == 2 and isinstance(bid, Call) and self.upcard is not None
                and self.upcard.suit is bid.suit):
            return IllegalActionError(
                "B403", "{seat} names {suit}, the suit of the turned-down {card}", seat=seat,
                suit=bid.suit.noun, card=self.upcard)
        if (self.round == 2 and isinstance(bid, Pass) and seat == self.dealer
                and self.ruleset.options.stick_the_dealer):
            return IllegalActionError(
                "B404", "the dealer {seat} passes in round 2 under stick-the-dealer", seat=seat)
        return None

    def apply_bid(self, bid: Bid) -> None:
        """Applies a bid as recorded, legal or not (the lenient half of :meth:`bid`); a bid
        by a seat with no player is void."""
        self._dealt = None  # (changed as a record may write it: no undo)
        if self.phase is not Phase.BIDDING or bid.seat not in self.seats:
            return
        if self.variant.bidding == "tricks":
            self._apply_trick_bid(bid)
            return
        if isinstance(bid, Swap):
            return
        if isinstance(bid, Number):  # a trick bid where there are none: taken as a pass
            bid = Pass(act="pass", seat=bid.seat)
        if isinstance(bid, Pass):
            if bid.seat not in self.acted:
                self.acted.append(bid.seat)
            if self.round and self._all_bid():
                if self.round == 1:
                    self.round = 2
                    self.acted = []
                else:
                    self.phase = Phase.THROWN
            return
        if isinstance(bid, Order):
            self.fix_trump(self.upcard.suit if self.upcard is not None else None)
        else:
            self.fix_trump(bid.suit)
        self.maker = bid.seat
        self.fixed_in_round = self.round
        self.phase = Phase.DECLARING

    @property
    def naming(self) -> bool:
        """Whether the trick bidding is over and the high bidder is to name trump (G5)."""
        return (self.variant.bidding == "tricks" and self.phase is Phase.BIDDING
                and self.high is not None and self._all_bid())

    def _check_trick_bid(self, bid: Bid) -> IllegalActionError | None:
        seat = bid.seat
        if self.naming:
            assert self.high is not None
            bidder = self.high[0]
            if isinstance(bid, Swap):
                return IllegalActionError(
                    "B409", "{seat} swaps with the ghost hand after the bidding (G2)", seat=seat)
            if not isinstance(bid, Call):
                return IllegalActionError(
                    "B405", "{seat} bids {act} after the bidding ended: {bidder}, the high "
                            "bidder, names trump", seat=seat, act=bid.act, bidder=bidder)
            if seat != bidder:
                return IllegalActionError(
                    "B401", "{seat} names trump, but the high bidder {bidder} does (G5)",
                    seat=seat, bidder=bidder)
            return None
        if isinstance(bid, (Order, Call)):
            what = "orders up" if isinstance(bid, Order) else f"names {bid.suit.noun}"
            return IllegalActionError(
                "B402", "{seat} {what} during the bidding, where each player bids tricks or "
                        "passes (G3)", seat=seat, what=what)
        expected = self._due_bidder()
        if isinstance(bid, Swap):
            if self.swapped is not None:
                return IllegalActionError(
                    "B409", "{seat} swaps with the ghost hand, but {other} already did: one swap "
                            "a deal (G2)", seat=seat, other=self.swapped)
            if seat in self.acted:
                return IllegalActionError(
                    "B409", "{seat} swaps with the ghost hand after bidding (G2)", seat=seat)
        if seat in self.acted:
            return IllegalActionError("B401", "{seat} bids twice", seat=seat)
        if seat != expected:
            return IllegalActionError("B401", "{seat} bids out of turn: it is {expected}'s turn",
                                      seat=seat, expected=expected)
        if isinstance(bid, Number):
            if not 3 <= bid.tricks <= MOON:
                return IllegalActionError(
                    "B408", "{seat} bids {tricks}: a bid is 3 to 6 tricks, 6 the moon (G3)",
                    seat=seat, tricks=bid.tricks)
            if self.high is not None and bid.tricks <= self.high[1]:
                high_seat, high = self.high
                what = "nothing outbids the moon" if high == MOON else f"{high_seat} bid {high}"
                return IllegalActionError(
                    "B408", "{seat} bids {tricks}, which does not outbid: {what} (G3)", seat=seat,
                    tricks=bid.tricks, what=what)
        return None

    def _apply_trick_bid(self, bid: Bid) -> None:
        seat = bid.seat
        if isinstance(bid, Call):
            if self.naming or (self.high is not None and self.high[0] == seat):
                self.fix_trump(bid.suit)
                self.maker = seat
                self.phase = Phase.DECLARING
            return
        if isinstance(bid, Swap):
            if seat not in self.hands:
                return
            hand = self.hands[seat]
            if self.swapped is not None or seat in self.acted:
                # A swap the rules refuse: the seat may hold either hand from here on.
                for card in self.extra.cards:
                    self._put(card, seat.value)
                hand.known |= self.extra.known
                hand.held = 0
                return
            self.swapped = seat
            for card in hand.cards:
                self._put(card, "dead")
            for card in self.extra.cards:
                self._put(card, seat.value)
            self.hands[seat], self.extra = self.extra, hand  # the dead hand lies there now
            return
        if seat in self.acted or isinstance(bid, Order):
            return
        self.acted.append(seat)
        if isinstance(bid, Number) and (self.high is None or bid.tricks > self.high[1]):
            self.high = (seat, bid.tricks)
        if self._all_bid() and self.high is None:
            self.phase = Phase.THROWN

    @property
    def contract(self) -> int | None:
        """The winning trick bid (ghost), once made."""
        return self.high[1] if self.high is not None else None

    def verify_bid(self, bid: Bid) -> None:
        """Raises :class:`IllegalActionError` if ``bid`` is not legal now."""
        self.verify(bid)

    def can_bid(self, bid: Bid) -> bool:
        """Whether ``bid`` is legal now."""
        return self.can(bid)

    def bid(self, bid: Bid) -> None:
        """Makes a bid after verifying it (:meth:`do`)."""
        self.do(bid)

    def fix_contract(self, trump: Trump, maker: Seat, bid: int | None = None) -> None:
        """Fixes trump, maker and (ghost) the bid without bidding: a score-sheet record."""
        self._dealt = None  # (changed as a record may write it: no undo)
        self.fix_trump(trump)
        self.maker = maker
        if bid is not None:
            self.high = (maker, bid)
        self.phase = Phase.DECLARING

    # ------------------------------------------------------------ exchange

    def check_exchange(self, ex: Exchange) -> IllegalActionError | None:
        """The fault of this exchange now, or ``None`` if it is legal."""
        if self.phase is not Phase.DECLARING:
            when = "before trump is fixed" if self.phase is Phase.BIDDING else "now"
            return IllegalActionError("K501", "{seat} cannot exchange {when}", seat=ex.seat,
                                      when=when)
        if self.exchanged:
            return IllegalActionError("K501", "{seat} exchanges, but the dealer {dealer} has "
                                              "already exchanged", seat=ex.seat,
                                      dealer=self.dealer)
        if ex.seat != self.dealer or ex.seat not in self.hands:
            return IllegalActionError(
                "K501", "{seat} exchanges, but only the dealer {dealer} takes the upcard",
                seat=ex.seat, dealer=self.dealer)
        if self.fixed_in_round == 2:
            return IllegalActionError(
                "K501", "{seat} exchanges after a round-2 call, where no exchange happens",
                seat=ex.seat)
        if not self.variant.upcard:
            return IllegalActionError(
                "K501", "{seat} exchanges, but {variant} has no upcard", seat=ex.seat,
                variant=self.variant.name)
        if self.merged:
            return IllegalActionError(
                "K501", "{seat} exchanges after merging the dummy, which gives up the exchange "
                        "(X5)", seat=ex.seat)
        natural = self._natural_trump()
        barred = natural is False
        required = ((self.ruleset.options.dealer_pickup == "required" and natural is not None
                     and not barred) or self.upcard == JOKER)
        if ex.act == "declines":
            if required:
                why = "the benny" if self.upcard == JOKER else "dealer-pickup=required"
                return IllegalActionError(
                    "K504", "the dealer {seat} declines the upcard, but {why} makes the pickup "
                            "compulsory", seat=ex.seat, why=why)
            return None
        if ex.upcard is not None and self.upcard is not None and ex.upcard != self.upcard:
            return IllegalActionError(
                "K503", "the dealer {seat} takes {card}, but the upcard is {upcard}", seat=ex.seat,
                card=ex.upcard, part="takes", upcard=self.upcard)
        if barred:
            assert isinstance(self.trump, Suit)  # (barred: an order of the upcard's suit)
            return IllegalActionError(
                "K508", "the dealer {seat} takes the upcard holding no {suit} (the left bower "
                        "does not count), but natural-pickup requires a natural trump",
                seat=ex.seat, suit=self.trump.noun)
        hand = self.hands[ex.seat]
        if (ex.discard is not None and hand.free == 0
                and not ex.discard.bit & hand.known and ex.discard != self.upcard):
            return IllegalActionError(
                "K502", "the dealer {seat} discards {card}, which is not among the six cards held",
                seat=ex.seat, card=ex.discard, part="discard")
        return None

    def _natural_trump(self) -> bool | None:
        """Under ``natural-pickup``, after a round-1 order: whether the dealer's hand holds a
        natural trump, a card of the trump suit as printed (the left bower is not), or
        ``None`` while the record does not tell (a card of the hand unknown). Elsewhere
        ``True``: nothing bars the pickup (a Benny turn-up is taken up regardless, F7)."""
        trump = self.trump
        if (not self.ruleset.options.natural_pickup or self.upcard == JOKER
                or self.fixed_in_round != 1 or not isinstance(trump, Suit)):
            return True
        hand = self.hands.get(self.dealer)
        if hand is None:
            return True
        if hand.known & _PRINTED_MASKS[trump]:
            return True
        return None if hand.free else False

    def _pickup_barred(self) -> bool:
        """Whether ``natural-pickup`` bars the dealer from taking the upcard (see
        :meth:`_natural_trump`)."""
        return self._natural_trump() is False

    def apply_exchange(self, ex: Exchange) -> None:
        """Applies an exchange as recorded, unless no exchange could happen at all (K501)."""
        self._dealt = None  # (changed as a record may write it: no undo)
        fault = self.check_exchange(ex)
        if (fault is not None and fault.code == _NO_EXCHANGE) or ex.seat not in self.hands:
            return
        self.exchanged = True
        if ex.act == "declines":
            return
        hand = self.hands[ex.seat]
        up = self.upcard if self.upcard is not None else ex.upcard
        if up is not None:
            hand.known |= up.bit
            hand.held |= up.bit
            self._put(up, ex.seat.value)
        else:
            hand.free += 1
        if ex.discard is None or (fault is not None and fault.part == "discard"):
            hand.held = 0  # any of the six may be gone (a discard not held: a slip)
        elif ex.discard.bit & hand.known:
            hand.known &= ~ex.discard.bit
            hand.held &= ~ex.discard.bit
            self._put(ex.discard, "discard")
        else:
            hand.free = max(hand.free - 1, 0)
            self._put(ex.discard, "discard")

    def verify_exchange(self, ex: Exchange) -> None:
        """Raises :class:`IllegalActionError` if the exchange is not legal now."""
        self.verify(ex)

    def can_exchange(self, ex: Exchange) -> bool:
        """Whether the exchange is legal now."""
        return self.can(ex)

    def exchange(self, ex: Exchange) -> None:
        """Makes the dealer's exchange after verifying it (:meth:`do`)."""
        self.do(ex)

    # ------------------------------------------------------------ declarations

    def check_declare(self, decl: Declaration) -> IllegalActionError | None:
        """The fault of this declaration now, or ``None`` if it is legal."""
        seat = decl.seat
        code = "A601" if decl.act == "alone" else "A602"
        if self.phase is Phase.PLAYING:
            return IllegalActionError(code, "{seat} declares {act} after the first lead", seat=seat,
                                      act=decl.act)
        if self.phase is not Phase.DECLARING:
            return IllegalActionError(
                "B406", "{seat} declares {act}, but no trump is fixed", seat=seat, act=decl.act)
        if self.variant.alone == "never":
            return IllegalActionError(
                code, "{seat} declares {act}, but no one goes alone in {variant}", seat=seat,
                act=decl.act, variant=self.variant.name)
        if decl.act == "alone" and self.variant.alone == "always":
            return IllegalActionError(
                "A601", "{seat} declares alone, but in {variant} the maker always plays alone and "
                        "declares nothing (X10)", seat=seat, variant=self.variant.name)
        if decl.act == "alone" and self.merged:
            return IllegalActionError(
                "A601", "{seat} goes alone after merging the dummy, which rules it out (X6)",
                seat=seat)
        if decl.act == "alone":
            lone = self._lone_makers()
            if seat not in lone:
                role = ("the maker's partner" if seat in self.makers
                        else "a defender (a defender declares defend)")
                who = (f"the maker {self.maker}" if len(lone) < 2
                       else "the makers " + " and ".join(lone))
                return IllegalActionError(
                    "A601", "{seat} goes alone, but only {who} may; {seat} is {role}", seat=seat,
                    who=who, role=role)
            if self.alone == seat:
                return IllegalActionError("A603", "{seat} declares alone twice", seat=seat)
            if self.alone is not None:
                return IllegalActionError(
                    "A603", "{seat} goes alone, but {other} already goes alone (only one of the "
                            "makers may, partner-alone)", seat=seat, other=self.alone)
            return None
        if not self.ruleset.options.lone_defender:
            return IllegalActionError(
                "A602", "{seat} defends alone, but the game is played with no-lone-defender",
                seat=seat)
        if seat not in self.defenders:
            return IllegalActionError(
                "A602", "{seat} defends alone, but {seat} is on the maker's side", seat=seat)
        if self.defender is not None:
            return IllegalActionError(
                "A603", "{seat} defends alone, but {other} already defends alone", seat=seat,
                other=self.defender)
        return None

    def _lone_makers(self) -> tuple[Seat, ...]:
        """The seats that may go alone for the makers (F9, ``partner-alone``)."""
        maker = self.maker
        return () if maker is None else self.ruleset.lone_makers(self.dealer, maker,
                                                                 self.fixed_in_round)

    def apply_declare(self, decl: Declaration) -> None:
        """Applies a declaration as recorded; one the rules do not allow is void."""
        self._dealt = None  # (changed as a record may write it: no undo)
        if self.phase is not Phase.DECLARING or self.check_declare(decl) is not None:
            return
        if decl.act == "alone":
            self.alone = decl.seat
        elif decl.act == "defend" and decl.seat in self.defenders and self.defender is None:
            self.defender = decl.seat

    # ------------------------------------------------------------ the dummy (cutthroat)

    def check_merge(self, merge: Merge) -> IllegalActionError | None:
        """The fault of this dummy merge now, or ``None`` if it is legal (X5, X6)."""
        seat = merge.seat
        if self.extra_kind != "dummy":
            return IllegalActionError(
                "K505", "{seat} merges, but this game has no dummy", seat=seat)
        if self.phase is not Phase.DECLARING:
            when = "before trump is fixed" if self.phase is Phase.BIDDING else "now"
            return IllegalActionError("K505", "{seat} cannot merge the dummy {when}", seat=seat,
                                      when=when)
        if seat != self.maker or seat not in self.hands:
            return IllegalActionError(
                "K505", "{seat} merges, but only the maker {maker} may take up the dummy",
                seat=seat, maker=self.maker)
        if self.alone is not None:
            return IllegalActionError(
                "K505", "{seat} merges, but a maker who goes alone leaves the dummy (X6)",
                seat=seat)
        if self.merged:
            return IllegalActionError("K505", "{seat} merges the dummy twice", seat=seat)
        keeps = merge.keeps
        if keeps is None:
            return None
        size = self.variant.hand_size
        if len(keeps) != size:
            return IllegalActionError(
                "K506", "{seat} keeps {kept} cards of the dummy merge, not {size}", seat=seat,
                part="keeps", kept=len(keeps), size=size)
        hand = self.hands[seat]
        if hand.free == 0 and self.extra.free == 0:
            ten = hand.known | self.extra.known
            for card in keeps:
                if card is not None and not card.bit & ten:
                    return IllegalActionError(
                        "K506", "{seat} keeps {card}, which is not among the ten cards of the "
                                "hand and the dummy", seat=seat, card=card, part="keeps")
        return None

    def apply_merge(self, merge: Merge) -> None:
        """Applies a dummy merge as recorded: the maker's hand becomes the cards kept (any
        five of the ten when the record does not name them, or names impossible ones)."""
        self._dealt = None  # (changed as a record may write it: no undo)
        if self.merged or self.phase is not Phase.DECLARING or merge.seat not in self.hands:
            return
        fault = self.check_merge(merge)
        if fault is not None and fault.part is None:
            return  # a merge the rules refuse is void (not only the cards it keeps)
        named = 0
        if fault is not None and fault.part == "keeps":
            # Kept cards the rules refuse: the maker may hold any of the ten, or those named.
            named = mask_of(c for c in merge.keeps or () if c is not None)
            merge = Merge(act="merge", seat=merge.seat)
        self.merged = True
        hand = self.hands[merge.seat]
        ten = hand.known | self.extra.known
        if merge.keeps is None:
            kept = ten
            hand.known, hand.held = ten, 0
            hand.free += self.extra.free
        else:
            kept = mask_of(c for c in merge.keeps if c is not None)
            hand.known, hand.held = kept, kept
            hand.free = len(merge.keeps) - kept.bit_count()
            for card in cards_of(ten & ~kept):
                self._put(card, "discard")
        for card in cards_of(kept | named):
            self._put(card, merge.seat.value)
        hand.known |= named
        self.extra = HandInfo(0, 0, 0)

    def verify_merge(self, merge: Merge) -> None:
        """Raises :class:`IllegalActionError` if the merge is not legal now."""
        self.verify(merge)

    def can_merge(self, merge: Merge) -> bool:
        """Whether the merge is legal now."""
        return self.can(merge)

    def merge(self, merge: Merge) -> None:
        """Takes up the dummy after verifying it (:meth:`do`)."""
        self.do(merge)

    def verify_declare(self, decl: Declaration) -> None:
        """Raises :class:`IllegalActionError` if the declaration is not legal now."""
        self.verify(decl)

    def can_declare(self, decl: Declaration) -> bool:
        """Whether the declaration is legal now."""
        return self.can(decl)

    def declare(self, decl: Declaration) -> None:
        """Declares going alone or defending alone after verifying it (:meth:`do`)."""
        self.do(decl)

    # ------------------------------------------------------------ play

    def _upcard_with_dealer(self) -> bool:
        """Whether the dealer may hold the upcard though no exchange was recorded (not when
        ``natural-pickup`` bars the pickup)."""
        up = self.upcard
        return (up is not None and not self.exchanged and self.fixed_in_round != 2
                and self.maker is not None and not self.merged and self.dealer in self.hands
                and (self.fixed_in_round == 1 or up == JOKER or up.suit is self.trump)
                and not self._pickup_barred())

    def _lineup(self) -> tuple[tuple[Seat, ...], Seat]:
        """The seats that play and the opening leader (F10), once declarations are done."""
        key = (self.maker, self.alone, self.defender)
        if self._lineups[0] != key:
            kept = _tables(self.ruleset)[2]
            full = (self.dealer, *key)
            found = kept.get(full)
            if found is None:
                found = kept[full] = lineup(self.ruleset, self.dealer, *key)
            self._lineups = (key, found)
        return self._lineups[1]

    def check_canadian(self) -> IllegalActionError | None:
        """The fault of a deal about to be played under ``canadian-loner`` (H3): the
        dealer's partner ordered up in round 1 and has not gone alone."""
        maker = self.maker
        if (maker is None or self.alone is not None
                or not self.ruleset.must_go_alone(self.dealer, maker, self.fixed_in_round)):
            return None
        return IllegalActionError(
            "A604", "{seat}, the dealer's partner, orders up and does not go alone, but under "
                    "canadian-loner that player must (H3)", seat=maker)

    def _start_play(self) -> None:
        self.phase = Phase.PLAYING
        if self._upcard_with_dealer():
            # The record does not say whether the dealer took the upcard.
            assert self.upcard is not None
            hand = self.hands[self.dealer]
            hand.known |= self.upcard.bit
            hand.held = 0  # declined, or took it and discarded one unknown card
            self._put(self.upcard, self.dealer.value)
        self.playing, self.leader = self._lineup()

    def to_play(self) -> Seat | None:
        """The seat whose turn it is to play, or ``None`` if unknown or not in play."""
        phase = self.phase
        if phase is not _PLAYING:
            return self._lineup()[1] if phase is _DECLARING else None
        current = self.current
        if not current:
            return self.leader
        order = _clockwise(current[0][0], self.playing)
        n = len(current)
        for i in range(1, n):
            if current[i][0] is not order[i]:
                break
        else:  # played in turn
            return order[n] if n < len(order) else None
        played = {s for s, _ in current}
        return next((s for s in order if s not in played), None)

    def _in_trick(self, seat: Seat) -> bool:
        """Whether ``seat`` has played in the current trick."""
        return any(played is seat for played, _ in self.current)

    def fix_trump(self, trump: Trump | None) -> None:
        """Fixes trump (``None``: a suit the record does not tell) and the tables of the
        suits cards follow under it."""
        self.trump = trump
        ranking = NO_TRUMP if trump is None else trump
        self.follows, self.suit_masks = suit_list(ranking), follow_masks(ranking)

    def _led(self) -> Suit | None:
        """The suit led in the current trick, once trump is fixed."""
        if not self.current or self.current[0][1] is None or self.trump is None:
            return None
        return self.follows[self.current[0][1].index]

    def _follows_suit(self, hand: HandInfo, card: Card) -> bool:
        """Whether playing ``card`` from ``hand`` follows suit, as far as the record shows
        (P1, P2): it follows the suit led, or the hand surely holds none of it."""
        led = self._led()
        return led is None or follows_suit(hand.held, card.bit, self.suit_masks[led])

    def check_play(self, play: Play) -> IllegalActionError | None:
        """The fault of this play now, or ``None`` if it is legal."""
        return self._check_play(play.seat, play.card)

    def _check_play(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        if self.phase is _PLAYING and self._plain(((seat, card),), (self.to_play(),),
                                                  self._led(), leads=not self.current):
            return None
        return self._play_fault(seat, card)

    def _plain(self, plays: Sequence[Played], due: Sequence[Seat | None], led: Suit | None, *,
               leads: bool) -> bool:
        """Whether ``plays`` are the common case of legal plays, in a few bit tests each: the
        seats ``due`` play, in turn, cards they surely hold (or, in a slot the record leaves
        open, a card of the deck it puts nowhere), following the suit ``led`` (P1, P2);
        ``leads``: the first of them leads the trick. Anything else is looked into by
        :meth:`_play_fault`."""
        follows, masks, hands = self.follows, self.suit_masks, self.hands
        nowhere = ~self.played & self._deck  # (and not placed: see below)
        for (seat, card), turn in zip(plays, due, strict=True):
            hand = hands.get(seat)
            if seat is not turn or card is None or hand is None:
                return False
            bit = card.bit
            if not hand.held & bit:
                if not (hand.free and nowhere & bit and self._where[card.index] is None):
                    return False
                nowhere &= ~bit  # once in the plays
            if leads:
                led, leads = follows[card.index], False
            elif led is not None and not following(hand.held, bit, masks[led]):
                return False  # (follows_suit, one call less)
        return True

    def _dummy_fault(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        """The fault of a first lead of a deal in which the maker should have taken up the
        dummy (K507)."""
        if (self.extra_kind == "dummy" and self.ruleset.options.dummy == "required"
                and not self.merged and self.alone is None):
            return IllegalActionError(
                "K507", "{seat} plays {card}, but the maker {maker} neither took up the dummy nor "
                        "went alone (dummy=required)", seat=seat, card=card, maker=self.maker)
        return None

    def _play_fault(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        """The fault of a play of ``card`` by ``seat`` now, with its message."""
        fault = self._turn_fault(seat, card)
        return fault if fault is not None else self._card_fault(seat, card)

    def _turn_fault(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        """The fault of ``seat`` playing now, whatever the card (``card`` only names it in
        the message)."""
        if self.phase in (Phase.BIDDING, Phase.THROWN):
            why = "everyone passed" if self.phase is Phase.THROWN else "the bidding is unfinished"
            return IllegalActionError("B406", "{seat} plays {card}, but no trump is fixed: {why}",
                                      seat=seat, card=card, why=why)
        if self.phase is Phase.DONE:
            if seat not in self.playing:
                return IllegalActionError(
                    "P704", "{seat} plays {card} after the last trick, but {seat} "
                                          "sits out this deal", seat=seat, card=card)
            return IllegalActionError("P706", "{seat} plays {card} after the last trick", seat=seat,
                                      card=card)
        starting = self.phase is Phase.DECLARING
        dummy = self._dummy_fault(seat, card) if starting else None
        if dummy is not None:
            return dummy
        playing = self._lineup()[0] if starting else self.playing
        trick_no = len(self.tricks) + 1
        if seat not in playing:
            why = "has no player" if seat not in self.seats else "sits out this deal"
            return IllegalActionError(
                "P704", "{seat} plays {card} in trick {trick}, but {seat} {why}",
                seat=seat, card=card, trick=trick_no, why=why)
        if self._in_trick(seat):
            return IllegalActionError("P701", "{seat} plays twice in trick {trick}", seat=seat,
                                      trick=trick_no)
        expected = self.to_play()
        if expected is not None and expected != seat:
            if not self.current:
                why = (f"{expected} won trick {trick_no - 1}" if self.tricks
                       else f"{expected} has the opening lead")
                return IllegalActionError(
                    "P701", "{seat} leads trick {trick} out of turn: {why} and leads", seat=seat,
                    trick=trick_no, why=why)
            return IllegalActionError(
                "P701", "{seat} plays out of turn in trick {trick}: it is {expected}'s turn",
                seat=seat, trick=trick_no, expected=expected)
        return self.check_canadian() if starting else None

    def _card_fault(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        """The fault of ``card`` in a play by ``seat``, who may play now."""
        if card is None:
            return None
        starting = self.phase is Phase.DECLARING
        trick_no = len(self.tricks) + 1
        if not card.bit & self._deck:
            return None  # reported once as a card outside the deck
        place = self.place_of(card)
        if starting and card == self.upcard and self._upcard_with_dealer():
            place = self.dealer.value
        if place == "played":
            return IllegalActionError(
                "P703", "{seat} plays {card} in trick {trick}, but {where}", seat=seat, card=card,
                trick=trick_no, where=self._place(card))
        if place in ("kitty", "discard", "up"):
            return IllegalActionError(
                "P708", "{seat} plays {card} in trick {trick}, but {where}", seat=seat, card=card,
                trick=trick_no, where=self._place(card))
        hand = self.hands[seat]
        if not card.bit & hand.known:
            if place is not None and place != seat.value:
                return IllegalActionError(
                    "P702", "{seat} plays {card} in trick {trick}, but {where}", seat=seat,
                    card=card, trick=trick_no, where=self._place(card))
            if hand.free == 0:
                return IllegalActionError(
                    "P702", "{seat} plays {card} in trick {trick}, but {seat} does not hold it",
                    seat=seat, card=card, trick=trick_no)
        unsure = starting and seat == self.dealer and self._upcard_with_dealer()
        if not unsure and not self._follows_suit(hand, card):
            led = self._led()
            assert led is not None
            held = sorted(cards_of(hand.held & self.suit_masks[led]), key=str)
            return RenegeError(
                "R801", "renege: {seat} plays {card} on the {lead} lead ({suit}) in trick {trick} "
                        "holding {held}", seat=seat, card=card, trick=trick_no,
                lead=self.current[0][1], suit=led.noun, held=" ".join(map(str, held)))
        return None

    def apply_play(self, play: Play) -> list[Evidence]:
        """Applies a play as recorded, legal or not; returns the earlier reneges it proves."""
        self._dealt = None  # (changed as a record may write it: no undo)
        return self._apply_play(play.seat, play.card)

    def _apply_play(self, seat: Seat, card: Card | None) -> list[Evidence]:
        if self.phase is _DECLARING:
            self._start_play()
        elif self.phase is not _PLAYING:
            return []
        if seat not in self.playing or self._in_trick(seat):
            return []
        return self._take([(seat, card)], self._led())

    def play_trick(self, plays: list[Played]) -> list[Evidence] | None:
        """Plays a whole trick at once when it is plainly legal (the test of the common case
        of :meth:`check_play`, :meth:`_plain`, for each card) and returns the earlier
        reneges it proves; else changes nothing, and returns ``None`` (the trick is then
        for :meth:`check_play` and :meth:`apply_play`, card by card)."""
        self._dealt = None  # (changed as a record may write it: no undo)
        if (self.phase is not _PLAYING or self.current or self.leader is None
                or self.trump is None):
            return None
        order = _clockwise(self.leader, self.playing)
        if len(plays) != len(order) or not self._plain(plays, order, None, leads=True):
            return None
        lead = plays[0][1]
        assert lead is not None  # (a plain play is of a card)
        return self._take(plays, self.follows[lead.index])

    def _take(self, plays: list[Played], led: Suit | None) -> list[Evidence]:
        """Takes the cards of ``plays`` out of their players' hands into the current trick,
        on a lead of ``led``, and closes the trick when it is whole; returns the earlier
        reneges they prove."""
        proofs: list[Evidence] = []
        hands, current, showouts = self.hands, self.current, self.showouts
        showing = self.trump is not None
        follows = self.follows
        for played in plays:
            seat, card = played
            hand = hands[seat]
            if card is None:
                hand.free = max(hand.free - 1, 0)
                hand.held = 0  # the unknown card may have been one of them
                shows = False
            elif (bit := card.bit) & hand.known:
                hand.known ^= bit
                hand.held &= ~bit
                self.played |= bit
                shows = showing
            else:
                shows = self._take_stray(seat, hand, card) and showing
            # What :meth:`_show` looks into: a card off the suit led, or of a suit the seat
            # showed out of before.
            if shows and card is not None:
                suit = follows[card.index]
                if (suit is not led and led is not None) or (
                        (shown := showouts[seat]) and suit in shown):
                    self._show(seat, hand, card, led, proofs)
            current.append(played)
        if len(current) == len(self.playing):
            self.end_trick()
        return proofs

    def _take_stray(self, seat: Seat, hand: HandInfo, card: Card) -> bool:
        """Plays a card the record does not put in the seat's hand; returns whether the seat
        may hold it, so that it shows something of the hand (:meth:`_show`)."""
        owner = self.place_of(card)
        # Only a card the seat may hold can prove anything about the seat's hand.
        legit = hand.free > 0 and owner is None
        if owner is not None and owner in _SEAT_LETTERS and owner != seat.value:
            # The record put it in another hand: trust the play from here on.
            other = self.hands[Seat(owner)]
            if card.bit & other.known:
                other.known &= ~card.bit
                other.held &= ~card.bit
                other.free += 1
        if hand.free:
            hand.free -= 1
        else:
            hand.held = 0  # the record of this hand is wrong somewhere
        self.played |= card.bit
        return legit

    def _show(self, seat: Seat, hand: HandInfo, card: Card, led: Suit | None,
              proofs: list[Evidence]) -> None:
        """What a card the seat may hold, played on a lead of ``led``, shows of its hand
        (P1): a renege now, or that the hand holds no more of the suit led; a renege earlier
        is added to ``proofs``."""
        eff = self.follows[card.index]  # None: the Benny at no trump
        showouts = self.showouts[seat]
        trick_index = len(self.tricks)
        shown = showouts.pop(eff, None) if showouts and eff is not None else None
        if shown is not None and eff is not None:
            t, p, was = shown
            self.reneges.append((seat, t, p))
            proofs.append(Evidence(seat, t, p, eff, was, card, trick_index))
        if led is not None and eff is not led and not (self.reneges and any(
                r[0] == seat and r[1] == trick_index for r in self.reneges)):
            play_index = len(self.current)
            if not following(hand.held, card.bit, self.suit_masks[led]):  # (follows_suit)
                self.reneges.append((seat, trick_index, play_index))
            else:
                showouts.setdefault(led, (trick_index, play_index, card))

    def end_trick(self) -> None:
        """Closes the current trick (also when a record leaves it short) and finds its winner."""
        self._dealt = None  # (changed as a record may write it: no undo)
        current = self.current
        if not current:
            return
        winner: Seat | None = None
        if self.trump is not None and len(current) == len(self.playing):
            cards = [c for _, c in current]
            if None not in cards:
                # (the suit led as the state's table tells it)
                led = self.follows[cast(Card, cards[0]).index]
                winner = current[trick_winner_on(cast(list[Card], cards), self.trump, led)][0]
        self.tricks.append(current)
        self.winners.append(winner)
        self.current = []
        self.leader = winner
        if len(self.tricks) >= self.variant.tricks:
            self.phase = Phase.DONE

    def lose_trick(self) -> None:
        """Counts a trick the record leaves out: its winner, the next leader and its cards are
        unknown, so no card the record puts in a hand is sure to be held any more."""
        self._dealt = None  # (changed as a record may write it: no undo)
        if self.phase is Phase.DECLARING:
            self._start_play()
        self.current = []
        self.tricks.append([])
        self.winners.append(None)
        self.leader = None
        for hand in self.hands.values():
            hand.held = 0
        if len(self.tricks) >= self.variant.tricks:
            self.phase = Phase.DONE

    def doubt_last_trick(self) -> None:
        """Forgets the winner of the last trick: it rests on a card the seat cannot have
        played, so the record does not prove who won it or leads next."""
        self._dealt = None  # (changed as a record may write it: no undo)
        self.winners[-1] = None
        if self.phase is Phase.PLAYING and not self.current:
            self.leader = None

    def verify_play(self, play: Play) -> None:
        """Raises :class:`IllegalActionError` (:class:`RenegeError` for a renege) if the play
        is not legal now."""
        self.verify(play)

    def can_play(self, play: Play) -> bool:
        """Whether the play is legal now."""
        return self.can(play)

    def play(self, play: Play) -> None:
        """Plays a card after verifying it.

        :raises RenegeError: also when this play proves an earlier renege (P1).
        """
        self.do(play)

    # ------------------------------------------------------------ outcome

    def tricks_won(self) -> dict[Seat, int] | None:
        """Tricks won by each seat, or ``None`` while any winner is unknown."""
        if None in self.winners:
            return None
        won = dict.fromkeys(self.seats, 0)
        for w in self.winners:
            if w is not None:
                won[w] += 1
        return won

    def maker_tricks(self) -> int | None:
        """Tricks taken by the maker's side, when every trick's winner is known."""
        winners = self.winners
        if None in winners:
            return None
        return sum(map(self.makers.__contains__, winners))

    def points(self, *, taken: Mapping[Seat, int] | None = None,
               made: int | None = None) -> dict[str, int] | None:
        """The points of the deal (F11, X8, G6, T5, H1, H2), from its tricks as played or
        from the tricks a score sheet gives (``taken`` by each seat, or ``made`` by the
        makers): none when it was thrown in, ``None`` when they cannot be told."""
        if self.phase is Phase.THROWN:
            return {}
        maker = self.maker
        if maker is None:
            return None
        if taken is None and made is None:
            if len(self.tricks) != self.variant.tricks:
                return None
            if self.variant.scoring:
                made = self.maker_tricks()
            else:
                taken = self.tricks_won()
            if made is None and taken is None:
                return None
        rules = self.ruleset
        if not self.variant.scoring:
            bid = self.contract
            return None if bid is None or taken is None else rules.trick_points(maker, bid, taken)
        if taken is not None:
            made = sum(n for seat, n in taken.items() if seat in self.makers)
        if made is None or made > self.variant.tricks:
            return None
        return rules.side_points(maker, made, maker_alone=self.alone is not None,
                                 defender_alone=self.defender is not None)

    # ------------------------------------------------------------ acts of any kind

    def verify(self, act: Action) -> None:
        """Raises :class:`IllegalActionError` (:class:`RenegeError` for a renege) if ``act``,
        of any kind, is not legal now, or is one a record may write but a player may not
        make (see :meth:`act_fault`)."""
        error = self.act_fault(act)
        if error is not None:
            raise error

    def can(self, act: Action) -> bool:
        """Whether ``act``, of any kind, is legal now (:meth:`verify` would pass it)."""
        return self.act_fault(act) is None

    def act_fault(self, act: Action) -> IllegalActionError | None:
        """The fault of ``act`` for a player (:meth:`verify`, :meth:`can`, :meth:`do`): a
        card of no deck in it (D305), its fault by the rules (:meth:`check_act`), or what a
        record may leave out but a player may not: a lead before the dealer's exchange
        (P701), a card played, a discard or the cards a merge keeps not named when the hand
        is known (P702, K502, K506). So :meth:`do` takes exactly the acts
        :meth:`legal_actions` offers when every card is known."""
        kind = type(act)
        if kind is Play:
            play = cast(Play, act)
            fault = self._named_play_fault(play.seat, play.card)
            if fault is None and self.phase is _DECLARING and self.exchange_due:
                fault = IllegalActionError(
                    "P701", "{seat} leads trick 1 before the dealer {dealer} takes up or "
                            "declines the upcard", seat=play.seat, trick=1, dealer=self.dealer)
        elif kind is Exchange:
            fault = self._named_exchange_fault(cast(Exchange, act))
        elif kind is Merge:
            fault = self._named_merge_fault(cast(Merge, act))
        else:
            fault = None
        return fault if fault is not None else self.check_act(act)

    def _named_play_fault(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        """The fault of a play by ``seat`` that does not name its card, or names a card of
        no deck (see :meth:`act_fault`)."""
        if card is None:
            return IllegalActionError("P702", "{seat} plays a card it does not name", seat=seat)
        return self._deck_fault(seat, card, "played by")

    def _deck_fault(self, seat: Seat, card: Card, how: str,
                    part: str | None = None) -> IllegalActionError | None:
        """D305 for ``card`` when it is of no card of the deal's deck, as the replay tells
        it (``how`` the seat's act names it: ``played by``...)."""
        if card.bit & self._deck:
            return None
        return IllegalActionError("D305", "{card} ({how} {seat}) is not in the {deck}-card deck",
                                  seat=seat, card=card, part=part, how=how,
                                  deck=self.ruleset.options.deck)

    def _named_exchange_fault(self, ex: Exchange) -> IllegalActionError | None:
        """The fault of a pickup that names a discard of no deck, or names none while the
        dealer's hand is known (see :meth:`act_fault`)."""
        if ex.act == "declines":
            return None
        if ex.discard is not None:
            return self._deck_fault(ex.seat, ex.discard, "discarded by", "discard")
        hand = self.hands.get(ex.seat)
        if hand is not None and hand.free == 0 and self.check_exchange(ex) is None:
            return IllegalActionError(
                "K502", "the dealer {seat} takes the upcard without naming the discard",
                seat=ex.seat, part="discard")
        return None

    def _named_merge_fault(self, merge: Merge) -> IllegalActionError | None:
        """The fault of a merge that keeps a card of no deck, or names none of the cards it
        keeps while the ten are known (see :meth:`act_fault`)."""
        if merge.keeps is not None:
            for card in merge.keeps:
                if card is not None:
                    fault = self._deck_fault(merge.seat, card, "kept by", "keeps")
                    if fault is not None:
                        return fault
            return None
        hand = self.hands.get(merge.seat)
        if (hand is not None and hand.free == 0 and self.extra.free == 0
                and self.check_merge(merge) is None):
            return IllegalActionError(
                "K506", "{seat} merges without naming the {size} cards kept", seat=merge.seat,
                part="keeps", size=self.variant.hand_size)
        return None

    def do(self, act: Action) -> None:
        """Makes ``act``, of any kind, after verifying it.

        :raises IllegalActionError: if it is not legal now (nothing changes then).
        :raises RenegeError: also when a play proves an earlier renege (P1), once made.
        """
        kind, phase, dealt = type(act), self.phase, self._dealt  # (a type test is quicker)
        if kind is Play and phase is _PLAYING:
            play = cast(Play, act)
            proofs = self._do_play(play.seat, play.card, self.to_play())
        elif phase is Phase.BIDDING and self._legal_bids()[2].get(
                NUMBERED.get(id(act), -1)) is act:  # one check_bid passed for this state
            self.apply_bid(act)
            proofs = _NO_PROOFS
        else:
            self.verify(act)
            proofs = self.apply_act(act)
        if dealt is not None:  # (kept for undo: the lenient methods above forget it)
            self._dealt = dealt
            self._done.append(act)
        for proof in proofs:
            raise proved_renege(proof)

    def undo(self) -> Action:
        """Takes back the last act made by :meth:`do` or :meth:`do_id` and returns it (as
        python-chess's ``Board.pop``): the state is then equal to the one before it. The
        deal is played again from its cards, without the act.

        :raises ValueError: when no act was made, or the state was changed other than by
            ``do`` (the lenient ``apply_*`` of a record).
        """
        dealt, done = self._dealt, self._done
        if dealt is None:
            raise ValueError("undo takes back acts made by do(), and this state was changed "
                             "by the lenient methods of a record (apply_*)")
        if not done:
            raise ValueError("no act to undo")
        ruleset, dealer, hands, upcard, kitty, extra = dealt
        fresh = DealState(ruleset, dealer, hands=hands, upcard=upcard, kitty=kitty, extra=extra)
        for item in done[:-1]:
            try:
                if isinstance(item, int):
                    fresh.do_id(item)
                else:
                    fresh.do(item)
            except RenegeError as error:
                if error.code != "R802":  # (made, and then proved an earlier renege)
                    raise
        last = done[-1]
        self._set_from(fresh, share=True)
        return fresh.action_of(last) if isinstance(last, int) else last

    def _do_play(self, seat: Seat, card: Card | None, due: Seat | None) -> Sequence[Evidence]:
        """:meth:`check_play` and :meth:`apply_play` at once (the phase is playing, and
        ``due`` the seat to play): the earlier reneges the play proves."""
        led = self._led()
        if (card is None or not self._plain(((seat, card),), (due,), led, leads=not self.current)
                or not card.bit & self._deck):
            error = self._named_play_fault(seat, card)
            if error is None:
                error = self._play_fault(seat, card)
            if error is not None:
                raise error
        return self._take([(seat, card)], led)

    @property
    def exchange_due(self) -> bool:
        """Whether the dealer may still exchange (F4, F7): while so, :meth:`legal_actions`
        offers no lead, since the dealer's hand is not settled (a record may leave the
        exchange out; a bot makes it, or declines it, first)."""
        return (self.phase is _DECLARING and not self.exchanged and (
            self.check_exchange(exchange_act(self.dealer, self.upcard, None)) is None
            or (self._pickup_barred() and self.check_exchange(
                exchange_act(self.dealer, None, None, "declines")) is None)))

    def legal_actions(self) -> list[Action]:
        """Every act the verifying methods accept now that can still lead to a complete
        deal: :meth:`do` takes each of them. Plays are only of cards the state knows; no
        lead is offered while :attr:`exchange_due`."""
        phase = self.phase
        if phase is _PLAYING:
            return list(self._legal_plays())
        if phase is Phase.BIDDING:
            return list(self._legal_bids()[0])
        if phase is not _DECLARING:
            return []
        due = self.exchange_due
        acts = self._before_lead(due)
        if not due:
            acts += self._legal_plays()
        return acts

    def _legal_bids(self) -> _LegalBids:
        """The legal bids now, from :meth:`check_bid`, their numbers (ascending) and each
        by its number, kept by everything it asks of the state (the bidding of a deal
        recurs across deals)."""
        key = (self.dealer, self.round, tuple(self.acted), self.high, self.swapped,
               self.upcard)
        table = _tables(self.ruleset)[0]
        legal = table.get(key)
        if legal is None:
            bids = tuple(b for b in bid_candidates(self.seats) if self.check_bid(b) is None)
            by_number = {self.action_id(b): b for b in bids}
            legal = table[key] = (bids, tuple(sorted(by_number)), by_number)
        return legal

    def _before_lead(self, exchange_due: bool) -> list[Action]:
        """The legal exchanges, declarations and merges now (the phase is declaring)."""
        dealer, up = self.dealer, self.upcard
        declines, discards = self._exchanges(exchange_due)
        acts: list[Action] = [exchange_act(dealer, None, None, "declines")] if declines else []
        kept = pickups(dealer, up)
        for card in by_name(discards):
            pickup = kept.get(card.index)
            if pickup is None:
                pickup = kept[card.index] = exchange_act(dealer, up, card)
            acts.append(pickup)
        declarations, merging = self._declarations()
        acts += declarations
        if merging and self.maker is not None:
            acts += self._merges(self.maker)
        return acts

    def _exchanges(self, exchange_due: bool) -> tuple[bool, int]:
        """Whether the dealer may decline now, and the mask of the cards the dealer may
        discard on taking the upcard (the phase is declaring).

        While :attr:`exchange_due` (a pickup naming no discard is legal, unless
        ``natural-pickup`` bars it), so is a pickup discarding any of the six cards
        (:meth:`check_exchange` refuses a discard only outside them, K502), and the
        decline is checked; else no exchange is legal.
        """
        if not exchange_due:
            return False, 0
        dealer, up = self.dealer, self.upcard
        declines = self.check_exchange(exchange_act(dealer, None, None, "declines")) is None
        if self._pickup_barred():
            return declines, 0
        return declines, (self.hands[dealer].known | (up.bit if up is not None else 0)) & self._deck

    def _declarations(self) -> tuple[tuple[Declaration, ...], bool]:
        """The legal lone declarations now, and whether the maker may merge, from
        :meth:`check_declare` and :meth:`check_merge`, kept by everything they ask of the
        state (the phase is declaring)."""
        key = (self.maker, self.merged, self.alone, self.defender, self.dealer,
               self.fixed_in_round)
        table = _tables(self.ruleset)[1]
        legal = table.get(key)
        if legal is None:
            options: list[Declaration] = []
            for kind in ("alone", "defend"):  # by the seats that may make them (seats_due)
                due = self.seats_due(declaration_act(kind, self.dealer))
                options += [declaration_act(kind, s) for s in self.seats if s in due]
            maker = self.maker
            legal = table[key] = (
                tuple(d for d in options if self.check_declare(d) is None),
                maker is not None and self.check_merge(unnamed_merge(maker)) is None)
        return legal

    def _legal_plays(self) -> tuple[Play, ...]:
        """The legal plays now (see :meth:`_play_mask`), in the order of their cards'
        names."""
        turn, legal = self._play_mask()
        return plays_of(legal, turn) if turn is not None else ()

    def _play_mask(self) -> tuple[Seat | None, int]:
        """The seat to play and the mask of the cards it may play now, of those the state
        puts in its hand. The cards the hand surely holds are checked as one mask
        (:func:`following`), as :meth:`_plain` checks each; any other card by
        :meth:`check_play`."""
        turn = self.to_play()
        hand = self.hands.get(turn) if turn is not None else None
        if turn is None or hand is None:
            return None, 0
        legal = 0
        if self.phase is _PLAYING:
            held, led = hand.held, self._led()
            legal = held if led is None or not self.current else following(
                held, held, self.suit_masks[led])
            unsure = hand.known & ~held
            if unsure:
                legal |= mask_of(c for c in cards_of(unsure) if self._check_play(turn, c) is None)
        elif self._turn_fault(turn, None) is None:  # the first lead: any card surely held
            legal = hand.held | mask_of(c for c in cards_of(hand.known & ~hand.held)
                                        if self._card_fault(turn, c) is None)
        return turn, legal & self._deck

    def _merges(self, maker: Seat) -> list[Merge]:
        """The merges the maker may make: of five named cards of the ten, when the state
        knows them all, else one naming none (kept while the cards stay the same)."""
        hand = self.hands[maker]
        if hand.free or self.extra.free:
            return [unnamed_merge(maker)]
        key = (maker, hand.known, self.extra.known)
        if self._merge_list[0] != key:
            ten = by_name(hand.known | self.extra.known)
            deck = self._deck
            self._merge_list = (key, tuple(
                Merge(seat=maker, keeps=kept) for kept in combinations(ten, self.variant.hand_size)
                if all(c.bit & deck for c in kept)))  # (a card of no deck is not kept)
        return list(self._merge_list[1])

    def _merge_ids(self, maker: Seat) -> Sequence[int]:
        """The numbers of :meth:`_merges`."""
        hand = self.hands[maker]
        if hand.free or self.extra.free:
            return range(MERGE_ID, MERGE_ID + 1)
        ten = hand.known | self.extra.known
        if ten & ~self._deck:
            return [self.action_id(m) for m in self._merges(maker)]
        return range(MERGE_KEEPS_ID,
                     MERGE_KEEPS_ID + len(subsets(ten.bit_count(), self.variant.hand_size)))

    # ------------------------------------------------------------ acts as numbers

    def action_id(self, act: Action) -> int:
        """The number of ``act`` in the table of :data:`ACTION_COUNT` acts (docs/api.md);
        the seat is the one that makes such an act now, but for a ``defend``.

        :raises ValueError: for an act the table has no number for (a card of no deck, a
            merge keeping other than the maker's five of ten known cards).
        """
        number = NUMBERED.get(id(act))
        if number is not None:
            return number
        kind = type(act)
        if kind is Play:
            return card_number(cast(Play, act).card)
        if kind is Exchange:
            ex = cast(Exchange, act)
            if ex.act == "declines":
                return DECLINE_ID
            if ex.discard is None:
                raise ValueError("an exchange that does not name its discard has no number")
            return DISCARD_ID + card_number(ex.discard)
        if kind is Declaration:
            decl = cast(Declaration, act)
            if decl.act == "defend":
                return DEFEND_ID + SEAT_NUMBER[decl.seat]
            partner = decl.seat != self.maker and decl.seat in self.makers
            return PARTNER_ALONE_ID if partner else ALONE_ID
        if kind is Merge:
            keeps = cast(Merge, act).keeps
            if keeps is None:
                return MERGE_ID
            ten = self._merge_cards()
            if None in keeps or not set(keeps) <= set(ten):
                raise ValueError("a merge keeping cards not among the ten known has no number")
            return MERGE_KEEPS_ID + combination_rank(
                sorted(ten.index(c) for c in keeps if c is not None), len(ten))
        if kind is Call:
            suit = cast(Call, act).suit
            return CALL_ID + (4 if suit is NO_TRUMP else SUIT_NUMBER[suit])
        if kind is Number:
            tricks = cast(Number, act).tricks
            if not 3 <= tricks <= MOON:
                raise ValueError(f"a bid of {tricks} tricks has no number (3 to {MOON})")
            return BID_ID + tricks - 3
        return PLAIN_BIDS[kind]

    def action_of(self, number: int) -> Action:
        """The act of ``number`` (see :meth:`action_id`), made by the seat due now.

        :raises ValueError: for a number not in the table, or one no seat can make now
            (a play with no seat to play, a merge with no maker).
        """
        if not 0 <= number < ACTION_COUNT:
            raise ValueError(f"not an action number: {number} (0 to {ACTION_COUNT - 1})")
        if number < DISCARD_ID:
            turn = self.to_play()
            if turn is None:
                raise ValueError(f"no seat is to play now (action {number})")
            return play_table()[turn][CARDS_BY_NUMBER[number].index]
        if number < DECLINE_ID:
            return exchange_act(self.dealer, self.upcard, CARDS_BY_NUMBER[number - DISCARD_ID])
        if number == DECLINE_ID:
            return exchange_act(self.dealer, None, None, "declines")
        if DEFEND_ID <= number < MERGE_ID:
            return declaration_act("defend", SEATS_BY_NUMBER[number - DEFEND_ID])
        if number >= ALONE_ID:
            maker = self.maker
            if maker is None:
                raise ValueError(f"no maker is fixed yet (action {number})")
            if number == ALONE_ID:
                return declaration_act("alone", maker)
            if number == PARTNER_ALONE_ID:
                partner = next((s for s in self.makers if s != maker), None)
                if partner is None:
                    raise ValueError(f"the maker has no partner (action {number})")
                return declaration_act("alone", partner)
            if number == MERGE_ID:
                return unnamed_merge(maker)
            ten = self._merge_cards()
            picked = combination(number - MERGE_KEEPS_ID, len(ten), self.variant.hand_size)
            if picked is None:
                raise ValueError(f"no merge of the ten cards has number {number}")
            return Merge(seat=maker, keeps=tuple(sorted((ten[i] for i in picked), key=str)))
        bidder = self._bidder()
        if bidder is None:
            raise ValueError(f"no seat is to bid now (action {number})")
        return bid_of(number, bidder)

    def legal_action_ids(self) -> list[int]:
        """The numbers of :meth:`legal_actions` (see :meth:`action_id`), ascending: worked
        out as :meth:`legal_actions` works them out, without making the acts."""
        phase = self.phase
        if phase is _PLAYING:
            return list(numbers_of(self._play_mask()[1]))
        if phase is Phase.BIDDING:
            return list(self._legal_bids()[1])
        if phase is not _DECLARING:
            return []
        due = self.exchange_due
        declines, discards = self._exchanges(due)
        numbers = [DECLINE_ID] if declines else []
        numbers += [DISCARD_ID + n for n in numbers_of(discards)]
        declarations, merging = self._declarations()
        numbers += map(self.action_id, declarations)
        if merging and self.maker is not None:
            numbers += self._merge_ids(self.maker)
        if not due:
            numbers += numbers_of(self._play_mask()[1])
        numbers.sort()
        return numbers

    def do_id(self, number: int) -> None:
        """Makes the act of ``number`` (see :meth:`action_id`) after verifying it, as
        :meth:`do`.

        :raises ValueError: for a number no act has now (see :meth:`action_of`).
        """
        phase, dealt = self.phase, self._dealt
        if 0 <= number < DISCARD_ID and phase is _PLAYING:
            turn = self.to_play()
            if turn is not None:
                proofs = self._do_play(turn, CARDS_BY_NUMBER[number], turn)
                if dealt is not None:  # (as do keeps it)
                    self._dealt = dealt
                    self._done.append(number)
                for proof in proofs:
                    raise proved_renege(proof)
                return
        elif phase is Phase.BIDDING:
            bid = self._legal_bids()[2].get(number)
            if bid is not None:  # check_bid passed it for this state of the bidding
                self.apply_bid(bid)
                if dealt is not None:  # (as do keeps it)
                    self._dealt = dealt
                    self._done.append(number)
                return
        self.do(self.action_of(number))

    def _merge_cards(self) -> list[Card]:
        """The ten cards of a merge (the maker's hand and the dummy), by their numbers."""
        maker = self.maker
        known = (self.hands[maker].known if maker is not None else 0) | self.extra.known
        return sorted(cards_of(known), key=card_number)

    def _bidder(self) -> Seat | None:
        """The seat to bid now: the dealer on a Benny turn-up, the high bidder naming
        trump (G5), else the next in the bidding order."""
        if self.phase is not Phase.BIDDING:
            return None
        if self.round == 0:
            return self.dealer
        if self.naming:
            return self.high[0] if self.high else None
        return self._due_bidder()


def following(held: int, cards: int, led: int) -> int:
    """The cards of ``cards`` that follow suit (P1, P2), all as masks (see
    :attr:`~euchrelog.cards.Card.bit`): those of the suit led, or every one of them when
    the cards the hand surely holds are none of it."""
    return cards & led if held & led else cards


def follows_suit(held: int, card: int, led: int) -> bool:
    """Whether a card follows suit (P1, P2), all three as masks (see
    :attr:`~euchrelog.cards.Card.bit`): :func:`following` of the one card."""
    return bool(following(held, card, led))


def playable(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played on a lead of the suit ``led``, both masks
    (see :attr:`~euchrelog.cards.Card.bit`): each card of the hand that
    :func:`follows_suit`, as one mask."""
    return hand & led or hand


def dealt_cleanly(cards: Iterable[Card | None], deck: int) -> bool:
    """Whether the cards dealt that the record knows (``None``: one it does not) are each of
    the deck of ``deck`` cards, and each once (C1, F2): then no card of the deal needs
    looking at one by one."""
    bits = list(map(_BIT, filter(None, cards)))  # (a card is true, ``None`` not)
    # Distinct cards' bits add up to as many bits as there are cards; a card twice carries.
    mask = sum(bits)
    return mask.bit_count() == len(bits) and not mask & ~deck_mask(deck)


_Dealt = tuple[Ruleset, Seat, Mapping[Seat, Sequence[Card | None]] | None, Card | None,
               Sequence[Card | None] | None, Sequence[Card | None] | None]
"""The arguments a :class:`DealState` was made with: ruleset, dealer, hands, upcard, kitty
and extra hand."""


def _facts(state: DealState) -> tuple[object, ...]:
    """What :meth:`DealState.__eq__` compares: every attribute but the tables kept for speed
    and the history of :meth:`DealState.undo`."""
    return (state.ruleset, state.dealer, state.upcard, state.phase, state.round, state.hands,
            state.extra_kind, state.extra, state._where, state.played, state.high,
            state.swapped, state.merged, state.acted, state.trump, state.maker,
            state.fixed_in_round, state.exchanged, state.alone, state.defender, state.playing,
            state.current, state.tricks, state.winners, state.leader, state.showouts,
            state.reneges)


def _card_list(mask: int) -> str:
    """The cards of a mask, by name: ``9C TC JH`` (``-`` for none)."""
    return " ".join(map(str, sort_hand(cards_of(mask)))) or "-"


_BIT = attrgetter("bit")
"""Each card's :attr:`~euchrelog.cards.Card.bit`."""


_ACTS: dict[type, tuple[Callable[[DealState, Any], IllegalActionError | None],
                        Callable[[DealState, Any], object]]] = {
    Play: (DealState.check_play, DealState.apply_play),
    Exchange: (DealState.check_exchange, DealState.apply_exchange),
    Merge: (DealState.check_merge, DealState.apply_merge),
    Declaration: (DealState.check_declare, DealState.apply_declare),
    **dict.fromkeys((Pass, Order, Call, Number, Swap), (DealState.check_bid, DealState.apply_bid)),
}
"""The check and the application of each kind of act."""

_LegalBids = tuple[tuple[Bid, ...], tuple[int, ...], dict[int, Bid]]
"""The legal bids of a state of the bidding, their numbers, and each by its number."""
_Tables = tuple[dict[tuple[Any, ...], _LegalBids],
                dict[tuple[Any, ...], tuple[tuple[Declaration, ...], bool]],
                dict[tuple[Seat | None, ...], tuple[tuple[Seat, ...], Seat]],
                dict[Seat, tuple[tuple[Seat, ...], tuple[Seat, ...]]]]
"""The legal bids and declarations of a ruleset by the state they depend on (see
:meth:`DealState._legal_bids` and :meth:`DealState._declarations`), its line-ups by
dealer, maker and lone hands (:func:`lineup`) and its sides by maker (the maker's side and
the defenders)."""
_TABLES: dict[Ruleset, _Tables] = {}
"""The tables of each ruleset."""
_LAST: tuple[Ruleset | None, _Tables] = (None, ({}, {}, {}, {}))
"""The ruleset last asked for and its tables (a ruleset's hash is not quick)."""


def _tables(ruleset: Ruleset) -> _Tables:
    """The tables of ``ruleset`` (see :data:`_TABLES`)."""
    global _LAST
    last = _LAST
    if last[0] is ruleset:
        return last[1]
    tables = _TABLES.setdefault(ruleset, ({}, {}, {}, {}))
    _LAST = (ruleset, tables)
    return tables


_PRINTED_FOLLOWS, _PRINTED_MASKS = suit_list(NO_TRUMP), follow_masks(NO_TRUMP)
"""The suits cards follow while no trump is fixed: their printed ones."""

_DECLARING, _PLAYING = Phase.DECLARING, Phase.PLAYING
"""Phases the play asks for at every card (a module name is quicker than an enum's)."""

_LETTERS = {seat: seat.value for seat in Seat}
"""Each seat's letter (quicker than ``seat.value``)."""
_SEAT_LETTERS = frozenset(_LETTERS.values())
"""The places of :attr:`DealState.where` that are seats."""


@functools.lru_cache(maxsize=256)
def _clockwise(start: Seat, active: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """:func:`~euchrelog.seats.clockwise_from`, kept: the turn order of a trick."""
    return tuple(clockwise_from(start, active))


def sitting_out(ruleset: Ruleset, maker: Seat | None, alone: Seat | None,
                defender: Seat | None) -> tuple[Seat, ...]:
    """The seats that sit out a deal because of a lone maker or a lone defender."""
    if maker is None:
        return ()
    makers = ruleset.side(maker)
    out: list[Seat] = []
    if alone is not None:
        out.extend(s for s in ruleset.seats if ruleset.side(s) == makers and s != alone)
    if defender is not None:
        out.extend(s for s in ruleset.seats if ruleset.side(s) != makers and s != defender)
    return tuple(out)


def lineup(ruleset: Ruleset, dealer: Seat, maker: Seat | None, alone: Seat | None,
           defender: Seat | None) -> tuple[tuple[Seat, ...], Seat]:
    """The seats that play a deal and the opening leader (F10, X7, X10, G5)."""
    out = sitting_out(ruleset, maker, alone, defender)
    playing = tuple(s for s in ruleset.seats if s not in out)
    rule = ruleset.variant.lead
    start = dealer.left
    if rule == "partnership":
        if alone is not None and ruleset.options.lone_lead == "maker-left":
            start = alone.left
    elif rule == "cutthroat":
        if alone is not None:
            start = alone.left
        elif defender is not None:
            start = defender.left
    elif maker is not None:
        start = maker.left if rule == "maker-left" else maker
    return playing, clockwise_from(start, playing)[0]


def proved_renege(proof: Evidence) -> RenegeError:
    """The R802 of a renege proved by a later play: the seat's, in the trick it showed out."""
    return RenegeError("R802", "renege: {seat} shows out of {suit} in trick {trick} (plays "
                               "{card}) but held one: {seat} plays {proof} in trick {later}",
                       seat=proof.seat, card=proof.card, trick=proof.trick + 1,
                       suit=proof.led.noun, proof=proof.proof, later=proof.proof_trick + 1)
