"""Properties of random legal games of every variant (Hypothesis, derandomized).

The games come from :mod:`euchrelog.generate` through the strategies of
``tests/strategies.py``: a seed, a variant with its seats and every house rule that applies
to it, and a level of detail. A legal game replays clean, deals and plays every card as
its variant says, scores as the tables of RULES.md say (F11, X8, T5, G6, H1, H2), and
survives the notation and JSON round trips; a game with one injected fault yields exactly
one finding, of the fault's code.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from euchrelog.cards import Card, Trump, make_deck, trick_winner
from euchrelog.generate import (
    Detail,
    contract,
    finish_game,
    game_tags,
    hide_cards,
    play_only,
    random_game,
    ruleset_for,
    score_sheet,
    trick_bid,
)
from euchrelog.models import Call, Deal, Game, Log, Number, Order, Pass, Swap
from euchrelog.notation import loads
from euchrelog.notation.jsonio import dumps_json, loads_json
from euchrelog.notation.writer import dumps
from euchrelog.replay import replay
from euchrelog.rules import MOON, Ruleset, find_variant
from euchrelog.seats import Seat
from strategies import (
    CORE,
    FAULTS,
    VARIANT_FAULTS,
    VARIANT_NAMES,
    faulty_games,
    games,
    outcomes,
    penalised,
    ruleset_of,
)

ALL_DETAILS: tuple[Detail, ...] = ("full", "play-only", "score-sheet", "unknown-cards")

pytestmark = pytest.mark.slow
"""Every test here is a property test, left out of the quick run."""

FAST = settings(derandomize=True, deadline=None, max_examples=12, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Every property runs derandomized: the same examples on every run."""

