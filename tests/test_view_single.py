"""``euchrelog view --single-dummy``: the decisions' data the page embeds (single- and
double-dummy points of every option, the class of the option chosen, the points after
it), the par grid's data, the options of the command, and in a real browser (Debian's
Chromium through Playwright, skipped where absent): the values on the cards and their
SD/DD toggle, the evaluation graph, the mistake keys and the deep links.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from euchrelog.analysis import DealReview, Settings, review_game
from euchrelog.analysis.single import CLASSES, grade, net_points
from euchrelog.cli import main
from euchrelog.notation import loads
from euchrelog.replay import replay
from euchrelog.viewer import render_page, views_of_text
from support.browser import launched_browser
from support.builds import PURE_ONLY

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "valid" / "four-hand-24-club-night.euchre"
SEVERAL = ROOT / "samples" / "valid" / "several-games.euchre"
SETTINGS = Settings(samples=24, exact_limit=64, seed=3)
MISTAKES = CLASSES[2:]


@cache
def club_data(single: bool = True) -> dict[str, Any]:
    """The page data of the club-night sample, with the single-dummy layer (or not)."""
    (data,) = views_of_text(CLUB.read_text(), "club.euchre", double_dummy=True,
                            single=SETTINGS if single else None)
    return data


def decisions(data: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """Each frame with a decision, and the decision."""
    return [(k, f["decision"]) for k, f in enumerate(data["frames"]) if "decision" in f]


# ---------------------------------------------------------------- the data


def test_decisions_come_from_the_single_dummy_review() -> None:
    """Each play's decision holds every legal card's single-dummy points and double-dummy
    points (the makers' tricks scored for the seat's side), the card chosen, its class and
    the points after it, as the review gives them; the discard's, each of the six cards."""
    data = club_data()
    game = loads(CLUB.read_text()).games[0]
    report = replay(game, trace=True)
    reviews = list(review_game(game, par=False, single=SETTINGS, report=report))
    assert data["sd"] == {"samples": 24, "exactLimit": 64, "seed": 3}
    found = decisions(data)
    plays = [d for _, d in found if d["kind"] == "play"]
    discards = [d for _, d in found if d["kind"] == "discard"]
    expected_plays = [(r, p) for r in reviews if isinstance(r, DealReview) for p in r.plays]
    assert len(plays) == len(expected_plays) > 0
    for d, (review, play) in zip(plays, expected_plays, strict=True):
        assert play.sd is not None
        lead = report.deals[review.deal - 1].trace
        assert lead is not None and lead.lead is not None
        worth = [net_points(lead.lead, play.seat, t) for t in range(6)]
        assert (d["seat"], d["chosen"], d["by"], d["class"]) == (
            play.seat.value, str(play.card), "sd", play.sd.grade)
        assert d["side"] == lead.lead.ruleset.side(play.seat)
        assert play.sd.net is not None  # (the net points, as the double-dummy ones)
        assert {o["option"]: o["sd"] for o in d["options"]} == {
            str(c): round(v, 4) for c, v in play.sd.net.items()}
        assert {o["option"]: o["dd"] for o in d["options"]} == {
            str(c): worth[v] for c, v in play.values.items()}
        assert d["ddBest"] == [str(c) for c in play.best]
        assert d["loss"] == round(play.sd.loss, 4)
        assert d["after"] == pytest.approx(max(play.sd.net.values()) - play.sd.loss,
                                           abs=1e-3)
    exchanges = [r.exchange for r in reviews if isinstance(r, DealReview) and r.exchange]
    assert len(discards) == len(exchanges) > 0
    for d, exchange in zip(discards, exchanges, strict=True):
        assert (d["seat"], d["chosen"], d["class"]) == (
            exchange.seat.value, str(exchange.card), exchange.sd.grade)
        assert exchange.sd.net is not None
        assert {o["option"]: o["sd"] for o in d["options"]} == {
            str(c): round(v, 4) for c, v in exchange.sd.net.items()}
        assert all(o["dd"] is None for o in d["options"])


