"""What a seat may know, as a fixed-size vector (:data:`LAYOUT`, docs/api.md "The
environment"): the same size in every variant, each block by card number (0 to 32, the
table of acts) or by seat counted clockwise from the seat itself (0: itself, 1: its left,
2: across, 3: its right; a seat the variant has not stays 0)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from ..actions import ACTION_COUNT, CARDS_BY_NUMBER, PASS_ID, SWAP_ID, card_number, numbers_of
from ..acts import Exchange
from ..cards import NO_TRUMP, Suit
from ..engine import Phase
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
_PHASE = {phase: k for k, phase in enumerate(PHASES)}
_TRUMP = {trump: k for k, trump in enumerate(TRUMPS)}
_SUIT = {suit: k for k, suit in enumerate(Suit)}


def observe(table: Table, seat: Seat, totals: Mapping[str, int], target: int
            ) -> npt.NDArray[np.float32]:
    """What ``seat`` may know of the deal at ``table``, with the game's running ``totals``
    (by side) and its ``target``, as the vector of :data:`LAYOUT`."""
    out = np.zeros(SIZE, dtype=np.float32)
    state = table.state
    place = PLACE[seat]
    ones: list[int] = []  # (the places set to 1, all at once)
    hand = state.hands.get(seat)
    if hand is not None:
        ones += [OFFSET["hand"] + number for number in numbers_of(hand.known)]
    if state.upcard is not None:
        ones.append(OFFSET["upcard"] + card_number(state.upcard))
    for entry in table.deal.entries:
        if isinstance(entry, Exchange) and entry.act == "takes":
            ones.append(OFFSET["upcard taken"])
            if entry.seat == seat and entry.discard is not None:
                ones.append(OFFSET["discard"] + card_number(entry.discard))
    ones += [OFFSET["dealer"] + place[state.dealer], OFFSET["phase"] + _PHASE[state.phase],
             OFFSET["round"] + min(state.round, 2)]
    if state.trump is not None:
        ones.append(OFFSET["trump"] + _TRUMP[state.trump])
    for name, who in (("maker", state.maker), ("alone", state.alone),
                      ("defender", state.defender)):
        if who is not None:
            ones.append(OFFSET[name] + place[who])
    bids = OFFSET["bids"]
    ones += [bids + (place[bidder] * 2 + (round_ >= 2)) * BIDS + number - PASS_ID
             for bidder, round_, number in table.bids]
    played, trick = OFFSET["played"], OFFSET["trick"]
    ones += [played + place[who] * CARDS + card_number(card)
             for finished in state.tricks for who, card in finished if card is not None]
    ones += [trick + place[who] * CARDS + card_number(card)
             for who, card in state.current if card is not None]
    leader = state.current[0][0] if state.current else (
        state.leader if state.phase is Phase.PLAYING else None)
    if leader is not None:
        ones.append(OFFSET["leader"] + place[leader])
    showouts = OFFSET["show-outs"]
    ones += [showouts + place[who] * 4 + _SUIT[suit]
             for who, suits in state.showouts.items() for suit in suits]
    out[ones] = 1.0
    share = 1 / state.variant.tricks
    for winner in state.winners:
        if winner is not None:
            out[OFFSET["tricks"] + place[winner]] += share
    for who in state.seats:
        total = totals.get(state.side(who), 0)
        out[OFFSET["score"] + place[who]] = max(-1.0, min(1.0, total / target))
    return out


def action_mask(table: Table, seat: Seat) -> npt.NDArray[np.int8]:
    """1 for each number ``seat`` may answer now (all 0 when it is not its turn)."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    turn = table.turn()
    if turn is not None and turn.seat == seat:
        mask[list(turn.actions)] = 1
    return mask
