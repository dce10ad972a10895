"""Whose decision it is: the acts of one deal as a sequence of turns, one seat at a time.

:meth:`~euchrelog.engine.DealState.legal_actions` lists every act that may come next,
whoever makes it: in the bidding and the play they are one seat's, but between the bidding
and the first lead the dealer's exchange, the maker's merge and lone hands and the
defenders' lone defences may all be open at once, none of them bound to happen. A player
is asked one question at a time, so :func:`next_turn` puts them in order: the dealer's
exchange first, then each seat that may merge or declare (the makers first, then the
defenders), then the lead. A seat whose act may be left out is offered :data:`STAND`
(the number of ``pass``) beside its acts: standing makes no act, and the seat is not asked
again before the lead.

>>> import random
>>> from euchrelog.generate import new_deal, ruleset_for
>>> from euchrelog.seats import Seat
>>> state = new_deal(random.Random(1), ruleset_for("four-hand"), Seat.N)
>>> next_turn(state, frozenset())
Turn(seat=<Seat.E: 'E'>, actions=(67, 68))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..actions import DECLINE_ID, DISCARD_ID, MERGE_ID, PARTNER_ALONE_ID, PASS_ID
from ..engine import DealState, Phase
from ..seats import Seat

_PLAYING = Phase.PLAYING

STAND = PASS_ID
"""The number a seat answers with to make no act between the bidding and the lead (the
act it may leave out: an optional exchange, merge or lone hand). Outside that phase it is
the number of a pass, as always."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision: the seat that makes it and the numbers it may answer (ascending)."""

    seat: Seat
    actions: tuple[int, ...]


def next_turn(state: DealState, stood: Iterable[Seat] = (),
              legal: list[int] | None = None) -> Turn | None:
    """The next decision of the deal, or ``None`` once it is over; ``stood`` are the seats
    that answered :data:`STAND` since the bidding ended (they are not asked again), and
    ``legal`` the state's :meth:`~euchrelog.engine.DealState.legal_action_ids` if the
    caller has them (a stand changes nothing)."""
    phase = state.phase
    if phase is _PLAYING:
        seat = state.to_play()
        if seat is None:
            return None
        return Turn(seat, tuple(state.legal_action_ids() if legal is None else legal))
    if phase is Phase.BIDDING:
        numbers = state.legal_action_ids() if legal is None else legal
        seat = state.bidder()
        if not numbers or seat is None:
            return None
        return Turn(seat, tuple(numbers))  # (each legal bid is the bidder's)
    if phase is not Phase.DECLARING:
        return None
    return _declaring(state, frozenset(stood), legal)


def _declaring(state: DealState, stood: frozenset[Seat], legal: list[int] | None
               ) -> Turn | None:
    """The next decision between the bidding and the first lead."""
    numbers = state.legal_action_ids() if legal is None else legal
    if not numbers:
        return None
    plays: list[int] = []
    exchanges: list[int] = []
    others: list[int] = []
    for n in numbers:  # (one pass, in order: plays, exchanges, then the rest)
        if n < DISCARD_ID:
            plays.append(n)
        elif n <= DECLINE_ID:
            exchanges.append(n)
        else:
            others.append(n)
    if exchanges:  # (offered only while the exchange is due)
        return Turn(state.dealer, tuple(exchanges))
    seats = _seats(state, others)
    mine: dict[Seat, list[int]] = {}
    for n in others:
        mine.setdefault(seats[n], []).append(n)
    for seat in _declaring_order(state):
        if seat in stood:
            continue
        acts = mine.get(seat)
        if acts:
            return Turn(seat, tuple(sorted({*acts, STAND})) if plays else tuple(acts))
    if plays:
        return Turn(state.action_of(plays[0]).seat, tuple(plays))
    seat = seats[others[0]]  # (an act no seat may leave out, though it stood: asked again)
    return Turn(seat, tuple(mine[seat]))


def _seats(state: DealState, numbers: list[int]) -> dict[int, Seat]:
    """The seat that makes each act of ``numbers`` (exchanges, declarations and merges:
    one look a kind of act, every merge being the maker's)."""
    seats: dict[int, Seat] = {}
    kinds: dict[int, Seat] = {}
    for n in numbers:
        kind = 1 if MERGE_ID <= n < PARTNER_ALONE_ID else n
        seat = kinds.get(kind)
        if seat is None:
            seat = kinds[kind] = state.action_of(n).seat
        seats[n] = seat
    return seats


def _declaring_order(state: DealState) -> list[Seat]:
    """The order seats are asked in before the lead: the maker, its partners, then the
    defenders, each group clockwise as the state seats them."""
    makers = state.makers
    return [*makers, *(s for s in state.seats if s not in makers)]
