"""``euchrelog serve`` under the attacks of issue 42 (D1-D12), each tried against the real
server on loopback: each test failed on 72fdb3c and holds now.

- D1: idle and half-sent connections are closed after a timeout; 1,100 of them leave
  ``/health`` answering within a second, with no flood of the log; requests beyond the
  bound and connections beyond the cap get a clear 503.
- D2: failed authentications are limited per client, on every authenticated endpoint;
  given tokens are at least 16 characters, made ones at least 128 bits.
- D3: the director's sessions are kept on the server, rotated at sign-in, ended at
  sign-out, ``Secure`` over HTTPS.
- D6-D8: NUL characters, lone surrogates, JSON nested 5,000 deep and numbers of 21 digits
  are 4xx answers with a message, and nothing is stored.
- D9: "listening on" is printed once the server accepts connections.
- D10: a read-only or full database is a clear 503, and ``/health`` says so.
- D11: the cap of live streams holds in a burst, and idle streams cost little.
- D12: the director's token comes from the environment or a file and is never echoed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.serving import (
    BACKENDS,
    DIRECTOR,
    POSTGRES,
    Server,
    create_event,
    database,
    deals_url,
    running,
    signed_in,
)

SHEET_1 = "deal 1 dealer N\n  trump H maker E alone tricks 5\n"


def _files(wanted: int) -> None:
    """Raises this process's soft limit of open files to ``wanted`` (skips when the hard
    limit is lower)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this process may open only {hard} files")
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _address(server: Server) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def _cpu(server: Server) -> float:
    """The server process's CPU time so far, in seconds."""
    assert server.process is not None
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    with running("sqlite", tmp_path) as started:
        yield started


# ---------------------------------------------------------------- D1


def test_d1_idle_and_half_sent_connections_leave_health_answering(tmp_path: Path) -> None:
    """1,100 connections, half of them idle and half sending a request's head without its
    end, against a server started with the common limit of 1,024 open files: /health
    answers within a second, the log stays small, and the server closes them all after
    its idle timeout."""
    _files(4096)
    with database("sqlite", tmp_path) as db:
        server = Server(db, tmp_path, "--idle-timeout", "3", files=1024)
        held: list[socket.socket] = []
        try:
            address = _address(server)
            for n in range(1100):
                sock = socket.create_connection(address, timeout=10)
                if n % 2:
                    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                held.append(sock)
            start = time.monotonic()
            answer = httpx.get(server.url + "/health", timeout=1.0)
            assert answer.status_code == 200 and time.monotonic() - start < 1.0
            time.sleep(5)  # past the idle timeout
            closed = 0
            for sock in held[::50]:
                sock.settimeout(2)
                try:
                    closed += sock.recv(1024) == b""
                except ConnectionResetError:
                    closed += 1
            assert closed == len(held[::50])
            assert httpx.get(server.url + "/health", timeout=1.0).status_code == 200
        finally:
            for sock in held:
                sock.close()
            server.stop()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert len(log) < 20_000 and "Traceback" not in log


