"""What a seat may know, as a fixed-size vector (:data:`LAYOUT`, docs/api.md "The
environment"): the same size in every variant, each block by card number (0 to 32, the
table of acts) or by seat counted clockwise from the seat itself (0: itself, 1: its left,
2: across, 3: its right; a seat the variant has not stays 0)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import numpy.typing as npt

from ..actions import (
    ACTION_COUNT,
    CARDS_BY_NUMBER,
    DECLINE_ID,
    DISCARD_ID,
    PASS_ID,
    SWAP_ID,
    card_number,
    numbers_of,
)
from ..acts import Exchange
from ..cards import NO_TRUMP, Suit
from ..engine import DealState, Phase
from ..players import Table
from ..seats import SEATS, Seat

CARDS = len(CARDS_BY_NUMBER)
"""33: the cards an act may name (a 24-card deck uses some)."""
PLACES = len(SEATS)
"""4: the seats, counted from the seat itself."""
BIDS = SWAP_ID - PASS_ID + 1
"""12: the bids by number less 67 (pass, order, the five calls, bids of 3 to 6, swap)."""
PHASES = (Phase.BIDDING, Phase.DECLARING, Phase.PLAYING, Phase.DONE, Phase.THROWN)
TRUMPS = (*Suit, NO_TRUMP)

LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("hand", CARDS, "the cards in the seat's hand now"),
    ("upcard", CARDS, "the card turned up (none in ghost)"),
    ("upcard taken", 1, "1 once the dealer has taken the upcard"),
    ("discard", CARDS, "the card the seat discarded as the dealer (only the dealer knows it)"),
    ("dealer", PLACES, "the dealer"),
    ("phase", len(PHASES), "bidding, declaring (trump fixed, before the lead), playing, done, "
                           "thrown in"),
    ("round", 3, "the bidding round: 0 (a Benny turned up), 1, 2 (or later, ghost)"),
    ("trump", len(TRUMPS), "clubs, diamonds, hearts, spades, no trump"),
    ("maker", PLACES, "the maker"),
    ("alone", PLACES, "the seat that goes alone for the makers"),
    ("defender", PLACES, "the seat that defends alone"),
    ("bids", PLACES * 2 * BIDS, "for each seat, then each round (1; 2 or later), the bids it "
                                "made, by number less 67: pass, order, call C D H S NT, bid 3 "
                                "4 5 6, swap"),
    ("played", PLACES * CARDS, "for each seat, the cards it played in the finished tricks"),
    ("trick", PLACES * CARDS, "for each seat, the card it played in the trick under way"),
    ("leader", PLACES, "the seat that led the trick under way, or leads the next"),
    ("show-outs", PLACES * 4, "for each seat, the suits it has shown out of (clubs, diamonds, "
                              "hearts, spades)"),
    ("tricks", PLACES, "the tricks each seat has taken, over the tricks of a deal"),
    ("score", PLACES, "the running total of each seat's side over the target, within -1 "
                      "and 1"),
)
"""The blocks of the observation, in order: name, size, what each holds."""
SIZE = sum(size for _, size, _ in LAYOUT)
"""The length of the observation vector."""
OFFSET = {name: sum(size for _, size, _ in LAYOUT[:k]) for k, (name, _, _) in enumerate(LAYOUT)}
"""Where each block starts."""


PLACE = {seat: {other: (SEATS.index(other) - SEATS.index(seat)) % PLACES for other in SEATS}
         for seat in SEATS}
"""``PLACE[seat][other]``: ``other`` counted clockwise from ``seat`` (0 to 3)."""
_PLAYING = Phase.PLAYING
_PHASE = {phase: k for k, phase in enumerate(PHASES)}
_TRUMP = {trump: k for k, trump in enumerate(TRUMPS)}
_SUIT = {suit: k for k, suit in enumerate(Suit)}

# Every seat's observation is one gather (:data:`PERM`) of one vector of the whole table
# (:data:`ABSOLUTE`): the same blocks, but each seat's own blocks (``hand``, ``discard``)
# once per seat, and the blocks by seat in the order N E S W rather than from the seat.
_OWN = ("hand", "discard")
_BY_SEAT = {"dealer": 1, "maker": 1, "alone": 1, "defender": 1, "bids": 2 * BIDS,
            "played": CARDS, "trick": CARDS, "leader": 1, "show-outs": 4, "tricks": 1,
            "score": 1}
"""The blocks kept by seat, and the numbers each seat has in them."""
_SIZES = {name: size * (PLACES if name in _OWN else 1) for name, size, _ in LAYOUT}
ABS = {name: sum(_SIZES[n] for n, _, _ in LAYOUT[:k]) for k, (name, _, _) in enumerate(LAYOUT)}
"""Where each block starts in the vector of the whole table."""
ABSOLUTE = sum(_SIZES.values())
"""The length of the vector of the whole table."""
_HEADER = ("upcard", "upcard taken", "dealer", "phase", "round", "trump", "maker", "alone",
           "defender")
"""The blocks worked out again after every act but a play (they are contiguous)."""


def _perm(seat: Seat) -> npt.NDArray[np.intp]:
    """Where each number of ``seat``'s observation is in the vector of the whole table."""
    out: list[int] = []
    me = SEATS.index(seat)
    for name, size, _ in LAYOUT:
        base = ABS[name]
        if name in _OWN:
            out += range(base + me * size, base + (me + 1) * size)
        elif name in _BY_SEAT:
            width = _BY_SEAT[name]
            for place in range(PLACES):
                at = base + (me + place) % PLACES * width
                out += range(at, at + width)
        else:
            out += range(base, base + size)
    assert len(out) == SIZE
    return np.array(out, dtype=np.intp)


