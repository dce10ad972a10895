"""Scoring: games grouped into events by their ``Event`` tag, checked together and ranked.

A :class:`Scorer` is fed one game at a time and replays each as it comes (keeping only what
the standings need); :meth:`Scorer.results` then settles each event's settings, replays
again the few games whose length was not known, runs the event checks and builds its
:class:`EventResult`. :func:`score_events` does the same for games already read.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

from ..findings import Finding
from ..models import Game
from .checks import EventChecks, EventSettings
from .entries import Entry, Reread
from .played import (
    Played,
    numbered,
    place_key,
    replay_entry,
    seat_numbers,
    tag_index,
    tag_value,
)
from .settings import Overrides, Settings
from .standings import (
    Award,
    CardLine,
    Decision,
    Standing,
    TableResult,
    awards_of,
    card_lines,
    standings_of,
    table_result,
)

NO_EVENT = ""
"""The event of the games that have no ``Event`` tag."""


@dataclass
class EventResult:
    """An event, scored: settings, standings, awards, tables and findings."""

    name: str
    settings: Settings
    standings: list[Standing] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    rounds: list[str] = field(default_factory=list)
    tables: list[TableResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    """The ties the tie-breaks parted, in standings order."""
    cards: list[CardLine] = field(default_factory=list)
    """Each player's line of each counted game (the personal scorecards)."""
    games: int = 0
    deals: int = 0
    files: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    """The Date tags of its games, each once, in order."""
    sites: list[str] = field(default_factory=list)
    """The Site tags of its games, each once, in the order first seen."""

    @property
    def title(self) -> str:
        """The event's name as shown."""
        return self.name or "casual games (no Event tag)"

    @property
    def errors(self) -> int:
        """Findings of severity error (warnings and notes do not make standings
        provisional)."""
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def provisional(self) -> bool:
        """Whether errors stand, so the standings may still change."""
        return self.errors > 0

    @property
    def tied(self) -> bool:
        """Whether some rows are still level after every tie-break."""
        return any(row.tied for row in self.standings)

    def cumulative(self) -> list[tuple[str, list[int]]]:
        """Each row's running points after each round, in standings order."""
        out = []
        for row in self.standings:
            total = 0
            series = []
            for r in self.rounds:
                total += row.by_round.get(r, 0)
                series.append(total)
            out.append((row.label, series))
        return out



def _event_name(game: Game) -> str:
    """The event a game belongs to: its Event tag, or :data:`NO_EVENT`."""
    return (game.tag("Event") or NO_EVENT).strip()


def score_events(entries: Sequence[Entry], overrides: Overrides | None = None
                 ) -> list[EventResult]:
    """Every event of the entries, scored; games that could not be read go to their event
    (by the Event tag in their text) or, failing that, to every event."""
    scorer = Scorer(overrides)
    for entry in entries:
        scorer.add(entry)
    whole = {(e.order, e.path, e.index): e for e in entries}
    return scorer.results(lambda wanted: (whole[w.order, w.path, w.index] for w in wanted))


class Scorer:
    """Scores events from their games given one at a time (:meth:`add`): each game is
    replayed as it comes and only what the standings need is kept, so that memory stays
    flat however many deals an event has. :meth:`results` then settles each event's
    settings, replays again the few games whose length was not known, runs the event
    checks and ranks."""

    def __init__(self, overrides: Overrides | None = None, by_number: bool = False) -> None:
        self.overrides = overrides or Overrides()
        self.by_number: dict[int, str] | None = {} if by_number else None
        """With ``by_number``, the players of the club's registry are keyed by number
        (:func:`~.played.numbered`): the name first seen with each number."""
        self.events: dict[str, _Event] = {}
        self.broken: list[Entry] = []
        """The games that could not be read."""
        self.orders: dict[str | None, int] = {}

    @property
    def games(self) -> int:
        """The games given so far, read or not."""
        return sum(len(event.played) for event in self.events.values()) + len(self.broken)

    def add(self, entry: Entry) -> None:
        """Replays one game (or keeps its syntax error) and drops its record."""
        self.orders.setdefault(entry.path, entry.order)
        if entry.game is not None:
            name = _event_name(entry.game)
            event = self.events.get(name)
            if event is None:
                event = self.events[name] = _Event(name, self.overrides, self.by_number)
            event.add(entry)
        elif entry.failed is not None:
            self.broken.append(entry)

    def results(self, reread: Reread, only: Collection[str] = ()) -> list[EventResult]:
        """Every event, scored; only the events named in ``only``, when it names any.

        :raises ValueError: for a ``--tiebreak`` an event's format does not take, or
            ``--lone`` for a partners event.
        """
        results = []
        for name, event in self.events.items():
            if only and name not in only:
                continue
            result = event.finish(reread)
            for entry in self.broken:
                if entry.event_hint in (None, name) or entry.event_hint not in self.events:
                    assert entry.failed is not None
                    result.findings.extend(entry.failed.findings)
            result.findings.sort(key=lambda f: (self.orders.get(f.path, 0), f.line, f.column))
            results.append(result)
        return results


