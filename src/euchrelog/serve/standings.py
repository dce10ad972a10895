"""An event's standings, computed by ``euchrelog score``'s own scorer from its export.

The server never ranks on its own: it writes the event's games as the notation file that
``euchrelog serve export`` would write (:func:`export_name`), reads it with
:func:`euchrelog.events.read_entries`, scores it with :func:`euchrelog.events.score_events`
and prints it with the renderers of ``score``, so the standings it shows are those that
``euchrelog score --format json`` prints on the export.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..events import EventResult, read_entries, score_events
from ..events.output import render_json


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
