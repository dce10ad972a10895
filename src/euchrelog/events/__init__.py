"""Events: games grouped by their ``Event`` tag, checked together and ranked.

:func:`read_entries` reads the games of one text (notation or JSON) without checking them,
:func:`iter_entries` the games of a stream of lines one at a time; :func:`score_events` (or a
:class:`Scorer` fed one game at a time) groups them into events, replays every game with
the engine (with the event's length when the game states none), adds the event checks
(codes E961-E969, see docs/tournaments.md) and computes the standings, awards and
per-round results of each event. Everything here is a pure function of the texts it is
given; reading files and printing belong to :mod:`euchrelog.cli.score` and
:mod:`euchrelog.events.output`.

>>> sheet = '''[Event "Club"] [Format "progressive deals=1"] [Round "1"] [Table "1"]
... [Variant "four-hand"] [N "Ann"] [E "Bob"] [S "Cy"] [W "Dee"]
... deal 1 dealer N
...   trump H maker E tricks 5
... '''
>>> event, = score_events(read_entries(sheet, "club.euchre"))
>>> [(row.label, row.points_for) for row in event.standings]
[('Bob', 2), ('Dee', 2), ('Ann', 0), ('Cy', 0)]
>>> event.findings, event.provisional
([], False)
"""

from __future__ import annotations

import functools
import sys
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ..check import check_game
from ..findings import Finding
from ..models import Game, Tag
from ..notation import Locus, SourceMap
from ..replay import GameReport
from ..rules import Ruleset, parse_rules, ruleset_from_tags
from ..seats import SEATS, Seat
from .entries import Entry, Reread, iter_entries, read_entries
from .settings import (
    DEFAULT_DEALS,
    DEFAULT_TIEBREAKS,
    FORMATS,
    GAMES_WON_TIEBREAKS,
    KEYS,
    PRIMARY,
    RANKS,
    FormatTag,
    Key,
    Overrides,
    Settings,
    parse_format,
    parse_lone,
    parse_tiebreaks,
    tiebreaks_for,
)

NO_EVENT = ""
"""The event of the games that have no ``Event`` tag."""


# ------------------------------------------------------------------ placed games

_NAME_TAGS = {Seat.N: ("n", "north"), Seat.E: ("e", "east"), Seat.S: ("s", "south"),
              Seat.W: ("w", "west")}


Tags = tuple[tuple[str, str], ...]
"""A game's tags as (name, value), in order: what an event keeps of them."""

Points = tuple[tuple[str, int], ...]
"""The points of a deal by side, as (side, points) sorted by side."""


def _tag_index(tags: Tags, *names: str) -> int | None:
    for i, (name, _) in enumerate(tags):
        if name.lower() in names:
            return i
    return None


def _tag_value(tags: Tags, name: str) -> str | None:
    """The value of the first tag called ``name`` (case-insensitive), as ``Game.tag``."""
    index = _tag_index(tags, name.lower())
    return tags[index][1] if index is not None else None


def _tags(game: Game) -> dict[str, str]:
    """The game's tags as the replay reads them: the first of each name counts."""
    out: dict[str, str] = {}
    for tag in game.tags:
        out.setdefault(tag.name.lower(), tag.value)
    return out


@dataclass
class Played:
    """A game of an event, replayed, placed in its round and at its table: what the event
    keeps of it once it is read, not the record itself, so that an event holds only what its
    standings and checks need."""

    entry: Entry
    """Where the game is; its record is not kept (``entry.game`` is ``None``), its source map
    keeps only the places the event checks point at."""
    tags: Tags
    ruleset: Ruleset
    totals: dict[str, int]
    """The points of each side at the end of the replay."""
    ended: bool
    """Whether the game reached its end (its target, or its number of deals)."""
    winner: str | None
    dealt: tuple[tuple[Seat, Points | None], ...]
    """Each deal replayed: its dealer and the points each side scored (``None`` when not
    known)."""
    round: str | None
    table: str | None
    players: dict[Seat, str]
    """The name of each seat in play that has one."""
    name_tags: dict[Seat, int]
    """The index of each seat's name tag."""
    deals: int
    """The deals written."""
    has_end: bool
    """Whether the game has an end line (``result`` or ``unfinished``)."""
    lone_hands: tuple[tuple[Seat, int, int], ...]
    """Each lone hand that made (3 tricks or more): the maker, its tricks and its side's
    points; only in the variants where going alone is a choice."""
    euchres: tuple[frozenset[Seat], ...]
    """For each euchre, the seats that took it (:func:`_euchre_takers`)."""
    findings: list[Finding]
    """The replay's findings."""
    own_length: bool
    """Whether the game states its length (deals or target); if not, it is replayed with
    the event's."""
    vote: tuple[str, int] | None
    """What the game says of the event's length: ``("deals", N)`` or ``("target", N)``, as
    it states it or, if it states none, as its record shows (it reaches the target, or its
    result line closes it after N deals short of it); ``None`` when it shows nothing (no
    result line, marked unfinished)."""
    charged: tuple[tuple[Seat, int], ...] = ()
    """Each penalty charged to one player (H6): the seat and its points, already taken
    from that player's side in ``totals``."""
    counted: bool = True
    """Whether the game counts in the standings."""
    status: str = "final"
    """``final``, ``unfinished`` or ``left out``."""

    def sides(self) -> dict[str, tuple[str, ...]]:
        """The names of each side, in seat order."""
        out: dict[str, list[str]] = {}
        for seat in self.ruleset.seats:
            out.setdefault(self.ruleset.side(seat), [])
            if seat in self.players:
                out[self.ruleset.side(seat)].append(self.players[seat])
        return {side: tuple(names) for side, names in out.items()}

    def where(self) -> str:
        """``round 1 table 2``, or as much of it as the tags say."""
        return (f"round {self.round or '?'} table {self.table or '?'}")


