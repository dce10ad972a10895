"""``euchrelog score``: events grouped, checked and ranked.

The event samples are compared with their golden output in every format; the event codes
(E961-E969) are covered here, by ``score``, since ``check`` never reports them (see
tests/test_samples.py); the HTML page is opened in headless Chromium.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import make_events
from euchrelog.cli import main
from euchrelog.errors import EuchrelogError
from euchrelog.events import (
    Entry,
    EventResult,
    Overrides,
    Scorer,
    iter_entries,
    parse_format,
    parse_tiebreaks,
    read_entries,
    score_events,
)
from euchrelog.findings import CODES, EVENT_CODES
from test_samples import read_expected

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ROOT / "samples" / "events"
INVALID_EVENTS = ROOT / "samples" / "invalid" / "events"
GOLDEN_DIRS = make_events.event_dirs()
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def score(*args: str, stdin: str | None = None) -> Result:
    """Runs ``euchrelog score`` in-process."""
    return CliRunner().invoke(main, ["score", *args], input=stdin)


def scored(text: str, overrides: Overrides | None = None) -> list[EventResult]:
    """The events of one text."""
    return score_events(read_entries(text, "event.euchre"), overrides)


def codes(event: EventResult) -> list[str]:
    """The codes of an event's findings, in order."""
    return [f.code for f in event.findings]


def sheet(event: str, round_: str | None, table: str | None, players: str,
          deals: list[str], *, fmt: str = "", extra: str = "", end: str = "") -> str:
    """A four-hand game of an event; ``players`` are the names of N E S W."""
    tags = [f'[Event "{event}"]']
    if fmt:
        tags.append(f'[Format "{fmt}"]')
    if round_ is not None:
        tags.append(f'[Round "{round_}"]')
    if table is not None:
        tags.append(f'[Table "{table}"]')
    tags.append('[Variant "four-hand"]')
    if extra:
        tags.append(extra)
    tags += [f'[{s} "{n}"]' for s, n in zip("NESW", players.split(), strict=True)]
    body = "".join(f"deal {k} dealer {'NESW'[(k - 1) % 4]}\n  {d}\n"
                   for k, d in enumerate(deals, 1))
    return " ".join(tags) + "\n" + body + (end + "\n" if end else "") + "\n"


# ------------------------------------------------------------------ goldens


def _golden_params() -> list[object]:
    return [pytest.param(folder, fmt, ext, id=f"{folder.name}-{fmt}")
            for folder in GOLDEN_DIRS for fmt, ext in make_events.GOLDEN_FORMATS.items()]


@pytest.mark.parametrize(("folder", "fmt", "ext"), _golden_params())
def test_standings_match_the_goldens(folder: Path, fmt: str, ext: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``euchrelog score FOLDER --format FMT``, run from the repository root, prints the
    golden standings; the findings on stderr are the golden ``findings.txt``."""
    monkeypatch.chdir(ROOT)
    result = score("--format", fmt, folder.relative_to(ROOT).as_posix())
    assert result.stdout == (folder / f"standings.{ext}").read_text(encoding="utf-8")
    assert result.stderr == (folder / "findings.txt").read_text(encoding="utf-8")
    assert result.exit_code == (1 if INVALID_EVENTS in folder.parents else 0)


def test_event_records_are_up_to_date() -> None:
    """The event samples are what tests/make_events.py generates from its seeds."""
    stale = [str(path) for path, text in make_events.records().items()
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    assert stale == []


def test_event_samples_check_clean() -> None:
    """The valid events replay clean under ``euchrelog check`` too (their sheets state
    their length)."""
    result = CliRunner().invoke(main, ["check", "-q", str(EVENTS)])
    assert result.exit_code == 0, result.stdout


def test_progressive_sample_is_what_the_issue_asks() -> None:
    """12 players at 3 tables, 4 rounds of 8 deals, mostly score-sheet level; partners
    change every round and never repeat."""
    entries = [e for p in sorted((EVENTS / make_events.PROGRESSIVE).glob("*.euchre"))
               for e in read_entries(p.read_text(encoding="utf-8"), str(p))]
    event, = score_events(entries)
    assert event.settings.format == "progressive" and event.settings.deals == 8
    assert len(event.standings) == 12 and event.rounds == ["1", "2", "3", "4"]
    assert {t.table for t in event.tables} == {"1", "2", "3"} and event.deals == 96
    sheets = [e.game for e in entries if e.game is not None]
    by_sheet = sum(1 for g in sheets if all(d.sheet is not None and not d.tricks
                                            for d in g.deals))
    assert by_sheet > len(sheets) / 2
    partners = [frozenset({g.tag("North"), g.tag("South")}) for g in sheets] + [
        frozenset({g.tag("East"), g.tag("West")}) for g in sheets]
    assert len(set(partners)) == len(partners) == 24 and None not in set().union(*partners)


def test_partners_sample_is_full_record_and_uses_every_tiebreak() -> None:
    """Every deal of the partners event is a full record, and its standings need both
    default tie-breaks."""
    texts = [p.read_text(encoding="utf-8")
             for p in sorted((EVENTS / make_events.PARTNERS).glob("*.euchre"))]
    entries = [e for n, t in enumerate(texts) for e in read_entries(t, f"{n}.euchre")]
    deals = [d for e in entries if e.game is not None for d in e.game.deals]
    assert all(d.hands and d.up is not None and d.up.kitty and d.bidding for d in deals)
    assert sum(len(d.tricks) == 5 for d in deals) > len(deals) * 0.8  # the rest thrown in
    event, = score_events(entries)
    assert [d.key for d in event.decisions] == ["points-diff", "head-to-head"]
    assert not event.tied


def test_slip_is_flagged_at_its_line_and_standings_are_provisional(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy with a slip: one G952 on the result line of round 3 table 1; the same
    standings as the clean event, marked provisional."""
    monkeypatch.chdir(ROOT)
    slip = INVALID_EVENTS / make_events.SLIP
    result = score("--check", "--format", "json", slip.relative_to(ROOT).as_posix())
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    lines = (slip / "round-3.euchre").read_text(encoding="utf-8").splitlines()
    assert [(r["code"], r["path"].rsplit("/", 1)[-1], lines[r["line"] - 1].split()[0])
            for r in rows] == [("G952", "round-3.euchre", "result")]
    clean = json.loads((EVENTS / make_events.PROGRESSIVE / "standings.json").read_text())
    dirty = json.loads((slip / "standings.json").read_text())
    assert dirty["events"][0]["status"] == "provisional"
    assert clean["events"][0]["status"] == "final"
    assert dirty["events"][0]["standings"] == clean["events"][0]["standings"]
    assert "provisional" in (slip / "standings.txt").read_text().splitlines()[2]


def test_cli_doc_quotes_the_partners_golden() -> None:
    """The example in docs/cli.md is the golden output and the summary line."""
    folder = EVENTS / make_events.PARTNERS
    expected = ((folder / "standings.txt").read_text(encoding="utf-8")
                + (folder / "findings.txt").read_text(encoding="utf-8"))
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ euchrelog score samples/events/legion-partners-cup\n"
                      r"(.*?)```\n", doc, re.DOTALL)
    assert block is not None and block.group(1) == expected


