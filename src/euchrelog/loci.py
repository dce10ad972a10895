"""Where the parts of a game stand in its text: loci and source maps.

A finding points at a part of a game by its :data:`Locus`; a :class:`SourceMap` turns the
locus into a line and column of the record. The reader (:mod:`euchrelog.notation`) makes
the maps, and the replay, the interop readers and the viewer look places up in them: this
module is what they share, so that the replay does not import the reader.
:class:`ParsedGame` and :class:`GameText` hold a game as read, with its map.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import NotationError

if TYPE_CHECKING:
    from .models import Deal, Game

Locus = tuple[Any, ...]
"""Where in a game a finding points: ``("deal", 0, "trick", 2, "play", 1)`` and the like."""


def act_loci(deal: Deal, d: int) -> tuple[Locus, ...]:
    """The locus of each of ``deal.acts``, deal ``d`` of its game: ``("deal", d,
    "exchange")`` for the exchange when it comes first, ``("deal", d, "decl", k)`` for the
    others, ``k`` counted from 0 after that exchange (as the JSON form's ``declarations``)."""
    first = int(deal.exchange is not None and not deal.late_exchange)
    return (("deal", d, "exchange"),) * first + tuple(
        ("deal", d, "decl", k) for k in range(len(deal.acts) - first))


def part_locus(locus: Locus, part: str) -> Locus:
    """The locus of ``part`` (``takes``, ``discard``) of the act at ``locus``: the parts of
    the exchange that comes first are the deal's (``("deal", d, "discard")``)."""
    return (*locus[:-1], part) if locus[-1] == "exchange" else (*locus, part)


CARD_TEXT = r"(?:(?:[2-9TJQKA]|10)[CDHS\u2663\u2666\u2665\u2660]|JK|\?\?)"
"""A card as the notation writes it (the reader's patterns of lines are built on it)."""


class LazyPattern:
    """A regular expression compiled when first used: one of a line that is rare, or that
    only a finding's place asks for (a clean game compiles none of them)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        """The expression, compiled (once)."""
        made = self._compiled
        if made is None:
            made = self._compiled = re.compile(self.pattern, self.flags)
        return made

    def fullmatch(self, text: str) -> re.Match[str] | None:
        """As :meth:`re.Pattern.fullmatch`."""
        return self.compiled().fullmatch(text)

    def match(self, text: str) -> re.Match[str] | None:
        """As :meth:`re.Pattern.match`."""
        return self.compiled().match(text)

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        """As :meth:`re.Pattern.finditer`."""
        return self.compiled().finditer(text, pos)

    def findall(self, text: str) -> list[Any]:
        """As :meth:`re.Pattern.findall`."""
        return self.compiled().findall(text)


CARD_RE = LazyPattern(CARD_TEXT, re.IGNORECASE)
"""A card of a line's text, as written."""
PLAY_RE = LazyPattern(rf"([NESW])\s*:\s*({CARD_TEXT})", re.IGNORECASE)
"""One play of a trick line, ``N: 9H``: its seat and its card."""

_PLACING = threading.Lock()

Placer = Callable[..., None]
"""Places the parts of one line: called with the map's places and line texts, then the
line's text, line number, column and the indices that name it (see
:data:`euchrelog.notation.places.PLACERS`)."""


class SourceMap:
    """Line and column (1-based) of each part of one game that a finding can point at.

    The parts of the most frequent lines (the seats of a hands line, each bid, the sides of
    a points line ...) are placed when a finding first asks for a place: a clean game is
    never placed card by card.
    """

    def __init__(self, places: dict[Locus, tuple[int, int]] | None = None,
                 cards: dict[Locus, tuple[str, int, int]] | None = None,
                 later: list[tuple[Any, ...]] | None = None,
                 placers: Mapping[str, Placer] | None = None) -> None:
        self._places = {} if places is None else places
        self._cards = {} if cards is None else cards
        self._later = later or []
        """The lines still to place: each its kind (a placer in ``placers``), the index of
        its deal and the placer's arguments (atoms only: a clean game's map holds nothing
        the garbage collector must visit again)."""
        self._placers: Mapping[str, Placer] = {} if placers is None else placers
        """The placer of each kind of line in ``later`` (the reader's, see
        :mod:`euchrelog.notation.places`)."""
        self._placed: set[int] = set()
        """The deals whose lines are placed, while others' are still to place (each deal's
        lines are placed once, whatever the number of findings in it)."""
        self._by_deal: dict[int, list[tuple[Any, ...]]] | None = None
        """The lines of ``later`` by deal, made when a deal is first placed alone (so that
        placing every deal of a long game, one by one, reads each line once)."""

    def _pending(self) -> bool:
        return bool(self._later)

    @property
    def places(self) -> dict[Locus, tuple[int, int]]:
        """The place of each part, by its locus."""
        if self._pending():
            self._place()
        return self._places

    @property
    def cards(self) -> dict[Locus, tuple[str, int, int]]:
        """The text of a trick line or of one seat's cards, with its line and column: the
        places of the plays, seats and cards in it are found when a finding asks for them."""
        if self._pending():
            self._place()
        return self._cards

    def _place(self, deal: int | None = None) -> None:
        """Places the lines still to place: of one deal (by its index), or all."""
        with _PLACING:  # another thread sees the lines placed in full or waits here
            placers, placed = self._placers, self._placed
            if deal is None:
                for kind, of, *args in self._later:
                    if of not in placed:
                        placers[kind](self._places, self._cards, *args)
                # (emptied last: a thread that finds nothing left to place reads a full map)
                self._later = []
                self._by_deal = None
            elif deal not in placed:
                by_deal = self._by_deal
                if by_deal is None:
                    by_deal = self._by_deal = {}
                    for entry in self._later:
                        by_deal.setdefault(entry[1], []).append(entry)
                for entry in by_deal.pop(deal, ()):
                    placers[entry[0]](self._places, self._cards, *entry[2:])
                placed.add(deal)

    def find(self, locus: Locus) -> tuple[int, int]:
        """The place of ``locus``, or of the closest enclosing part that has one (the lines
        of a deal are placed when a finding first asks for a place in it)."""
        if self._pending():
            deal = locus[1] if len(locus) > 1 and locus[0] == "deal" else None
            if type(deal) is not int:
                self._place()
            elif deal not in self._placed:
                self._place(deal)
        places, cards = self._places, self._cards
        place = places.get(locus)
        if place is not None:
            return place
        for n in range(len(locus) - 1, 0, -1):
            line = cards.get(locus[:n])
            if line is not None:
                place = _within(line, locus[n:])
                if place is not None:
                    return place
            place = places.get(locus[:n])
            if place is not None:
                return place
        return places.get(("game",), (1, 1))


class DealSource(SourceMap):
    """The source map of a game read with one deal, as the map of a longer game in which
    that deal is deal ``d``: its loci ``("deal", d, ...)`` are placed as ``("deal", 0,
    ...)`` of the game read (a deal entered after a game's last, read with its header
    alone)."""

    def __init__(self, read: SourceMap, d: int) -> None:
        super().__init__()
        self.read = read
        self.d = d

    def find(self, locus: Locus) -> tuple[int, int]:
        if len(locus) > 1 and locus[0] == "deal" and locus[1] == self.d:
            locus = ("deal", 0, *locus[2:])
        return self.read.find(locus)


def _within(line: tuple[str, int, int], rest: Locus) -> tuple[int, int] | None:
    """The place of ``("play", p)``, ``("seat", p)`` or ``("card", k)`` in a line's text."""
    text, number, column = line
    if len(rest) != 2 or not isinstance(rest[1], int):
        return None
    kind, k = rest
    pattern, group = {"play": (PLAY_RE, 2), "seat": (PLAY_RE, 1), "card": (CARD_RE, 0)}.get(
        kind, (None, 0))
    if pattern is None:
        return None
    for i, m in enumerate(pattern.finditer(text)):
        if i == k:
            return number, column + m.start(group)
    return None


class ParsedGame:
    """One game as read from notation, with the source map for its findings.

    (Not a dataclass: the compiled build would look up the class of :attr:`game` when it
    made one, and the models are not imported until a game needs them.)"""

    def __init__(self, game: Game, source: SourceMap) -> None:
        self.game = game
        self.source = source

    def __repr__(self) -> str:
        return f"ParsedGame(game={self.game!r}, source={self.source!r})"


@dataclass
class GameText:
    """The outcome of reading one game in bulk: the game, or the syntax error it has."""

    first_line: int
    parsed: ParsedGame | None = None
    error: NotationError | None = None
    comments: list[str] = field(default_factory=list)
