"""The room as the wall screen shows it (issue 42 item 1): every table of the draw with its
state and score, every player of the draw with where they sit, and whether the standings
can still change, from the first minute of the event, before any deal.

The standings themselves are ``score``'s (:mod:`.standings`); what this module adds is the
draw and the tables' progress, which the store knows before the export has a game. A game
still being played is not an error of the records: the event check that says a game
stopped short (E966) makes ``score`` call the standings provisional, while the wall says
how many tables are finished, and says "provisional" only for the other errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..events import EventResult
from ..events.output import page_parts
from ..findings import CODES, Finding
from .judge import player_numbers, plural, side_names
from .season import player_link


def still_playing(finding: Finding) -> bool:
    """Whether ``finding`` says only that a game has not reached its end (a game of an
    event stopped short, a record stopping before the game ended): no error while the
    game is being played."""
    code = CODES[finding.code]
    return code.unended and (code.open == "game" or code.event)


def table_state(game: Mapping[str, Any], sides: Mapping[str, str]) -> tuple[str, str]:
    """A table game's state as the pages show it (``sides``: each side by its players'
    names), and its kind (for the page's style): ``not started``, ``playing deal N``,
    ``waiting for acceptance of deal N``, ``finished: won by Ann & Cy``; a disputed deal is
    said too."""
    state, pending, disputed = game["state"], game.get("pending"), game.get("disputed")
    if pending:
        said, kind = f"waiting for acceptance of deal {pending['deal']}", "waiting"
    elif state["over"]:
        winner = state["winner"]
        said = f"finished: won by {sides.get(winner, winner)}" if winner else \
            "finished: drawn"
        kind = "over"
    elif game["deals"]:
        said, kind = f"playing deal {state['next']['deal']}", "playing"
    else:
        said, kind = "not started", "idle"
    if disputed:
        said += "; disputed: deal " + ", ".join(map(str, disputed))
        kind = "disputed"
    return said, kind


def _table(game: Mapping[str, Any]) -> dict[str, Any]:
    state = game["state"]
    sides = side_names(game["header"], state["seats"])
    said, kind = table_state(game, sides)
    return {"table": game["table_no"], "state": said, "kind": kind,
            "sides": [{"names": names, "points": state["totals"].get(side, 0)}
                      for side, names in sides.items()]}


def room(games: Sequence[Mapping[str, Any]], events: Sequence[EventResult]
         ) -> dict[str, Any]:
    """What the wall screen shows of an event: its status line (and its kind: ``idle``,
    ``playing``, ``provisional`` or ``final``), its tables round by round, its players,
    where they sit and the address of their scorecards, and ``score``'s standings
    (``page_parts`` of each event of the export; none before the first deal)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    seated: dict[str, list[tuple[int, int]]] = {}
    numbers: dict[str, int] = {}
    for game in games:
        rounds.setdefault(game["round"], []).append(_table(game))
        numbered = player_numbers(game["header"])
        for seat, name in game["state"]["seats"].items():
            seated.setdefault(name, []).append((game["round"], game["table_no"]))
            if seat in numbered:
                numbers[name] = numbered[seat]
    errors = sum(1 for e in events for f in e.findings
                 if f.severity == "error" and not still_playing(f))
    done = sum(1 for g in games if g["state"]["over"] and not g.get("pending"))
    started = any(g["deals"] for g in games)
    if errors:
        status = (f"provisional: {plural(errors, 'error')} "
                  f"{'stands' if errors == 1 else 'stand'} in the records, so these "
                  "standings may still change (the director corrects them)")
        kind = "provisional"
    elif done == len(games) and games:
        status, kind = "final: every game is finished and checks clean", "final"
    elif started:
        status = f"in play: {done} of {plural(len(games), 'table')} finished"
        kind = "playing"
    else:
        status = (f"not started: {plural(len(games), 'table')}, "
                  f"{plural(len(seated), 'player')}; no deal entered yet")
        kind = "idle"
    players = [{"name": name, "places": " · ".join(f"round {r} table {t}" for r, t in places),
                "link": player_link(numbers.get(name), name)}
               for name, places in sorted(seated.items(), key=lambda i: i[0].casefold())]
    return {"status": status, "kind": kind, "players": players,
            "rounds": sorted(rounds.items()), "events": [page_parts(e) for e in events]}