# ------------------------------------------------------------------ event codes


def _event_samples() -> list[Path]:
    return sorted(INVALID_EVENTS.glob("*.euchre"))


@pytest.mark.parametrize("code", sorted(EVENT_CODES))
def test_every_event_code_has_a_score_sample(code: str) -> None:
    """Each event code has a sample in samples/invalid/events whose expected ``score``
    findings include it: the event codes are covered by ``score``, not by ``check``."""
    samples = [p for p in _event_samples() if p.stem.split("-", 1)[0] == code]
    assert samples, f"no samples/invalid/events/{code}-{CODES[code].name}.euchre"
    assert any(code in {c for c, _, _ in read_expected(p.with_suffix(".expected"))}
               for p in samples)


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in _event_samples()])
def test_event_sample_findings(path: Path) -> None:
    """``euchrelog score --check`` reports exactly the findings of the ``.expected`` file,
    and the standings still come out, marked provisional."""
    result = score("--check", "-q", "--format", "json", str(path))
    found = [(r["code"], r["line"], r["column"])
             for r in map(json.loads, result.stdout.splitlines())]
    assert found == read_expected(path.with_suffix(".expected"))
    assert result.exit_code == 1
    code, _, name = path.stem.partition("-")
    assert name.startswith(CODES[code].name)
    assert path.read_text(encoding="utf-8").startswith("# ")
    standings = score("-q", "--format", "json", str(path))
    assert json.loads(standings.stdout)["events"][0]["status"] == "provisional"


def test_check_never_reports_event_codes() -> None:
    """``euchrelog check`` reads one game at a time: no E96x, whatever the input."""
    result = CliRunner().invoke(main, ["check", "-q", "--format", "json", str(INVALID_EVENTS)])
    assert not {json.loads(line)["code"] for line in result.stdout.splitlines()} & EVENT_CODES


# ------------------------------------------------------------------ formats and ranking

ONE = "trump H maker E tricks 3"   # EW 1
TWO = "trump S maker S tricks 5"   # NS 2
SET = "trump C maker N tricks 1"   # EW 2, a euchre
LONE = "trump D maker W alone tricks 5"  # EW 4


def test_partners_ranking_by_wins_difference_and_head_to_head() -> None:
    """Hand-computed round robin to 2: D, A and C win two games each; D has the best
    difference (+4); A and C are level on it (+2) and A beat C head to head."""
    target = '[Target "2"]'
    text = "".join([
        sheet("Cup", "1", "1", "A1 B1 A2 B2", [TWO], fmt="partners target=2", extra=target,
              end="result NS 2 EW 0 winner NS"),
        sheet("Cup", "1", "2", "C1 D1 C2 D2", [TWO], extra=target),
        sheet("Cup", "2", "1", "A1 C1 A2 C2", [TWO], extra=target),
        sheet("Cup", "2", "2", "B1 D1 B2 D2", [LONE], extra=target),
        sheet("Cup", "3", "1", "D1 A1 D2 A2", [TWO], extra=target),
        sheet("Cup", "3", "2", "B1 C1 B2 C2", [ONE, ONE], extra=target),
    ])
    event, = scored(text)
    assert codes(event) == []
    rows = [(r.rank, r.label, r.won, r.lost, r.points_for, r.points_against)
            for r in event.standings]
    assert rows == [(1, "D1 & D2", 2, 1, 6, 2), (2, "A1 & A2", 2, 1, 4, 2),
                    (3, "C1 & C2", 2, 1, 4, 2), (4, "B1 & B2", 0, 3, 0, 8)]
    assert [(d.key, d.parts) for d in event.decisions] == [
        ("points-diff", ((("D1 & D2",), 4), (("A1 & A2", "C1 & C2"), 2))),
        ("head-to-head", ((("A1 & A2",), 1), (("C1 & C2",), 0)))]
    assert event.awards[0].winners == ("D2",) and event.awards[0].value == 1
    high = event.awards[2]
    assert (high.value, high.winners) == (4, ("D1 & D2",))


