"""The rules of one deal: :class:`DealRules`, what is legal, by kind of act.

Each kind of act has a check (``check_bid``, ``check_exchange``, ``check_merge``,
``check_declare``, ``check_play``: the fault, or ``None``) and an application
(``apply_*``: the act as recorded, legal or not), the lenient pair by which the replay of
a record reads it: one mistake yields one finding, and the rest of the deal is still
checked. The act table and the player's one dialect (``verify``/``can``/``do``) are in
:mod:`.acts`, the acts offered to bots and their numbers in :mod:`.bots`.

What the record puts in each hand, what the hand surely holds and the cards played are
masks of cards (:attr:`~euchrelog.cards.Card.bit`), as are the suits under each trump; the
place of every other card is a table by card, and a trick a list of (seat, card) pairs.
The common case of a legal play is a few bit tests (:meth:`DealRules._plain`), and only a
play that fails them is looked into for its finding.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from ..actions import (
    exchange_act,
)
from ..acts import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ..cards import (
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
from ..errors import IllegalActionError, RenegeError
from ..frozen import Frozen
from ..rules import MOON, Ruleset
from ..seats import Seat, clockwise_from

if TYPE_CHECKING:
    from ..acts import Action

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
class Evidence(Frozen):
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


class DealRules:
    """The mutable state of one deal under a ruleset, and its rules (the state a bot plays
    is :class:`~euchrelog.engine.DealState`, which adds the acts of a player and of bots)."""

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
        self._dealt: _Dealt = (ruleset, dealer, hands, upcard, kitty, extra)
        """The deal as dealt (this constructor's arguments, kept as given), from which
        :meth:`undo` plays :attr:`_done` again."""
        self._done: tuple[Action | int, ...] = ()
        """The acts :meth:`do` made (an act) and :meth:`do_id` (its number), in order (a
        tuple: a copy shares it)."""

    # ------------------------------------------------------------ helpers

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
                return self.lone_makers()
            return self.defenders
        due = self.bidder()
        return (due,) if due is not None else ()

    @property
    def bidders(self) -> tuple[Seat, ...]:
        """The bidding order: from the dealer's left, dealer last."""
        return self._bidders

    def bidder(self) -> Seat | None:
        """The seat to bid now: the dealer on a Benny turn-up, the high bidder naming
        trump (G5), else the next in the bidding order."""
        if self.phase is not Phase.BIDDING:
            return None
        if self.round == 0:
            return self.dealer
        if self.naming:
            return self.high[0] if self.high else None
        return self._due_bidder()

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
        kept = ruleset_tables(self.ruleset)[3]
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

    def fix_contract(self, trump: Trump, maker: Seat, bid: int | None = None) -> None:
        """Fixes trump, maker and (ghost) the bid without bidding: a score-sheet record."""
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

    @property
    def exchange_due(self) -> bool:
        """Whether the dealer may still exchange (F4, F7): while so, :meth:`legal_actions`
        offers no lead, since the dealer's hand is not settled (a record may leave the
        exchange out; a bot makes it, or declines it, first)."""
        return (self.phase is _DECLARING and not self.exchanged and (
            self.check_exchange(exchange_act(self.dealer, self.upcard, None)) is None
            or (self._pickup_barred() and self.check_exchange(
                exchange_act(self.dealer, None, None, "declines")) is None)))

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
            lone = self.lone_makers()
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

    def lone_makers(self) -> tuple[Seat, ...]:
        """The seats that may go alone for the makers (F9, ``partner-alone``)."""
        maker = self.maker
        return () if maker is None else self.ruleset.lone_makers(self.dealer, maker,
                                                                 self.fixed_in_round)

    def apply_declare(self, decl: Declaration) -> None:
        """Applies a declaration as recorded; one the rules do not allow is void."""
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
            kept = ruleset_tables(self.ruleset)[2]
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
        hand = self.hands[seat]
        known = hand.known
        if starting and card == self.upcard and self._upcard_with_dealer():
            # The hands as the play starts them (:meth:`_start_play`): the dealer may hold
            # the upcard, though the exchange is not recorded.
            place = self.dealer.value
            if seat is self.dealer:
                known |= card.bit
        if place == "played":
            return IllegalActionError(
                "P703", "{seat} plays {card} in trick {trick}, but {where}", seat=seat, card=card,
                trick=trick_no, where=self._place(card))
        if place in ("kitty", "discard", "up"):
            return IllegalActionError(
                "P708", "{seat} plays {card} in trick {trick}, but {where}", seat=seat, card=card,
                trick=trick_no, where=self._place(card))
        if not card.bit & known:
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
        self.winners[-1] = None
        if self.phase is Phase.PLAYING and not self.current:
            self.leader = None

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


def _card_list(mask: int) -> str:
    """The cards of a mask, by name: ``9C TC JH`` (``-`` for none)."""
    return " ".join(map(str, sort_hand(cards_of(mask)))) or "-"


_BIT = attrgetter("bit")
"""Each card's :attr:`~euchrelog.cards.Card.bit`."""


Tables = tuple[dict[tuple[Any, ...], Any], dict[tuple[Any, ...], Any],
               dict[tuple[Seat | None, ...], tuple[tuple[Seat, ...], Seat]],
               dict[Seat, tuple[tuple[Seat, ...], tuple[Seat, ...]]]]
"""What is kept of a ruleset, by the state it depends on: the legal bids and declarations
(see :meth:`~euchrelog.engine.acts.DealActs._legal_bids` and
:meth:`~euchrelog.engine.bots.DealState._declarations`), its line-ups by dealer, maker and
lone hands (:func:`lineup`) and its sides by maker (the maker's side and the defenders)."""
_TABLES: dict[Ruleset, Tables] = {}
"""The tables of each ruleset."""
_LAST: tuple[Ruleset | None, Tables] = (None, ({}, {}, {}, {}))
"""The ruleset last asked for and its tables (a ruleset's hash is not quick)."""


def ruleset_tables(ruleset: Ruleset) -> Tables:
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
