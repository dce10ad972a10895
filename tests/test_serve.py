"""``euchrelog serve``: the real server on loopback over a real database (SQLite always,
PostgreSQL when ``EUCHRELOG_TEST_POSTGRES`` is set), driven through its JSON API and its
forms; the standings it shows are held equal to ``euchrelog score`` on its export."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.serving import (
    BACKENDS,
    DIRECTOR,
    Server,
    create_event,
    database,
    deal_texts,
    deals_url,
    running,
    score_export,
    signed_in,
)

HOSTILE = "<img src=x onerror=alert(1)>"
SHEET_1 = "deal 1 dealer N\n  trump H maker E alone tricks 5\n"


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server over a fresh database of each backend, shared by the tests of this module
    (each makes its own event)."""
    with running(request.param, tmp_path_factory.mktemp(request.param)) as started:
        yield started


def test_the_server_prints_its_address_and_answers_health(server: Server) -> None:
    answer = httpx.get(server.url + "/health")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["cache-control"] == "no-store"


def test_an_entry_is_judged_stored_once_and_refused_with_its_finding(server: Server) -> None:
    event, tokens = create_event(server, 1, 2, 2)
    url = deals_url(event, 1, 1)
    table = server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
    first = table.post(url, json={"text": SHEET_1, "key": "k-1"})
    assert first.status_code == 201
    assert first.json()["totals"] == {"NS": 0, "EW": 4}
    assert first.json()["next"] == {"deal": 2, "dealer": "E"}
    again = table.post(url, json={"text": SHEET_1, "key": "k-1"})
    assert again.status_code == 200
    assert again.json() == first.json()
    other = table.post(url, json={"text": "deal 2 dealer E\n  trump S maker S tricks 3\n",
                                  "key": "k-1"})
    assert other.status_code == 409

    records = server.client().get(f"/api/events/{event}/records").text
    wrong_points = "deal 2 dealer E\n  trump S maker S tricks 3\n  points EW 1\n"
    refused = table.post(url, json={"text": wrong_points, "key": "k-2"})
    assert refused.status_code == 422
    finding, = refused.json()["findings"]
    assert (finding["code"], finding["line"]) == ("C901", 3)
    assert "points written NS 0 EW 1, but the deal scored NS 1 EW 0" in finding["message"]
    syntax = table.post(url, json={"text": "deal 2 dealer Q\n", "key": "k-3"})
    assert syntax.status_code == 422
    assert syntax.json()["findings"][0]["code"] == "S101"
    assert syntax.json()["findings"][0]["line"] == 1
    open_deal = table.post(url, json={"text": "deal 2 dealer E\n  bid S pass\n", "key": "k-4"})
    assert open_deal.status_code == 422
    two = table.post(url, json={"text": '[Event "x"]\n' + SHEET_1, "key": "k-5"})
    assert two.status_code == 422
    assert server.client().get(f"/api/events/{event}/records").text == records

    last = table.post(url, json={"text": "deal 2 dealer E\n  trump S maker S tricks 3\n",
                                 "key": "k-6"})
    assert last.status_code == 201
    assert last.json()["over"] and last.json()["winner"] == "EW"
    after = table.post(url, json={"text": "deal 3 dealer S\n  trump S maker S tricks 3\n",
                                  "key": "k-7"})
    assert after.status_code == 422
    assert after.json()["findings"][0]["code"] == "D307"
    state = server.client().get(f"/api/events/{event}/rounds/1/tables/1").json()
    assert len(state["deals"]) == 2 and state["over"] and state["totals"] == {"NS": 1, "EW": 4}


def test_standings_equal_score_on_the_export(server: Server, tmp_path: Path) -> None:
    event, tokens = create_event(server, 2, 2, 3)
    for n, ((round_, table), token) in enumerate(sorted(tokens.items())):
        detail = "full" if n % 2 else "score-sheet"
        with server.client(headers={"authorization": f"Bearer {token}"}) as client:
            for i, text in enumerate(deal_texts(n, 3, detail)):
                if (round_, table) == (2, 2) and i == 2:
                    break  # one game left unfinished: provisional standings
                answer = client.post(deals_url(event, round_, table),
                                     json={"text": text, "key": f"{n}-{i}"})
                assert answer.status_code == 201, answer.text
    standings = server.client().get(f"/api/events/{event}/standings").text
    records = server.client().get(f"/api/events/{event}/records").text
    exported, scored = score_export(server, event, tmp_path)
    assert exported == records
    assert standings == scored
    assert '"status": "provisional"' in standings