def test_progressive_ranks_by_points_then_deals_won() -> None:
    """Hand-computed: two rounds of two deals; players score their side's points."""
    text = "".join([
        sheet("Prog", "1", "1", "Ann Bob Cy Dee", [ONE, TWO], fmt="progressive deals=2"),
        sheet("Prog", "2", "1", "Ann Cy Bob Dee", [SET, ONE]),
    ])
    event, = scored(text)
    assert codes(event) == []
    got = {r.label: (r.points_for, r.deals_won, r.by_round) for r in event.standings}
    assert got == {"Ann": (2, 1, {"1": 2, "2": 0}), "Bob": (1, 1, {"1": 1, "2": 0}),
                   "Cy": (5, 3, {"1": 2, "2": 3}), "Dee": (4, 3, {"1": 1, "2": 3})}
    assert [(r.rank, r.label) for r in event.standings] == [
        (1, "Cy"), (2, "Dee"), (3, "Ann"), (4, "Bob")]
    assert {r.label: r.euchres for r in event.standings} == {
        "Ann": 0, "Bob": 0, "Cy": 1, "Dee": 1}
    assert [r.won for r in event.standings] == [2, 1, 1, 0]


def test_partners_of_one_round_share_a_rank() -> None:
    """Rows level on every key share the rank, written with =."""
    event, = scored(sheet("Prog", "1", "1", "Ann Bob Cy Dee", [ONE, TWO],
                          fmt="progressive deals=2"))
    assert [(r.rank, r.label, r.tied) for r in event.standings] == [
        (1, "Ann", True), (1, "Cy", True), (3, "Bob", True), (3, "Dee", True)]
    result = score("-", stdin=sheet("Prog", "1", "1", "Ann Bob Cy Dee", [ONE, TWO],
                                    fmt="progressive deals=2"))
    assert "  1=  Ann" in result.stdout and "a rank with = is shared" in result.stdout


def test_tiebreak_option_changes_the_order() -> None:
    """``--tiebreak`` replaces the defaults and is printed under the table."""
    text = "".join([
        sheet("Prog", "1", "1", "Ann Bob Cy Dee", [ONE, TWO], fmt="progressive deals=2"),
        sheet("Prog", "2", "1", "Ann Cy Bob Dee", [SET, LONE]),
    ])
    event, = scored(text, Overrides(tiebreaks=("loners",)))
    assert event.settings.ranking() == "ranked by total points, then by loners made."
    result = score("--tiebreak", "loners,euchres", "-", stdin=text)
    assert "ranked by total points, then by loners made, then by euchres taken." in (
        result.stdout)
    bad = score("--tiebreak", "head-to-head", "-", stdin=text)
    assert bad.exit_code == 2 and "does not apply to the progressive event" in bad.stderr
    assert score("--tiebreak", "coin-toss", "-", stdin=text).exit_code == 2


@pytest.mark.parametrize("variant", ["three-hand", "cutthroat", "ghost", "two-hand"])
def test_deals_option_applies_to_every_variant(variant: str) -> None:
    """A progressive round of any variant ends after ``deals=N`` deals: the Format tag, or
    ``--deals``, gives the games that state no length their length."""
    seats = {"two-hand": "N S", "ghost": "N E S"}.get(variant, "N E S")
    names = dict(zip(seats.split(), ["Ann", "Bob", "Cy"], strict=False))
    tags = " ".join(f'[{s} "{n}"]' for s, n in names.items())
    thrown = "thrown in"
    text = (f'[Event "Threes"] [Round "1"] [Table "1"] [Variant "{variant}"] {tags}\n'
            f"deal 1 dealer N\n  {thrown}\n"
            f"deal 2 dealer {seats.split()[1]}\n  {thrown}\n")
    event, = scored(text, Overrides(format="progressive", deals=2))
    assert codes(event) == [] and event.settings.deals == 2
    assert [t.status for t in event.tables] == ["final"]
    event, = scored(text.replace('[Round "1"]', '[Format "progressive deals=2"] [Round "1"]'))
    assert codes(event) == []
    event, = scored(text, Overrides(format="progressive", deals=3))
    assert codes(event) == ["G951"]  # the record stops after 2 of 3 deals


def test_three_hand_progressive_scores_each_player() -> None:
    """Three-hand: every player is a side; a euchre gives each defender 2."""
    text = ('[Event "T"] [Format "progressive deals=2"] [Round "1"] [Table "1"] '
            '[Variant "three-hand"] [N "Ann"] [E "Bob"] [S "Cy"]\n'
            "deal 1 dealer N\n  trump H maker E tricks 3\n"
            "deal 2 dealer E\n  trump S maker S tricks 1\n"
            "result N 2 E 3 S 0 winner E\n")
    event, = scored(text)
    assert codes(event) == []
    assert {r.label: r.points_for for r in event.standings} == {"Ann": 2, "Bob": 3, "Cy": 0}
    assert event.awards[0].winners == ()  # three-hand makers always play alone: no loners


