"""``euchrelog stats``: player and side statistics, held to small records counted by hand,
in every format, in a real browser, on the samples and on a generated corpus."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchrelog.cli import main
from euchrelog.events import read_entries
from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Game
from euchrelog.notation.writer import dumps_game
from euchrelog.replay import replay
from euchrelog.rules import VARIANTS
from euchrelog.seats import Seat
from euchrelog.stats import (
    MAX_BUCKETS,
    Collector,
    DateRange,
    Filters,
    double_dummy,
    iso_date,
    parse_date_range,
)
from euchrelog.stats.output import (
    RENDERERS,
    render_csv,
    render_html,
    render_json,
    render_text,
    sections,
)
from support.browser import chromium_page

ROOT = Path(__file__).resolve().parents[1]
VALID = ROOT / "samples" / "valid"
CHROMIUM = Path("/usr/bin/chromium")
HOSTILE = "<img src=x onerror=alert(1)>"

# ------------------------------------------------------------------ records counted by hand

# Game A, four-hand, seats N Ann, E Bob, S Cy, W Dee; the places from the dealer are
# 0 dealer, 1 dealer's left, 2 dealer's partner, 3 dealer's right.
#   deal 1, N deals: Cy (S, place 2) orders up in round 1 and makes it, 3 tricks: NS 1.
#   deal 2, E deals: Cy (S, place 1) names spades in round 2 and marches alone: NS 4.
#   deal 3, S deals: Dee (W, place 1) orders up in round 1 and goes alone; Ann defends
#     alone and euchres her (2 tricks): NS 2. The euchre is Ann's alone (and her side's).
#   deal 4, W deals: thrown in; a deal played by everyone, 0 points.
GAME_A = """[Event "Club"]
[Date "2025-05-17"]
[Variant "four-hand"]
[Target "10"]
[N "Ann"] [E "Bob"] [S "Cy"] [W "Dee"]

deal 1 dealer N
  up JH
  bid E pass, S order
  trump H maker S tricks 3
  points NS 1

deal 2 dealer E
  up 9C
  bid S pass, W pass, N pass, E pass
  bid S call S
  trump S maker S alone tricks 5
  points NS 4

deal 3 dealer S
  up TD
  bid W order
  trump D maker W alone defend N tricks 2
  points NS 2

deal 4 dealer W
  thrown in

