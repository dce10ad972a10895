"""The event checks (codes E961-E969, docs/tournaments.md): an event's games checked
against each other once each is replayed.

:class:`EventSettings` settles an event's settings from its Format tags (E961 for one it
cannot use or that disagrees with the first), the command line's overrides and what the
games show; :class:`EventChecks` then checks the games' lengths (E965, E966), places
(E962), copies and tables (E967, E968), seats (E963), rounds (E964) and, in a partners
event, partners (E969), and marks the games the standings leave out.
"""

from __future__ import annotations

from collections import Counter

from ..findings import Finding
from ..loci import Locus
from ..seats import Seat
from .entries import Entry
from .played import Played, place_key, place_number, tag_index
from .settings import (
    DEFAULT_DEALS,
    DEFAULT_TIEBREAKS,
    GAMES_WON_TIEBREAKS,
    KEYS,
    FormatTag,
    Overrides,
    Settings,
    parse_format,
    tiebreaks_for,
)


def _finding(code: str, message: str, entry: Entry, locus: Locus) -> Finding:
    """A finding at a part of a game."""
    line, column = entry.find(locus)
    return Finding(code, message, line, column, path=entry.path, game=entry.index)


class EventSettings:
    """Settles the settings of one event from its replayed games (:meth:`settle`); the
    E961 findings on its Format tags go to :attr:`findings`."""

    def __init__(self, name: str, overrides: Overrides, formats: list[tuple[Entry, int, str]],
                 played: list[Played]) -> None:
        self.name = name
        self.overrides = overrides
        self.formats = formats
        """Each Format tag: the game, the tag's index and its value."""
        self.played = played
        self.findings: list[Finding] = []

    def emit(self, code: str, message: str, entry: Entry, locus: Locus) -> None:
        """Adds a finding at a part of a game."""
        self.findings.append(_finding(code, message, entry, locus))

    def settle(self) -> Settings:
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


class EventChecks:
    """Checks the replayed games of one event against each other (:meth:`run`), marking
    those the standings leave out (:attr:`Played.counted`, :attr:`Played.status`)."""

    def __init__(self, played: list[Played]) -> None:
        self.played = played
        self.findings: list[Finding] = []

    def emit(self, code: str, message: str, entry: Entry, locus: Locus) -> None:
        """Adds a finding at a part of a game."""
        self.findings.append(_finding(code, message, entry, locus))

    def run(self, settings: Settings) -> list[Finding]:
        """Every event check but E961, in order; their findings."""
        self.check_lengths(settings)
        self.check_places()
        self.check_duplicates()
        self.check_seats()
        self.check_tables()
        if settings.format == "partners":
            self.check_partners()
        return self.findings

    def check_lengths(self, settings: Settings) -> None:
        """E965 (not the event's length), E966 (not played to its end)."""
        for p in self.played:
            if any(f.kind.stops == "game" for f in p.findings):
                continue  # an unknown variant is not replayed: T202 says so
            options = p.ruleset.options
            index = tag_index(p.tags, "deals" if options.deals else "target")
            if index is None:
                index = tag_index(p.tags, "rules")
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
            if not any(f.kind.unended for f in p.findings):
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
                index = tag_index(p.tags, "table")
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
                         if p.table is not None}.items(), key=lambda kv: place_key(kv[1]))
        labels = ", ".join(t for _, t in tables)
        numbered = {place_number(r): games[0] for r, games in rounds.items()}
        if None not in numbered:
            before = 0
            for number in sorted(n for n in numbered if n is not None):
                if number > before + 1:
                    p = numbered[number]
                    index = tag_index(p.tags, "round")
                    first, last = before + 1, number - 1
                    gap = f"round {first} is missing: no game has the Round tag {first}" \
                        if first == last else f"rounds {first} to {last} are missing: no " \
                                              f"game has a Round tag from {first} to {last}"
                    self.emit("E964", gap, p.entry,
                              ("tag", index) if index is not None else ("game",))
                before = number
        for games in sorted(rounds.values(), key=lambda g: place_key(g[0].round or "")):
            have = {p.table.casefold() for p in games if p.table is not None}
            absent = [label for key, label in tables if key not in have]
            if absent:
                p = games[0]
                index = tag_index(p.tags, "round")
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

