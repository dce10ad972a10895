"""The web application: the JSON API (docs/serve.md), the table, director and wall pages,
and the live standings as server-sent events.

Database work and judging run in worker threads; every request body is read through a
size and a time limit, and every text in it is checked before anything is stored (a bad
input is a 4xx with a message); the director's API takes the director's token as a bearer
token, the director's pages a server-side session (rotated at sign-in, ended at sign-out)
and a CSRF token on every form; a table's API takes that table's token, and nothing else
writes its game. Failed authentications are counted per client (:mod:`.guard`); a database
that cannot be written is a 503 with a message, and ``/health`` says so.
"""

from __future__ import annotations

import asyncio
import csv
import hmac
import io
import json
import secrets
import threading
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

import sqlalchemy as sa
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..events import EventResult
from ..events.movement import KINDS, Movement, movement
from . import pages
from .cards import table_cards
from .guard import MAX_ACTIVE, Bounded, FailureLimiter, retry_after
from .judge import DrawError, deal_lines, sheet_choices, side_names
from .live import Live
from .season import player_key, scorecard, season
from .standings import Standings, StandingsCache
from .store import (
    KEY_RE,
    MAX_PLAYER,
    DatabaseDownError,
    ForbiddenError,
    NotFoundError,
    Outcome,
    Store,
    iter_places,
    text_ok,
)

ENTRY_LIMIT = 16 * 1024
"""The largest body of a deal entry or a correction, in bytes."""

EVENT_LIMIT = 512 * 1024
"""The largest body that creates an event (a draw of hundreds of tables fits)."""

SESSION_COOKIE = "euchrelog_director"
CSRF_COOKIE = "euchrelog_csrf"

SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
"""Sent with every answer: no inline script, no framing, no referrer (a table's link
carries its token in the fragment, which is never sent)."""

STATIC = {"serve.css": "text/css", "table.js": "text/javascript",
          "standings.js": "text/javascript", "director.js": "text/javascript"}
"""The files under /static/ and their types."""

MAX_ID = 2**31 - 1
"""The largest number a path may carry (an integer column's)."""

BODY_SECONDS = 30.0
"""Seconds a request's body may take to arrive (a client that sends it byte by byte is
answered 408)."""

MIN_TOKEN = 16
"""The shortest director's token the server takes."""


@dataclass
class Settings:
    """What the application needs besides the database."""

    director_token: str
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server is asked to stop: the live streams end, so that it stops at
    once."""
    failures: FailureLimiter = field(default_factory=FailureLimiter)
    """The failed authentications of each client."""


def _fail(status: int, message: str) -> HTTPException:
    """An error answered as JSON on the API, as a page elsewhere."""
    return HTTPException(status, message)


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, refused with 413 as soon as it is longer than ``limit``, and
    with 408 when it takes longer than :data:`BODY_SECONDS` to arrive."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise _fail(413, f"the body is longer than {limit} bytes")
    chunks, size = [], 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise _fail(413, f"the body is longer than {limit} bytes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise _fail(408, f"the body took longer than {BODY_SECONDS:.0f} seconds to "
                         "arrive") from None
    except ClientDisconnect:
        raise _fail(400, "the client went away before sending the whole body") from None
    return b"".join(chunks)


async def _json(request: Request, limit: int) -> dict[str, Any]:
    raw = await _body(request, limit)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _fail(400, "the body is not JSON") from None
    except RecursionError:
        raise _fail(400, "the body is nested too deeply") from None
    if not isinstance(data, dict):
        raise _fail(400, "the body must be a JSON object")
    return data


async def _form(request: Request, limit: int) -> dict[str, str]:
    raw = await _body(request, limit)
    try:
        fields = parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=50,
                          errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise _fail(400, "the form cannot be read") from None
    form = {k: v[0] for k, v in fields.items()}
    if not all(text_ok(k) and text_ok(v) for k, v in form.items()):
        raise _fail(400, "the form holds a NUL character or a lone surrogate")
    return form


def _text(value: Any, label: str, most: int, *, blank: bool = False) -> str:
    """A text field of a JSON body: a string of at most ``most`` characters that can be
    stored (no NUL, no lone surrogate), else 400 saying which field."""
    if not isinstance(value, str) or len(value) > most or (not blank and not value.strip()):
        raise _fail(400, f"{label} must be text of {'0' if blank else '1'} to {most} "
                         "characters")
    if not text_ok(value):
        raise _fail(400, f"{label} holds a NUL character or a lone surrogate")
    return value


def _number(text: str, label: str, most: int = MAX_ID) -> int:
    """A whole number typed in a form, 1 to ``most``, else 400 saying which field."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 12) or not 1 <= int(text) <= most:
        raise _fail(400, f"{label} must be a whole number 1 to {most}")
    return int(text)


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _int(request: Request, name: str) -> int:
    """A number of the path (an event, round, table or deal): one the database can hold,
    else there is no such thing (404)."""
    value = request.path_params[name]
    assert isinstance(value, int)
    if value > MAX_ID:
        raise _fail(404, f"no {name} {value}")
    return value


