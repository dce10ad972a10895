"""Players who persist (issue 42 item 4): the club's registry in the server's database,
used by the draw (by number) across events, and ``score`` and ``stats`` keying players by
their numbers (``--by-number``); and movements made by the server (item 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.serving import Server, deals_url, running, signed_in

SHEET = "deal {n} dealer {d}\n  trump H maker {m} tricks 3\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running("sqlite", tmp_path_factory.mktemp("players")) as started:
        yield started


def test_the_registry_is_used_across_events(server: Server, tmp_path: Path) -> None:
    director = server.director()
    assert server.client().post("/api/players", json={"number": 1, "name": "x"}) \
        .status_code == 403
    for number, name in ((12, "Ann"), (7, "Bob"), (3, "Cy")):
        assert director.post("/api/players", json={"number": number, "name": name}) \
            .status_code == 201
    assert director.post("/api/players", json={"number": 3, "name": "Cyril"}).status_code == 201
    assert director.get("/api/players").json()["players"] == [
        {"number": 3, "name": "Cyril"}, {"number": 7, "name": "Bob"},
        {"number": 12, "name": "Ann"}]
    unknown = director.post("/api/events", json={
        "name": "x", "draw": [{"round": 1, "table": 1, "seats": {
            "N": 99, "E": "Eve", "S": "Fay", "W": "Gil"}}]})
    assert unknown.status_code == 400 and "no player number 99" in unknown.json()["error"]
    events = []
    for name in ("Monday", "Thursday"):
        made = director.post("/api/events", json={
            "name": name, "format": "progressive deals=2", "kind": "casual",
            "draw": [{"round": 1, "table": 1, "seats": {"N": 12, "E": 7, "S": 3, "W": "Dee"}}]})
        assert made.status_code == 201, made.text
        event, token = made.json()["event"], made.json()["tables"][0]["token"]
        table = server.client(headers={"authorization": f"Bearer {token}"})
        for n, (d, m) in enumerate((("N", "N"), ("E", "E")), 1):
            assert table.post(deals_url(event, 1, 1), json={
                "text": SHEET.format(n=n, d=d, m=m), "key": f"k{n}"}).status_code == 201
        events.append(event)
    records = "".join(server.client().get(f"/api/events/{e}/records").text + "\n"
                      for e in events)
    assert '[NId "12"]' in records and '[N "Ann"]' in records and '[SId "3"]' in records
    assert '[WId' not in records  # (Dee has no number)
    path = tmp_path / "season.euchre"
    first, _, last = records.rpartition('[N "Ann"]')
    path.write_text(first + '[N "ann b."]' + last, encoding="utf-8")  # (spelt otherwise)
    keyed = _stats(path, "--by-number")
    assert "Ann #12" in keyed and "ann b." not in keyed and "Cyril #3" in keyed
    loose = _stats(path)
    assert "ann b." in loose and "Ann" in loose and "#12" not in loose


def _stats(path: Path, *options: str) -> str:
    done = subprocess.run([sys.executable, "-m", "euchrelog", "stats", str(path), "--format",
                           "json", "-q", *options], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def test_score_keys_players_by_number(tmp_path: Path) -> None:
    """One player spelt two ways in two rounds of a progressive event: two rows, or with
    --by-number one row under the name first seen."""
    def game(round_: int, north: str) -> str:
        return (f'[Event "Club"] [Format "progressive deals=1"] [Round "{round_}"] '
                f'[Table "1"]\n[Variant "four-hand"]\n[N "{north}"] [E "Bob"] [S "Cy"] '
                f'[W "Dee"]\n[NId "12"] [EId "7"]\n\ndeal 1 dealer N\n  trump H maker N '
                f"tricks 3\n  points NS 1  total NS 1 EW 0\n\nresult NS 1 EW 0 winner NS\n")

    path = tmp_path / "club.euchre"
    path.write_text(game(1, "Ann") + "\n" + game(2, "Annie"), encoding="utf-8")

    def rows(*options: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "euchrelog", "score", str(path),
                               "--format", "json", "-q", *options],
                              capture_output=True, text=True)
        assert done.returncode in (0, 1), done.stderr
        event = json.loads(done.stdout)["events"][0]
        return sorted(r["label"] if "label" in r else r["name"] for r in event["standings"])

    assert rows() == ["Ann", "Annie", "Bob", "Cy", "Dee"]
    assert rows("--by-number") == ["Ann #12", "Bob #7", "Cy", "Dee"]


def test_the_server_makes_the_draw_from_a_movement(server: Server) -> None:
    director = server.director()
    for number, name in ((12, "Ann"), (7, "Bob")):
        assert director.post("/api/players", json={"number": number, "name": name}) \
            .status_code == 201
    players: list[str | int] = [12, 7, "Eve", "Fay", "Gil", "Hal", "Ida", "Jo", "Kim"]
    made = director.post("/api/events", json={
        "name": "Rotating", "format": "progressive deals=2", "kind": "casual",
        "movement": {"kind": "rotating", "rounds": 3, "players": players}})
    assert made.status_code == 201, made.text
    body = made.json()
    assert len(body["tables"]) == 6 and [len(b) for b in body["byes"]] == [1, 1, 1]
    seated = [sorted(map(str, [*(v for d in body["draw"] if d["round"] == r
                                 for v in d["seats"].values()), *body["byes"][r - 1]]))
              for r in (1, 2, 3)]
    assert all(s == sorted(map(str, players)) for s in seated)
    for wrong, said in (({"kind": "swiss", "rounds": 1, "players": players}, "kind"),
                        ({"kind": "rotating", "rounds": 0, "players": players}, "rounds"),
                        ({"kind": "rotating", "rounds": 1, "players": players[:3]}, "players"),
                        ({"kind": "rotating", "rounds": 1, "players": ["a"] * 4}, "once")):
        refused = director.post("/api/events", json={"name": "x", "movement": wrong})
        assert refused.status_code == 400 and said in refused.json()["error"], wrong


def test_a_csv_draw_names_registered_players_by_number(server: Server) -> None:
    director = server.director()
    assert director.post("/api/players", json={"number": 40, "name": "Quinn"}) \
        .status_code == 201
    client, csrf = signed_in(server)
    made = client.post("/director/events", data={
        "csrf": csrf, "name": "By number", "variant": "four-hand", "format": "partners",
        "target": "5", "draw": "round,table,N,E,S,W\n1,1,#40,Bob,Cy,Dee\n"})
    assert made.status_code == 303, made.text
    event = int(made.headers["location"].rsplit("/", 1)[1])
    state = server.client().get(f"/api/events/{event}/rounds/1/tables/1").json()
    assert state["seats"]["N"] == "Quinn"
    missing = client.post("/director/events", data={
        "csrf": csrf, "name": "x", "variant": "four-hand", "format": "partners",
        "target": "", "draw": "round,table,N,E,S,W\n1,1,#41,Bob,Cy,Dee\n"})
    assert missing.status_code == 400 and "no player number 41" in missing.text
