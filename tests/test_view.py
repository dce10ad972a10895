"""``euchrelog view``: the replay page, its data and its behaviour in a real browser.

The browser tests drive Debian's Chromium (``/usr/bin/chromium``) through Playwright: each
generated page is stepped through by keyboard, and at every step the cards in each hand,
the cards on the table and the score in the DOM are compared with a replay of the record
through the engine, done here. They skip when Chromium or Playwright is absent.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from euchrelog.cards import sort_hand
from euchrelog.cli import main
from euchrelog.engine import DealState
from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Deal, Game
from euchrelog.notation import loads
from euchrelog.notation.jsonio import dumps_json
from euchrelog.notation.writer import dumps, dumps_game
from euchrelog.present import script_json
from euchrelog.replay import replay
from euchrelog.viewer import game_view, render_page, views_of_text
from support.browser import launched_browser

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
VARIANTS = ["four-hand", "cutthroat", "three-hand", "ghost", "two-hand"]
DETAILS = ["full", "play-only", "unknown-cards", "score-sheet"]
HOSTILE = "<img src=x onerror=window.__pwned=1>"


def view(*args: str, stdin: str | None = None) -> Result:
    """Runs ``euchrelog view`` in-process."""
    return CliRunner().invoke(main, ["view", *args], input=stdin)


def generated(variant: str, detail: str = "full", seed: int = 7, deals: int = 2,
              players: dict[str, str] | None = None) -> Game:
    """A short random game of ``variant`` from the project's generator."""
    rules = ruleset_for(variant)
    names = {seat: (players or {}).get(seat.value, f"P{seat.value}") for seat in rules.seats}
    return random_game(random.Random(seed), rules, detail=detail,  # type: ignore[arg-type]
                       stop_after=deals, players=names)


# ---------------------------------------------------------------- the replay, done here


def _snapshot(state: DealState, deal: Deal, totals: dict[str, int]) -> dict[str, Any]:
    """What the page must show of ``state``: each hand (cards and backs, sorted), the table
    and the running totals."""
    shown = bool(deal.hands or deal.tricks or deal.up)
    hands = {seat.value: sorted([str(c) for c in sort_hand(info.cards)] + ["back"] * info.free)
             if shown else [] for seat, info in state.hands.items()}
    trick = state.current or (state.tricks[-1] if state.tricks else [])
    table = [[seat.value, "back" if card is None else str(card)] for seat, card in trick]
    return {"hands": hands, "table": table, "score": dict(totals)}


def expected_steps(game: Game) -> Iterator[dict[str, Any]]:
    """The state after every act of ``game``, replayed through the engine: the deal, each
    bid, the sheet, the exchange, each declaration, each card, then the deal's score."""
    report = replay(game)
    rules = report.ruleset
    totals = dict.fromkeys(rules.side_names, 0)
    for d, deal in enumerate(game.deals):
        hands = {s: list(c) for line in deal.hands for s, c in line.cards.items()}
        extra = deal.extra.cards if deal.extra else None
        state = DealState(rules, deal.dealer, hands=hands, extra=extra,
                          upcard=deal.up.card if deal.up else None,
                          kitty=deal.up.kitty if deal.up else None)
        yield _snapshot(state, deal, totals)
        for bid in deal.bids:
            state.apply_bid(bid)
            yield _snapshot(state, deal, totals)
        if deal.sheet is not None:
            yield _snapshot(state, deal, totals)
        for act in deal.acts:
            state.apply_act(act)
            yield _snapshot(state, deal, totals)
        for trick in deal.tricks:
            for play in trick.plays:
                state.apply_play(play)
                yield _snapshot(state, deal, totals)
        totals = dict(report.deals[d].totals)
        yield _snapshot(state, deal, totals)


# ---------------------------------------------------------------- without a browser