def _number(value: str) -> int | None:
    """A round or table written as a number (ASCII digits: ``03`` is 3), else ``None``."""
    text = value.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _place(value: str | None) -> str | None:
    """A Round or Table tag's value as placed: a number without its leading zeros, else the
    text; ``None`` when there is none."""
    if value is None or not value.strip():
        return None
    number = _number(value)
    return value.strip() if number is None else str(number)


def _round_key(value: str) -> tuple[int, int, str]:
    number = _number(value)
    return (0, number, "") if number is not None else (1, 0, value.strip().casefold())


# ------------------------------------------------------------------ results


@dataclass
class Standing:
    """One row of the standings: a player (progressive) or a team (partners)."""

    key: str
    label: str
    players: tuple[str, ...]
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    unfinished: int = 0
    points_for: int = 0
    points_against: int = 0
    deals_won: int = 0
    loners: int = 0
    euchres: int = 0
    high_game: int | None = None
    by_round: dict[str, int] = field(default_factory=dict)
    rank: int = 0
    tied: bool = False
    """Whether another row shares the rank after every tie-break."""

    @property
    def points_diff(self) -> int:
        """Points for minus points against."""
        return self.points_for - self.points_against

    def value(self, key: str) -> int:
        """The row's value for a ranking key that does not depend on the others."""
        values = {
            "games-won": self.won, "rounds-won": self.won, "points": self.points_for,
            "points-for": self.points_for, "points-diff": self.points_diff,
            "points-against": -self.points_against, "deals-won": self.deals_won,
            "loners": self.loners, "euchres": self.euchres,
            "high-game": self.high_game if self.high_game is not None else -10**9,
        }
        return values[key]


@dataclass(frozen=True)
class Award:
    """An award: who has the most of something, and how many."""

    title: str
    winners: tuple[str, ...]
    """Empty when nobody has any."""
    value: int
    details: tuple[str, ...] = ()
    """Where, for the highest single game."""


@dataclass(frozen=True)
class TableResult:
    """One table of one round: each side's names and points."""

    round: str
    table: str
    scores: tuple[tuple[str, int], ...]
    """(names of the side, points) in seat order."""
    winner: str | None
    """The names of the winning side; ``None`` for a draw or a game not finished."""
    deals: int
    status: str
    path: str
    line: int


@dataclass(frozen=True)
class Decision:
    """A tie a tie-break parted: the rows level before it, grouped best first, with each
    group's value (high-game, deals won, ...)."""

    key: str
    parts: tuple[tuple[tuple[str, ...], int], ...]


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
        return self.name or "(no Event tag)"

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


# ------------------------------------------------------------------ scoring


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

    def __init__(self, overrides: Overrides | None = None) -> None:
        self.overrides = overrides or Overrides()
        self.events: dict[str, _Event] = {}
        self.broken: list[Entry] = []
        """The games that could not be read."""
        self.orders: dict[str | None, int] = {}

    def add(self, entry: Entry) -> None:
        """Replays one game (or keeps its syntax error) and drops its record."""
        self.orders.setdefault(entry.path, entry.order)
        if entry.game is not None:
            name = _event_name(entry.game)
            event = self.events.get(name)
            if event is None:
                event = self.events[name] = _Event(name, self.overrides)
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


_KEPT_PLACES = frozenset({"game", "tag", "end", "tail"})
"""The parts of a game the event checks point at (the source map keeps only these)."""


def _compact(entry: Entry) -> Entry:
    """The entry without its record, and with only the places the event checks use."""
    source = None
    if entry.source is not None:
        source = SourceMap({k: v for k, v in entry.source.places.items()
                            if k[0] in _KEPT_PLACES})
    return Entry(entry.path, entry.index, entry.line, entry.order, source=source,
                 event_hint=entry.event_hint)


