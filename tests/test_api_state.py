"""No wrong state through the bot API (issue 43.1): a card of no deck is refused as the
replay refuses it (D305), ``do`` takes exactly the acts ``legal_actions`` offers, and the
README's example is one a bot can play on to the end.

The property plays random deals of every variant and house rule through
:class:`~euchrelog.engine.DealState` alone and, at every step, tries every bid, every
declaration, every exchange and every play by any seat of any card that has a number (the
32-card deck and the Benny, whatever the deal's deck), a play and a pickup that name no
card, and a merge that names none: each is accepted exactly when it is offered.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchrelog.actions import CARDS_BY_NUMBER
from euchrelog.cards import NO_TRUMP, Suit, parse_card
from euchrelog.engine import Action, DealState, Phase
from euchrelog.errors import IllegalActionError
from euchrelog.generate import new_deal, ruleset_for
from euchrelog.models import (
    Call,
    Declaration,
    Exchange,
    Merge,
    Number,
    Order,
    Pass,
    Play,
    Swap,
)
from euchrelog.rules import Ruleset
from euchrelog.seats import Seat
from strategies import rulesets

ROOT = Path(__file__).resolve().parent.parent

PLAYS = settings(derandomize=True, deadline=None, max_examples=120, database=None,
                 suppress_health_check=[HealthCheck.too_slow])
"""Derandomized: the same examples on every run."""

OVER = (Phase.DONE, Phase.THROWN)
MAX_ACTS = 400


def _cards(text: str) -> list[Any]:
    return [parse_card(c) for c in text.split()]


def _code(state: DealState, act: Action) -> str | None:
    """The code of the fault a bot's act has now, if any."""
    fault = state.act_fault(act)
    return None if fault is None else fault.code


def _candidates(state: DealState) -> list[Action]:
    """Every act a bot could try now, cards of no deck and unnamed cards included."""
    acts: list[Action] = []
    for seat in state.seats:
        acts += [Pass(seat=seat), Order(seat=seat), Swap(seat=seat)]
        acts += [Call(seat=seat, suit=s) for s in (*Suit, NO_TRUMP)]
        acts += [Number(seat=seat, tricks=n) for n in range(3, 7)]
        acts += [Declaration(act=kind, seat=seat) for kind in ("alone", "defend")]
        acts += [Play(seat=seat, card=card) for card in CARDS_BY_NUMBER]
        acts += [Play(seat=seat, card=None), Merge(seat=seat)]
    up = state.upcard
    acts.append(Exchange(seat=state.dealer, act="declines"))
    acts += [Exchange(seat=state.dealer, takes=up is not None, upcard=up, discard=card)
             for card in (*CARDS_BY_NUMBER, None)]
    return acts


def _offered_is_accepted(ruleset: Ruleset, seed: int) -> None:
    """Plays one random deal, checking at every step that the acts ``do`` accepts are
    those ``legal_actions`` offers (named merges: each offered one is accepted)."""
    rng = random.Random(seed)
    state = new_deal(rng, ruleset, rng.choice(ruleset.seats))
    for _ in range(MAX_ACTS):
        if state.phase in OVER:
            return
        offered = state.legal_actions()
        assert offered, f"nothing is offered in {state.phase.value}"
        for act in offered:
            state.copy().do(act)  # raises if refused
        wrong = [(a, state.can(a)) for a in _candidates(state)
                 if state.can(a) != (a in offered)]
        assert not wrong, wrong
        taken = [a for a in _candidates(state) if state.can(a)]
        for act in taken:
            trial = state.copy()
            trial.do(act)
        assert sorted(state.legal_action_ids()) == sorted(map(state.action_id, offered))
        state.do(rng.choice(offered))
    raise AssertionError(f"the deal did not finish in {MAX_ACTS} acts")


@PLAYS
@given(ruleset=rulesets(), seed=st.integers(0, 2**32 - 1))
def test_do_takes_exactly_the_offered_acts(ruleset: Ruleset, seed: int) -> None:
    _offered_is_accepted(ruleset, seed)


@pytest.mark.parametrize("variant", ["four-hand", "cutthroat", "three-hand", "ghost",
                                     "two-hand"])
