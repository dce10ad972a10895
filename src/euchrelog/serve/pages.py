"""The HTML pages of the server, from the templates of :mod:`euchrelog.present`
(``templates/serve/``): every text escaped by the one escaper, and no inline script or
style (the pages' Content-Security-Policy forbids both), so a hostile name stays text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..present import Markup, render


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
             history: Sequence[Mapping[str, Any]]) -> str:
    """Every table's progress, the event's findings and the corrections."""
    rows = []
    for g in games:
        state = g["state"]
        status = (f"over, won by {state['winner']}" if state["winner"] else "over, drawn") \
            if state["over"] else ("playing" if g["deals"] else "not started")
        pending, disputed = g.get("pending"), g.get("disputed")
        if pending:
            status += f"; deal {pending['deal']} waits for acceptance"
        if disputed:
            status += "; disputed: deal " + ", ".join(map(str, disputed))
        rows.append({"round": g["round"], "table_no": g["table_no"],
                     "seats": ", ".join(f"{s} {n}" for s, n in state["seats"].items()),
                     "deals": g["deals"], "status": status,
                     "totals": " ".join(f"{s} {p}" for s, p in state["totals"].items()) or "-"})
    return render("serve/progress.html", games=rows, findings=findings, history=history)


def table_page(event: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    """A table's page: its players and score, filled in and driven by table.js."""
    place = f"round {game['round']}, table {game['table_no']}"
    return render("serve/table.html", title=f"{event['name']}: {place}", script="table.js",
                  body_data={"event": event["id"], "round": game["round"],
                             "table": game["table_no"]}, event=event, place=place)


def standings_page(event: Mapping[str, Any], fragment: str, revision: int) -> str:
    """The wall screen: the standings (``fragment``, as
    :attr:`~euchrelog.serve.standings.Standings.html` wrote them), replaced as they change
    (server-sent events)."""
    return render("serve/wall.html", title=f"{event['name']}: standings",
                  script="standings.js", body_data={"event": event["id"]}, event=event,
                  standings=Markup(fragment), revision=revision)


def error_page(status: int, message: str) -> str:
    """A page for an error, its message escaped."""
    return render("serve/error.html", title=f"{status}", status=status, message=message)