PERM = {seat: _perm(seat) for seat in SEATS}
"""``vector.take(PERM[seat])``: ``seat``'s observation of the table's vector."""
_AT = {seat: SEATS.index(seat) for seat in SEATS}
_LEADER = {seat: ABS["leader"] + k for k, seat in enumerate(SEATS)}
_TRICK = {seat: ABS["trick"] + k * CARDS for k, seat in enumerate(SEATS)}
_HAND = {seat: ABS["hand"] + k * CARDS for k, seat in enumerate(SEATS)}
_BITS = [card.bit for card in CARDS_BY_NUMBER]


def _leader(state: DealState) -> Seat | None:
    """The seat that led the trick under way, or leads the next."""
    if state.current:
        return state.current[0][0]
    return state.leader if state.phase is Phase.PLAYING else None


def _header(out: npt.NDArray[np.float32], state: DealState) -> None:
    """Fills the blocks of :data:`_HEADER` but ``upcard taken`` (kept)."""
    at = _AT
    start, end = ABS["upcard"], ABS["upcard taken"]
    out[start:end] = 0.0
    start, end = ABS["dealer"], ABS["bids"]
    out[start:end] = 0.0
    out[ABS["dealer"] + at[state.dealer]] = 1.0
    out[ABS["phase"] + _PHASE[state.phase]] = 1.0
    out[ABS["round"] + min(state.round, 2)] = 1.0
    if state.upcard is not None:
        out[ABS["upcard"] + card_number(state.upcard)] = 1.0
    if state.trump is not None:
        out[ABS["trump"] + _TRUMP[state.trump]] = 1.0
    for name, who in (("maker", state.maker), ("alone", state.alone),
                      ("defender", state.defender)):
        if who is not None:
            out[ABS[name] + at[who]] = 1.0


def _hand(out: npt.NDArray[np.float32], seat: Seat, was: int, now: int) -> None:
    """Changes ``seat``'s hand block from the cards of mask ``was`` to those of ``now``."""
    base = ABS["hand"] + _AT[seat] * CARDS
    for n in numbers_of(was & ~now):  # (a few numbers: one by one is quicker)
        out[base + n] = 0.0
    for n in numbers_of(now & ~was):
        out[base + n] = 1.0


