"""The settings of an event: its format, the length of its games and how it is ranked.

:class:`Settings` is what an event is played and ranked by; :class:`FormatTag` is what one
source says of it (a ``Format`` tag, read by :func:`parse_format`, or the command line);
:data:`KEYS` are the ranking keys, the tie-breaks among them (:func:`parse_tiebreaks`,
:func:`tiebreaks_for`). See docs/tournaments.md, "Formats".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FORMATS = ("partners", "progressive")
"""The event formats (docs/tournaments.md, "Formats")."""

DEFAULT_DEALS = 8
"""The deals of a round of a progressive event when neither the event nor its games say
(no game shows its length)."""


@dataclass(frozen=True)
class Key:
    """A ranking key: what it compares, and in which formats it may break ties."""

    name: str
    says: str
    """How the note under the standings names it."""
    formats: frozenset[str]


KEYS: dict[str, Key] = {k.name: k for k in (
    Key("games-won", "games won", frozenset()),
    Key("points", "total points", frozenset({"progressive"})),
    Key("points-diff", "points for minus points against", frozenset({"partners"})),
    Key("head-to-head", "head to head (games won between the teams still level)",
        frozenset({"partners"})),
    Key("points-for", "points for", frozenset({"partners"})),
    Key("points-against", "fewest points against", frozenset({"partners"})),
    Key("deals-won", "deals won", frozenset(FORMATS)),
    Key("rounds-won", "rounds won", frozenset({"progressive"})),
    Key("loners", "loners made", frozenset(FORMATS)),
    Key("euchres", "euchres taken", frozenset(FORMATS)),
    Key("high-game", "highest single game", frozenset(FORMATS)),
)}
"""Every ranking key by name; those with formats may be chosen as tie-breaks."""

PRIMARY = {"partners": "games-won", "progressive": "points"}
"""What each format ranks by first (a progressive event of games to a target: games won,
see :attr:`Settings.primary`)."""

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "partners": ("points-diff", "head-to-head"),
    "progressive": ("deals-won",),
}
"""The tie-breaks each format uses unless told otherwise (after games won, a progressive
event ranks by points: :data:`GAMES_WON_TIEBREAKS`)."""

GAMES_WON_TIEBREAKS = ("points",)
"""The tie-breaks of a progressive event ranked by games won: its players' points (H7)."""


def tiebreaks_for(fmt: str) -> tuple[str, ...]:
    """The tie-break names a format accepts."""
    return tuple(k.name for k in KEYS.values() if fmt in k.formats)


@dataclass(frozen=True)
class Settings:
    """How an event is played and ranked."""

    format: str
    """``partners`` or ``progressive``."""
    deals: int | None
    """Deals in a game (a round); ``None``: games are played to a target."""
    target: int | None
    """The target of every game, when games are played to one."""
    tiebreaks: tuple[str, ...]
    basis: str
    """Where the format came from: the Format tag, an option, or the games."""
    rank: str | None = None
    """What the standings rank by first, when not the format's own (``rank=`` of the
    Format tag, or ``--rank``)."""
    length_basis: str = "the Format tag"
    """Where the length of a game came from: the Format tag, an option, or the games
    (``inferred from the games: ...``)."""
    lone: tuple[int, int] | None = None
    """In a progressive event, a lone hand that takes all five tricks scores these points to
    the loner and to the partner, each for themselves (``lone=5/4``, RULES.md H7), instead of
    the side's points to both."""

    @property
    def primary(self) -> str:
        """The first ranking key: ``rank=``, else the format's (:data:`PRIMARY`), but games
        won in a progressive event of games to a target (RULES.md H7)."""
        if self.rank is not None:
            return self.rank
        if self.format == "progressive" and self.deals is None:
            return "games-won"
        return PRIMARY[self.format]

    def length(self) -> str:
        """The length of a game of the event, in words."""
        if self.deals is not None:
            return f"{self.deals} deal{'s' if self.deals != 1 else ''} a game"
        return f"games to {self.target}" if self.target is not None else "games to a target"

    def describe(self) -> str:
        """The format, the length and the lone-hand points, each with where it came from:
        ``progressive (the Format tag), games to 10 (inferred from the games: ...)``."""
        out = f"{self.format} ({self.basis}), {self.length()}"
        if self.length_basis != self.basis:
            out += f" ({self.length_basis})"
        if self.lone is not None:
            out += (f", a lone hand of five tricks {self.lone[0]} to the loner and "
                    f"{self.lone[1]} to the partner")
        return out

    def ranking(self) -> str:
        """The ranking rule as printed under the standings."""
        names = [KEYS[self.primary].says] + [KEYS[t].says for t in self.tiebreaks]
        if len(names) == 1:
            return f"ranked by {names[0]}."
        return f"ranked by {names[0]}, then by {', then by '.join(names[1:])}."