def test_format_is_inferred_and_said() -> None:
    """Without a Format tag: partners when partners never change, else progressive."""
    fixed = sheet("E", "1", "1", "A B C D", [TWO], extra='[Target "2"]') + sheet(
        "E", "2", "1", "A B C D", [ONE, ONE], extra='[Target "2"]')
    event, = scored(fixed)
    assert (event.settings.format, event.settings.basis) == (
        "partners", "inferred: the partners never change")
    event, = scored(fixed, Overrides(format="progressive"))
    assert event.settings.format == "progressive" and event.settings.basis == "--event-format"
    # The games state their target: the event's length is theirs, not 8 deals a game.
    assert (event.settings.deals, event.settings.target) == (None, 2)
    assert event.settings.length_basis == "inferred from the games: 2 of 2 games are played to 2"
    assert codes(event) == []
    event, = scored(fixed, Overrides(format="progressive", deals=8))
    assert event.settings.length_basis == "--deals" and "E965" in codes(event)


def test_length_is_inferred_from_the_records() -> None:
    """Without a length in the Format tag, an option or the sheets: games closed by their
    result line after the same number of deals, short of the target, are games of that many
    deals (not 8 deals a game), and the standings say so; ``--deals`` overrides the
    inference. A sheet without its result line shows nothing."""
    short = sheet("E", "1", "1", "A B C D", [ONE, ONE, ONE], fmt="progressive",
                  end="result") + sheet(
        "E", "1", "2", "E F G H", [ONE, SET, ONE], end="result")
    open_, = scored(short.replace("result\n", ""))
    assert (open_.settings.deals, open_.settings.length_basis) == (
        8, "the default of a progressive event")
    event, = scored(short)
    assert (event.settings.deals, event.settings.target) == (3, None)
    assert event.settings.length_basis == "inferred from the games: 2 of 2 games are 3 deals"
    assert codes(event) == []
    assert "3 deals a game (inferred from the games: 2 of 2 games are 3 deals)" in (
        event.settings.describe())
    event, = scored(short, Overrides(deals=4))
    assert event.settings.length_basis == "--deals"
    assert codes(event) == ["G955", "G955"]  # each result line closes a game short of 4 deals


def test_progressive_games_to_a_target_rank_by_games_won_then_points() -> None:
    """RULES.md H7: partners rotating, games to a target: one game won for each player of
    the winning side, then points; ``rank=points`` (or ``--rank points``) ranks by points."""
    text = sheet("E", "1", "1", "A B C D", [TWO], fmt="progressive", extra='[Target "2"]') + (
        sheet("E", "2", "1", "A C B D", [ONE, SET], extra='[Target "2"]'))
    event, = scored(text)
    assert event.settings.primary == "games-won" and event.settings.tiebreaks == ("points",)
    assert [(r.label, r.won, r.points_for, r.rank) for r in event.standings] == [
        ("C", 2, 5, 1), ("D", 1, 3, 2), ("A", 1, 2, 3), ("B", 0, 0, 4)]
    assert event.settings.ranking() == "ranked by games won, then by total points."
    assert [d.key for d in event.decisions] == ["points"]
    for overrides in (None, Overrides(rank="points")):
        tagged = text.replace('[Format "progressive"]', '[Format "progressive rank=points"]')
        event, = scored(tagged if overrides is None else text, overrides)
        assert event.settings.primary == "points"
        assert event.settings.tiebreaks == ("deals-won",)


def test_lone_hands_score_each_player_apart() -> None:
    """``lone=5/4``: a lone hand of five tricks scores 5 to the loner and 4 to the
    partner, each for themselves (RULES.md H7); the table keeps the side's points."""
    text = sheet("E", "1", "1", "A B C D", [LONE, ONE], fmt="progressive deals=2 lone=5/4")
    event, = scored(text)
    assert codes(event) == []
    assert {r.label: r.points_for for r in event.standings} == {"D": 6, "B": 5, "A": 0, "C": 0}
    assert {r.label: r.by_round["1"] for r in event.standings}["D"] == 6
    assert event.awards[2].winners == ("D",) and event.awards[2].value == 6
    assert event.tables[0].scores == (("A & C", 0), ("B & D", 5))
    plain, = scored(text.replace(" lone=5/4", ""))
    assert {r.label: r.points_for for r in plain.standings} == {"D": 5, "B": 5, "A": 0, "C": 0}
    # A lone hand of four tricks scores the side's point to both.
    four, = scored(text.replace("alone tricks 5", "alone tricks 4"))
    assert {r.label: r.points_for for r in four.standings}["D"] == 2
    partners, = scored(text.replace("progressive deals=2", "partners deals=2"))
    assert codes(partners) == ["E961"] and "progressive event only" in (
        partners.findings[0].message)
    assert partners.settings.lone is None


