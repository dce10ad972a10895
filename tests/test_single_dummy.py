"""Single-dummy values (issue 41 item 1): the layouts of the cards a seat cannot see, each
valued double dummy. Held to a brute-force enumeration of every layout with the plain
minimax (tests/support/minimax.py), to the double-dummy value where one layout is left,
to the sampling error they report, and to one output for one seed however many jobs."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchrelog.analysis import (
    DealReview,
    Layouts,
    Settings,
    Solver,
    UnsupportedError,
    review_game,
    single_dummy,
)
from euchrelog.analysis.single import CLASSES, grade, net_points
from euchrelog.analysis.solver import Position
from euchrelog.cards import Card, Suit, Trump, cards_of, deck_mask, effective_suit, trick_winner
from euchrelog.cli import main
from euchrelog.generate import random_game
from euchrelog.models import Exchange, Game, Play
from euchrelog.replay import replay
from euchrelog.seats import Seat
from strategies import VARIANT_NAMES
from support.minimax import legal_cards, minimax
from support.records import random_ruleset

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "valid"


def _games(seed: int, count: int) -> Iterator[Game]:
    rng = random.Random(seed)
    for k in range(count):
        variant = VARIANT_NAMES[k % len(VARIANT_NAMES)]
        yield random_game(rng, random_ruleset(rng, variant), stop_after=2)


def _reviews(game: Game, settings: Settings) -> list[DealReview]:
    return [r for r in review_game(game, par=False, single=settings)
            if isinstance(r, DealReview) and r.sd_skipped is None]


# ---------------------------------------------------------------- brute force


def _brute(game: Game, review: DealReview, k: int) -> tuple[int, dict[Card, float]]:
    """Every layout of what the seat of play ``k`` cannot see, enumerated card by card from
    the record (the card tables' suits, not the engine's show-outs), each valued by the
    plain minimax: the number of layouts and each legal card's mean makers' total."""
    report = replay(game, trace=True)
    trace = next(r.trace for r in report.deals if r.number == review.deal)
    assert trace is not None
    rules, dealt = report.ruleset, trace.dealt
    trump, seats, makers = review.trump, review.seats, frozenset(review.makers)
    seat = review.plays[k].seat
    size = rules.variant.hand_size
    before = [(p.seat, p.card) for p in review.plays[:k]]
    tricks = [before[i:i + len(seats)] for i in range(0, len(before), len(seats))]
    trick = tricks.pop() if tricks and len(tricks[-1]) < len(seats) else []
    own = [c for c in review.hands[seat] if c not in {card for _, card in before}]
    seen = {card for _, card in before} | set(own)
    up = dealt.upcard
    taken = next((a for a in trace.acts if isinstance(a, Exchange) and a.act == "takes"), None)
    if up is not None and rules.variant.upcard:
        if seat == dealt.dealer or taken is None or up in seen:
            seen.add(up)
        if seat == dealt.dealer and taken is not None and taken.discard is not None:
            seen.add(taken.discard)
    hidden = [c for c in _deck(rules.options.deck) if c not in seen]
    places: list[tuple[Seat | None, int]] = [
        (s, size - sum(1 for who, _ in before if who == s)) for s in seats if s != seat]
    places += [(None, size) for s in rules.seats if s not in seats]
    if rules.extra_hand is not None:
        places.append((None, rules.extra_size))
    places.append((None, len(hidden) - sum(n for _, n in places)))
    void: dict[Seat, set[Suit | None]] = {s: set() for s in seats}
    for played in [*tricks, trick]:
        if played:
            led = effective_suit(played[0][1], trump)
            for who, card in played[1:]:
                if effective_suit(card, trump) != led:
                    void[who].add(led)
    out_places = [i for i, (s, _) in enumerate(places) if s is None]
    dealer_at = next((i for i, (s, _) in enumerate(places) if s == dealt.dealer), None)
    if dealer_at is None and dealt.dealer not in seats:
        dealer_at = out_places[[s for s in rules.seats if s not in seats].index(dealt.dealer)]

    def allowed(card: Card, at: int) -> bool:
        owner = places[at][0]
        if owner is not None and effective_suit(card, trump) in void[owner]:
            return False
        if card == up and up not in seen:
            return at in (dealer_at, len(places) - 1)
        return True

    totals: dict[Card, float] = {}
    count = 0
    solved: dict[tuple[tuple[Card, ...], ...], dict[Card, int]] = {}
    won = sum(1 for t in tricks if t[trick_winner([c for _, c in t], trump)][0] in makers)
    leader = trick[0][0] if trick else _leader(review, tricks)
    for layout in _layouts(hidden, [n for _, n in places], allowed):
        count += 1
        hands = {s: layout[i] for i, (s, _) in enumerate(places) if s is not None}
        hands[seat] = tuple(own)
        key = tuple(tuple(sorted(hands[s], key=str)) for s in seats)
        values = solved.get(key)
        if values is None:
            values = solved[key] = _values(trump, seats, makers, hands, leader, trick, seat)
        for card, value in values.items():
            totals[card] = totals.get(card, 0.0) + won + value
    return count, {c: v / count for c, v in totals.items()}


def _deck(size: int) -> list[Card]:
    return cards_of(deck_mask(size))


def _leader(review: DealReview, tricks: list[list[tuple[Seat, Card]]]) -> Seat:
    if not tricks:
        return review.leader
    last = tricks[-1]
    return last[trick_winner([c for _, c in last], review.trump)][0]


def _layouts(cards: list[Card], sizes: list[int], check: Callable[[Card, int], bool]
             ) -> Iterator[list[tuple[Card, ...]]]:
    """Every assignment of ``cards`` to places of ``sizes`` that ``check`` lets be."""
    placed: list[list[Card]] = [[] for _ in sizes]

    def put(i: int) -> Iterator[list[tuple[Card, ...]]]:
        if i == len(cards):
            yield [tuple(p) for p in placed]
            return
        for at in range(len(sizes)):
            if len(placed[at]) < sizes[at] and check(cards[i], at):
                placed[at].append(cards[i])
                yield from put(i + 1)
                placed[at].pop()

    return put(0)


def _values(trump: Trump, seats: tuple[Seat, ...], makers: frozenset[Seat],
            hands: dict[Seat, tuple[Card, ...]], leader: Seat,
            trick: list[tuple[Seat, Card]], turn: Seat) -> dict[Card, int]:
    """Each legal card of ``turn`` with the makers' tricks from here by the minimax."""
    out: dict[Card, int] = {}
    lists = {s: list(h) for s, h in hands.items()}
    for card in legal_cards(lists[turn], trick, trump):
        rest = {**lists, turn: [c for c in lists[turn] if c is not card]}
        played = [*trick, (turn, card)]
        if len(played) == len(seats):
            winner = played[trick_winner([c for _, c in played], trump)][0]
            out[card] = int(winner in makers) + minimax(trump, seats, makers, rest, winner)
        else:
            out[card] = minimax(trump, seats, makers, rest, leader, played)
    return out


