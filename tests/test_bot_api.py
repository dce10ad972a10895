"""The per-act API bots build on (issue 24): offered means accepted, one ``do`` for every
act, the table of acts as numbers, and the exported names working together.

The properties play random legal deals of every variant and house rule through
:class:`~euchrelog.engine.DealState` alone (no Recorder): every act ``legal_actions()``
offers must be accepted, one drawn at random is made with ``do()``, and the deal must end
(played out, or thrown in) with acts still offered until then. The same holds of the
numbers: ``legal_action_ids()`` are the numbers of ``legal_actions()``, each number
stands for its act, and ``do_id()`` makes it.
"""

from __future__ import annotations

import inspect
import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import euchrelog
import euchrelog.actions
import euchrelog.engine
from euchrelog import models
from euchrelog.actions import (
    ACTION_COUNT,
    ALONE_ID,
    BID_ID,
    CALL_ID,
    CARDS_BY_NUMBER,
    DECLINE_ID,
    DEFEND_ID,
    DISCARD_ID,
    MERGE_ID,
    MERGE_KEEPS_ID,
    ORDER_ID,
    PARTNER_ALONE_ID,
    PASS_ID,
    SWAP_ID,
)
from euchrelog.acts import Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from euchrelog.cards import JOKER, NO_TRUMP, Suit, make_deck, parse_card
from euchrelog.engine import Action, DealState, Phase
from euchrelog.errors import IllegalActionError, NotationError, RecordError, RenegeError
from euchrelog.generate import new_deal, random_game, ruleset_for
from euchrelog.models import Bidding
from euchrelog.notation.jsonio import dumps_json
from euchrelog.rules import Ruleset
from euchrelog.seats import Seat
from strategies import rulesets

PLAYS = settings(derandomize=True, deadline=None, max_examples=200, database=None,
                 suppress_health_check=[HealthCheck.too_slow])
"""Every property runs derandomized: the same examples on every run."""

MAX_ACTS = 400
"""More acts than any deal has (a merge is one act): a deal past it cannot finish."""

OVER = (Phase.DONE, Phase.THROWN)


def _candidates(state: DealState) -> list[Action]:
    """Every bid, exchange (as the table of acts writes it), declaration and play by any
    seat of any card of the deck: what :meth:`DealState.legal_actions` picks from."""
    seats, deck = state.seats, make_deck(state.ruleset.options.deck)
    acts: list[Action] = []
    for seat in seats:
        acts += [Pass(seat=seat), Order(seat=seat), Swap(seat=seat)]
        acts += [Call(seat=seat, suit=s) for s in (*Suit, NO_TRUMP)]
        acts += [Number(seat=seat, tricks=n) for n in range(3, 7)]
        acts += [Declaration(act=kind, seat=seat) for kind in ("alone", "defend")]
        acts += [Play(seat=seat, card=card) for card in deck]
    acts.append(Exchange(seat=state.dealer, act="declines"))
    acts += [Exchange(seat=state.dealer, takes=state.upcard is not None, upcard=state.upcard,
                      discard=card) for card in deck]
    return acts


def _play_deal(ruleset: Ruleset, seed: int, *, numbers: bool) -> DealState:
    """Plays one random legal deal through the state alone, checking every offer (and,
    acting by models, that every act the state accepts is offered, but a lead before the
    exchange and a merge)."""
    rng = random.Random(seed)
    state = new_deal(rng, ruleset, rng.choice(ruleset.seats))
    for _ in range(MAX_ACTS):
        if state.phase in OVER:
            return state
        acts = state.legal_actions()
        assert acts, f"nothing is offered in {state.phase.value}"
        refused = [(a, state.check_act(a)) for a in acts if not state.can(a)]
        assert not refused, refused
        if not numbers:
            left_out = [a for a in _candidates(state) if state.can(a) and a not in acts
                        and not (isinstance(a, Play) and state.exchange_due)]
            assert not left_out, left_out
        if numbers:
            ids = state.legal_action_ids()
            assert ids == sorted(state.action_id(a) for a in acts)
            assert [state.action_of(state.action_id(a)) for a in acts] == acts
            state.do_id(rng.choice(ids))
        else:
            state.do(rng.choice(acts))
    raise AssertionError(f"the deal did not finish in {MAX_ACTS} acts")