def test_do_takes_exactly_the_offered_acts_in_each_variant(variant: str) -> None:
    for deck in ruleset_for(variant).variant.decks:
        for seed in range(6):
            _offered_is_accepted(ruleset_for(variant, deck=deck), seed)


def _unknown_east() -> DealState:
    """A 24-card deal whose East hand is not known, after the exchange: E leads."""
    state = DealState(ruleset_for(), Seat.N, upcard=parse_card("JH"), hands={
        Seat.S: _cards("9S TS AS 9D TD"), Seat.W: _cards("JD AH KH QH 9H"),
        Seat.N: _cards("AC KC QC JC KD")})
    state.do(Pass(seat=Seat.E))
    state.do(Order(seat=Seat.S))
    state.do(Exchange(seat=Seat.N, discard=parse_card("KD")))
    return state


@pytest.mark.parametrize("card", ["7D", "8H", "JK", "8C"])
def test_a_card_of_no_deck_is_refused_as_the_replay_refuses_it(card: str) -> None:
    state = _unknown_east()
    play = Play(seat=Seat.E, card=parse_card(card))  # E's hand is not known: any card fits
    assert not state.can(play)
    with pytest.raises(IllegalActionError) as err:
        state.do(play)
    assert err.value.code == "D305" and err.value.card == play.card
    assert err.value.message == f"{card} (played by E) is not in the 24-card deck"
    state.do(Play(seat=Seat.E, card=parse_card("QD")))  # a card of the deck is taken
    state.do(Play(seat=Seat.S, card=parse_card("9D")))
    state.do(Play(seat=Seat.W, card=parse_card("JD")))  # the left bower: trump
    with pytest.raises(IllegalActionError) as err:
        state.do(Play(seat=Seat.N, card=parse_card("8D")))  # a renege, and of no deck
    assert err.value.code == "D305"
    assert not any(a.card == parse_card(card) for a in state.legal_actions()
                   if isinstance(a, Play))


def test_a_discard_or_a_merge_of_no_deck_is_refused() -> None:
    state = DealState(ruleset_for(), Seat.N, upcard=parse_card("JH"))
    state.do(Order(seat=Seat.E))
    assert _code(state, Exchange(seat=Seat.N, discard=parse_card("8D"))) == "D305"
    state.do(Exchange(seat=Seat.N, discard=parse_card("QD")))
    cutthroat = DealState(ruleset_for("cutthroat"), Seat.N, upcard=parse_card("JH"))
    cutthroat.do(Order(seat=Seat.E))
    kept = Merge(seat=Seat.E, keeps=tuple(_cards("7H JD AH KH QH")))
    assert _code(cutthroat, kept) == "D305"


def test_a_card_of_no_deck_is_d305_in_the_replay_too() -> None:
    from euchrelog import loads, replay

    record = ("[Variant \"four-hand\"]\n\ndeal 1 dealer N\n"
              "  hands S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD\n  up JH\n"
              "  bid E pass, S order\n  N takes JH discards KD\n"
              "  1. E: 8D  S: 9D  W: JD  N: AC\n\nunfinished\n")
    report = replay(loads(record).games[0])
    assert [f.code for f in report.findings if f.code == "D305"] == ["D305"]


def test_a_lead_before_the_exchange_and_unnamed_cards_are_refused() -> None:
    state = DealState(ruleset_for(), Seat.N, upcard=parse_card("JH"), hands={
        Seat.E: _cards("9C TC QS KS AD"), Seat.S: _cards("9S TS AS 9D TD"),
        Seat.W: _cards("JD AH KH QH 9H"), Seat.N: _cards("AC KC QC JC KD")})
    state.do(Pass(seat=Seat.E))
    state.do(Order(seat=Seat.S))
    lead = Play(seat=Seat.E, card=parse_card("AD"))
    assert _code(state, lead) == "P701" and state.check_act(lead) is None
    unnamed = Exchange(seat=Seat.N, takes=True, upcard=parse_card("JH"))
    assert _code(state, unnamed) == "K502" and state.check_act(unnamed) is None
    state.do(Exchange(seat=Seat.N, discard=parse_card("KD")))
    assert _code(state, Play(seat=Seat.E, card=None)) == "P702"
    state.do(lead)