class Server:
    """The application's state and its handlers."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.cache = StandingsCache()
        self._rooms: dict[int, tuple[int, str]] = {}
        """Each event's room as the wall shows it, with the revision of its standings."""
        self.live = Live(store.revision, self._live_room, settings.closing.is_set)

    # ------------------------------------------------------------ who asks

    @staticmethod
    def _client(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    def _try(self, request: Request) -> None:
        """Counts a try at authenticating as a failure of the client until it succeeds
        (:meth:`_passed`); refuses (429) a client that has spent its budget of failures."""
        wait = self.settings.failures.take(self._client(request))
        if wait > 0:
            raise HTTPException(429, "too many failed tries with a wrong token: wait a "
                                     "minute", headers={"retry-after": retry_after(wait)})

    def _passed(self, request: Request) -> None:
        """Gives back the client's try: it authenticated."""
        self.settings.failures.refund(self._client(request))

    def _is_token(self, token: str) -> bool:
        return hmac.compare_digest(token.encode("utf-8", "surrogatepass"),
                                   self.settings.director_token.encode())

    async def is_director(self, request: Request) -> bool:
        """Whether the request carries the director's token or an open session; a wrong
        token or a session that is not open counts as a failure of the client."""
        token = _bearer(request)
        cookie = request.cookies.get(SESSION_COOKIE, "")
        if not token and not cookie:
            return False
        self._try(request)
        if (self._is_token(token) if token
                else await run_in_threadpool(self.store.session_open, cookie)):
            self._passed(request)
            return True
        return False

    async def _director(self, request: Request) -> None:
        if not await self.is_director(request):
            raise _fail(403, "this needs the director's token")

    @staticmethod
    def _secure(request: Request) -> bool:
        """Whether the page was asked for over HTTPS (directly, or through a reverse proxy
        that says so in ``X-Forwarded-Proto``, when the server trusts it)."""
        return request.url.scheme == "https"

    @staticmethod
    def _csrf(request: Request, form: dict[str, str]) -> None:
        """Refuses a form without the CSRF token of its cookie, or from another origin."""
        cookie = request.cookies.get(CSRF_COOKIE, "")
        sent = form.get("csrf", "")
        origin = request.headers.get("origin")
        if origin is not None and origin != "null" and \
                urlsplit(origin).netloc != request.headers.get("host"):
            raise _fail(403, "the form was sent from another site")
        if not cookie or not hmac.compare_digest(cookie.encode(), sent.encode()):
            raise _fail(403, "the form's CSRF token is missing or wrong: reload the page")

    def _with_csrf(self, request: Request, render: Callable[[str], str],
                   status: int = 200) -> HTMLResponse:
        token = request.cookies.get(CSRF_COOKIE) or secrets.token_hex(16)
        if not (len(token) == 32 and all(c in "0123456789abcdef" for c in token)):
            token = secrets.token_hex(16)
        response = HTMLResponse(render(token), status)
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict",
                            secure=self._secure(request))
        return response

    def standings(self, event_id: int, live: bool = False) -> Standings:
        """The event's standings now; ``live``: perhaps a moment old (see
        :meth:`StandingsCache.get`)."""
        revision = self.store.revision(event_id)
        return self.cache.get(event_id, revision, lambda: self.store.records(event_id),
                              live=live)

    def room(self, event_id: int, live: bool = False) -> tuple[int, str]:
        """The revision of the event's standings and its room as the wall shows it (the
        tables read with them, or a moment after), made once a revision."""
        made = self.standings(event_id, live=live)
        kept = self._rooms.get(event_id)
        if kept is None or kept[0] != made.revision:
            kept = self._rooms[event_id] = (
                made.revision, pages.room(self.store.games(event_id), made.events))
        return kept

    def _live_room(self, event_id: int) -> tuple[int, str]:
        return self.room(event_id, live=True)

    # ------------------------------------------------------------ API

    async def health(self, _request: Request) -> Response:
        """200 once the database is migrated and the server listens; 503 when the
        database cannot store anything (read-only, full) or cannot be reached."""
        try:
            trouble = await run_in_threadpool(self.store.health)
        except sa.exc.DBAPIError:
            trouble = "unreachable"
        if trouble is None:
            return JSONResponse({"status": "ok"})
        return JSONResponse({"status": "unavailable", "database": trouble,
                             "error": f"the database is {trouble}: nothing can be stored "
                                      "now"}, 503)

    async def create_event(self, request: Request) -> Response:
        """POST /api/events: an event from JSON, with one token per table game."""
        await self._director(request)
        data = await _json(request, EVENT_LIMIT)
        outcome = await run_in_threadpool(self._create, data)
        return JSONResponse(outcome.body, outcome.status)

    def _create(self, data: dict[str, Any]) -> Outcome:
        name, variant, fmt = data.get("name"), data.get("variant", "four-hand"), \
            data.get("format", "partners")
        target, kind = data.get("target"), data.get("kind", "tournament")
        acceptance = data.get("acceptance")
        problems = [w for w, ok in (
            ("name must be 1 to 200 characters", isinstance(name, str)
             and 0 < len(name.strip()) <= 200 and name.isprintable()),
            ("variant must be a variant's name", isinstance(variant, str)
             and 0 < len(variant) <= 40 and variant.isprintable()),
            ("format must be a Format tag value, like 'progressive deals=8'",
             isinstance(fmt, str) and 0 < len(fmt) <= 200 and fmt.isprintable()),
            ("target must be a whole number 1 to 1000", target is None or (
                isinstance(target, int) and not isinstance(target, bool)
                and 1 <= target <= 1000)),
            ("kind must be 'tournament' or 'casual'", kind in ("tournament", "casual")),
            ("acceptance must be true or false", acceptance is None
             or isinstance(acceptance, bool)),
        ) if not ok]
        unknown = set(data) - {"name", "variant", "format", "target", "draw", "kind",
                               "acceptance", "movement"}
        if unknown:
            problems.append(f"unknown field {sorted(unknown)[0]!r}"[:200])
        if problems:
            return Outcome(400, {"error": problems[0]})
        assert isinstance(name, str) and isinstance(variant, str) and isinstance(fmt, str)
        byes: list[list[Any]] | None = None
        try:
            if "movement" in data:
                if "draw" in data:
                    raise ValueError("give a draw or a movement, not both")
                made, players = _movement(data["movement"])
                data = {**data, "draw": made.draw(players)}
                byes = [[players[p] for p in one.byes] for one in made.rounds]
            draw = list(iter_places(data.get("draw")))
            event_id, tables = self.store.create_event(
                name.strip(), variant, fmt, target, draw, self.settings.director_token,
                kind, acceptance)
        except (ValueError, DrawError) as exc:
            return Outcome(400, {"error": str(exc)})
        made_body: dict[str, Any] = {"event": event_id, "tables": tables}
        if byes is not None:
            made_body["draw"], made_body["byes"] = data["draw"], byes
        return Outcome(201, made_body)

    async def event_json(self, request: Request) -> Response:
        """GET /api/events/{id}: the event and every table's progress (no secrets)."""
        event_id = _int(request, "event")
        event, games = await run_in_threadpool(
            lambda: (self.store.event(event_id), self.store.games(event_id)))
        return JSONResponse({
            "event": event_id, "name": event["name"], "variant": event["variant"],
            "format": event["format"], "target": event["target"], "kind": event["kind"],
            "acceptance": event["acceptance"], "revision": event["revision"],
            "tables": [{"round": g["round"], "table": g["table_no"], "deals": g["deals"],
                        **g["state"], "pending": g["pending"], "disputed": g["disputed"]}
                       for g in games]})

    def _table_state(self, event_id: int, round_: int, table: int) -> dict[str, Any]:
        event = self.store.event(event_id)
        game = self.store.game(event_id, round_, table)
        choices = sheet_choices(game["header"])
        seats = game["state"]["seats"]
        return {"event": event_id, "name": event["name"], "round": round_, "table": table,
                "acceptance": event["acceptance"], "deals": game["texts"],
                "lines": deal_lines(game["header"], game["record"], seats),
                "statuses": game["statuses"], **game["state"], "pending": game["pending"],
                "disputed": game["disputed"], "choices": choices,
                "side_names": side_names(game["header"], seats)}

    async def table_json(self, request: Request) -> Response:
        """GET /api/events/{id}/rounds/{r}/tables/{t}: one table game as its page shows."""
        state = await run_in_threadpool(self._table_state, _int(request, "event"),
                                        _int(request, "round"), _int(request, "table"))
        return JSONResponse(state)

    async def add_deal(self, request: Request) -> Response:
        """POST .../deals: one deal, judged, stored once per idempotency key."""
        token = _bearer(request)
        if not token:
            raise _fail(403, "this needs the table's token as 'Authorization: Bearer ...'")
        self._try(request)
        try:
            data = await _json(request, ENTRY_LIMIT)
            text = _text(data.get("text"), "text", ENTRY_LIMIT)
            key, by = data.get("key"), data.get("by")
            if not isinstance(key, str) or not KEY_RE.fullmatch(key):
                raise _fail(400, "key must be 1 to 100 letters, digits or . _ : -")
            if by is not None and (not isinstance(by, str) or not by.isascii()
                                   or not 0 < len(by) <= 10):
                raise _fail(400, "by must name the side that enters the deal, like NS")
            outcome = await run_in_threadpool(
                self.store.add_deal, _int(request, "event"), _int(request, "round"),
                _int(request, "table"), token, text, key, by)
        except ForbiddenError as exc:
            raise _fail(403, str(exc)) from None
        except Exception:
            self._passed(request)  # (not a wrong token: no failure of the client)
            raise
        self._passed(request)
        return JSONResponse(outcome.body, outcome.status)

    async def settle_deal(self, request: Request) -> Response:
        """POST .../deals/{n}/accept or .../dispute: a player of the other side accepts or
        disputes a deal (the table's token, ``{"by": side}``), or the director accepts
        one (the director's token)."""
        verdict = "accepted" if request.url.path.endswith("/accept") else "disputed"
        token = _bearer(request)
        director = self._is_token(token) if token else await self.is_director(request)
        if not director and not token:
            raise _fail(403, "this needs the table's token or the director's")
        self._try(request)
        try:
            data = await _json(request, ENTRY_LIMIT)
            by, reason = data.get("by"), data.get("reason", "")
            if by is not None and (not isinstance(by, str) or not by.isascii()
                                   or len(by) > 10):
                raise _fail(400, "by must name the side that answers, like EW")
            reason = _text(reason, "reason", 500, blank=True)
            outcome = await run_in_threadpool(
                self.store.settle, _int(request, "event"), _int(request, "round"),
                _int(request, "table"), _int(request, "deal"), None if director else token,
                by, verdict, reason)
        except ForbiddenError as exc:
            raise _fail(403, str(exc)) from None
        except Exception:
            self._passed(request)
            raise
        self._passed(request)
        return JSONResponse(outcome.body, outcome.status)

    async def correct_deal(self, request: Request) -> Response:
        """PUT .../deals/{n}: the director's correction of a deal, kept in the history."""
        await self._director(request)
        data = await _json(request, ENTRY_LIMIT)
        text = _text(data.get("text"), "text", ENTRY_LIMIT)
        reason = _text(data.get("reason", ""), "reason", 500, blank=True)
        outcome = await run_in_threadpool(
            self.store.correct, _int(request, "event"), _int(request, "round"),
            _int(request, "table"), _int(request, "deal"), text, reason)
        return JSONResponse(outcome.body, outcome.status)

    async def audit_json(self, request: Request) -> Response:
        """GET /api/events/{id}/audit: the event's audit trail (the director's token)."""
        await self._director(request)
        event_id = _int(request, "event")
        trail = await run_in_threadpool(
            lambda: (self.store.event(event_id), self.store.trail(event_id))[1])
        return JSONResponse({"event": event_id, "trail": trail})

    async def players_json(self, request: Request) -> Response:
        """GET /api/players: the club's registry; POST: registers (or renames) a player,
        ``{"number": 12, "name": "Ann"}`` (the director's token)."""
        await self._director(request)
        if request.method == "POST":
            data = await _json(request, ENTRY_LIMIT)
            number, name = data.get("number"), data.get("name")
            if not isinstance(number, int) or isinstance(number, bool) or \
                    not 1 <= number <= MAX_PLAYER:
                raise _fail(400, f"number must be a whole number 1 to {MAX_PLAYER}")
            name = _text(name, "name", 60)
            if not name.isprintable():
                raise _fail(400, "name must be printable characters")
            await run_in_threadpool(self.store.add_player, number, name.strip())
            return JSONResponse({"number": number, "name": name.strip()}, 201)
        return JSONResponse({"players": await run_in_threadpool(self.store.players)})

    async def standings_json(self, request: Request) -> Response:
        """GET /api/events/{id}/standings: as ``euchrelog score --format json`` prints."""
        made = await run_in_threadpool(self.standings, _int(request, "event"))
        return Response(made.json, media_type="application/json")

    async def records(self, request: Request) -> Response:
        """GET /api/events/{id}/records: the event's games in the notation."""
        text = await run_in_threadpool(self.store.records, _int(request, "event"))
        return PlainTextResponse(text, media_type="text/plain; charset=utf-8")

    async def stream(self, request: Request) -> Response:
        """GET /api/events/{id}/stream: the room as server-sent events, one ``standings``
        event per revision (``{"revision": n, "html": ...}``); ``?revisions``: only a
        ``revision`` event per revision (``{"revision": n}``)."""
        event_id = _int(request, "event")
        await run_in_threadpool(self.store.event, event_id)
        if self.live.full():
            raise _fail(503, "too many live pages are open; try again in a moment")
        return _Asgi(self.live.stream(event_id, "revisions" in request.query_params))

    # ------------------------------------------------------------ pages

    async def index(self, _request: Request) -> Response:
        """The list of events."""
        return HTMLResponse(pages.index(await run_in_threadpool(self.store.events)))

    async def wall(self, request: Request) -> Response:
        """The standings page for a wall screen."""
        event_id = _int(request, "event")
        event = await run_in_threadpool(self.store.event, event_id)
        revision, room = await run_in_threadpool(self.room, event_id, True)
        return HTMLResponse(pages.wall_page(event, room, revision))

    def _season(self) -> list[tuple[Mapping[str, Any], list[EventResult]]]:
        """Every event, oldest first, with its standings (each computed once a revision)."""
        return [(event, self.standings(int(event["id"])).events)
                for event in reversed(self.store.events())]

    async def season_page(self, _request: Request) -> Response:
        """The season: every player's totals over the events."""
        def made() -> str:
            events = self._season()
            registry = {p["number"]: p["name"] for p in self.store.players()}
            return pages.season_page(season(events, registry), len(events))

        return HTMLResponse(await run_in_threadpool(made))

    async def player_page(self, request: Request) -> Response:
        """A player's scorecard: ``?number=12`` (the club's registry) or ``?name=Ann``."""
        number_text = request.query_params.get("number")
        name = request.query_params.get("name", "")
        if number_text is not None:
            number: int | None = _number(number_text, "number", MAX_PLAYER)
        elif 0 < len(name.strip()) <= 60 and text_ok(name):  # (a name of the draw)
            number = None
        else:
            raise _fail(400, "give a player's number (?number=12) or name (?name=Ann)")

        def made() -> str:
            events = self._season()
            registry = {p["number"]: p["name"] for p in self.store.players()}
            card = scorecard(events, player_key(number, name))
            lines = [line for part in card for line in part["lines"]]
            shown = lines[0]["name"] if lines else name.strip()
            if number is not None:
                shown = registry.get(number) or shown
            if not card and number is not None and number not in registry:
                raise NotFoundError(f"no player {number} in the registry or the events")
            return pages.player_page(shown, number, card)

        return HTMLResponse(await run_in_threadpool(made))

    async def table_page(self, request: Request) -> Response:
        """A table's page (its token comes in the link's fragment, read by the script)."""
        event_id = _int(request, "event")
        event = await run_in_threadpool(self.store.event, event_id)
        game = await run_in_threadpool(self.store.game, event_id, _int(request, "round"),
                                       _int(request, "table"))
        return HTMLResponse(pages.table_page(event, game))

    async def director_home(self, request: Request) -> Response:
        """The director's events and the form to create one, or the sign-in form."""
        if not await self.is_director(request):
            return self._with_csrf(request, pages.login)
        events = await run_in_threadpool(self.store.events)
        return self._with_csrf(request, lambda t: pages.director_home(events, t))

    async def director_login(self, request: Request) -> Response:
        """Signs the director in: a new server-side session (any session the browser had
        is ended), its cookie ``Secure`` over HTTPS."""
        form = await _form(request, ENTRY_LIMIT)
        self._csrf(request, form)
        self._try(request)
        if not self._is_token(form.get("token", "")):
            return self._with_csrf(request, lambda t: pages.login(t, failed=True), 403)
        self._passed(request)
        session = await run_in_threadpool(self.store.new_session,
                                          request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse("/director", 303)
        response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="strict",
                            secure=self._secure(request))
        return response

    async def director_logout(self, request: Request) -> Response:
        """Signs the director out: the session is ended on the server, and its cookie
        dropped."""
        self._csrf(request, await _form(request, ENTRY_LIMIT))
        session = request.cookies.get(SESSION_COOKIE)
        if session:
            await run_in_threadpool(self.store.end_session, session)
        response = RedirectResponse("/director", 303)
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="strict",
                               secure=self._secure(request))
        return response

    async def director_create(self, request: Request) -> Response:
        """Creates an event from the director's form (the draw as CSV)."""
        await self._director(request)
        form = await _form(request, EVENT_LIMIT)
        self._csrf(request, form)
        typed = {k: form.get(k, "") for k in ("name", "variant", "format", "target", "draw")}
        written = typed["target"].strip()
        if written and not (written.isascii() and written.isdigit() and len(written) <= 4):
            return await self._home_error(request, "target must be a whole number", typed)
        try:
            draw = _csv_draw(typed["draw"])
        except ValueError as exc:
            return await self._home_error(request, str(exc), typed)
        outcome = await run_in_threadpool(self._create, {
            "name": typed["name"], "variant": typed["variant"], "format": typed["format"],
            "target": int(written) if written else None, "draw": draw})
        if outcome.status != 201:
            return await self._home_error(request, outcome.body["error"], typed)
        return RedirectResponse(f"/director/events/{outcome.body['event']}", 303)

    async def _home_error(self, request: Request, message: str,
                          typed: dict[str, str]) -> Response:
        events = await run_in_threadpool(self.store.events)
        return self._with_csrf(
            request, lambda t: pages.director_home(events, t, message, typed), 400)

    def _director_page(self, event_id: int, csrf: str, message: str = "") -> str:
        event = self.store.event(event_id)
        links = [(r, t, f"/events/{event_id}/rounds/{r}/tables/{t}#token={token}"
                  if token else None)
                 for r, t, token in self.store.tokens(event_id, self.settings.director_token)]
        return pages.director_event(event, links, self._progress(event_id, csrf), csrf,
                                    message)

    def _progress(self, event_id: int, csrf: str) -> str:
        made = self.standings(event_id, live=True)
        findings = [f.to_dict() for ev in made.events for f in ev.findings]
        return pages.progress(self.store.games(event_id), findings,
                              self.store.history(event_id), self.store.open_deals(event_id),
                              event_id, csrf)

    async def director_event(self, request: Request) -> Response:
        """The director's page of an event."""
        await self._director(request)
        event_id = _int(request, "event")
        await run_in_threadpool(self.store.event, event_id)
        return self._with_csrf(request, lambda t: self._director_page(event_id, t))

    async def director_progress(self, request: Request) -> Response:
        """The progress part of the director's page (fetched again on every revision)."""
        await self._director(request)
        return HTMLResponse(await run_in_threadpool(self._progress, _int(request, "event"),
                                                    request.cookies.get(CSRF_COOKIE, "")))

    async def director_correct(self, request: Request) -> Response:
        """A correction from the director's form."""
        await self._director(request)
        event_id = _int(request, "event")
        form = await _form(request, ENTRY_LIMIT)
        self._csrf(request, form)
        round_, table, deal = (_number(form.get(k, ""), k) for k in ("round", "table", "deal"))
        text = form.get("text", "")
        if len(text) > ENTRY_LIMIT:
            raise _fail(400, f"text must be at most {ENTRY_LIMIT} characters")
        try:
            outcome = await run_in_threadpool(
                self.store.correct, event_id, round_, table, deal, text,
                form.get("reason", "")[:500])
        except NotFoundError as exc:
            message = str(exc)
        else:
            message = _said(outcome)
        return await run_in_threadpool(lambda: self._with_csrf(
            request, lambda t: self._director_page(event_id, t, message)))

    async def director_cards(self, request: Request) -> Response:
        """The event's table cards to print: each table game's players and its link, as
        text and as a QR code (the director's: a link carries its table's token)."""
        await self._director(request)
        event_id = _int(request, "event")
        base = str(request.base_url)

        def made() -> str:
            event = self.store.event(event_id)
            games = self.store.games(event_id)
            return pages.cards_page(event, games, table_cards(
                base, event_id, games, self.store.tokens(event_id,
                                                         self.settings.director_token)))

        return HTMLResponse(await run_in_threadpool(made))

    async def director_accept(self, request: Request) -> Response:
        """The director accepts a pending or disputed deal as entered, from the form of
        the director's page."""
        await self._director(request)
        event_id = _int(request, "event")
        form = await _form(request, ENTRY_LIMIT)
        self._csrf(request, form)
        round_, table, deal = (_number(form.get(k, ""), k) for k in ("round", "table", "deal"))
        try:
            outcome = await run_in_threadpool(
                self.store.settle, event_id, round_, table, deal, None, None, "accepted",
                "accepted by the director as entered")
        except NotFoundError as exc:
            message = str(exc)
        else:
            message = (f"round {round_} table {table} deal {deal} accepted as entered"
                       if outcome.status == 200 else str(outcome.body.get("error", "")))
        return await run_in_threadpool(lambda: self._with_csrf(
            request, lambda t: self._director_page(event_id, t, message)))

    async def static(self, request: Request) -> Response:
        """The pages' scripts and stylesheet, shipped in the package."""
        name = request.path_params["name"]
        if name not in STATIC:
            raise _fail(404, "no such file")
        text = resources.files("euchrelog.serve").joinpath("static", name).read_text("utf-8")
        return Response(text, media_type=STATIC[name],
                        headers={"cache-control": "no-cache"})