def test_lone_option_overrides_the_format_tag() -> None:
    """``--lone L/P`` scores a lone hand of five tricks as ``lone=L/P`` in the Format tag
    does, and replaces what the tag says; a value that is not two whole numbers is a usage
    error, and so is the option for a partners event, unless ``--event`` leaves it out."""
    text = sheet("E", "1", "1", "A B C D", [LONE, ONE], fmt="progressive deals=2")
    event, = scored(text, Overrides(lone=(5, 4)))
    assert {r.label: r.points_for for r in event.standings} == {"D": 6, "B": 5, "A": 0, "C": 0}
    tagged = text.replace("progressive deals=2", "progressive deals=2 lone=5/4")
    event, = scored(tagged, Overrides(lone=(6, 3)))
    assert event.settings.lone == (6, 3) and codes(event) == []
    assert {r.label: r.points_for for r in event.standings} == {"D": 7, "B": 4, "A": 0, "C": 0}
    result = score("-q", "--format", "json", "--lone", "6/3", "-", stdin=tagged)
    data = json.loads(result.stdout)["events"][0]
    assert result.exit_code == 0 and data["lone"] == [6, 3]
    assert {r["name"]: r["points_for"] for r in data["standings"]}["D"] == 7
    assert "6 to the loner and 3 to the partner" in score("--lone", "6/3", "-",
                                                         stdin=text).stdout
    for bad in ("5", "5/x", "5/4/3", "-1/4", "5 / 4", ""):
        result = score("--lone", bad, "-", stdin=text)
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
        assert "Invalid value for '--lone'" in result.stderr
        assert "two whole numbers, the loner's points and the partner's" in result.stderr
    partners = sheet("Cup", "1", "1", "P Q R S", [ONE, TWO], fmt="partners deals=2")
    result = score("--lone", "5/4", "-", stdin=text + partners)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "applies to a progressive event only, and 'Cup' is a partners event" in (
        result.stderr)
    result = score("-q", "--lone", "5/4", "--event", "E", "-", stdin=text + partners)
    assert result.exit_code == 0 and "5 to the loner and 4 to the partner" in result.stdout
    # --event leaves out the events it does not name before their settings are settled,
    # so an option another event cannot take does not stop it either.
    result = score("-q", "--tiebreak", "points-for", "--event", "Cup", "-",
                   stdin=text + partners)
    assert result.exit_code == 0 and "then by points for" in result.stdout


def test_a_penalty_to_one_player_counts_against_that_player_only() -> None:
    """RULES.md H6: a penalty charged to one player takes the points from the side's
    running total, and in a progressive event from that player's total alone; one charged
    to a side counts against both partners."""
    text = sheet("E", "1", "1", "A B C D", [LONE, ONE], fmt="progressive deals=2")
    played = f"  {LONE}\n"
    assert played in text
    charged, = scored(text.replace(played, played + "  penalty W 2 table talk\n"))
    assert codes(charged) == []
    assert {r.label: r.points_for for r in charged.standings} == {
        "B": 5, "D": 3, "A": 0, "C": 0}
    assert charged.tables[0].scores == (("A & C", 0), ("B & D", 3))
    side, = scored(text.replace(played, played + "  penalty EW 2 table talk\n"))
    assert {r.label: r.points_for for r in side.standings}["B"] == 3


def test_rotating_sample_is_the_real_case() -> None:
    """Four players, six games to 10, the partners rotating every game, ranked by games
    won with ties shared: the two who won 4 games each are joint first, though a player
    with fewer wins has more points than one of them; the sheets state no target."""
    path = EVENTS / make_events.ROTATING / "games.euchre"
    entries = read_entries(path.read_text(encoding="utf-8"), str(path))
    games = [e.game for e in entries if e.game is not None]
    assert len(games) == 6 and not any(g.tag(t) for g in games for t in ("Target", "Rules"))
    assert len({g.tag(s) for g in games for s in ("North", "East", "South", "West")}) == 4
    pairs = [frozenset({g.tag("North"), g.tag("South")}) for g in games]
    assert all(a != b for a, b in pairwise(pairs))
    event, = score_events(entries)
    s = event.settings
    assert (s.format, s.deals, s.target, s.primary, s.tiebreaks) == (
        "progressive", None, 10, "games-won", ())
    assert s.length_basis == "inferred from the games: 6 of 6 games are played to 10"
    top = [r for r in event.standings if r.rank == 1]
    assert [(r.won, r.tied) for r in top] == [(4, True), (4, True)]
    assert max(r.points_for for r in event.standings if r.rank > 1) > min(
        r.points_for for r in top)


def test_rank_and_length_options_override_the_tag_and_the_inference() -> None:
    """``--rank points`` ranks the rotating sample by points; ``--target`` replaces the
    length inferred from its games, and the JSON says where each came from."""
    folder = str(EVENTS / make_events.ROTATING)
    data = json.loads(score("-q", "--format", "json", folder).stdout)["events"][0]
    assert data["ranking"] == ["games-won"] and data["length_from"].startswith("inferred")
    assert [row["rank"] for row in data["standings"]] == [1, 1, 3, 3]
    data = json.loads(score("-q", "--format", "json", "--rank", "points", "--target", "10",
                            folder).stdout)["events"][0]
    assert data["ranking"] == ["points"] and data["length_from"] == "--target"
    assert [row["name"] for row in data["standings"]][:2] == ["Dirk Maas", "Bram Okafor"]
    assert data["findings"] == [] and data["lone"] is None


def test_lone_sample_scores_lone_hands_apart() -> None:
    """The lone=5/4 sample: its lone hands of five tricks give 5 to the loner and 4 to the
    partner, which puts Abe Lowell second alone; scored as the side's 4 to each, he would
    share second place."""
    texts = [p.read_text(encoding="utf-8")
             for p in sorted((EVENTS / make_events.LONE).glob("*.euchre"))]
    entries = [e for n, t in enumerate(texts) for e in read_entries(t, f"{n}.euchre")]
    event, = score_events(entries)
    assert event.settings.lone == (5, 4) and codes(event) == []
    plain, = score_events([e for n, t in enumerate(texts) for e in read_entries(
        t.replace(" lone=5/4", ""), f"{n}.euchre")])
    ranks = {r.label: (r.rank, r.tied) for r in event.standings}
    assert ranks["Abe Lowell"] == (2, False)
    assert {r.label: (r.rank, r.tied) for r in plain.standings}["Abe Lowell"] == (2, True)
    gained = sum(r.points_for for r in event.standings) - sum(
        r.points_for for r in plain.standings)
    assert gained == 4  # four lone hands of five tricks, one point more each


