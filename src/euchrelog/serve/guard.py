"""What keeps the server up when the network is hostile: connections that send nothing, or
a request's head byte by byte, are closed after a timeout; connections and requests in
flight are bounded (503 beyond, with a message); the open-file limit is raised to what the
system allows; and failed authentications are counted per client, so that guessing a
token is slow however many requests are sent at once (429 beyond the budget).
"""

from __future__ import annotations

import asyncio
import math
import resource
import threading
import time
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

IDLE_TIMEOUT = 10.0
"""Seconds a connection may stay without a whole request's head (idle, or sending it
slowly) before the server closes it."""

MAX_CONNECTIONS = 4096
"""Connections open at once, at most (fewer when the open-file limit is lower): a
connection beyond is answered 503 and closed."""

MAX_ACTIVE = 256
"""Requests being handled at once, live streams aside (they have their own cap): a request
beyond is answered 503."""

BUSY = (b'{"error": "the server is busy: try again in a moment"}')

_RESERVED_FILES = 128
"""Open files kept for the database, the logs and the package's own files."""


def raise_file_limit() -> int:
    """Raises the soft limit of open files to the hard one; returns the connections the
    server may then hold (at most :data:`MAX_CONNECTIONS`)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 65536) if soft != resource.RLIM_INFINITY else 65536
    if soft == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            soft = soft if soft != resource.RLIM_INFINITY else hard
    return max(16, min(MAX_CONNECTIONS, soft - _RESERVED_FILES))


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with a deadline for every request's head: a connection
    that has not sent one within :attr:`idle_timeout` seconds of opening (or of its last
    answer) is closed, and a connection beyond :attr:`max_connections` is answered 503 at
    once and closed. Set the two class attributes before the server starts."""

    idle_timeout: float = IDLE_TIMEOUT
    max_connections: int = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: "
                            b"application/json\r\nconnection: close\r\nretry-after: 5\r\n"
                            b"content-length: " + str(len(BUSY)).encode() + b"\r\n\r\n" + BUSY)
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.idle_timeout, self._expire)

    def _expire(self) -> None:
        """Closes the connection unless a request is being answered (the application
        bounds its own waits)."""
        self._deadline = None
        if self.cycle is not None and not self.cycle.response_complete:
            return
        if not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)


class Bounded:
    """ASGI middleware: at most ``limit`` requests handled at once (those whose path starts
    with one of ``apart``, the live streams, aside); one more is answered 503 at once."""

    def __init__(self, app: ASGIApp, limit: int = MAX_ACTIVE,
                 apart: tuple[str, ...] = ()) -> None:
        self.app = app
        self.limit = limit
        self.apart = apart
        self.active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (self.apart and scope["path"].endswith(self.apart)):
            await self.app(scope, receive, send)
            return
        if self.active >= self.limit:
            await send({"type": "http.response.start", "status": 503, "headers": [
                (b"content-type", b"application/json"), (b"retry-after", b"1"),
                (b"content-length", str(len(BUSY)).encode())]})
            await send({"type": "http.response.body", "body": BUSY})
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1


class FailureLimiter:
    """Failed authentications counted per client: each client has a budget of ``burst``
    failures, given back at ``per_minute`` a minute. Every try is counted as a failure
    before its token is compared (:meth:`take`) and given back when it succeeds
    (:meth:`refund`), so that tries sent at once cannot pass the budget; a client that has
    spent it is refused until a failure is given back. Shared by the threads of one
    process."""

    def __init__(self, burst: int = 30, per_minute: float = 30.0) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self._spent: dict[str, tuple[float, float]] = {}
        self._guard = threading.Lock()

    def _level(self, client: str, now: float) -> float:
        spent, when = self._spent.get(client, (0.0, now))
        return max(0.0, spent - (now - when) * self.rate)

    def take(self, client: str) -> float:
        """Counts a try of the client as a failure, if the client's budget allows it (0),
        or returns the seconds it must wait first (nothing is counted)."""
        now = time.monotonic()
        with self._guard:
            level = self._level(client, now)
            if level + 1 > self.burst:
                return (level + 1 - self.burst) / self.rate
            self._spent[client] = (level + 1, now)
            if len(self._spent) > 100_000:  # (forget the clients that have waited enough)
                self._spent = {c: v for c, v in self._spent.items()
                               if self._level(c, now) > 0}
        return 0.0

    def refund(self, client: str) -> None:
        """Gives back a try that succeeded."""
        now = time.monotonic()
        with self._guard:
            if client in self._spent:
                self._spent[client] = (max(0.0, self._level(client, now) - 1), now)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header's value: whole seconds, at least one."""
    return str(max(1, math.ceil(seconds)))
