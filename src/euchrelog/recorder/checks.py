"""The recorder's checks by replay: a deal replayed on its own as ``euchrelog check`` replays
it, the first finding that refuses an entry, and the findings a record to go on with may
not have."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..findings import Finding
from ..models import Deal, End, Game, Tag
from ..replay import GameReport, replay
from ..seats import Seat
from .deal import DealRecord
from .entries import IllegalEntryError

_DEAL_PREFIX = re.compile(r"^deal \d+: ")


def replay_deal(tags: tuple[Tag, ...], deal: DealRecord, *, done: bool) -> GameReport:
    """Replays one deal on its own as ``check`` would: as the last deal of an unfinished
    record while it is open, as a whole deal when ``done``."""
    game = Game(tags=tags, deals=(deal.model(),),
                end=None if done else End(act="unfinished"))
    return replay(game)


def first_fault(report: GameReport, reneged: Iterable[Seat] = ()
                ) -> IllegalEntryError | None:
    """The first finding of a replay that refuses an entry; the reneges of the seats in
    ``reneged`` were entered as such (:meth:`~euchrelog.recorder.Recorder.renege`) and
    refuse nothing."""
    allowed = {str(seat) for seat in reneged}
    for finding in report.findings:
        # (The deal is replayed on its own, after no deal before it: its number is alone.)
        if finding.kind.sequence == "number" or finding.kind.open == "game" or (
                finding.severity == "warning" and not finding.kind.open):
            continue
        if finding.kind.renege and finding.seat in allowed:
            continue
        return IllegalEntryError(finding.code, _DEAL_PREFIX.sub("", finding.message))
    return None


def resume_fault(findings: Iterable[Finding], last: Deal | None, stopped: bool
                 ) -> IllegalEntryError | None:
    """The first finding of ``check`` that a record to go on with may not have: anything
    but the marks of a recording that stopped (no end line, a game that ended without its
    result line, the ``last`` deal short of tricks or points, its last trick left open,
    when the record has ``stopped``: no end line or ``unfinished``); a renege is no fault
    here: it is entered again as one (:meth:`~euchrelog.recorder.Recorder.renege`)."""
    for finding in findings:
        if finding.kind.open == "game" or finding.kind.renege:
            continue
        if stopped and last is not None and finding.deal == last.number and (
                finding.kind.open == "deal" or (
                    finding.kind.open == "trick" and last.tricks
                    and finding.trick == last.tricks[-1].number)):
            continue
        if finding.severity == "warning" and not finding.kind.open:
            continue
        return IllegalEntryError(finding.code, finding.message)
    return None
