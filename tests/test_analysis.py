"""The double-dummy review (euchrelog.analysis) and ``euchrelog analyze``.

The solver is held to the plain minimax of tests/support/minimax.py position by position
on random deals of every variant (late positions by default, earlier ones in the slow
test); the JSON output to its schema; the annotated record to ``convert`` and ``fmt``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.analysis import (
    DealReview,
    Skipped,
    Solver,
    principal_line,
    review_game,
    review_json,
)
from euchrelog.cards import NO_TRUMP, Card, Suit, Trump, make_deck, parse_card, trick_winner
from euchrelog.cli import main
from euchrelog.generate import random_game
from euchrelog.models import Game
from euchrelog.notation import loads
from euchrelog.seats import Seat
from strategies import VARIANT_NAMES
from support.builds import PURE_ONLY
from support.minimax import legal_cards, minimax
from support.records import random_ruleset

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "valid").glob("*.euchre"))
SCHEMA = json.loads((ROOT / "src" / "euchrelog" / "analysis" / "schema.json").read_text())

README_DEAL = """[Event "Club night"]
[Variant "four-hand"]
[Target "2"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards KD
  1. E: AD  S: 9D  W: 9H  N: AC
  2. W: JD  N: JH  E: 9C  S: 9S
  3. N: KC  E: TC  S: TD  W: AH
  4. W: KH  N: QC  E: QS  S: TS
  5. W: QH  N: JC  E: KS  S: AS
  points EW 2

result NS 0 EW 2 winner EW
"""


def cards(text: str) -> list[Card]:
    """Cards from their notation."""
    out = [parse_card(c) for c in text.split()]
    assert None not in out
    return [c for c in out if c is not None]


def run(*args: str) -> Result:
    """Invokes the CLI in-process."""
    return CliRunner().invoke(main, list(args))


def reviews_of(game: Game) -> list[DealReview]:
    """The deals of ``game`` that are reviewed."""
    return [r for r in review_game(game, par=False) if isinstance(r, DealReview)]


# ---------------------------------------------------------------- by hand


def test_a_two_card_ending_worked_by_hand() -> None:
    # Hearts trump, North to lead, North-South make. The right bower first draws East's
    # ace and North's 9C then goes to South's AC: both tricks. The 9C first is ruffed by
    # East's ace, and East's 9S is then ruffed by the right bower: one trick.
    seats = (Seat.N, Seat.E, Seat.S, Seat.W)
    solver = Solver(Suit.HEARTS, seats, (Seat.N, Seat.S))
    hands = {Seat.N: cards("JH 9C"), Seat.E: cards("AH 9S"), Seat.S: cards("AC KC"),
             Seat.W: cards("TH 9D")}
    position = solver.position(hands, Seat.N)
    assert solver.value(position) == 2
    assert solver.values(position) == {parse_card("JH"): 2, parse_card("9C"): 1}


def test_the_readme_deal_is_one_trick_for_the_makers_whatever_is_played() -> None:
    # West holds five trumps (JD AH KH QH 9H) and nothing else, so West wins every trick
    # but the one North's right bower (JH) falls in: North-South take one trick, no more
    # and no less, from any position.
    review = next(review_game(loads(README_DEAL).games[0]))
    assert isinstance(review, DealReview)
    assert (review.dd, review.made, review.makers) == (1, 1, (Seat.N, Seat.S))
    assert all(set(p.values.values()) == {1} and p.loss == 0 for p in review.plays)
    assert review.points_lost == {}
    assert review.hands[Seat.N] == tuple(cards("JC QC KC AC JH"))  # after the exchange


# ---------------------------------------------------------------- solver == minimax


def _positions(review: DealReview) -> Iterator[tuple[int, dict[Seat, list[Card]], Seat,
                                                     list[tuple[Seat, Card]], int]]:
    """Every position of the played line: the play's index, the hands, the trick's leader,
    the trick so far, and the makers' tricks won before it (worked out with the engine's
    trick_winner, not the solver)."""
    hands = {seat: list(held) for seat, held in review.hands.items()}
    leader, won = review.leader, 0
    trick: list[tuple[Seat, Card]] = []
    for k, play in enumerate(review.plays):
        yield k, {s: list(h) for s, h in hands.items()}, leader, list(trick), won
        hands[play.seat] = [c for c in hands[play.seat] if c is not play.card]
        trick.append((play.seat, play.card))
        if len(trick) == len(review.seats):
            leader = trick[trick_winner([c for _, c in trick], review.trump)][0]
            won += leader in review.makers
            trick = []


def _check_against_minimax(review: DealReview, first_trick: int) -> int:
    """Compares every card's value at every position from trick ``first_trick`` (from 0)
    on with the minimax's; returns the positions compared."""
    makers = frozenset(review.makers)
    size = len(review.seats)
    compared = 0
    for k, hands, leader, trick, won in _positions(review):
        if k < first_trick * size:
            continue
        turn = review.plays[k].seat
        expected: dict[Card, int] = {}
        for card in legal_cards(hands[turn], trick, review.trump):
            rest = {**hands, turn: [c for c in hands[turn] if c is not card]}
            played = [*trick, (turn, card)]
            if len(played) == size:
                winner = played[trick_winner([c for _, c in played], review.trump)][0]
                value = int(winner in makers) + minimax(review.trump, review.seats, makers,
                                                        rest, winner)
            else:
                value = minimax(review.trump, review.seats, makers, rest, leader, played)
            expected[card] = won + value
        assert review.plays[k].values == expected, (review.deal, k)
        compared += 1
    return compared


