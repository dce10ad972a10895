"""The one way out for pages (:mod:`euchrelog.present`): the one escaper, the templates'
environment, and every page of the project neutral to what a record holds: no markup, no
control character and no mark that reorders text (U+202E RIGHT-TO-LEFT OVERRIDE, U+2066
LEFT-TO-RIGHT ISOLATE, ...) reaches a page raw, whether in its text, its attributes, its
charts or its script's data."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from euchrelog.events import read_entries, score_events
from euchrelog.events.output import render_html as score_html
from euchrelog.present import Markup, escape, neutral, render, script_json
from euchrelog.present.render import render_text
from euchrelog.serve import pages
from euchrelog.serve.cards import TableCard
from euchrelog.serve.judge import game_header
from euchrelog.serve.season import scorecard, season
from euchrelog.serve.standings import Standings
from euchrelog.stats import Collector
from euchrelog.stats.output import render_html as stats_html
from euchrelog.viewer import render_page, views_of_text
from support.browser import chromium_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"

RAW = ("\u202e", "\u202a", "\u202b", "\u202c", "\u202d", "\u2066", "\u2067", "\u2068",
       "\u2069", "\u200e", "\u200f", "\u061c", "\x1b", "\x07", "\x08", "\r", "\x7f", "\x85",
       "\x9b", "\u2028", "\u2029")
"""Every character a page must never hold raw: the bidirectional embeddings, overrides,
isolates and marks, C0 and C1 controls, and the line separators that are not line
feeds."""

HOSTILE = "Ann\u202eevil\u2066x\u2069\x1b[2J\x07\x85\u200f<b>&"
"""A name with a right-to-left override, an isolate, an escape sequence, a bell, a C1
control, a mark, and markup."""


def assert_neutral(page: str) -> None:
    """No character of :data:`RAW` in ``page``, and the hostile name's markup escaped."""
    found = sorted({f"U+{ord(c):04X}" for c in RAW if c in page})
    assert not found, found
    assert "<b>&" not in page


# ---------------------------------------------------------------- the escaper


def test_escape_shows_what_a_screen_would_obey() -> None:
    assert escape(HOSTILE) == ("Ann\\u202eevil\\u2066x\\u2069\\x1b[2J\\x07\\x85\\u200f"
                               "&lt;b&gt;&amp;")
    assert escape('"q" \'a\'') == "&#34;q&#34; &#39;a&#39;"  # attributes too
    assert escape("tab\tand\nline") == "tab\tand\nline"  # whitespace is text
    assert escape(Markup("<b>ok</b>")) == "<b>ok</b>"
    for char in RAW:
        assert char not in escape(f"a{char}b")
    assert neutral("\u202e") == "\\u202e"


def test_script_json_keeps_the_data_and_neutralises_its_strings() -> None:
    data = {"name": HOSTILE, "quote": 'a "b" \\ c', "list": [1, None, "\u2066"],
            "tab": "a\tb", "close": "</script><!--"}
    text = script_json(data)
    assert_neutral(text)
    assert "<" not in text and ">" not in text and "&" not in text
    back = json.loads(text)
    assert back["quote"] == data["quote"] and back["tab"] == "a\tb"
    assert back["close"] == "</script><!--" and back["list"][:2] == [1, None]
    assert back["name"] == neutral(HOSTILE) and back["list"][2] == "\\u2066"
    # a backslash before a "u" is text, not an escape: it stays as it is
    assert json.loads(script_json("\\u202e is six characters")) == "\\u202e is six characters"


def test_every_output_of_a_template_goes_through_the_escaper() -> None:
    """``{{ }}`` escapes text and attributes alike, and ``tojson`` is the escaper's."""
    page = render_text('<p title="{{ x }}">{{ x }}</p><script>{{ d | tojson }}</script>',
                       x=HOSTILE, d={"n": HOSTILE})
    assert_neutral(page)
    assert page.count("Ann\\u202eevil") == 2 and page.count("Ann\\\\u202eevil") == 1
    assert render_text("{{ m }}", m=Markup("<i>kept</i>")) == "<i>kept</i>"


def test_every_page_extends_the_one_shell() -> None:
    templates = ROOT / "src" / "euchrelog" / "present" / "templates"
    pages_ = [p for p in templates.rglob("*.html")
              if "<html" in p.read_text() or "{% extends" in p.read_text()]
    assert len(pages_) >= 10
    for path in pages_:
        text = path.read_text()
        assert path.name == "base.html" or "{% extends" in text, path
    assert "<!DOCTYPE html>" in (templates / "base.html").read_text()
    assert all("<!DOCTYPE" not in p.read_text() for p in pages_ if p.name != "base.html")


