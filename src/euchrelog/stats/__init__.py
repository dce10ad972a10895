"""Player and side statistics over any number of games: how often each player makes trump
(by bidding round and by seat from the dealer), how the contracts end, lone hands and lone
defences, euchres taken, reneges and points per deal.

Every fact about a deal comes from its replay (:func:`euchrelog.replay.replay`): who made
trump and in which round, the lone maker and defender, the tricks, the points and the
renege findings and claims. Nothing here states a rule of the game: a contract is *made*
when the makers' side scored by it, *euchred* when it did not, *marched* when the makers
took every trick of the deal. A :class:`Collector` is fed one replayed game at a time and
keeps only counts, so memory stays flat however many games it reads.

>>> from euchrelog.notation import loads
>>> game = loads('''[Variant "four-hand"] [Target "1"] [N "Ann"] [E "Bob"] [S "Cy"] [W "Dee"]
... deal 1 dealer N
...   trump H maker E tricks 3
...   points EW 1
... result EW 1 NS 0 winner EW
... ''').games[0]
>>> collector = Collector()
>>> collector.add(game, replay(game))
True
>>> bob = collector.groups["four-hand"].players["bob"]
>>> bob.deals, bob.makes, bob.made, bob.points
(1, 1, 1, 1)
>>> dict(bob.position_makes), dict(bob.position_deals)  # Bob sat at the dealer's left
({1: 1}, {1: 1})
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..dates import iso_date
from ..events import numbered, seat_numbers, seat_players
from ..models import Game
from ..replay import DealResult, GameReport, replay
from ..rules import Ruleset, find_variant
from ..seats import Seat, clockwise_from

if TYPE_CHECKING:  # (the solver is imported only when a review is asked for)
    from ..analysis import DealReview
    from ..analysis.players import PlayerReport

POSITIONS: dict[int, tuple[str, ...]] = {
    2: ("dealer", "dealer's opponent"),
    3: ("dealer", "dealer's left", "dealer's right"),
    4: ("dealer", "dealer's left", "dealer's partner", "dealer's right"),
}
"""The name of each seat by its place clockwise from the dealer (0: the dealer), by the
number of seats at the table."""

MAX_BUCKETS = 64
"""Points over time are kept in at most this many groups of games in play order (each
group twice as wide once there would be more), so memory does not grow with the games."""

_BOUND = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


@dataclass(frozen=True)
class DateRange:
    """The dates a ``--date`` filter keeps: from ``first`` to ``last``, each a year, month
    or day (``2025``, ``2025-05``, ``2025-05-17``), either open (``None``)."""

    first: str | None
    last: str | None

    def holds(self, date: str | None) -> bool:
        """Whether a game of this date (``YYYY-MM-DD``; ``None``: undated) is kept."""
        if date is None:
            return False
        return ((self.first is None or date >= self.first)
                and (self.last is None or date[:len(self.last)] <= self.last))


def parse_date_range(text: str) -> DateRange:
    """Reads ``FROM..TO``, ``FROM..``, ``..TO`` or one year, month or day.

    >>> parse_date_range("2025-05"), parse_date_range("2025-03-01..")
    (DateRange(first='2025-05', last='2025-05'), DateRange(first='2025-03-01', last=None))

    :raises ValueError: for anything else.
    """
    first, dots, last = text.strip().partition("..")
    bounds = (first.strip(), last.strip()) if dots else (first.strip(), first.strip())
    for bound in bounds:
        if bound and not _BOUND.fullmatch(bound):
            raise ValueError(f"{bound!r} is not a date like 2025, 2025-05 or 2025-05-17 "
                             "(a range: 2025-03-01..2025-05-31)")
    if not any(bounds):
        raise ValueError(f"{text!r} gives no date")
    return DateRange(bounds[0] or None, bounds[1] or None)


@dataclass(frozen=True)
class Filters:
    """Which games and rows the statistics keep (``--player``, ``--event``, ``--date``,
    ``--variant``); an empty filter keeps everything."""

    players: frozenset[str] = frozenset()
    """Names, casefolded: only the games they sat in, and only their rows (and their
    sides')."""
    events: frozenset[str] = frozenset()
    """Event tags, casefolded."""
    dates: DateRange | None = None
    variants: frozenset[str] = frozenset()
    """Variant names, as :func:`~euchrelog.rules.find_variant` gives them."""

    @classmethod
    def of(cls, players: Collection[str] = (), events: Collection[str] = (),
           dates: DateRange | None = None, variants: Collection[str] = ()) -> Filters:
        """The filters as given on the command line.

        :raises ValueError: for a variant euchrelog does not know.
        """
        return cls(frozenset(p.strip().casefold() for p in players),
                   frozenset(e.strip().casefold() for e in events), dates,
                   frozenset(find_variant(v).name for v in variants))

    def keeps(self, game: Game, ruleset: Ruleset, names: Collection[str]) -> bool:
        """Whether a game of this ruleset, played by ``names`` (casefolded), counts."""
        if self.variants and ruleset.variant.name not in self.variants:
            return False
        if self.events and (game.tag("Event") or "").strip().casefold() not in self.events:
            return False
        if self.dates is not None and not self.dates.holds(iso_date(game.tag("Date"))):
            return False
        return not self.players or not self.players.isdisjoint(names)


@dataclass
class Tally:
    """The counts of one player, or one side, in one variant."""

    name: str
    """The name as first written (a side: its players joined with ``&``)."""
    deals: int = 0
    """Deals played, thrown-in deals included."""
    makes: int = 0
    """Deals in which this player (a side: one of its players) fixed trump."""
    round_makes: Counter[int] = field(default_factory=Counter)
    """Trump fixed, by bidding round (0: neither round, see
    :attr:`~euchrelog.replay.DealResult.bid_round`)."""
    position_deals: Counter[int] = field(default_factory=Counter)
    """Deals played by place clockwise from the dealer (:data:`POSITIONS`)."""
    position_makes: Counter[int] = field(default_factory=Counter)
    """Trump fixed from each place."""
    made: int = 0
    """Contracts of theirs that scored for them."""
    marched: int = 0
    """Contracts of theirs in which their side took every trick."""
    euchred: int = 0
    """Contracts of theirs that did not score for them."""
    lone: int = 0
    """Lone hands played, where going alone is a choice."""
    lone_made: int = 0
    """Lone hands that scored for them."""
    lone_marched: int = 0
    """Lone hands that took every trick."""
    defended: int = 0
    """Deals defended whose contract was decided by play (or a sheet)."""
    euchres: int = 0
    """Euchres taken as a defender (by a lone defender: only that defender's)."""
    lone_defences: int = 0
    """Deals defended alone."""
    lone_defence_euchres: int = 0
    """Euchres taken defending alone."""
    reneges_claimed: int = 0
    """Reneges the table claimed (the penalty was scored)."""
    reneges_unclaimed: int = 0
    """Reneges the replay found that nobody claimed."""
    points: int = 0
    """Points scored by their side in the deals whose points are known."""
    scored_deals: int = 0
    """Deals whose points are known."""
    reviewed: int = 0
    """Deals reviewed double-dummy."""
    tricks_lost: int = 0
    """Tricks their play mistakes cost them, in the reviewed deals."""
    lost_counts: Counter[int] = field(default_factory=Counter)
    """Reviewed deals by the tricks their mistakes cost in each."""
    beat_par: int = 0
    """Reviewed contracts of theirs that scored more than par."""
    missed_par: int = 0
    """Reviewed contracts of theirs that scored less than par."""
    sd_decisions: int = 0
    """Decisions (bids, plays, discards) graded single dummy (``stats --single-dummy``)."""
    sd_bids: int = 0
    """Of :attr:`sd_decisions`, the bids."""
    sd_score: float = 0.0
    """The sum of the decisions' scores (:mod:`euchrelog.analysis.players`)."""
    sd_classes: Counter[str] = field(default_factory=Counter)
    """The decisions by class."""
    bid_lost: float = 0.0
    """Points the bids gave up on average, single dummy."""
    play_lost: float = 0.0
    """Points the plays and discards gave up on average, single dummy."""
    by_date: dict[str, list[int]] = field(default_factory=dict)
    """Points and deals with known points, by date (``YYYY-MM-DD``)."""
    by_order: dict[int, list[int]] = field(default_factory=dict)
    """Points and deals with known points, by group of games in play order."""

    @property
    def accuracy(self) -> float | None:
        """The mean score of the decisions graded single dummy, 0 to 100 (``None``:
        none)."""
        return self.sd_score / self.sd_decisions if self.sd_decisions else None

    @property
    def decided(self) -> int:
        """Contracts of theirs whose end is known: made or euchred."""
        return self.made + self.euchred


@dataclass
class Group:
    """The tallies of one variant: one per player, one per side of two players or more."""

    variant: str
    seats: int
    """Seats at the table (the most any of its games had)."""
    players: dict[str, Tally] = field(default_factory=dict)
    """By casefolded name."""
    sides: dict[str, Tally] = field(default_factory=dict)
    """By the casefolded names of its players, sorted and joined with ``&``."""
    games: int = 0
    deals: int = 0
    width: int = 1
    """Games in each group of :attr:`Tally.by_order`."""
    dated: bool = True
    """Whether every game counted has a date."""

    def ordered(self, tallies: dict[str, Tally]) -> list[Tally]:
        """The tallies by deals played (most first), then by name."""
        return sorted(tallies.values(), key=lambda t: (-t.deals, t.name.casefold(), t.name))

    def widen(self) -> None:
        """Doubles the width of the groups of games in play order."""
        self.width *= 2
        for tally in (*self.players.values(), *self.sides.values()):
            merged: dict[int, list[int]] = {}
            for k, (points, deals) in tally.by_order.items():
                bucket = merged.setdefault(k // 2, [0, 0])
                bucket[0] += points
                bucket[1] += deals
            tally.by_order = merged


Reviewer = Callable[[Game, GameReport], Iterable["DealReview"]]
"""Reviews the full deals of a replayed game double-dummy (the deals it cannot review are
left out): :func:`double_dummy` or another."""


Graders = Callable[[Game, GameReport], "dict[Seat, PlayerReport]"]
"""Grades each player's decisions in a replayed game single dummy (the game report of
:func:`euchrelog.analysis.players.player_reports`), by seat."""


def double_dummy(game: Game, report: GameReport) -> Iterator[DealReview]:
    """The double-dummy reviews of the deals of a game that can be reviewed (every card
    recorded, the play clean: see :func:`euchrelog.analysis.review_game`), riding its
    replay when that kept the deals as taken (``replay(game, trace=True)``)."""
    from ..analysis import DealReview, review_game

    for review in review_game(game, report=report):
        if isinstance(review, DealReview) and review.stopped is None:
            yield review


@dataclass
class _Seated:
    """Who sat where in one game: each seat's player tally and side tally."""

    players: dict[Seat, Tally]
    sides: dict[Seat, Tally | None]
    tallies: list[tuple[Tally, str]]
    """Every tally of the game once, with the side it scores for."""

    def own(self, seat: Seat) -> list[Tally]:
        """The tallies a seat counts for: its player's and its side's."""
        side = self.sides[seat]
        return [self.players[seat]] if side is None else [self.players[seat], side]


class Collector:
    """Statistics fed one replayed game at a time (:meth:`add`)."""

    def __init__(self, filters: Filters | None = None, reviewer: Reviewer | None = None,
                 by_number: bool = False, grader: Graders | None = None) -> None:
        self.filters = filters or Filters()
        self.reviewer = reviewer
        self.grader = grader
        """With ``stats --single-dummy``: each game's players graded single dummy."""
        self.by_number: dict[int, str] | None = {} if by_number else None
        """With ``by_number``, the players of the club's registry are keyed by number
        (:func:`~euchrelog.events.numbered`): the name first seen with each number."""
        self.groups: dict[str, Group] = {}
        """By variant name, in the order first read."""
        self.games = 0
        """Games counted."""
        self.left_out = 0
        """Games read that the filters left out."""

    def add(self, game: Game, report: GameReport) -> bool:
        """Counts one game and its replay report; returns whether it counted (the filters
        may leave it out; a game of an unknown variant is not replayed, nor counted)."""
        rules = report.ruleset
        if any(f.kind.stops == "game" for f in report.findings):
            self.left_out += 1
            return False
        named = seat_players(game, rules)
        if self.by_number is not None:
            named = numbered(named, seat_numbers(
                tuple((t.name, t.value) for t in game.tags), rules), self.by_number)
        names = {seat: named.get(seat, seat.value) for seat in rules.seats}
        if not self.filters.keeps(game, rules, {n.casefold() for n in names.values()}):
            self.left_out += 1
            return False
        group = self.groups.get(rules.variant.name)
        if group is None:
            group = self.groups[rules.variant.name] = Group(rules.variant.name,
                                                            len(rules.seats))
        group.seats = max(group.seats, len(rules.seats))
        seated = self._seat(group, rules, names)
        date = iso_date(game.tag("Date"))
        group.dated = group.dated and date is not None
        bucket = group.games // group.width
        group.games += 1
        self.games += 1
        reneges = _reneges(report)
        for k, result in enumerate(report.deals):
            record = game.deals[k] if k < len(game.deals) else None
            claimed = _claimed(report, result, record.claims if record else ())
            group.deals += 1
            self._deal(rules, seated, result, claimed, reneges.get(result.number, {}))
            if result.points is None:
                continue
            for tally, side in seated.tallies:
                gained = result.points.get(side, 0)
                tally.points += gained
                tally.scored_deals += 1
                cells = [tally.by_order.setdefault(bucket, [0, 0])]
                if date is not None:
                    cells.append(tally.by_date.setdefault(date, [0, 0]))
                for cell in cells:
                    cell[0] += gained
                    cell[1] += 1
        if self.reviewer is not None:
            for review in self.reviewer(game, report):
                self._review(rules, seated, report, review)
        if self.grader is not None:
            for seat, graded in self.grader(game, report).items():
                if seat not in seated.players:
                    continue
                for tally in seated.own(seat):
                    tally.sd_decisions += graded.decisions
                    tally.sd_bids += graded.bids
                    tally.sd_score += graded.score
                    tally.sd_classes.update({k: n for k, n in graded.classes.items() if n})
                    tally.bid_lost += graded.bid_lost
                    tally.play_lost += graded.play_lost
        if group.games // group.width >= MAX_BUCKETS:
            group.widen()
        return True

    def _seat(self, group: Group, rules: Ruleset, names: dict[Seat, str]) -> _Seated:
        wanted = self.filters.players
        players = {}
        for seat, name in names.items():
            key = name.casefold()
            # (a player the --player filter leaves out is counted, but not kept)
            players[seat] = (group.players.setdefault(key, Tally(name))
                             if not wanted or key in wanted else Tally(name))
        sides: dict[Seat, Tally | None] = {}
        members: dict[str, list[Seat]] = {}
        for seat in rules.seats:
            members.setdefault(rules.side(seat), []).append(seat)
        for seats in members.values():
            tally = None
            if len(seats) > 1:
                folded = sorted(names[s].casefold() for s in seats)
                label = " & ".join(names[s] for s in seats)
                tally = (group.sides.setdefault(" & ".join(folded), Tally(label))
                         if not wanted or not wanted.isdisjoint(folded) else Tally(label))
            for seat in seats:
                sides[seat] = tally
        every = [(players[seat], rules.side(seat)) for seat in rules.seats]
        every += [(tally, side) for side, seats in members.items()
                  if (tally := sides[seats[0]]) is not None]
        once: dict[int, tuple[Tally, str]] = {}
        for tally, side in every:  # (two seats of one name are one player)
            once.setdefault(id(tally), (tally, side))
        return _Seated(players, sides, list(once.values()))

    def _deal(self, rules: Ruleset, seated: _Seated, result: DealResult, claimed: bool,
              reneges: dict[Seat, list[bool]]) -> None:
        """Counts one deal for every seat's player and side."""
        order = clockwise_from(result.dealer, rules.seats)
        maker = result.maker
        maker_side = rules.side(maker) if maker is not None else None
        decided = (maker is not None and result.points is not None and not result.thrown
                   and not claimed)
        made = decided and (result.points or {}).get(maker_side or "", 0) > 0
        marched = made and result.maker_tricks == rules.variant.tricks
        lone = result.lone if rules.variant.alone == "declared" else None
        for tally, _ in seated.tallies:
            tally.deals += 1
        for seat in rules.seats:
            place = order.index(seat) if seat in order else 0
            own = seated.own(seat)
            marks = reneges.get(seat, [])
            for tally in own:
                tally.position_deals[place] += 1
                tally.reneges_claimed += marks.count(True)
                tally.reneges_unclaimed += marks.count(False)
            if seat == maker:
                for tally in own:
                    tally.makes += 1
                    tally.position_makes[place] += 1
                    tally.round_makes[result.bid_round] += 1
                    if decided:
                        tally.made += made
                        tally.euchred += not made
                        tally.marched += marched
            if seat == lone:  # the maker, or under partner-alone its partner
                for tally in own:
                    tally.lone += 1
                    tally.lone_made += made
                    tally.lone_marched += marched
            if seat == result.defender:
                for tally in own:
                    tally.lone_defences += 1
                    tally.lone_defence_euchres += decided and not made
        if not decided:
            return
        defenders = [s for s in rules.seats if rules.side(s) != maker_side]
        takers = [result.defender] if result.defender is not None else defenders
        for tally in _once(t for seat in defenders for t in seated.own(seat)):
            tally.defended += 1
        if not made:
            for tally in _once(t for seat in takers for t in seated.own(seat)):
                tally.euchres += 1

    def _review(self, rules: Ruleset, seated: _Seated, report: GameReport,
                review: DealReview) -> None:
        """Counts the double-dummy review of one deal: each seat's tricks lost to its play
        mistakes, and the makers' points against par, the most their side scores in a
        contract of the deal's par table played perfectly."""
        result = next((d for d in report.deals if d.number == review.deal), None)
        if result is None or result.points is None:
            return
        costs: dict[int, tuple[Tally, int]] = {}
        for seat in rules.seats:
            lost = sum(p.loss for p in review.plays if p.seat == seat)
            for tally in seated.own(seat):
                before = costs.get(id(tally), (tally, 0))[1]
                costs[id(tally)] = (tally, before + lost)
        for tally, lost in costs.values():
            tally.reviewed += 1
            tally.tricks_lost += lost
            tally.lost_counts[lost] += 1
        side = rules.side(review.maker)
        pars = [e.points.get(side, 0) for e in review.par if rules.side(e.maker) == side]
        if not pars:
            return
        scored = result.points.get(side, 0)
        for tally in seated.own(review.maker):
            tally.beat_par += scored > max(pars)
            tally.missed_par += scored < max(pars)


def _once(tallies: Iterable[Tally]) -> list[Tally]:
    """The tallies, each once."""
    return list({id(t): t for t in tallies}.values())


def _reneges(report: GameReport) -> dict[int, dict[Seat, list[bool]]]:
    """The reneges the replay found, by deal number and seat: ``True`` for one the table
    claimed (its finding is a note), ``False`` for one nobody claimed."""
    out: dict[int, dict[Seat, list[bool]]] = {}
    seen: set[tuple[int, int | None, str]] = set()
    for finding in report.findings:
        if not finding.kind.renege or finding.deal is None or finding.seat is None:
            continue
        key = (finding.deal, finding.trick, finding.seat)
        if key in seen or finding.seat not in Seat.__members__:
            continue
        seen.add(key)
        out.setdefault(finding.deal, {}).setdefault(Seat(finding.seat), []).append(
            not finding.is_fault)
    return out


def _claimed(report: GameReport, result: DealResult, claims: Sequence[object]) -> bool:
    """Whether the deal was scored by a renege claim (its penalty replaced the tricks):
    it has a claim that the replay did not find false (R803)."""
    if not claims:
        return False
    false = sum(1 for f in report.findings if f.kind.unfounded and f.deal == result.number)
    return len(claims) > false


def collect(games: Sequence[Game], filters: Filters | None = None,
            reviewer: Reviewer | None = None) -> Collector:
    """The statistics of some games, each replayed once (and reviewed, with ``reviewer``,
    on that replay's deals as taken)."""
    collector = Collector(filters, reviewer)
    for game in games:
        collector.add(game, replay(game, trace=reviewer is not None))
    return collector


__all__ = [
    "MAX_BUCKETS", "POSITIONS", "Collector", "DateRange", "Filters", "Graders", "Group",
    "Reviewer",
    "Tally", "collect", "double_dummy", "iso_date", "parse_date_range",
]