def test_decisions_sit_before_their_act() -> None:
    """A decision is on the frame before its act: a play's before the card is played, the
    discard's before the exchange."""
    data = club_data()
    frames = data["frames"]
    for k, d in decisions(data):
        act = frames[k + 1]
        if d["kind"] == "play":
            assert act["kind"] == "play" and act["mark"] == [d["seat"], d["chosen"]]
        elif d["kind"] == "bid":
            assert act["kind"] in ("bid", "decl") and act["text"].startswith(d["seat"] + " ")
        else:
            assert act["kind"] == "exchange" and d["chosen"] in act["text"]


def test_each_bid_is_a_decision_of_its_options() -> None:
    """Each bid the review values single dummy is a decision of the bidder's options (pass,
    order, call H, alone or not), with their net points, the bid chosen and its class, as
    the review gives them; the page has no double-dummy value of a bid."""
    data = club_data()
    game = loads(CLUB.read_text()).games[0]
    reviews = list(review_game(game, par=False, single=SETTINGS))
    bids = [b for r in reviews if isinstance(r, DealReview) for b in r.bids
            if b.sd is not None]
    found = [d for _, d in decisions(data) if d["kind"] == "bid"]
    assert len(found) == len(bids) > 0
    for d, bid in zip(found, bids, strict=True):
        assert bid.sd is not None
        assert (d["seat"], d["chosen"], d["by"], d["class"]) == (
            bid.seat.value, bid.bid, "sd", bid.sd.grade)
        assert {o["option"]: o["sd"] for o in d["options"]} == {
            name: round(v, 4) for name, v in bid.sd.net.items()}
        assert all(o["dd"] is None for o in d["options"])


def test_without_single_dummy_the_decisions_are_judged_double_dummy() -> None:
    """With the double-dummy layer alone, each play is judged by its double-dummy loss in
    points (the same thresholds), and no option has a single-dummy value."""
    data = club_data(single=False)
    assert "sd" not in data
    found = decisions(data)
    assert found and all(d["kind"] == "play" and d["by"] == "dd" for _, d in found)
    for _, d in found:
        assert all(o["sd"] is None for o in d["options"])
        best = max(o["dd"] for o in d["options"])
        chosen = next((o["dd"] for o in d["options"] if o["option"] == d["chosen"]), None)
        assert chosen is not None and d["loss"] == best - chosen
        assert d["class"] == grade(d["loss"], None, d["chosen"] in d["ddBest"])
        assert d["class"] != "best" or d["loss"] == 0
    assert any(d["class"] in MISTAKES for _, d in found)


def test_the_par_grid_is_the_review_par_table() -> None:
    """Each reviewed deal's entry holds its par table and its contract."""
    data = club_data(single=False)
    game = loads(CLUB.read_text()).games[0]
    reviews = list(review_game(game))
    for entry, review in zip(data["deals"], reviews, strict=True):
        if not isinstance(review, DealReview):
            continue
        assert entry["dd"]["contract"] == {"trump": str(review.trump),
                                           "maker": review.maker.value,
                                           "alone": review.alone}
        assert [(e["trump"], e["maker"], e["alone"], e["tricks"], e["points"])
                for e in entry["dd"]["par"]] == [
            (str(e.trump), e.maker.value, e.alone, e.tricks, dict(e.points))
            for e in review.par]


def test_the_same_seed_gives_the_same_page() -> None:
    """The single-dummy layer is reproducible: the same seed, the same data."""
    text = CLUB.read_text()
    settings = Settings(samples=8, exact_limit=8, seed=5)
    first, second = (list(views_of_text(text, "c.euchre", double_dummy=True,
                                        single=settings)) for _ in range(2))
    assert first == second


def test_a_hostile_name_stays_text_in_the_single_dummy_page() -> None:
    """The page with the layer keeps the one escaper's rule: no raw bidirectional mark, no
    markup of a name, in its data."""
    hostile = "\u202e</script><img src=x onerror=alert(1)>"
    text = CLUB.read_text().replace("Marge Keller", hostile)
    page = render_page(views_of_text(text, "c.euchre", double_dummy=True,
                                     single=Settings(4, 4, 0)), "t")
    assert "\u202e" not in page and "<img" not in page
    data = json.loads(page.split('class="euchrelog-game"', 1)[1].split(">", 1)[1]
                      .split("</script>", 1)[0])
    assert data["names"]["N"] == "\\u202e</script><img src=x onerror=alert(1)>"
    assert decisions(data)


# ---------------------------------------------------------------- the command


