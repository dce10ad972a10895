"""The server's database: events, their table games, the deals entered (with their
acceptance by the other side), the corrections, the audit trail, the director's sessions
and the club's player registry.

SQLAlchemy Core over SQLite (a file: WAL journal, ``synchronous=FULL``, so that a commit is
on disk before the server answers) or PostgreSQL (psycopg 3); the schema is made and
upgraded by the Alembic migrations shipped in :mod:`euchrelog.serve.migrations`. Every
accepted entry is one transaction: the deal, its game's new record, its line of the audit
trail and the event's revision are committed together or not at all. Every statement is
parameterised. A write the database refuses because it is read-only or full raises
:class:`DatabaseDownError` (the server answers 503 and ``/health`` says so).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext, RevisionStep
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

from .judge import Judge, Verdict, game_header

metadata = sa.MetaData()
"""The schema as the migrations leave it (a test holds the two equal)."""

events = sa.Table(
    "events", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("format", sa.String(200), nullable=False),
    sa.Column("target", sa.Integer, nullable=True),
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("salt", sa.String(32), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False, server_default="tournament"),
    sa.Column("acceptance", sa.Boolean, nullable=False, server_default=sa.false()),
)

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("header", sa.Text, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.UniqueConstraint("event_id", "round", "table_no", name="uq_games_place"),
)

deals = sa.Table(
    "deals", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("key", sa.String(100), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("response", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("status", sa.String(10), nullable=False, server_default="accepted"),
    sa.Column("entered_by", sa.String(10), nullable=True),
    sa.Column("accepted_by", sa.String(10), nullable=True),
    sa.UniqueConstraint("game_id", "number", name="uq_deals_number"),
    sa.UniqueConstraint("game_id", "key", name="uq_deals_key"),
)

corrections = sa.Table(
    "corrections", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("old_text", sa.Text, nullable=False),
    sa.Column("new_text", sa.Text, nullable=False),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

audit = sa.Table(
    "audit", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True),
    sa.Column("number", sa.Integer, nullable=True),
    sa.Column("action", sa.String(40), nullable=False),
    sa.Column("actor", sa.String(60), nullable=False),
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

sessions = sa.Table(
    "sessions", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
)

players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("number", name="uq_players_number"),
)

MIGRATIONS = Path(__file__).parent / "migrations"
"""Where the Alembic revisions are (inside the package, so a wheel carries them)."""

KEY_RE = re.compile(r"[A-Za-z0-9._:-]{1,100}")
"""What an idempotency key may be."""


def database_url(db: str) -> str:
    """The SQLAlchemy URL of ``--db``: a PostgreSQL URL (``postgresql://...``, read with
    psycopg 3), a ``sqlite://`` URL, or else the path of a SQLite file.

    >>> database_url("postgresql://ann@localhost/club")
    'postgresql+psycopg://ann@localhost/club'

    :raises ValueError: for a URL of another database.
    """
    scheme, found, rest = db.partition("://")
    if not found:
        return f"sqlite:///{Path(db).resolve()}"
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return "postgresql+psycopg://" + rest
    if scheme == "sqlite":
        return db
    raise ValueError(f"{scheme}:// is not a database the server uses: give a SQLite file or "
                     "a postgresql:// URL")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def connect(db: str) -> Engine:
    """An engine for ``--db`` (see :func:`database_url`)."""
    url = database_url(db)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False,
                                                     "timeout": 30})
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Brings the schema to the newest revision (creating it in an empty database)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)

    def upgrade(rev: Any, _context: MigrationContext) -> list[RevisionStep]:
        return script._upgrade_revs("head", rev)

    with engine.begin() as conn, EnvironmentContext(config, script, fn=upgrade,
                                                    destination_rev="head") as env:
        env.configure(connection=conn, target_metadata=metadata)
        with env.begin_transaction():
            env.run_migrations()


def token_hash(token: str) -> str:
    """What the database keeps of a table's token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def table_token(secret: str, salt: str, round_: int, table: int) -> str:
    """The secret of one table game: a keyed hash of its place (32 characters)."""
    mac = hmac.new(secret.encode("utf-8"), f"{salt}:{round_}:{table}".encode(),
                   hashlib.sha256)
    return mac.hexdigest()[:32]