def test_partners_standings_equal_score_on_the_export(server: Server, tmp_path: Path) -> None:
    teams = [("Ann", "Bob"), ("Cy", "Dee"), ("Eve", "Fay"), ("Gil", "Hal")]
    meetings = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]
    draw = [{"round": r, "table": t, "seats": {
        "N": teams[a][0], "S": teams[a][1], "E": teams[b][0], "W": teams[b][1]}}
        for r, pairs in enumerate(meetings, 1) for t, (a, b) in enumerate(pairs, 1)]
    with server.director() as director:
        made = director.post("/api/events", json={
            "name": "Partners Cup", "variant": "four-hand", "format": "partners",
            "target": 5, "draw": draw, "kind": "casual"}).json()
    event = made["event"]
    for n, place in enumerate(made["tables"]):
        with server.client(headers={"authorization": f"Bearer {place['token']}"}) as client:
            url = deals_url(event, place["round"], place["table"])
            for i, text in enumerate(deal_texts(100 + n, None, "score-sheet", target=5)):
                answer = client.post(url, json={"text": text, "key": f"p{i}"})
                assert answer.status_code == 201, answer.text
    standings = server.client().get(f"/api/events/{event}/standings").text
    _, scored = score_export(server, event, tmp_path)
    assert standings == scored
    assert '"status": "final"' in standings and '"format": "partners"' in standings


def test_a_correction_is_judged_and_kept_in_the_history(server: Server) -> None:
    event, tokens = create_event(server, 1, 1, 2)
    table = server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
    assert table.post(deals_url(event, 1, 1),
                      json={"text": SHEET_1, "key": "a"}).status_code == 201
    url = deals_url(event, 1, 1) + "/1"
    fixed = "deal 1 dealer N\n  trump H maker E tricks 4\n"
    assert table.put(url, json={"text": fixed, "reason": "x"}).status_code == 403
    with server.director() as director:
        bad = director.put(url, json={"text": "deal 1 dealer N\n  trump H maker E tricks 4\n"
                                              "  points NS 1\n", "reason": "typo"})
        assert bad.status_code == 422
        good = director.put(url, json={"text": fixed, "reason": "E did not go alone"})
        assert good.status_code == 200
        assert good.json()["totals"] == {"NS": 0, "EW": 1}
        assert "trump H maker E tricks 4" in director.get(f"/api/events/{event}/records").text
        page = director.get(f"/director/events/{event}").text
    assert "E did not go alone" in page
    assert "trump H maker E alone tricks 5" in page  # the old text, kept


def test_a_table_token_writes_only_its_own_table(server: Server) -> None:
    event, tokens = create_event(server, 2, 2, 2)
    body = {"text": SHEET_1, "key": "x"}
    for headers in ({}, {"authorization": f"Bearer {tokens[1, 2]}"},
                    {"authorization": f"Bearer {tokens[2, 1]}"},
                    {"authorization": f"Bearer {DIRECTOR}"},
                    {"authorization": "Bearer " + "0" * 32},
                    {"authorization": tokens[1, 1]}):
        answer = server.client(headers=headers).post(deals_url(event, 1, 1), json=body)
        assert answer.status_code == 403, headers
    other = server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
    assert other.post(deals_url(999_999, 1, 1), json=body).status_code == 404
    assert other.post(deals_url(10**20, 1, 1), json=body).status_code == 404
    assert other.get(f"/api/events/{event}/rounds/1/tables/{10**20}").status_code == 404
    assert other.post(deals_url(event, 1, 1), json=body).status_code == 201
    assert server.client().get(f"/api/events/{event}/rounds/1/tables/2").json()["deals"] == []


def test_a_forged_director_request_is_refused(server: Server) -> None:
    event, _ = create_event(server, 1, 1, 2)
    spec = {"name": "Forged", "variant": "four-hand", "format": "partners",
            "draw": [{"round": 1, "table": 1, "seats": {"N": "a", "E": "b", "S": "c",
                                                         "W": "d"}}]}
    for headers in ({}, {"authorization": "Bearer wrong-token"},
                    {"authorization": f"Basic {DIRECTOR}"},
                    {"cookie": "euchrelog_director=forged"}):
        answer = server.client(headers=headers).post("/api/events", json=spec)
        assert answer.status_code == 403, headers
    client = server.client()
    page = client.get("/director").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert csrf is not None
    wrong = client.post("/director/login", data={"csrf": csrf.group(1), "token": "guess1234"})
    assert wrong.status_code == 403 and "euchrelog_director" not in wrong.headers.get(
        "set-cookie", "")
    assert client.get(f"/director/events/{event}").status_code == 403
    assert client.get(f"/director/events/{event}/progress").status_code == 403
    assert "Sign in" in client.get("/director").text