def test_tournaments_doc_quotes_the_rotating_golden() -> None:
    folder = EVENTS / make_events.ROTATING
    head = "".join((folder / "standings.txt").read_text(encoding="utf-8")
                   .splitlines(keepends=True)[:9])
    doc = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ euchrelog score samples/events/rotating-partners \| "
                      r"head -9\n(.*?)```\n", doc, re.DOTALL)
    assert block is not None and block.group(1) == head


def test_parse_format() -> None:
    """The Format tag's words, and what it refuses."""
    tag = parse_format("Partners target=5 tiebreak=points-for,head-to-head")
    assert (tag.format, tag.target, tag.tiebreaks) == ("partners", 5,
                                                       ("points-for", "head-to-head"))
    tag = parse_format("progressive target=10 rank=games-won tiebreak=")
    assert (tag.format, tag.target, tag.rank, tag.tiebreaks) == ("progressive", 10,
                                                                 "games-won", ())
    assert parse_format("progressive lone=5/4").lone == (5, 4)
    for bad in ("swiss", "deals=0", "deals=x", "colour=red", "progressive progressive",
                "progressive tiebreak=head-to-head", "tiebreak=luck", "rank=luck",
                "rank=points rank=points", "lone=5", "lone=5/x", "lone=5/4/3",
                "lone=5/4 lone=6/4", "partners tiebreak=points"):
        with pytest.raises(ValueError):
            parse_format(bad)
    assert parse_tiebreaks("deals-won, loners") == ("deals-won", "loners")


def test_missing_round_names_and_unknown_words() -> None:
    """E964 for a round missing between 1 and the last, E962 for a seat without a name,
    E961 for a Format word it cannot read."""
    text = "".join([
        sheet("E", "1", "1", "A B C D", [ONE], fmt="progressive deals=1"),
        sheet("E", "3", "1", "A C B D", [ONE], fmt="progressive deal=1"),
    ]) + ('[Event "E"] [Round "2"] [Table "1"] [Variant "four-hand"] [N "A"] [E "B"] [S "C"]\n'
          "deal 1 dealer N\n  trump H maker E tricks 3\n")
    event, = scored(text)
    assert sorted(codes(event)) == ["E961", "E962"]
    text = "".join([
        sheet("E", "1", "1", "A B C D", [ONE], fmt="progressive deals=1"),
        sheet("E", "3", "1", "A C B D", [ONE]),
    ])
    event, = scored(text)
    assert codes(event) == ["E964"]
    assert "round 2 is missing" in event.findings[0].message


def test_same_file_twice_is_the_same_games_twice(tmp_path: Path) -> None:
    """A file given twice: every game of the copy is E967 and left out."""
    path = tmp_path / "r1.euchre"
    path.write_text(sheet("E", "1", "1", "A B C D", [ONE, TWO], fmt="progressive deals=2"),
                    encoding="utf-8")
    result = score("--check", str(path), str(path))
    assert result.exit_code == 1
    assert [line.split()[1] for line in result.stdout.splitlines()] == ["E967"]
    standings = json.loads(score("-q", "--format", "json", str(path), str(path)).stdout)
    assert standings["events"][0]["tables"][1]["status"] == "left out"
    assert [r["played"] for r in standings["events"][0]["standings"]] == [1, 1, 1, 1]


def test_unfinished_game_is_short_and_counts_as_far_as_it_went() -> None:
    """E966 on the end line; the points so far count, and the table says unfinished."""
    text = sheet("E", "1", "1", "A B C D", [TWO], fmt="progressive deals=2", end="unfinished")
    event, = scored(text)
    assert codes(event) == ["E966"] and event.findings[0].line == 4
    assert event.tables[0].status == "unfinished"
    assert {r.label: r.points_for for r in event.standings}["A"] == 2


def test_syntax_error_still_gives_provisional_standings() -> None:
    """A sheet that cannot be read is reported (S101, exit 2); the others still rank."""
    text = sheet("E", "1", "1", "A B C D", [ONE], fmt="progressive deals=1") + (
        '[Event "E"] [Round "1"] [Table "2"] [Variant "four-hand"]\ndeal 1 dealer Q\n')
    result = score("--format", "json", "-", stdin=text)
    assert result.exit_code == 2
    data = json.loads(result.stdout)["events"][0]
    assert data["status"] == "provisional" and len(data["standings"]) == 4
    assert "S101" in result.stderr and "^" in result.stderr


def test_json_input_gives_the_same_standings(tmp_path: Path) -> None:
    """Records as JSON Lines score as their notation does."""
    folder = EVENTS / make_events.PARTNERS
    for n, path in enumerate(sorted(folder.glob("*.euchre"))):
        out = tmp_path / f"{n}.jsonl"
        CliRunner().invoke(main, ["convert", str(path), "-o", str(out)])
    a = json.loads(score("-q", "--format", "json", str(folder)).stdout)["events"][0]
    b = json.loads(score("-q", "--format", "json", *sorted(
        str(p) for p in tmp_path.glob("*.jsonl"))).stdout)["events"][0]
    assert a["standings"] == b["standings"] and b["findings"] == []


