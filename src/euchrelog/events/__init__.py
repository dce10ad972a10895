"""Events: games grouped by their ``Event`` tag, checked together and ranked.

:func:`read_entries` reads the games of one text (notation or JSON) without checking them,
:func:`iter_entries` the games of a stream of lines one at a time; :func:`score_events` (or a
:class:`Scorer` fed one game at a time) groups them into events, replays every game with
the engine (with the event's length when the game states none), adds the event checks
(codes E961-E969, see docs/tournaments.md) and computes the standings, awards and
per-round results of each event. Everything here is a pure function of the texts it is
given; reading files and printing belong to :mod:`euchrelog.cli.score` and
:mod:`euchrelog.events.output`.

The package, in the order a game goes through it:

- :mod:`~euchrelog.events.entries`: an :class:`Entry` per game of a source, read lazily
  (notation, JSON Lines, a JSON document), or its syntax error;
- :mod:`~euchrelog.events.settings`: :class:`Settings`, the Format tag
  (:func:`parse_format`), the ranking keys and tie-breaks;
- :mod:`~euchrelog.events.played`: the replay of one entry, kept as a :class:`Played`
  (players by seat, lone hands, euchre takers) without its record;
- :mod:`~euchrelog.events.checks`: an event's settings settled from its games (E961) and
  the checks of its games against each other (E962-E969);
- :mod:`~euchrelog.events.standings`: :class:`Standing` rows ranked with tie-breaks and
  head to head, the awards, each table's result;
- :mod:`~euchrelog.events.scorer`: :class:`Scorer` and :func:`score_events`, which group
  the games into events and build each :class:`EventResult`;
- :mod:`~euchrelog.events.output`: the standings as text, CSV, JSON, Markdown and HTML.

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

from .entries import Entry, Reread, iter_entries, read_entries
from .played import Played, numbered, seat_numbers, seat_players
from .scorer import NO_EVENT, EventResult, Scorer, score_events
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
from .standings import Award, Decision, Standing, TableResult

__all__ = [
    "DEFAULT_DEALS", "DEFAULT_TIEBREAKS", "FORMATS", "GAMES_WON_TIEBREAKS", "KEYS",
    "NO_EVENT", "PRIMARY", "RANKS",
    "Award", "Decision", "Entry", "EventResult", "FormatTag", "Key", "Overrides", "Played",
    "Reread", "Scorer", "Settings", "Standing", "TableResult",
    "iter_entries", "numbered", "parse_format", "parse_lone", "parse_tiebreaks",
    "read_entries", "score_events", "seat_numbers", "seat_players", "tiebreaks_for",
]
