"""The HTML pages of the server: built from escaped text only, with no inline script or
style (the pages' Content-Security-Policy forbids both), so a hostile name stays text."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any


def e(text: object) -> str:
    """Text made safe for HTML, attributes included."""
    return html.escape(str(text), quote=True)


def page(title: str, body: str, script: str | None = None,
         data: Mapping[str, object] | None = None) -> str:
    """A whole page: the stylesheet, an optional script of the package, ``data`` as
    ``data-*`` attributes of the body (what the script reads)."""
    attrs = "".join(f' data-{k}="{e(v)}"' for k, v in (data or {}).items())
    tag = f'<script src="/static/{e(script)}" defer></script>' if script else ""
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{e(title)}</title>\n<link rel="stylesheet" href="/static/serve.css">\n'
            f"{tag}\n</head>\n<body{attrs}>\n{body}\n</body>\n</html>\n")


def csrf_field(token: str) -> str:
    """The hidden field that carries the form's CSRF token."""
    return f'<input type="hidden" name="csrf" value="{e(token)}">'


def sign_out(csrf: str) -> str:
    """The director's sign-out button."""
    return ('<form method="post" action="/director/logout" class="out">'
            f'{csrf_field(csrf)}<button type="submit">Sign out</button></form>')


def index(events: Sequence[Mapping[str, Any]]) -> str:
    """The list of events, each with its standings page."""
    items = "".join(f'<li><a href="/events/{e(ev["id"])}">{e(ev["name"])}</a></li>'
                    for ev in events) or "<li>no event yet</li>"
    return page("euchrelog events", f"<h1>Events</h1><ul>{items}</ul>"
                '<p><a href="/director">director</a></p>')


def login(csrf: str, failed: bool = False) -> str:
    """The director's sign-in form."""
    note = '<p class="error" role="alert">That is not the director\'s token.</p>' \
        if failed else ""
    return page("director: sign in", f"<h1>Director</h1>{note}"
                '<form method="post" action="/director/login">'
                f"{csrf_field(csrf)}"
                '<label>Director token <input name="token" type="password" '
                'autocomplete="current-password" required maxlength="200"></label>'
                '<button type="submit">Sign in</button></form>')


def director_home(events: Sequence[Mapping[str, Any]], csrf: str, error: str = "",
                  typed: Mapping[str, str] | None = None) -> str:
    """The director's events and the form that creates one (draw as CSV), filled with what
    was ``typed`` when it was refused."""
    given = {"name": "", "variant": "four-hand", "format": "progressive deals=8",
             "target": "", "draw": "round,table,N,E,S,W\n", **(typed or {})}
    items = "".join(f'<li><a href="/director/events/{e(ev["id"])}">{e(ev["name"])}</a> '
                    f'({e(ev["variant"])}, {e(ev["format"])})</li>' for ev in events)
    note = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    return page("director", f"<h1>Director</h1>{sign_out(csrf)}<ul>{items}</ul>"
                f"<h2>New event</h2>{note}"
                '<form method="post" action="/director/events" class="create">'
                f"{csrf_field(csrf)}"
                f'<label>Name <input name="name" value="{e(given["name"])}" required '
                'maxlength="200"></label>'
                f'<label>Variant <input name="variant" value="{e(given["variant"])}" '
                'required maxlength="40"></label>'
                f'<label>Format <input name="format" value="{e(given["format"])}" required '
                'maxlength="200"></label>'
                f'<label>Target <input name="target" value="{e(given["target"])}" '
                'inputmode="numeric" maxlength="4"></label>'
                '<label>Draw (CSV: round,table,N,E,S,W with a header line)'
                '<textarea name="draw" id="draw" rows="8" required maxlength="100000">'
                f"{e(given['draw'])}</textarea></label>"
                '<label>or read it from a CSV file <input type="file" id="draw-file" '
                'accept=".csv,text/csv,text/plain"></label>'
                '<button type="submit">Create the event</button></form>', "director.js")


def director_event(event: Mapping[str, Any], links: Sequence[tuple[int, int, str | None]],
                   progress: str, csrf: str, message: str = "") -> str:
    """The director's page of an event: links, progress, findings, history and the
    correction form; the progress part is refreshed live."""
    rows = "".join(
        f"<tr><td>{r}</td><td>{t}</td><td>"
        + (f'<a href="{e(link)}">{e(link)}</a>' if link else
           "(created with another director's token)") + "</td></tr>"
        for r, t, link in links)
    note = f'<p class="message" role="status">{e(message)}</p>' if message else ""
    body = (f'<h1>{e(event["name"])}</h1><p><a href="/events/{e(event["id"])}">standings'
            f'</a> · <a href="/api/events/{e(event["id"])}/records">records</a></p>'
            f"{sign_out(csrf)}{note}"
            f'<div id="progress">{progress}</div>'
            "<h2>Correct a deal</h2>"
            f'<form method="post" action="/director/events/{e(event["id"])}/correct">'
            f"{csrf_field(csrf)}"
            '<label>Round <input name="round" inputmode="numeric" required maxlength="3">'
            '</label><label>Table <input name="table" inputmode="numeric" required '
            'maxlength="3"></label><label>Deal <input name="deal" inputmode="numeric" '
            'required maxlength="3"></label>'
            '<label>The deal as it should read<textarea name="text" rows="5" required '
            'maxlength="4000"></textarea></label>'
            '<label>Reason <input name="reason" required maxlength="500"></label>'
            '<button type="submit">Correct</button></form>'
            f"<h2>Table links</h2><table><thead><tr><th>round</th><th>table</th>"
            f"<th>link</th></tr></thead><tbody>{rows}</tbody></table>")
    return page(f"director: {event['name']}", body, "director.js",
                {"event": event["id"]})