def parse_tiebreaks(text: str, fmt: str | None = None) -> tuple[str, ...]:
    """A comma-separated list of tie-break names.

    :raises ValueError: for an unknown name, one the format does not take, or a repeat.
    """
    names = tuple(w.strip().lower() for w in text.split(",") if w.strip())
    for name in names:
        key = KEYS.get(name)
        if key is None or not key.formats:
            known = ", ".join(k for k in KEYS if KEYS[k].formats)
            raise ValueError(f"unknown tie-break {name!r} (known: {known})")
        if fmt is not None and fmt not in key.formats:
            raise ValueError(f"tie-break {name} does not apply to a {fmt} event "
                             f"(it takes {', '.join(tiebreaks_for(fmt))})")
    if len(set(names)) != len(names):
        raise ValueError("a tie-break is named twice")
    return names


@dataclass(frozen=True)
class FormatTag:
    """The settings of an event as one source gives them: a Format tag, or the command line
    (see :data:`Overrides`); ``None``, a setting the source does not give."""

    format: str | None = None
    deals: int | None = None
    target: int | None = None
    tiebreaks: tuple[str, ...] | None = None
    rank: str | None = None
    lone: tuple[int, int] | None = None
    """The points ``L/P`` of a lone hand of five tricks to the loner and to the partner, in
    a progressive event (RULES.md H7)."""


Overrides = FormatTag
"""Settings given on the command line; each one given replaces what the Format tags say."""


RANKS = ("games-won", "points")
"""What a Format tag may rank by first (``rank=``): games won, or total points."""

_LONE_RE = re.compile(r"([0-9]{1,3})/([0-9]{1,3})")


def parse_lone(value: str, spelt: str | None = None) -> tuple[int, int]:
    """The points ``L/P`` of a lone hand of five tricks: to the loner, then to the partner.

    >>> parse_lone("5/4")
    (5, 4)

    :raises ValueError: when ``value`` is not two whole numbers with a slash between; the
        message names it as ``spelt`` (by default, quoted).
    """
    points = _LONE_RE.fullmatch(value)
    if points is None:
        raise ValueError(f"{spelt or repr(value)} must be two whole numbers, the loner's "
                         "points and the partner's, as in 5/4")
    return int(points.group(1)), int(points.group(2))


def parse_format(text: str) -> FormatTag:
    """Reads a Format tag value: a format name and ``deals=N``, ``target=N``,
    ``tiebreak=a,b``, ``rank=games-won`` or ``rank=points`` and ``lone=L/P`` in any order.

    >>> parse_format("progressive deals=8")
    FormatTag(format='progressive', deals=8, target=None, tiebreaks=None, rank=None, lone=None)
    >>> parse_format("progressive lone=5/4").lone
    (5, 4)

    :raises ValueError: for a word it cannot read.
    """
    values: dict[str, object] = {}
    raw_tiebreaks: str | None = None
    for word in text.split():
        name, eq, value = word.lower().partition("=")
        if not eq:
            if name not in FORMATS:
                raise ValueError(f"unknown format {word!r} (known: {', '.join(FORMATS)})")
            key = "format"
            parsed: object = name
        elif name in ("deals", "target"):
            if not (value.isascii() and value.isdigit()) or int(value) < 1:
                raise ValueError(f"{name}={value} must be a whole number, at least 1")
            key, parsed = name, int(value)
        elif name in ("tiebreak", "tiebreaks"):
            key, parsed = "tiebreaks", value
            raw_tiebreaks = value
        elif name == "rank" and value in RANKS:
            key, parsed = "rank", value
        elif name == "lone":
            key, parsed = "lone", parse_lone(value, f"lone={value}")
        else:
            raise ValueError(f"unknown word {word!r} (expected partners, progressive, deals=N, "
                             "target=N, tiebreak=a,b, rank=games-won|points or lone=L/P)")
        if key in values:
            raise ValueError(f"{key} is given twice")
        values[key] = parsed
    fmt = values.get("format")
    tiebreaks = None
    if raw_tiebreaks is not None:
        tiebreaks = parse_tiebreaks(raw_tiebreaks, fmt if isinstance(fmt, str) else None)
    deals, target = values.get("deals"), values.get("target")
    rank, lone = values.get("rank"), values.get("lone")
    return FormatTag(fmt if isinstance(fmt, str) else None,
                     deals if isinstance(deals, int) else None,
                     target if isinstance(target, int) else None, tiebreaks,
                     rank if isinstance(rank, str) else None,
                     lone if isinstance(lone, tuple) else None)