def _states_length(game: Game, tags: dict[str, str], ruleset: Ruleset) -> bool:
    """Whether a game states its own length: a Deals or Target tag, or ``deals=`` or
    ``target=`` in its Rules."""
    return ("deals" in tags or "target" in tags or ruleset.options.deals is not None
            or "target" in parse_rules(tags.get("rules", ""), ruleset.variant)[0])


def _replay(entry: Entry, game: Game, deals: int | None = None, target: int | None = None
            ) -> Played:
    """Replays a game and keeps what the event needs of it; a game that states no length
    is played ``deals`` deals, else to ``target``, when given."""
    tags = _tags(game)
    ruleset = ruleset_from_tags(tags)[0]
    own = _states_length(game, tags, ruleset)
    if not own:
        if deals is not None:
            game = game.model_copy(update={"tags": (
                *game.tags, Tag(name="Deals", value=str(deals)))})
        elif target is not None and target != ruleset.options.target:
            game = game.model_copy(update={"tags": (
                *game.tags, Tag(name="Target", value=str(target)))})
        ruleset = ruleset_from_tags(_tags(game))[0]
    result = check_game(game, entry.index, entry.path, entry.line, entry.source)
    report = result.report
    assert report is not None
    ruleset = _shared(ruleset)
    pairs = tuple((sys.intern(t.name), sys.intern(t.value)) for t in game.tags)
    players, name_tags = _players(pairs, ruleset)
    options = ruleset.options
    vote: tuple[str, int] | None = None
    if own:
        vote = ("deals", options.deals) if options.deals else ("target", options.target)
    elif report.ended and not options.deals:
        vote = ("target", options.target)
    elif game.deals and game.end is not None and game.end.act == "result":
        vote = ("deals", len(game.deals))  # a sheet closed short of the target
    dealt = tuple(_shared_deal(deal.dealer, tuple(sorted(deal.points.items()))
                               if deal.points is not None else None) for deal in report.deals)
    return Played(_compact(entry), pairs, ruleset, report.totals, report.ended, report.winner,
                  dealt, _place(game.tag("Round")), _place(game.tag("Table")), players,
                  name_tags, len(game.deals), game.end is not None,
                  _lone_hands(ruleset, report), _euchre_takers(game, ruleset, report),
                  result.findings, own, vote,
                  tuple((c.seat, c.points) for c in report.penalties if c.seat is not None))


@functools.lru_cache(maxsize=64)
def _shared(ruleset: Ruleset) -> Ruleset:
    """One object for equal rulesets, so that an event keeps one for each kind of game
    rather than one for each game."""
    return ruleset


@functools.lru_cache(maxsize=1024)
def _shared_deal(dealer: Seat, points: Points | None) -> tuple[Seat, Points | None]:
    """One object for each dealer and points a deal can have (they are few), rather than
    one for each deal."""
    return dealer, points


