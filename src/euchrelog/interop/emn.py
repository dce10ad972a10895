"""EMN, the Euchre Match Notation of NextSuit Labs: a match of EGN games, read into the
games of one event for ``euchrelog score``.

An EMN file names the match, its players (a registry of ids and names), its format and
its games, each an EGN game with the ids of the players in seats 0 to 3. Each game becomes
a game of the event named by the match title, round ``gameIndex + 1`` at table 1, with the
players' names in its seat tags, and a ``Format`` tag that ranks the players as EMN does:
by points in a progressive match or one of games of a fixed number of deals, else by games
won (docs/interop.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import ValidationError

from ..kinds import TOO_DEEP, too_deep
from ..models import Tag
from ..rules import ruleset_from_tags
from ..seats import SEATS
from . import ConversionError, Converted, parse_json
from .egn import from_egn

FILE_TYPE = "Euchre Match Notation"

_TOP = frozenset({"fileType", "version", "metadata", "games"})
_META = frozenset({"matchId", "title", "description", "date", "players", "matchFormat",
                   "result"})
_GAME = frozenset({"gameIndex", "players", "gameData"})
_REPLACED = frozenset({"event", "n", "e", "s", "w", "round", "table", "format"})
"""The tags of an EGN game that the match sets."""


def _fail(message: str, where: str) -> ConversionError:
    return ConversionError(message, where)


def from_emn(data: Any) -> Iterator[Converted]:
    """The games of an EMN match, each placed in the match's event.

    :raises ConversionError: for what is not EMN, or a game EGN reading refuses.
    """
    if too_deep(data):
        raise _fail(TOO_DEEP, "$")
    if not isinstance(data, dict) or set(data) - _TOP or data.get("fileType") != FILE_TYPE:
        raise _fail(f"expected an object with fileType {FILE_TYPE!r}, version, metadata and "
                    "games", "$")
    meta = data.get("metadata")
    if not isinstance(meta, dict) or set(meta) - _META:
        raise _fail(f"expected an object of {', '.join(sorted(_META))}", "$.metadata")
    players = meta.get("players", [])
    if not isinstance(players, list):
        raise _fail("expected a list of players", "$.metadata.players")
    names: dict[str, str] = {}
    for k, player in enumerate(players):
        if not isinstance(player, dict) or not isinstance(player.get("id"), str) or not (
                isinstance(player.get("name"), str)):
            raise _fail("expected a player with an id and a name", f"$.metadata.players[{k}]")
        names[player["id"]] = player["name"]
    games = data.get("games")
    if not isinstance(games, list):
        raise _fail("expected a list of games", "$.games")
    title = meta.get("title", meta.get("matchId", "match"))
    read = []
    for k, item in enumerate(games):
        where = f"$.games[{k}]"
        if not isinstance(item, dict) or set(item) - _GAME or "gameData" not in item:
            raise _fail("expected a game with gameIndex, players and gameData", where)
        seated = item.get("players")
        if not isinstance(seated, list) or len(seated) != 4 or not all(
                isinstance(p, str) and p in names for p in seated):
            raise _fail("expected the ids of the four players, seat 0 to seat 3",
                        f"{where}.players")
        try:
            converted = from_egn(item["gameData"])
        except ConversionError as exc:
            raise _fail(exc.message, where + ".gameData" + exc.where[1:]) from None
        index = item.get("gameIndex", k)
        if type(index) is not int or index < 0:
            raise _fail(f"expected a whole number from 0, found {index!r}",
                        f"{where}.gameIndex")
        read.append((converted, index, [names[p] for p in seated], where))
    fmt = _format(meta.get("matchFormat", {}), [c.game for c, _, _, _ in read],
                  [s for _, _, s, _ in read])
    for converted, index, seated, where in read:
        game = converted.game
        kept = [t for t in game.tags if t.name.lower() not in _REPLACED]
        try:
            tags = (Tag(name="Event", value=str(title)), Tag(name="Format", value=fmt),
                    Tag(name="Round", value=str(index + 1)), Tag(name="Table", value="1"),
                    *kept,
                    *(Tag(name=str(s), value=n) for s, n in zip(SEATS, seated, strict=True)))
        except ValidationError as exc:  # a title or a name a tag cannot hold (a lone surrogate)
            message = exc.errors()[0]["msg"]
            raise _fail(f"the title or a player's name cannot be a tag value: {message}",
                        "$.metadata") from None
        places = {_shift(locus, game.tags, tags): where + ".gameData" + at[1:]
                  for locus, at in converted.places.items()}
        lost = [where + ".gameData" + what[1:] for what in converted.lost]
        yield Converted(game.model_copy(update={"tags": tags}), places, where, lost)


def _shift(locus: Any, old: tuple[Tag, ...], new: tuple[Tag, ...]) -> Any:
    """A locus of the EGN game, moved to the tag it has among the match's tags."""
    if locus[:1] != ("tag",) or len(locus) < 2:
        return locus
    name = old[locus[1]].name.lower()
    return ("tag", next(i for i, t in enumerate(new) if t.name.lower() == name))


def _format(match: Any, games: list[Any], seated: list[list[str]]) -> str:
    """The Format tag that ranks the match as EMN does: players by points when the games
    are of a fixed number of deals (or the match is progressive), else by games won: teams
    when the partners never change, players when they do."""
    kind = match.get("type") if isinstance(match, dict) else None
    options = [ruleset_from_tags({t.name.lower(): t.value for t in g.tags})[0].options
               for g in games]
    deals = sorted({o.deals for o in options if o.deals})
    if kind == "PROGRESSIVE" or deals:
        return "progressive" + (f" deals={deals[0]}" if deals else "")
    target = f" target={options[0].target}" if len({o.target for o in options}) == 1 else ""
    teams = {frozenset({s[0], s[2]}) for s in seated} | {frozenset({s[1], s[3]}) for s in seated}
    if all(len([t for t in teams if p in t]) == 1 for s in seated for p in s):
        return "partners" + target
    return f"progressive{target} rank=games-won tiebreak="


def loads_emn(text: str) -> Iterator[Converted]:
    """The games of the text of an EMN file (see :func:`from_emn`)."""
    return from_emn(parse_json(text, "$"))