def progress(games: Sequence[Mapping[str, Any]], findings: Sequence[Mapping[str, Any]],
             history: Sequence[Mapping[str, Any]]) -> str:
    """Every table's progress, the event's findings and the corrections."""
    rows = []
    for g in games:
        state = g["state"]
        seats = ", ".join(f"{s} {n}" for s, n in state["seats"].items())
        totals = " ".join(f"{s} {p}" for s, p in state["totals"].items()) or "-"
        status = (f"over, won by {state['winner']}" if state["winner"] else "over, drawn") \
            if state["over"] else ("playing" if g["deals"] else "not started")
        pending, disputed = g.get("pending"), g.get("disputed")
        if pending:
            status += f"; deal {pending['deal']} waits for acceptance"
        if disputed:
            status += "; disputed: deal " + ", ".join(map(str, disputed))
        rows.append(f"<tr><td>{e(g['round'])}</td><td>{e(g['table_no'])}</td>"
                    f"<td>{e(seats)}</td><td>{e(g['deals'])}</td><td>{e(totals)}</td>"
                    f"<td>{e(status)}</td></tr>")
    found = "".join(f"<li><code>{e(f['path'])}:{e(f['line'])}:{e(f['column'])}</code> "
                    f"{e(f['code'])} {e(f['message'])}</li>" for f in findings) \
        or "<li>none</li>"
    corrected = "".join(
        f"<li>round {e(h['round'])} table {e(h['table_no'])} deal {e(h['number'])} "
        f"({e(h['created'])}): {e(h['reason'])}<pre>{e(h['old_text'])}</pre>"
        f"became<pre>{e(h['new_text'])}</pre></li>" for h in history) or "<li>none</li>"
    return ("<h2>Tables</h2><table><thead><tr><th>round</th><th>table</th><th>seats</th>"
            "<th>deals</th><th>score</th><th>status</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>"
            f'<h2>Findings</h2><ul class="findings">{found}</ul>'
            f'<h2>Corrections</h2><ul class="history">{corrected}</ul>')


def table_page(event: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    """A table's page: its players and score, filled in and driven by table.js."""
    place = f"round {game['round']}, table {game['table_no']}"
    body = (f'<header><h1>{e(event["name"])}</h1><p>{e(place)}</p></header>'
            '<section id="score" aria-live="polite"></section>'
            '<p id="message" role="alert"></p>'
            '<form id="sheet" class="sheet" autocomplete="off">'
            '<fieldset id="dealer-set" hidden><legend>Dealer</legend>'
            '<div class="choices" id="dealer"></div></fieldset>'
            '<fieldset><legend>Trump</legend><div class="choices" id="trump"></div>'
            "</fieldset>"
            '<fieldset><legend>Maker</legend><div class="choices" id="maker"></div>'
            "</fieldset>"
            '<fieldset><legend>Lone hand</legend><div class="choices" id="alone"></div>'
            "</fieldset>"
            "<fieldset><legend>Tricks the makers took</legend>"
            '<div class="choices" id="tricks"></div></fieldset>'
            '<details><summary>Enter the deal in full</summary>'
            '<label>The deal in the notation<textarea id="full" rows="6" maxlength="4000">'
            "</textarea></label></details>"
            '<button type="submit" id="send">Enter the deal</button></form>'
            '<section><h2>Deals</h2><ol id="deals"></ol></section>')
    return page(f"{event['name']}: {place}", body, "table.js",
                {"event": event["id"], "round": game["round"], "table": game["table_no"]})


def standings_page(event: Mapping[str, Any], fragment: str, revision: int) -> str:
    """The wall screen: the standings, replaced as they change (server-sent events)."""
    body = (f'<h1>{e(event["name"])}</h1><div id="standings" data-revision="{revision}" '
            f'aria-live="polite">{fragment}</div>')
    return page(f"{event['name']}: standings", body, "standings.js",
                {"event": event["id"]})


def error_page(status: int, message: str) -> str:
    """A page for an error, its message escaped."""
    return page(f"{status}", f'<h1>{status}</h1><p class="error">{e(message)}</p>')