def test_score_reads_game_by_game_and_keeps_no_record() -> None:
    """``score`` replays each game as it is read and keeps only what the standings need:
    the reader has pulled two games' lines when the first is scored, no record is kept,
    and a game that states its length is never read again."""
    text = "".join(sheet("E", str(r), "1", " ".join(f"P{r}{s}" for s in "NESW"), [ONE, TWO],
                         fmt="progressive", extra='[Deals "2"]') for r in range(1, 7))
    pulled: list[int] = []

    def lines() -> Iterator[str]:
        for number, line in enumerate(text.splitlines(keepends=True), 1):
            pulled.append(number)
            yield line
    scorer = Scorer()
    stream = iter_entries(lines(), "event.euchre")
    scorer.add(next(stream))
    assert len(pulled) < text.count("\n") // 2
    for entry in stream:
        scorer.add(entry)
    played = scorer.events["E"].played
    assert len(played) == 6 and all(p.entry.game is None for p in played)
    event, = scorer.results(lambda wanted: pytest.fail("no game is read again"))
    assert codes(event) == [] and len(event.standings) == 24


def test_games_of_the_event_length_are_read_again_even_from_stdin(tmp_path: Path) -> None:
    """Games that state no length are replayed with the event's, which the Format tag of a
    later sheet may give: ``score`` reads them again, from a file or from standard input
    (which it keeps aside for that)."""
    text = sheet("E", "1", "1", "A B C D", [ONE, TWO]) + sheet(
        "E", "2", "1", "A C B D", [TWO, ONE], fmt="progressive deals=2")
    path = tmp_path / "event.euchre"
    path.write_text(text, encoding="utf-8")
    from_file = score("--format", "json", str(path))
    from_stdin = score("--format", "json", "-", stdin=text)
    assert from_file.exit_code == from_stdin.exit_code == 0, from_file.stderr
    data = json.loads(from_stdin.stdout)["events"][0]
    assert data["deals"] == 2 and data["findings"] == [] and data["status"] == "final"
    assert from_stdin.stdout == from_file.stdout.replace(str(path), "<stdin>")


def test_event_option_and_output_file(tmp_path: Path) -> None:
    """``--event`` picks one event; ``-o`` writes the page to a file."""
    out = tmp_path / "page.html"
    result = score("--event", "Legion Partners Cup", "--format", "html", "-o", str(out),
                   str(EVENTS))
    assert result.exit_code == 0 and result.stdout == ""
    page = out.read_text(encoding="utf-8")
    assert "Legion Partners Cup" in page and "Spring Progressive" not in page
    missing = score("--event", "Nope", str(EVENTS))
    assert missing.exit_code == 2 and "no event named 'Nope'" in missing.stderr
    assert score("--check", "--format", "csv", str(EVENTS)).exit_code == 2


def test_output_dash_is_standard_output() -> None:
    result = score("--format", "csv", "-o", "-", str(EVENTS / "legion-partners-cup"))
    assert result.exit_code == 0
    assert result.stdout == score("--format", "csv", str(EVENTS / "legion-partners-cup")).stdout


# ------------------------------------------------------------------ the html page


def test_html_is_self_contained() -> None:
    """No script, no stylesheet or image to fetch, one inline SVG per event."""
    for folder in GOLDEN_DIRS:
        page = (folder / "standings.html").read_text(encoding="utf-8")
        assert "<script" not in page.lower() and "<link" not in page.lower()
        assert not re.search(r"""(src=|url\(|@import|href="(?!#))""", page)
        assert page.count("<svg") == 1


def _chromium(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", *args],
        capture_output=True, text=True, timeout=180, check=False)


@pytest.mark.skipif(CHROMIUM is None,
                    reason="chromium is not installed (Debian: apt-get install chromium)")
@pytest.mark.parametrize("folder", [pytest.param(f, id=f.name) for f in GOLDEN_DIRS])
def test_html_renders_in_headless_chromium(folder: Path, tmp_path: Path) -> None:
    """The page renders in a real browser: the DOM holds the chart (pygal's) with a line
    per row, the screenshot is a real image, and the page prints to PDF. (Run with
    ``--basetemp=/tmp/score-shots`` to keep the screenshots and look at them.)"""
    page = tmp_path / "standings.html"
    page.write_text((folder / "standings.html").read_text(encoding="utf-8"), encoding="utf-8")
    dom = _chromium(["--dump-dom", page.as_uri()], tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    rows = json.loads((folder / "standings.json").read_text())["events"][0]["standings"]
    lines = re.findall(r'<g class="series serie-\d+ color-\d+" data-name="[^"]*"><path ',
                       dom.stdout)
    assert "<svg" in dom.stdout and len(lines) == len(rows)
    assert all(row["name"].replace("&", "&amp;") in dom.stdout for row in rows)
    shot = tmp_path / "standings.png"
    taken = _chromium([f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
                      tmp_path)
    assert taken.returncode == 0, taken.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1200, 1600)
    assert len(data) > 50_000  # a page of text and a chart, not a blank image
    pdf = tmp_path / "standings.pdf"
    printed = _chromium(["--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
                        tmp_path)
    assert printed.returncode == 0, printed.stderr[-2000:]
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 20_000


# ------------------------------------------------------------------ hostile input

LINES = [line for p in sorted((EVENTS / make_events.PROGRESSIVE).glob("*.euchre"))
         for line in p.read_text(encoding="utf-8").splitlines()]


@settings(derandomize=True, deadline=None, database=None, max_examples=40,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(LINES), max_size=120),
       st.sampled_from(["text", "csv", "json", "markdown", "html"]),
       st.sampled_from([(), ("--event-format", "partners"), ("--deals", "3"),
                        ("--target", "5"), ("--tiebreak", "loners"), ("--lone", "5/4")]))
def test_no_traceback_on_shuffled_sheets(lines: list[str], fmt: str,
                                         extra: tuple[str, ...]) -> None:
    """Lines of real sheets in any order and number: exit 0, 1 or 2, never a traceback."""
    result = CliRunner().invoke(main, ["score", "--format", fmt, *extra, "-"],
                                input="\n".join(lines) + "\n")
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit | EuchrelogError):
        raise exc
    assert result.exit_code in (0, 1, 2)