def _shown(out: npt.NDArray[np.float32], seat: Seat, suits: Iterable[Suit]) -> None:
    """Fills ``seat``'s show-outs."""
    base = ABS["show-outs"] + _AT[seat] * 4
    out[base:base + 4] = 0.0
    for suit in suits:
        out[base + _SUIT[suit]] = 1.0


def fill(out: npt.NDArray[np.float32], table: Table, totals: Mapping[str, int], target: int
         ) -> None:
    """Fills ``out`` (zeros, :data:`ABSOLUTE` long) with the vector of the whole table: the
    deal at ``table``, the game's running ``totals`` (by side) and its ``target``."""
    state = table.state
    at = _AT
    for seat, hand in state.hands.items():
        _hand(out, seat, 0, hand.known)
    for entry in table.deal.entries:
        if isinstance(entry, Exchange) and entry.act == "takes":
            out[ABS["upcard taken"]] = 1.0
            if entry.discard is not None:
                out[ABS["discard"] + at[entry.seat] * CARDS + card_number(entry.discard)] = 1.0
    _header(out, state)
    leader = _leader(state)
    if leader is not None:
        out[_LEADER[leader]] = 1.0
    bids = ABS["bids"]
    for bidder, round_, number in table.bids:
        out[bids + (at[bidder] * 2 + (round_ >= 2)) * BIDS + number - PASS_ID] = 1.0
    played, trick = ABS["played"], ABS["trick"]
    for finished in state.tricks:
        for who, card in finished:
            if card is not None:
                out[played + at[who] * CARDS + card_number(card)] = 1.0
    for who, card in state.current:
        if card is not None:
            out[trick + at[who] * CARDS + card_number(card)] = 1.0
    for who, suits in state.showouts.items():
        for suit in suits:
            out[ABS["show-outs"] + at[who] * 4 + _SUIT[suit]] = 1.0
    share = 1 / state.variant.tricks
    for winner in state.winners:
        if winner is not None:
            out[ABS["tricks"] + at[winner]] += share
    for who in state.seats:
        total = totals.get(state.side(who), 0)
        out[ABS["score"] + at[who]] = max(-1.0, min(1.0, total / target))


def observe(table: Table, seat: Seat, totals: Mapping[str, int], target: int
            ) -> npt.NDArray[np.float32]:
    """What ``seat`` may know of the deal at ``table``, with the game's running ``totals``
    (by side) and its ``target``, as the vector of :data:`LAYOUT` (worked out from the
    start: :class:`Observer` keeps it up to date act by act)."""
    out = np.zeros(ABSOLUTE, dtype=np.float32)
    fill(out, table, totals, target)
    return out.take(PERM[seat])


