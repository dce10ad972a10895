"""Opponent acceptance in ``euchrelog serve`` (issue 42 item 2): in a tournament a deal
entered by one side waits until a player of the other side accepts it (or disputes it, for
the director to settle); a casual night takes each deal at once; the director sees the
deals pending and disputed, and the audit trail has everything. The real server, on SQLite
and on PostgreSQL when ``EUCHRELOG_TEST_POSTGRES`` is set."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.serving import BACKENDS, Server, deals_url, draw, running, signed_in

ONE = "deal 1 dealer N\n  trump H maker E alone tricks 5\n"
TWO = "deal 2 dealer E\n  trump S maker S tricks 3\n"
THREE = "deal 3 dealer S\n  trump C maker W tricks 3\n"


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(request.param, tmp_path_factory.mktemp(request.param)) as started:
        yield started


def _event(server: Server, **settings: Any) -> tuple[int, str]:
    with server.director() as director:
        made = director.post("/api/events", json={
            "name": "Cup", "variant": "four-hand", "format": "progressive deals=4",
            "draw": draw(1, 2), **settings})
    assert made.status_code == 201, made.text
    return made.json()["event"], made.json()["tables"][0]["token"]


def _table(server: Server, token: str) -> httpx.Client:
    return server.client(headers={"authorization": f"Bearer {token}"})


def test_a_tournament_deal_waits_for_the_other_side(server: Server) -> None:
    event, token = _event(server)
    table, url = _table(server, token), deals_url(event, 1, 1)
    assert server.client().get(f"/api/events/{event}").json()["acceptance"] is True
    unsaid = table.post(url, json={"text": ONE, "key": "a"})
    assert unsaid.status_code == 400 and "NS or EW" in unsaid.json()["error"]
    entered = table.post(url, json={"text": ONE, "key": "a", "by": "NS"})
    assert entered.status_code == 201 and entered.json()["status"] == "pending"
    state = server.client().get(f"/api/events/{event}/rounds/1/tables/1").json()
    assert state["pending"] == {"deal": 1, "by": "NS"}
    tables = server.client().get(f"/api/events/{event}").json()["tables"]
    assert tables[0]["pending"] == {"deal": 1, "by": "NS"} and tables[1]["pending"] is None
    waiting = table.post(url, json={"text": TWO, "key": "b", "by": "NS"})
    assert waiting.status_code == 409 and "waits" in waiting.json()["error"]
    same = table.post(url + "/1/accept", json={"by": "NS"})
    assert same.status_code == 409 and "other side" in same.json()["error"]
    other = _table(server, "0" * 32).post(url + "/1/accept", json={"by": "EW"})
    assert other.status_code == 403
    accepted = table.post(url + "/1/accept", json={"by": "EW"})
    assert accepted.status_code == 200 and accepted.json() == {"deal": 1, "status": "accepted"}
    again = table.post(url, json={"text": ONE, "key": "a", "by": "NS"})
    assert again.status_code == 200 and again.json()["status"] == "accepted"
    assert table.post(url, json={"text": TWO, "key": "b", "by": "EW"}).status_code == 201


def test_a_dispute_is_settled_by_the_director(server: Server) -> None:
    event, token = _event(server)
    table, url = _table(server, token), deals_url(event, 1, 1)
    assert table.post(url, json={"text": ONE, "key": "a", "by": "NS"}).status_code == 201
    disputed = table.post(url + "/1/dispute", json={"by": "EW", "reason": "E was not alone"})
    assert disputed.json() == {"deal": 1, "status": "disputed"}
    late = table.post(url + "/1/accept", json={"by": "EW"})
    assert late.status_code == 409 and "director" in late.json()["error"]
    assert table.post(url, json={"text": TWO, "key": "b", "by": "EW"}).status_code == 201
    tables = server.client().get(f"/api/events/{event}").json()["tables"]
    assert tables[0]["disputed"] == [1] and tables[0]["pending"] == {"deal": 2, "by": "EW"}
    with server.director() as director:
        fixed = director.put(url + "/1", json={
            "text": "deal 1 dealer N\n  trump H maker E tricks 5\n", "reason": "not alone"})
        assert fixed.status_code == 200 and fixed.json()["status"] == "accepted"
        settled = director.post(url + "/2/accept", json={})
        assert settled.json() == {"deal": 2, "status": "accepted"}
        trail = director.get(f"/api/events/{event}/audit").json()["trail"]
        assert server.client().get(f"/api/events/{event}/audit").status_code == 403
    done = [(t["action"], t["by"], t["deal"]) for t in trail]
    assert done == [("event created", "director", None), ("entered", "table NS", 1),
                    ("disputed", "table EW", 1), ("entered", "table EW", 2),
                    ("corrected", "director", 1), ("accepted", "director", 2)]
    assert trail[2]["detail"]["reason"] == "E was not alone"
    assert "not alone" in server.director().get(f"/director/events/{event}/progress").text


def test_the_director_sees_pending_and_disputed_deals(server: Server) -> None:
    event, token = _event(server)
    table, url = _table(server, token), deals_url(event, 1, 1)
    assert table.post(url, json={"text": ONE, "key": "a", "by": "NS"}).status_code == 201
    progress = server.director().get(f"/director/events/{event}/progress").text
    assert "waiting for acceptance of deal 1" in progress
    assert "round 1 table 1 deal 1, entered by" in progress.split("<h2>Disputed")[0]
    assert table.post(url + "/1/dispute", json={"by": "EW", "reason": "two tricks"}
                      ).status_code == 200
    progress = server.director().get(f"/director/events/{event}/progress").text
    assert "disputed: deal 1" in progress
    disputed = progress.split("<h2>Disputed")[1].split("<h2>")[0]
    assert "round 1 table 1 deal 1, entered by" in disputed and ": two tricks" in disputed


def test_the_director_accepts_a_disputed_deal_from_the_page(server: Server) -> None:
    """The button beside a disputed deal on the director's page accepts it as entered:
    only with the form's CSRF token and the director's session; it goes into the trail."""
    event, token = _event(server)
    table, url = _table(server, token), deals_url(event, 1, 1)
    assert table.post(url, json={"text": ONE, "key": "a", "by": "NS"}).status_code == 201
    assert table.post(url + "/1/dispute", json={"by": "EW"}).status_code == 200
    form = {"round": "1", "table": "1", "deal": "1"}
    action = f"/director/events/{event}/accept"
    assert server.client().post(action, data=form).status_code == 403
    client, csrf = signed_in(server)
    assert client.post(action, data=form).status_code == 403  # no CSRF token
    done = client.post(action, data={**form, "csrf": csrf})
    assert done.status_code == 200
    assert "round 1 table 1 deal 1 accepted as entered" in done.text
    assert f'action="{action}"' not in done.text  # nothing left to accept
    missing = client.post(action, data={**form, "deal": "9", "csrf": csrf})
    assert missing.status_code == 200 and "has no deal 9" in missing.text
    state = table.get(f"/api/events/{event}/rounds/1/tables/1").json()
    assert state["statuses"][0]["status"] == "accepted" and state["disputed"] == []
    trail = server.director().get(f"/api/events/{event}/audit").json()["trail"]
    assert (trail[-1]["action"], trail[-1]["by"]) == ("accepted", "director")


def test_a_casual_night_takes_each_deal_at_once(server: Server) -> None:
    for settings in ({"kind": "casual"}, {"acceptance": False}):
        event, token = _event(server, **settings)
        table, url = _table(server, token), deals_url(event, 1, 1)
        first = table.post(url, json={"text": ONE, "key": "a"})
        assert first.status_code == 201 and first.json()["status"] == "accepted"
        assert table.post(url, json={"text": TWO, "key": "b"}).status_code == 201
    event, token = _event(server, kind="casual", acceptance=True)
    entered = _table(server, token).post(deals_url(event, 1, 1),
                                         json={"text": ONE, "key": "a", "by": "EW"})
    assert entered.json()["status"] == "pending"