@PLAYS
@given(ruleset=rulesets(), seed=st.integers(0, 2**32 - 1))
def test_every_offered_act_is_accepted_and_every_deal_finishes(ruleset: Ruleset,
                                                                seed: int) -> None:
    state = _play_deal(ruleset, seed, numbers=False)
    assert state.phase is Phase.THROWN or len(state.tricks) == ruleset.variant.tricks


@PLAYS
@given(ruleset=rulesets(), seed=st.integers(0, 2**32 - 1))
def test_the_numbers_of_the_offered_acts_play_the_same(ruleset: Ruleset, seed: int) -> None:
    state = _play_deal(ruleset, seed, numbers=True)
    assert state.phase in OVER


@pytest.mark.parametrize("variant", ["four-hand", "cutthroat", "three-hand", "ghost",
                                     "two-hand"])
def test_random_bots_play_many_deals_of_each_variant(variant: str) -> None:
    ruleset = ruleset_for(variant)
    for seed in range(60):
        _play_deal(ruleset, seed, numbers=seed % 2 == 0)


def test_the_exchange_comes_before_the_lead() -> None:
    """After an order-up the dealer exchanges (or declines) before any lead is offered:
    a lead offered first made the dealer's sixth card a renege later (R802)."""
    state = new_deal(random.Random(4), ruleset_for(), Seat.N)
    state.do(Order(seat=Seat.E))
    assert state.exchange_due
    acts = state.legal_actions()
    assert {type(a) for a in acts} == {Exchange, Declaration}
    assert Exchange(seat=Seat.N, act="declines") in acts
    assert len([a for a in acts if isinstance(a, Exchange)]) == 7  # declines, or one of six
    state.do(next(a for a in acts if isinstance(a, Exchange) and a.act == "takes"))
    assert not state.exchange_due
    assert any(a.seat is Seat.E for a in state.legal_actions() if not isinstance(a, Exchange))


def test_a_required_pickup_offers_no_decline() -> None:
    state = new_deal(random.Random(4), ruleset_for(dealer_pickup="required"), Seat.N)
    state.do(Order(seat=Seat.E))
    assert not [a for a in state.legal_actions() if isinstance(a, Exchange)
                and a.act == "declines"]


def test_acts_need_no_redundant_field() -> None:
    bids = (Pass(seat=Seat.E), Order(seat=Seat.S), Call(seat=Seat.W, suit=Suit.SPADES),
            Number(seat=Seat.N, tricks=4), Swap(seat=Seat.E))
    assert [b.act for b in bids] == ["pass", "order", "call", "bid", "swap"]
    assert Merge(seat=Seat.N).act == "merge"
    line = Bidding(bids=bids)  # (the models take the engine's acts)
    written = line.model_dump(mode="json", exclude_defaults=True)
    assert [b["act"] for b in written["bids"]] == ["pass", "order", "call", "bid", "swap"]
    assert Bidding.model_validate(written) == line
    assert json.loads(models.Merge(seat=Seat.N).model_dump_json(exclude_defaults=True)) == {
        "act": "merge", "seat": "N"}
    kept = tuple(parse_card(c) for c in ["JH", "JD", "KH", "QD", "9D"])
    merge = models.Merge(seat=Seat.N, before=("above",), note="end", keeps=kept)
    assert merge.model_dump_json(exclude_defaults=True) == (  # in the order of the fields
        '{"before":["above"],"note":"end","act":"merge","seat":"N",'
        '"keeps":["JH","JD","KH","QD","9D"]}')
    schema = euchrelog.Log.model_json_schema()["$defs"]
    assert "act" in schema["Order"]["required"] and "default" not in schema["Order"][
        "properties"]["act"]