def _games(seed: int, count: int) -> Iterator[Game]:
    rng = random.Random(seed)
    for k in range(count):
        variant = VARIANT_NAMES[k % len(VARIANT_NAMES)]
        yield random_game(rng, random_ruleset(rng, variant), stop_after=3)


def test_the_review_agrees_with_minimax_late_in_the_play_of_every_variant() -> None:
    variants: set[int] = set()
    compared = 0
    for game in _games(20261201, 3 * len(VARIANT_NAMES)):
        for review in reviews_of(game):
            late = 3 if len(review.plays) == 6 * len(review.seats) else 2
            compared += _check_against_minimax(review, late)
            variants.add(len(review.seats))
    assert variants == {2, 3, 4} and compared > 300


@pytest.mark.slow
def test_the_review_agrees_with_minimax_after_the_first_trick_on_many_deals() -> None:
    """(Eight games a variant, about a thousand positions, keep the suite's time in CI's
    bounds; the small deals below are the thousands.)"""
    compared = 0
    for game in _games(1, 8 * len(VARIANT_NAMES)):
        for review in reviews_of(game):
            compared += _check_against_minimax(review, 1)
    assert compared > 1000


@pytest.mark.parametrize("trump", [*Suit, NO_TRUMP])
def test_the_solver_agrees_with_minimax_on_random_small_deals(trump: Trump) -> None:
    rng = random.Random(str(trump))
    for _ in range(60):
        deck = list(make_deck(32 if trump is NO_TRUMP else rng.choice((24, 25, 32))))
        rng.shuffle(deck)
        seats = rng.choice([(Seat.N, Seat.E, Seat.S, Seat.W), (Seat.N, Seat.E, Seat.S),
                            (Seat.N, Seat.S), (Seat.E, Seat.S, Seat.W)])
        size = rng.choice((1, 2, 3)) if len(seats) == 4 else rng.choice((2, 3, 4))
        hands = {s: deck[k * size:(k + 1) * size] for k, s in enumerate(seats)}
        makers = frozenset(rng.sample(seats, rng.choice((1, len(seats) // 2 or 1))))
        leader = rng.choice(seats)
        solver = Solver(trump, seats, makers)
        assert solver.solve(hands, leader) == minimax(trump, seats, makers, hands, leader)


# ---------------------------------------------------------------- the review


def test_principal_line_plays_out_the_value_of_the_card_tried() -> None:
    game = loads((ROOT / "samples/valid/four-hand-24-club-night.euchre").read_text()).games[0]
    review = reviews_of(game)[0]
    at = 5
    for card, value in review.plays[at].values.items():
        line = principal_line(review, at, card)
        assert line[0] == (review.plays[at].seat, card)
        assert len(line) == len(review.plays) - at
        played = [(p.seat, p.card) for p in review.plays[:at]] + line
        won = 0
        for k in range(0, len(played), len(review.seats)):
            trick = played[k:k + len(review.seats)]
            winner = trick[trick_winner([c for _, c in trick], review.trump)][0]
            won += winner in review.makers
        assert won == value
    with pytest.raises(ValueError, match="may not play"):
        principal_line(review, at, parse_card("7C"))


def test_every_full_deal_is_reviewed_and_the_rest_say_why() -> None:
    game = loads((ROOT / "samples/valid/unknown-cards.euchre").read_text()).games[0]
    items = list(review_game(game, par=False))
    assert len(items) == len(game.deals)
    assert any(isinstance(i, Skipped) and i.reason.startswith("unknown cards") for i in items)
    for name, why in (("play-only", "play-only"), ("score-sheet", "a score-sheet line")):
        game = loads((ROOT / f"samples/valid/{name}.euchre").read_text()).games[0]
        skipped = {i.reason.split(":")[0] for i in review_game(game) if isinstance(i, Skipped)}
        assert why in skipped
    bid = loads((ROOT / "samples/invalid/B401-bid-out-of-turn.euchre").read_text())
    reasons = [i.reason for i in review_game(bid.games[0]) if isinstance(i, Skipped)]
    assert any("findings in this deal (B401" in r for r in reasons)


def test_a_deal_with_findings_is_reviewed_up_to_its_first_and_a_renege_graded() -> None:
    renege = loads((ROOT / "samples/invalid/R801-renege.euchre").read_text()).games[0]
    review = next(review_game(renege, par=False))
    assert isinstance(review, DealReview)
    assert review.stopped is not None and review.stopped.startswith("R801 renege: E plays QS")
    last = review.plays[-1]
    assert (str(last.seat), str(last.card), last.fault) == ("E", "QS", review.stopped)
    assert last.card not in last.values and [str(c) for c in last.best] == ["TC"]
    assert all(p.fault is None for p in review.plays[:-1]) and len(review.plays) == 10
    slip = loads((ROOT / "samples/invalid/P702-card-not-held.euchre").read_text()).games[0]
    review = next(review_game(slip, par=False))
    assert isinstance(review, DealReview) and review.stopped is not None
    assert review.stopped.startswith("P702") and len(review.plays) == 18
    assert all(p.fault is None for p in review.plays)
    points = loads((ROOT / "samples/invalid/C901-points-differ.euchre").read_text()).games[0]
    review = next(review_game(points, par=False))
    assert isinstance(review, DealReview) and review.stopped is None
    assert len(review.plays) == 20


def test_par_scores_with_the_ruleset() -> None:
    game = loads(README_DEAL).games[0]
    review = next(review_game(game))
    assert isinstance(review, DealReview)
    hearts = [e for e in review.par if e.trump is Suit.HEARTS]
    assert {e.round for e in hearts} == {1} and len(hearts) == 8  # four makers, alone or not
    for entry in review.par:
        assert entry.points, entry
        if entry.round == 1 and not (entry.alone and entry.maker == Seat.S):
            assert entry.discard is not None  # the dealer N plays and discards
    assert {e.round for e in review.par} == {1, 2}


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_analyze_reviews_every_sample_as_json_the_schema_accepts(path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    result = run("analyze", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    validator = jsonschema.Draft202012Validator(SCHEMA)
    lines = result.stdout.splitlines()
    assert lines
    for line in lines:
        item = json.loads(line)
        validator.validate(item)
        assert item["file"] == str(path)
        if "skipped" not in item:
            assert [p["dd_after"] for p in item["plays"]][-1] == item["made"]


def test_review_json_has_the_fields_the_issue_asks_for() -> None:
    review = next(review_game(loads(README_DEAL).games[0]))
    item = review_json(review)
    assert {"game", "deal", "makers", "dd", "plays"} <= set(item)
    assert (item["game"], item["deal"], item["makers"], item["dd"]) == (1, 1, ["N", "S"], 1)
    assert item["plays"][0] == {"seat": "E", "card": "AD", "dd_after": 1, "loss": 0,
                                "best": ["9C", "TC", "AD", "QS", "KS"],
                                "values": {c: 1 for c in ("AD", "9C", "TC", "QS", "KS")}}


def test_analyze_text_names_the_costly_plays(tmp_path: Path) -> None:
    result = run("analyze", str(ROOT / "samples/valid/four-hand-24-club-night.euchre"))
    assert result.exit_code == 0
    assert "E: JH loses 1 trick; TD keeps 4" in result.stdout
    assert "double dummy 4 for EW, made 3" in result.stdout
    assert "9 deals reviewed, 1 not reviewed (1 thrown in)" in result.stderr


def test_annotate_survives_convert_and_fmt(tmp_path: Path) -> None:
    source = tmp_path / "night.euchre"
    source.write_text((ROOT / "samples/valid/cutthroat-club-night.euchre").read_text())
    annotated = tmp_path / "annotated.euchre"
    assert run("analyze", str(source), "--annotate", "-o", str(annotated)).exit_code == 0
    text = annotated.read_text()
    assert "# dd: trump C by E alone" in text and "  # dd: N: TD loses 2 tricks" in text
    assert "# three at the table, each for themselves" in text  # the record's own comments
    fmt = run("fmt", str(annotated))
    assert fmt.exit_code == 0 and fmt.stdout == text
    as_json = tmp_path / "annotated.json"
    back = tmp_path / "back.euchre"
    assert run("convert", str(annotated), "-o", str(as_json)).exit_code == 0
    assert run("convert", str(as_json), "-o", str(back)).exit_code == 0
    assert back.read_text() == text
    again = run("analyze", str(annotated), "--annotate")
    assert again.exit_code == 0 and again.stdout == text  # replaced, not doubled
    check = run("check", str(annotated))
    assert check.exit_code == 0


def test_analyze_with_jobs_gives_the_same_output(tmp_path: Path) -> None:
    files = [str(ROOT / "samples" / "valid" / f"{name}.euchre")
             for name in ("two-hand-club-night", "several-games", "ghost-moon")]
    one = run("analyze", *files, "--format", "json", "--no-par")
    two = run("analyze", *files, "--format", "json", "--no-par", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


@pytest.mark.parametrize("path", sorted((ROOT / "samples" / "invalid").glob("*.euchre")),
                         ids=lambda p: p.stem)
def test_analyze_never_shows_a_traceback(path: Path) -> None:
    result = run("analyze", str(path), "--no-par")
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_analyze_reports_a_syntax_error_with_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.euchre"
    bad.write_text('[Variant "four-hand"]\n\ndeal 1 dealer X\n')
    result = run("analyze", str(bad))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{bad}:3:")
    assert run("analyze", str(bad), "--annotate", "--format", "json").exit_code == 2


def _block(text: str, after: str, kind: str) -> str:
    """The first fenced block of ``kind`` after the line holding ``after``."""
    start = text.index(f"```{kind}\n", text.index(after)) + len(kind) + 4
    return text[start:text.index("```", start)]


def test_the_output_in_docs_analysis_is_real() -> None:
    doc = (ROOT / "docs" / "analysis.md").read_text()
    sample = "samples/valid/four-hand-24-club-night.euchre"
    text = run("analyze", str(ROOT / sample)).stdout.replace(str(ROOT) + "/", "")
    assert text.startswith(_block(doc, "`euchrelog analyze samples/valid/four-hand-24", "text"))
    two = "samples/valid/two-hand-club-night.euchre"
    lines = run("analyze", str(ROOT / two), "--format", "json").stdout.splitlines()
    shown = json.loads(_block(doc, "The second deal of", "json"))
    assert {**json.loads(lines[1]), "file": two} == shown
    skipped = json.loads(_block(doc, "A deal not reviewed, from", "json"))
    assert {**json.loads(lines[0]), "file": two} == skipped
    annotated = CliRunner().invoke(main, ["analyze", "-", "--annotate"], input=README_DEAL)
    assert annotated.exit_code == 0
    assert annotated.stdout == _block(doc, "The README's deal, annotated", "euchre")


def test_a_deal_with_a_hand_left_out_is_not_reviewed() -> None:
    text = README_DEAL.replace("  W: JD AH KH QH 9H", "")
    item = next(review_game(loads(text).games[0]))
    assert isinstance(item, Skipped)
    assert item.reason == "unknown cards: the hand of W is not recorded"


@pytest.mark.slow
def test_the_solver_agrees_with_minimax_on_thousands_of_small_deals_mid_trick() -> None:
    rng = random.Random(25)
    lineups = [(Seat.N, Seat.E, Seat.S, Seat.W), (Seat.N, Seat.E, Seat.S), (Seat.N, Seat.S),
               (Seat.E, Seat.S, Seat.W), (Seat.N, Seat.E, Seat.W)]
    for _ in range(3000):
        trump: Trump = rng.choice([*Suit, NO_TRUMP])
        deck = list(make_deck(32 if trump is NO_TRUMP else rng.choice((24, 25, 32))))
        rng.shuffle(deck)
        seats = rng.choice(lineups)
        size = rng.choice((1, 2, 3)) if len(seats) == 4 else rng.choice((2, 3, 4))
        hands = {s: deck[k * size:(k + 1) * size] for k, s in enumerate(seats)}
        makers = frozenset(rng.sample(seats, rng.choice((1, len(seats) // 2 or 1))))
        leader = rng.choice(seats)
        trick: list[tuple[Seat, Card]] = []
        for k in range(rng.randrange(len(seats))):  # some cards of the first trick played
            seat = seats[(seats.index(leader) + k) % len(seats)]
            card = rng.choice(legal_cards(hands[seat], trick, trump))
            hands[seat] = [c for c in hands[seat] if c is not card]
            trick.append((seat, card))
        solver = Solver(trump, seats, makers)
        got = solver.solve(hands, leader, [c for _, c in trick])
        assert got == minimax(trump, seats, makers, hands, leader, trick)


@PURE_ONLY
def test_a_play_the_review_cannot_follow_is_a_deal_not_reviewed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The replay finds no fault in the deals reviewed, so the solver always follows their
    # play; were it not to, the deal is not reviewed rather than the command failing.
    monkeypatch.setattr(Solver, "values", lambda self, position, value=None: {})
    item = next(review_game(loads(README_DEAL).games[0], par=False))
    assert isinstance(item, Skipped)
    assert item.reason == "E plays AD where the review cannot follow the play"
