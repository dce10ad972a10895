"""The live standings as server-sent events, cheaply: one watcher per event looks at the
event's revision in the database (once every :data:`INTERVAL` seconds, whatever the
number of pages open) and wakes every stream of that event when it changes; each stream
then sends the standings of the new revision, computed once for all of them. The cap of
streams open at once is taken before the answer starts, so a burst cannot pass it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from starlette.concurrency import run_in_threadpool
from starlette.types import Message, Receive, Scope, Send

INTERVAL = 0.5
"""How often, in seconds, an event's watcher looks for a new revision."""

QUIET = 15.0
"""Seconds without news after which a stream sends a comment, so that proxies keep it."""

TICK = 1.0
"""How often, in seconds, a quiet stream looks whether the server is stopping."""

LIGHT_SPACING = 3.0
"""The least time, in seconds, between two events of a light stream (a table's phone asks
for its table again at each: a room of phones asks at most this often each)."""

MAX_STREAMS = 500
"""Live streams open at once; one more is refused (503) until one closes."""


@dataclass
class _Watch:
    """The watcher of one event: its last revision, and what wakes its streams."""

    revision: int
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    streams: int = 0
    task: asyncio.Task[None] | None = None


class Live:
    """The live streams of every event.

    :param revision: reads an event's revision (in a worker thread).
    :param standings: an event's latest revision and its standings as HTML (in a worker
        thread; computed once a revision by its caller's cache), which a ``standings``
        event carries as JSON, made once a revision here.
    :param closing: true when the server stops (the streams end).
    """

    def __init__(self, revision: Callable[[int], int],
                 standings: Callable[[int], tuple[int, str]],
                 closing: Callable[[], bool], limit: int = MAX_STREAMS) -> None:
        self.revision = revision
        self.standings = standings
        self._data: dict[int, tuple[int, str]] = {}
        """The last ``data`` sent for each event, with its revision."""
        self.closing = closing
        self.limit = limit
        self.open = 0
        """Streams open now (all on the event loop's thread)."""
        self._watches: dict[int, _Watch] = {}

    def full(self) -> bool:
        """Whether one more stream would pass the cap."""
        return self.open >= self.limit

    def stream(self, event_id: int, light: bool = False
               ) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
        """The ASGI answer of one stream of ``event_id``; it holds a place under the cap
        from now (the caller checked :meth:`full` with no wait between) until it ends.
        A ``light`` stream sends only each new revision (``revision`` events,
        ``{"revision": n}``), for a page that asks for what it shows itself (a table's
        page): no standings are computed for it, and it costs a phone a few bytes a
        change."""
        self.open += 1
        return lambda scope, receive, send: self._serve(event_id, receive, send, light)

    async def _serve(self, event_id: int, receive: Receive, send: Send,
                     light: bool = False) -> None:
        try:
            watch = self._watches.get(event_id)
            if watch is None:
                revision = await run_in_threadpool(self.revision, event_id)
                watch = self._watches.get(event_id)  # (another stream may have made it)
                if watch is None:
                    watch = self._watches[event_id] = _Watch(revision)
                    watch.task = asyncio.create_task(self._watch(event_id, watch))
            watch.streams += 1
            gone = asyncio.create_task(_disconnected(receive))
            try:
                await send({"type": "http.response.start", "status": 200, "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store")]})
                await self._send_changes(event_id, watch, gone, send, light)
            finally:
                gone.cancel()
                watch.streams -= 1
                if watch.streams <= 0 and self._watches.get(event_id) is watch:
                    del self._watches[event_id]
                    self._data.pop(event_id, None)
                    if watch.task is not None:
                        watch.task.cancel()
        finally:
            self.open -= 1

    async def _send_changes(self, event_id: int, watch: _Watch, gone: asyncio.Task[None],
                            send: Send, light: bool) -> None:
        await _chunk(send, "retry: 1000\n\n")
        last, quiet, sent = -1, 0.0, -LIGHT_SPACING
        loop = asyncio.get_running_loop()
        while not self.closing() and not gone.done():
            if light:
                if watch.revision != last and loop.time() - sent >= LIGHT_SPACING:
                    last, sent = watch.revision, loop.time()
                    await _chunk(send, f"event: revision\ndata: {{\"revision\": {last}}}"
                                       "\n\n")
                    quiet = 0.0
            elif watch.revision != last:
                # (the standings may be a moment older than the revision: then again at
                # the next tick)
                revision, data = await self._payload(event_id)
                if revision != last:
                    last = revision
                    await _chunk(send, f"event: standings\ndata: {data}\n\n")
                    quiet = 0.0
            changed = watch.changed
            waits = [asyncio.ensure_future(changed.wait()), gone]
            done, _ = await asyncio.wait(waits, timeout=TICK,
                                         return_when=asyncio.FIRST_COMPLETED)
            waits[0].cancel()
            if not done:
                quiet += TICK
                if quiet >= QUIET:
                    await _chunk(send, ": still here\n\n")
                    quiet = 0.0

    async def _payload(self, event_id: int) -> tuple[int, str]:
        """The latest revision of the event and its ``data``, made once a revision."""
        revision, html = await run_in_threadpool(self.standings, event_id)
        kept = self._data.get(event_id)
        if kept is None or kept[0] != revision:
            kept = self._data[event_id] = (revision, json.dumps({"revision": revision,
                                                                  "html": html}))
        return kept

    async def _watch(self, event_id: int, watch: _Watch) -> None:
        """Looks at the event's revision every :data:`INTERVAL` seconds, waking its
        streams when it changes."""
        while not self.closing():
            await asyncio.sleep(INTERVAL)
            try:
                revision = await run_in_threadpool(self.revision, event_id)
            except Exception:
                continue
            if revision != watch.revision:
                watch.revision = revision
                woken, watch.changed = watch.changed, asyncio.Event()
                woken.set()


async def _chunk(send: Send, text: str) -> None:
    await send({"type": "http.response.body", "body": text.encode("utf-8"),
                "more_body": True})


async def _disconnected(receive: Receive) -> None:
    """Returns when the client has gone."""
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            return