class _Asgi(Response):
    """A response that is an ASGI application of its own (a live stream)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        super().__init__()
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def _movement(spec: Any) -> tuple[Movement, list[str | int]]:
    """The movement of an event's JSON (``{"kind", "rounds", "players"}``: the players by
    name or registry number) and its players.

    :raises ValueError: for anything else, saying what.
    """
    if not isinstance(spec, dict) or set(spec) - {"kind", "rounds", "players"}:
        raise ValueError("movement must be an object of kind, rounds and players")
    kind, rounds, players = spec.get("kind"), spec.get("rounds"), spec.get("players")
    if kind not in KINDS:
        raise ValueError(f"movement kind must be {' or '.join(KINDS)}")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 50:
        raise ValueError("movement rounds must be a whole number 1 to 50")
    if not isinstance(players, list) or not 4 <= len(players) <= 400:
        raise ValueError("movement players must be a list of 4 to 400 names or numbers")
    if len({str(p).strip().casefold() for p in players}) != len(players):
        raise ValueError("movement players must each be named once")
    return movement(kind, len(players), rounds), players


def _said(outcome: Outcome) -> str:
    """What the director's page says of a correction."""
    if outcome.status == 200:
        return "corrected"
    if outcome.status == 422:
        return "refused: " + "; ".join(f"{f['code']} {f['message']}"
                                       for f in outcome.body["findings"])
    return str(outcome.body.get("error", ""))