class _Event:
    """Scores one event: replays its games as they come, then settles its settings
    (:class:`EventSettings`), runs the event checks (:class:`EventChecks`) and builds its
    standings and awards."""

    def __init__(self, name: str, overrides: Overrides,
                 by_number: dict[int, str] | None = None) -> None:
        self.name = name
        self.overrides = overrides
        self.by_number = by_number
        self.played: list[Played] = []
        self.casual = 0
        """The casual games so far (no Event, Round or Table tag): each is a round."""
        self.formats: list[tuple[Entry, int, str]] = []
        """Each Format tag: the game, the tag's index and its value."""
        o = overrides
        self.fixed = (o.deals, None) if o.deals is not None else (None, o.target)
        """The length the options give every game that states none, if they give one."""

    def add(self, entry: Entry) -> None:
        """Replays a game of the event (with the options' length if it states none). A
        casual game, one with no Event, Round or Table tag, is a round of its own at one
        table, its seats without a name played by players named by their letters."""
        assert entry.game is not None
        p = self._replay(entry, *self.fixed)
        if self.name == NO_EVENT and p.round is None and p.table is None:
            self.casual += 1
            p.round, p.table = str(self.casual), "1"
            p.players = {seat: p.players.get(seat, str(seat)) for seat in p.ruleset.seats}
        index = tag_index(p.tags, "format")
        if index is not None:
            self.formats.append((p.entry, index, p.tags[index][1]))
        self.played.append(p)

    def finish(self, reread: Reread) -> EventResult:
        """The event scored: its settings, the games that state no length replayed again
        with the event's when it is not the one they were replayed with, the event checks,
        the standings."""
        settler = EventSettings(self.name, self.overrides, self.formats, self.played)
        settings = settler.settle()
        self.replay_again(settings, reread)
        checked = EventChecks(self.played).run(settings)
        findings = (settler.findings + [f for p in self.played for f in p.findings]
                    + checked)
        result = EventResult(self.name, settings, findings=findings)
        result.games = len(self.played)
        result.deals = sum(p.deals for p in self.played)
        result.files = list(dict.fromkeys(p.entry.path for p in self.played))
        result.dates = sorted({d.strip() for p in self.played
                               if (d := tag_value(p.tags, "Date")) and d.strip()})
        result.sites = list(dict.fromkeys(s.strip() for p in self.played
                                          if (s := tag_value(p.tags, "Site")) and s.strip()))
        counted = [p for p in self.played if p.counted]
        result.rounds = sorted({p.round for p in counted if p.round is not None},
                               key=place_key)
        result.standings = standings_of(counted, settings, result.decisions)
        result.awards = awards_of(counted, settings)
        result.cards = card_lines(counted, settings)
        result.tables = sorted((table_result(p) for p in self.played
                                if p.round is not None and p.table is not None),
                               key=lambda t: (place_key(t.round), place_key(t.table)))
        return result

    def replay_again(self, settings: Settings, reread: Reread) -> None:
        """Replays with the event's length the games that state none and were replayed with
        another."""
        def again(p: Played) -> bool:
            if p.own_length or self.fixed != (None, None):
                return False
            return settings.deals is not None or (
                settings.target is not None and settings.target != p.ruleset.options.target)

        where = {(p.entry.order, p.entry.path, p.entry.index): k
                 for k, p in enumerate(self.played) if again(p)}
        if not where:
            return
        wanted = [self.played[k].entry for k in where.values()]
        for entry in reread(wanted):
            k = where.get((entry.order, entry.path, entry.index))
            if k is not None and entry.game is not None:
                self.played[k] = self._replay(entry, settings.deals, settings.target)

    def _replay(self, entry: Entry, deals: int | None, target: int | None) -> Played:
        """A game of the event replayed (with this length if it states none), its players
        keyed by number when the scorer is asked to."""
        assert entry.game is not None
        p = replay_entry(entry, entry.game, deals, target)
        if self.by_number is None:
            return p
        return replace(p, players=numbered(p.players, seat_numbers(p.tags, p.ruleset),
                                           self.by_number))
