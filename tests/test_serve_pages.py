"""The pages of a live event in a real browser (issue 42 items 1 to 3): the wall screen
that shows the room from the first minute, the table page by players' names and suits'
symbols, the acceptance flow on two phones and the director's page, and the printable
table cards with their QR codes; each at a phone's width (390 px) and a wall screen's
(1920 px), never wider than the screen. Debian's Chromium driven by Playwright, against
the real server on loopback (one server and one browser for the module)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euchrelog.events import read_entries, score_events
from euchrelog.serve.room import room
from support.browser import ARGS, CHROMIUM
from support.serving import DIRECTOR, Server, deals_url, running

WIDTHS = (390, 1920)
LIVE = 15_000
"""Milliseconds a page may take to show a change made elsewhere (the live stream's
spacing, a phone's jitter, a busy machine)."""
HOSTILE = "<img src=x onerror=alert(1)>"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gil", HOSTILE]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server over a fresh SQLite file."""
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed at /usr/bin/chromium")
    with running("sqlite", tmp_path_factory.mktemp("pages")) as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's tests."""
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def _context(browser: Any, width: int) -> Any:
    """A phone (touch) at 390 px, a wall screen or a desk at 1920 px."""
    if width < 800:
        return browser.new_context(viewport={"width": width, "height": 844},
                                   has_touch=True, is_mobile=True, device_scale_factor=2)
    return browser.new_context(viewport={"width": width, "height": 1080})


def _watch_dialogs(page: Any, dialogs: list[str]) -> None:
    """Keeps the message of any dialog the page opens (a script that ran), dismissed."""
    def shown(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", shown)


def _no_sideways_scroll(page: Any) -> None:
    sizes = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1], f"the page is {sizes[0]} px wide on a {sizes[1]} px screen"


def _event(server: Server, **more: Any) -> tuple[int, dict[tuple[int, int], str]]:
    """A progressive event of 8 players, 2 rounds of 2 tables of 2 deals."""
    p = PLAYERS
    draw = [{"round": 1, "table": 1, "seats": dict(zip("NESW", p[0:4], strict=True))},
            {"round": 1, "table": 2, "seats": dict(zip("NESW", p[4:8], strict=True))},
            {"round": 2, "table": 1, "seats": dict(zip("NESW", [p[0], p[4], p[2], p[6]],
                                                            strict=True))},
            {"round": 2, "table": 2, "seats": dict(zip("NESW", [p[1], p[5], p[3], p[7]],
                                                            strict=True))}]
    with server.director() as director:
        made = director.post("/api/events", json={
            "name": "Friday Progressive", "variant": "four-hand",
            "format": "progressive deals=2", "draw": draw, **more})
    assert made.status_code == 201, made.text
    body = made.json()
    return body["event"], {(t["round"], t["table"]): t["token"] for t in body["tables"]}


def _enter(server: Server, event: int, place: tuple[int, int], token: str, text: str,
           key: str, accept: bool = True) -> None:
    """A deal entered by NS through the API, and accepted by EW."""
    table = server.client(headers={"authorization": f"Bearer {token}"})
    url = deals_url(event, *place)
    answer = table.post(url, json={"text": text, "key": key, "by": "NS"})
    assert answer.status_code == 201, answer.text
    if accept:
        deal = answer.json()["deal"]
        settled = table.post(f"{url}/{deal}/accept", json={"by": "EW"})
        assert settled.status_code == 200, settled.text


def _sign_in(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/director")
    page.fill('input[name="token"]', DIRECTOR)
    page.click("button[type=submit]")
    page.wait_for_selector("form.out")


def test_the_wall_shows_the_room_from_the_first_minute(server: Server, browser: Any) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    event, tokens = _event(server)
    walls = []
    dialogs: list[str] = []
    for width in WIDTHS:
        page = _context(browser, width).new_page()
        _watch_dialogs(page, dialogs)
        page.goto(f"{server.url}/events/{event}")
        text = page.text_content("#standings") or ""
        for name in PLAYERS:
            assert name in text
        assert page.locator(".table-card").count() == 4
        assert text.count("not started") >= 4 and "Round 2" in text
        assert "not started: 4 tables, 8 players" in text
        assert "provisional" not in text
        assert "No deal has been entered yet" in text
        _no_sideways_scroll(page)
        walls.append(page)

    _enter(server, event, (1, 1), tokens[1, 1],
           "deal 1 dealer N\n  trump H maker E alone tricks 5\n", "w1", accept=False)
    for page in walls:
        card = page.locator(".table-card").first
        sync_api.expect(card).to_contain_text("waiting for acceptance of deal 1",
                                              timeout=LIVE)
        sync_api.expect(card).to_contain_text("Bob & Dee 4", timeout=LIVE)
    with server.client(headers={"authorization": f"Bearer {tokens[1, 1]}"}) as table:
        assert table.post(deals_url(event, 1, 1) + "/1/accept",
                          json={"by": "EW"}).status_code == 200
    _enter(server, event, (1, 2), tokens[1, 2],
           "deal 1 dealer N\n  trump S maker N tricks 3\n", "w2")
    for page in walls:
        sync_api.expect(page.locator(".room-status")).to_have_text(
            "in play: 0 of 4 tables finished", timeout=LIVE)
        sync_api.expect(page.locator(".table-card").first).to_contain_text(
            "playing deal 2", timeout=LIVE)
        text = page.text_content("#standings") or ""
        assert "provisional" not in text  # two games unfinished: no error
        assert not re.search(r"\b1 points\b", text)
        for name in PLAYERS:
            assert name in text
        _no_sideways_scroll(page)
    _enter(server, event, (1, 1), tokens[1, 1],
           "deal 2 dealer E\n  trump C maker N tricks 3\n", "w3")
    for page in walls:
        sync_api.expect(page.locator(".table-card").first).to_contain_text(
            "finished: won by Bob & Dee", timeout=LIVE)
        sync_api.expect(page.locator(".room-status")).to_have_text(
            "in play: 1 of 4 tables finished", timeout=LIVE)
        _no_sideways_scroll(page)
    for page in walls:
        page.context.close()
    assert dialogs == []


def _record(*games: str) -> str:
    head = ('[Event "Club"] [Format "progressive deals=2"] [Round "1"] [Table "{t}"] '
            '[Variant "four-hand"] [N "A{t}"] [E "B{t}"] [S "C{t}"] [W "D{t}"]\n')
    return "\n".join(head.format(t=t) + text for t, text in enumerate(games, 1))


FINISHED = ("deal 1 dealer N\n  trump H maker E tricks 3\n  points EW 1\n"
            "deal 2 dealer E\n  trump H maker S tricks 3\n  points NS 1\n"
            "result NS 1 EW 1\n")
UNFINISHED = "deal 1 dealer N\n  trump H maker E tricks 3\n  points EW 1\nunfinished\n"
WRONG = ("deal 1 dealer N\n  trump H maker E tricks 3\n  points EW 2\n"
         "deal 2 dealer E\n  trump H maker S tricks 3\n  points NS 1\n"
         "result NS 1 EW 2\n")


def _games(states: list[tuple[int, bool]]) -> list[dict[str, Any]]:
    header = ('[Event "Club"] [Format "progressive deals=2"] [Round "1"] [Table "1"] '
              '[Variant "four-hand"] [N "A"] [E "B"] [S "C"] [W "D"]\n')
    return [{"round": 1, "table_no": n, "deals": deals, "header": header,
             "pending": None, "disputed": [],
             "state": {"seats": {"N": f"A{n}", "E": f"B{n}", "S": f"C{n}", "W": f"D{n}"},
                       "totals": {}, "over": over, "winner": None,
                       "next": {"deal": deals + 1, "dealer": None}}}
            for n, (deals, over) in enumerate(states, 1)]


def test_provisional_only_for_real_errors() -> None:
    """An unfinished game is play still going on (E966 is not counted); a number written
    wrong is an error (the standings are provisional)."""
    playing = score_events(read_entries(_record(FINISHED, UNFINISHED), "e.euchre"))
    assert playing[0].provisional  # as score says it of the export
    seen = room(_games([(2, True), (1, False)]), playing)
    assert (seen["kind"], seen["status"]) == ("playing", "in play: 1 of 2 tables finished")
    wrong = score_events(read_entries(_record(WRONG, UNFINISHED), "e.euchre"))
    seen = room(_games([(2, True), (1, False)]), wrong)
    assert seen["kind"] == "provisional"
    assert seen["status"].startswith("provisional: 1 error stands")
    done = score_events(read_entries(_record(FINISHED, FINISHED), "e.euchre"))
    seen = room(_games([(2, True), (2, True)]), done)
    assert seen["kind"] == "final"
    before = room(_games([(0, False), (0, False)]), [])
    assert before["status"] == "not started: 2 tables, 8 players; no deal entered yet"
    assert [p["name"] for p in before["players"]][:2] == ["A1", "A2"]


def test_a_deal_waits_on_the_table_page_until_the_other_side_accepts_it(
        server: Server, browser: Any, tmp_path: Path) -> None:
    """NS enters a deal on one phone; EW, on their own phone, sees it pending and disputes
    it; the director sees it disputed and accepts it as entered; EW enters the next deal
    on their phone and NS accepts it on theirs. Names and symbols, never seat letters."""
    sync_api = pytest.importorskip("playwright.sync_api")
    event, tokens = _event(server)
    link = f"{server.url}/events/{event}/rounds/1/tables/1#token={tokens[1, 1]}"
    phone_ns = _context(browser, 390).new_page()
    phone_ew = _context(browser, 390).new_page()
    desk = _context(browser, 1920).new_page()
    dialogs: list[str] = []
    for page in (phone_ns, phone_ew, desk):
        _watch_dialogs(page, dialogs)
    phone_ns.goto(link)
    phone_ns.wait_for_selector("#trump button")
    assert [b.text_content() for b in phone_ns.locator("#trump button").all()] == [
        "\u2663", "\u2666", "\u2665", "\u2660"]
    assert [b.text_content() for b in phone_ns.locator("#maker button").all()] == [
        "Ann", "Bob", "Cy", "Dee"]
    assert "Ann & Cy v Bob & Dee" in (phone_ns.text_content("#score") or "")
    phone_ew.goto(link)
    phone_ew.wait_for_selector("#trump button")
    _sign_in(desk, server)
    desk.goto(f"{server.url}/director/events/{event}")

    phone_ns.tap('#trump button[data-value="H"]')
    phone_ns.tap('#maker button[data-value="E"]')
    phone_ns.tap('#tricks button[data-value="3"]')
    phone_ns.tap("#send")
    sync_api.expect(phone_ns.locator("#message")).to_contain_text(
        "deal 1 entered: Ann & Cy 0 · Bob & Dee 1 (waiting for acceptance)")
    sync_api.expect(phone_ns.locator("#send")).to_be_disabled()
    sync_api.expect(phone_ew.locator("#pending")).to_contain_text(
        "deal 1 entered by Ann & Cy: Bob & Dee, accept it or dispute it", timeout=LIVE)
    sync_api.expect(phone_ew.locator("#pending")).to_contain_text(
        "deal 1 · Ann deals · \u2665 by Bob · 3 tricks · Bob & Dee +1", timeout=LIVE)
    sync_api.expect(desk.locator(".open-deals.pending")).to_contain_text(
        "round 1 table 1 deal 1, entered by Ann & Cy", timeout=LIVE)
    sync_api.expect(desk.locator(".open-deals.pending .line")).to_have_text(
        "deal 1 · Ann deals · \u2665 by Bob · 3 tricks · Bob & Dee +1")
    for page in (phone_ns, phone_ew, desk):
        _no_sideways_scroll(page)

    phone_ew.fill("#reason", "Bob took only two tricks")
    phone_ew.tap('#pending button.dispute[data-side="EW"]')
    sync_api.expect(phone_ew.locator("#message")).to_contain_text(
        "deal 1 disputed by Bob & Dee")
    sync_api.expect(desk.locator(".open-deals.disputed")).to_contain_text(
        "disputed by Bob & Dee: Bob took only two tricks", timeout=LIVE)
    sync_api.expect(phone_ns.locator("#deals")).to_contain_text("(disputed)", timeout=LIVE)
    _no_sideways_scroll(desk)
    desk.click(".open-deals.disputed form.settle button")
    sync_api.expect(desk.locator("p.message")).to_contain_text(
        "round 1 table 1 deal 1 accepted as entered")
    sync_api.expect(desk.locator(".open-deals.disputed")).to_have_text("none")
    sync_api.expect(phone_ns.locator("#deals li")).to_have_text(
        ["deal 1 · Ann deals · \u2665 by Bob · 3 tricks · Bob & Dee +1"], timeout=LIVE)

    assert [b.text_content() for b in phone_ew.locator("#by button").all()] == [
        "Ann & Cy", "Bob & Dee"]
    phone_ew.tap('#by button[data-value="EW"]')
    phone_ew.tap('#trump button[data-value="S"]')
    phone_ew.tap('#maker button[data-value="S"]')
    phone_ew.tap('#alone button[data-value="alone"]')
    phone_ew.tap('#tricks button[data-value="5"]')
    phone_ew.tap("#send")
    sync_api.expect(phone_ew.locator("#pending")).to_contain_text(
        "deal 2 entered by Bob & Dee: Ann & Cy, accept it or dispute it")
    phone_ns.wait_for_selector('#pending button.accept[data-side="NS"]', timeout=LIVE)
    phone_ns.tap('#pending button.accept[data-side="NS"]')
    sync_api.expect(phone_ns.locator("#message")).to_contain_text(
        "deal 2 accepted by Ann & Cy")
    sync_api.expect(phone_ns.locator("#score")).to_contain_text(
        "game over: won by Ann & Cy")
    sync_api.expect(phone_ew.locator("#score")).to_contain_text(
        "game over: won by Ann & Cy", timeout=LIVE)
    sync_api.expect(desk.locator("#progress")).to_contain_text(
        "finished: won by Ann & Cy", timeout=LIVE)
    for page in (phone_ns, phone_ew):
        text = page.text_content("body") or ""
        assert not re.search(r"\b[NESW] (Ann|Bob|Cy|Dee)\b|\b(NS|EW) \d", text)
    wide = _context(browser, 1920).new_page()
    wide.goto(link)
    wide.wait_for_selector("#deals li")
    _no_sideways_scroll(wide)
    for page in (phone_ns, phone_ew, desk, wide):
        page.context.close()
    assert dialogs == []


def _qr_path(link: str) -> str:
    """The modules of ``link``'s QR code (error correction M), as segno draws them."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="svg", scale=4, border=2)
    found = re.search(r' d="([^"]+)"', out.getvalue().decode("ascii"))
    assert found is not None
    return found.group(1)


def test_the_table_cards_print_each_tables_link_as_a_qr_code(
        server: Server, browser: Any) -> None:
    event, tokens = _event(server)
    for width in WIDTHS:
        page = _context(browser, width).new_page()
        page.goto(f"{server.url}/director/events/{event}/cards")
        assert "director" in (page.text_content("body") or "").lower()
        assert page.locator("svg.qr").count() == 0  # not without the director's session
        _sign_in(page, server)
        page.goto(f"{server.url}/director/events/{event}")
        page.click('a[href$="/cards"]')
        page.wait_for_selector(".card")
        assert page.locator(".card").count() == 4
        assert page.locator(".card svg.qr path").count() == 4
        for (round_, table), token in tokens.items():
            card = page.locator(".card", has_text=f"Round {round_} · Table {table}")
            link = card.locator(".link").text_content() or ""
            assert link == f"{server.url}/events/{event}/rounds/{round_}/tables/{table}" \
                           f"#token={token}"
            # the code is the link's: the same modules as segno makes them for it
            assert card.locator("svg.qr path").get_attribute("d") == _qr_path(link)
        first = page.locator(".card").first.text_content() or ""
        assert "Ann & Cy v Bob & Dee" in first and HOSTILE not in first
        assert HOSTILE in (page.locator(".card").nth(1).text_content() or "")
        box = page.locator(".card svg.qr").first.bounding_box()
        assert box is not None and box["width"] >= 150
        _no_sideways_scroll(page)
        page.emulate_media(media="print")
        _no_sideways_scroll(page)
        page.context.close()


def test_the_season_and_each_players_scorecard(server: Server, browser: Any) -> None:
    """A player of the registry is one player over two events (by number, however a draw
    names them); the scorecard lists each round with partner, opponents, points, deals
    won, loners and euchres, as the standings count them."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with server.director() as director:
        for number, name in ((701, "Quinn"), (702, "Rae")):
            assert director.post("/api/players", json={"number": number, "name": name}
                                 ).status_code == 201
        made = []
        for night in ("Monday", "Tuesday"):
            answer = director.post("/api/events", json={
                "name": f"{night} Partners", "format": "partners", "acceptance": False,
                "draw": [{"round": 1, "table": 1,
                          "seats": {"N": 701, "E": "Sol", "S": 702, "W": "Tam"}}]})
            assert answer.status_code == 201, answer.text
            made.append((answer.json()["event"], answer.json()["tables"][0]["token"]))
    for event, token in made:
        with server.client(headers={"authorization": f"Bearer {token}"}) as table:
            for n, text in enumerate(("deal 1 dealer N\n  trump H maker N alone tricks 5\n",
                                      "deal 2 dealer E\n  trump S maker E tricks 2\n"), 1):
                assert table.post(deals_url(event, 1, 1),
                                  json={"text": text, "key": f"s{n}"}).status_code == 201
    for width in WIDTHS:
        page = _context(browser, width).new_page()
        page.goto(f"{server.url}/")
        page.click('a[href="/season"]')
        row = page.locator("table.season tr", has_text="Quinn #701")
        sync_api.expect(row).to_have_count(1)
        # events, games, won, points (a loner's 4 and a euchre's 2 a night), deals won,
        # loners, euchres
        assert [c.text_content() for c in row.locator("td.num").all()] == [
            "2", "2", "0", "12", "4", "2", "2"]
        _no_sideways_scroll(page)
        row.locator("a").click()
        sync_api.expect(page.locator("h1")).to_have_text("Quinn #701")
        assert page.locator("table.scorecard").count() == 2
        first = page.locator("table.scorecard tbody tr").first
        assert [c.text_content() for c in first.locator("td").all()] == [
            "1", "1", "Rae", "Sol & Tam", "6", "unfinished", "2", "1", "1"]
        _no_sideways_scroll(page)
        page.goto(f"{server.url}/events/{made[0][0]}")
        page.click('.players a:has-text("Quinn")')  # the wall's player, by number
        sync_api.expect(page.locator("h1")).to_have_text("Quinn #701")
        page.goto(f"{server.url}/events/{made[0][0]}")
        page.click('.players a:has-text("Sol")')  # by name
        sync_api.expect(page.locator("h1")).to_have_text("Sol")
        assert page.locator("table.scorecard").count() == 2
        page.goto(f"{server.url}/player?name=sol")
        sync_api.expect(page.locator("h1")).to_have_text("Sol")
        assert page.locator("table.scorecard").count() == 2
        page.context.close()
