"""The HTML pages of the server, from the templates of :mod:`euchrelog.present`
(``templates/serve/``): every text escaped by the one escaper, and no inline script or
style (the pages' Content-Security-Policy forbids both), so a hostile name stays text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..events import EventResult
from ..present import Markup, render
from .cards import TableCard
from .judge import deal_lines, side_names
from .room import room as room_view
from .room import table_state
from .season import SeasonRow


def index(events: Sequence[Mapping[str, Any]]) -> str:
    """The list of events, each with its standings page."""
    return render("serve/index.html", title="euchrelog events", events=events)


def login(csrf: str, failed: bool = False) -> str:
    """The director's sign-in form."""
    return render("serve/login.html", title="director: sign in", csrf=csrf, failed=failed)


def director_home(events: Sequence[Mapping[str, Any]], csrf: str, error: str = "",
                  typed: Mapping[str, str] | None = None) -> str:
    """The director's events and the form that creates one (draw as CSV), filled with what
    was ``typed`` when it was refused."""
    given = {"name": "", "variant": "four-hand", "format": "progressive deals=8",
             "target": "", "draw": "round,table,N,E,S,W\n", **(typed or {})}
    return render("serve/director_home.html", title="director", script="director.js",
                  events=events, csrf=csrf, error=error, given=given)


def director_event(event: Mapping[str, Any], links: Sequence[tuple[int, int, str | None]],
                   progress: str, csrf: str, message: str = "") -> str:
    """The director's page of an event: links, progress (as :func:`progress` wrote it),
    findings, history and the correction form; the progress part is refreshed live."""
    return render("serve/director_event.html", title=f"director: {event['name']}",
                  script="director.js", body_data={"event": event["id"]}, event=event,
                  links=links, progress=Markup(progress), csrf=csrf, message=message)


def progress(games: Sequence[Mapping[str, Any]], findings: Sequence[Mapping[str, Any]],
             history: Sequence[Mapping[str, Any]], open_deals: Sequence[Mapping[str, Any]],
             event_id: int, csrf: str) -> str:
    """Every table's progress (its sides by their players' names), the deals waiting for
    acceptance and those disputed (each with a button that accepts it as entered), the
    event's findings and the corrections."""
    rows = []
    for g in games:
        state = g["state"]
        sides = side_names(g["header"], state["seats"])
        status, _ = table_state(g, sides)
        rows.append({"round": g["round"], "table_no": g["table_no"],
                     "seats": " v ".join(sides.values()), "deals": g["deals"],
                     "status": status,
                     "totals": " · ".join(f"{sides.get(s, s)} {p}"
                                          for s, p in state["totals"].items()) or "-"})
    by_place = {(g["round"], g["table_no"]): g for g in games}
    waiting = []
    for d in open_deals:
        g = by_place[d["round"], d["table"]]
        seats = g["state"]["seats"]
        sides = side_names(g["header"], seats)
        lines = deal_lines(g["header"], g["record"], seats)
        by = d["disputed_by"].removeprefix("table ")
        waiting.append({**d, "entered_by": sides.get(d["entered_by"], d["entered_by"] or
                                                     "the table"),
                        "disputed_by": sides.get(by, by),
                        "line": lines[d["deal"] - 1] if d["deal"] <= len(lines) else ""})
    return render("serve/progress.html", games=rows, findings=findings, history=history,
                  pending=[d for d in waiting if d["status"] == "pending"],
                  disputed=[d for d in waiting if d["status"] == "disputed"],
                  event_id=event_id, csrf=csrf)


def table_page(event: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    """A table's page: its players and score, filled in and driven by table.js."""
    place = f"round {game['round']}, table {game['table_no']}"
    return render("serve/table.html", title=f"{event['name']}: {place}", script="table.js",
                  body_data={"event": event["id"], "round": game["round"],
                             "table": game["table_no"]}, event=event, place=place)


def room(games: Sequence[Mapping[str, Any]], events: Sequence[EventResult]) -> str:
    """The room on the wall screen (the template ``serve/room.html``, what
    :func:`euchrelog.serve.room.room` gives): replaced as it changes."""
    return render("serve/room.html", room=room_view(games, events))


def wall_page(event: Mapping[str, Any], fragment: str, revision: int) -> str:
    """The wall screen: the room (``fragment``, as :func:`room` wrote it), replaced as it
    changes (server-sent events)."""
    return render("serve/wall.html", title=f"{event['name']}: the room",
                  script="standings.js", body_data={"event": event["id"]}, event=event,
                  room=Markup(fragment), revision=revision)


def cards_page(event: Mapping[str, Any], games: Sequence[Mapping[str, Any]],
               cards: Sequence[TableCard]) -> str:
    """The event's table cards, to print: each with its round and table, its sides by the
    players' names, and its link as text and as a QR code."""
    headers = {(g["round"], g["table_no"]): g["header"] for g in games}
    shown = [{"round": c.round, "table": c.table, "link": c.link,
              "qr": Markup(c.qr_svg()),
              "sides": " v ".join(side_names(headers[c.round, c.table], c.seats).values())}
             for c in cards]
    return render("serve/cards.html", title=f"{event['name']}: table cards", event=event,
                  cards=shown)


def season_page(rows: Sequence[SeasonRow], events: int) -> str:
    """Every player's totals over the server's ``events``, each linking to the player's
    scorecard."""
    return render("serve/season.html", title="the season", rows=rows, events=events)


def player_page(name: str, number: int | None, card: Sequence[Mapping[str, Any]]) -> str:
    """A player's personal scorecard (:func:`~euchrelog.serve.season.scorecard`): each
    event, round by round."""
    who = f"{name} #{number}" if number is not None else name
    return render("serve/player.html", title=f"{who}: scorecard", who=who, card=card)


def error_page(status: int, message: str) -> str:
    """A page for an error, its message escaped."""
    return render("serve/error.html", title=f"{status}", status=status, message=message)