class _Event:
    """Scores one event: replay, settings, event checks, standings and awards."""

    def __init__(self, name: str, overrides: Overrides) -> None:
        self.name = name
        self.overrides = overrides
        self.findings: list[Finding] = []
        self.played: list[Played] = []
        self.formats: list[tuple[Entry, int, str]] = []
        """Each Format tag: the game, the tag's index and its value."""
        o = overrides
        self.fixed = (o.deals, None) if o.deals is not None else (None, o.target)
        """The length the options give every game that states none, if they give one."""

    def emit(self, code: str, message: str, entry: Entry, locus: Locus) -> None:
        line, column = entry.find(locus)
        self.findings.append(Finding(code, message, line, column, path=entry.path,
                                     game=entry.index))

    def add(self, entry: Entry) -> None:
        """Replays a game of the event (with the options' length if it states none)."""
        assert entry.game is not None
        p = _replay(entry, entry.game, *self.fixed)
        index = _tag_index(p.tags, "format")
        if index is not None:
            self.formats.append((p.entry, index, p.tags[index][1]))
        self.played.append(p)

    def finish(self, reread: Reread) -> EventResult:
        """The event scored: its settings, the games that state no length replayed again
        with the event's when it is not the one they were replayed with, the event checks,
        the standings."""
        settings = self.settings()
        self.replay_again(settings, reread)
        head, self.findings = self.findings, []
        self.check_lengths(settings)
        self.check_places()
        self.check_duplicates()
        self.check_seats()
        self.check_tables()
        if settings.format == "partners":
            self.check_partners()
        findings = head + [f for p in self.played for f in p.findings] + self.findings
        result = EventResult(self.name, settings, findings=findings)
        result.games = len(self.played)
        result.deals = sum(p.deals for p in self.played)
        result.files = list(dict.fromkeys(p.entry.path for p in self.played))
        result.dates = sorted({d.strip() for p in self.played
                               if (d := _tag_value(p.tags, "Date")) and d.strip()})
        result.sites = list(dict.fromkeys(s.strip() for p in self.played
                                          if (s := _tag_value(p.tags, "Site")) and s.strip()))
        counted = [p for p in self.played if p.counted]
        result.rounds = sorted({p.round for p in counted if p.round is not None},
                               key=_round_key)
        result.standings = _standings(counted, settings, result.decisions)
        result.awards = _awards(counted, settings)
        result.tables = sorted((_table_result(p) for p in self.played
                                if p.round is not None and p.table is not None),
                               key=lambda t: (_round_key(t.round), _round_key(t.table)))
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
                self.played[k] = _replay(entry, entry.game, settings.deals, settings.target)

    # -------------------------------------------------------------- settings

    def settings(self) -> Settings:
        """The event's settings: the first readable Format tag, then the overrides, then
        what the games say."""
        tag = FormatTag()
        first: tuple[Entry, int, str] | None = None
        for entry, index, value in self.formats:
            try:
                parsed = parse_format(value)
            except ValueError as exc:
                self.emit("E961", f"the Format tag: {exc}", entry, ("tag", index))
                continue
            if first is None:
                tag, first = parsed, (entry, index, value)
            elif parsed != tag:
                there, at, said = first
                line, _ = there.find(("tag", at))
                self.emit("E961", f"the Format tag says {value!r}, but the one at "
                                  f"{_at(there, entry, line)} says {said!r}; the first one "
                                  "counts",
                          entry, ("tag", index))
        o = self.overrides
        fmt, basis = tag.format, "the Format tag"
        if o.format is not None:
            fmt, basis = o.format, "--event-format"
        if fmt is None:
            fmt = self.infer_format()
            basis = ("inferred: the partners never change" if fmt == "partners"
                     else "inferred: the partners change")
        deals, target = tag.deals, tag.target
        length_basis = "the Format tag"
        if o.deals is not None:
            deals, length_basis = o.deals, "--deals"
            target = o.target if o.target is not None else target
        elif o.target is not None:
            deals, target, length_basis = None, o.target, "--target"
        if deals is None and target is None:
            deals, target, length_basis = self.infer_length(fmt)
        rank = o.rank if o.rank is not None else tag.rank
        tiebreaks = o.tiebreaks
        if tiebreaks is not None:
            bad = [t for t in tiebreaks if fmt not in KEYS[t].formats]
            if bad:
                raise ValueError(f"--tiebreak {bad[0]} does not apply to the {fmt} event "
                                 f"{self.name!r} (it takes {', '.join(tiebreaks_for(fmt))})")
        elif tag.tiebreaks is not None:
            bad = [t for t in tag.tiebreaks if fmt not in KEYS[t].formats]
            if bad and first is not None:
                self.emit("E961", f"tie-break {bad[0]} does not apply to a {fmt} event (it "
                                  f"takes {', '.join(tiebreaks_for(fmt))})", first[0],
                          ("tag", first[1]))
            else:
                tiebreaks = tag.tiebreaks
        lone = tag.lone
        if o.lone is not None:
            if fmt != "progressive":
                raise ValueError(f"--lone {o.lone[0]}/{o.lone[1]} gives points to each player, "
                                 f"so it applies to a progressive event only, and {self.name!r}"
                                 f" is a {fmt} event (score the others with --event NAME)")
            lone = o.lone
        elif lone is not None and fmt != "progressive" and first is not None:
            self.emit("E961", f"lone={lone[0]}/{lone[1]} gives points to each player, so it "
                              "applies to a progressive event only", first[0],
                      ("tag", first[1]))
            lone = None
        settings = Settings(fmt, deals, target, (), basis, rank, length_basis, lone)
        if tiebreaks is None:
            tiebreaks = (GAMES_WON_TIEBREAKS if fmt == "progressive"
                         and settings.primary == "games-won" else DEFAULT_TIEBREAKS[fmt])
        return Settings(fmt, deals, target, tiebreaks, basis, rank, length_basis, lone)

    def infer_format(self) -> str:
        """Partners when every player always has the same partners, else progressive."""
        mates: dict[str, frozenset[str]] = {}
        for p in self.played:
            if not p.ruleset.variant.partnership:
                return "progressive"
            for seat, name in p.players.items():
                partner = p.players.get(seat.partner)
                team = frozenset({name, partner} if partner else {name})
                if mates.setdefault(name.casefold(), team) != team:
                    return "progressive"
        return "partners"

    def infer_length(self, fmt: str) -> tuple[int | None, int | None, str]:
        """The length of a game when neither the Format tag nor an option gives it: what
        most games state, or, for a game that states none, show (it ends at its target, or
        its result line closes it after N deals); with no game to go by, 8 deals a game
        (progressive) or the variant's target (partners)."""
        votes = Counter(p.vote for p in self.played if p.vote is not None)
        if not votes:
            if fmt == "progressive":
                return DEFAULT_DEALS, None, "the default of a progressive event"
            targets = Counter(p.ruleset.options.target for p in self.played)
            return None, (targets.most_common(1)[0][0] if targets else None), \
                "the default of the variant"
        (kind, n), count = votes.most_common(1)[0]
        games = len(self.played)
        said = (f"{count} of {games} game{'s' if games != 1 else ''} "
                f"{'is' if count == 1 else 'are'} "
                f"{f'played to {n}' if kind == 'target' else f'{n} deals'}")
        basis = f"inferred from the games: {said}"
        return (n, None, basis) if kind == "deals" else (None, n, basis)

    # -------------------------------------------------------------- event checks

    def check_lengths(self, settings: Settings) -> None:
        """E965 (not the event's length), E966 (not played to its end)."""
        for p in self.played:
            if any(f.code == "T202" for f in p.findings):
                continue  # an unknown variant is not replayed: T202 says so
            options = p.ruleset.options
            index = _tag_index(p.tags, "deals" if options.deals else "target")
            if index is None:
                index = _tag_index(p.tags, "rules")
            locus: Locus = ("tag", index) if index is not None else ("game",)
            plays = (f"{options.deals} deal{'s' if options.deals != 1 else ''}"
                     if options.deals else f"to {options.target}")
            if settings.deals is not None and options.deals != settings.deals:
                self.emit("E965", f"the game plays {plays}, but a game of this event is "
                                  f"{settings.deals} deal{'s' if settings.deals != 1 else ''}",
                          p.entry, locus)
            elif settings.deals is None and settings.target is not None and (
                    options.deals is not None or options.target != settings.target):
                self.emit("E965", f"the game plays {plays}, but the games of this event "
                                  f"are played to {settings.target}", p.entry, locus)
            if p.ended:
                continue
            p.status = "unfinished"
            if not any(f.code in ("G951", "G955") for f in p.findings):
                self.short(p)  # G951 and G955 already say that the game did not end

    def short(self, p: Played) -> None:
        """E966 for a game that did not reach its end."""
        options = p.ruleset.options
        if options.deals:
            goal = f"after {len(p.dealt)} of its {options.deals} deals"
        else:
            totals = " ".join(f"{s} {v}" for s, v in p.totals.items()) or "0"
            goal = f"at {totals}, short of the target {options.target}"
        self.emit("E966", f"{p.where()} stops {goal}: play it out, or correct the record",
                  p.entry, ("end",) if p.has_end else ("tail",))

    def check_places(self) -> None:
        """E962: a game with no Round or Table tag, or a seat with no name."""
        for p in self.played:
            missing = [t for t, v in (("Round", p.round), ("Table", p.table)) if v is None]
            if missing:
                self.emit("E962", f"the game has no {' or '.join(missing)} tag: it is left out "
                                  "of the standings", p.entry, ("game",))
                p.counted, p.status = False, "left out"
                continue
            unnamed = [s for s in p.ruleset.seats if s not in p.players]
            if unnamed:
                seats = " ".join(unnamed)
                self.emit("E962", f"{p.where()}: seat{'s' if len(unnamed) > 1 else ''} {seats} "
                                  f"{'have' if len(unnamed) > 1 else 'has'} no player's name: "
                                  "the game is left out of the standings", p.entry, ("game",))
                p.counted, p.status = False, "left out"

    def check_duplicates(self) -> None:
        """E967 (the same game twice), E968 (two games for one table of a round)."""
        seen: dict[object, Played] = {}
        tables: dict[tuple[str, str], Played] = {}
        for p in self.played:
            if not p.counted:
                continue
            signature = _signature(p)
            first = seen.get(signature) if signature is not None else None
            if first is not None:
                self.emit("E967", f"the same game as {first.where()} ("
                                  f"{_at(first.entry, p.entry)}): this copy is left out of the "
                                  "standings", p.entry, ("game",))
                p.counted, p.status = False, "left out"
                continue
            if signature is not None:
                seen[signature] = p
            assert p.round is not None and p.table is not None
            place = (p.round.casefold(), p.table.casefold())
            other = tables.get(place)
            if other is not None:
                index = _tag_index(p.tags, "table")
                self.emit("E968", f"a second game for {p.where()} (the first is at "
                                  f"{_at(other.entry, p.entry)}): correct its Round or "
                                  "Table tag; it is left out of the standings", p.entry,
                          ("tag", index) if index is not None else ("game",))
                p.counted, p.status = False, "left out"
                continue
            tables[place] = p

    def check_seats(self) -> None:
        """E963: a player seated twice in one round."""
        seated: dict[tuple[str, str], tuple[Played, Seat]] = {}
        for p in self.played:
            if not p.counted:
                continue
            assert p.round is not None
            for seat in p.ruleset.seats:
                name = p.players.get(seat)
                if name is None:
                    continue
                key = (p.round.casefold(), name.casefold())
                first = seated.get(key)
                if first is None:
                    seated[key] = (p, seat)
                    continue
                other, at = first
                there = ("at this table" if other is p
                         else f"at table {other.table}")
                self.emit("E963", f"round {p.round}: {name} is seated {there} ({at}) and again "
                                  f"at table {p.table} ({seat})", p.entry,
                          ("tag", p.name_tags[seat]))

    def check_tables(self) -> None:
        """E964: a round without a game for one of the event's tables, or a missing round."""
        placed = [p for p in self.played if p.round is not None and p.table is not None]
        if not placed:
            return
        rounds: dict[str, list[Played]] = {}
        for p in placed:
            assert p.round is not None
            rounds.setdefault(p.round.casefold(), []).append(p)
        tables = sorted({p.table.casefold(): p.table for p in placed
                         if p.table is not None}.items(), key=lambda kv: _round_key(kv[1]))
        labels = ", ".join(t for _, t in tables)
        numbered = {_number(r): games[0] for r, games in rounds.items()}
        if None not in numbered:
            before = 0
            for number in sorted(n for n in numbered if n is not None):
                if number > before + 1:
                    p = numbered[number]
                    index = _tag_index(p.tags, "round")
                    first, last = before + 1, number - 1
                    gap = f"round {first} is missing: no game has the Round tag {first}" \
                        if first == last else f"rounds {first} to {last} are missing: no " \
                                              f"game has a Round tag from {first} to {last}"
                    self.emit("E964", gap, p.entry,
                              ("tag", index) if index is not None else ("game",))
                before = number
        for games in sorted(rounds.values(), key=lambda g: _round_key(g[0].round or "")):
            have = {p.table.casefold() for p in games if p.table is not None}
            absent = [label for key, label in tables if key not in have]
            if absent:
                p = games[0]
                index = _tag_index(p.tags, "round")
                self.emit("E964", f"round {p.round} has no game for table"
                                  f"{'s' if len(absent) > 1 else ''} {', '.join(absent)} (the "
                                  f"event's tables are {labels})", p.entry,
                          ("tag", index) if index is not None else ("game",))

    def check_partners(self) -> None:
        """E969: in a partners event, a player with other partners than before."""
        teams: dict[str, tuple[frozenset[str], Played]] = {}
        for p in self.played:
            if not p.counted:
                continue
            for seat in p.ruleset.seats:
                name = p.players.get(seat)
                if name is None:
                    continue
                side = p.ruleset.side(seat)
                team = frozenset(n.casefold() for s, n in p.players.items()
                                 if p.ruleset.side(s) == side)
                first = teams.setdefault(name.casefold(), (team, p))
                if first[0] != team:
                    before = sorted(first[1].players[s] for s in first[1].ruleset.seats
                                    if s in first[1].players
                                    and first[1].players[s].casefold() in first[0]
                                    and first[1].players[s].casefold() != name.casefold())
                    now = [n for s, n in p.players.items() if p.ruleset.side(s) == side
                           and n.casefold() != name.casefold()]
                    self.emit("E969", f"{name} partners {' and '.join(now) or 'nobody'} here, "
                                      f"but {' and '.join(before) or 'nobody'} in "
                                      f"{first[1].where()}: partners are fixed in a partners "
                                      "event", p.entry, ("tag", p.name_tags[seat]))
                    break


