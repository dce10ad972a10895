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

from ..actions import PASS_ID
from ..engine import DealState, Phase
from ..models import Exchange, Play
from ..seats import Seat

STAND = PASS_ID
"""The number a seat answers with to make no act between the bidding and the lead (the
act it may leave out: an optional exchange, merge or lone hand). Outside that phase it is
the number of a pass, as always."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision: the seat that makes it and the numbers it may answer (ascending)."""

    seat: Seat
    actions: tuple[int, ...]


def next_turn(state: DealState, stood: Iterable[Seat] = ()) -> Turn | None:
    """The next decision of the deal, or ``None`` once it is over; ``stood`` are the seats
    that answered :data:`STAND` since the bidding ended (they are not asked again)."""
    phase = state.phase
    if phase is Phase.BIDDING or phase is Phase.PLAYING:
        acts = state.legal_actions()
        if not acts:
            return None
        return Turn(acts[0].seat, tuple(state.legal_action_ids()))
    if phase is not Phase.DECLARING:
        return None
    return _declaring(state, frozenset(stood))


def _declaring(state: DealState, stood: frozenset[Seat]) -> Turn | None:
    """The next decision between the bidding and the first lead."""
    acts = state.legal_actions()
    if not acts:
        return None
    numbered = [(a, state.action_id(a)) for a in acts]
    if state.exchange_due:
        mine = tuple(sorted(n for a, n in numbered if isinstance(a, Exchange)))
        if mine:
            return Turn(state.dealer, mine)
    lead = any(isinstance(a, Play) for a, _ in numbered)
    for seat in _declaring_order(state):
        if seat in stood:
            continue
        mine = tuple(sorted(n for a, n in numbered
                            if a.seat == seat and not isinstance(a, Play)))
        if mine:
            return Turn(seat, tuple(sorted({*mine, STAND})) if lead else mine)
    if lead:
        plays = tuple(sorted(n for a, n in numbered if isinstance(a, Play)))
        return Turn(next(a.seat for a in acts if isinstance(a, Play)), plays)
    seat = acts[0].seat  # (an act no seat may leave out, though it stood: asked again)
    return Turn(seat, tuple(sorted(n for a, n in numbered if a.seat == seat)))


def _declaring_order(state: DealState) -> list[Seat]:
    """The order seats are asked in before the lead: the maker, its partners, then the
    defenders, each group clockwise as the state seats them."""
    makers = state.makers
    return [*makers, *(s for s in state.seats if s not in makers)]