unfinished
"""

# Game B, four-hand, N Ann, E Eve, S Cy, W Fay.
#   deal 1, N deals: Cy (S, place 2) orders up in round 1; S reneges in trick 1 (9S on the
#     AD lead holding 9D TD) and nobody claims it; EW take four tricks: Cy is euchred,
#     EW 2, the euchre is Eve's and Fay's.
#   deal 2, E deals: Fay (W, place 2) orders up in round 1; Ann (N) reneges in trick 1 (KC
#     on the TD lead holding KD) and the table claims it: EW 2 for the renege. A deal scored
#     by a claim is neither made nor euchred, nor defended.
GAME_B = """[Event "League"]
[Date "2025-06-02"]
[Variant "four-hand"]
[Target "10"]
[North "Ann"] [East "Eve"] [South "Cy"] [West "Fay"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards KD
  1. E: AD  S: 9S  W: 9H  N: AC
  2. W: JD  N: JH  E: 9C  S: 9D
  3. N: KC  E: TC  S: TD  W: AH
  4. W: KH  N: QC  E: QS  S: TS
  5. W: QH  N: JC  E: KS  S: AS
  points EW 2

deal 2 dealer E
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid S pass, W order
  E takes JH discards 9C
  1. S: TD  W: 9H  N: KC  E: AD
  renege N
  points EW 2

unfinished
"""

# Game C, cutthroat (no sides of two), N Ann, E Bob, S Gil; undated.
#   deal 1, N deals: Bob (E, place 1) makes hearts, 3 tricks: E 1.
#   deal 2, E deals: Gil (S, place 1) makes spades, 1 trick: euchred, N 2 and E 2.
GAME_C = """[Event "Club"]
[Variant "cutthroat"]
[N "Ann"] [E "Bob"] [S "Gil"]

deal 1 dealer N
  trump H maker E tricks 3
  points E 1

deal 2 dealer E
  trump S maker S tricks 1
  points N 2 E 2

unfinished
"""

RECORDS = GAME_A + "\n" + GAME_B + "\n" + GAME_C


def collected(text: str = RECORDS, filters: Filters | None = None) -> Collector:
    """The statistics of the games of a text, each replayed."""
    collector = Collector(filters)
    for entry in read_entries(text, "games.euchre"):
        assert entry.game is not None
        collector.add(entry.game, replay(entry.game, entry.source))
    return collector


def test_hand_counted_players() -> None:
    """Every figure of every player of the three games, as counted in the comments."""
    groups = collected().groups
    assert list(groups) == ["four-hand", "cutthroat"]
    four = groups["four-hand"].players
    ann, cy, bob, dee, eve, fay = (four[k] for k in ("ann", "cy", "bob", "dee", "eve", "fay"))
    assert (groups["four-hand"].games, groups["four-hand"].deals) == (2, 6)
    assert (ann.deals, ann.makes, ann.defended, ann.euchres) == (6, 0, 1, 1)
    assert (ann.lone_defences, ann.lone_defence_euchres) == (1, 1)
    assert (ann.reneges_claimed, ann.reneges_unclaimed) == (1, 0)
    assert (ann.points, ann.scored_deals) == (7, 6)
    # Ann sat N: dealer in A1 and B1, right of E in A2 and B2, partner of S in A3, left of W.
    assert ann.position_deals == {0: 2, 3: 2, 2: 1, 1: 1}
    assert (cy.deals, cy.makes, cy.made, cy.euchred, cy.marched) == (6, 3, 2, 1, 1)
    assert cy.round_makes == {1: 2, 2: 1}
    assert cy.position_makes == {2: 2, 1: 1}
    assert cy.position_deals == {2: 2, 1: 2, 0: 1, 3: 1}
    assert (cy.lone, cy.lone_made, cy.lone_marched) == (1, 1, 1)
    assert (cy.defended, cy.euchres, cy.lone_defences) == (1, 0, 0)
    assert (cy.reneges_claimed, cy.reneges_unclaimed) == (0, 1)
    assert cy.points == 7
    assert (bob.deals, bob.makes, bob.defended, bob.euchres, bob.points) == (4, 0, 2, 0, 0)
    assert (dee.makes, dee.lone, dee.lone_made, dee.euchred, dee.made) == (1, 1, 0, 1, 0)
    assert dee.round_makes == {1: 1} and dee.position_makes == {1: 1}
    assert (eve.deals, eve.defended, eve.euchres, eve.points) == (2, 1, 1, 4)
    assert (fay.makes, fay.made, fay.euchred, fay.defended, fay.euchres) == (1, 0, 0, 1, 1)
    assert fay.position_makes == {2: 1}
    cut = groups["cutthroat"].players
    assert (cut["ann"].deals, cut["ann"].makes, cut["ann"].defended, cut["ann"].euchres,
            cut["ann"].points) == (2, 0, 2, 1, 2)
    assert (cut["bob"].makes, cut["bob"].made, cut["bob"].defended, cut["bob"].euchres,
            cut["bob"].points) == (1, 1, 1, 1, 3)
    assert (cut["gil"].makes, cut["gil"].euchred, cut["gil"].euchres, cut["gil"].points) == (
        1, 1, 0, 0)
    assert cut["bob"].round_makes == {0: 1}  # a score-sheet line shows no bidding round
    assert cut["gil"].position_makes == {1: 1}


def test_hand_counted_sides() -> None:
    """The sides of two players: each deal once, each euchre once, both partners' reneges;
    a game without partners has no sides."""
    groups = collected().groups
    sides = groups["four-hand"].sides
    assert sorted(t.name for t in sides.values()) == ["Ann & Cy", "Bob & Dee", "Eve & Fay"]
    ns = sides["ann & cy"]
    assert (ns.deals, ns.makes, ns.made, ns.euchred, ns.marched) == (6, 3, 2, 1, 1)
    assert (ns.defended, ns.euchres, ns.lone_defences, ns.lone_defence_euchres) == (1, 1, 1, 1)
    assert (ns.reneges_claimed, ns.reneges_unclaimed, ns.points) == (1, 1, 7)
    assert ns.position_deals == {0: 3, 1: 3, 2: 3, 3: 3}  # two seats a deal
    ew = sides["bob & dee"]
    assert (ew.deals, ew.makes, ew.euchred, ew.defended, ew.euchres, ew.points) == (
        4, 1, 1, 2, 0, 0)
    ef = sides["eve & fay"]
    assert (ef.deals, ef.makes, ef.defended, ef.euchres, ef.points) == (2, 1, 1, 1, 4)
    assert groups["cutthroat"].sides == {}


def test_filters() -> None:
    """Each filter keeps the games it names; --player keeps only those rows too."""
    def names(c: Collector) -> dict[str, list[str]]:
        return {v: sorted([*g.players, *g.sides]) for v, g in c.groups.items()}

    eve = collected(filters=Filters.of(players=["EVE"]))
    assert names(eve) == {"four-hand": ["eve", "eve & fay"]}
    assert eve.groups["four-hand"].players["eve"].euchres == 1
    assert eve.left_out == 2
    assert names(collected(filters=Filters.of(events=["league"]))) == {
        "four-hand": ["ann", "ann & cy", "cy", "eve", "eve & fay", "fay"]}
    may = collected(filters=Filters.of(dates=parse_date_range("2025-05")))
    assert may.games == 1 and may.groups["four-hand"].players["dee"].lone == 1
    assert collected(filters=Filters.of(dates=parse_date_range("2025-05-18..")
                                        )).games == 1  # game B; game C has no date
    cut = collected(filters=Filters.of(variants=["dummy"]))  # an alias of cutthroat
    assert list(cut.groups) == ["cutthroat"] and cut.games == 1
    with pytest.raises(ValueError, match="unknown variant"):
        Filters.of(variants=["bridge"])


@pytest.mark.parametrize(("text", "first", "last"), [
    ("2025", "2025", "2025"), ("2025-05..2025-06-01", "2025-05", "2025-06-01"),
    ("..2025-03", None, "2025-03"), (" 2025-03-01.. ", "2025-03-01", None)])
def test_date_ranges(text: str, first: str | None, last: str | None) -> None:
    assert parse_date_range(text) == DateRange(first, last)


@pytest.mark.parametrize("text", ["", "..", "May", "2025-5", "2025-05-17T10", "25-05-17"])
def test_bad_date_ranges(text: str) -> None:
    with pytest.raises(ValueError):
        parse_date_range(text)


def test_date_range_holds() -> None:
    within = DateRange("2025-03", "2025-05")
    assert [within.holds(d) for d in ("2025-02-28", "2025-03-01", "2025-05-31", "2025-06-01",
                                      None)] == [False, True, True, False, False]
    assert iso_date("2025/6/2") == "2025-06-02" and iso_date("2025-13-01") is None


def test_unnamed_seats_and_unknown_variants() -> None:
    """A seat without a name tag is a player named by its letter; a game of a variant
    euchrelog does not know is not counted."""
    unnamed = GAME_C.replace('[N "Ann"] [E "Bob"] [S "Gil"]\n', '[E "Bob"]\n')
    unknown = GAME_C.replace('"cutthroat"', '"bezique"')
    stats_ = collected(unnamed + "\n" + unknown)
    assert sorted(stats_.groups["cutthroat"].players) == ["bob", "n", "s"]
    assert (stats_.games, stats_.left_out) == (1, 1)


# ------------------------------------------------------------------ formats


def test_text() -> None:
    text = render_text(collected())
    assert text.startswith("four-hand: 2 games, 6 deals\n")
    assert "cutthroat: 1 game, 2 deals" in text
    cy = next(line for line in text.splitlines() if line.startswith("Cy "))
    assert cy.split() == ["Cy", "6", "3", "50.0", "33.3", "16.7", "0.0", "50.0", "100.0", "0.0"]
    assert "sides, as makers" in text and "Ann & Cy" in text
    assert "sides," not in text.split("cutthroat:")[1]  # no partners, no sides


def test_csv() -> None:
    rows = list(csv.DictReader(io.StringIO(render_csv(collected()))))
    assert [(r["variant"], r["kind"], r["name"]) for r in rows] == [
        ("four-hand", "player", "Ann"), ("four-hand", "player", "Cy"),
        ("four-hand", "player", "Bob"), ("four-hand", "player", "Dee"),
        ("four-hand", "player", "Eve"), ("four-hand", "player", "Fay"),
        ("four-hand", "side", "Ann & Cy"), ("four-hand", "side", "Bob & Dee"),
        ("four-hand", "side", "Eve & Fay"),
        ("cutthroat", "player", "Ann"), ("cutthroat", "player", "Bob"),
        ("cutthroat", "player", "Gil")]
    cy = rows[1]
    assert (cy["deals"], cy["makes"], cy["made_rate"], cy["points_per_deal"]) == (
        "6", "3", "0.6667", "1.1667")
    assert rows[0]["made_rate"] == ""  # Ann made nothing: no rate
    assert rows[-1]["make_rate_dealer_partner"] == ""  # no such seat in cutthroat


def test_json() -> None:
    doc = json.loads(render_json(collected()))
    assert (doc["format"], doc["version"], doc["games"]) == ("euchrelog-stats", 1, 3)
    four, cut = doc["variants"]
    assert (four["variant"], four["games"], four["deals"]) == ("four-hand", 2, 6)
    cy = next(p for p in four["players"] if p["name"] == "Cy")
    assert cy["by_round"] == {"1": 2, "2": 1}
    assert cy["by_seat"] == [{"seat": "dealer", "deals": 1, "makes": 0},
                             {"seat": "dealer's left", "deals": 2, "makes": 1},
                             {"seat": "dealer's partner", "deals": 2, "makes": 2},
                             {"seat": "dealer's right", "deals": 1, "makes": 0}]
    assert (cy["made_rate"], cy["euchred_rate"], cy["lone_marched"]) == (0.6667, 0.3333, 1)
    assert [s["name"] for s in four["sides"]] == ["Ann & Cy", "Bob & Dee", "Eve & Fay"]
    assert cut["sides"] == [] and "make_rate_dealer_partner" not in cut["players"][0]


SCHEMA = json.loads((ROOT / "src" / "euchrelog" / "stats" / "schema.json").read_text(
    encoding="utf-8"))


def valid_json(text: str) -> dict[str, Any]:
    """The JSON output, held to its JSON Schema."""
    doc: dict[str, Any] = json.loads(text)
    pytest.importorskip("jsonschema").Draft202012Validator(SCHEMA).validate(doc)
    return doc


def test_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    valid_json(render_json(collected()))
    valid_json(render_json(Collector()))
    with pytest.raises(jsonschema.ValidationError):
        valid_json(render_json(collected()).replace('"made_rate": 0.6667', '"made_rate": 2'))


def test_html_is_self_contained() -> None:
    """Nothing to fetch: no link, no source, one inline script (the tables' sorting), and
    the charts drawn by pygal with neither its scripts nor its comments."""
    page = render_html(collected())
    assert page.lower().count("<script") == 1 and "<link" not in page.lower()
    assert not re.search(r"""(src=|url\(|@import|href=(?!"#))""", page)
    assert "<!--" not in page and "<?xml" not in page
    assert page.count('class="chart seats"') == 2 and page.count('class="chart points"') == 2


def test_html_opens_with_the_variant_most_games_use() -> None:
    """Cutthroat is read first (and sorts first), but four-hand has more games: its section
    comes first, and a list of the variants leads to each."""
    records = GAME_C + "\n" + GAME_A + "\n" + GAME_B
    page = render_html(collected(records))
    assert page.index('id="variant-four-hand"') < page.index('id="variant-cutthroat"')
    assert '<a href="#variant-four-hand">four-hand</a> (2 games, 6 deals)' in page
    assert render_html(collected(records)) == page  # the same data, the same page


def test_html_explains_every_column() -> None:
    """Each heading has a title saying what it counts, and the legend lists them all."""
    collector = collected()
    page = render_html(collector)
    heads = re.findall(r"<th[ >][^>]*>?", page)
    assert heads and all('title="' in h and 'title=""' not in h for h in heads)
    legend = page.split('<dl class="legend">', 1)[1].split("</dl>", 1)[0]
    for section in sections(collector.groups["four-hand"]):
        for column in section.columns:
            assert column.help and f"<dt>{column.title}</dt>" in legend, column.key


def test_html_points_over_dates_are_on_a_time_axis() -> None:
    """Dated games are placed at their dates: a day apart, then a month apart, the points
    of the chart stand as far apart as the days are."""
    base = GAME_A.replace('[Event "Club"]\n', "").replace('[N "Ann"]', '[N "Zed"]')
    dated = [base.replace("2025-05-17", day) for day in ("2025-05-01", "2025-05-02",
                                                         "2025-06-01")]
    page = render_html(collected("\n".join(dated)))
    chart = page.split('class="chart points"', 1)[1].split("</svg>", 1)[0]
    zed = chart.split('data-name="Zed"><g class="dots">', 1)[1].split("</g></g>", 1)[0]
    xs = [float(x) for x in re.findall(r'<circle cx="([0-9.]+)"', zed)]
    assert len(xs) == 3
    day, month = xs[1] - xs[0], xs[2] - xs[1]
    assert month == pytest.approx(30 * day, rel=0.01)
    assert "Zed, : 2025-05-02" not in chart and "Zed: 2025-05-02: " in chart


def test_no_games() -> None:
    empty = Collector()
    assert render_text(empty) == "no games counted.\n"
    assert json.loads(render_json(empty))["variants"] == []
    assert render_csv(empty) == "variant,kind,name\n"
    assert "no games counted" in render_html(empty)


def test_points_over_time_stay_bounded() -> None:
    """Hundreds of undated games keep at most MAX_BUCKETS groups of games a player."""
    game = next(e.game for e in read_entries(GAME_C.replace('[Event "Club"]\n', ""), "c"))
    assert game is not None
    report = replay(game)
    collector = Collector()
    for _ in range(5 * MAX_BUCKETS + 3):
        collector.add(game, report)
    group = collector.groups["cutthroat"]
    bob = group.players["bob"]
    assert len(bob.by_order) <= MAX_BUCKETS and group.width == 8 and not group.dated
    assert sum(p for p, _ in bob.by_order.values()) == bob.points == 3 * (5 * MAX_BUCKETS + 3)
    assert "games 1-8" in render_html(collector)


# ------------------------------------------------------------------ double dummy


def test_double_dummy_columns() -> None:
    """With the double-dummy review, each player's tricks lost are the losses of its own
    plays in the reviewed deals, a side's are its players', and a maker's contract is
    against the best its side reaches in the par table; deals that cannot be reviewed (a
    score-sheet line, a renege) are left out."""
    from euchrelog.analysis import DealReview, review_game

    text = (VALID / "four-hand-24-club-night.euchre").read_text(encoding="utf-8")
    game = next(e.game for e in read_entries(text, "club.euchre"))
    assert game is not None
    collector = Collector(reviewer=double_dummy)
    collector.add(game, replay(game))
    reviews = [r for r in review_game(game) if isinstance(r, DealReview)]
    group = collector.groups["four-hand"]
    rules = replay(game).ruleset
    names = {seat: game.tag(seat.value) or game.tag(name) for seat, name in (
        (Seat.N, "North"), (Seat.E, "East"), (Seat.S, "South"), (Seat.W, "West"))}
    for seat, name in names.items():
        assert name is not None
        tally = group.players[name.casefold()]
        assert tally.reviewed == len(reviews)
        assert tally.tricks_lost == sum(p.loss for r in reviews for p in r.plays
                                        if p.seat == seat)
    for side in group.sides.values():
        members = [group.players[n.casefold()] for n in side.name.split(" & ")]
        assert side.tricks_lost == sum(m.tricks_lost for m in members)
        assert sum(side.lost_counts.values()) == side.reviewed == len(reviews)
    points = {d.number: d.points for d in replay(game).deals}
    beat = missed = 0
    for r in reviews:
        makers = rules.side(r.maker)
        best = max(e.points.get(makers, 0) for e in r.par if rules.side(e.maker) == makers)
        scored = (points[r.deal] or {}).get(makers, 0)
        beat, missed = beat + (scored > best), missed + (scored < best)
    assert sum(t.beat_par for t in group.players.values()) == beat
    assert sum(t.missed_par for t in group.players.values()) == missed
    page = render_html(collector)
    assert 'class="chart lost"' in page and "tricks lost in the deal" in page
    assert "double dummy" in render_text(collector)
    assert "tricks_lost_per_deal" in render_csv(collector).splitlines()[0]
    assert valid_json(render_json(collector))["variants"][0]["players"][0]["reviewed"] == 9


def test_double_dummy_option(records: Path) -> None:
    """Records with no full clean deal give the double-dummy columns nothing to show."""
    result = stats("--double-dummy", str(records))
    assert result.exit_code == 1 and "double dummy" not in result.stdout
    full = stats("--dd", "--format", "json", str(VALID / "four-hand-24-club-night.euchre"))
    players = json.loads(full.stdout)["variants"][0]["players"]
    assert all(p["reviewed"] == 9 for p in players)  # 10 deals, deal 7 thrown in


# ------------------------------------------------------------------ hostile names


HOSTILE_GAME = GAME_A.replace('[N "Ann"]', f'[N "{HOSTILE}"]').replace(
    '[E "Bob"]', '[E "=HYPERLINK(1)"]').replace('[S "Cy"]', '[S "Cy\x1b[2J"]')


def test_hostile_names_in_every_format() -> None:
    stats = collected(HOSTILE_GAME)
    page = render_html(stats)
    assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "'=HYPERLINK(1)" in render_csv(stats)
    names = {p["name"] for p in json.loads(render_json(stats))["variants"][0]["players"]}
    assert names == {HOSTILE, "=HYPERLINK(1)", "Cy\x1b[2J", "Dee"}  # JSON keeps them exactly
    for shown in (render_text(stats), render_csv(stats), page):
        assert "\x1b" not in shown and "Cy\\x1b[2J" in shown


# ------------------------------------------------------------------ the command


def stats(*args: str, stdin: str | None = None) -> Result:
    """Runs ``euchrelog stats`` in-process."""
    return CliRunner().invoke(main, ["stats", *args], input=stdin)


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "games.euchre"
    path.write_text(RECORDS, encoding="utf-8")
    return path


def test_command_formats(records: Path, tmp_path: Path) -> None:
    for fmt, render in RENDERERS.items():
        result = stats("--format", fmt, str(records))
        assert result.exit_code == 1, result.output  # game B has an unclaimed renege
        assert result.stdout == render(collected())
        assert "counted 3 games, 8 deals from 1 file; 1 game with findings" in result.stderr
    out = tmp_path / "stats.html"
    result = stats("--format", "html", "-o", str(out), "-q", str(records))
    assert result.exit_code == 1 and result.stdout == "" and result.stderr == ""
    assert out.read_text(encoding="utf-8") == render_html(collected())


def test_command_filters(records: Path) -> None:
    result = stats("--player", "gil", "--variant", "cutthroat", "--format", "csv",
                   str(records))
    assert [r["name"] for r in csv.DictReader(io.StringIO(result.stdout))] == ["Gil"]
    assert "2 of the 3 games read left out by the filters" in result.stderr
    result = stats("--event", "club", "--date", "2025", str(records))
    assert result.stdout.startswith("four-hand: 1 game, 4 deals")
    assert result.exit_code == 0


def test_command_reads_stdin_and_json(records: Path, tmp_path: Path) -> None:
    assert stats("-", stdin=GAME_A).stdout == render_text(collected(GAME_A))
    converted = tmp_path / "a.json"
    CliRunner().invoke(main, ["convert", "-o", str(converted), str(records)])
    assert stats("--format", "json", str(converted)).stdout == render_json(collected())


@pytest.mark.parametrize(("args", "message"), [
    (["--date", "May"], "is not a date like 2025"),
    (["--variant", "bridge"], "unknown variant 'bridge'"),
    (["--format", "xml"], "'xml' is not one of"),
])
def test_command_usage_errors(records: Path, args: list[str], message: str) -> None:
    result = stats(*args, str(records))
    assert result.exit_code == 2 and message in result.stderr
    assert "Traceback" not in result.output


def test_command_syntax_error(tmp_path: Path) -> None:
    """A game that cannot be read is named at its line and column, the others counted."""
    path = tmp_path / "bad.euchre"
    path.write_text(GAME_A + "\n" + GAME_C.replace("trump H maker E", "trump H makr E"),
                    encoding="utf-8")
    result = stats(str(path))
    assert result.exit_code == 2
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: S101 ", result.stderr)
    assert "1 game not read" in result.stderr
    assert result.stdout.startswith("four-hand: 1 game, 4 deals")


def test_command_unreadable_bytes(tmp_path: Path) -> None:
    path = tmp_path / "bytes.euchre"
    path.write_bytes(GAME_A.encode() + b"\n\xff\xfe\n")
    result = stats(str(path))
    assert result.exit_code == 2 and "not UTF-8" in result.stderr
    assert "Traceback" not in result.output


SAMPLE_LINES = [line for path in sorted(VALID.glob("*.euchre"))[:12]
                for line in path.read_text(encoding="utf-8").splitlines()]


@settings(derandomize=True, deadline=None, database=None, max_examples=40,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(SAMPLE_LINES), max_size=80),
       st.sampled_from(list(RENDERERS)),
       st.sampled_from([(), ("--player", "Marge Keller"), ("--date", "2025"),
                        ("--variant", "ghost"), ("--event", "x")]))
def test_no_traceback_on_shuffled_records(lines: list[str], fmt: str,
                                          extra: tuple[str, ...]) -> None:
    """Lines of real records in any order and number: exit 0, 1 or 2, never a traceback."""
    result = stats("--format", fmt, *extra, "-", stdin="\n".join(lines) + "\n")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2)


def test_help_teaches() -> None:
    result = CliRunner().invoke(main, ["stats", "--help"])
    assert result.exit_code == 0
    assert "euchrelog stats club/ --format html -o stats.html" in result.stdout
    assert "--player NAME" in result.stdout and "FROM..TO" in result.stdout


def test_samples_valid() -> None:
    """Every valid sample is counted, every variant in a group of its own, every deal."""
    result = stats("--format", "json", str(VALID))
    assert result.exit_code == 0, result.stderr
    doc = valid_json(result.stdout)
    assert {g["variant"] for g in doc["variants"]} == {v.name for v in VARIANTS}
    checked = CliRunner().invoke(main, ["check", str(VALID)])
    deals = int(re.search(r"(\d+) deals", checked.stderr).group(1))  # type: ignore[union-attr]
    assert sum(g["deals"] for g in doc["variants"]) == deals


# ------------------------------------------------------------------ a generated corpus


def _invariants(collector: Collector) -> None:
    """What must hold of any statistics: the seats' deals add up to the table's, every
    contract is one player's and one side's, a side's figures are its players'."""
    for group in collector.groups.values():
        players = list(group.players.values())
        assert sum(t.deals for t in players) == group.deals * group.seats
        for key in ("makes", "made", "euchred", "marched", "lone", "reneges_unclaimed"):
            total = sum(getattr(t, key) for t in players)
            if group.sides:
                assert sum(getattr(t, key) for t in group.sides.values()) == total
        for t in players:
            assert t.made + t.euchred <= t.makes and t.marched <= t.made
            assert sum(t.position_deals.values()) == t.deals
            assert sum(t.position_makes.values()) == t.makes == sum(t.round_makes.values())


def _corpus(deals: int, seed: int) -> Iterator[Game]:
    """Generated games of every variant in turn, dated and in three events, until they
    hold ``deals`` deals."""
    rng = random.Random(seed)
    count = k = 0
    while count < deals:
        variant = VARIANTS[k % len(VARIANTS)]
        k += 1
        game = random_game(rng, ruleset_for(variant), tags={
            "Event": f"Night {k % 3}", "Date": f"2026-{1 + k % 12:02d}-{1 + k % 28:02d}"})
        count += len(game.deals)
        yield game


def test_small_corpus_invariants() -> None:
    stats_ = collected("\n".join(dumps_game(g) for g in _corpus(300, 7)))
    _invariants(stats_)
    assert stats_.groups.keys() == {v.name for v in VARIANTS}


@pytest.mark.slow
def test_generated_corpus_of_ten_thousand_deals(tmp_path: Path) -> None:
    """10,000 deals of every variant from the generator, through the command, which
    agrees with the statistics of the games replayed as generated."""
    path = tmp_path / "corpus.euchre"
    collector = Collector()
    with path.open("w", encoding="utf-8") as out:
        for game in _corpus(10_000, 25):
            out.write(dumps_game(game) + "\n")
            collector.add(game, replay(game))
    _invariants(collector)
    assert sum(g.deals for g in collector.groups.values()) >= 10_000
    result = stats("--format", "json", str(path))
    assert result.exit_code == 0, result.stderr[-2000:]
    assert result.stdout == render_json(collector)
    valid_json(result.stdout)
    assert render_html(collector).count("<svg") == 2 * len(VARIANTS)


# ------------------------------------------------------------------ the page in a browser


@pytest.mark.skipif(not CHROMIUM.exists(), reason="chromium is not installed at "
                                                  "/usr/bin/chromium")
def test_html_in_headless_chromium(tmp_path: Path) -> None:
    """The page renders in Chromium: the tables and charts are there, each chart with a
    bar or line per player shown, the hostile names are text (a control character shown
    as its escape), and no script of a record runs (the page's own sorts its tables)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    page_file = tmp_path / "stats.html"
    page_file.write_text(render_html(collected(HOSTILE_GAME + "\n" + GAME_B)),
                         encoding="utf-8")
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            page = browser.new_page()
            dialogs: list[str] = []

            def on_dialog(dialog: Any) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", on_dialog)
            page.goto(page_file.as_uri())
            assert page.locator("svg.chart.seats").count() == 1
            assert page.locator("svg.chart.points").count() == 1
            players = page.locator("table.stats").first.locator("tbody tr").count()
            assert players == 8
            names = {g.get_attribute("data-name")
                     for g in page.locator("svg.chart.points g.series[data-name]").all()}
            assert HOSTILE in names and len(names) == players
            bars = page.locator("svg.chart.seats g.bar rect").count()
            assert 0 < bars <= 4 * players
            cells = page.locator("table.stats td").all_text_contents()
            assert HOSTILE in cells
            assert page.locator("img").count() == 0 and page.locator("script").count() == 1
            assert dialogs == []
            box = page.locator("svg.chart.seats").bounding_box()
            assert box is not None and box["width"] > 400 and box["height"] > 200
            assert "\x1b" not in page.inner_text("body") and "Cy\\x1b[2J" in cells
        finally:
            browser.close()



def test_html_tables_sort_in_headless_chromium(tmp_path: Path) -> None:
    """A click on a heading sorts the table by that column, highest first (a name: from A),
    a second click the other way; a cell with nothing to count stays last."""
    page_file = tmp_path / "stats.html"
    page_file.write_text(render_html(collected()), encoding="utf-8")
    with chromium_page() as (page, errors):
        page.goto(page_file.as_uri())
        table = page.locator("table.stats").first
        heads = table.locator("thead th")
        titles = heads.all_text_contents()

        def column(name: str) -> list[str]:
            k = titles.index(name)
            return [row.locator("td").nth(k).text_content() or ""
                    for row in table.locator("tbody tr").all()]

        assert titles[:4] == ["player", "deals", "makes", "make%"]
        assert heads.nth(3).get_attribute("title") == "makes per deal"
        heads.nth(3).locator("button").click()
        assert heads.nth(3).get_attribute("aria-sort") == "descending"
        rates = [float(v) for v in column("make%")]
        assert rates == sorted(rates, reverse=True) and rates[0] > rates[-1]
        heads.nth(3).locator("button").click()
        assert heads.nth(3).get_attribute("aria-sort") == "ascending"
        assert [float(v) for v in column("make%")] == sorted(rates)
        k = titles.index("partner%")
        heads.nth(k).locator("button").click()
        partner = column("partner%")
        assert partner[-1] == "-" and "-" not in partner[:-1]
        heads.nth(k).locator("button").click()
        assert column("partner%")[-1] == "-"
        heads.nth(0).locator("button").click()
        names = column("player")
        assert names == sorted(names, key=str.casefold)
        assert heads.nth(k).get_attribute("aria-sort") == "none"
        assert errors == []