def test_d1_requests_beyond_the_bound_get_a_clear_503(sqlite_server: Server) -> None:
    """300 requests whose bodies trickle in hold the server's places for requests (256):
    one more is answered 503 with a message, at once; when they are gone, all is well."""
    address = _address(sqlite_server)
    held = []
    try:
        for _ in range(300):
            sock = socket.create_connection(address, timeout=10)
            sock.sendall(b"POST /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                         + DIRECTOR.encode() + b"\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{")
            held.append(sock)
        time.sleep(1)
        answer = httpx.get(sqlite_server.url + "/api/events/1", timeout=10)
        assert answer.status_code == 503
        assert answer.json() == {"error": "the server is busy: try again in a moment"}
        assert answer.headers["retry-after"] == "1"
    finally:
        for sock in held:
            sock.close()
    time.sleep(1)
    assert httpx.get(sqlite_server.url + "/health", timeout=2).status_code == 200


def test_d1_connections_beyond_the_cap_are_answered_503(tmp_path: Path) -> None:
    """With a hard limit of 512 open files the server holds at most 384 connections: the
    ones beyond are answered 503 and closed at once, not left to exhaust its files."""
    with database("sqlite", tmp_path) as db:
        server = Server(db, tmp_path, files=None)
        server.stop()
        server.files = 512

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))

        server.process = subprocess.Popen(
            [sys.executable, "-m", "euchrelog", "serve", "--db", db, "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
            preexec_fn=limit, env={**os.environ, "EUCHRELOG_DIRECTOR_TOKEN": DIRECTOR})
        assert server.process.stdout is not None
        line = server.process.stdout.readline()
        found = re.search(r"listening on (http://\S+?)/? \(", line)
        assert found, line
        server.url = found.group(1)
        held = []
        try:
            address = _address(server)
            for _ in range(420):
                held.append(socket.create_connection(address, timeout=10))
            time.sleep(0.5)
            turned = 0
            for sock in held[380:]:
                sock.settimeout(2)
                with contextlib.suppress(TimeoutError):
                    turned += sock.recv(1024).startswith(b"HTTP/1.1 503")
            assert turned >= 30
        finally:
            for sock in held:
                sock.close()
            server.stop()


# ---------------------------------------------------------------- D2


def test_d2_guessing_a_token_is_limited_per_client(sqlite_server: Server) -> None:
    """Wrong director's tokens sent 40 at a time: after the budget of failures (30) the
    client is refused (429, Retry-After) before its token is even compared, on the API,
    at sign-in and with a table's token."""
    event, _ = create_event(sqlite_server, 1, 1, 2)
    spec = {"name": "x", "draw": [{"round": 1, "table": 1, "seats": {"N": "a"}}]}

    def guess(n: int) -> int:
        with sqlite_server.client(headers={"authorization": f"Bearer guess-{n:012d}"}) as c:
            return c.post("/api/events", json=spec).status_code

    start = time.monotonic()
    with ThreadPoolExecutor(40) as pool:
        statuses = list(pool.map(guess, range(80)))
    given_back = (time.monotonic() - start) * 30 / 60  # (30 failures a minute)
    assert statuses.count(403) <= 30 + given_back + 1
    assert statuses.count(429) >= 49 - given_back
    assert set(statuses) == {403, 429}
    refused = sqlite_server.client(headers={"authorization": "Bearer another-guess-123"}) \
        .post("/api/events", json=spec)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    table = sqlite_server.client(headers={"authorization": f"Bearer {'0' * 32}"})
    assert table.post(deals_url(event, 1, 1), json={"text": SHEET_1, "key": "g"}) \
        .status_code == 429
    client = sqlite_server.client()
    page = client.get("/director").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert csrf is not None
    sign_in = client.post("/director/login", data={"csrf": csrf.group(1), "token": "guess"})
    assert sign_in.status_code == 429


def test_d2_tokens_are_long(tmp_path: Path) -> None:
    """A director's token given shorter than 16 characters is refused; one made by the
    server has 192 random bits; tables' tokens 128; sessions 256."""
    short = subprocess.run(
        [sys.executable, "-m", "euchrelog", "serve", "--db", str(tmp_path / "a.sqlite")],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "EUCHRELOG_DIRECTOR_TOKEN": "only-15-chars!!"})
    assert short.returncode == 2 and "at least 16" in short.stderr
    assert "only-15" not in short.stderr + short.stdout
    with running("sqlite", tmp_path) as server:
        _, tokens = create_event(server, 1, 2, 1)
        assert all(re.fullmatch(r"[0-9a-f]{32}", t) for t in tokens.values())
        client, _ = signed_in(server)
        assert len(client.cookies["euchrelog_director"]) >= 43


# ---------------------------------------------------------------- D3


def test_d3_sessions_rotate_at_sign_in_and_end_at_sign_out(sqlite_server: Server) -> None:
    first, csrf = signed_in(sqlite_server)
    old = first.cookies["euchrelog_director"]
    answer = first.post("/director/login", data={"csrf": csrf, "token": DIRECTOR})
    assert answer.status_code == 303
    new = first.cookies["euchrelog_director"]
    assert new != old
    stale = sqlite_server.client(cookies={"euchrelog_director": old})
    assert "Sign in" in stale.get("/director").text  # the old session was ended
    copied = sqlite_server.client(cookies={"euchrelog_director": new})
    assert "New event" in copied.get("/director").text
    assert first.post("/director/logout", data={"csrf": csrf}).status_code == 303
    assert "Sign in" in copied.get("/director").text  # a copied cookie opens nothing now
    event, _ = create_event(sqlite_server, 1, 1, 1)
    assert copied.get(f"/director/events/{event}").status_code == 403