def _now() -> datetime:
    return datetime.now(UTC)


SESSION_HOURS = 12
"""How long a director's session lasts."""

SIDES_RE = re.compile(r"[A-Z]{1,10}")
"""What names a side (``NS``, ``EW``; a seat in the variants where each plays alone)."""


@dataclass(frozen=True)
class Place:
    """A table game of the draw: round, table and the player of each seat (a name, or a
    number of the club's registry)."""

    round: int
    table: int
    seats: dict[str, str | int]


@dataclass(frozen=True)
class Outcome:
    """The answer to an entry: the HTTP status and the JSON body."""

    status: int
    body: dict[str, Any]


class NotFoundError(LookupError):
    """No such event, table game, deal or player."""


class ForbiddenError(PermissionError):
    """A token that does not write this table game."""


class DatabaseDownError(RuntimeError):
    """The database refuses to store anything: ``read-only`` or ``full``
    (:attr:`reason`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the database is {reason}: nothing can be stored now; tell the "
                         "director")
        self.reason = reason


def trouble_of(exc: BaseException) -> str | None:
    """``read-only`` or ``full`` when a database error says the database cannot be
    written, else ``None`` (SQLite's SQLITE_READONLY and SQLITE_FULL, PostgreSQL's
    read-only transactions, 25006, and full disks, 53100)."""
    orig = getattr(exc, "orig", exc)
    state = getattr(orig, "sqlstate", None) or ""
    text = str(orig).lower()
    if state == "25006" or "readonly" in text or "read-only" in text:
        return "read-only"
    if state.startswith("53") or "disk is full" in text or "no space left" in text:
        return "full"
    return None


class Store:
    """The events of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.judge = Judge()
        """Judges the entries, keeping each table game's state between two of them."""
        self.trouble: str | None = None
        """Why the last write failed, when it was for a database that cannot be written
        (``read-only``, ``full``); cleared by the next write that succeeds."""
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._writing: AbstractContextManager[object] = (
            threading.Lock() if engine.dialect.name == "sqlite" else nullcontext())
        """SQLite has one writer at a time: the server's threads take turns here rather than
        in SQLite's busy handler, which sleeps."""

    def _lock(self, game_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One write transaction; a database that cannot be written raises
        :class:`DatabaseDownError`."""
        try:
            with self._writing, self.engine.begin() as conn:
                yield conn
        except sa.exc.IntegrityError:
            raise
        except sa.exc.DBAPIError as exc:
            reason = trouble_of(exc)
            if reason is None:
                raise
            self.trouble = reason
            raise DatabaseDownError(reason) from None
        self.trouble = None

    def health(self) -> str | None:
        """Why the database cannot store anything now (``read-only``, ``full``), or
        ``None``: a write is tried and rolled back (which a read-only database refuses),
        and the last real write's failure counts until a write succeeds."""
        try:
            with self._writing, self.engine.connect() as conn, conn.begin() as tx:
                conn.execute(sa.update(events).where(events.c.id == -1)
                             .values(revision=events.c.revision))
                tx.rollback()
        except sa.exc.DBAPIError as exc:
            reason = trouble_of(exc)
            if reason is None:
                raise
            return reason
        return self.trouble

    def _audit(self, conn: Connection, event_id: int | None, action: str, actor: str,
               detail: Mapping[str, Any], game_id: int | None = None,
               number: int | None = None) -> None:
        conn.execute(sa.insert(audit).values(
            event_id=event_id, game_id=game_id, number=number, action=action, actor=actor,
            detail=json.dumps(detail, ensure_ascii=False), created=_now()))

    # ------------------------------------------------------------ players

    def add_player(self, number: int, name: str) -> None:
        """Registers a player (or renames one) under ``number``."""
        with self._transaction() as conn:
            found = conn.execute(sa.select(players.c.id).where(players.c.number == number)
                                 ).scalar()
            if found is None:
                conn.execute(sa.insert(players).values(number=number, name=name,
                                                       created=_now()))
            else:
                conn.execute(sa.update(players).where(players.c.id == found)
                             .values(name=name))
            self._audit(conn, None, "player", "director", {"number": number, "name": name})

    def players(self) -> list[dict[str, Any]]:
        """The registry: every player's number and name, by number."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(players.c.number, players.c.name)
                                .order_by(players.c.number)).all()
        return [{"number": r.number, "name": r.name} for r in rows]

    def _names(self, conn: Connection, numbers: set[int]) -> dict[int, str]:
        rows = conn.execute(sa.select(players.c.number, players.c.name)
                            .where(players.c.number.in_(sorted(numbers)))).all()
        return {r.number: r.name for r in rows}

    # ------------------------------------------------------------ events

    def create_event(self, name: str, variant: str, fmt: str, target: int | None,
                     draw: Sequence[Place], secret: str, kind: str = "tournament",
                     acceptance: bool | None = None) -> tuple[int, list[dict[str, Any]]]:
        """Creates an event and its table games; returns its id and each table's token
        (derived from ``secret``, the director's token, so that the director's page can
        show the links again; the database keeps only their hashes). A player given by
        number is the registry's (the game's header names them and carries the number).
        ``acceptance``: whether a deal waits for the other side's acceptance (by default,
        for a tournament and not for a casual night).

        :raises DrawError: for a game of the draw the recorder refuses.
        :raises ValueError: for a player number the registry has not.
        """
        wanted = {v for p in draw for v in p.seats.values() if isinstance(v, int)}
        with self.engine.connect() as conn:
            known = self._names(conn, wanted) if wanted else {}
        missing = sorted(wanted - set(known))
        if missing:
            raise ValueError(f"no player number {missing[0]} in the registry")
        places = []
        for p in draw:
            names = {s: known[v] if isinstance(v, int) else v for s, v in p.seats.items()}
            numbers = {s: v for s, v in p.seats.items() if isinstance(v, int)}
            places.append((p, names, game_header(variant, fmt, target, name, p.round,
                                                 p.table, names, numbers)))
        salt = secrets.token_hex(16)
        waits = kind == "tournament" if acceptance is None else acceptance
        tables = []
        with self._transaction() as conn:
            event_id = conn.execute(sa.insert(events).values(
                name=name, variant=variant, format=fmt, target=target, revision=0,
                salt=salt, created=_now(), kind=kind, acceptance=waits)
                .returning(events.c.id)).scalar_one()
            for place, names, header in places:
                token = table_token(secret, salt, place.round, place.table)
                state = {"totals": {}, "over": False, "winner": None,
                         "next": {"deal": 1, "dealer": None}, "seats": names}
                conn.execute(sa.insert(games).values(
                    event_id=event_id, round=place.round, table_no=place.table,
                    token_hash=token_hash(token), header=header, record="", deals=0,
                    state=json.dumps(state)))
                tables.append({"round": place.round, "table": place.table, "token": token})
            self._audit(conn, event_id, "event created", "director",
                        {"name": name, "variant": variant, "format": fmt, "kind": kind,
                         "acceptance": waits, "tables": len(places)})
        return event_id, tables

    def tokens(self, event_id: int, secret: str) -> list[tuple[int, int, str | None]]:
        """Each table game's round, table and token, derived again from ``secret`` (the
        token is ``None`` when the event was created with another director's token)."""
        salt = self.event(event_id)["salt"]
        out = []
        for game in self.games(event_id):
            token = table_token(secret, salt, game["round"], game["table_no"])
            known = hmac.compare_digest(game["token_hash"], token_hash(token))
            out.append((game["round"], game["table_no"], token if known else None))
        return out

    def event(self, event_id: int) -> Mapping[str, Any]:
        """The event's row.

        :raises NotFoundError: when there is none.
        """
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(events).where(events.c.id == event_id)).first()
        if row is None:
            raise NotFoundError(f"no event {event_id}")
        return dict(row._mapping)

    def events(self) -> list[Mapping[str, Any]]:
        """Every event, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(events).order_by(events.c.id.desc())).all()
        return [dict(r._mapping) for r in rows]

    def revision(self, event_id: int) -> int:
        """How many changes the event has had (the live pages watch it)."""
        return int(self.event(event_id)["revision"])

    def games(self, event_id: int) -> list[dict[str, Any]]:
        """The event's table games in round and table order, each with its state and the
        deals waiting for acceptance (``pending``) or disputed (``disputed``)."""
        waiting = (sa.select(deals.c.game_id, deals.c.number, deals.c.status,
                             deals.c.entered_by)
                   .join(games, games.c.id == deals.c.game_id)
                   .where(games.c.event_id == event_id, deals.c.status != "accepted"))
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games).where(games.c.event_id == event_id)
                                .order_by(games.c.round, games.c.table_no)).all()
            open_ = conn.execute(waiting).all()
        out = [_game(dict(r._mapping)) for r in rows]
        by_id = {g["id"]: g for g in out}
        for g in out:
            g["pending"], g["disputed"] = None, []
        for row in open_:
            game = by_id[row.game_id]
            if row.status == "pending":
                game["pending"] = {"deal": row.number, "by": row.entered_by}
            else:
                game["disputed"].append(row.number)
        return out

    def game(self, event_id: int, round_: int, table: int) -> dict[str, Any]:
        """One table game with its state, its deals (``texts``, and each deal's status in
        ``statuses``) and the event's setting of acceptance.

        :raises NotFoundError: when the event has no such game.
        """
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games, events.c.acceptance)
                               .join(events, events.c.id == games.c.event_id).where(
                games.c.event_id == event_id, games.c.round == round_,
                games.c.table_no == table)).first()
            if row is None:
                raise NotFoundError(f"event {event_id} has no table {table} in round {round_}")
            stored = conn.execute(sa.select(deals.c.text, deals.c.status, deals.c.entered_by,
                                            deals.c.accepted_by)
                                  .where(deals.c.game_id == row.id)
                                  .order_by(deals.c.number)).all()
        out = _game(dict(row._mapping))
        out["texts"] = [d.text for d in stored]
        out["statuses"] = [{"deal": n, "status": d.status, "entered_by": d.entered_by,
                            "accepted_by": d.accepted_by} for n, d in enumerate(stored, 1)]
        last = stored[-1] if stored else None
        out["pending"] = ({"deal": len(stored), "by": last.entered_by}
                          if last is not None and last.status == "pending" else None)
        out["disputed"] = [n for n, d in enumerate(stored, 1) if d.status == "disputed"]
        return out

    def records(self, event_id: int) -> str:
        """The event's games that have a deal, in the notation, round by round."""
        self.event(event_id)
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games.c.record).where(
                games.c.event_id == event_id, games.c.deals > 0)
                .order_by(games.c.round, games.c.table_no)).scalars().all()
        return "\n".join(rows)

    def history(self, event_id: int) -> list[dict[str, Any]]:
        """The corrections of the event, oldest first."""
        query = (sa.select(corrections, games.c.round, games.c.table_no)
                 .join(games, games.c.id == corrections.c.game_id)
                 .where(games.c.event_id == event_id).order_by(corrections.c.id))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query).all()]

    def trail(self, event_id: int) -> list[dict[str, Any]]:
        """The event's audit trail, oldest first: each entry, acceptance, dispute and
        correction, with who did it and when."""
        query = (sa.select(audit, games.c.round, games.c.table_no)
                 .outerjoin(games, games.c.id == audit.c.game_id)
                 .where(audit.c.event_id == event_id).order_by(audit.c.id))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [{"round": r.round, "table": r.table_no, "deal": r.number,
                 "action": r.action, "by": r.actor, "detail": json.loads(r.detail),
                 "at": r.created.isoformat()} for r in rows]

    def open_deals(self, event_id: int) -> list[dict[str, Any]]:
        """The event's deals waiting for acceptance or disputed, in round, table and deal
        order: each with its text, the side that entered it and, for a dispute, the
        reason the other side gave (the last dispute's, from the audit trail)."""
        query = (sa.select(deals.c.game_id, deals.c.number, deals.c.status, deals.c.text,
                           deals.c.entered_by, games.c.round, games.c.table_no)
                 .join(games, games.c.id == deals.c.game_id)
                 .where(games.c.event_id == event_id, deals.c.status != "accepted")
                 .order_by(games.c.round, games.c.table_no, deals.c.number))
        why = (sa.select(audit.c.game_id, audit.c.number, audit.c.actor, audit.c.detail)
               .where(audit.c.event_id == event_id, audit.c.action == "disputed")
               .order_by(audit.c.id))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            disputes = {(r.game_id, r.number): (r.actor, json.loads(r.detail).get("reason", ""))
                        for r in conn.execute(why).all()} if rows else {}
        out = []
        for r in rows:
            actor, reason = disputes.get((r.game_id, r.number), ("", ""))
            out.append({"round": r.round, "table": r.table_no, "deal": r.number,
                        "status": r.status, "entered_by": r.entered_by, "text": r.text,
                        "disputed_by": actor if r.status == "disputed" else "",
                        "reason": reason if r.status == "disputed" else ""})
        return out

    # ------------------------------------------------------------ sessions

    def new_session(self, old: str | None = None) -> str:
        """Opens a director's session (ending ``old``, the one the browser had) and
        returns its token (256 random bits; the database keeps its hash)."""
        token = secrets.token_urlsafe(32)
        now = _now()
        with self._transaction() as conn:
            gone = [token_hash(old)] if old else []
            conn.execute(sa.delete(sessions).where(
                sa.or_(sessions.c.expires < now, sessions.c.token_hash.in_(gone))))
            conn.execute(sa.insert(sessions).values(
                token_hash=token_hash(token), created=now,
                expires=now + timedelta(hours=SESSION_HOURS)))
            self._audit(conn, None, "signed in", "director", {})
        return token

    def session_open(self, token: str) -> bool:
        """Whether ``token`` is an open session's."""
        if not token or len(token) > 100:
            return False
        with self.engine.connect() as conn:
            expires = conn.execute(sa.select(sessions.c.expires).where(
                sessions.c.token_hash == token_hash(token))).scalar()
        return expires is not None and _aware(expires) > _now()

    def end_session(self, token: str) -> None:
        """Ends a session: its cookie opens nothing any more."""
        with self._transaction() as conn:
            conn.execute(sa.delete(sessions).where(
                sessions.c.token_hash == token_hash(token)))
            self._audit(conn, None, "signed out", "director", {})

    # ------------------------------------------------------------ entries

    def add_deal(self, event_id: int, round_: int, table: int, token: str, text: str,
                 key: str, by: str | None = None) -> Outcome:
        """Judges and, when accepted, stores one deal of a table game in one transaction;
        entered by the side ``by``, it waits for the other side's acceptance when the event
        asks for it.

        :raises NotFoundError: for a game the event has not.
        :raises ForbiddenError: for a token that does not write this game.
        """
        game = self.game(event_id, round_, table)
        if not hmac.compare_digest(game["token_hash"], token_hash(token)):
            raise ForbiddenError("this token does not write this table's game")
        with self._lock(game["id"]):
            for _attempt in range(5):
                outcome = self._try_add(event_id, round_, table, text, key, by)
                if outcome is not None:
                    return outcome
        return Outcome(503, {"error": "the table's game is busy; send the deal again"})

    def _try_add(self, event_id: int, round_: int, table: int, text: str,
                 key: str, by: str | None) -> Outcome | None:
        game = self.game(event_id, round_, table)
        stored = self._stored(game["id"], key, text)
        if stored is not None:
            return stored
        waits = bool(game["acceptance"])
        pending = game["pending"]
        if pending is not None:
            return Outcome(409, {"error": f"deal {pending['deal']} waits for a player of "
                                          f"the other side to accept it (or dispute it)"})
        verdict = self.judge.judge(game["header"], game["texts"], text, game=game["id"])
        if not verdict.accepted:
            return Outcome(422, verdict.body())
        sides = list(verdict.totals)
        if waits and by not in sides:
            return Outcome(400, {"error": f"by must name the side that enters the deal: "
                                          f"{' or '.join(sides)}"})
        if by is not None and by not in sides:
            return Outcome(400, {"error": f"by must be one of {' '.join(sides)}"})
        body = verdict.body()
        body["deal"] = len(game["texts"]) + 1
        body["status"] = "pending" if waits else "accepted"
        try:
            with self._transaction() as conn:
                conn.execute(sa.insert(deals).values(
                    game_id=game["id"], number=body["deal"], key=key,
                    text=text.replace("\r\n", "\n").rstrip() + "\n",
                    response=json.dumps(body), created=_now(), status=body["status"],
                    entered_by=by))
                self._save(conn, game, verdict, len(game["texts"]))
                self._audit(conn, event_id, "entered", f"table {by}" if by else "table",
                            {"key": key, "status": body["status"], "text": text},
                            game["id"], body["deal"])
                self._bump(conn, event_id)
        except (sa.exc.IntegrityError, _MovedError):
            return None
        return Outcome(201, body)

    @staticmethod
    def _bump(conn: Connection, event_id: int) -> None:
        conn.execute(sa.update(events).where(events.c.id == event_id)
                     .values(revision=events.c.revision + 1))

    def _stored(self, game_id: int, key: str, text: str) -> Outcome | None:
        """The stored answer for a key already used in this game: the same answer (200) for
        the same deal, with the deal's status now, a conflict (409) for another."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(deals.c.text, deals.c.response, deals.c.status)
                               .where(deals.c.game_id == game_id, deals.c.key == key)).first()
        if row is None:
            return None
        if row.text.rstrip() != text.replace("\r\n", "\n").rstrip():
            return Outcome(409, {"error": f"the key {key!r} was used for another deal of "
                                          "this game"})
        body = json.loads(row.response)
        body["status"] = row.status
        return Outcome(200, body)

    def _save(self, conn: Connection, game: Mapping[str, Any], verdict: Verdict,
              known: int, count: int | None = None) -> None:
        """Writes the game's new record and state, if its deals are still ``known``."""
        state = {**verdict.body(), "seats": game["state"]["seats"]}
        del state["accepted"], state["findings"]
        done = conn.execute(sa.update(games).where(games.c.id == game["id"],
                                                   games.c.deals == known)
                            .values(record=verdict.record,
                                    deals=known + 1 if count is None else count,
                                    state=json.dumps(state)))
        if done.rowcount != 1:
            raise _MovedError

    def settle(self, event_id: int, round_: int, table: int, number: int, token: str | None,
               by: str | None, verdict: str, reason: str = "") -> Outcome:
        """A deal's acceptance (``verdict`` ``accepted``) or dispute (``disputed``) by a
        player of the other side (``by``, with the table's ``token``), or the director's
        acceptance of a disputed or pending deal as entered (``token`` ``None``).

        :raises NotFoundError: for a game or deal the event has not.
        :raises ForbiddenError: for a token that does not write this game.
        """
        game = self.game(event_id, round_, table)
        if token is not None and not hmac.compare_digest(game["token_hash"],
                                                         token_hash(token)):
            raise ForbiddenError("this token does not write this table's game")
        if not 1 <= number <= len(game["texts"]):
            raise NotFoundError(f"table {table} of round {round_} has no deal {number}")
        state = game["statuses"][number - 1]
        status, entered = state["status"], state["entered_by"]
        director = token is None
        if status == verdict:
            return Outcome(200, {"deal": number, "status": status})
        if not director:
            sides = list(game["state"]["totals"]) or []
            if by is None or not SIDES_RE.fullmatch(by) or (sides and by not in sides):
                return Outcome(400, {"error": "by must name the side that answers: "
                                              + " or ".join(sides)})
            if by == entered:
                return Outcome(409, {"error": f"{by} entered deal {number}: a player of "
                                              "the other side accepts or disputes it"})
            if status != "pending":
                return Outcome(409, {"error": f"deal {number} is {status}: only the "
                                              "director settles it now"})
        elif verdict != "accepted":
            return Outcome(400, {"error": "the director accepts a deal or corrects it"})
        actor = "director" if director else f"table {by}"
        with self._lock(game["id"]), self._transaction() as conn:
            done = conn.execute(sa.update(deals).where(
                deals.c.game_id == game["id"], deals.c.number == number,
                deals.c.status == status)
                .values(status=verdict, accepted_by=by if verdict == "accepted" else None))
            if done.rowcount != 1:  # (the same answer, sent twice at once, got there first)
                now = conn.execute(sa.select(deals.c.status).where(
                    deals.c.game_id == game["id"], deals.c.number == number)).scalar()
                if now == verdict:
                    return Outcome(200, {"deal": number, "status": verdict})
                return Outcome(409, {"error": f"deal {number} changed meanwhile: look again"})
            self._audit(conn, event_id, verdict, actor, {"reason": reason, "was": status},
                        game["id"], number)
            self._bump(conn, event_id)
        return Outcome(200, {"deal": number, "status": verdict})

    def correct(self, event_id: int, round_: int, table: int, number: int, text: str,
                reason: str) -> Outcome:
        """The director's correction of deal ``number``: judged with the whole game, then
        stored with the old text kept in the history, in one transaction; the deal is then
        accepted (a dispute is settled by the correction).

        :raises NotFoundError: for a game or deal the event has not.
        """
        game = self.game(event_id, round_, table)
        texts: list[str] = game["texts"]
        if not 1 <= number <= len(texts):
            raise NotFoundError(f"table {table} of round {round_} has no deal {number}")
        with self._lock(game["id"]):
            verdict = self.judge.judge(game["header"], texts, text, number - 1,
                                       game=game["id"])
            if not verdict.accepted:
                return Outcome(422, verdict.body())
            new = text.replace("\r\n", "\n").rstrip() + "\n"
            body = {**verdict.body(), "deal": number, "status": "accepted"}
            try:
                with self._transaction() as conn:
                    conn.execute(sa.update(deals).where(
                        deals.c.game_id == game["id"], deals.c.number == number)
                        .values(text=new, response=json.dumps(body), status="accepted"))
                    conn.execute(sa.insert(corrections).values(
                        game_id=game["id"], number=number, old_text=texts[number - 1],
                        new_text=new, reason=reason, created=_now()))
                    self._save(conn, game, verdict, len(texts), len(texts))
                    self._audit(conn, event_id, "corrected", "director",
                                {"reason": reason, "old": texts[number - 1], "new": new},
                                game["id"], number)
                    self._bump(conn, event_id)
            except _MovedError:
                return Outcome(409, {"error": "the game changed meanwhile; correct again"})
        return Outcome(200, body)