def _csv_draw(text: str) -> list[dict[str, Any]]:
    """A draw typed or pasted as CSV: ``round,table`` and a column per seat.

    :raises ValueError: for a line that cannot be read, saying which.
    """
    rows = list(csv.reader(io.StringIO(text.strip())))
    if len(rows) < 2:
        raise ValueError("the draw needs a header line (round,table,N,E,S,W) and a line "
                         "per table")
    head = [h.strip().upper() for h in rows[0]]
    if head[:2] != ["ROUND", "TABLE"] or len(head) < 4:
        raise ValueError("the draw's header line must be round,table and the seats "
                         "(N,E,S,W)")
    draw = []
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(head) or not all(
                c.strip().isascii() and c.strip().isdigit() and len(c.strip()) <= 3
                for c in row[:2]):
            raise ValueError(f"draw line {number}: round and table numbers, then "
                             f"{len(head) - 2} names")
        draw.append({"round": int(row[0]), "table": int(row[1]),
                     "seats": dict(zip(head[2:], (_seat_cell(c) for c in row[2:]),
                                       strict=True))})
    return draw


def _seat_cell(cell: str) -> str | int:
    """A player of a CSV draw: a name, or ``#12``, the number of a player of the registry."""
    cell = cell.strip()
    if len(cell) > 1 and cell[0] == "#" and cell[1:].isascii() and cell[1:].isdigit():
        return int(cell[1:8])
    return cell