class Observer:
    """The observation of every seat of the deal at ``table``, kept up to date as each
    act is made (:meth:`made`), from the act's number and what the engine's state says
    after it, rather than worked out from the start at each step."""

    def __init__(self, table: Table, totals: Mapping[str, int], target: int) -> None:
        self.table = table
        state = table.state
        self.vector = np.zeros(ABSOLUTE, dtype=np.float32)
        """The vector of the whole table (:data:`ABSOLUTE`)."""
        fill(self.vector, table, totals, target)
        self.known = {seat: hand.known for seat, hand in state.hands.items()}
        """Each hand's cards as the vector has them (a mask)."""
        self.shown = {seat: frozenset(suits) for seat, suits in state.showouts.items()}
        self.finished = len(state.tricks)
        self.share = 1 / state.variant.tricks
        self.leader = _leader(state)
        self.header = (state.phase, state.round, state.upcard, state.trump, state.maker,
                       state.alone, state.defender)
        """What the blocks of :data:`_HEADER` show (the dealer does not change)."""

    def observe(self, seat: Seat) -> npt.NDArray[np.float32]:
        """``seat``'s observation (a new array)."""
        return self.vector.take(PERM[seat])

    def made(self, seat: Seat, number: int, phase: Phase, round_: int) -> None:
        """Brings the vector up to date after ``seat`` made the act ``number`` in
        ``phase`` and bidding round ``round_`` (as they were before it)."""
        out = self.vector
        state = self.table.state
        known = self.known
        if number < DISCARD_ID:  # a play (of the card of the same number)
            hand = state.hands.get(seat)
            now = hand.known if hand is not None else 0
            was = known.get(seat, 0)
            if now != was:
                if was ^ now == _BITS[number]:  # (the card played left the hand)
                    out[_HAND[seat] + number] = 0.0
                else:
                    _hand(out, seat, was, now)
                known[seat] = now
            if len(state.tricks) != self.finished:  # (the play closed the trick)
                self._close(state)
            else:
                out[_TRICK[seat] + number] = 1.0
            suits = state.showouts.get(seat)
            if suits and suits.keys() != self.shown[seat]:
                _shown(out, seat, suits)
                self.shown[seat] = frozenset(suits)
            if state.phase is not phase:
                self._header(state)
            self._lead(state)
            return
        if phase is Phase.BIDDING:
            out[ABS["bids"] + (_AT[seat] * 2 + (round_ >= 2)) * BIDS + number - PASS_ID] = 1.0
        elif number < DECLINE_ID:  # the dealer takes the upcard
            out[ABS["upcard taken"]] = 1.0
            out[ABS["discard"] + _AT[seat] * CARDS + number - DISCARD_ID] = 1.0
        self._header(state)
        self._lead(state)
        for who, hand in state.hands.items():
            was = known.get(who, 0)
            if hand.known != was:
                _hand(out, who, was, hand.known)
                known[who] = hand.known

    def _header(self, state: DealState) -> None:
        """Fills the blocks of :data:`_HEADER` again if what they show has changed (a pass
        mostly changes none of them)."""
        shown = (state.phase, state.round, state.upcard, state.trump, state.maker,
                 state.alone, state.defender)
        if shown != self.header:
            _header(self.vector, state)
            self.header = shown

    def _lead(self, state: DealState) -> None:
        """Moves the block ``leader`` to the seat that leads now, if another."""
        leader = state.current[0][0] if state.current else (
            state.leader if state.phase is _PLAYING else None)
        if leader is not self.leader:
            if self.leader is not None:
                self.vector[_LEADER[self.leader]] = 0.0
            if leader is not None:
                self.vector[_LEADER[leader]] = 1.0
            self.leader = leader

    def _close(self, state: DealState) -> None:
        """Moves the trick just closed to the cards played, and counts its winner."""
        out = self.vector
        trick, played = ABS["trick"], ABS["played"]
        out[trick:trick + PLACES * CARDS] = 0.0
        at = _AT
        for finished in state.tricks[self.finished:]:
            for who, card in finished:
                if card is not None:
                    out[played + at[who] * CARDS + card_number(card)] = 1.0
        for winner in state.winners[self.finished:]:
            if winner is not None:
                out[ABS["tricks"] + at[winner]] += self.share
        self.finished = len(state.tricks)


def mask_of(numbers: Iterable[int]) -> npt.NDArray[np.int8]:
    """The action mask of ``numbers``: 1 for each (a new array)."""
    mask = bytearray(ACTION_COUNT)
    for number in numbers:
        mask[number] = 1
    return np.frombuffer(mask, dtype=np.int8)


def action_mask(table: Table, seat: Seat) -> npt.NDArray[np.int8]:
    """1 for each number ``seat`` may answer now (all 0 when it is not its turn)."""
    turn = table.turn()
    return mask_of(turn.actions if turn is not None and turn.seat == seat else ())