def _players(tags: Tags, ruleset: Ruleset) -> tuple[dict[Seat, str], dict[Seat, int]]:
    names: dict[Seat, str] = {}
    where: dict[Seat, int] = {}
    for seat in SEATS:
        if seat not in ruleset.seats:
            continue
        index = _tag_index(tags, *_NAME_TAGS[seat])
        if index is not None and tags[index][1].strip():
            names[seat] = tags[index][1].strip()
            where[seat] = index
    return names, where


def seat_players(game: Game, ruleset: Ruleset) -> dict[Seat, str]:
    """The name of each seat in play that has one, from its name tag (``N`` or ``North``),
    as ``score`` reads them."""
    return _players(tuple((tag.name, tag.value) for tag in game.tags), ruleset)[0]


def _at(there: Entry, here: Entry, line: int | None = None) -> str:
    """Where another game (or a line of it) is: ``line 12`` in the same file, else
    ``path:12``."""
    line = line if line is not None else there.find(("game",))[0]
    return f"line {line}" if there.path == here.path else f"{there.path}:{line}"


def _signature(p: Played) -> object | None:
    """What makes two entries the same game: the players and every deal's dealer and points,
    whatever the detail each was recorded at."""
    if not p.dealt:
        return None
    deals = tuple((dealer, points or ()) for dealer, points in p.dealt)
    return tuple(sorted((s.value, n.casefold()) for s, n in p.players.items())), deals