def test_one_do_for_every_kind_of_act() -> None:
    state = new_deal(random.Random(9), ruleset_for(), Seat.N)
    assert isinstance(state.legal_actions(), list)
    with pytest.raises(IllegalActionError) as err:
        state.do(Order(seat=Seat.S))  # out of turn
    assert err.value.code == "B401" and not state.can(Order(seat=Seat.S))
    state.verify(Pass(seat=Seat.E))
    state.do(Pass(seat=Seat.E))
    state.do(Pass(seat=Seat.S))
    assert state.acted == [Seat.E, Seat.S]
    aliases = [f"{verb}{kind}" for kind in ("bid", "exchange", "merge", "declare", "play")
               for verb in ("", "verify_", "can_")]
    assert not [name for name in aliases if hasattr(state, name)]  # one dialect


def test_the_table_of_acts_is_as_documented() -> None:
    assert len(CARDS_BY_NUMBER) == 33 and CARDS_BY_NUMBER[-1] is JOKER
    assert CARDS_BY_NUMBER[:8] == make_deck(32)[:8] == tuple(
        parse_card(f"{r}C") for r in "789TJQKA")
    assert (DISCARD_ID, DECLINE_ID, PASS_ID, ORDER_ID, CALL_ID, BID_ID, SWAP_ID, ALONE_ID,
            DEFEND_ID, MERGE_ID, MERGE_KEEPS_ID, PARTNER_ALONE_ID, ACTION_COUNT) == (
        33, 66, 67, 68, 69, 74, 78, 79, 80, 84, 85, 337, 338)
    text = Path(__file__).resolve().parent.parent.joinpath("docs", "api.md").read_text("utf-8")
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(\w+)` \|", text, re.MULTILINE)
    table = vars(euchrelog.actions)
    assert [(int(first), name) for first, _, name in rows] == [
        (table[name], name) for _, _, name in rows]
    assert len(rows) == 12 and int(rows[-1][1] or rows[-1][0]) == ACTION_COUNT - 1
    assert f"`ACTION_COUNT` ({ACTION_COUNT})" in text


def test_numbers_name_the_seat_due() -> None:
    state = new_deal(random.Random(2), ruleset_for(), Seat.N)
    assert state.action_of(PASS_ID) == Pass(seat=Seat.E)
    assert state.action_of(CALL_ID + 4) == Call(seat=Seat.E, suit=euchrelog.cards.NO_TRUMP)
    with pytest.raises(ValueError, match="not an action number"):
        state.action_of(ACTION_COUNT)
    with pytest.raises(ValueError, match="no seat is to play"):
        state.action_of(0)
    with pytest.raises(ValueError, match="no maker"):
        state.action_of(ALONE_ID)
    with pytest.raises(IllegalActionError):
        state.do_id(ORDER_ID + 1)  # a call in round 1


def test_a_merge_has_the_number_of_its_five_cards() -> None:
    ruleset = ruleset_for("cutthroat", dummy="required")
    for seed in range(40):
        state = new_deal(random.Random(seed), ruleset, Seat.N)
        while state.phase is Phase.BIDDING:
            state.do(state.legal_actions()[-1])  # order up or call, else pass
        merges = [a for a in state.legal_actions() if isinstance(a, Merge)]
        if not merges:
            continue
        numbers = [state.action_id(m) for m in merges]
        assert sorted(numbers) == list(range(MERGE_KEEPS_ID, MERGE_KEEPS_ID + 252))
        state.do_id(numbers[0])
        assert state.merged
        return
    raise AssertionError("no deal offered a merge")


def test_loads_and_load_read_json_lines() -> None:
    games = tuple(random_game(random.Random(seed)) for seed in (1, 2))
    log = euchrelog.Log(games=games)
    lines = dumps_json(log, lines=True)
    assert euchrelog.loads(lines) == log
    assert euchrelog.load(io.StringIO(lines)) == log
    assert euchrelog.loads(dumps_json(log)) == log
    assert euchrelog.loads("\ufeff" + lines) == log
    with pytest.raises(RecordError):
        euchrelog.loads('{"tags": 3}\n')


def test_read_games_gives_what_replay_takes() -> None:
    game = random_game(random.Random(5))
    text = euchrelog.dumps(euchrelog.Log(games=(game, game)))
    reports = [euchrelog.replay(item) for item in euchrelog.read_games(io.StringIO(text))]
    assert [r.ok for r in reports] == [True, True]
    bad = text.replace("hands N", "hands Q", 1)
    item = next(iter(euchrelog.read_games(io.StringIO(bad))))
    with pytest.raises(NotationError):
        euchrelog.replay(item)
    comments = next(iter(euchrelog.read_games(io.StringIO("# only a comment\n"))))
    with pytest.raises(ValueError, match="only comments"):
        euchrelog.replay(comments)


def test_the_replay_package_and_its_function_share_a_name() -> None:
    """``euchrelog.replay`` replays a game and is the package: each form of import finds its
    modules."""
    import euchrelog.replay.results as results
    from euchrelog.replay.results import GameReport

    assert results.GameReport is GameReport is euchrelog.GameReport
    game = random_game(random.Random(5))
    assert euchrelog.replay(game).ok
    assert euchrelog.replay(game, strict=True).ok


def test_every_exported_name_works_with_the_others() -> None:
    """Each name of ``euchrelog.__all__`` is there and used once, with the others."""
    names = set(euchrelog.__all__)
    missing = [n for n in names if not hasattr(euchrelog, n)]
    assert not missing
    e = euchrelog
    game = random_game(random.Random(8))
    text = e.dumps(e.Log(games=(game,)))
    log = e.loads(text)
    assert e.loads_json(e.dumps_json(log)) == log
    out = io.StringIO()
    e.dump(log, out)
    assert e.load(io.StringIO(out.getvalue())) == log
    report = e.replay(log.games[0])
    assert isinstance(report, e.GameReport) and report.ok
    assert all(isinstance(d, e.DealResult) for d in report.deals)
    assert [e.replay(item).ok for item in e.read_games(io.StringIO(text))] == [True]
    deal = log.games[0].deals[0]
    assert isinstance(deal, e.Deal) and isinstance(log.games[0].end, e.End | None)
    assert all(isinstance(t, e.Tag) for t in log.games[0].tags)
    assert all(isinstance(t, e.Trick) for t in deal.tricks)
    assert all(isinstance(h, e.Hands) for h in deal.hands)
    assert deal.up is None or isinstance(deal.up, e.Upcard)
    assert all(isinstance(b, e.Bidding) for b in deal.bidding)
    ruleset = e.Ruleset(e.find_variant("four-hand"), e.Options())
    assert e.FOUR_HAND in e.VARIANTS and isinstance(e.FOUR_HAND, e.Variant)
    state = e.DealState(ruleset, e.Seat.N)
    assert state.phase is e.Phase.BIDDING
    state.do(e.Pass(seat=e.Seat.E))
    state.do(e.Order(seat=e.Seat.S))
    assert e.Call(seat=e.Seat.W, suit=e.Suit.CLUBS).act == "call"
    assert e.Declaration(act="alone", seat=e.Seat.S) in state.legal_actions()
    assert e.Exchange(seat=e.Seat.N, act="declines").act == "declines"
    assert e.Play(seat=e.Seat.E, card=e.parse_card("9H")).card == e.Card(e.Rank.NINE,
                                                                         e.Suit.HEARTS)
    card = e.parse_card("JD")
    assert card is not None and e.effective_suit(card, e.Suit.HEARTS) is e.Suit.HEARTS
    assert e.card_power(card, e.Suit.HEARTS, e.Suit.HEARTS) > 0
    assert e.trick_winner([card, e.parse_card("AH") or card], e.Suit.HEARTS) == 0
    assert e.Claim(seat=e.Seat.N).seat is e.Seat.N
    assert e.Sheet(thrown=True).thrown and e.Score(points={"NS": 1}).points == {"NS": 1}
    assert set(e.CODES) >= {"R801", "R802"} and isinstance(e.__version__, str)
    assert isinstance(e.COMPILED, bool)
    for error in (e.NotationError, e.RecordError, e.IllegalActionError, e.RecorderError):
        assert issubclass(error, e.EuchrelogError)
    assert issubclass(e.RenegeError, e.IllegalActionError)
    assert issubclass(e.IllegalEntryError, e.IllegalActionError)
    finding = e.Finding(code="R801", message="renege")
    assert finding.code in e.CODES
    recorder = e.Recorder("four-hand")
    assert recorder.state is None
    source = inspect.getsource(test_every_exported_name_works_with_the_others)
    assert sorted(n for n in names if f"e.{n}" not in source) == []


def _api_examples() -> list[str]:
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text("utf-8")
    return re.findall(r"^```python\n(.*?)^```\n", text, re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("code", _api_examples())
def test_the_api_examples_run(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/api.md", "exec"), {"__name__": "__api__"})
    printed = capsys.readouterr().out
    assert printed
    if "selfplay.jsonl" in code:
        assert printed == "10 games, 0 findings\n"
        assert len((tmp_path / "selfplay.jsonl").read_text("utf-8").splitlines()) == 10


def test_there_are_api_examples() -> None:
    assert len(_api_examples()) == 6


def _refusals(ruleset: Ruleset, seed: int) -> list[tuple[int, Action, IllegalActionError]]:
    """Every act of :func:`_candidates` the state refuses, at every step of a random legal
    deal, with the number of the trick then under way and the error."""
    rng = random.Random(seed)
    state = new_deal(rng, ruleset, rng.choice(ruleset.seats))
    found: list[tuple[int, Action, IllegalActionError]] = []
    while state.phase not in OVER:
        for act in _candidates(state):
            err = state.check_act(act)
            if err is not None:
                found.append((len(state.tricks) + 1, act, err))
        state.do(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("variant", ["four-hand", "cutthroat", "ghost", "two-hand"])
def test_a_refusal_names_its_seat_card_and_trick_as_fields(variant: str) -> None:
    """What a message says of the seat, the card and the trick, the error's fields say too."""
    codes = set()
    for seed in range(3):
        for trick, act, err in _refusals(ruleset_for(variant), seed):
            codes.add(err.code)
            assert err.seat is not None, (err.code, err.message)
            assert re.search(rf"\b{err.seat}\b", err.message), err.message
            if isinstance(act, Play):
                assert err.seat == act.seat or err.code in ("A604", "K507"), err.message
                if err.card is not None:  # (a fault of the turn, P701, is not the card's)
                    assert err.card == act.card and f"{act.card}" in err.message, err.message
            if err.trick is not None:
                assert f"trick {err.trick}" in err.message, err.message
                assert err.trick == trick
            if err.part == "discard":
                assert isinstance(act, Exchange) and err.card == act.discard
    assert {"B401", "P701", "R801"} <= codes or variant == "ghost", codes


def test_an_error_keeps_its_fields_through_a_note_and_a_pickle() -> None:
    import pickle

    err = RenegeError("R801", "renege: {seat} plays {card} in trick {trick} holding {held}",
                      seat=Seat.E, card=parse_card("9S"), trick=2, held="AH")
    assert err.message == "renege: E plays 9S in trick 2 holding AH"
    noted = err.noted("; the penalty is 2 points")
    back = pickle.loads(pickle.dumps(noted))
    for copy in (noted, back):
        assert type(copy) is RenegeError and copy.code == "R801"
        assert (copy.seat, copy.card, copy.trick) == (Seat.E, parse_card("9S"), 2)
        assert copy.message == "renege: E plays 9S in trick 2 holding AH; the penalty is 2 points"
    plain = IllegalActionError("B401", "a {brace} as written")
    assert plain.message == "a {brace} as written" and plain.seat is None
