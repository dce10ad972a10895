"""Judging what a table enters: one deal in the notation, added to its game.

The server keeps each table game as its header (the tags :class:`~euchrelog.recorder.Recorder`
writes for the draw) and the deals accepted so far, each as the table typed it. An entry is
read once, with the game's header, and judged as ``euchrelog check`` would judge the game
ending with it: the replay steps the new deal alone, against the state the game's last deal
left, and the recorder enters it act by act with that replay's result
(:class:`~euchrelog.recorder.Reentry`), refusing what the engine refuses. A :class:`Judge`
keeps that state for each table game between two entries, so that accepting a deal costs
the same at deal 40 as at deal 1; nothing here knows a rule of the game.

>>> header = game_header("four-hand", "progressive deals=2", None, "Club", 1, 1,
...                      {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Dee"})
>>> verdict = judge(header, [], "deal 1 dealer N\\n  trump H maker E alone tricks 5\\n")
>>> verdict.accepted, verdict.totals, verdict.next_deal, verdict.next_dealer
(True, {'NS': 0, 'EW': 4}, 2, 'E')
>>> refused = judge(header, [], "deal 1 dealer N\\n  trump H maker E tricks 5\\n  points NS 2\\n")
>>> refused.accepted, refused.findings[0]["code"], refused.findings[0]["line"]
(False, 'C901', 3)
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Suit
from ..errors import EuchrelogError, IllegalActionError, NotationError
from ..events import parse_format
from ..events.played import seat_numbers
from ..findings import Finding
from ..loci import DealSource, SourceMap
from ..models import Deal
from ..notation import ParsedGame, parse_game
from ..recorder import Recorder, Reentry
from ..replay import replay

MAX_DEAL_CHARS = 4000
"""The longest entry accepted: one deal with every card and comment fits easily."""


@dataclass
class Verdict:
    """What the server answers to an entry (or a correction)."""

    accepted: bool
    findings: list[dict[str, Any]] = field(default_factory=list)
    """The findings of the entry: the refusal's, or the notes and warnings of an accepted
    deal; ``line`` and ``column`` count from the entry's first line."""
    totals: dict[str, int] = field(default_factory=dict)
    over: bool = False
    winner: str | None = None
    next_deal: int = 1
    next_dealer: str | None = None
    record: str = ""
    """The whole game in the canonical notation, as ``euchrelog serve export`` writes it."""

    def body(self) -> dict[str, Any]:
        """The JSON answer of the API."""
        if not self.accepted:
            return {"accepted": False, "findings": self.findings}
        return {"accepted": True, "findings": self.findings, "totals": self.totals,
                "over": self.over, "winner": self.winner,
                "next": None if self.over else {"deal": self.next_deal,
                                                "dealer": self.next_dealer}}


class DrawError(ValueError):
    """A game of the draw that cannot be recorded (an unknown variant, a seat the variant
    has not, a format that cannot be read); the message says which."""


def game_header(variant: str, fmt: str, target: int | None, event: str, round_: int,
                table: int, seats: Mapping[str, str],
                numbers: Mapping[str, int] | None = None) -> str:
    """The header of one table game of the draw, in the notation, as the recorder writes it;
    ``numbers``: the players' numbers in the club's registry, by seat (the ``NId``,
    ``EId``, ... tags, which ``score --by-number`` and ``stats --by-number`` key players
    by).

    :raises DrawError: when the recorder refuses the game or the format cannot be read.
    """
    try:
        settings = parse_format(fmt)
    except ValueError as exc:
        raise DrawError(f"format {fmt!r}: {exc}") from None
    tags = {"Event": event, "Format": fmt, "Round": str(round_), "Table": str(table),
            **{f"{seat}Id": str(n) for seat, n in (numbers or {}).items()}}
    try:
        rec = Recorder(variant, target=target, players=dict(seats), tags=tags,
                       rules=f"deals={settings.deals}" if settings.deals else None)
    except (IllegalActionError, ValueError) as exc:
        raise DrawError(f"round {round_} table {table}: {exc}") from None
    unnamed = [str(s) for s in rec.seats if str(s) not in seats]
    if unnamed:
        raise DrawError(f"round {round_} table {table}: no player for "
                        f"{' '.join(unnamed)} (the seats of {rec.variant.name} are "
                        f"{' '.join(map(str, rec.seats))})")
    return rec.dumps().removesuffix("unfinished\n")