@pytest.mark.parametrize("detail", DETAILS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_frames_follow_the_replay(variant: str, detail: str) -> None:
    """Every variant and completeness gives one frame per act, each the engine's state."""
    game = generated(variant, detail)
    data = game_view(game)
    steps = list(expected_steps(game))
    assert len(data["frames"]) == len(steps)
    for frame, step in zip(data["frames"], steps, strict=True):
        shown = data["deals"][frame["d"]]["cards"]
        hands = {seat: sorted(h["cards"] + ["back"] * h["backs"]) if shown else []
                 for seat, h in frame["hands"].items()}
        table = [[s, "back" if c == "??" else c] for s, c in frame["table"]]
        assert (hands, table, frame["score"]) == (step["hands"], step["table"], step["score"])
    assert data["frames"][-1]["score"] == replay(game).totals


def test_renege_is_tied_to_its_card() -> None:
    """The R801 finding sits on the frame of the renege's play, and marks the card while it
    is on the table."""
    path = SAMPLES / "invalid" / "R801-renege.euchre"
    (data,) = views_of_text(path.read_text(), str(path))
    (finding,) = data["findings"]
    frame = data["frames"][finding["frame"]]
    assert finding["code"] == "R801" and frame["mark"] == ["E", "QS"]
    (fault,) = frame["faults"]
    assert fault[:2] == ["E", "QS"] and fault[2].startswith("R801 deal 1: renege: E plays QS")
    later = data["frames"][finding["frame"] + 1]
    assert later["trick"] == frame["trick"] and later["faults"] == [fault]


def test_wrong_points_are_tied_to_the_score_line() -> None:
    """C901 is shown on the deal's score frame, next to the points written."""
    text = (SAMPLES / "invalid" / "C901-points-differ.euchre").read_text()
    (data,) = views_of_text(text, "c.euchre")
    codes = {f["code"]: data["frames"][f["frame"]] for f in data["findings"]}
    assert codes["C901"]["kind"] == "score" and codes["C901"]["written"]["points"]


def test_json_and_notation_give_the_same_frames() -> None:
    """A record read from JSON shows what its notation shows (findings without a place)."""
    game = generated("cutthroat")
    text = dumps(loads(dumps_game(game)))
    (from_text,) = views_of_text(text, "g.euchre")
    (from_json,) = views_of_text(dumps_json(loads(text)), "g.json")
    strip = ("at",)
    assert ([{k: v for k, v in f.items() if k not in strip} for f in from_text["frames"]]
            == [{k: v for k, v in f.items() if k not in strip} for f in from_json["frames"]])


def game_data(page: str) -> list[dict[str, Any]]:
    """The data of each game of a viewer page, as its script reads it."""
    return [json.loads(part.split(">", 1)[1].split("</script>", 1)[0]) for part in
            page.split('<script type="application/json" class="euchrelog-game"')[1:]]


def test_embedded_data_cannot_close_its_element() -> None:
    """Names and tags are escaped in the JSON: no ``<``, ``>`` or ``&`` is left raw."""
    game = generated("four-hand", players={"N": HOSTILE, "E": "</script><b>x</b>"})
    page = render_page([game_view(game, title="A & B </script>")], "t <i>")
    data = page.split('<script type="application/json" class="euchrelog-game"', 1)[1]
    data = data.split(">", 1)[1].split("</script>", 1)[0]
    assert "<" not in data and ">" not in data and "&" not in data
    assert json.loads(data)["names"]["N"] == HOSTILE
    assert 'data-title="A &amp; B &lt;/script&gt;"' in page
    assert "<title>t &lt;i&gt;</title>" in page
    assert script_json("\u2028") == '"\\\\u2028"'  # the line separator shown, not obeyed


def test_page_needs_no_network() -> None:
    """The page names no address to fetch: no src, href or url() to anything but itself."""
    page = render_page([game_view(generated("ghost"))], "g")
    assert not re.search(r"\b(?:src|href)\s*=", page)
    assert "url(#card-back)" in page and not re.search(r"url\((?!#)", page)
    assert "http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'" in page


def test_cli_writes_the_page_beside_the_record(tmp_path: Path) -> None:
    record = tmp_path / "club.euchre"
    record.write_text(dumps_game(generated("two-hand", deals=1)))
    result = view(str(record))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "club.html").read_text().startswith("<!DOCTYPE html>")
    assert "wrote" in result.output and "0 findings" in result.output


