"""What a replay finds out: each deal's result, the penalties charged, the game's report;
the points of a deal, as played and as written; and how a part of the replay reports a
finding (:class:`Emit`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..cards import Card
from ..engine import Action, DealState
from ..findings import Finding, Fix, Severity
from ..frozen import Frozen
from ..loci import Locus
from ..rules import Ruleset
from ..seats import SEATS, Seat

if TYPE_CHECKING:
    from ..models import Deal


@dataclass
class DealTrace:
    """One deal as its replay took it, for what rides the replay's one pass (the review,
    the viewer, the statistics, the recorder and the server): the state as dealt, the acts
    before the play as taken (the bids, then the exchange, merge and declarations, each as
    the replay read it: a seat letter written wrongly is taken as the seat it reads) and the
    state at the opening lead."""

    dealt: DealState
    """The state as dealt, before the first bid (a copy of the replay's)."""
    acts: list[Action]
    """The acts before the play, as taken."""
    lead: DealState | None
    """The state at the opening lead (a copy), once the bidding, exchange and declarations
    are done; ``None`` for a deal with no trick recorded."""


@dataclass
class DealResult:
    """What one deal scored."""

    number: int
    dealer: Seat
    points: dict[str, int] | None
    """Points each side scored in the deal (``None`` when unknown)."""
    totals: dict[str, int]
    """Running totals after the deal."""
    maker: Seat | None = None
    trump: str | None = None
    lone: Seat | None = None
    """The seat that played alone for the makers: the maker, or under ``partner-alone``
    the maker's partner."""
    defender_alone: bool = False
    maker_tricks: int | None = None
    bid_round: int = 0
    """The bidding round that fixed trump: 1 (the upcard ordered up) or 2 (a suit named);
    0 when no round did (a Benny turned up, ghost's trick bids, a score-sheet line)."""
    defender: Seat | None = None
    """The lone defender, if one defended alone."""
    thrown: bool = False
    penalties: list[Charge] = field(default_factory=list)
    """The penalties charged in the deal (H6), already in ``totals``."""
    trace: DealTrace | None = None
    """The deal as the replay took it, when the replay was asked to keep it
    (``replay(..., trace=True)``)."""

    @property
    def alone(self) -> bool:
        """Whether a maker played alone."""
        return self.lone is not None

    def again(self, number: int) -> DealResult:
        """The same result for deal ``number``, before its totals and penalties (a kept
        result of a deal replayed from its dealer and score-sheet line alone); quicker than
        :func:`dataclasses.replace`, which looks up the fields at every call."""
        return DealResult(number, self.dealer, None if self.points is None else dict(self.points),
                          {}, maker=self.maker, trump=self.trump, lone=self.lone,
                          defender_alone=self.defender_alone, maker_tricks=self.maker_tricks,
                          bid_round=self.bid_round, defender=self.defender, thrown=self.thrown)


@dataclass(frozen=True)
class Charge(Frozen):
    """A penalty charged in a deal (H6): to a player, whose side loses the points, or to a
    side."""

    deal: int
    seat: Seat | None
    """The player charged, when the record names one (``None``: a side)."""
    side: str
    """The side whose running total loses the points."""
    points: int
    reason: str

    @classmethod
    def of(cls, rules: Ruleset, deal: int, who: str, points: int, reason: str
           ) -> Charge | None:
        """The charge of a penalty to ``who`` (a seat letter or a side), or ``None`` when
        no one of the game scores as ``who`` (C904)."""
        side = rules.side_of(who)
        if side not in rules.side_names:
            return None
        return cls(deal, Seat(who) if who in SEATS else None, side, points, reason)


@dataclass
class GameReport:
    """The outcome of replaying one game."""

    ruleset: Ruleset
    findings: list[Finding] = field(default_factory=list)
    deals: list[DealResult] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    ended: bool = False
    winner: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the replay found nothing."""
        return not self.findings

    @property
    def penalties(self) -> list[Charge]:
        """Every penalty charged in the game (H6), deal by deal."""
        return [charge for deal in self.deals for charge in deal.penalties]


def points_differ(rules: Ruleset, deal: Deal, points: dict[str, int] | None) -> bool:
    """Whether the points written for ``deal`` differ from ``points`` (C901; sides that
    do not play are C904's)."""
    score = deal.score
    if score is None or score.points is None or points is None:
        return False
    sides = rules.side_names
    return all(side in sides for side in score.points) and any(
        score.points.get(s, 0) != points.get(s, 0) for s in sides)


def scored(deal: Deal, state: DealState) -> dict[str, int] | None:
    """The points of a deal as played or written on its sheet, claims aside, or ``None``
    when the record does not tell."""
    if deal.tricks or deal.sheet is None:
        return state.points()
    return state.points(taken=deal.sheet.taken, made=deal.sheet.tricks)


class Emit(Protocol):
    """How a part of the replay reports a finding: its code, message and place (a locus of
    the game's source map), and what it belongs to (:meth:`~euchrelog.replay.GameReplay.emit`)."""

    def __call__(self, code: str, message: str, locus: Locus, *, deal: int | None = None,
                 trick: int | None = None, seat: Seat | str | None = None,
                 level: Severity | None = None, card: Card | None = None,
                 part: str | None = None, fix: Fix | None = None) -> None: ...
