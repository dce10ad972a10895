"""The season over the server's events (issue 42 item 4): every player's totals over the
events, and each player's personal scorecard, event by event and round by round.

Nothing is counted here that ``score`` does not count: each event's lines are its
:attr:`~euchrelog.events.EventResult.cards` (partners, opponents, points, result, deals
won, loners and euchres of each player's every game, as the standings count them); this
module only gathers them by player. A player of the club's registry is one player across
events by number (the games' ``NId`` tags), and named by the registry; a player without a
number is one player by name, whatever its case.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from ..events import EventResult
from ..events.standings import CardLine


def player_key(number: int | None, name: str) -> str:
    """Who a player is across events: ``#12`` by registry number, else the name
    case-folded."""
    return f"#{number}" if number is not None else name.strip().casefold()


def player_link(number: int | None, name: str) -> str:
    """The address of a player's scorecard page."""
    query = {"number": str(number)} if number is not None else {"name": name}
    return "/player?" + urlencode(query)


@dataclass
class SeasonRow:
    """One player's totals over the events."""

    name: str
    number: int | None
    events: set[int] = field(default_factory=set)
    games: int = 0
    won: int = 0
    points: int = 0
    deals_won: int = 0
    loners: int = 0
    euchres: int = 0

    @property
    def link(self) -> str:
        """The player's scorecard page."""
        return player_link(self.number, self.name)


def season(events: Sequence[tuple[Mapping[str, Any], Sequence[EventResult]]],
           registry: Mapping[int, str]) -> list[SeasonRow]:
    """Every player's totals over ``events`` (each event's row and its scored results),
    most points first; a registered player is named as ``registry`` names them."""
    rows: dict[str, SeasonRow] = {}
    for event, results in events:
        for line in _lines(results):
            key = player_key(line.number, line.name)
            row = rows.setdefault(key, SeasonRow(
                registry.get(line.number, line.name) if line.number is not None
                else line.name, line.number))
            row.events.add(int(event["id"]))
            row.games += 1
            row.won += line.result == "won"
            row.points += line.points
            row.deals_won += line.deals_won
            row.loners += line.loners
            row.euchres += line.euchres
    return sorted(rows.values(), key=lambda r: (-r.points, r.name.casefold()))


def scorecard(events: Sequence[tuple[Mapping[str, Any], Sequence[EventResult]]],
              key: str) -> list[dict[str, Any]]:
    """The player ``key``'s (:func:`player_key`) scorecard: each event they played (as
    ``events`` are ordered) with its lines, round by round (each
    :class:`~euchrelog.events.standings.CardLine`'s fields, partners and opponents
    written ``Ann & Cy``), and its totals."""
    out = []
    for event, results in events:
        lines = [line for line in _lines(results)
                 if player_key(line.number, line.name) == key]
        if lines:
            out.append({"event": event,
                        "lines": [{**vars(line), "partners": " & ".join(line.partners) or "-",
                                   "opponents": " & ".join(line.opponents)}
                                  for line in lines],
                        "points": sum(line.points for line in lines),
                        "won": sum(line.result == "won" for line in lines),
                        "deals_won": sum(line.deals_won for line in lines),
                        "loners": sum(line.loners for line in lines),
                        "euchres": sum(line.euchres for line in lines)})
    return out


def _lines(results: Sequence[EventResult]) -> list[CardLine]:
    return [line for result in results for line in result.cards]