def _readme_state() -> tuple[DealState, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = next(c for c in re.findall(r"^```python\n(.*?)^```\n", text,
                                       re.MULTILINE | re.DOTALL) if "DealState(" in c)
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    state = scope["state"]
    assert isinstance(state, DealState)
    return state, code


def test_the_readme_example_is_one_a_bot_can_play_on(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """Random legal play from where the README's example stops reaches the end of the
    deal, every time (the example once led before the exchange: R802 in 15 of 22)."""
    state, _ = _readme_state()
    capsys.readouterr()
    for seed in range(200):
        rng = random.Random(seed)
        bot = state.copy()
        for _ in range(MAX_ACTS):
            if bot.phase in OVER:
                break
            bot.do(rng.choice(bot.legal_actions()))
        assert bot.phase is Phase.DONE and bot.points() is not None, seed


# ------------------------------------------------------------ a state to read and walk back


def _walk_back(ruleset: Ruleset, seed: int) -> None:
    """Plays one random deal, by acts and by numbers in turn; after every act, ``undo``
    gives back the state before it, equal, and the act; then the act is made again."""
    rng = random.Random(seed)
    state = new_deal(rng, ruleset, rng.choice(ruleset.seats))
    for step in range(MAX_ACTS):
        if state.phase in OVER:
            assert state.points() is not None or state.phase is Phase.THROWN
            return
        before = state.copy()
        assert before == state and str(before) == str(state)
        if step % 2:
            number = rng.choice(state.legal_action_ids())
            act = state.action_of(number)
            state.do_id(number)
        else:
            act = rng.choice(state.legal_actions())
            state.do(act)
        assert state != before
        assert state.undo() == act
        assert state == before, (str(state), str(before))
        assert state.legal_actions() == before.legal_actions()
        state.do(act)
    raise AssertionError(f"the deal did not finish in {MAX_ACTS} acts")


@PLAYS
@given(ruleset=rulesets(), seed=st.integers(0, 2**32 - 1))
def test_do_then_undo_gives_back_an_equal_state(ruleset: Ruleset, seed: int) -> None:
    _walk_back(ruleset, seed)


@pytest.mark.parametrize("variant", ["four-hand", "cutthroat", "three-hand", "ghost",
                                     "two-hand"])
def test_do_then_undo_in_each_variant(variant: str) -> None:
    for seed in range(10):
        _walk_back(ruleset_for(variant), seed)


def test_undo_walks_back_to_the_deal_as_dealt() -> None:
    state, _ = _readme_state()
    dealt = DealState(state.ruleset, Seat.N, upcard=state.upcard, hands={
        Seat.E: _cards("9C TC QS KS AD"), Seat.S: _cards("9S TS AS 9D TD"),
        Seat.W: _cards("JD AH KH QH 9H"), Seat.N: _cards("AC KC QC JC KD")})
    made = []
    while True:
        try:
            made.append(state.undo())
        except ValueError as err:
            assert str(err) == "no act to undo"
            break
    assert [type(a).__name__ for a in reversed(made)] == ["Pass", "Order", "Exchange", "Play"]
    assert state == dealt
    state.do(Pass(seat=Seat.E))
    state.apply_act(Pass(seat=Seat.S))  # the lenient path of a record: not in the history
    with pytest.raises(ValueError, match="lenient"):
        state.undo()


def test_a_state_reads_as_cards(capsys: pytest.CaptureFixture[str]) -> None:
    state, _ = _readme_state()
    assert str(state) == "\n".join([
        "four-hand, dealer N, playing, trump H (maker S)",
        "N: JC QC KC AC JH",
        "E: 9C TC QS KS",
        "S: 9D TD 9S TS AS",
        "W: JD 9H QH KH AH",
        "up JH",
        "trick 1: E AD",
        "tricks 0: NS 0 EW 0"])
    assert repr(state).startswith("<DealState four-hand, dealer N, playing, trump H")
    assert repr(state.hands[Seat.E]) == "HandInfo(known=9C TC QS KS, held=9C TC QS KS, free=0)"
    assert str(DealState(ruleset_for(), Seat.N).hands[Seat.E]) == "?? ?? ?? ?? ??"