class _MovedError(Exception):
    """The game got another deal between the judging and the writing."""


def _aware(when: datetime) -> datetime:
    """A time read back from the database, in UTC (SQLite gives it back naive)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _game(row: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["state"] = json.loads(row["state"])
    return out


def iter_places(draw: Any) -> Iterator[Place]:
    """The places of a draw given as JSON (a list of ``{round, table, seats}``; a seat
    holds a name, or the number of a player of the registry).

    :raises ValueError: for anything else, saying what.
    """
    if not isinstance(draw, list) or not draw:
        raise ValueError("draw must be a non-empty list of {round, table, seats}")
    seen: set[tuple[int, int]] = set()
    for i, item in enumerate(draw, 1):
        if not isinstance(item, dict) or set(item) - {"round", "table", "seats"}:
            raise ValueError(f"draw item {i} must be an object of round, table and seats")
        round_, table, seats = item.get("round"), item.get("table"), item.get("seats")
        for label, value in (("round", round_), ("table", table)):
            if not _whole(value, 999):
                raise ValueError(f"draw item {i}: {label} must be a whole number 1 to 999")
        assert isinstance(round_, int) and isinstance(table, int)
        if (round_, table) in seen:
            raise ValueError(f"draw item {i}: round {round_} table {table} is drawn twice")
        seen.add((round_, table))
        if not isinstance(seats, dict) or not seats or not all(
                isinstance(k, str) and len(k) <= 10 and (_whole(v, MAX_PLAYER) or (
                    isinstance(v, str) and 0 < len(v.strip()) <= 60 and text_ok(v)
                    and v.isprintable())) for k, v in seats.items()):
            raise ValueError(f"draw item {i}: seats must map seats (N, E, S, W) to names "
                             "of 1 to 60 printable characters or players' numbers")
        yield Place(round_, table, {k.strip().upper(): v.strip() if isinstance(v, str) else v
                                    for k, v in seats.items()})


MAX_PLAYER = 999_999
"""The largest player number of the registry."""


def _whole(value: Any, most: int) -> bool:
    """Whether ``value`` is a whole number (not a boolean) from 1 to ``most``."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most


def text_ok(text: str) -> bool:
    """Whether text can be stored as it is: no NUL and no lone surrogate (which
    PostgreSQL refuses, and which no one types)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