def _table_result(p: Played) -> TableResult:
    sides = p.sides()
    scores = tuple((" & ".join(names) or side, p.totals.get(side, 0))
                   for side, names in sides.items())
    winner = None
    if p.ended and p.winner in sides:
        winner = " & ".join(sides[p.winner]) or p.winner
    assert p.round is not None and p.table is not None
    return TableResult(p.round, p.table, scores, winner, len(p.dealt), p.status,
                       p.entry.path, p.entry.line)


# ------------------------------------------------------------------ standings


def _competitors(p: Played, fmt: str) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """Each side's competitors: (key, label, players); progressive: one per player."""
    out: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    for side, names in p.sides().items():
        if fmt == "progressive":
            for name in names:
                out[name.casefold()] = (side, name, (name,))
        else:
            key = " & ".join(sorted(n.casefold() for n in names))
            out[key] = (side, " & ".join(names), names)
    return out


def _deal_winners(points: Points | None) -> set[str]:
    """The sides that won a deal: those that scored the most, when that is above 0."""
    if not points:
        return set()
    best = max(v for _, v in points)
    return {s for s, v in points if v == best} if best > 0 else set()


def _standings(games: list[Played], settings: Settings, decisions: list[Decision]
               ) -> list[Standing]:
    fmt = settings.format
    rows: dict[str, Standing] = {}
    meetings: list[tuple[set[str], set[str]]] = []
    for p in games:
        comps = _competitors(p, fmt)
        totals = p.totals
        winners: set[str] = set()
        loners = [seat for seat, _, _ in p.lone_hands]
        for key, (side, label, names) in comps.items():
            row = rows.setdefault(key, Standing(key, label, names))
            own = _own_points(p, side, names, settings.lone)
            row.played += 1
            row.points_for += own
            row.points_against += sum(v for s, v in totals.items() if s != side)
            assert p.round is not None
            row.by_round[p.round] = row.by_round.get(p.round, 0) + own
            row.high_game = own if row.high_game is None else max(row.high_game, own)
            if not p.ended:
                row.unfinished += 1
            elif p.winner is None:
                row.drawn += 1
            elif p.winner == side:
                row.won += 1
                winners.add(key)
            else:
                row.lost += 1
            row.deals_won += sum(1 for _, points in p.dealt if side in _deal_winners(points))
            mine = {seat for seat in p.ruleset.seats if p.players.get(seat) in names}
            row.loners += sum(1 for seat in loners if seat in mine)
            row.euchres += sum(1 for seats in p.euchres if seats & mine)
        meetings.append((set(comps), winners))
    primary = _rank(list(rows.values()), [settings.primary], meetings)
    ordered = [part for group in primary
               for part in _rank(group, list(settings.tiebreaks), meetings, decisions)]
    out: list[Standing] = []
    for group in ordered:
        rank = len(out) + 1
        for row in sorted(group, key=lambda r: r.label.casefold()):
            row.rank = rank
            row.tied = len(group) > 1
            out.append(row)
    return out


