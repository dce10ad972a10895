"""The server's database: events, their table games, the deals entered and the corrections.

SQLAlchemy Core over SQLite (a file: WAL journal, ``synchronous=FULL``, so that a commit is
on disk before the server answers) or PostgreSQL (psycopg 3); the schema is made and
upgraded by the Alembic migrations shipped in :mod:`euchrelog.serve.migrations`. Every
accepted entry is one transaction: the deal, its game's new record and the event's
revision are committed together or not at all. Every statement is parameterised.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
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


@dataclass(frozen=True)
class Place:
    """A table game of the draw: round, table and the players by seat."""

    round: int
    table: int
    seats: dict[str, str]


@dataclass(frozen=True)
class Outcome:
    """The answer to an entry: the HTTP status and the JSON body."""

    status: int
    body: dict[str, Any]


class NotFoundError(LookupError):
    """No such event or table game."""


class ForbiddenError(PermissionError):
    """A token that does not write this table game."""


class Store:
    """The events of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.judge = Judge()
        """Judges the entries, keeping each table game's state between two of them."""
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._writing: AbstractContextManager[object] = (
            threading.Lock() if engine.dialect.name == "sqlite" else nullcontext())
        """SQLite has one writer at a time: the server's threads take turns here rather than
        in SQLite's busy handler, which sleeps."""

    def _lock(self, game_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    # ------------------------------------------------------------ events

    def create_event(self, name: str, variant: str, fmt: str, target: int | None,
                     draw: Sequence[Place], secret: str) -> tuple[int, list[dict[str, Any]]]:
        """Creates an event and its table games; returns its id and each table's token
        (derived from ``secret``, the director's token, so that the director's page can
        show the links again; the database keeps only their hashes).

        :raises DrawError: for a game of the draw the recorder refuses.
        """
        headers = [game_header(variant, fmt, target, name, p.round, p.table, p.seats)
                   for p in draw]
        salt = secrets.token_hex(16)
        tables = []
        with self._writing, self.engine.begin() as conn:
            event_id = conn.execute(sa.insert(events).values(
                name=name, variant=variant, format=fmt, target=target, revision=0,
                salt=salt, created=_now()).returning(events.c.id)).scalar_one()
            for place, header in zip(draw, headers, strict=True):
                token = table_token(secret, salt, place.round, place.table)
                state = {"totals": {}, "over": False, "winner": None,
                         "next": {"deal": 1, "dealer": None}, "seats": place.seats}
                conn.execute(sa.insert(games).values(
                    event_id=event_id, round=place.round, table_no=place.table,
                    token_hash=token_hash(token), header=header, record="", deals=0,
                    state=json.dumps(state)))
                tables.append({"round": place.round, "table": place.table, "token": token})
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
        """The event's table games in round and table order, each with its state."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games).where(games.c.event_id == event_id)
                                .order_by(games.c.round, games.c.table_no)).all()
        return [_game(dict(r._mapping)) for r in rows]

    def game(self, event_id: int, round_: int, table: int) -> dict[str, Any]:
        """One table game with its state and deals.

        :raises NotFoundError: when the event has no such game.
        """
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(
                games.c.event_id == event_id, games.c.round == round_,
                games.c.table_no == table)).first()
            if row is None:
                raise NotFoundError(f"event {event_id} has no table {table} in round {round_}")
            texts = conn.execute(sa.select(deals.c.text).where(deals.c.game_id == row.id)
                                 .order_by(deals.c.number)).scalars().all()
        out = _game(dict(row._mapping))
        out["texts"] = list(texts)
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

    # ------------------------------------------------------------ entries

    def add_deal(self, event_id: int, round_: int, table: int, token: str, text: str,
                 key: str) -> Outcome:
        """Judges and, when accepted, stores one deal of a table game in one transaction.

        :raises NotFoundError: for a game the event has not.
        :raises ForbiddenError: for a token that does not write this game.
        """
        game = self.game(event_id, round_, table)
        if not hmac.compare_digest(game["token_hash"], token_hash(token)):
            raise ForbiddenError("this token does not write this table's game")
        with self._lock(game["id"]):
            for _attempt in range(5):
                outcome = self._try_add(event_id, round_, table, text, key)
                if outcome is not None:
                    return outcome
        return Outcome(503, {"error": "the table's game is busy; send the deal again"})

    def _try_add(self, event_id: int, round_: int, table: int, text: str,
                 key: str) -> Outcome | None:
        game = self.game(event_id, round_, table)
        stored = self._stored(game["id"], key, text)
        if stored is not None:
            return stored
        verdict = self.judge.judge(game["header"], game["texts"], text, game=game["id"])
        if not verdict.accepted:
            return Outcome(422, verdict.body())
        body = verdict.body()
        body["deal"] = len(game["texts"]) + 1
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(sa.insert(deals).values(
                    game_id=game["id"], number=body["deal"], key=key,
                    text=text.replace("\r\n", "\n").rstrip() + "\n",
                    response=json.dumps(body), created=_now()))
                self._save(conn, game, verdict, len(game["texts"]))
                conn.execute(sa.update(events).where(events.c.id == event_id)
                             .values(revision=events.c.revision + 1))
        except (sa.exc.IntegrityError, _MovedError):
            return None
        return Outcome(201, body)

    def _stored(self, game_id: int, key: str, text: str) -> Outcome | None:
        """The stored answer for a key already used in this game: the same answer (200) for
        the same deal, a conflict (409) for another."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(deals.c.text, deals.c.response).where(
                deals.c.game_id == game_id, deals.c.key == key)).first()
        if row is None:
            return None
        if row.text.rstrip() != text.replace("\r\n", "\n").rstrip():
            return Outcome(409, {"error": f"the key {key!r} was used for another deal of "
                                          "this game"})
        return Outcome(200, json.loads(row.response))

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

    def correct(self, event_id: int, round_: int, table: int, number: int, text: str,
                reason: str) -> Outcome:
        """The director's correction of deal ``number``: judged with the whole game, then
        stored with the old text kept in the history, in one transaction.

        :raises NotFoundError: for a game or deal the event has not.
        """
        game = self.game(event_id, round_, table)
        texts: list[str] = game["texts"]
        if not 1 <= number <= len(texts):
            raise NotFoundError(f"table {table} of round {round_} has no deal {number}")
        with self._lock(game["id"]):
            verdict = self.judge.judge(game["header"], texts, text, number - 1, game=game["id"])
            if not verdict.accepted:
                return Outcome(422, verdict.body())
            new = text.replace("\r\n", "\n").rstrip() + "\n"
            body = {**verdict.body(), "deal": number}
            try:
                with self._writing, self.engine.begin() as conn:
                    conn.execute(sa.update(deals).where(
                        deals.c.game_id == game["id"], deals.c.number == number)
                        .values(text=new, response=json.dumps(body)))
                    conn.execute(sa.insert(corrections).values(
                        game_id=game["id"], number=number, old_text=texts[number - 1],
                        new_text=new, reason=reason, created=_now()))
                    self._save(conn, game, verdict, len(texts), len(texts))
                    conn.execute(sa.update(events).where(events.c.id == event_id)
                                 .values(revision=events.c.revision + 1))
            except _MovedError:
                return Outcome(409, {"error": "the game changed meanwhile; correct again"})
        return Outcome(200, body)


class _MovedError(Exception):
    """The game got another deal between the judging and the writing."""


def _game(row: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["state"] = json.loads(row["state"])
    return out


def iter_places(draw: Any) -> Iterator[Place]:
    """The places of a draw given as JSON (a list of ``{round, table, seats}``).

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
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 999:
                raise ValueError(f"draw item {i}: {label} must be a whole number 1 to 999")
        assert isinstance(round_, int) and isinstance(table, int)
        if (round_, table) in seen:
            raise ValueError(f"draw item {i}: round {round_} table {table} is drawn twice")
        seen.add((round_, table))
        if not isinstance(seats, dict) or not seats or not all(
                isinstance(k, str) and isinstance(v, str) and 0 < len(v.strip()) <= 60
                and v.isprintable() for k, v in seats.items()):
            raise ValueError(f"draw item {i}: seats must map seats (N, E, S, W) to names "
                             "of 1 to 60 printable characters")
        yield Place(round_, table, {k.strip().upper(): v.strip() for k, v in seats.items()})