@settings(derandomize=True, deadline=None, database=None, max_examples=40,
          suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=300))
def test_no_traceback_on_random_bytes(data: bytes) -> None:
    """Bytes that are not a record, or not UTF-8: a finding or a usage error."""
    result = CliRunner().invoke(main, ["score", "-"], input=data)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit | EuchrelogError):
        raise exc
    assert result.exit_code in (0, 1, 2)


def test_module_prints_no_traceback(tmp_path: Path) -> None:
    """``python -m euchrelog score`` on bytes that are not UTF-8 and on a broken sheet."""
    bad = tmp_path / "bad.euchre"
    bad.write_bytes(b'[Event "E"] [Round "1"]\ndeal 1 dealer N\n  \xff\n')
    proc = subprocess.run([sys.executable, "-m", "euchrelog", "score", str(bad)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout
    assert "S101 the file is not UTF-8 text" in proc.stderr


def test_entry_places_json_games_at_their_line() -> None:
    """A JSON Lines game has no source map: its findings point at its line."""
    entry = Entry("x.jsonl", 1, 7)
    assert entry.find(("tag", 3)) == (7, 1)


def test_csv_of_several_events_has_one_header_and_the_same_columns() -> None:
    rows = list(csv.reader(io.StringIO(score("-q", "--format", "csv", str(EVENTS)).stdout)))
    header, body = rows[0], rows[1:]
    assert header[:4] == ["event", "rank", "tied", "player or team"] and header[-1] == "status"
    assert "event" not in [row[0] for row in body] and all(body)
    assert {len(row) for row in body} == {len(header)}
    assert {row[0] for row in body} == {"Legion Partners Cup", "Lakeside Rotation",
                                        "Harbor Lights Progressive", "Spring Progressive"}
    # An event of 2 rounds comes before one of 6: the rounds still stand together, in order.
    rounds = [k for k, name in enumerate(header) if name.startswith("round_")]
    assert [header[k] for k in rounds] == [f"round_{n}" for n in range(1, 7)]
    assert rounds == list(range(rounds[0], rounds[0] + 6))
    partners = next(row for row in body if row[0] == "Legion Partners Cup")
    assert partners[header.index("round_1")] == "" and partners[header.index("won")] != ""
    assert all(row[-1] == "final" for row in body)


def test_csv_says_the_length_and_where_it_came_from_as_the_json_does() -> None:
    """Each CSV row carries its event's ``deals``, ``target`` and ``length_from``, the
    values of the JSON (empty for null): inferred from the games, from the Format tag or
    from an option (whose leading ``-`` a spreadsheet would run, so it is quoted)."""
    for args in ([str(EVENTS)], ["--deals", "8", str(EVENTS / make_events.PROGRESSIVE)],
                 ["--target", "10", str(EVENTS / make_events.PARTNERS)]):
        table = csv.DictReader(io.StringIO(score("-q", "--format", "csv", *args).stdout))
        data = json.loads(score("-q", "--format", "json", *args).stdout)
        settings = {e["event"]: e for e in data["events"]}
        for row in table:
            event = settings[row["event"]]
            assert (row["deals"], row["target"]) == tuple(
                "" if event[k] is None else str(event[k]) for k in ("deals", "target"))
            said = event["length_from"]
            assert row["length_from"] == ("'" + said if said.startswith("-") else said)
    rows = {r["event"]: r for r in csv.DictReader(io.StringIO(
        score("-q", "--format", "csv", str(EVENTS)).stdout))}
    assert rows["Lakeside Rotation"]["length_from"] == (
        "inferred from the games: 6 of 6 games are played to 10")
    assert rows["Harbor Lights Progressive"]["length_from"] == "the Format tag"
    forced = next(csv.DictReader(io.StringIO(score(
        "-q", "--format", "csv", "--deals", "8", str(EVENTS / make_events.PROGRESSIVE)).stdout)))
    assert (forced["deals"], forced["target"], forced["length_from"]) == ("8", "", "'--deals")


def test_html_shows_the_date_and_site() -> None:
    page = score("-q", "--format", "html", str(EVENTS / "legion-partners-cup")).stdout
    assert '<p class="meta">Date: 2025-06-07; Site: Maple Grove Legion Hall</p>' in page


def test_an_event_whose_only_renege_was_claimed_is_final() -> None:
    """A claimed renege is a note (P2): the standings are final, and the note is kept."""
    sheet = (ROOT / "samples" / "invalid" / "R801-renege-claimed.euchre").read_text(
        encoding="utf-8").replace('[Event "Tuesday League"]',
                                  '[Event "Club"] [Format "partners"] [Round "1"] [Table "1"]')
    event, = score_events(read_entries(sheet, "club.euchre"))
    assert [(f.code, f.severity) for f in event.findings] == [("R801", "note")]
    assert not event.provisional
