"""Single-dummy review of the bids (issue 41 item 2): each option of a bid valued over
drawn layouts of what the bidder could not see, the later bidding by the rule-based player
and the play double dummy; the game report and ``stats --single-dummy`` with them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from euchrelog.analysis import Settings
from euchrelog.analysis.bidding import BidReview, bid_samples, review_bids
from euchrelog.cards import parse_card
from euchrelog.cli import main
from euchrelog.engine import Action, DealState
from euchrelog.generate import ruleset_for
from euchrelog.models import Order, Pass
from euchrelog.seats import Seat

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "valid"
CLUB = str(SAMPLES / "four-hand-24-club-night.euchre")


def _deal(hands: dict[str, str], up: str, kitty: str, dealer: str = "N") -> DealState:
    cards = {Seat(s): [parse_card(c) for c in text.split()] for s, text in hands.items()}
    return DealState(ruleset_for("four-hand"), Seat(dealer), hands=cards,
                     upcard=parse_card(up), kitty=[parse_card(c) for c in kitty.split()])


def _bid(word: str, seat: str) -> Action:
    return Pass(act="pass", seat=Seat(seat)) if word == "pass" else Order(act="order",
                                                                         seat=Seat(seat))


# North deals and turns the king of hearts: North holds both bowers and the ace of hearts;
# East, first to bid, four low off-suit cards and the nine of diamonds.
HANDS = {"N": "JH JD AH QC QS", "E": "9C TC 9S TS 9D", "S": "KC AC KS AS TD",
         "W": "JC JS QD KD AD"}
CASES = [
    # (the bidding, the bid judged, an option that must be best, one it must beat)
    (["pass", "pass", "pass", "order"], 3, "order", "pass"),
    (["pass", "pass", "pass", "order"], 0, "pass", "order"),
]


@pytest.mark.parametrize(("words", "at", "better", "worse"), CASES)
def test_an_obvious_bid_is_valued_best(words: list[str], at: int, better: str,
                                       worse: str) -> None:
    dealt = _deal(HANDS, "KH", "9H TH QH")
    seats = ["E", "S", "W", "N"]
    acts = [_bid(w, seats[k]) for k, w in enumerate(words)]
    reviews, skipped = review_bids(dealt, acts, Settings(samples=64, seed=3), "test")
    assert skipped is None and [r.seat.value for r in reviews] == seats
    sd = reviews[at].sd
    assert sd is not None and not sd.exact and sd.samples == bid_samples(Settings()) == 16
    assert set(sd.points) == {"pass", "order", "order alone"}
    assert better in sd.best or (better == "order" and "order alone" in sd.best)
    assert worse not in sd.best and sd.net[worse] < sd.net[better] - 0.5
    assert sd.values["pass"] is None and sd.values["order"] is not None


def test_the_same_seed_gives_the_same_values_and_another_seed_other_draws() -> None:
    dealt = _deal(HANDS, "KH", "9H TH QH")
    acts = [_bid("pass", "E"), _bid("order", "S")]

    def run(seed: int) -> tuple[BidReview, ...]:
        return review_bids(dealt, acts, Settings(samples=16, seed=seed), f"{seed}/1/1")[0]

    assert run(1) == run(1)
    assert run(1) != run(2)


def _analyze(*args: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(main, ["analyze", *args, "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_every_bid_of_a_club_game_is_named_as_the_notation_writes_it() -> None:
    lines = _analyze(CLUB, "--single-dummy", "--samples", "8", "--no-par")
    deals = {d["deal"]: d for d in lines if "deal" in d}
    assert [b["bid"] for b in deals[1]["bids"]] == ["pass", "pass", "pass", "order"]
    assert deals[5]["bids"][-1]["bid"] == "order alone"  # (East went alone)
    assert deals[9]["bids"][-1] == {**deals[9]["bids"][-1], "seat": "S", "bid": "defend"}
    assert set(deals[9]["bids"][-1]["sd"]["points"]) == {"defend", "stand"}
    assert [b["bid"] for b in deals[2]["bids"]][-1] == "call C"
    assert "call C alone" in deals[2]["bids"][-1]["sd"]["points"]
    assert "skipped" in deals[7] and len(deals[7]["bids"]) == 8  # thrown in: its bids
    dealer = deals[1]["bids"][3]["sd"]
    assert set(dealer["points"]) == {"pass", "order", "order alone"}
    for deal in deals.values():
        for bid in deal.get("bids", ()):
            sd = bid["sd"]
            assert sd["exact"] is False and sd["samples"] == 4 and sd["se"] >= 0
            assert sd["loss"] == pytest.approx(sd["net"][sd["best"][0]] - sd["net"][bid["bid"]],
                                               abs=2e-4)


def test_ghost_trick_bids_are_said_not_reviewed() -> None:
    lines = _analyze(str(SAMPLES / "ghost-club-night.euchre"), "--single-dummy", "--samples",
                     "4", "--no-par")
    reviewed = [d for d in lines if "dd" in d]
    assert reviewed and all("trick bids" in d["bids_skipped"] for d in reviewed)
    assert not any("bids" in d for d in lines)


def test_the_bids_json_is_what_the_schema_says() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "src" / "euchrelog" / "analysis" / "schema.json").read_text())
    for name in ("four-hand-24-club-night", "three-hand-club-night", "cutthroat-club-night",
                 "four-hand-25-benny", "four-hand-32-stick-the-dealer", "four-hand-no-trump",
                 "four-hand-partner-alone", "four-hand-canadian-loner"):
        lines = _analyze(str(SAMPLES / f"{name}.euchre"), "--single-dummy", "--samples", "4",
                         "--exact-limit", "4", "--no-par")
        assert any("bids" in line for line in lines), name
        for line in lines:
            jsonschema.validate(line, schema)


@pytest.mark.slow
def test_no_sample_gives_a_traceback_single_dummy() -> None:
    result = CliRunner().invoke(main, ["analyze", str(SAMPLES), str(SAMPLES.parent / "invalid"),
                                       "--single-dummy", "--samples", "4", "--exact-limit", "4",
                                       "--no-par", "--format", "json", "-q"])
    assert result.exit_code in (0, 2), result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                     SystemExit)
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- stats --single-dummy


def _stats(*args: str) -> str:
    result = CliRunner().invoke(main, ["stats", *args, "-q"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_stats_single_dummy_is_the_same_whatever_the_jobs() -> None:
    sources = [CLUB, str(SAMPLES / "three-hand-club-night.euchre")]
    common = ["--single-dummy", "--samples", "8", "--seed", "4", "--format", "json"]
    one = _stats(*sources, *common, "--jobs", "1")
    assert one == _stats(*sources, *common, "--jobs", "2")
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(json.loads(one), json.loads(
        (ROOT / "src" / "euchrelog" / "stats" / "schema.json").read_text()))
    rows = json.loads(one)["variants"][0]["players"]
    assert all(r["sd_decisions"] > r["sd_bids"] > 0 and 0 <= r["accuracy"] <= 100
               for r in rows)


def test_stats_single_dummy_adds_up_the_game_reports() -> None:
    common = ["--single-dummy", "--samples", "8", "--no-par"]
    report = _analyze(CLUB, *common)[-1]["players"]
    rows = json.loads(_stats(CLUB, *common[:-1], "--format", "json"))["variants"][0]
    names = {"N": "Marge Keller", "E": "Walt Brenner", "S": "Dot Hanley", "W": "Gus Ferris"}
    by_name = {r["name"]: r for r in rows["players"]}
    for seat, player in report.items():
        row = by_name[names[seat]]
        assert row["sd_decisions"] == player["decisions"] and row["sd_bids"] == player["bids"]
        assert row["bid_lost"] == pytest.approx(player["bid_lost"], abs=1e-3)
        assert row["play_lost"] == pytest.approx(player["play_lost"], abs=1e-3)
        assert row["accuracy"] == pytest.approx(player["accuracy"], abs=0.05)
    text = _stats(CLUB, *common[:-1])
    assert "players, single dummy" in text and "lost bidding" in text


@pytest.mark.parametrize("args", [
    ["--single-dummy", "--samples", "0"],
    ["--single-dummy", "--samples", "many"],
    ["--single-dummy", "--exact-limit", "-1"],
    ["--single-dummy", "--seed", "x"],
    ["--samples", "8"],
    ["--seed", "3"],
])
def test_bad_stats_single_dummy_options_are_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["stats", CLUB, *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Usage:" in result.output


@pytest.mark.slow
def test_every_bid_of_random_games_of_every_variant_is_graded_or_said_not_to_be() -> None:
    import random

    from euchrelog.generate import random_game
    from euchrelog.replay import replay
    from strategies import VARIANT_NAMES
    from support.records import random_ruleset

    rng = random.Random(7)
    graded = 0
    for k in range(40):
        variant = VARIANT_NAMES[k % len(VARIANT_NAMES)]
        game = random_game(rng, random_ruleset(rng, variant), stop_after=2)
        for result in replay(game, trace=True).deals:
            if result.trace is None:
                continue
            bids, skipped = review_bids(result.trace.dealt, result.trace.acts,
                                        Settings(samples=4), "random")
            assert (skipped is not None) == (variant == "ghost")
            for bid in bids:
                assert bid.sd is None or bid.bid in bid.sd.points
                graded += bid.sd is not None
    assert graded > 100