def _rank(rows: list[Standing], keys: list[str], meetings: list[tuple[set[str], set[str]]],
          decisions: list[Decision] | None = None) -> list[list[Standing]]:
    """The rows in groups that stay level, best first, each key breaking the ties the keys
    before it left; every tie a tie-break parts is added to ``decisions``."""
    if len(rows) <= 1 or not keys:
        return [rows] if rows else []
    key, rest = keys[0], keys[1:]
    values = _head_to_head(rows, meetings) if key == "head-to-head" else {
        r.key: r.value(key) for r in rows}
    groups: dict[int, list[Standing]] = {}
    for row in rows:
        groups.setdefault(values[row.key], []).append(row)
    order = sorted(groups, reverse=True)
    if decisions is not None and len(groups) > 1:
        sign = -1 if key == "points-against" else 1
        decisions.append(Decision(key, tuple(
            (tuple(sorted((r.label for r in groups[v]), key=str.casefold)), sign * v)
            for v in order)))
    out: list[list[Standing]] = []
    for value in order:
        out.extend(_rank(groups[value], rest, meetings, decisions))
    return out


def _head_to_head(rows: list[Standing], meetings: list[tuple[set[str], set[str]]]
                  ) -> dict[str, int]:
    """Games won against the other rows of the group, in the games between them."""
    group = {r.key for r in rows}
    wins = dict.fromkeys(group, 0)
    for present, winners in meetings:
        if len(present & group) > 1:
            for key in winners & group:
                wins[key] += 1
    return wins


