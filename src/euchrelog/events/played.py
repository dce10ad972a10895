"""A game of an event, replayed and placed: what the event keeps of it.

:func:`replay_entry` replays one entry with the engine (with the event's length when the
game states none) and keeps a :class:`Played`: its tags, totals, deals' points, players by
seat (:func:`seat_players`), round and table, lone hands and euchre takers, and its
findings; the record itself is dropped, so that an event's memory stays flat.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

from ..check import check_game
from ..findings import Finding
from ..loci import SourceMap
from ..models import Game, Tag
from ..replay import GameReport
from ..rules import Ruleset, parse_rules, ruleset_from_tags
from ..seats import SEATS, Seat
from .entries import Entry

_NAME_TAGS = {Seat.N: ("n", "north"), Seat.E: ("e", "east"), Seat.S: ("s", "south"),
              Seat.W: ("w", "west")}


Tags = tuple[tuple[str, str], ...]
"""A game's tags as (name, value), in order: what an event keeps of them."""

Points = tuple[tuple[str, int], ...]
"""The points of a deal by side, as (side, points) sorted by side."""


def tag_index(tags: Tags, *names: str) -> int | None:
    """The index of the first tag called one of ``names`` (lowercase), else ``None``."""
    for i, (name, _) in enumerate(tags):
        if name.lower() in names:
            return i
    return None


def tag_value(tags: Tags, name: str) -> str | None:
    """The value of the first tag called ``name`` (case-insensitive), as ``Game.tag``."""
    index = tag_index(tags, name.lower())
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
    """Each lone hand that made (3 tricks or more): the lone player (the maker, or under
    partner-alone its partner), its tricks and its side's points; only in the variants where
    going alone is a choice."""
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


def place_number(value: str) -> int | None:
    """A round or table written as a number (ASCII digits: ``03`` is 3), else ``None``."""
    text = value.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _place(value: str | None) -> str | None:
    """A Round or Table tag's value as placed: a number without its leading zeros, else the
    text; ``None`` when there is none."""
    if value is None or not value.strip():
        return None
    number = place_number(value)
    return value.strip() if number is None else str(number)


def place_key(value: str) -> tuple[int, int, str]:
    """How rounds and tables sort: numbers first, in order, then the others by name."""
    number = place_number(value)
    return (0, number, "") if number is not None else (1, 0, value.strip().casefold())


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


def replay_entry(entry: Entry, game: Game, deals: int | None = None, target: int | None = None
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
                  lone_hands(ruleset, report), _euchre_takers(game, ruleset, report),
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

def _players(tags: Tags, ruleset: Ruleset) -> tuple[dict[Seat, str], dict[Seat, int]]:
    names: dict[Seat, str] = {}
    where: dict[Seat, int] = {}
    for seat in SEATS:
        if seat not in ruleset.seats:
            continue
        index = tag_index(tags, *_NAME_TAGS[seat])
        if index is not None and tags[index][1].strip():
            names[seat] = tags[index][1].strip()
            where[seat] = index
    return names, where


def seat_numbers(tags: Tags, ruleset: Ruleset) -> dict[Seat, int]:
    """The number of each seat's player in the club's registry, from its ``NId`` (or
    ``NorthId``) tag, when it has one (a whole number 1 to 999999)."""
    numbers: dict[Seat, int] = {}
    for seat in ruleset.seats:
        index = tag_index(tags, *(f"{n}id" for n in _NAME_TAGS[seat]))
        value = tags[index][1].strip() if index is not None else ""
        if value.isascii() and value.isdigit() and 1 <= int(value[:7]) <= 999_999:
            numbers[seat] = int(value)
    return numbers


def numbered(names: dict[Seat, str], numbers: dict[Seat, int], first: dict[int, str]
             ) -> dict[Seat, str]:
    """The players of a game keyed by their numbers (``score --by-number``, ``stats
    --by-number``): a numbered player is named by the name first seen with the number
    (kept in ``first``) and the number, ``Ann #12``, however the game spells the name; a
    player without a number keeps the name.

    >>> first = {}
    >>> numbered({Seat.N: "Ann", Seat.E: "Bob"}, {Seat.N: 12}, first)
    {<Seat.N: 'N'>: 'Ann #12', <Seat.E: 'E'>: 'Bob'}
    >>> numbered({Seat.S: "ann b."}, {Seat.S: 12}, first)
    {<Seat.S: 'S'>: 'Ann #12'}
    """
    out = dict(names)
    for seat, number in numbers.items():
        name = first.setdefault(number, names.get(seat) or f"#{number}")
        out[seat] = f"{name} #{number}"
    return out


def seat_players(game: Game, ruleset: Ruleset) -> dict[Seat, str]:
    """The name of each seat in play that has one, from its name tag (``N`` or ``North``),
    as ``score`` reads them."""
    return _players(tuple((tag.name, tag.value) for tag in game.tags), ruleset)[0]

def lone_hands(rules: Ruleset, report: GameReport) -> tuple[tuple[Seat, int, int], ...]:
    """The lone player (the maker, or under partner-alone its partner), tricks and side's
    points of each lone hand that made (3 tricks or more); only in the variants where going
    alone is a choice."""
    if rules.variant.alone != "declared":
        return ()
    return tuple((deal.lone, deal.maker_tricks, (deal.points or {}).get(
                  rules.side(deal.lone), 0)) for deal in report.deals
                 if deal.lone is not None and deal.maker_tricks is not None
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


