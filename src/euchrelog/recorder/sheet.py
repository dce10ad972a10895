"""The lines of a score sheet the recorder enters: a deal's score-sheet line
(:func:`sheet_line`) and a penalty (:func:`penalty_line`)."""

from __future__ import annotations

from pydantic import ValidationError

from ..acts import Call, Declaration, Number, Order, Pass, Swap
from ..cards import Trump, parse_trump
from ..engine import Phase
from ..models import Penalty, Sheet
from ..rules import Ruleset
from ..seats import SEATS, Seat
from .deal import DealRecord, deal_state
from .entries import (
    IllegalEntryError,
    SeatLike,
    SideLike,
    TakenLike,
    plain,
    read_seat,
    seat_items,
    trick_bid,
)


def sheet_line(deal: DealRecord, trump: Trump | str | None, maker: SeatLike | None,
               alone: bool | SeatLike | None, defend: SeatLike | None, bid: int | str | None,
               tricks: int | None, taken: TakenLike | None, thrown: bool
               ) -> tuple[Sheet, tuple[Declaration, ...]]:
    """The score-sheet line :meth:`~euchrelog.recorder.Recorder.sheet` enters in ``deal``,
    and the declaration lines it brings with it (:attr:`DealRecord.sheet_acts`); what the
    line leaves out is what the bidding and the declarations fixed.

    :raises IllegalActionError: for a line that cannot be right (C903, B408, A601, A602,
        A604, B410).
    """
    state = deal.state
    if state.tricks or state.current:
        raise IllegalEntryError(
            "C903", "cards have been played in this deal: enter the rest of the tricks "
                    "(or undo them to score the deal from the sheet)")
    bidding = any(isinstance(e, Pass | Order | Call | Number | Swap) for e in deal.entries)
    if bidding and state.phase is Phase.BIDDING:
        raise IllegalEntryError(
            "C903", "the bidding is unfinished: finish it, or undo it to score the deal "
                    "from the sheet")
    if state.phase is Phase.DECLARING and not thrown:
        trump = state.trump if trump is None else trump
        maker = state.maker if maker is None else maker
        if alone is None:
            alone = state.alone is not None
        if defend is None:
            defend = state.defender
        if bid is None:
            bid = state.contract
    if isinstance(trump, str):
        try:
            trump = parse_trump(trump.strip())
        except ValueError as exc:
            raise IllegalEntryError("S101", str(exc)) from None
    acts: list[Declaration] = []
    if alone is not None and not isinstance(alone, bool):
        seat = read_seat(alone)
        if seat not in (state.alone, None if maker is None else read_seat(maker)):
            acts.append(Declaration(act="alone", seat=seat))
        alone = True
    if acts and defend is not None and read_seat(defend) != state.defender:
        acts.append(Declaration(act="defend", seat=read_seat(defend)))
    probe = state
    if acts and state.phase is Phase.BIDDING and trump is not None and maker is not None:
        probe = deal_state(state.ruleset, deal.cards)
        probe.fix_contract(trump, read_seat(maker))
    for act in acts if probe.phase is Phase.DECLARING else ():
        fault = probe.check_declare(act)
        if fault is not None:
            raise fault
    fields = {
        "thrown": thrown, "trump": trump,
        "maker": read_seat(maker) if maker is not None else None, "alone": bool(alone),
        "defend": read_seat(defend) if defend is not None else None, "bid": trick_bid(bid),
        "tricks": tricks,
        "taken": taken_by_seat(taken) if taken is not None else None}
    try:
        line = Sheet.model_validate(fields)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise IllegalEntryError("C903", plain(f"{where}: {error['msg']}" if where
                                              else error["msg"])) from None
    return line, tuple(acts)


def taken_by_seat(taken: TakenLike) -> dict[Seat, int]:
    """Each player's tricks, in seat order."""
    counts = {read_seat(s): n for s, n in seat_items(taken)}
    return {s: counts[s] for s in sorted(counts, key=SEATS.index)}


def penalty_line(ruleset: Ruleset, who: SideLike, points: int, reason: str) -> Penalty:
    """The penalty line charged to ``who``, or raises why it cannot be."""
    try:
        line = Penalty(who=str(who).strip(), points=points, reason=reason)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise IllegalEntryError("S101", plain(error["msg"])) from None
    if ruleset.side_of(line.who) not in ruleset.side_names:
        raise IllegalEntryError(
            "C904", f"a penalty to {line.who}, but {ruleset.variant.name} scores for "
                    f"{' and '.join(ruleset.side_names)}")
    return line