def test_d3_the_session_cookie_is_secure_over_https(sqlite_server: Server) -> None:
    """Behind a reverse proxy that says the page was asked for over HTTPS (the proxy runs
    on this machine, which the server trusts by default), the cookies are ``Secure``."""
    client = sqlite_server.client(headers={"x-forwarded-proto": "https"})
    page = client.get("/director")
    assert "secure" in page.headers["set-cookie"].lower()
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert csrf is not None
    # (a Secure cookie is not sent back over plain HTTP: the test sends it itself)
    answer = client.post("/director/login", data={"csrf": csrf.group(1), "token": DIRECTOR},
                         headers={"cookie": f"euchrelog_csrf={csrf.group(1)}"})
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("euchrelog_director=") and "; secure" in cookie.lower()
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    plain = sqlite_server.client().get("/director")
    assert "secure" not in plain.headers["set-cookie"].lower()


# ---------------------------------------------------------------- D6-D8


@pytest.fixture(scope="module", params=BACKENDS)
def shared(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(request.param, tmp_path_factory.mktemp(request.param)) as started:
        yield started


def _unchanged(server: Server, event: int) -> tuple[int, str]:
    client = server.client()
    return (client.get(f"/api/events/{event}").json()["revision"],
            client.get(f"/api/events/{event}/records").text)


def test_d6_to_d8_bad_input_is_a_4xx_with_a_message_and_nothing_is_stored(
        shared: Server) -> None:
    event, tokens = create_event(shared, 1, 1, 3)
    table = shared.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
    director = shared.director()
    url = deals_url(event, 1, 1)
    assert table.post(url, json={"text": SHEET_1, "key": "first"}).status_code == 201
    before = _unchanged(shared, event)
    deep = b'{"text": ' + b"[" * 5000 + b"]" * 5000 + b', "key": "deep"}'
    tries: list[tuple[httpx.Client, str, str, dict[str, Any]]] = [
        (table, "POST", url, {"json": {"text": "deal 2 dealer E  # a\x00b\n  trump S maker S "
                                               "tricks 3\n", "key": "nul"}}),
        (table, "POST", url, {"content": b'{"text": "deal 2 dealer E  # \\ud800\\n  trump S '
                                         b'maker S tricks 3\\n", "key": "sur"}',
                              "headers": {"content-type": "application/json"}}),
        (table, "POST", url, {"content": deep,
                              "headers": {"content-type": "application/json"}}),
        (table, "POST", url, {"content": b"\xff\xfe{", "headers": {
            "content-type": "application/json"}}),
        (director, "PUT", url + "/1", {"json": {"text": SHEET_1, "reason": "a\x00b"}}),
        (director, "PUT", url + "/1", {"content": b'{"text": "deal 1 dealer N\\n  trump H '
                                       b'maker E tricks 3\\n", "reason": "\\udc80"}',
                                       "headers": {"content-type": "application/json"}}),
        (director, "PUT", url + "/1", {"content": b'{"text": ' + b"[" * 5000 + b"]" * 5000
                                       + b"}", "headers": {"content-type": "application/json"}}),
        (director, "POST", "/api/events", {"content": b"[" * 5000 + b"]" * 5000}),
        (director, "POST", "/api/events", {"json": {"name": "x\x00", "draw": []}}),
        (director, "POST", "/api/players", {"json": {"number": 10**20, "name": "Ann"}}),
        (director, "POST", "/api/players", {"json": {"number": 7, "name": "A\x00nn"}}),
        (table, "POST", url + "/1/accept", {"json": {"by": "EW", "reason": "\x00"}}),
    ]
    for client, method, path, kwargs in tries:
        answer = client.request(method, path, **kwargs)
        assert 400 <= answer.status_code < 500, (path, kwargs, answer.text)
        assert answer.json()["error"], (path, kwargs)
    assert _unchanged(shared, event) == before

    signed, csrf = signed_in(shared)
    form = {"csrf": csrf, "round": "1", "table": "1", "deal": "1", "reason": "r",
            "text": "deal 1 dealer N\n  trump H maker E tricks 3\n"}
    for wrong in ({"round": "1" * 21}, {"deal": "123456789012345678901"}, {"table": "-1"},
                  {"reason": "a\x00b"}):
        answer = signed.post(f"/director/events/{event}/correct", data={**form, **wrong})
        assert 400 <= answer.status_code < 500 and "<h1>" in answer.text, wrong
    nul_form = signed.post(f"/director/events/{event}/correct",
                           content=b"csrf=" + csrf.encode() + b"&round=1&table=1&deal=1"
                                   b"&reason=%ED%A0%80&text=x",
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert nul_form.status_code == 400
    assert _unchanged(shared, event) == before


# ---------------------------------------------------------------- D9


def test_d9_listening_is_printed_once_connections_are_accepted(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as db:
        Server(db, tmp_path).stop()  # (the database made and migrated)
        for _ in range(10):
            process = subprocess.Popen(
                [sys.executable, "-m", "euchrelog", "serve", "--db", db, "--port", "0"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
                env={**os.environ, "EUCHRELOG_DIRECTOR_TOKEN": DIRECTOR})
            try:
                assert process.stdout is not None
                line = process.stdout.readline()
                found = re.search(r"listening on http://([\d.]+):(\d+)/", line)
                assert found, line
                with socket.create_connection((found.group(1), int(found.group(2))),
                                              timeout=5) as sock:
                    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    assert sock.recv(64).startswith(b"HTTP/1.1 200")
            finally:
                process.terminate()
                process.wait(30)


# ---------------------------------------------------------------- D10


def _read_only(backend: str, db: str, tmp_path: Path) -> str:
    """``db`` (made and holding an event), as a database that cannot be written."""
    if backend == "sqlite":
        return f"sqlite:///file:{db}?mode=ro&uri=true"
    import sqlalchemy as sa

    from euchrelog.serve.store import database_url

    name = db.rsplit("/", 1)[1]
    assert POSTGRES is not None
    admin = sa.create_engine(database_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'ALTER DATABASE "{name}" SET default_transaction_read_only '
                             "= on"))
    admin.dispose()
    return db


@pytest.mark.parametrize("backend", BACKENDS)
def test_d10_a_read_only_database_is_a_clear_503(backend: str, tmp_path: Path) -> None:
    with database(backend, tmp_path) as db:
        server = Server(db, tmp_path)
        event, tokens = create_event(server, 1, 1, 3)
        server.stop()
        server = Server(_read_only(backend, db, tmp_path), tmp_path, healthy=False)
        try:
            health = httpx.get(server.url + "/health")
            assert health.status_code == 503
            assert health.json()["database"] == "read-only"
            table = server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
            answer = table.post(deals_url(event, 1, 1), json={"text": SHEET_1, "key": "r"})
            assert answer.status_code == 503
            assert "read-only" in answer.json()["error"]
            assert server.client().get(f"/api/events/{event}/standings").status_code == 200
        finally:
            server.stop()


def test_d10_a_full_database_is_a_clear_503(tmp_path: Path) -> None:
    """SQLite refusing to grow (its page limit: the error of a full disk, SQLITE_FULL)."""
    import sqlalchemy as sa
    from starlette.testclient import TestClient

    from euchrelog.serve.app import Settings, create_app
    from euchrelog.serve.store import Store, connect, iter_places, migrate

    engine = connect(str(tmp_path / "full.sqlite"))
    migrate(engine)
    store = Store(engine)
    event, tables = store.create_event(
        "Full", "four-hand", "progressive deals=40", None, list(iter_places(
            [{"round": 1, "table": 1, "seats": {"N": "a", "E": "b", "S": "c", "W": "d"}}])),
        DIRECTOR, acceptance=False)
    with engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()

    @sa.event.listens_for(engine, "connect")
    def small(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    engine.dispose()
    app = create_app(store, Settings(DIRECTOR))
    with TestClient(app) as client:
        token = tables[0]["token"]
        texts = [f"deal {n} dealer {'NESW'[(n - 1) % 4]}\n  trump H maker E tricks 3\n"
                 f"  # {'x' * 3000}\n" for n in range(1, 41)]
        statuses = []
        for n, text in enumerate(texts):
            answer = client.post(f"/api/events/{event}/rounds/1/tables/1/deals",
                                 json={"text": text, "key": f"k{n}"},
                                 headers={"authorization": f"Bearer {token}"})
            statuses.append(answer.status_code)
            if answer.status_code != 201:
                break
        assert statuses[-1] == 503, statuses
        assert "full" in answer.json()["error"]
        health = client.get("/health")
        assert health.status_code == 503 and health.json()["database"] == "full"


# ---------------------------------------------------------------- D11


async def _open_streams(host: str, port: int, event: int, count: int) -> list[bytes]:
    """Opens ``count`` streams at once; the first line of each answer."""
    async def one() -> tuple[bytes, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /api/events/{event}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        return await asyncio.wait_for(reader.readline(), 20), writer

    answers = await asyncio.gather(*(one() for _ in range(count)))
    for _, writer in answers:
        writer.close()
    return [line for line, _ in answers]


def test_d11_the_stream_cap_holds_in_a_burst(sqlite_server: Server) -> None:
    _files(4096)
    event, _ = create_event(sqlite_server, 1, 1, 2)
    host, port = _address(sqlite_server)
    lines = asyncio.run(_open_streams(host, port, event, 700))
    opened = sum(line.startswith(b"HTTP/1.1 200") for line in lines)
    refused = sum(line.startswith(b"HTTP/1.1 503") for line in lines)
    assert opened <= 500 and opened + refused == 700, (opened, refused)


def test_d11_idle_streams_cost_little(sqlite_server: Server) -> None:
    """400 streams of one event left open for 10 seconds: the server spends less than a
    second of CPU on them (one look at the database every half second for them all)."""
    _files(4096)
    event, _ = create_event(sqlite_server, 1, 1, 2)
    host, port = _address(sqlite_server)
    held = []
    try:
        for _ in range(400):
            sock = socket.create_connection((host, port), timeout=10)
            sock.sendall(f"GET /api/events/{event}/stream HTTP/1.1\r\nHost: x\r\n\r\n"
                         .encode())
            held.append(sock)
        time.sleep(3)
        start = _cpu(sqlite_server)
        time.sleep(10)
        spent = _cpu(sqlite_server) - start
    finally:
        for sock in held:
            sock.close()
    assert spent < 1.0, spent


# ---------------------------------------------------------------- D12


def test_d12_the_director_token_is_never_echoed(tmp_path: Path) -> None:
    """From the environment or a file, never on the command line (where ``ps`` shows it)
    nor on standard output; without either, a new one is written to a file readable by
    its owner only."""
    db = str(tmp_path / "t.sqlite")
    given = tmp_path / "secret"
    given.write_text("a-token-in-a-file-1234\n")
    for env, args, token in (({"EUCHRELOG_DIRECTOR_TOKEN": DIRECTOR}, [], DIRECTOR),
                             ({}, ["--director-token-file", str(given)],
                              "a-token-in-a-file-1234"),
                             ({}, [], None)):
        clean = {k: v for k, v in os.environ.items() if k != "EUCHRELOG_DIRECTOR_TOKEN"}
        process = subprocess.Popen(
            [sys.executable, "-m", "euchrelog", "serve", "--db", db, "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            env={**clean, **env})
        try:
            assert process.stdout is not None
            banner = process.stdout.readline() + process.stdout.readline()
            assert "listening on" in banner and "director token:" in banner
            if token is None:
                made = tmp_path / "director-token"
                assert made.stat().st_mode & 0o777 == 0o600
                token = made.read_text().strip()
                assert len(token) >= 32
            assert token not in banner
            command = Path(f"/proc/{process.pid}/cmdline").read_bytes()
            assert token.encode() not in command
            url = re.search(r"(http://\S+?)/? \(", banner)
            assert url is not None
            answer = httpx.post(url.group(1) + "/api/events", json={},
                                headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 400  # the token is the director's
        finally:
            process.terminate()
            _, err = process.communicate(timeout=30)
        assert token not in err