LIMIT = 400


def test_exact_values_are_the_mean_over_every_layout_by_brute_force() -> None:
    compared, variants = 0, set()
    for game in _games(41, 3 * len(VARIANT_NAMES)):
        for review in _reviews(game, Settings(exact_limit=LIMIT)):
            for k, play in enumerate(review.plays):
                sd = play.sd
                if sd is None or not sd.exact or k < len(review.plays) - 2 * len(review.seats):
                    continue
                count, values = _brute(game, review, k)
                assert sd.layouts == count, (review.deal, k)
                assert set(sd.values) == set(values)
                for card, value in values.items():
                    assert sd.values[card] == pytest.approx(value, abs=1e-9), (review.deal, k)
                compared += 1
                variants.add(len(review.seats))
    assert compared > 60 and variants == {2, 3, 4}


def test_one_layout_left_gives_the_double_dummy_values() -> None:
    compared = 0
    for game in _games(7, 2 * len(VARIANT_NAMES)):
        for review in _reviews(game, Settings()):
            for play in review.plays:
                if play.sd is not None and play.sd.layouts == 1:
                    assert play.sd.exact
                    assert play.sd.values == {c: float(v) for c, v in play.values.items()}
                    compared += 1
    assert compared > 8


def _late(game: Game, tricks: int) -> Iterator[tuple[Layouts, Solver, Position, int, Card,
                                                      list[float]]]:
    """The positions of the last ``tricks`` tricks of every deal of ``game`` reviewed, each
    as single_dummy takes it (the seat's layouts, the solver, the position, the makers'
    tricks so far, the card played and the seat's points by the makers' tricks)."""
    report = replay(game, trace=True)
    reviews = {r.deal: r for r in review_game(game, par=False, report=report)
               if isinstance(r, DealReview)}
    for result in report.deals:
        review, trace = reviews.get(result.number), result.trace
        if review is None or trace is None or trace.lead is None:
            continue
        state = trace.lead.copy()
        solver = Solver(review.trump, review.seats, review.makers)
        position = solver.position(review.hands, review.leader)
        won, late = 0, len(review.plays) - tricks * len(review.seats)
        for k, play in enumerate(review.plays):
            if k >= late:
                worth = [net_points(trace.lead, play.seat, t)
                         for t in range(state.variant.tricks + 1)]
                try:
                    layouts = Layouts(state, play.seat)
                except UnsupportedError:
                    break
                yield layouts, solver, position, won, play.card, worth
            won += bool(solver.trick_won(position, play.card.index))
            position = solver.after(position, play.card.index)
            state.apply_play(Play(seat=play.seat, card=play.card))