def test_no_page_is_built_by_hand() -> None:
    """The pages' modules neither escape nor write HTML themselves: no ``html.escape``,
    no private escaper, no page shell outside the templates."""
    src = ROOT / "src" / "euchrelog"
    for path in src.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "html.escape" not in text and "import html\n" not in text, path
        assert "<!DOCTYPE" not in text or path.parent.name == "present", path


# ---------------------------------------------------------------- every page


def _game(names: dict[str, str]) -> str:
    tags = "".join(f'[{seat} "{name}"]\n' for seat, name in names.items())
    text = (SAMPLES / "invalid" / "R801-renege.euchre").read_text(encoding="utf-8")
    text = re.sub(r'^\[[NESW] "[^"]*"\]\n', "", text, flags=re.MULTILINE)
    text = text.replace("[Event", f"[Date \"2025-05-17\"]\n{tags}[Event", 1)
    return text.replace("Tuesday League", "League\u202e\u2066 \x1b[31m", 1)


HOSTILE_GAME = _game({"N": HOSTILE, "E": "Bob\u2067", "S": "Cy\x9b", "W": "Dee\u061c"})
"""A renege sample with hostile names and event (a finding, so the pages list one)."""


def test_view_page_is_neutral() -> None:
    text = HOSTILE_GAME.replace("  1. E: AD", "  # a comment \u202e\u2068 \x1b]0;x\x07\n"
                                             "  1. E: AD", 1)
    page = render_page(views_of_text(text, "h.euchre"), f"title {HOSTILE}")
    assert_neutral(page)
    assert "Ann\\\\u202eevil" in page  # in the data, the escape is text
    assert 'data-title="League\\u202e\\u2066 \\x1b[31m"' in page


def test_stats_page_is_neutral() -> None:
    collector = Collector()
    for entry in read_entries(HOSTILE_GAME, "h.euchre"):
        assert entry.game is not None
        from euchrelog.replay import replay

        collector.add(entry.game, replay(entry.game))
    page = stats_html(collector)
    assert_neutral(page)
    assert "Ann\\u202eevil" in page and page.count('class="chart ') == 2


def hostile_event() -> str:
    """The partners event of the samples, its name and a player's hostile."""
    folder = SAMPLES / "events" / "legion-partners-cup"
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.euchre")))
    return text.replace("Legion Partners Cup", "Cup\u202e\u2066 \x1b[31m").replace(
        "Alfie Trask", HOSTILE)


def test_score_page_is_neutral() -> None:
    events = score_events(read_entries(hostile_event(), "h.euchre"))
    page = score_html(events)
    assert_neutral(page)
    assert "Cup\\u202e\\u2066" in page and page.count("Ann\\u202eevil") > 3


def test_serve_pages_are_neutral() -> None:
    """Every page of the server, the wall's room and the table cards, fed hostile text
    everywhere."""
    event = {"id": 1, "name": HOSTILE, "variant": "four-hand\u202e",
             "format": "progressive\x1b"}
    seats = {"N": HOSTILE, "E": "Bob\u2067", "S": "Cy", "W": "Dee"}
    game = {"round": 1, "table_no": 2, "deals": 1, "pending": {"deal": 1, "by": "NS"},
            "record": "",
            "disputed": [], "header": game_header("four-hand", "partners", None, "Club", 1,
                                                  2, {"N": "A", "E": "B", "S": "C", "W": "D"}),
            "state": {"seats": seats, "totals": {"NS": 1}, "winner": None, "over": False,
                      "next": {"deal": 2, "dealer": "E"}}}
    finding = {"path": "x\u202e.euchre", "line": 1, "column": 2, "code": "C901",
               "message": HOSTILE}
    history = {"round": 1, "table_no": 2, "number": 3, "created": "now",
               "reason": HOSTILE, "old_text": "deal 1\r\n\x1b", "new_text": "\u2066"}
    waiting = {"round": 1, "table": 2, "deal": 1, "status": "disputed", "entered_by": "NS",
               "text": HOSTILE, "disputed_by": "table EW", "reason": HOSTILE}
    standings = Standings(1, score_events(read_entries(hostile_event(), "h.euchre")), "{}")
    room = pages.room([game], standings.events)
    card = TableCard(1, 2, seats, f"https://club/events/1/rounds/1/tables/2#token={HOSTILE}")
    shown = [pages.index([event]), pages.login("tok\u202e"), pages.login("t", failed=True),
             pages.director_home([event], "t", HOSTILE, {"name": HOSTILE, "draw": HOSTILE}),
             pages.director_event(event, [(1, 2, f"/x#{HOSTILE}")],
                                  pages.progress([game], [finding], [history], [waiting], 1,
                                                 "t"), "t", HOSTILE),
             pages.table_page(event, game),
             pages.wall_page(event, room, 1),
             pages.cards_page(event, [game], [card]),
             pages.season_page(season([(event, standings.events)], {12: HOSTILE}), 1),
             pages.player_page(HOSTILE, None, scorecard(
                 [(event, standings.events)], standings.events[0].cards[0].name.casefold())),
             pages.error_page(404, HOSTILE)]
    for page in shown:
        assert_neutral(page)
        assert page.startswith("<!DOCTYPE html>")
        assert "<script>" not in page and "style=" not in page  # the server's CSP
    assert "Ann\\u202eevil" in room and "Bob\\u2067 &amp; Dee" in room
    assert "Ann\\u202eevil" in shown[-4] and "Ann\\u202eevil" in shown[-2]


