"""Judging what a table enters: one deal in the notation, added to its game.

The server keeps each table game as its header (the tags :class:`~euchrelog.recorder.Recorder`
writes for the draw) and the deals accepted so far, each as the table typed it. An entry is
judged by reading the game with it, as ``euchrelog check`` does, and entering the game
again into a :class:`~euchrelog.recorder.Recorder`, which refuses what the engine refuses;
nothing here knows a rule of the game.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Suit
from ..errors import EuchrelogError, IllegalActionError, NotationError
from ..events import parse_format
from ..findings import Finding
from ..models import Game
from ..notation import ParsedGame, loads, parse_game
from ..recorder import Recorder
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
                table: int, seats: Mapping[str, str]) -> str:
    """The header of one table game of the draw, in the notation, as the recorder writes it.

    :raises DrawError: when the recorder refuses the game or the format cannot be read.
    """
    try:
        settings = parse_format(fmt)
    except ValueError as exc:
        raise DrawError(f"format {fmt!r}: {exc}") from None
    tags = {"Event": event, "Format": fmt, "Round": str(round_), "Table": str(table)}
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
    trumps, the seats and the tricks a side can take (the full notation covers the rest)."""
    rec = Recorder.loads(header + "unfinished\n")
    options = rec.ruleset.options
    return {"trumps": [s.value for s in Suit] + (["NT"] if options.no_trump else []),
            "seats": [str(s) for s in rec.seats],
            "tricks": rec.ruleset.variant.hand_size}


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
    made of ``header`` and ``deals``; a correction replaces the deal at ``at``."""
    if len(entry) > MAX_DEAL_CHARS:
        return _refusal("S101", f"an entry is at most {MAX_DEAL_CHARS} characters")
    text = entry.replace("\r\n", "\n").rstrip() + "\n"
    index = len(deals) if at is None else at
    before = header + "".join(deals[:index])
    after = list(deals[index + 1:]) if at is not None else []
    offset = before.count("\n")
    whole = before + text + "".join(after)
    try:
        log = loads(whole)
        parsed = parse_game(whole)
    except NotationError as exc:
        line = exc.line - offset if exc.line > offset else None
        return _refusal("S101", exc.message, line, exc.column if line else None)
    games = log.games
    wanted = len(deals) + (1 if at is None else 0)
    if (len(games) != 1 or not isinstance(parsed, ParsedGame) or games[0].end is not None
            or len(games[0].deals) != wanted):
        return _refusal("S101", "an entry is one deal in the notation ('deal N dealer X' "
                                "and its lines), without tags or a result line")
    return _verdict(parsed, offset, games[0].deals[index].number)


def _verdict(parsed: ParsedGame, offset: int, number: int) -> Verdict:
    """The verdict on a game read whole, the entry (deal ``number``) starting after line
    ``offset``: the recorder's refusal, with the replay's finding at its place, or the
    game as it now stands."""
    game: Game = parsed.game
    report = replay(game, parsed.source)
    mine = [f for f in report.findings if (f.deal == number or f.line > offset)
            and f.kind.open != "game"]  # the game goes on: it has no end line yet
    try:
        rec = Recorder.from_game(game)
    except IllegalActionError as exc:
        faults = [f for f in report.findings if f.is_fault and f.code == exc.code]
        if faults:
            return Verdict(False, [_place(f, offset) for f in faults])
        return _refusal(exc.code, exc.message, deal=number)
    except EuchrelogError as exc:  # the recorder cannot enter the game again at all
        faults = [f for f in mine if f.is_fault]
        if faults:
            return Verdict(False, [_place(f, offset) for f in faults])
        return _refusal("S101", f"deal {number} cannot be entered: {exc}", deal=number)
    if rec.deal_open:
        faults = [f for f in mine if f.is_fault]
        if faults:
            return Verdict(False, [_place(f, offset) for f in faults])
        return _refusal("C905", f"deal {number} is not finished: enter its score-sheet line "
                                "or every trick", deal=number)
    return Verdict(True, [_place(f, offset) for f in mine], rec.totals, rec.over,
                   rec.winner, rec.deal_number, str(rec.dealer) if rec.dealer else None,
                   rec.dumps())