def _handler(server: Server) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handle(request: Request, exc: Exception) -> Response:
        headers = None
        if isinstance(exc, NotFoundError):
            status, message = 404, str(exc)
        elif isinstance(exc, HTTPException):
            status, message, headers = exc.status_code, str(exc.detail), exc.headers
        elif isinstance(exc, DatabaseDownError):
            status, message = 503, str(exc)
        elif isinstance(exc, sa.exc.OperationalError):
            status, message = 503, "the database cannot be reached now: try again in a moment"
        else:
            status, message = 500, "internal error"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status, headers=headers)
        return HTMLResponse(pages.error_page(status, message), status, headers=headers)
    return handle


def create_app(store: Store, settings: Settings,
               lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None,
               max_active: int = MAX_ACTIVE) -> Starlette:
    """The application over ``store``; ``lifespan`` runs as it starts; at most
    ``max_active`` requests are handled at once (live streams aside)."""
    server = Server(store, settings)
    place = "/api/events/{event:int}/rounds/{round:int}/tables/{table:int}"
    routes = [
        Route("/health", server.health),
        Route("/", server.index),
        Route("/static/{name:str}", server.static),
        Route("/api/events", server.create_event, methods=["POST"]),
        Route("/api/events/{event:int}", server.event_json),
        Route(place, server.table_json),
        Route(place + "/deals", server.add_deal, methods=["POST"]),
        Route(place + "/deals/{deal:int}", server.correct_deal, methods=["PUT"]),
        Route(place + "/deals/{deal:int}/accept", server.settle_deal, methods=["POST"]),
        Route(place + "/deals/{deal:int}/dispute", server.settle_deal, methods=["POST"]),
        Route("/api/events/{event:int}/audit", server.audit_json),
        Route("/api/players", server.players_json, methods=["GET", "POST"]),
        Route("/api/events/{event:int}/standings", server.standings_json),
        Route("/api/events/{event:int}/records", server.records),
        Route("/api/events/{event:int}/stream", server.stream),
        Route("/events/{event:int}", server.wall),
        Route("/season", server.season_page),
        Route("/player", server.player_page),
        Route("/events/{event:int}/rounds/{round:int}/tables/{table:int}", server.table_page),
        Route("/director", server.director_home),
        Route("/director/login", server.director_login, methods=["POST"]),
        Route("/director/logout", server.director_logout, methods=["POST"]),
        Route("/director/events", server.director_create, methods=["POST"]),
        Route("/director/events/{event:int}", server.director_event),
        Route("/director/events/{event:int}/progress", server.director_progress),
        Route("/director/events/{event:int}/correct", server.director_correct,
              methods=["POST"]),
        Route("/director/events/{event:int}/accept", server.director_accept,
              methods=["POST"]),
        Route("/director/events/{event:int}/cards", server.director_cards),
    ]
    handle = _handler(server)
    return Starlette(routes=routes, middleware=[
        Middleware(_Secure), Middleware(Bounded, limit=max_active, apart=("/stream",))],
        lifespan=lifespan, exception_handlers={
            HTTPException: handle, NotFoundError: handle, DatabaseDownError: handle,
            sa.exc.OperationalError: handle, Exception: handle})


class _Secure:
    """Adds :data:`SECURITY_HEADERS` to every answer, and ``no-store`` to those that say
    nothing of caching (a director's page shows the tables' links)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.update(SECURITY_HEADERS)
                headers.setdefault("cache-control", "no-store")
            await send(message)

        await self.app(scope, receive, sending)
