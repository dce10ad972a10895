"""The table page and the live standings of ``euchrelog serve`` in a real browser: Debian's
Chromium driven by Playwright at a phone's size, a deal entered by touch, another by the
keyboard, a refused one, and the standings changing on a second page as they arrive.

Set ``EUCHRELOG_SERVE_SCREENSHOTS`` to a folder to keep the screenshots (docs/images for
docs/serve.md)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.serving import DIRECTOR, Server, running

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server over a fresh SQLite file."""
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium")
    with running("sqlite", tmp_path_factory.mktemp("browser")) as started:
        yield started


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("EUCHRELOG_SERVE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_deal_entered_by_touch_changes_the_standings_on_the_wall(
        server: Server, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with server.director() as director:
        made = director.post("/api/events", json={
            "name": "Friday Progressive", "variant": "four-hand",
            "format": "progressive deals=3",
            "draw": [{"round": 1, "table": 1, "seats": {
                "N": "Ann", "E": HOSTILE, "S": "Cy", "W": "Dee"}}]}).json()
    event, token = made["event"], made["tables"][0]["token"]
    shots = _shots(tmp_path)
    dialogs: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                    is_mobile=True, device_scale_factor=2)
        wall = browser.new_context(viewport={"width": 1280, "height": 800})
        table = phone.new_page()
        standings = wall.new_page()
        desk = wall.new_page()

        def dialog(shown: Any) -> None:
            dialogs.append(shown.message)
            shown.dismiss()

        for page in (table, standings, desk):
            page.on("dialog", dialog)
        desk.goto(f"{server.url}/director")
        desk.fill('input[name="token"]', DIRECTOR)
        desk.click("button[type=submit]")
        draw = tmp_path / "draw.csv"
        draw.write_text("round,table,N,E,S,W\n1,1,Ann,Bob,Cy,Dee\n1,2,Eve,Fay,Gil,Hal\n")
        desk.fill('input[name="name"]', "Saturday Partners")
        desk.fill('input[name="format"]', "partners")
        desk.set_input_files("#draw-file", str(draw))
        sync_api.expect(desk.locator("#draw")).to_have_value(draw.read_text())
        desk.click("form.create button[type=submit]")
        desk.wait_for_selector('a[href*="/rounds/1/tables/2#token="]')
        assert "Saturday Partners" in (desk.text_content("h1") or "")
        desk.goto(f"{server.url}/director/events/{event}")
        desk.wait_for_selector("#progress table")
        assert "not started" in (desk.text_content("#progress") or "")
        standings.goto(f"{server.url}/events/{event}")
        standings.wait_for_selector("text=No deal has been entered yet")
        assert HOSTILE in (standings.text_content("#standings") or "")  # the draw, at once
        table.goto(f"{server.url}/events/{event}/rounds/1/tables/1#token={token}")
        table.wait_for_selector("#trump button")
        assert HOSTILE in (table.text_content("#score") or "")

        table.tap('#trump button[data-value="H"]')
        table.tap('#maker button[data-value="E"]')
        table.tap('#alone button[data-value="alone"]')
        table.tap('#tricks button[data-value="5"]')
        assert table.get_attribute('#maker button[data-value="E"]', "aria-pressed") == "true"
        table.screenshot(path=str(shots / "serve-table.png"))
        table.tap("#send")
        table.wait_for_selector("#message.ok")
        assert f"Ann & Cy 0 · {HOSTILE} & Dee 4" in (table.text_content("#message") or "")
        assert "waiting for acceptance" in (table.text_content("#message") or "")
        standings.wait_for_selector('#standings[data-revision="1"]')
        first = standings.text_content("#standings") or ""
        assert HOSTILE in first and "most loners made" in first

        def accept(deal: int) -> None:
            """A player of EW accepts the deal NS entered, on the same phone."""
            table.wait_for_selector('#pending button.accept[data-side="EW"]')
            assert table.is_disabled("#send")
            assert f"deal {deal} entered by Ann & Cy" in (table.text_content("#pending") or "")
            table.tap('#pending button.accept[data-side="EW"]')
            sync_api.expect(table.locator("#message")).to_contain_text(
                f"deal {deal} accepted by {HOSTILE} & Dee")
            sync_api.expect(table.locator("#pending")).to_be_hidden()

        accept(1)
        standings.wait_for_selector('#standings[data-revision="2"]')

        table.focus('#trump button[data-value="S"]')
        table.keyboard.press("Enter")
        table.focus('#maker button[data-value="S"]')
        table.keyboard.press("Space")
        table.focus('#tricks button[data-value="3"]')
        table.keyboard.press("Enter")
        table.focus("#send")
        table.keyboard.press("Enter")
        sync_api.expect(table.locator("#message")).to_contain_text(
            f"Ann & Cy 1 · {HOSTILE} & Dee 4")
        standings.wait_for_selector('#standings[data-revision="3"]')
        accept(2)

        table.click("summary")
        table.fill("#full", "deal 3 dealer S\n  trump C maker W tricks 3\n  points NS 1\n")
        table.tap("#send")
        table.wait_for_selector("#message.refused")
        assert "C901" in (table.text_content("#message") or "")
        assert table.locator("#deals li").count() == 2
        table.fill("#full", "")

        phone.set_offline(True)
        table.tap('#trump button[data-value="D"]')
        table.tap('#maker button[data-value="N"]')
        table.tap('#tricks button[data-value="0"]')
        table.tap("#send")
        sync_api.expect(table.locator("#message")).to_contain_text("sending again")
        phone.set_offline(False)
        sync_api.expect(table.locator("#message")).to_contain_text("deal 3 entered")
        standings.wait_for_selector('#standings[data-revision="5"]')
        accept(3)
        standings.wait_for_selector('#standings[data-revision="6"]')
        assert table.locator("#deals li").count() == 3
        assert f"game over: won by {HOSTILE} & Dee" in (table.text_content("#score") or "")
        assert table.is_disabled("#send")
        standings.screenshot(path=str(shots / "serve-standings.png"), full_page=True)

        sync_api.expect(desk.locator("#progress")).to_contain_text(
            f"finished: won by {HOSTILE} & Dee")
        desk.screenshot(path=str(shots / "serve-director.png"), full_page=True)
        browser.close()
    assert dialogs == []


