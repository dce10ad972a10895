"""The standings of an event, its awards and the result of each table.

:func:`standings_of` ranks the competitors of the counted games (a player in a progressive
event, a team in a partners one) by the event's first key and its tie-breaks, head to head
included, noting each tie a tie-break parts (:class:`Decision`); :func:`awards_of` finds who
made most loners, took most euchres and scored the highest single game;
:func:`table_result` is one table of one round; :func:`card_lines` is each player's line of
each game, for a personal scorecard.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..seats import Seat
from .played import Played, Points, seat_numbers
from .settings import Settings


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


def table_result(p: Played) -> TableResult:
    """The result of a placed game at its table."""
    sides = p.sides()
    scores = tuple((" & ".join(names) or side, p.totals.get(side, 0))
                   for side, names in sides.items())
    winner = None
    if p.ended and p.winner in sides:
        winner = " & ".join(sides[p.winner]) or p.winner
    assert p.round is not None and p.table is not None
    return TableResult(p.round, p.table, scores, winner, len(p.dealt), p.status,
                       p.entry.path, p.entry.line)


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


def standings_of(games: list[Played], settings: Settings, decisions: list[Decision]
                 ) -> list[Standing]:
    """The standings of the counted games, ranked by the event's first key and its
    tie-breaks; every tie a tie-break parts is added to ``decisions``."""
    fmt = settings.format
    rows: dict[str, Standing] = {}
    meetings: list[tuple[set[str], set[str]]] = []
    for p in games:
        comps = _competitors(p, fmt)
        winners: set[str] = set()
        for key, (side, label, names) in comps.items():
            row = rows.setdefault(key, Standing(key, label, names))
            _credit(row, p, side, names, settings.lone)
            if p.ended and p.winner is not None and p.winner == side:
                winners.add(key)
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


def _credit(row: Standing, p: Played, side: str, names: tuple[str, ...],
            lone: tuple[int, int] | None) -> None:
    """Adds game ``p`` to ``row``, whose ``names`` played it for ``side``: its points (as
    :func:`_own_points` counts them), its result, the deals the side won, the loners its
    players made and the euchres they took."""
    own = _own_points(p, side, names, lone)
    row.played += 1
    row.points_for += own
    row.points_against += sum(v for s, v in p.totals.items() if s != side)
    assert p.round is not None
    row.by_round[p.round] = row.by_round.get(p.round, 0) + own
    row.high_game = own if row.high_game is None else max(row.high_game, own)
    if not p.ended:
        row.unfinished += 1
    elif p.winner is None:
        row.drawn += 1
    elif p.winner == side:
        row.won += 1
    else:
        row.lost += 1
    row.deals_won += sum(1 for _, points in p.dealt if side in _deal_winners(points))
    mine = {seat for seat in p.ruleset.seats if p.players.get(seat) in names}
    row.loners += sum(1 for seat, _, _ in p.lone_hands if seat in mine)
    row.euchres += sum(1 for seats in p.euchres if seats & mine)


@dataclass(frozen=True)
class CardLine:
    """One player's game of an event: a line of the player's personal scorecard."""

    name: str
    number: int | None
    """The player's number in the club's registry (the game's ``NId`` tag), if any."""
    round: str
    table: str
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    points: int
    """What the player scored in the game, as the standings count it for one player."""
    result: str
    """``won``, ``lost``, ``drawn`` or ``unfinished``."""
    deals_won: int
    loners: int
    euchres: int


def card_lines(games: list[Played], settings: Settings) -> list[CardLine]:
    """Each player's line of each counted game (in the games' order): partners, opponents,
    points, result, deals won, loners and euchres, each counted as the standings count
    them."""
    out = []
    for p in games:
        sides = p.sides()
        numbers = seat_numbers(p.tags, p.ruleset)
        for seat in p.ruleset.seats:
            name = p.players.get(seat)
            if name is None or p.round is None or p.table is None:
                continue
            side = p.ruleset.side(seat)
            row = Standing(name.casefold(), name, (name,))
            _credit(row, p, side, (name,), settings.lone)
            result = ("won" if row.won else "lost" if row.lost else "drawn" if row.drawn
                      else "unfinished")
            out.append(CardLine(
                name, numbers.get(seat), p.round, p.table,
                tuple(n for n in sides[side] if n != name),
                tuple(n for s, names in sides.items() if s != side for n in names),
                row.points_for, result, row.deals_won, row.loners, row.euchres))
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


def awards_of(games: list[Played], settings: Settings) -> list[Award]:
    """The awards of the counted games: most loners made, most euchres taken, highest
    single game."""
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