def run_view(*args: str) -> Any:
    return CliRunner().invoke(main, ["view", *args])


@pytest.mark.parametrize("args", [
    ["--samples", "8"], ["--seed", "1"], ["--exact-limit", "3"],
    ["--single-dummy", "--no-dd"], ["--single-dummy", "--samples", "0"],
    ["--single-dummy", "--exact-limit", "-1"], ["--single-dummy", "--seed", "x"]])
def test_cli_bad_single_dummy_options_are_usage_errors(tmp_path: Path, args: list[str]
                                                       ) -> None:
    result = run_view(str(CLUB), "-o", str(tmp_path / "v.html"), *args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not (tmp_path / "v.html").exists()


def test_cli_single_dummy_writes_the_layer(tmp_path: Path) -> None:
    out = tmp_path / "v.html"
    result = run_view(str(CLUB), "-o", str(out), "--single-dummy", "--samples", "4",
                      "--exact-limit", "4", "--seed", "9")
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    data = json.loads(page.split('class="euchrelog-game"', 1)[1].split(">", 1)[1]
                      .split("</script>", 1)[0])
    assert data["sd"] == {"samples": 4, "exactLimit": 4, "seed": 9}
    assert any(d["by"] == "sd" for _, d in decisions(data))


# ---------------------------------------------------------------- in a real browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's tests."""
    with launched_browser() as launched:
        yield launched


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context (its own storage)."""
    opened = browser.new_context(viewport={"width": 1200, "height": 900})
    yield opened
    opened.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    """A fresh page that fails the test on any script error or request off the machine."""
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    opened.on("request", lambda req: errors.append(req.url)
              if not req.url.startswith("file://") else None)
    yield opened
    assert not errors


def write(tmp_path: Path, views: Any, name: str = "v") -> str:
    out = tmp_path / f"{name}.html"
    out.write_text(render_page(views, name), encoding="utf-8")
    return out.as_uri()


def frame_now(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.frame)"))


def test_browser_graph_point_goes_to_its_decision(page: Any, tmp_path: Path) -> None:
    """The graph has a point for each decision; a click on one goes to that decision, and
    the URL follows."""
    data = club_data()
    page.goto(write(tmp_path, [data]))
    points = page.locator("#graph-svg circle.point")
    found = decisions(data)
    assert points.count() == len(found)
    assert page.locator("#graph-svg path.series").count() == 2
    target = found[len(found) // 2][0]
    page.click(f"#graph-svg circle[data-frame='{target}']")
    assert frame_now(page) == target
    assert page.locator(f"#graph-svg circle.here[data-frame='{target}']").count() == 1
    assert page.evaluate("() => location.hash").startswith("#game-1/deal-")
    assert page.locator("#decision-options tr[data-option]").count() == len(
        data["frames"][target]["decision"]["options"])


def test_browser_mistake_keys(page: Any, tmp_path: Path) -> None:
    """n and p go to the next and previous decision graded an inaccuracy or worse."""
    data = club_data(single=False)
    mistakes = [k for k, d in decisions(data) if d["class"] in MISTAKES]
    assert len(mistakes) >= 2
    page.goto(write(tmp_path, [data]))
    for k in mistakes:
        page.keyboard.press("n")
        assert frame_now(page) == k
        assert data["frames"][k]["decision"]["class"] in MISTAKES
    page.keyboard.press("n")  # no later one: it stays, and says so
    assert frame_now(page) == mistakes[-1] and "No later mistake" in page.text_content(
        "#status")
    page.keyboard.press("p")
    assert frame_now(page) == mistakes[-2]
    page.click("#next-mistake")
    assert frame_now(page) == mistakes[-1]
    page.keyboard.press("ArrowRight")  # the verdict of the act just made
    verdict = page.locator("#decision-verdict")
    assert verdict.get_attribute("data-class") == data["frames"][mistakes[-1]]["decision"][
        "class"]


def test_browser_deep_link_opened_cold(page: Any, tmp_path: Path) -> None:
    """A link to a game, deal, trick and step opens there; stepping writes the URL;
    ``#game-N`` alone still opens game N; a changed hash moves the page."""
    views = list(views_of_text(SEVERAL.read_text(), "several.euchre"))
    url = write(tmp_path, views)
    deal = views[1]["deals"][1]
    page.goto(url + "#game-2/deal-2/trick-3/step-2")
    assert page.input_value("#game-select") == "1"
    assert frame_now(page) == deal["tricks"][2] + 1
    assert page.text_content("#status").startswith(views[1]["frames"][deal["tricks"][2] + 1][
        "text"])
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => location.hash") == "#game-2/deal-2/trick-3/step-3"
    page.keyboard.press("Home")
    assert page.evaluate("() => location.hash") == "#game-2/deal-1/step-1"
    page.goto(url + "#game-3/deal-1/step-2")  # a step of the bidding
    page.reload()
    assert page.input_value("#game-select") == "2"
    assert frame_now(page) == views[2]["deals"][0]["frame"] + 1
    page.evaluate("() => { location.hash = '#game-1/deal-2/trick-1'; }")
    page.wait_for_function("() => document.body.dataset.frame === '"
                           + str(views[0]["deals"][1]["tricks"][0]) + "'")
    other = tmp_path / "copy.html"
    other.write_text((tmp_path / "v.html").read_text(encoding="utf-8"), encoding="utf-8")
    page.goto(other.as_uri() + "#game-2")
    assert page.input_value("#game-select") == "1" and frame_now(page) == 0


def test_browser_values_on_the_cards_and_their_toggle(context: Any, page: Any,
                                                      tmp_path: Path) -> None:
    """At a seat's turn its legal cards carry their values: both by default, SD or DD
    alone by the toggle, which the page remembers when opened again."""
    data = club_data()
    k, d = next((k, d) for k, d in decisions(data) if d["kind"] == "play"
                and len(d["options"]) > 2)
    url = write(tmp_path, [data]) + f"#game-1/deal-{data['frames'][k]['d'] + 1}/step-1"
    page.goto(url)
    page.evaluate(f"() => {{ const s = document.getElementById('slider'); s.value = '{k}';"
                  " s.dispatchEvent(new Event('input')); }")
    seat = f"[data-seat={d['seat']}] .hand"

    def badges(kind: str) -> dict[str, str]:
        found: dict[str, str] = page.evaluate(
            "([seat, kind]) => Object.fromEntries([...document.querySelectorAll(seat + "
            "' svg.card')].filter(c => c.querySelector('.badge-' + kind)).map(c => "
            "[c.dataset.card, c.querySelector('.badge-' + kind).dataset.value]))",
            [seat, kind])
        return found

    sd = {o["option"]: o["sd"] for o in d["options"]}
    assert set(badges("sd")) == set(sd) == set(badges("dd"))
    for card, text in badges("sd").items():
        assert float(text.replace("\u2212", "-")) == pytest.approx(sd[card], abs=0.006)
    first = d["options"][0]["option"]
    label = page.get_attribute(f"{seat} svg.card[data-card='{first}']", "aria-label") or ""
    assert "single dummy" in label and "double dummy" in label
    page.select_option("#values-select", "dd")
    assert badges("sd") == {} and set(badges("dd")) == set(sd)
    again = context.new_page()
    again.goto(url)
    assert again.input_value("#values-select") == "dd"
    again.close()
    page.select_option("#values-select", "sd")
    assert badges("dd") == {} and set(badges("sd")) == set(sd)


def test_browser_a_bid_shows_its_options(page: Any, tmp_path: Path) -> None:
    """At a bid the decision panel lists the bidder's options with their single-dummy
    points, and after it the verdict names the bid."""
    data = club_data()
    k, bid = next((k, d) for k, d in decisions(data) if d["kind"] == "bid"
                  and len(d["options"]) > 1)
    page.goto(write(tmp_path, [data]))
    page.evaluate(f"() => {{ location.hash = '#game-1/deal-{data['frames'][k]['d'] + 1}'; }}")
    while frame_now(page) < k:
        page.keyboard.press("ArrowRight")
    assert frame_now(page) == k
    rows = page.locator("#decision-options tr[data-option]")
    assert rows.count() == len(bid["options"])
    assert {rows.nth(i).get_attribute("data-option") for i in range(rows.count())} == {
        o["option"] for o in bid["options"]}
    page.keyboard.press("ArrowRight")
    assert bid["chosen"] in (page.text_content("#decision-verdict") or "")


def test_browser_par_grid(page: Any, tmp_path: Path) -> None:
    """The double-dummy panel has the deal's par grid: a row a maker (and alone), a column
    a trump, the contract played marked."""
    data = club_data(single=False)
    entry = data["deals"][0]["dd"]
    page.goto(write(tmp_path, [data]))
    page.click("#par summary")
    rows = page.locator("#par-grid tr[data-maker]")
    makers = {e["maker"] + (" alone" if e["alone"] else "") for e in entry["par"]}
    assert rows.count() == len(makers)
    assert page.locator("#par-grid th[data-trump]").count() == len(
        {e["trump"] for e in entry["par"]})
    contract = entry["contract"]
    cell = page.locator("#par-grid td.contract")
    assert cell.count() == 1
    played = next(e for e in entry["par"] if (e["trump"], e["maker"], e["alone"]) == (
        contract["trump"], contract["maker"], contract["alone"]))
    assert cell.text_content().startswith(f"{played['tricks']} \u00b7")
    page.keyboard.press("ArrowRight")  # the grid stays open from step to step
    assert page.locator("#par-grid").is_visible()


def test_browser_single_dummy_page_fits_a_phone(browser: Any, tmp_path: Path) -> None:
    """With the values on the cards and the graph, a phone-sized screen still does not
    scroll sideways."""
    data = club_data()
    context = browser.new_context(viewport={"width": 375, "height": 740})
    phone = context.new_page()
    k = [k for k, d in decisions(data) if d["kind"] == "play"][3]
    phone.goto(write(tmp_path, [data]) + f"#game-1/deal-1/step-{k + 1}")
    assert frame_now(phone) == k
    assert phone.locator("svg.card .badge").count() > 0
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 375
    context.close()


# ---------------------------------------------------------------- progress and Ctrl-C


class _Screen(io.StringIO):
    """A terminal that keeps what was drawn on it."""

    def isatty(self) -> bool:
        return True


@PURE_ONLY
def test_ctrl_c_in_the_single_dummy_review_keeps_the_deals_finished(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress line counts the deals as they are reviewed single dummy, and Ctrl-C
    in the middle of a deal's review ends the page with the deals finished before it
    (exit status 130)."""
    from euchrelog import progress
    from euchrelog.analysis import single_dummy as real

    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    screen = _Screen()
    monkeypatch.setattr(sys, "stderr", screen)
    calls = 0

    def stopping(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 20 * 3 + 5:  # in the fourth deal's play
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr("euchrelog.analysis.review.single_dummy", stopping)
    page = tmp_path / "out.html"
    code = 0
    try:
        main(["view", "--single-dummy", "--samples", "2", "--exact-limit", "2", "-o",
              str(page), str(CLUB)], standalone_mode=False)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 130 and "interrupted in game 1:" in screen.getvalue()
    counts = [int(n) for n in re.findall(r"viewing .*?(\d+) deals?\b", screen.getvalue())]
    assert counts and counts == sorted(counts) and max(counts) == 3, screen.getvalue()[-300:]
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split('class="euchrelog-game"', 1)[1].split(">", 1)[1].split(
        "</script>", 1)[0])
    assert len(data["deals"]) == 3 and text.rstrip().endswith("</html>")
    assert all(d["by"] == "sd" for _, d in decisions(data))


def test_a_renege_is_judged_where_it_happened(page: Any, tmp_path: Path) -> None:
    """A deal whose play breaks a rule is reviewed up to its first fault: the renege is
    the last decision, judged with its finding, and the page says where the review
    stops."""
    text = (ROOT / "samples" / "invalid" / "R801-renege.euchre").read_text()
    (data,) = views_of_text(text, "r.euchre", double_dummy=True)
    entry = data["deals"][0]["dd"]
    assert entry["stopped"].startswith("R801")
    found = decisions(data)
    k, last = found[-1]
    assert last["fault"].startswith("R801") and data["frames"][k + 1]["findings"]
    assert all("fault" not in d for _, d in found[:-1])
    page.goto(write(tmp_path, [data]) + f"#game-1/deal-1/step-{k + 2}")
    assert frame_now(page) == k + 1
    assert "R801" in page.text_content("#decision-verdict")
    assert "review stops" in page.text_content("#dd-body")
