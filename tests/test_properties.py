"""Properties of random legal four-hand games (Hypothesis, derandomized).

The games come from :mod:`euchrelog.generate` through the strategies of
``tests/strategies.py``: a seed, house rules over every four-hand option, and a level of
detail. A legal game replays clean, scores as F11 says, and survives the notation and
JSON round trips; a game with one injected fault yields exactly one finding, of the
fault's code.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchrelog.cards import Card
from euchrelog.generate import (
    Detail,
    contract,
    hide_cards,
    play_only,
    random_game,
    ruleset_for,
    score_sheet,
)
from euchrelog.jsonio import dumps_json, loads_json
from euchrelog.models import Call, Game, Log, Pass
from euchrelog.notation import loads
from euchrelog.replay import replay
from euchrelog.writer import dumps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import (
    FAULTS,
    Injected,
    faulty_games,
    games,
    ruleset_of,
)

ALL_DETAILS: tuple[Detail, ...] = ("full", "play-only", "score-sheet", "unknown-cards")

FAST = settings(derandomize=True, deadline=None, max_examples=25, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Every property runs derandomized: the same examples on every run."""

FAULT = settings(FAST, max_examples=15,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ---------------------------------------------------------------- legal games


@FAST
@given(games(ALL_DETAILS))
def test_generated_game_replays_clean(game: Game) -> None:
    report = replay(game)
    assert report.findings == []
    assert game.end is not None
    if game.end.act == "result":
        assert report.ended
        assert report.winner == game.end.winner
        assert report.totals == game.end.scores
    else:
        assert not report.ended


@FAST
@given(games())
def test_every_deal_is_played_out_with_each_card_once(game: Game) -> None:
    for deal in game.deals:
        assert deal.hands and deal.up is not None and deal.up.kitty is not None
        hands = {s: set(cards) for s, cards in deal.hands[0].cards.items()}
        dealt = [c for cards in hands.values() for c in cards]
        everything = [*dealt, deal.up.card, *deal.up.kitty]
        assert len(set(everything)) == len(everything) == ruleset_of(game).options.deck
        if contract(deal) is None:
            assert not deal.tricks and deal.score is None
            assert [len(line.bids) for line in deal.bidding] == [4, 4]
            assert all(isinstance(b, Pass) for b in deal.bids)
            continue
        ex = deal.exchange
        if ex is not None and ex.act == "takes":
            assert deal.up.card is not None and ex.discard is not None
            hands[deal.dealer] = (hands[deal.dealer] | {deal.up.card}) - {ex.discard}
        assert [t.number for t in deal.tricks] == [1, 2, 3, 4, 5]
        seats = {p.seat for p in deal.tricks[0].plays}
        played: list[Card | None] = []
        for trick in deal.tricks:
            assert {p.seat for p in trick.plays} == seats
            for play in trick.plays:
                assert play.card in hands[play.seat]
                played.append(play.card)
        assert len(played) == len(set(played)) == 5 * len(seats)


@FAST
@given(games(("full", "score-sheet")))
def test_points_are_one_two_or_four_for_one_side(game: Game) -> None:
    report = replay(game)
    for deal, result in zip(game.deals, report.deals, strict=True):
        if result.thrown:
            assert result.points == {}
            continue
        assert result.points is not None and len(result.points) == 1
        assert set(result.points.values()) <= {1, 2, 4}
        assert deal.score is not None and deal.score.points == result.points


@FAST
@given(games(), st.integers(0, 2**16))
def test_partial_records_score_as_the_full_one(game: Game, seed: int) -> None:
    full = replay(game)
    for partial in (play_only(game), score_sheet(game), hide_cards(game, random.Random(seed))):
        report = replay(partial)
        assert report.findings == []
        assert report.totals == full.totals
        assert report.winner == full.winner
        assert [d.points for d in report.deals] == [d.points for d in full.deals]


@FAST
@given(st.lists(games(ALL_DETAILS), min_size=1, max_size=3))
def test_notation_round_trip(batch: list[Game]) -> None:
    log = Log(games=tuple(batch))
    text = dumps(log)
    again = loads(text)
    assert again == log
    assert dumps(again) == text


@FAST
@given(st.lists(games(ALL_DETAILS), min_size=1, max_size=3))
def test_json_round_trip(batch: list[Game]) -> None:
    log = Log(games=tuple(batch))
    assert loads_json(dumps_json(log)) == log
    assert loads_json(dumps_json(log, lines=True)) == log


def test_a_seed_gives_the_same_game() -> None:
    ruleset = ruleset_for(deck=25, stick_the_dealer=True)
    assert random_game(random.Random(11), ruleset) == random_game(random.Random(11), ruleset)


def test_generator_reaches_every_kind_of_deal() -> None:
    seen: Counter[str] = Counter()
    rulesets = [ruleset_for(), ruleset_for(deck=32), ruleset_for(deck=25)]
    for seed in range(24):
        game = random_game(random.Random(seed), rulesets[seed % 3])
        for deal in game.deals:
            bids = deal.bids
            up = deal.up.card if deal.up is not None else None
            seen["benny"] += up is not None and up.is_joker
            seen["thrown"] += contract(deal) is None
            seen["round 2"] += len(deal.bidding) == 2 and isinstance(bids[-1], Call)
            seen["declines"] += deal.exchange is not None and deal.exchange.act == "declines"
            seen["alone"] += any(d.act == "alone" for d in deal.declarations)
            seen["defend"] += any(d.act == "defend" for d in deal.declarations)
            points = deal.score.points if deal.score and deal.score.points else {}
            seen[f"{sum(points.values())} points"] += 1
    wanted = ["benny", "thrown", "round 2", "declines", "alone", "defend",
              "1 points", "2 points", "4 points"]
    assert all(seen[k] for k in wanted), seen


# ---------------------------------------------------------------- one fault, one finding


def _one_finding(injected: Injected | None) -> None:
    if injected is None:
        return  # this game has no place for the fault (e.g. no round-2 call)
    game, code = injected
    assert [f.code for f in replay(game).findings] == [code]


@pytest.mark.parametrize("name", sorted(FAULTS))
@FAULT
@given(data=st.data())
def test_one_fault_yields_one_finding(name: str, data: st.DataObject) -> None:
    _one_finding(data.draw(faulty_games(FAULTS[name]), label=name))