def test_64_samples_lie_within_4_standard_errors_of_the_exact_value() -> None:
    """On positions with at most 64 layouts (two or more), the loss of the card played as
    64 draws estimate it lies within 4 of its standard errors of the exact loss in at
    least 99% of them."""
    within = total = 0
    exact, drawn = Settings(exact_limit=64), Settings(samples=64, exact_limit=0)
    for n, game in enumerate(_games(99, 40 * len(VARIANT_NAMES))):
        for layouts, solver, position, won, card, worth in _late(game, 3):
            if not 2 <= layouts.count <= 64:
                continue
            one = single_dummy(solver, layouts, position, won, card, worth, exact,
                               random.Random(n))
            two = single_dummy(solver, layouts, position, won, card, worth, drawn,
                               random.Random(n))
            assert one.exact and not two.exact and two.se is not None
            total += 1
            within += abs(one.loss - two.loss) <= 4 * two.se + 1e-9
    assert total > 500
    assert within >= 0.99 * total, (within, total)


# ---------------------------------------------------------------- classes


def test_classes_allow_for_the_sampling_error() -> None:
    assert grade(0.0, None, True) == "best"
    assert grade(0.05, None, False) == "good"
    assert grade(0.3, None, False) == "mistake"
    assert grade(0.3, 0.05, False) == "inaccuracy"
    assert grade(2.0, 0.1, False) == "blunder"
    assert [grade(x, None, False) for x in (0.0, 0.1, 0.25, 0.5)] == list(CLASSES[1:])