def test_forms_need_their_csrf_token(server: Server) -> None:
    client, csrf = signed_in(server)
    form = {"name": "Club", "variant": "four-hand", "format": "partners", "target": "5",
            "draw": "round,table,N,E,S,W\n1,1,Ann,Bob,Cy,Dee\n1,2,Eve,Fay,Gil,Hal\n"}
    assert client.post("/director/events", data=form).status_code == 403
    assert client.post("/director/events", data={**form, "csrf": "0" * 32}).status_code == 403
    foreign = client.post("/director/events", data={**form, "csrf": csrf},
                          headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    for wrong, said in (({"target": "ten"}, "target must be a whole number"),
                        ({"draw": "round,table,N,E,S,W\n1,x,A,B,C,D\n"}, "draw line 2"),
                        ({"variant": "bridge"}, "bridge")):
        refused = client.post("/director/events", data={**form, "csrf": csrf, **wrong})
        assert refused.status_code == 400 and said in refused.text, wrong
        assert 'value="Club"' in refused.text  # what was typed is kept
    made = client.post("/director/events", data={**form, "csrf": csrf})
    assert made.status_code == 303
    page = client.get(made.headers["location"]).text
    assert "/rounds/1/tables/2#token=" in page
    no_session = server.client(cookies={"euchrelog_csrf": csrf})
    assert no_session.post("/director/events", data={**form, "csrf": csrf}).status_code == 403
    assert client.post("/director/logout", data={}).status_code == 403
    out = client.post("/director/logout", data={"csrf": csrf})
    assert out.status_code == 303
    assert client.get(made.headers["location"]).status_code == 403


def test_the_director_corrects_a_deal_through_the_form(server: Server) -> None:
    event, tokens = create_event(server, 1, 1, 2)
    table = server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
    assert table.post(deals_url(event, 1, 1),
                      json={"text": SHEET_1, "key": "f"}).status_code == 201
    client, csrf = signed_in(server)
    form = {"round": "1", "table": "1", "deal": "1", "reason": "not alone",
            "text": "deal 1 dealer N\n  trump H maker E tricks 5\n"}
    assert client.post(f"/director/events/{event}/correct", data=form).status_code == 403
    refused = client.post(f"/director/events/{event}/correct",
                          data={**form, "csrf": csrf, "text": "deal 1 dealer Q\n"})
    assert "refused: S101" in refused.text
    missing = client.post(f"/director/events/{event}/correct",
                          data={**form, "csrf": csrf, "deal": "9"})
    assert "has no deal 9" in missing.text
    done = client.post(f"/director/events/{event}/correct", data={**form, "csrf": csrf})
    assert done.status_code == 200 and "corrected" in done.text and "not alone" in done.text
    state = server.client().get(f"/api/events/{event}/rounds/1/tables/1").json()
    assert state["totals"] == {"NS": 0, "EW": 2}


def test_hostile_names_are_shown_as_text(server: Server) -> None:
    with server.director() as director:
        answer = director.post("/api/events", json={
            "name": HOSTILE, "variant": "four-hand", "format": "progressive deals=1",
            "acceptance": False, "draw": [{"round": 1, "table": 1, "seats": {
                "N": HOSTILE, "E": '"><script>alert(2)</script>', "S": "Cy & Co",
                "W": "Dee"}}]})
        assert answer.status_code == 201
        event, token = answer.json()["event"], answer.json()["tables"][0]["token"]
        table = server.client(headers={"authorization": f"Bearer {token}"})
        entry = "deal 1 dealer N  # <b>bold</b>\n  trump H maker E tricks 3\n"
        assert table.post(deals_url(event, 1, 1),
                          json={"text": entry, "key": "h"}).status_code == 201
        pages = [director.get(f"/director/events/{event}").text,
                 director.get(f"/director/events/{event}/progress").text,
                 director.get("/director").text]
    client = server.client()
    pages += [client.get(f"/events/{event}").text, client.get("/").text,
              client.get(f"/events/{event}/rounds/1/tables/1").text]
    for page in pages:
        assert "<img" not in page and "<script>alert" not in page and "<b>bold" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages[3]
    assert "&lt;img" in pages[0]


def test_oversized_bodies_are_refused(server: Server) -> None:
    event, tokens = create_event(server, 1, 1, 2)
    table = server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"})
    big = {"text": "deal 1 dealer N\n" + "#" * 20_000, "key": "big"}
    assert table.post(deals_url(event, 1, 1), json=big).status_code == 413

    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'", "key": "c"}'

    streamed = table.post(deals_url(event, 1, 1), content=chunks(),
                          headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    long_entry = {"text": "deal 1 dealer N\n  # " + "x" * 5000 + "\n", "key": "long"}
    assert table.post(deals_url(event, 1, 1), json=long_entry).status_code == 422
    with server.director() as director:
        huge = director.post("/api/events", content=b"{" + b" " * 600_000 + b"}")
        assert huge.status_code == 413
        bad = director.post("/api/events", json={"name": "x", "draw": [{"round": 1}]})
        assert bad.status_code == 400 and "table must be" in bad.json()["error"]
        unknown = director.post("/api/events", json={
            "name": "x", "variant": "five-hand", "format": "partners",
            "draw": [{"round": 1, "table": 1, "seats": {"N": "a"}}]})
        assert unknown.status_code == 400 and "five-hand" in unknown.json()["error"]
        short = director.post("/api/events", json={
            "name": "x", "variant": "four-hand", "format": "partners",
            "draw": [{"round": 1, "table": 1, "seats": {"N": "a", "E": "b"}}]})
        assert short.status_code == 400
        assert short.json()["error"] == ("round 1 table 1: no player for S W (the seats of "
                                         "four-hand are N E S W)")


def test_the_live_stream_sends_the_standings(server: Server) -> None:
    event, tokens = create_event(server, 1, 1, 2)
    with server.client() as client, client.stream("GET", f"/api/events/{event}/stream") as s:
        lines = s.iter_lines()
        first = next(line for line in lines if line.startswith("data:"))
        assert "No deal has been entered yet" in first
        server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"}).post(
            deals_url(event, 1, 1), json={"text": SHEET_1, "key": "s"})
        second = next(line for line in lines if line.startswith("data:"))
        assert "P1.1E" in second


def test_a_light_stream_sends_only_the_revisions(server: Server) -> None:
    """A table's page follows ``?revisions``: a few bytes a change, no standings."""
    event, tokens = create_event(server, 1, 1, 2)
    url = f"/api/events/{event}/stream?revisions"
    with server.client() as client, client.stream("GET", url) as s:
        lines = s.iter_lines()
        assert next(line for line in lines if line.startswith("event:")) == "event: revision"
        assert next(lines) == 'data: {"revision": 0}'
        server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"}).post(
            deals_url(event, 1, 1), json={"text": SHEET_1, "key": "l"})
        assert next(line for line in lines if line.startswith("data:")) == \
            'data: {"revision": 1}'


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migrations_make_the_schema_the_code_uses(backend: str, tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from euchrelog.serve.store import connect, metadata, migrate

    with database(backend, tmp_path) as db:
        engine = connect(db)
        migrate(engine)
        migrate(engine)
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            if backend == "sqlite":
                assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
                assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        engine.dispose()


def test_the_command_explains_itself_and_fails_cleanly(tmp_path: Path) -> None:
    def run(*args: str, token: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "EUCHRELOG_DIRECTOR_TOKEN"}
        if token is not None:
            env["EUCHRELOG_DIRECTOR_TOKEN"] = token
        return subprocess.run([sys.executable, "-m", "euchrelog", *args], capture_output=True,
                              text=True, cwd=tmp_path, timeout=60, env=env)

    helped = run("serve", "--help")
    assert helped.returncode == 0 and "euchrelog serve --db friday.sqlite" in helped.stdout
    assert "export" in helped.stdout
    missing = run("serve", "--db", str(tmp_path / "no" / "such" / "dir.sqlite"))
    assert missing.returncode == 2
    assert "cannot open the database" in missing.stderr and "Traceback" not in missing.stderr
    other = run("serve", "--db", "mysql://ann@localhost/club")
    assert other.returncode == 2 and "mysql:// is not a database" in other.stderr
    short = run("serve", token="fifteen-chars!!")
    assert short.returncode == 2 and "at least 16 printable characters" in short.stderr
    assert "Traceback" not in short.stderr and "fifteen" not in short.stderr
    empty = run("serve", "export", "--db", str(tmp_path / "new.sqlite"), "-o", "out")
    assert empty.returncode == 0 and "no event" in empty.stderr
    absent = run("serve", "export", "--db", str(tmp_path / "new.sqlite"), "-o", "out",
                 "--event", "7")
    assert absent.returncode == 2 and "no event 7" in absent.stderr


def test_check_does_not_import_the_server() -> None:
    code = ("import sys\nfrom euchrelog.cli import main\n"
            "try:\n    main(['check', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('euchrelog.serve', "
            "'starlette', 'sqlalchemy', 'uvicorn'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip().endswith("[]")