def test_cli_exit_status_one_for_findings(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = view(str(SAMPLES / "invalid" / "R801-renege.euchre"), "-o", str(out))
    assert result.exit_code == 1 and out.exists() and "1 finding" in result.output


def test_cli_syntax_error_is_placed_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "s.html"
    source = SAMPLES / "invalid" / "S101-syntax-error.euchre"
    result = view(str(source), "-o", str(out))
    assert result.exit_code == 2 and not out.exists()
    assert re.search(rf"{re.escape(str(source))}:\d+:\d+: S101 ", result.output)
    assert "Traceback" not in result.output


def test_cli_reads_standard_input_to_standard_output() -> None:
    text = (SAMPLES / "valid" / "score-sheet.euchre").read_text()
    result = view("-", "-q", stdin=text)
    assert result.exit_code == 0
    assert result.output.startswith("<!DOCTYPE html>") and "wrote" not in result.output


@pytest.mark.parametrize("text", ["{not json", '{"format": "euchrelog", "games": [1]}', ""])
def test_cli_unreadable_json_or_empty_input(text: str) -> None:
    result = view("-", stdin=text)
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_check_does_not_import_the_viewer() -> None:
    """The viewer is a command of its own: ``check`` starts without it."""
    code = ("import sys\nfrom euchrelog.cli import main\n"
            "print([m for m in sys.modules if m.startswith(('euchrelog.viewer', "
            "'euchrelog.analysis'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_cli_help_teaches() -> None:
    result = view("--help")
    assert result.exit_code == 0 and "Examples:" in result.output and "euchrelog view" in (
        result.output)


# ---------------------------------------------------------------- in the browser

_DOM = """() => {
  const hands = {};
  for (const seat of document.querySelectorAll('.board .seat[data-seat]'))
    hands[seat.dataset.seat] = [...seat.querySelectorAll('svg.card')].map(c => c.dataset.card);
  const table = [...document.querySelectorAll('#table .played')].map(
    p => [p.dataset.seat, p.querySelector('svg.card').dataset.card]);
  const score = {};
  for (const row of document.querySelectorAll('#score tr[data-side]'))
    score[row.dataset.side] = Number(row.querySelector('[data-score]').dataset.score);
  return {frame: Number(document.body.dataset.frame), hands, table, score};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's tests."""
    with launched_browser() as launched:
        yield launched


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that fails the test on any script error or request off the machine."""
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    opened.on("request", lambda req: errors.append(req.url)
              if not req.url.startswith("file://") else None)
    yield opened
    context.close()
    assert not errors


def _open(page: Any, tmp_path: Path, views: Iterable[dict[str, Any]], name: str = "v") -> None:
    out = tmp_path / f"{name}.html"
    out.write_text(render_page(views, name), encoding="utf-8")
    page.goto(out.as_uri())


@pytest.mark.parametrize("variant", VARIANTS)
def test_browser_steps_through_a_whole_game(page: Any, tmp_path: Path, variant: str) -> None:
    """Step by step with the right arrow, the DOM shows what the engine's replay holds."""
    game = generated(variant, seed=11)
    _open(page, tmp_path, [game_view(game)])
    steps = list(expected_steps(game))
    for k, step in enumerate(steps):
        dom = page.evaluate(_DOM)
        hands = {seat: sorted(cards) for seat, cards in dom["hands"].items()}
        assert dom["frame"] == k
        assert (hands, dom["table"], dom["score"]) == (step["hands"], step["table"],
                                                       step["score"]), f"step {k}"
        page.keyboard.press("ArrowRight")
    assert page.evaluate(_DOM)["frame"] == len(steps) - 1  # stays at the end
    page.keyboard.press("Home")
    assert page.evaluate(_DOM)["frame"] == 0
    page.keyboard.press("End")
    assert page.evaluate(_DOM)["score"] == replay(game).totals


@pytest.mark.parametrize("detail", ["play-only", "unknown-cards", "score-sheet"])
def test_browser_partial_records(page: Any, tmp_path: Path, detail: str) -> None:
    """Card backs where the record does not know a card; no hand at all on a score sheet."""
    game = generated("four-hand", detail, seed=5)
    _open(page, tmp_path, [game_view(game)])
    steps = list(expected_steps(game))
    for k in (0, len(steps) // 2, len(steps) - 1):
        page.evaluate(f"() => {{ const s = document.getElementById('slider'); s.value = '{k}';"
                      " s.dispatchEvent(new Event('input')); }")
        dom = page.evaluate(_DOM)
        assert {s: sorted(c) for s, c in dom["hands"].items()} == steps[k]["hands"]
        assert dom["table"] == steps[k]["table"]


def test_browser_marks_the_renege(page: Any, tmp_path: Path) -> None:
    """The renege sample: its card is marked on the table with its message."""
    path = SAMPLES / "invalid" / "R801-renege.euchre"
    views = views_of_text(path.read_text(), str(path))
    _open(page, tmp_path, views)
    page.click("#findings button")
    marked = page.locator("#table svg.card.fault")
    assert marked.count() == 1 and marked.get_attribute("data-card") == "QS"
    assert "renege" in (marked.get_attribute("aria-label") or "")
    assert "R801" in page.text_content("#status")
    page.keyboard.press("ArrowRight")
    marked = page.locator("#table svg.card.fault")  # still on the table, with its words
    assert marked.count() == 1 and "R801" in (marked.get_attribute("aria-label") or "")


def test_browser_hostile_names_show_as_text(page: Any, tmp_path: Path) -> None:
    """A player named like an HTML tag is shown as that text, and nothing of it runs."""
    game = generated("four-hand", players={"N": HOSTILE, "E": "<script>window.__pwned=2"
                                                             "</script>"})
    game = game.model_copy(update={"tags": (*game.tags, game.tags[0].model_copy(
        update={"name": "Note", "value": "</script><img src=y onerror=window.__pwned=3>"}))})
    _open(page, tmp_path, [game_view(game, title=HOSTILE)], name="hostile")
    for _ in range(len(game_view(game)["frames"])):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.__pwned") is None
    assert page.locator("img").count() == 0 and page.locator("script").count() == 2
    assert HOSTILE in page.text_content(".board .seat[data-seat=N] .label")
    assert HOSTILE in page.text_content("#title")
    page.select_option("#view-select", "N")
    assert HOSTILE in page.text_content(".board .seat[data-seat=N] .label")


def test_browser_one_seats_view(page: Any, tmp_path: Path) -> None:
    """Following one seat shows only that seat's cards; the others are backs."""
    game = generated("cutthroat", seed=3)
    _open(page, tmp_path, [game_view(game)])
    page.select_option("#view-select", "E")
    dom = page.evaluate(_DOM)
    assert all(set(cards) == {"back"} for seat, cards in dom["hands"].items() if seat != "E")
    assert "back" not in dom["hands"]["E"]
    assert page.get_attribute("#spot-bottom", "data-seat") == "E"  # the seat followed sits
    assert page.get_attribute("#spot-left", "data-seat") == "S"  # at the bottom, the others
    assert page.get_attribute("#spot-top", "data-seat") is None  # around it (the dummy)
    assert page.locator(".kitty svg[data-card=back]").count() > 0
    page.select_option("#view-select", "all")
    assert page.get_attribute("#spot-top", "data-seat") == "N"
    assert page.locator(".kitty svg[data-card=back]").count() == 0


def test_browser_game_list_deal_and_trick_jumps(page: Any, tmp_path: Path) -> None:
    """A file of several games has a game list; the deal list and trick buttons jump."""
    text = (SAMPLES / "valid" / "several-games.euchre").read_text()
    views = list(views_of_text(text, "several.euchre"))
    _open(page, tmp_path, views)
    assert page.locator("#game-select option").count() == len(views) > 1
    page.select_option("#game-select", "1")
    assert page.text_content("#title") == views[1]["title"]
    second = views[1]["deals"][1]
    page.select_option("#deal-select", "1")
    assert page.evaluate(_DOM)["frame"] == second["frame"]
    if second["tricks"]:
        page.click("#tricks button >> nth=1")
        assert page.evaluate(_DOM)["frame"] == second["tricks"][1]
    page.focus("#trick-1")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "trick-1"  # kept on redraw
    page.keyboard.press("PageUp")  # to the start of this deal, then to the one before
    assert page.evaluate(_DOM)["frame"] == second["frame"]
    page.keyboard.press("PageUp")
    assert page.evaluate(_DOM)["frame"] == views[1]["deals"][0]["frame"]


def test_browser_prints_one_deal_a_page(page: Any, tmp_path: Path) -> None:
    """In print, the board is hidden and every deal is a page with all its tricks."""
    game = generated("four-hand", seed=2, deals=3)
    data = game_view(game)
    _open(page, tmp_path, [data])
    page.emulate_media(media="print")
    assert page.locator(".board").is_hidden()
    sheets = page.locator(".print-deal")
    assert sheets.count() == len(data["deals"])
    for k, deal in enumerate(data["deals"]):
        assert sheets.nth(k).locator("tr:has(td.won)").count() == len(deal["tricks"])
    assert page.evaluate("() => getComputedStyle(document.querySelector('.print-deal'))"
                         ".breakAfter") == "page"


def test_browser_prints_the_renege_marked(page: Any, tmp_path: Path) -> None:
    """The printed deal marks the renege's card in its trick and gives the finding."""
    path = SAMPLES / "invalid" / "R801-renege.euchre"
    _open(page, tmp_path, views_of_text(path.read_text(), str(path)))
    page.emulate_media(media="print")
    assert page.locator(".print-deal td.fault").all_text_contents() == ["E QS"]
    assert "R801" in page.text_content(".print-deal")


def test_browser_fits_a_phone(browser: Any, tmp_path: Path) -> None:
    """On a phone-sized screen the page does not scroll sideways."""
    context = browser.new_context(viewport={"width": 375, "height": 740})
    phone = context.new_page()
    out = tmp_path / "phone.html"
    out.write_text(render_page([game_view(generated("four-hand"))], "p"), encoding="utf-8")
    phone.goto(out.as_uri())
    for _ in range(8):
        phone.keyboard.press("ArrowRight")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 375
    context.close()


def test_browser_controls_are_labelled(page: Any, tmp_path: Path) -> None:
    """Every button and control has a name for a screen reader."""
    _open(page, tmp_path, [game_view(generated("three-hand"))])
    unnamed = page.evaluate("""() => [...document.querySelectorAll('button, select, input')]
      .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim()
                     || (e.labels && e.labels.length))).length""")
    assert unnamed == 0
    assert page.locator("svg.card[role=img][aria-label]").count() > 0
    assert page.get_attribute("#status", "aria-live") == "polite"


# ---------------------------------------------------------------- the double-dummy layer


def test_double_dummy_values_come_from_the_analysis() -> None:
    """Each play of a reviewed deal has its cost, and the frame before it the value of each
    legal card and the perfect-play line after each, as the analysis gives them."""
    from euchrelog.analysis import DealReview, principal_line, review_game

    game = generated("four-hand", seed=4, deals=3)
    (data,) = views_of_text(dumps_game(game), "dd.euchre", double_dummy=True)
    reviews = list(review_game(game, par=False))
    assert data["dd"] is True
    for entry, review in zip(data["deals"], reviews, strict=True):
        if not isinstance(review, DealReview):
            assert entry["dd"] == {"skipped": review.reason}
            continue
        assert entry["dd"]["dd"] == review.dd and entry["dd"]["made"] == review.made
        plays = [k for k in range(entry["frame"], entry["score"])
                 if data["frames"][k]["kind"] == "play"]
        for p, (k, play) in enumerate(zip(plays, review.plays, strict=True)):
            played, choice = data["frames"][k]["ddPlayed"], data["frames"][k - 1]["dd"]
            assert (played["card"], played["loss"]) == (str(play.card), play.loss)
            assert dict(map(tuple, choice["values"])) == {
                str(c): v for c, v in play.values.items()}
            size = len(review.seats)
            before = [[r.seat.value, str(r.card)] for r in review.plays[p - p % size:p]]
            for card in play.values if len(play.values) > 1 else ():
                tricks = choice["lines"][str(card)]
                line = [pl for trick in tricks for pl in trick["plays"]]
                assert line == before + [[s.value, str(c)]
                                         for s, c in principal_line(review, p, card)]
                assert all(len(t["plays"]) == size and t["winner"] in review_seats(review)
                           for t in tricks)


def review_seats(review: Any) -> list[str]:
    """The seats that play a reviewed deal, as letters."""
    return [seat.value for seat in review.seats]


def test_double_dummy_skips_what_it_cannot_review() -> None:
    """A play-only game is not reviewed: each deal says why."""
    game = generated("four-hand", "play-only")
    text = dumps_game(game)
    (data,) = views_of_text(text, "p.euchre", double_dummy=True)
    assert all("play-only" in entry["dd"]["skipped"] for entry in data["deals"])


def test_browser_try_another_card(page: Any, tmp_path: Path) -> None:
    """At a choice, 'try' shows the line under perfect play; 'back' returns to the game."""
    views = list(views_of_text(dumps_game(generated("four-hand", seed=4)), "dd.euchre",
                               double_dummy=True))
    frames = views[0]["frames"]
    at = next(k for k, f in enumerate(frames) if f.get("dd") and f["dd"]["lines"])
    _open(page, tmp_path, views)
    for _ in range(at):
        page.keyboard.press("ArrowRight")
    choice = frames[at]["dd"]
    rows = page.locator("#dd-values tr[data-card]")
    assert rows.count() == len(choice["values"])
    card = choice["values"][-1][0]
    page.click(f"#dd-values tr[data-card={card}] button")
    line = page.locator("#dd-line li")
    assert line.count() == len(choice["lines"][card])
    first = choice["lines"][card][0]
    words = ", ".join(f"{s} {c}" for s, c in first["plays"]) + f": {first['winner']} wins"
    assert line.first.text_content() == words
    page.click("#dd-back")
    assert page.locator("#dd-line").count() == 0
    assert page.evaluate(_DOM)["frame"] == at
    page.keyboard.press("ArrowRight")
    played = frames[at + 1]["ddPlayed"]
    assert played["card"] in page.text_content("#dd-played")


def test_cli_views_a_game_from_elsewhere(tmp_path: Path) -> None:
    """An EGN file is viewed as it is checked: converted, then replayed."""
    out = tmp_path / "egn.html"
    result = view(str(ROOT / "tests" / "data" / "egn" / "Epic Comeback.egn"), "-o", str(out),
                  "--no-dd")
    assert result.exit_code == 0, result.output
    assert '"variant":"four-hand"' in out.read_text()


# ---------------------------------------------------------------- score --out-dir


def test_score_out_dir_links_each_game_to_its_replay(tmp_path: Path) -> None:
    """The standings page links every table of every round to its game's viewer page."""
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["score", str(SAMPLES / "events" / "spring-progressive"),
                                       "--format", "html", "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text()
    links = re.findall(r'<a href="(games/[^"]+\.html)"', index)
    games = int(re.search(r"(\d+) games", result.output).group(1))  # type: ignore[union-attr]
    assert len(links) == len(set(links)) == games > 1
    for link in links:
        page = (out / link).read_text()
        assert 'class="euchrelog-game"' in page and '"frames":' in page


@pytest.mark.parametrize("args", [["--format", "text"], ["--format", "html", "-o", "x.html"],
                                  ["--format", "json", "--check"]])
def test_score_out_dir_wants_html_alone(tmp_path: Path, args: list[str]) -> None:
    result = CliRunner().invoke(main, ["score", str(SAMPLES / "events" / "spring-progressive"),
                                       "--out-dir", str(tmp_path / "s"), *args])
    assert result.exit_code == 2 and "--out-dir" in result.output


def test_browser_page_without_a_game(page: Any, tmp_path: Path) -> None:
    """A page of no game (the API allows it) says so, without a script error."""
    _open(page, tmp_path, [])
    page.keyboard.press("ArrowRight")
    page.click("#next")
    assert "no game" in page.text_content("#status")


def test_browser_game_without_a_deal(page: Any, tmp_path: Path) -> None:
    """A game recorded with no deal (only ``unfinished``) opens without a script error."""
    views = list(views_of_text('[Variant "four-hand"]\nunfinished\n', "empty.euchre"))
    _open(page, tmp_path, views)
    for key in ("ArrowRight", "End", "PageDown", "ArrowDown"):
        page.keyboard.press(key)
    assert "no deal" in page.text_content("#status")


def test_browser_a_seats_view_hides_the_others_card_values(page: Any, tmp_path: Path) -> None:
    """Following one seat, the double-dummy panel gives card values only at that seat's
    turn (they would show another hand)."""
    views = list(views_of_text(dumps_game(generated("four-hand", seed=4)), "dd.euchre",
                               double_dummy=True))
    frames = views[0]["frames"]
    at = next(k for k, f in enumerate(frames) if f.get("dd"))
    seat = frames[at]["dd"]["seat"]
    other = next(s for s in views[0]["seats"] if s != seat)
    _open(page, tmp_path, views)
    page.evaluate(f"() => {{ const s = document.getElementById('slider'); s.value = '{at}';"
                  " s.dispatchEvent(new Event('input')); }")
    page.select_option("#view-select", other)
    assert page.locator("#dd-values").count() == 0
    page.select_option("#view-select", seat)
    assert page.locator("#dd-values").count() == 1


def test_comments_are_shown_at_their_line(page: Any, tmp_path: Path) -> None:
    """The record's comments show with the act of their line (a hostile one as text), and
    the comments above the game in its header."""
    text = (SAMPLES / "invalid" / "R801-renege.euchre").read_text()
    text = text.replace("  1. E: AD", f"  # {HOSTILE}\n  1. E: AD", 1)
    text = text.replace("W order\n", "W order  # West orders\n", 1)
    (data,) = views_of_text(text, "c.euchre")
    noted = {f["text"]: f["notes"] for f in data["frames"] if f["notes"]}
    assert [HOSTILE] in noted.values() and any("West orders" in n[0] for n in noted.values())
    assert data["comments"] and data["comments"][0].startswith("Mistake")
    _open(page, tmp_path, [data])
    first = data["deals"][0]["tricks"][0]
    page.evaluate(f"() => {{ const s = document.getElementById('slider'); s.value = '{first}';"
                  " s.dispatchEvent(new Event('input')); }")
    assert page.text_content("#notes") == HOSTILE
    assert page.locator("img").count() == 0 and page.evaluate("() => window.__pwned") is None
    assert "Mistake" in page.text_content("#game-notes")


def test_noqa_leaves_a_finding_out_as_check_does() -> None:
    """A ``# noqa`` comment on a finding's line leaves it out of the page, as of ``check``."""
    text = (SAMPLES / "invalid" / "R801-renege.euchre").read_text()
    line = next(k for k, t in enumerate(text.split("\n")) if t.startswith("  3. N: AC"))
    lines = text.split("\n")
    lines[line] += "  # noqa: R801"
    (data,) = views_of_text("\n".join(lines), "n.euchre")
    assert data["findings"] == []
    checked = CliRunner().invoke(main, ["check", "-"], input="\n".join(lines))
    assert checked.exit_code == 0


def test_score_out_dir_links_the_readable_games_of_a_file(tmp_path: Path) -> None:
    """A game with a syntax error gets no page; the other games of its file still do."""
    event = tmp_path / "event"
    event.mkdir()
    for source in sorted((SAMPLES / "events" / "spring-progressive").glob("*.euchre")):
        (event / source.name).write_text(source.read_text())
    first = sorted(event.glob("*.euchre"))[0]
    text = first.read_text()
    cut = text.index("deal 1 dealer")
    first.write_text(text[:cut] + text[cut:].replace("  1. ", "  1. ZZ ", 1))
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["score", str(event), "--format", "html",
                                       "--out-dir", str(out), "-q"])
    assert result.exit_code == 2
    links = re.findall(r'<a href="(games/[^"]+\.html)"', (out / "index.html").read_text())
    games = sum(p.read_text().count("[Event ") for p in event.glob("*.euchre"))
    assert len(links) == games - 1


def test_cli_a_note_is_no_fault(tmp_path: Path) -> None:
    """A claimed renege is a note, as for ``check``: the exit status stays 0."""
    result = view(str(SAMPLES / "invalid" / "R801-renege-claimed.euchre"), "-o",
                  str(tmp_path / "c.html"))
    assert result.exit_code == 0 and "0 findings and 1 note" in result.output


def test_the_script_knows_no_rule_of_the_game() -> None:
    """A guard for the design: the page's script names no suit led, trump ranking, bower or
    follow rule; every state it draws is computed in Python."""
    from importlib.resources import files

    script = files("euchrelog.viewer").joinpath("viewer.js").read_text(encoding="utf-8")
    assert not re.search(r"\b(led|follow\w*|bowers?|power|rank(?:ing|s)? of|renege)\b",
                         script, re.IGNORECASE)


def test_score_out_dir_links_games_of_json_lines(tmp_path: Path) -> None:
    """Games of a JSON Lines file are placed at their lines and linked too."""
    source = SAMPLES / "events" / "spring-progressive" / "round-1.euchre"
    lines = tmp_path / "round-1.jsonl"
    lines.write_text(dumps_json(loads(source.read_text()), lines=True))
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["score", str(lines), "--format", "html",
                                       "--out-dir", str(out), "-q"])
    assert result.exit_code == 0, result.output
    links = re.findall(r'<a href="(games/[^"]+\.html)"', (out / "index.html").read_text())
    assert len(links) == len(loads(source.read_text()).games)


def test_dealer_holds_no_untold_discard() -> None:
    """A record may leave out the dealer's exchange line after an order up (the dealer
    takes the upcard and discards a card the play then tells): the dealer's hand shows
    only the cards the dealer holds, and the discard lies with the discards, exactly as
    when the record writes the exchange (the upcard discarded, or another card). (A deal
    whose dealer sits out a partner's lone hand keeps its exchange line: no play tells
    that discard.)"""
    exchange = re.compile(r"^  [NESW] takes \S+ discards \S+\n", re.MULTILINE)
    compared = upcard_discarded = 0
    for seed in range(40):
        text = dumps_game(generated("four-hand", seed=seed, deals=4))
        blocks = text.split("\n\n")
        untold_text = "\n\n".join(b if "\n  alone " in b else exchange.sub("", b)
                                  for b in blocks)
        if untold_text == text:
            continue
        (told,) = views_of_text(text, "told.euchre")
        (untold,) = views_of_text(untold_text, "untold.euchre")
        assert untold["findings"] == told["findings"] == []
        plays = [(f["hands"], f["discards"], f["up"]) for f in told["frames"]
                 if f["kind"] in ("play", "score")]
        assert plays == [(f["hands"], f["discards"], f["up"]) for f in untold["frames"]
                         if f["kind"] in ("play", "score")]
        compared += 1
        upcard_discarded += any(f["up"] in f["discards"] for f in told["frames"])
    assert compared >= 10


UPCARD_DISCARDED = """[Variant "four-hand"]
[Target "2"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards JH
  1. E: AD  S: 9D  W: 9H  N: KD
  2. W: JD  N: AC  E: 9C  S: 9S
  3. W: AH  N: KC  E: TC  S: TS
  4. W: KH  N: QC  E: QS  S: AS
  5. W: QH  N: JC  E: KS  S: TD
  points EW 2

result NS 0 EW 2 winner EW
"""


def test_dealer_who_discards_the_upcard_shows_it_no_more() -> None:
    """The dealer takes the upcard and discards it at once; written or not, the upcard
    lies with the discards, never face up in the dealer's hand to the end of the deal."""
    (told,) = views_of_text(UPCARD_DISCARDED, "told.euchre")
    untold_text = UPCARD_DISCARDED.replace("  N takes JH discards JH\n", "")
    (untold,) = views_of_text(untold_text, "untold.euchre")
    assert told["findings"] == untold["findings"] == []
    plays = [f for f in untold["frames"] if f["kind"] in ("play", "score")]
    assert all("JH" not in f["hands"]["N"]["cards"] and f["discards"] == ["JH"] for f in plays)
    assert plays[-1]["hands"]["N"] == {"cards": [], "backs": 0}
    assert [f["hands"] for f in plays] == [f["hands"] for f in told["frames"]
                                           if f["kind"] in ("play", "score")]


def test_a_deal_left_short_keeps_the_cards_the_dealer_may_hold() -> None:
    """Where the play does not tell the discard (the deal is left short), the dealer's
    hand keeps every card it may still hold."""
    text = (SAMPLES / "invalid" / "R801-renege.euchre").read_text()
    lines = [line for line in text.split("\n") if not re.match(r"  [NESW] takes ", line)]
    short = "\n".join(line for line in lines if not line.startswith(("  4. ", "  5. ")))
    (data,) = views_of_text(short, "short.euchre")
    last = [f for f in data["frames"] if f["kind"] == "play"][-1]
    dealer = data["deals"][0]["dealer"]
    assert len(last["hands"][dealer]["cards"]) == 3  # two to play, and the untold discard


_HIGH_WATER = ("peak = next(int(line.split()[1]) for line in open('/proc/self/status')\n"
               "            if line.startswith('VmHWM:'))\n"
               "print('peak', peak, file=sys.stderr)\n")
"""Prints the process's peak RSS (KB) on standard error: its memory's high-water mark
(``VmHWM``; not ``ru_maxrss``, which a child started by a large process such as a
test worker inherits from it on Linux)."""

_PEAK = ("import sys\n"
         "from euchrelog.cli import run\n"
         "sys.argv = ['euchrelog', *sys.argv[1:]]\n"
         "try:\n"
         "    run()\n"
         "finally:\n" + "".join(f"    {line}\n" for line in _HIGH_WATER.splitlines()))
"""Runs the command line, then prints its peak RSS (see :data:`_HIGH_WATER`)."""


def _deals_text(deals: int, one_game: bool) -> str:
    """At least ``deals`` deals of four-hand games from the generator (the same 20 games
    over and over), as games or as one game of them all."""
    rng = random.Random(5)
    games = [random_game(rng, ruleset_for("four-hand")) for _ in range(20)]
    texts, count = [], 0
    while count < deals:
        for game in games:
            texts.append(dumps_game(game))
            count += len(game.deals)
    if not one_game:
        return "\n".join(texts)
    blocks = [b for t in texts for b in t.split("\n\n") if b.startswith("deal ")]
    body = "\n\n".join(re.sub(r"^deal \d+", f"deal {n}", re.sub(r"  total .*", "", b))
                       for n, b in enumerate(blocks, 1))
    return f'[Variant "four-hand"]\n[Target "1000000"]\n\n{body}\n\nunfinished\n'


def _peak_mb(*args: str) -> float:
    """The peak RSS (MB) of ``python -c CODE ARGS``, whose code prints it (see
    :data:`_PEAK`)."""
    done = subprocess.run([sys.executable, "-c", *args], capture_output=True, text=True,
                          check=False)
    assert done.returncode in (0, 1), done.stderr[-2000:]  # (one game: dealers out of turn)
    return int(done.stderr.rsplit("peak", 1)[1]) / 1024


@pytest.mark.slow
def test_view_of_ten_thousand_deals_stays_under_300_mb(tmp_path: Path) -> None:
    """``view`` writes its page as it makes it, a game and a deal at a time: 10,000 deals
    in less than 300 MB (the page itself is larger than that)."""
    record = tmp_path / "many.euchre"
    record.write_text(_deals_text(10_000, one_game=False), encoding="utf-8")
    page = tmp_path / "many.html"
    peak = _peak_mb(_PEAK, "view", "--no-dd", "-q", "-o", str(page), str(record))
    assert peak < 300
    text = page.read_text(encoding="utf-8")
    games = record.read_text(encoding="utf-8").count('[Variant "')
    assert text.endswith("</html>\n") and text.count('class="euchrelog-game"') == games
    last = text.rsplit('<script type="application/json" class="euchrelog-game"', 1)[1]
    data = json.loads(last.split(">", 1)[1].split("</script>", 1)[0])
    assert data["frames"][-1]["kind"] == "score" and data["deals"][-1]["score"] == len(
        data["frames"]) - 1


_PARSE = ("import sys\n"
          "from euchrelog.notation import loads\n"
          "log = loads(open(sys.argv[1], encoding='utf-8').read())\n" + _HIGH_WATER)


@pytest.mark.slow
def test_view_of_one_game_of_ten_thousand_deals_costs_little_beyond_the_game(
        tmp_path: Path) -> None:
    """One game of 10,000 deals (some with a finding: its dealers do not always turn) must
    be read whole, for its replay; writing its page costs little beyond that: its frames
    are made and written a deal at a time."""
    record = tmp_path / "one.euchre"
    record.write_text(_deals_text(10_000, one_game=True), encoding="utf-8")
    page = tmp_path / "one.html"
    read = _peak_mb(_PARSE, str(record))
    peak = _peak_mb(_PEAK, "view", "--no-dd", "-q", "-o", str(page), str(record))
    assert peak - read < 60, (read, peak)
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split('class="euchrelog-game"', 1)[1].split(">", 1)[1].split(
        "</script>", 1)[0])
    assert len(data["deals"]) >= 10_000 and data["findings"]
