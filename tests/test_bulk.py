"""The engine's representation and its bulk entry.

Cards are bit numbers and hands and suits are masks; :meth:`DealState.run` replays a whole
deal through the same rules as the per-act API (one rule, one place), and the fast path of
``check`` states no rule of its own: changing a rule in the engine changes both paths.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchrelog import DealState, Phase, Seat, Suit, parse_card
from euchrelog.cards import (
    JOKER,
    NO_TRUMP,
    Card,
    Rank,
    Trump,
    deck_mask,
    effective_suit,
    follow_masks,
    make_deck,
    suit_list,
)
from euchrelog.check import check_chunk
from euchrelog.engine import Action, Played, dealt_cleanly
from euchrelog.fast import verify_notation
from euchrelog.generate import play_deal, random_game, ruleset_for
from euchrelog.models import Deal, Merge, Play
from euchrelog.notation.writer import dumps_game
from euchrelog.rules import VARIANTS, Options, Ruleset
from euchrelog.sources import Chunk
from support.builds import PURE_ONLY

ROOT = Path(__file__).resolve().parents[1]
TRUMPS: tuple[Trump, ...] = (*Suit, NO_TRUMP)
QUICK = settings(derandomize=True, deadline=None, database=None, max_examples=60,
                 suppress_health_check=list(HealthCheck))


def test_each_card_has_its_own_bit() -> None:
    cards = make_deck(32) + make_deck(25)[-1:]
    assert len({card.bit for card in cards}) == len(cards)
    assert all(card.bit == 1 << card.index for card in cards)
    assert deck_mask(24).bit_count() == 24 and deck_mask(25).bit_count() == 25


@pytest.mark.parametrize("trump", TRUMPS, ids=str)
def test_the_suit_masks_are_effective_suit(trump: Trump) -> None:
    """The tables say what :func:`effective_suit` says, card by card (C3: the left bower
    follows trump; H5: at no trump each jack its own suit)."""
    masks = follow_masks(trump)
    every = [Card(r, s) for s in Suit for r in Rank if r is not Rank.JOKER] + [JOKER]
    for card in every:  # any card that can be written, of no deck too
        suit = suit_list(trump)[card.index]
        assert suit == effective_suit(card, trump)
        for other in Suit:
            assert bool(masks[other] & card.bit) == (other is suit)


def test_dealt_cleanly() -> None:
    cards = [parse_card(t) for t in ["9H", "TH", "JH", "QH", "KH"]]
    assert all(c is not None for c in cards)
    clean = [c for c in cards if c is not None]
    assert dealt_cleanly(clean, 24)
    assert not dealt_cleanly([*clean, clean[0]], 24)  # D304
    seven = parse_card("7H")
    assert seven is not None and not dealt_cleanly([*clean, seven], 24)  # D305
    assert dealt_cleanly([*clean, seven], 32)


def _acts(deal: Deal) -> tuple[list[Action], list[list[Played]]]:
    acts: list[Action] = [*deal.bids, *deal.acts]
    return acts, [[(play.seat, play.card) for play in trick.plays] for trick in deal.tricks]


def _state(ruleset: Ruleset, deal: Deal) -> DealState:
    hands = {s: list(c) for line in deal.hands for s, c in line.cards.items()}
    return DealState(ruleset, deal.dealer, hands=hands,
                     upcard=deal.up.card if deal.up else None,
                     kitty=deal.up.kitty if deal.up else None,
                     extra=deal.extra.cards if deal.extra else None)


def _seen(state: DealState) -> object:
    """What a replay leaves of a deal, for comparing two ways of making it."""
    return (state.phase, state.tricks, state.winners, state.where, state.showouts,
            state.reneges, {s: (h.known, h.held, h.free) for s, h in state.hands.items()},
            state.points())


def _play_only(deal: Deal) -> Deal:
    """The deal as a play-only record has it: no hands, no extra hand, no kitty."""
    up = deal.up.model_copy(update={"kitty": None}) if deal.up is not None else None
    acts = tuple(a.model_copy(update={"keeps": None}) if isinstance(a, Merge) else a
                 for a in deal.acts)
    return deal.model_copy(update={"hands": (), "extra": None, "up": up, "acts": acts})


@QUICK
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from([v.name for v in VARIANTS]),
       hands=st.booleans())
def test_run_is_the_acts_one_by_one(seed: int, variant: str, hands: bool) -> None:
    """The bulk entry leaves a clean deal as the per-act API does (check, then apply), with
    its hands recorded or not (then every card is played from a slot the record leaves
    open)."""
    ruleset = ruleset_for(variant)
    outcome = play_deal(random.Random(seed), ruleset, 1, ruleset.seats[0])
    deal = outcome.deal if hands else _play_only(outcome.deal)
    acts, tricks = _acts(deal)
    bulk = _state(ruleset, deal)
    assert bulk.run(acts, tricks)
    single = _state(ruleset, deal)
    plays = [Play(seat=seat, card=card) for trick in tricks for seat, card in trick]
    for act in [*acts, *plays]:
        assert single.check_act(act) is None
        assert single.apply_act(act) == []
    assert _seen(bulk) == _seen(single)
    assert bulk.points() == (outcome.points if not outcome.thrown else {})


def test_run_stops_at_the_first_fault() -> None:
    """A renege, a card played twice, a trick left short: the bulk entry says no, and the
    per-act API tells why."""
    ruleset = ruleset_for("four-hand")
    deal = play_deal(random.Random(7), ruleset, 1, Seat.N).deal
    acts, tricks = _acts(deal)
    assert _state(ruleset, deal).run(acts, tricks)
    short = [list(t) for t in tricks]
    short[2] = short[2][:-1]
    assert not _state(ruleset, deal).run(acts, short)
    twice = [list(t) for t in tricks]
    twice[3][0] = (twice[3][0][0], twice[1][0][1])
    state = _state(ruleset, deal)
    assert not state.run(acts, twice)


def test_cards_the_record_puts_nowhere() -> None:
    """A play-only deal: a card no hand holds may be played from an open slot, once, and
    only a card of the deck."""
    ruleset = ruleset_for("four-hand")
    deal = _play_only(play_deal(random.Random(7), ruleset, 1, Seat.N).deal)
    acts, tricks = _acts(deal)
    assert _state(ruleset, deal).run(acts, tricks)
    twice = [list(t) for t in tricks]
    twice[0][1] = (twice[0][1][0], twice[0][0][1])  # the card led, again in the same trick
    assert not _state(ruleset, deal).run(acts, twice)
    state = _state(ruleset, deal)
    for act in acts:
        state.apply_act(act)
    state.apply_play(Play(seat=twice[0][0][0], card=twice[0][0][1]))
    error = state.check_play(Play(seat=twice[0][1][0], card=twice[0][1][1]))
    assert error is not None and error.code == "P703"
    seven = parse_card("7H")
    outside = [list(t) for t in tricks]
    outside[0][0] = (outside[0][0][0], seven)  # of the 32-card deck only
    assert not _state(ruleset, deal).run(acts, outside)


def test_points_from_a_sheet() -> None:
    state = DealState(Ruleset(), Seat.N)
    state.fix_contract(Suit.HEARTS, Seat.E)
    assert state.points() is None  # nothing played, nothing written
    assert state.points(made=5) == {"EW": 2}
    assert state.points(taken={Seat.E: 3, Seat.W: 0, Seat.N: 2, Seat.S: 0}) == {"EW": 1}
    assert state.points(made=2) == {"NS": 2}
    state.phase = Phase.THROWN
    assert state.points() == {}


# ------------------------------------------------------------------ one rule, one place


def _both(text: str) -> tuple[list[str], list[str] | None]:
    """The codes the full path finds, and those of the fast path (``None``: it declined,
    else no finding)."""
    full = check_chunk(Chunk(1, 1, text, None), fast=False)
    quick = verify_notation(text)
    return [f.code for f in full.findings], None if quick is None else []


@PURE_ONLY
def test_the_follow_suit_rule_is_stated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Follow suit (P1, P2) is one function: with it repealed, a renege is legal on both
    paths, and the fast path has no second copy that would decline the game for it."""
    text = (ROOT / "samples/invalid/R801-cutthroat-renege.euchre").read_text()
    codes, quick = _both(text)
    assert "R801" in codes and quick is None
    monkeypatch.setattr("euchrelog.engine.state.follows_suit", lambda *_: True)
    codes, quick = _both(text)
    assert "R801" not in codes  # (a later play of the suit still shows it held one: R802)
    assert (quick is None) == bool(codes)


@PURE_ONLY
def test_the_points_are_stated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring a deal is the ruleset's: a changed table of points changes both paths."""
    game = random_game(random.Random(11), Ruleset(VARIANTS[0], Options.defaults(VARIANTS[0])))
    text = dumps_game(game)
    before = verify_notation(text)
    assert before is not None
    original = Ruleset.side_points

    def doubled(self: Ruleset, *args: object, **kwargs: object) -> dict[str, int]:
        return {s: 2 * n for s, n in original(self, *args, **kwargs).items()}  # type: ignore

    monkeypatch.setattr(Ruleset, "side_points", doubled)
    full = check_chunk(Chunk(1, 1, text, None), fast=False)
    assert verify_notation(text) is None  # the written points no longer add up
    assert {f.code for f in full.findings} >= {"C901"}