def _own_points(p: Played, side: str, names: tuple[str, ...], lone: tuple[int, int] | None
                ) -> int:
    """What a row scored in a game: its side's total; for one player, a penalty charged to
    the partner alone does not count (RULES.md H6), and with individual lone-hand points
    (``lone=L/P``, H7) each lone hand of five tricks of that side counts L to its loner and
    P to the partner instead of the side's points."""
    own = p.totals.get(side, 0)
    if len(names) != 1 or not p.ruleset.variant.partnership:
        return own
    own += sum(points for seat, points in p.charged
               if p.ruleset.side(seat) == side and p.players.get(seat) != names[0])
    if lone is None:
        return own
    for maker, tricks, points in p.lone_hands:
        if tricks == 5 and p.ruleset.side(maker) == side:
            own += (lone[0] if p.players.get(maker) == names[0] else lone[1]) - points
    return own


def _lone_hands(rules: Ruleset, report: GameReport) -> tuple[tuple[Seat, int, int], ...]:
    """The maker, tricks and side's points of each lone hand that made (3 tricks or more);
    only in the variants where going alone is a choice."""
    if rules.variant.alone != "declared":
        return ()
    return tuple((deal.maker, deal.maker_tricks, (deal.points or {}).get(
                  rules.side(deal.maker), 0)) for deal in report.deals
                 if deal.alone and deal.maker is not None and deal.maker_tricks is not None
                 and deal.maker_tricks >= 3)


def _euchre_takers(game: Game, rules: Ruleset, report: GameReport
                   ) -> tuple[frozenset[Seat], ...]:
    """For each euchre (the makers set), the seats that took it: a lone defender alone,
    else every seat of the defending sides. A deal scored by a claimed renege is no
    euchre: its penalty replaced the tricks (P2)."""
    out: list[frozenset[Seat]] = []
    for k, deal in enumerate(report.deals):
        record = game.deals[k] if k < len(game.deals) else None
        if deal.maker is None or (record is not None and record.claims):
            continue
        if rules.variant.scoring:
            euchred = deal.maker_tricks is not None and deal.maker_tricks < 3
        else:
            euchred = (deal.points or {}).get(rules.side(deal.maker), 0) < 0
        if not euchred:
            continue
        lone = None
        if record is not None:
            lone = next((d.seat for d in record.declarations if d.act == "defend"), None)
            if lone is None and record.sheet is not None:
                lone = record.sheet.defend
        maker_side = rules.side(deal.maker)
        out.append(frozenset(seat for seat in rules.seats
                             if rules.side(seat) != maker_side and (lone is None or seat == lone)))
    return tuple(out)


def _awards(games: list[Played], settings: Settings) -> list[Award]:
    loners: Counter[str] = Counter()
    euchres: Counter[str] = Counter()
    names: dict[str, str] = {}

    def credit(counter: Counter[str], p: Played, seat: Seat) -> None:
        name = p.players.get(seat)
        if name is not None:
            names.setdefault(name.casefold(), name)
            counter[name.casefold()] += 1

    for p in games:
        for seat, _, _ in p.lone_hands:
            credit(loners, p, seat)
        for seats in p.euchres:
            for seat in seats:
                credit(euchres, p, seat)
    out = [_most("most loners made", loners, names), _most("most euchres taken", euchres, names)]
    best: int | None = None
    where: dict[str, list[str]] = {}
    for p in games:
        for _, (side, label, seated) in _competitors(p, settings.format).items():
            own = _own_points(p, side, seated, settings.lone)
            if best is None or own > best:
                best, where = own, {}
            if own == best:
                where.setdefault(label, []).append(f"round {p.round} table {p.table}")
    if best is None:
        out.append(Award("highest single game", (), 0))
    else:
        out.append(Award("highest single game", tuple(where), best,
                         tuple(", ".join(places) for places in where.values())))
    return out


def _most(title: str, counts: Counter[str], names: dict[str, str]) -> Award:
    best = max(counts.values(), default=0)
    if best <= 0:
        return Award(title, (), 0)
    winners = tuple(sorted((names[k] for k, v in counts.items() if v == best), key=str.casefold))
    return Award(title, winners, best)


__all__ = [
    "DEFAULT_DEALS", "DEFAULT_TIEBREAKS", "FORMATS", "GAMES_WON_TIEBREAKS", "KEYS", "PRIMARY",
    "RANKS",
    "Award", "Decision", "Entry",
    "EventResult", "FormatTag", "Key", "Overrides", "Played", "Scorer", "Settings", "Standing",
    "TableResult", "iter_entries", "parse_format", "parse_lone", "parse_tiebreaks",
    "read_entries", "score_events", "seat_players", "tiebreaks_for",
]