def sheet_choices(header: str) -> dict[str, Any]:
    """What the table page offers for a score-sheet line of the game of ``header``: the
    trumps (with the symbols the page shows), the seats, the sides (who enters a deal, who
    accepts it) and the seats of each, and the tricks a side can take (the full notation
    covers the rest). Read once a game (the phones of a table ask again and again)."""
    return dict(json.loads(_choices(header)))


@functools.lru_cache(maxsize=4096)
def _choices(header: str) -> str:
    rec = Recorder.loads(header + "unfinished\n")
    options = rec.ruleset.options
    trumps = [s.value for s in Suit] + (["NT"] if options.no_trump else [])
    return json.dumps({"trumps": trumps, "trump_labels": [trump_label(t) for t in trumps],
                       "seats": [str(s) for s in rec.seats],
                       "sides": list(rec.ruleset.side_names),
                       "side_seats": side_seats(header),
                       "tricks": rec.ruleset.variant.hand_size})


def trump_label(trump: str) -> str:
    """A trump as the pages show it: a suit's symbol, or ``no trump``."""
    return Suit(trump).symbol if trump in Suit.__members__.values() else "no trump"


@functools.lru_cache(maxsize=4096)
def _side_seats(header: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    rules = Recorder.loads(header + "unfinished\n").ruleset
    return tuple((side, tuple(str(s) for s in rules.seats if rules.side(s) == side))
                 for side in rules.side_names)


@functools.lru_cache(maxsize=4096)
def _numbers(header: str) -> tuple[tuple[str, int], ...]:
    rec = Recorder.loads(header + "unfinished\n")
    tags = tuple((t.name, t.value) for t in rec.tags)
    return tuple((str(seat), n) for seat, n in seat_numbers(tags, rec.ruleset).items())


def player_numbers(header: str) -> dict[str, int]:
    """The number in the club's registry of each seat's player of the game of ``header``
    that has one (its ``NId`` tag), by seat."""
    return dict(_numbers(header))


def side_seats(header: str) -> dict[str, list[str]]:
    """The seats of each side of the game of ``header``, in seat order (``{"NS": ["N",
    "S"], ...}``; a side of one seat where each plays for himself)."""
    return {side: list(seats) for side, seats in _side_seats(header)}


def side_names(header: str, seats: Mapping[str, str]) -> dict[str, str]:
    """Each side of the game of ``header`` by its players' names (``seats``: the name of
    each seat), as the pages show a side: ``Ann & Cy``."""
    return {side: " & ".join(seats.get(s, s) for s in members)
            for side, members in _side_seats(header)}


def deal_lines(header: str, record: str, seats: Mapping[str, str]) -> list[str]:
    """Each deal of the game ``record`` (its canonical text; empty before the first deal)
    as the table page lists it, by the players' names and the suits' symbols: who dealt,
    the trump and its maker, a lone hand, the makers' tricks and what each side scored,
    as the game's replay read them (one replay of the game, kept for the phones of the
    table that ask again while it has no new deal)."""
    return list(_deal_lines(header, record, tuple(seats.items())))


@functools.lru_cache(maxsize=1024)
def _deal_lines(header: str, record: str, seat_names: tuple[tuple[str, str], ...]
                ) -> tuple[str, ...]:
    if not record:
        return ()
    parsed = parse_game(record)
    if not isinstance(parsed, ParsedGame):
        return ()
    seats = dict(seat_names)
    sides = side_names(header, seats)
    lines = []
    for deal in replay(parsed).deals:
        parts = [f"deal {deal.number}", f"{seats.get(str(deal.dealer), deal.dealer)} deals"]
        if deal.trump is not None and deal.maker is not None:
            maker = seats.get(str(deal.maker), str(deal.maker))
            parts.append(f"{trump_label(deal.trump)} by {maker}"
                         + (" alone" if deal.alone else ""))
        else:
            parts.append("no trump made")
        if deal.maker_tricks is not None:
            parts.append(plural(deal.maker_tricks, "trick"))
        if deal.points:
            parts.append(", ".join(f"{sides.get(side, side)} +{points}"
                                   for side, points in deal.points.items() if points))
        lines.append(" · ".join(parts))
    return tuple(lines)


def plural(n: int, word: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _place(finding: Finding, offset: int) -> dict[str, Any]:
    """A finding as the API gives it: its line counted from the entry's first line."""
    data = finding.to_dict()
    data["path"] = None
    inside = finding.line > offset
    data["line"] = finding.line - offset if inside else None
    data["column"] = finding.column if inside else None
    return data


def _refusal(code: str, message: str, line: int | None = None,
             column: int | None = None, deal: int | None = None) -> Verdict:
    """A refusal with one finding of its own (a place in the entry, when it has one)."""
    data = Finding(code, message, deal=deal).to_dict()
    data["line"], data["column"] = line, column
    return Verdict(False, [data])


def judge(header: str, deals: Sequence[str], entry: str, at: int | None = None) -> Verdict:
    """Judges ``entry`` as deal ``at`` (0-based; by default a new last deal) of the game
    made of ``header`` and ``deals``; a correction replaces the deal at ``at``. (A
    :class:`Judge` that keeps nothing: the game is read whole.)"""
    return Judge(0).judge(header, deals, entry, at)


def _normal(entry: str) -> str:
    """An entry as the server stores it: Unix line ends, one at the end."""
    return entry.replace("\r\n", "\n").rstrip() + "\n"


def digest(header: str, deals: Sequence[str]) -> str:
    """What identifies a table game's text: a digest of its header and deals."""
    made = hashlib.sha256(header.encode("utf-8", "surrogatepass"))
    for text in deals:
        made.update(b"\0")
        made.update(text.encode("utf-8", "surrogatepass"))
    return made.hexdigest()


_NOT_ONE_DEAL = ("an entry is one deal in the notation ('deal N dealer X' and its lines), "
                 "without tags or a result line")


class Judge:
    """Judges entries, keeping each table game as the replay and the recorder left it after
    its last accepted deal (a :class:`~euchrelog.recorder.Reentry`), by the game, its
    number of deals and a digest of their texts: a deal is judged by replaying it alone.
    A game not kept, or kept with other deals (entered through another server, corrected,
    or before a restart), is read whole once. Safe to share between threads: a game kept is
    taken out while it is judged.

    :param kept: the most games kept (the least recently judged go first).
    """

    def __init__(self, kept: int = 512) -> None:
        self.kept = kept
        self._games: OrderedDict[Hashable, tuple[int, str, Reentry]] = OrderedDict()
        self._guard = threading.Lock()
        self.readings = 0
        """Games read whole so far (a game not kept, or a correction)."""

    def judge(self, header: str, deals: Sequence[str], entry: str, at: int | None = None,
              game: Hashable | None = None) -> Verdict:
        """Judges ``entry`` as deal ``at`` (0-based; by default a new last deal) of the game
        made of ``header`` and ``deals``; a correction replaces the deal at ``at``.
        ``game`` names the table game (its id), so that its state is kept."""
        if len(entry) > MAX_DEAL_CHARS:
            return _refusal("S101", f"an entry is at most {MAX_DEAL_CHARS} characters")
        text = _normal(entry)
        if at is not None:
            return self._correction(header, deals, text, at)
        offset = header.count("\n")
        read = _read_entry(header, text, offset)
        if isinstance(read, Verdict):
            return read
        deal, source = read
        known = digest(header, deals)
        table = self._take(game, len(deals), known)
        if table is None:
            table = self._read(header, deals)
        mark = table.mark()
        verdict = _enter(table, deal, source, offset)
        if verdict.accepted:
            self._keep(game, len(deals) + 1, digest(header, [*deals, text]), table)
        else:
            table.rewind(mark)
            self._keep(game, len(deals), known, table)
        return verdict

    def _take(self, game: Hashable | None, count: int, known: str) -> Reentry | None:
        """The game kept after ``count`` deals of digest ``known``, taken out, if any."""
        if game is None:
            return None
        with self._guard:
            kept = self._games.pop(game, None)
        if kept is None or kept[:2] != (count, known):
            return None
        return kept[2]

    def _keep(self, game: Hashable | None, count: int, known: str, table: Reentry) -> None:
        if game is None or self.kept <= 0:
            return
        with self._guard:
            self._games[game] = (count, known, table)
            self._games.move_to_end(game)
            while len(self._games) > self.kept:
                self._games.popitem(last=False)

    def _read(self, header: str, deals: Sequence[str]) -> Reentry:
        """The game of ``header`` and ``deals`` (accepted: not judged again), read whole and
        entered again on one replay."""
        self.readings += 1
        parsed = parse_game(header + "".join(deals) + "unfinished\n")
        assert isinstance(parsed, ParsedGame)
        table = Reentry(parsed.game.model_copy(update={"end": None}))
        table.enter(more=True, check=False)
        return table

    def _correction(self, header: str, deals: Sequence[str], text: str, at: int) -> Verdict:
        """A correction of the deal at ``at``: the game read whole with it, once, and
        entered again on one replay (the deals after it must still hold)."""
        self.readings += 1
        before = header + "".join(deals[:at])
        offset = before.count("\n")
        whole = before + text + "".join(deals[at + 1:])
        try:
            parsed = parse_game(whole)
        except NotationError as exc:
            line = exc.line - offset if exc.line > offset else None
            return _refusal("S101", exc.message, line, exc.column if line else None)
        if (not isinstance(parsed, ParsedGame) or "[" in _heads(text)
                or parsed.game.end is not None or len(parsed.game.deals) != len(deals)):
            return _refusal("S101", _NOT_ONE_DEAL)
        number = parsed.game.deals[at].number
        table = Reentry(parsed.game, parsed.source)
        report = table.report
        mine = [f for f in report.findings if (f.deal == number or f.line > offset)
                and f.kind.open != "game"]  # the game goes on: it has no end line yet
        try:
            table.enter()
        except IllegalActionError as exc:
            return _refused_by(exc, report.findings, number, offset)
        except EuchrelogError as exc:  # the recorder cannot enter the game again at all
            return _unenterable(exc, mine, number, offset)
        return _standing(table.recorder, mine, number, offset)


def _heads(text: str) -> set[str]:
    """The first character of each line of an entry that is neither blank nor a comment
    (``[``: a tag line, of the game's header or of another game)."""
    return {h for h in (line.lstrip()[:1] for line in text.splitlines()) if h and h != "#"}


def _read_entry(header: str, text: str, offset: int) -> tuple[Deal, SourceMap] | Verdict:
    """The entry's deal, read once with the game's header, and the map of its places
    (lines counted from the header's first); or the refusal of an entry that is not one
    deal in the notation."""
    heads = _heads(text)
    if not heads:
        return _refusal("S101", _NOT_ONE_DEAL)
    try:
        parsed = parse_game(header + text)
    except NotationError as exc:
        line = exc.line - offset if exc.line > offset else None
        return _refusal("S101", exc.message, line, exc.column if line else None)
    if (not isinstance(parsed, ParsedGame) or "[" in heads or parsed.game.end is not None
            or len(parsed.game.deals) != 1):
        return _refusal("S101", _NOT_ONE_DEAL)
    return parsed.game.deals[0], parsed.source


def _enter(table: Reentry, deal: Deal, source: SourceMap, offset: int) -> Verdict:
    """The verdict on ``deal`` entered as the game's next (read after line ``offset``):
    the recorder's refusal, with the replay's finding at its place, or the game as it now
    stands. The game is left with the deal taken (rewind it after a refusal)."""
    report = table.report
    first = len(report.findings)
    number = deal.number
    try:
        findings = table.add(deal, DealSource(source, table.count))
    except IllegalActionError as exc:
        return _refused_by(exc, report.findings[first:], number, offset)
    except EuchrelogError as exc:
        mine = [f for f in report.findings[first:] if (f.deal == number or f.line > offset)
                and f.kind.open != "game"]
        return _unenterable(exc, mine, number, offset)
    mine = [f for f in findings if (f.deal == number or f.line > offset)
            and f.kind.open != "game"]
    return _standing(table.recorder, mine, number, offset)


def _refused_by(exc: IllegalActionError, findings: Sequence[Finding], number: int,
                offset: int) -> Verdict:
    """The recorder's refusal: the replay's findings of its code, at their places."""
    faults = [f for f in findings if f.is_fault and f.code == exc.code]
    if faults:
        return Verdict(False, [_place(f, offset) for f in faults])
    return _refusal(exc.code, exc.message, deal=number)


def _unenterable(exc: EuchrelogError, mine: Sequence[Finding], number: int,
                 offset: int) -> Verdict:
    """The refusal of a deal the recorder cannot enter at all."""
    faults = [f for f in mine if f.is_fault]
    if faults:
        return Verdict(False, [_place(f, offset) for f in faults])
    return _refusal("S101", f"deal {number} cannot be entered: {exc}", deal=number)


def _standing(rec: Recorder, mine: Sequence[Finding], number: int, offset: int) -> Verdict:
    """The verdict on a game entered with the deal: refused while the deal is open, else
    accepted, with the game as it now stands."""
    if rec.deal_open:
        faults = [f for f in mine if f.is_fault]
        if faults:
            return Verdict(False, [_place(f, offset) for f in faults])
        return _refusal("C905", f"deal {number} is not finished: enter its score-sheet line "
                                "or every trick", deal=number)
    return Verdict(True, [_place(f, offset) for f in mine], rec.totals, rec.over,
                   rec.winner, rec.deal_number, str(rec.dealer) if rec.dealer else None,
                   rec.dumps())
