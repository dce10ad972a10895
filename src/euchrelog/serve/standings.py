"""An event's standings, computed by ``euchrelog score``'s own scorer from its export.

The server never ranks on its own: it writes the event's games as the notation file that
``euchrelog serve export`` would write (:func:`export_name`), reads it with
:func:`euchrelog.events.read_entries`, scores it with :func:`euchrelog.events.score_events`
and prints it with the renderers of ``score``, so the standings it shows are those that
``euchrelog score --format json`` prints on the export.
"""

from __future__ import annotations

import functools
import html
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..events import EventResult, read_entries, score_events
from ..events.output import (
    award_text,
    columns,
    decision_lines,
    headline,
    outcome,
    ranking_note,
    render_json,
    status_line,
    table_text,
)


def export_name(event_id: int) -> str:
    """The file an event is exported to (and the path its standings name)."""
    return f"event-{event_id}.euchre"


@dataclass(frozen=True)
class Standings:
    """An event's standings at one revision."""

    revision: int
    events: list[EventResult]
    json: str
    """As ``euchrelog score --format json`` prints it."""
    made: float = 0.0
    """When it was computed (``time.monotonic``)."""
    took: float = 0.0
    """How long computing it took, in seconds."""

    @functools.cached_property
    def html(self) -> str:
        """The standings for the wall screen, every text escaped."""
        if not self.events:
            return '<p class="empty">No deal has been entered yet.</p>'
        return "\n".join(_event_html(e) for e in self.events)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _event_html(event: EventResult) -> str:
    cols = columns(event)
    who = "player" if event.settings.format == "progressive" else "team"
    out = [f'<p class="meta">{_e(headline(event))}</p>',
           f'<p class="status">{_e(status_line(event))}</p>',
           '<table class="standings"><thead><tr><th class="num">rank</th>',
           f"<th>{who}</th>", *(f'<th class="num">{_e(c.title)}</th>' for c in cols),
           "</tr></thead><tbody>"]
    for row in event.standings:
        rank = f"{row.rank}=" if row.tied else str(row.rank)
        out.append(f'<tr><td class="num">{_e(rank)}</td><td class="name">{_e(row.label)}</td>'
                   + "".join(f'<td class="num">{_e(c.show(c.get(row)))}</td>' for c in cols)
                   + "</tr>")
    out.append("</tbody></table>")
    out.append(f'<p class="note">{_e(ranking_note(event))}</p>')
    out.extend(f'<p class="note">tie-break: {_e(line)}</p>' for line in decision_lines(event))
    out.append('<ul class="awards">')
    out.extend(f"<li><b>{_e(a.title)}</b>: {_e(award_text(a))}</li>" for a in event.awards)
    out.append('</ul><table class="tables"><tbody>')
    out.extend(f"<tr><td>round {_e(t.round)} table {_e(t.table)}</td>"
               f"<td>{_e(table_text(t))}</td><td>{_e(outcome(t))}</td></tr>"
               for t in event.tables)
    out.append("</tbody></table>")
    return "\n".join(out)


LIVE_SPACING = (1.0, 10.0)
"""The least and the most time between two computations of the live standings: three
times as long as the last one took, within these bounds, so that a wall screen watching a
busy event takes at most about a quarter of the server's time."""


class StandingsCache:
    """The standings of each event, computed once per revision, by one thread at a time
    per event (the others wait for it rather than score the same games again)."""

    def __init__(self) -> None:
        self._kept: dict[int, Standings] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, event_id: int, revision: int, records: Callable[[], str], *,
            live: bool = False) -> Standings:
        """The standings at ``revision`` of the event whose export ``records`` reads (read
        after the revision: never older than it). ``live`` standings may be those of an
        earlier revision, computed less than :data:`LIVE_SPACING` ago."""
        with self._guard:
            lock = self._locks.setdefault(event_id, threading.Lock())
        with lock:
            kept = self._kept.get(event_id)
            if kept is not None and kept.revision >= revision:
                return kept
            if live and kept is not None:
                least, most = LIVE_SPACING
                if time.monotonic() - kept.made < min(most, max(least, 3 * kept.took)):
                    return kept
            start = time.monotonic()
            results = score_events(read_entries(records(), export_name(event_id)))
            made = Standings(revision, results, render_json(results), start,
                             time.monotonic() - start)
            self._kept[event_id] = made
            return made
