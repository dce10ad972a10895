"""Records from elsewhere: EGN (:mod:`.egn`, with EMN matches) and OpenSpiel histories
(:mod:`.openspiel`), read into games and checked at the input's own positions.

Each reader gives a :class:`Converted` game: the game, and for every part of it that a
finding can point at, where that part stands in the input (a JSON path in EGN,
``line:action`` in OpenSpiel). docs/interop.md describes both formats.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Trump, trick_winner
from ..engine import lineup
from ..errors import RecordError
from ..findings import Finding
from ..kinds import json_value
from ..loci import Locus, SourceMap
from ..models import Game
from ..replay import GameReport, replay
from ..rules import Ruleset
from ..seats import Seat, clockwise_from


class ConversionError(RecordError):
    """An input that cannot be converted, with where in it the trouble is."""

    def __init__(self, message: str, where: str) -> None:
        super().__init__(f"{where}: {message}")
        self.message = message
        """What is wrong, in words."""
        self.where = where
        """Where in the input: a JSON path (``$.deals[2].phases[0].calls[4]``) or
        ``line:action``."""


def parse_json(text: str, where: str) -> Any:
    """JSON text read with the limits of the notation's JSON readers
    (:func:`~euchrelog.kinds.json_value`: nesting, long numbers).

    :raises ConversionError: at ``where`` for text that is not JSON or is over a limit.
    """
    try:
        return json_value(text)
    except json.JSONDecodeError as exc:
        raise ConversionError(f"not JSON: {exc}", where) from None
    except RecordError as exc:
        raise ConversionError(str(exc), where) from None


@dataclass
class Converted:
    """A game read from another format, with the input position of each of its parts."""

    game: Game
    places: dict[Locus, str] = field(default_factory=dict)
    """Where each part of the game (as :class:`~euchrelog.notation.SourceMap` loci) stands
    in the input."""
    root: str = "$"
    """The position of the game as a whole."""
    lost: list[str] = field(default_factory=list)
    """What the input says that the game does not keep, each a phrase with its place."""

    def where(self, locus: Locus) -> str:
        """The input position of ``locus``, or of the closest enclosing part that has one."""
        for n in range(len(locus), 0, -1):
            place = self.places.get(locus[:n])
            if place is not None:
                return place
        return self.root


@dataclass(frozen=True)
class Placed:
    """A finding of a converted game, with its position in the input."""

    finding: Finding
    where: str

    def text(self, path: str) -> str:
        """The finding as ``check`` prints it: ``path:where: CODE message``."""
        return f"{path}:{self.where}: {self.finding.code} {self.finding.message}"


def check_converted(converted: Converted) -> tuple[GameReport, list[Placed]]:
    """Replays a converted game; each finding comes with its position in the input."""
    loci = list(converted.places)
    # The replay places findings through a source map; here a "line" is an index into
    # the input positions, so each finding finds its way back to one.
    source = SourceMap({locus: (k + 1, 0) for k, locus in enumerate(loci)})
    source.places.setdefault(("game",), (0, 0))
    report = replay(converted.game, source)
    placed = []
    for finding in report.findings:
        where = converted.places[loci[finding.line - 1]] if finding.line else converted.root
        placed.append(Placed(finding, where))
    return report, placed


def seat_tricks(ruleset: Ruleset, dealer: Seat, maker: Seat | None, alone: Seat | None,
                defender: Seat | None, trump: Trump,
                tricks: list[list[Card | None]]) -> list[list[Seat]]:
    """Who played each card of tricks written without seats, as EGN and OpenSpiel write
    them: the opening leader by F10, each later trick led by the winner of the one before
    (C6), clockwise over the seats that play.

    :raises ValueError: at a trick before the last with an unknown card (``None``), whose
        winner, and so the next leader, cannot be told; the message names the trick.
    """
    playing, leader = lineup(ruleset, dealer, maker, alone, defender)
    out = []
    for t, cards in enumerate(tricks):
        order = clockwise_from(leader, playing)
        seats = [order[p % len(order)] for p in range(len(cards))]
        out.append(seats)
        if t + 1 < len(tricks) and cards:
            known = [c for c in cards if c is not None]
            if len(known) != len(cards):
                raise ValueError(f"trick {t + 1} has an unknown card: who won it, and so who "
                                 "led the next, cannot be told")
            leader = seats[trick_winner(known, trump)]
    return out


def read_source(kind: str, text: str) -> list[Converted | ConversionError]:
    """The games of a source in a format from elsewhere; a game that cannot be converted is
    its error instead (an EGN or EMN file is one unit: its first error is the file's)."""
    from . import egn, emn, openspiel

    if kind == "openspiel":
        return list(openspiel.read_lines(text))
    try:
        if kind == "egn":
            return [egn.loads_egn(text)]
        return list(emn.loads_emn(text))
    except ConversionError as exc:
        return [exc]