def test_charts_are_neutral() -> None:
    from datetime import date

    from euchrelog.present.charts import bar_chart, category_chart, time_chart

    charts = [category_chart("p", "p-1", HOSTILE, [HOSTILE, "b"], [(HOSTILE, [1, 2])], HOSTILE),
              time_chart("t", "t-1", HOSTILE, [(HOSTILE, [(date(2025, 1, 1), 1.0)])], HOSTILE),
              bar_chart("b", "b-1", HOSTILE, [HOSTILE], [(HOSTILE, [3.0])], HOSTILE, HOSTILE)]
    for svg in charts:
        assert_neutral(svg)
        assert "<script" not in svg and "<!--" not in svg and "<?xml" not in svg
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" id="chart-')


# ---------------------------------------------------------------- in a browser


def test_view_page_text_is_not_reversed_in_chromium(tmp_path: Path) -> None:
    """In Chromium, a right-to-left override in a game's title and a player's name does
    not turn the text around: the page shows the override as ``\\u202e``, and each
    character after it stands to the right of the one before."""
    text = HOSTILE_GAME.replace("League\u202e\u2066 \x1b[31m", "Club\u202edcba", 1)
    out = tmp_path / "view.html"
    out.write_text(render_page(views_of_text(text, "h.euchre"), "v"), encoding="utf-8")
    order = """(id) => {
      const node = document.getElementById(id);
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      const lefts = [];
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        for (let i = 0; i < t.data.length; i++) {
          const range = document.createRange();
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          const box = range.getBoundingClientRect();
          if (box.width > 0) lefts.push([t.data[i], box.left]);
        }
      }
      return lefts;
    }"""
    with chromium_page() as (page, errors):
        page.goto(out.as_uri())
        title = page.text_content("#title") or ""
        assert title == "Club\\u202edcba"
        lefts: list[Any] = page.evaluate(order, "title")
        assert [c for c, _ in lefts] == list(title)
        assert [x for _, x in lefts] == sorted(x for _, x in lefts)
        north = page.text_content(".seat[data-seat=N] .label") or ""
        assert "Ann\\u202eevil\\u2066x\\u2069\\x1b[2J" in north
        body = page.evaluate("() => document.body.innerText")
        assert not [c for c in RAW if c in body and c not in "\r"]
        assert errors == []


def test_the_one_environment_renders_every_template() -> None:
    """Each page's template compiles in the one environment (a typo fails here, not in a
    user's hands)."""
    from euchrelog.present import ENVIRONMENT

    names = ENVIRONMENT.list_templates(extensions=["html"])
    assert {"base.html", "standings.html", "score.html", "stats.html", "viewer.html",
            "serve/page.html"} <= set(names)
    for name in names:
        ENVIRONMENT.get_template(name)
    assert render("serve/error.html", title="t", status=500, message=HOSTILE).count(
        "Ann\\u202eevil") == 1


def test_one_point_is_singular() -> None:
    """``1 point``, never ``1 points``: the award of the highest single game, and an EGN
    ruleset's scores."""
    from euchrelog.events.output import award_text
    from euchrelog.events.standings import Award
    from euchrelog.interop import ConversionError
    from euchrelog.interop.egn.ruleset import rules_words

    assert award_text(Award("highest single game", ("Ann",), 1, ("round 1 table 1",))) == (
        "1 point: Ann (round 1 table 1)")
    assert award_text(Award("highest single game", ("Ann",), 3, ("r1",))) == "3 points: Ann (r1)"
    for field in ("loner_march_score", "loner_euchred_score"):
        with pytest.raises(ConversionError) as caught:
            rules_words({field: 1}, "ruleset")
        assert f"{field}: 1 point has no" in caught.value.message


def test_the_charts_leave_no_old_finder_on_the_import_path() -> None:
    """pygal's finder of map plugins (one with no ``find_spec``) is taken off
    ``sys.meta_path``: tools that ask every finder for a spec keep working."""
    import sys

    import euchrelog.present.charts  # noqa: F401

    assert all(hasattr(finder, "find_spec") for finder in sys.meta_path)
