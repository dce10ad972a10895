"""What the ``euchrelog serve`` tests share: the real server as a subprocess on loopback, a
fresh database of each backend, and deals to enter, made by the project's generator."""

from __future__ import annotations

import dataclasses
import os
import random
import re
import resource
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Log
from euchrelog.notation.writer import dumps
from euchrelog.seats import Seat

DIRECTOR = "director-secret-for-tests"
"""The director's token every test server is started with."""

POSTGRES = os.environ.get("EUCHRELOG_TEST_POSTGRES") or None  # (set but empty: none)
"""A libpq URL of a PostgreSQL server the tests may create databases in, or None."""

BACKENDS = ["sqlite", "postgresql"]

_READY = re.compile(r"listening on (http://\S+?)/? \(")


@contextmanager
def database(backend: str, folder: Path) -> Iterator[str]:
    """A fresh, empty database of ``backend`` as a ``--db`` value (dropped afterwards)."""
    if backend == "sqlite":
        yield str(folder / "event.sqlite")
        return
    if POSTGRES is None:
        pytest.skip("EUCHRELOG_TEST_POSTGRES is not set (.ci/postgres starts a server)")
    import sqlalchemy as sa

    from euchrelog.serve.store import database_url

    name = f"euchrelog_t_{secrets.token_hex(6)}"
    admin = sa.create_engine(database_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    base, _, _ = POSTGRES.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Server:
    """``euchrelog serve`` running as a subprocess on 127.0.0.1, on a free port."""

    def __init__(self, db: str, folder: Path, *options: str, files: int | None = None,
                 healthy: bool = True) -> None:
        self.db = db
        self.folder = folder
        self.options = options
        """More options of ``euchrelog serve``."""
        self.files = files
        """The soft limit of open files the server starts with (its hard one is kept)."""
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.banner = ""
        self.start(healthy)

    def start(self, healthy: bool = True) -> None:
        """Starts the server (the director's token in its environment) and waits until it
        prints its address and, when ``healthy``, answers /health with 200."""
        files = self.files

        def limit() -> None:
            if files is not None:
                _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))

        self.process = subprocess.Popen(
            [sys.executable, "-m", "euchrelog", "serve", "--db", self.db, "--port", "0",
             *self.options],
            stdout=subprocess.PIPE, stderr=open(self.folder / "server.log", "a"),  # noqa: SIM115
            text=True, cwd=self.folder, preexec_fn=limit,
            env={**os.environ, "EUCHRELOG_DIRECTOR_TOKEN": DIRECTOR})
        assert self.process.stdout is not None
        deadline = time.monotonic() + 60
        banner = []
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            banner.append(line)
            found = _READY.search(line)
            if found:
                self.url = found.group(1)
            if line.startswith("director token:"):
                break
        self.banner = "".join(banner)
        assert self.url, f"the server did not start: {self.banner}"
        assert DIRECTOR not in self.banner
        if healthy:
            assert httpx.get(self.url + "/health").status_code == 200

    def stop(self) -> None:
        """Stops the server (SIGTERM), if it runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
        self.process = None

    def kill(self) -> None:
        """Kills the server with SIGKILL: no shutdown, no flush."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.process = None

    def client(self, **kwargs: Any) -> httpx.Client:
        """An HTTP client of the server."""
        return httpx.Client(base_url=self.url, timeout=60, **kwargs)

    def director(self) -> httpx.Client:
        """A client that sends the director's token."""
        return self.client(headers={"authorization": f"Bearer {DIRECTOR}"})


@contextmanager
def running(backend: str, folder: Path, *options: str) -> Iterator[Server]:
    """A server over a fresh database of ``backend`` (with more ``options``)."""
    with database(backend, folder) as db:
        server = Server(db, folder, *options)
        try:
            yield server
        finally:
            server.stop()


def draw(rounds: int, tables: int) -> list[dict[str, Any]]:
    """A draw of four players a table, with a fresh set of names each round and table."""
    return [{"round": r, "table": t, "seats": {
        s: f"P{r}.{t}{s}" for s in "NESW"}} for r in range(1, rounds + 1)
        for t in range(1, tables + 1)]


def deal_texts(seed: int, deals: int | None, detail: str = "score-sheet",
               target: int = 10) -> list[str]:
    """The deals of one random four-hand game of ``deals`` deals, or else to ``target``
    (North deals first), each as a table would enter it."""
    base = ruleset_for("four-hand")
    rules = dataclasses.replace(base, options=dataclasses.replace(
        base.options, deals=deals, target=target))
    game = random_game(random.Random(seed), rules, first_dealer=Seat.N,
                       detail=detail)  # type: ignore[arg-type]
    blocks = dumps(Log(games=(game,))).split("\n\n")
    return [b.strip("\n") + "\n" for b in blocks if b.startswith("deal ")]


def create_event(server: Server, rounds: int, tables: int, deals: int,
                 name: str = "Test Progressive", acceptance: bool = False
                 ) -> tuple[int, dict[tuple[int, int], str]]:
    """Creates a progressive event of ``deals`` deals a game (where a deal waits for the
    other side's acceptance only with ``acceptance``); returns its id and the token of
    each (round, table)."""
    with server.director() as client:
        answer = client.post("/api/events", json={
            "name": name, "variant": "four-hand", "format": f"progressive deals={deals}",
            "draw": draw(rounds, tables), "acceptance": acceptance})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["event"], {(t["round"], t["table"]): t["token"] for t in body["tables"]}


def deals_url(event: int, round_: int, table: int) -> str:
    """Where a table posts its deals."""
    return f"/api/events/{event}/rounds/{round_}/tables/{table}/deals"


def score_export(server: Server, event: int, folder: Path) -> tuple[str, str]:
    """Runs ``euchrelog serve export`` and ``euchrelog score --format json`` on what it
    wrote; returns the export's text and score's output."""
    out = folder / "export"
    subprocess.run([sys.executable, "-m", "euchrelog", "serve", "export", "--db", server.db,
                    "-o", str(out), "--event", str(event)], check=True, capture_output=True)
    name = f"event-{event}.euchre"
    scored = subprocess.run([sys.executable, "-m", "euchrelog", "score", name, "--format",
                             "json", "-q"], cwd=out, capture_output=True, text=True)
    assert scored.returncode in (0, 1), scored.stderr
    return (out / name).read_text("utf-8"), scored.stdout


def signed_in(server: Server, **headers: str) -> tuple[httpx.Client, str]:
    """A client signed in as the director through the form, and its CSRF token."""
    client = server.client(headers=headers)
    page = client.get("/director").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert csrf is not None
    answer = client.post("/director/login", data={"csrf": csrf.group(1), "token": DIRECTOR})
    assert answer.status_code == 303
    return client, csrf.group(1)


EDITS = "NESWCDHS9TJQKA0123456789 \n#[]\"dealerpointstrumpmakeralonetricksrenege"
"""What :func:`edited` inserts: the notation's letters, digits and words."""


def edited(text: str, rng: random.Random, most: int = 4, letters: str = EDITS) -> str:
    """``text`` with 1 to ``most`` random edits: a character deleted, or one of ``letters``
    inserted (an entry a table might mistype)."""
    chars = list(text)
    for _ in range(rng.randint(1, most)):
        at = rng.randrange(len(chars))
        if rng.random() < 0.5:
            del chars[at]
        else:
            chars.insert(at, rng.choice(letters))
    return "".join(chars)