# ---------------------------------------------------------------- the command


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["analyze", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_one_seed_gives_one_output_whatever_the_jobs(tmp_path: Path) -> None:
    source = str(SAMPLES / "four-hand-24-club-night.euchre")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    common = ["--single-dummy", "--samples", "16", "--seed", "5", "--no-par", "--format",
              "json", "-q"]
    _run(source, source, *common, "--jobs", "1", "-o", str(one))
    _run(source, source, *common, "--jobs", "2", "-o", str(two))
    assert one.read_text() == two.read_text()
    assert '"sd": {' in one.read_text()
    other = tmp_path / "other.jsonl"
    _run(source, *[("6" if a == "5" else a) for a in common], "-o", str(other))
    assert other.read_text() != one.read_text()[:len(other.read_text())]


@pytest.mark.parametrize("args", [
    ["--single-dummy", "--samples", "0"],
    ["--single-dummy", "--samples", "many"],
    ["--single-dummy", "--exact-limit", "-1"],
    ["--single-dummy", "--seed", "x"],
    ["--samples", "8"],
    ["--seed", "3"],
])
def test_bad_single_dummy_options_are_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["analyze", str(SAMPLES / "two-hand-club-night.euchre"),
                                       *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Usage:" in result.output


def test_a_merge_or_a_swap_is_said_per_deal_not_guessed() -> None:
    reasons = set()
    for name in ("cutthroat-dummy-required.euchre", "ghost-long-tie.euchre"):
        out = _run(str(SAMPLES / name), "--single-dummy", "--samples", "2", "--no-par",
                   "--format", "json", "-q")
        reasons |= {line.split('"sd_skipped": ')[1] for line in out.splitlines()
                    if '"sd_skipped"' in line}
        for line in out.splitlines():
            if "sd_skipped" in line:  # (its bids are reviewed: they come before the merge)
                deal = json.loads(line)
                assert all("sd" not in p for p in deal["plays"]) and "exchange" not in deal
    assert any("merge" in r for r in reasons) and any("swap" in r for r in reasons)


def test_layout_counts_multiply_out_by_hand() -> None:
    """Two-hand, the first lead: North sees its five cards and knows South took the upcard;
    South holds 5 of the 19 others (the upcard among them), the stock the rest."""
    from math import comb

    game = next(iter(_games_from(SAMPLES / "two-hand-club-night.euchre")))
    review = next(r for r in _reviews(game, Settings(samples=2)) if r.deal == 2)
    first = review.plays[0].sd
    assert first is not None and first.layouts == comb(19, 5) and not first.exact


def _games_from(path: Path) -> list[Game]:
    from euchrelog.notation import loads

    return list(loads(path.read_text()).games)


def test_the_single_dummy_example_in_docs_analysis_is_real() -> None:
    doc = (SAMPLES.parent.parent / "docs" / "analysis.md").read_text()
    start = doc.index("```json\n", doc.index("adds to every play of the JSON a key `sd`")) + 8
    shown = json.loads(doc[start:doc.index("```", start)])
    out = _run(str(SAMPLES / "four-hand-24-club-night.euchre"), "--single-dummy", "--no-par",
               "--format", "json", "-q")
    first = json.loads(out.splitlines()[0])
    assert first["plays"][3]["card"] == "JH" and first["plays"][3]["sd"] == shown


def test_the_game_report_gives_each_player_an_accuracy_the_schema_accepts() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SAMPLES.parent.parent / "src" / "euchrelog" / "analysis"
                         / "schema.json").read_text())
    out = _run(str(SAMPLES / "two-hand-club-night.euchre"), "--single-dummy", "--samples",
               "8", "--no-par", "--format", "json", "-q")
    lines = [json.loads(line) for line in out.splitlines()]
    for line in lines:
        jsonschema.validate(line, schema)
    report = lines[-1]["players"]
    assert set(report) == {"N", "S"}
    for seat, player in report.items():
        bids = [b for deal in lines[:-1] for b in deal.get("bids", ())
                if b["seat"] == seat and "sd" in b and len(b["sd"]["values"]) > 1]
        decided = [p for deal in lines[:-1]
                   for p in [*([deal["exchange"]] if "exchange" in deal else []),
                             *deal.get("plays", ())]]
        assert any("exchange" in deal for deal in lines)
        decided = [p for p in decided if p["seat"] == seat and len(p["sd"]["values"]) > 1]
        scores = [100 * 2 ** (-max(p["sd"]["loss"] - 2 * (p["sd"]["se"] or 0), 0) / 0.25)
                  for p in [*bids, *decided]]
        assert player["decisions"] == len(scores) > 0 and player["bids"] == len(bids) > 0
        assert player["accuracy"] == pytest.approx(sum(scores) / len(scores), abs=0.05)
        assert sum(player["classes"].values()) == len(scores)
        assert player["bid_lost"] == pytest.approx(sum(b["sd"]["loss"] for b in bids),
                                                   abs=1e-3)
        assert player["play_lost"] == pytest.approx(sum(p["sd"]["loss"] for p in decided),
                                                    abs=1e-3)
        assert player["sd_lost"] == pytest.approx(player["bid_lost"] + player["play_lost"],
                                                  abs=1e-3)
    text = _run(str(SAMPLES / "two-hand-club-night.euchre"), "--single-dummy", "--samples",
                "8", "--no-par", "-q")
    assert "game 1: the players, single dummy\n  S: accuracy " in text  # (S bids first)
    assert "\n  N: accuracy " in text and " bidding, " in text


def test_the_discard_is_valued_over_each_card_of_the_six() -> None:
    """Two-hand deal 2: South takes JC and discards 9D; every layout of what South cannot
    see values each of its six cards as the discard."""
    from math import comb

    game = _games_from(SAMPLES / "two-hand-club-night.euchre")[0]
    review = next(r for r in _reviews(game, Settings(samples=16)) if r.deal == 2)
    exchange = review.exchange
    assert exchange is not None and (str(exchange.seat), str(exchange.card)) == ("S", "9D")
    assert sorted(map(str, exchange.sd.values)) == ["9D", "AC", "JC", "KC", "QS", "TS"]
    assert exchange.sd.layouts == comb(18, 5)  # North's five of the 18 South cannot see