FAULT = settings(FAST, max_examples=12, phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
"""The faults every variant must report, and those of one variant (no shrinking: a
failure names its fault and variant, and an engine fault kept as a strict xfail costs no
time)."""

FAULT_FOUR = settings(FAULT, max_examples=10)
"""The other faults in four-hand games."""

FAULT_OTHER = settings(FAULT, max_examples=4)
"""The other faults in games of the other variants."""

by_variant = pytest.mark.parametrize("variant", VARIANT_NAMES)


# ---------------------------------------------------------------- the tables of RULES.md


def _taken(deal: Deal, trump: Trump) -> Counter[Seat]:
    """Tricks won by each seat, from the cards."""
    won: Counter[Seat] = Counter()
    for trick in deal.tricks:
        cards = [p.card for p in trick.plays]
        assert all(c is not None for c in cards)
        won[trick.plays[trick_winner([c for c in cards if c is not None], trump)].seat] += 1
    return won


def table_points(ruleset: Ruleset, deal: Deal) -> dict[str, int]:
    """The points of a played deal, straight from the tables F11, X8, T5 and G6."""
    name = ruleset.variant.name
    sheet = deal.sheet
    if sheet is not None:
        assert sheet.trump is not None and sheet.maker is not None
        maker, alone, defend = sheet.maker, sheet.alone, sheet.defend is not None
        taken: Counter[Seat] = Counter(sheet.taken or {})
        bid = sheet.bid
    else:
        fixed = contract(deal)
        assert fixed is not None
        trump, maker = fixed
        alone = any(d.act == "alone" for d in deal.declarations)
        defend = any(d.act == "defend" for d in deal.declarations)
        taken = _taken(deal, trump)
        bid = trick_bid(deal)
    sides = ruleset.side_names
    if name == "ghost":
        assert bid is not None
        made = taken[maker]
        own = (24 if bid == MOON else made) if made >= bid else (
            ruleset.options.failed_moon if bid == MOON else -bid)
        return {s.value: own if s == maker else taken[s] for s in ruleset.seats}
    if name == "four-hand":
        side = "NS" if maker in (Seat.N, Seat.S) else "EW"
        makers = (sheet.tricks if sheet is not None and sheet.tricks is not None
                  else sum(n for s, n in taken.items()
                           if ("NS" if s in (Seat.N, Seat.S) else "EW") == side))
    else:
        side = maker.value
        makers = sheet.tricks if sheet is not None and sheet.tricks is not None else taken[maker]
    others = [s for s in sides if s != side]
    if makers >= 3:
        top = {"four-hand": 4 if alone else 2, "two-hand": 2}.get(name, 3)
        return {side: top if makers == 5 else 1}
    lone = name != "two-hand" and defend and (
        makers == 0 or ruleset.options.lone_defender_euchre == 4)
    euchre = 4 if lone else 2
    if name == "four-hand" and alone:
        euchre = max(euchre, ruleset.options.euchred_loner)  # H1
    if ruleset.options.euchre_scoring == "set":
        return {side: -euchre}  # H2: the makers are set
    return dict.fromkeys(others, euchre)


# ---------------------------------------------------------------- legal games


@by_variant
@FAST
@given(data=st.data())
def test_generated_game_replays_clean(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(ALL_DETAILS, variant))
    report = replay(game)
    assert report.findings == []
    assert game.end is not None
    if game.end.act == "result":
        assert report.ended
        assert report.winner == game.end.winner
        assert report.totals == game.end.scores
    else:
        assert not report.ended


def _house_rules() -> list[Any]:
    """Each value of the house rules H1, H2 and H4 and of the options ``partner-alone``
    (with and without H3) and ``natural-pickup`` (with and without
    ``dealer-pickup=required``) other than the default, with every variant that takes it."""
    rules: list[dict[str, Any]] = [
        {"euchred_loner": 3}, {"euchred_loner": 4}, {"euchre_scoring": "set"},
        {"euchre_scoring": "set", "euchred_loner": 4}, {"pass_out": "same-dealer"},
        {"pass_out": "same-dealer", "deals": 4}, {"partner_alone": True},
        {"partner_alone": True, "canadian_loner": True}, {"natural_pickup": True},
        {"natural_pickup": True, "dealer_pickup": "required"}]
    return [pytest.param(variant, forced, id=f"{variant}-" + "-".join(
                k if v is True else str(v) for k, v in forced.items()))
            for forced in rules for variant in VARIANT_NAMES
            if {k.replace("_", "-") for k in forced} <= find_variant(variant).options]


@pytest.mark.parametrize(("variant", "forced"), _house_rules())
@FAST
@given(data=st.data())
def test_games_under_each_house_rule_replay_clean(variant: str, forced: dict[str, Any],
                                                  data: st.DataObject) -> None:
    """Random games under H1, H2, H4 and the options replay clean, in full and from the
    score sheet; a thrown-in deal is dealt again by its dealer under
    ``pass-out=same-dealer`` and does not count among ``deals=N``; a euchre under
    ``euchre-scoring=set`` costs the makers."""
    game = data.draw(games(("full",), variant, forced))
    ruleset = ruleset_of(game)
    report = replay(game)
    assert report.findings == []
    for partial in (play_only(game), score_sheet(game)):
        again = replay(partial)
        assert again.findings == [] and again.totals == report.totals
    for before, after in pairwise(report.deals):
        assert after.dealer == ruleset.next_dealer(before.dealer, before.thrown)
        if before.thrown and ruleset.options.pass_out == "same-dealer":
            assert after.dealer == before.dealer
    if ruleset.options.deals and report.ended:
        assert sum(not d.thrown for d in report.deals) == ruleset.options.deals or (
            ruleset.options.pass_out == "next-dealer")
    if ruleset.options.euchre_scoring == "set":
        assert all(result.points is not None and len(result.points) <= 1
                   and all(n != 0 for n in result.points.values()) for result in report.deals)


@by_variant
@FAST
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_a_penalty_changes_the_totals_and_nothing_else(variant: str, data: st.DataObject,
                                                      seed: int) -> None:
    """A penalty (H6) charged to a player or side that does not win replays clean: it takes
    its points off that side's total, the report lists it, and it survives the notation
    and JSON round trips."""
    game = data.draw(games(variant=variant))
    made = penalised(game, random.Random(seed))
    if made is None:
        return
    charged, d, side, points = made
    plain, report = replay(game), replay(charged)
    assert report.findings == []
    assert report.totals == {s: n - points * (s == side) for s, n in plain.totals.items()}
    assert report.winner == plain.winner
    assert [(c.deal, c.side, c.points) for c in report.penalties] == [
        (game.deals[d].number, side, points)]
    assert [r.points for r in report.deals] == [r.points for r in plain.deals]
    log = Log(games=(charged,))
    assert loads(dumps(log)).games[0] == charged
    assert loads_json(dumps_json(log)).games[0] == charged


def _holdings(ruleset: Ruleset, deal: Deal) -> dict[Seat, set[Card]]:
    """The cards each seat holds at the first lead, from the deal, the swap, the exchange
    and the merge."""
    assert deal.hands
    hands = {s: {c for c in cards if c is not None} for s, cards in deal.hands[0].cards.items()}
    extra = {c for c in deal.extra.cards if c is not None} if deal.extra is not None else set()
    swaps = [b.seat for b in deal.bids if isinstance(b, Swap)]
    assert len(swaps) <= 1
    for seat in swaps:
        hands[seat], extra = extra, hands[seat]
    ex = deal.exchange
    if ex is not None and ex.act == "takes":
        assert deal.up is not None and deal.up.card is not None and ex.discard is not None
        hands[deal.dealer] = (hands[deal.dealer] | {deal.up.card}) - {ex.discard}
    if deal.merge is not None:
        assert deal.merge.keeps is not None and len(deal.merge.keeps) == 5
        kept = {c for c in deal.merge.keeps if c is not None}
        assert kept <= hands[deal.merge.seat] | extra
        hands[deal.merge.seat] = kept
    return hands


@by_variant
@FAST
@given(data=st.data())
def test_every_deal_is_played_out_with_each_card_once(variant: str,
                                                      data: st.DataObject) -> None:
    game = data.draw(games(variant=variant))
    ruleset = ruleset_of(game)
    kind = ruleset.variant
    for deal in game.deals:
        assert deal.hands
        cards = deal.hands[0].cards
        assert tuple(cards) == ruleset.seats
        assert all(len(hand) == kind.hand_size for hand in cards.values())
        everything = [c for hand in cards.values() for c in hand]
        if ruleset.extra_hand is None:
            assert deal.extra is None
        else:
            assert deal.extra is not None and deal.extra.kind == ruleset.extra_hand
            assert len(deal.extra.cards) == kind.hand_size
            everything += deal.extra.cards
        if kind.upcard:
            assert deal.up is not None and deal.up.kitty is not None
            everything += [deal.up.card, *deal.up.kitty]
        else:
            assert deal.up is None
        assert set(everything) == set(make_deck(ruleset.options.deck))
        assert len(everything) == ruleset.options.deck
        if contract(deal) is None:
            assert not deal.tricks and deal.score is None
            assert all(isinstance(b, Pass | Swap) for b in deal.bids)
            bidders = len(ruleset.seats)
            lines = [bidders] if kind.bidding == "tricks" else [bidders, bidders]
            assert [sum(isinstance(b, Pass) for b in line.bids) for line in deal.bidding] == lines
            continue
        hands = _holdings(ruleset, deal)
        assert [t.number for t in deal.tricks] == list(range(1, kind.tricks + 1))
        seats = {p.seat for p in deal.tricks[0].plays}
        assert seats <= set(ruleset.seats)
        played: list[Card | None] = []
        for trick in deal.tricks:
            assert {p.seat for p in trick.plays} == seats
            for play in trick.plays:
                assert play.card in hands[play.seat]
                played.append(play.card)
        assert len(played) == len(set(played)) == kind.tricks * len(seats)


@by_variant
@FAST
@given(data=st.data())
def test_points_match_the_tables(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(("full", "score-sheet"), variant))
    ruleset = ruleset_of(game)
    report = replay(game)
    for deal, result in zip(game.deals, report.deals, strict=True):
        if result.thrown:
            assert result.points == {} and deal.score is None
            continue
        expected = table_points(ruleset, deal)
        assert result.points is not None
        sides = ruleset.side_names
        assert {s: result.points.get(s, 0) for s in sides} == {
            s: expected.get(s, 0) for s in sides}
        assert deal.score is not None and deal.score.points == expected


@by_variant
@FAST
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_partial_records_score_as_the_full_one(variant: str, data: st.DataObject,
                                               seed: int) -> None:
    game = data.draw(games(variant=variant))
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


@by_variant
def test_a_seed_gives_the_same_game(variant: str) -> None:
    ruleset = ruleset_for(variant, stick_the_dealer=variant != "ghost")
    assert random_game(random.Random(11), ruleset) == random_game(random.Random(11), ruleset)


# ---------------------------------------------------------------- what the generator reaches


def _kinds(ruleset: Ruleset, game: Game) -> Iterator[str]:
    """Names for what happens in a game's deals and at its end."""
    totals = dict.fromkeys(ruleset.side_names, 0)
    target = ruleset.options.target
    for k, deal in enumerate(game.deals):
        bids = deal.bids
        up = deal.up.card if deal.up is not None else None
        points = deal.score.points if deal.score and deal.score.points else {}
        if up is not None and up.is_joker:
            yield "benny"
        if contract(deal) is None:
            yield "thrown"
            continue
        if len(deal.bidding) == 2 and isinstance(bids[-1], Call):
            yield "round 2"
        if deal.exchange is not None and deal.exchange.act == "declines":
            yield "declines"
        yield from (d.act for d in deal.declarations)
        if deal.merge is not None:
            yield "merge"
        if any(isinstance(b, Swap) for b in bids):
            yield "swap"
        bid = trick_bid(deal)
        if bid == MOON:
            yield "moon made" if max(points.values()) == 24 else "moon failed"
        elif bid is not None:
            maker = contract(deal)
            assert maker is not None
            yield "bid made" if points[maker[1].value] > 0 else "bid failed"
        if any(isinstance(b, Order) for b in bids):
            yield "order"
        yield f"{max(points.values())} points"
        for side, n in points.items():
            totals[side] += n
        best = max(totals.values())
        if best >= target and sum(v == best for v in totals.values()) > 1:
            assert k + 1 < len(game.deals), "a tie at the target ended the game"
        if min(totals.values()) < 0:
            yield "negative score"


WANTED = {
    "four-hand": ("benny", "thrown", "round 2", "declines", "alone", "defend", "order",
                  "1 points", "2 points", "4 points"),
    "cutthroat": ("benny", "thrown", "round 2", "declines", "alone", "defend", "merge",
                  "1 points", "2 points", "3 points"),
    "three-hand": ("thrown", "round 2", "order", "1 points", "2 points", "3 points"),
    "ghost": ("thrown", "swap", "bid made", "bid failed", "moon made", "moon failed",
              "negative score"),
    "two-hand": ("benny", "thrown", "round 2", "declines", "order", "1 points", "2 points"),
}
"""What the generator must reach in a few dozen games of each variant."""


@by_variant
def test_generator_reaches_every_kind_of_deal(variant: str) -> None:
    seen: Counter[str] = Counter()
    decks = [24, 32, 25] if variant != "ghost" else [24]
    for seed in range(30):
        ruleset = ruleset_for(variant, deck=decks[seed % len(decks)])
        seen.update(_kinds(ruleset, random_game(random.Random(seed), ruleset)))
    assert all(seen[k] for k in WANTED[variant]), seen


def _first_tie(ruleset: Ruleset, game: Game) -> tuple[int, int] | None:
    """The first deal after which two or more players share the highest score ``v > 0``
    though no one led alone with ``v`` or more before: the game re-targeted at ``v`` meets
    a tie at the target there. Returns the deal index and ``v``."""
    totals = dict.fromkeys(ruleset.side_names, 0)
    lead = 0  # the highest score ever held by one player alone
    for k, deal in enumerate(game.deals):
        for side, n in (deal.score.points or {}).items() if deal.score else ():
            totals[side] += n
        best = max(totals.values())
        alone = sum(v == best for v in totals.values()) == 1
        if best > 0 and not alone and best > lead:
            return k, best
        if alone:
            lead = max(lead, best)
    return None


@pytest.mark.parametrize("variant", ("cutthroat", "ghost"))
@FAST
@given(data=st.data())
def test_a_tie_at_the_target_plays_on(variant: str, data: st.DataObject) -> None:
    """X9, G7: re-targeted at a score two players share as the highest, the game goes on
    past that deal, in the generator and in the replay alike, until one player leads."""
    game = data.draw(games(variant=variant, forced={"deals": None}))
    ruleset = ruleset_of(game)
    tie = _first_tie(ruleset, game)
    if tie is None:
        return
    k, target = tie
    tied = Ruleset(ruleset.variant, replace(ruleset.options, target=target), ruleset.seats)
    deals, end = finish_game(random.Random(k), tied, outcomes(game)[:k + 1],
                             first_dealer=game.deals[0].dealer)
    assert len(deals) > k + 1
    again = Game(tags=tuple(game_tags(tied)), deals=tuple(deals), end=end)
    report = replay(again)
    assert report.findings == [] and report.ended
    at_tie = report.deals[k].totals
    assert sorted(at_tie.values())[-2:] == [target, target]
    assert report.winner is not None and report.winner == end.winner
    assert report.totals[report.winner] >= target


# ---------------------------------------------------------------- one fault, one finding


ENGINE_FAULTS: dict[tuple[str, str], str] = {}
"""(fault, variant) pairs where the engine does not report what the rules say."""


def _params(names: Iterator[str] | tuple[str, ...], *, four: bool | None) -> list[Any]:
    params = []
    for name in names:
        for variant in FAULTS[name].variants:
            if four is not None and (variant == "four-hand") != four:
                continue
            reason = ENGINE_FAULTS.get((name, variant))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(name, variant, id=f"{name}-{variant}", marks=marks))
    return params