def test_the_phone_sends_a_refused_deal_once(server: Server) -> None:
    """A deal the server refuses (here a comment holding a NUL character, 400) or cannot
    take (a 500, made by the browser's own answer to the request) is sent once: not again,
    nor at the next page load (it was sent six times, and at every load)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with server.director() as director:
        made = director.post("/api/events", json={
            "name": "Refusals", "variant": "four-hand", "format": "progressive deals=3",
            "draw": [{"round": 1, "table": 1, "seats": {
                "N": "Ann", "E": "Bob", "S": "Cy", "W": "Dee"}}]}).json()
    event, token = made["event"], made["tables"][0]["token"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        table = phone.new_page()
        posts: list[str] = []
        table.on("request", lambda r: posts.append(r.url)
                 if r.method == "POST" and r.url.endswith("/deals") else None)
        table.goto(f"{server.url}/events/{event}/rounds/1/tables/1#token={token}")
        table.wait_for_selector("#trump button")
        table.click("summary")
        table.fill("#full", "deal 1 dealer N  # a\u0000b\n  trump H maker E tricks 3\n")
        table.tap("#send")
        sync_api.expect(table.locator("#message")).to_contain_text("NUL")
        table.wait_for_timeout(3000)
        assert len(posts) == 1
        table.route("**/deals", lambda route: route.fulfill(
            status=500, content_type="application/json", body='{"error": "internal error"}'))
        table.fill("#full", "deal 1 dealer N\n  trump H maker E tricks 3\n")
        table.tap("#send")
        sync_api.expect(table.locator("#message")).to_contain_text("internal error")
        table.wait_for_timeout(3000)
        assert len(posts) == 2
        table.unroute("**/deals")
        table.reload()
        table.wait_for_selector("#trump button")
        table.wait_for_timeout(2000)
        assert len(posts) == 2
        browser.close()