OTHER = tuple(n for n in sorted(FAULTS) if n not in CORE and n not in VARIANT_FAULTS)


def _check_faults(name: str, variant: str, config: settings, *, placed_once: bool) -> None:
    """Runs one fault against drawn games; with ``placed_once``, at least one drawn game
    must have had a place for it."""
    placed = 0

    @config
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        nonlocal placed
        injected = data.draw(faulty_games(FAULTS[name], variant), label=name)
        if injected is None:
            return  # this game has no place for the fault (e.g. no round-2 call)
        placed += 1
        game, code = injected
        assert [f.code for f in replay(game).findings] == [code]

    run()
    assert placed or not placed_once, f"no game of {variant} had a place for {name}"


@pytest.mark.parametrize(("name", "variant"), _params((*CORE, *VARIANT_FAULTS), four=None))
def test_one_fault_yields_one_finding(name: str, variant: str) -> None:
    _check_faults(name, variant, FAULT, placed_once=True)


@pytest.mark.parametrize(("name", "variant"), _params(OTHER, four=True))
def test_other_faults_in_four_hand(name: str, variant: str) -> None:
    _check_faults(name, variant, FAULT_FOUR, placed_once=False)


@pytest.mark.parametrize(("name", "variant"), _params(OTHER, four=False))
def test_other_faults_in_every_variant(name: str, variant: str) -> None:
    _check_faults(name, variant, FAULT_OTHER, placed_once=False)


def test_ghost_bids_and_sheets_read_back() -> None:
    """A ghost game writes swaps, trick bids and the moon, and its score sheet per-player
    tricks, in a form that reads back the same."""
    game = random_game(random.Random(194), ruleset_for("ghost", failed_moon=-24))
    for reduced in (game, score_sheet(game), play_only(game)):
        text = dumps(Log(games=(reduced,)))
        assert loads(text).games[0] == reduced
        assert replay(reduced).findings == []
    bids = [b for d in game.deals for b in d.bids]
    assert any(isinstance(b, Swap) for b in bids)
    assert any(isinstance(b, Number) and b.tricks == MOON for b in bids)
    assert all(d.sheet is not None and (d.sheet.thrown or d.sheet.taken)
               for d in score_sheet(game).deals)
