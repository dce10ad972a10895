"""Two traditional rules as options: ``partner-alone`` (either maker may go alone, the
other sits out) and ``natural-pickup`` (the dealer takes the upcard only with a natural
trump): the options table, the engine's checks and its legal acts, the replay of records
and the generator."""

from __future__ import annotations

import random

import pytest

from euchrelog.cards import Card, parse_card
from euchrelog.check import check_text
from euchrelog.engine import ALONE_ID, PARTNER_ALONE_ID, DealState, Phase
from euchrelog.generate import contract, random_game, ruleset_for, score_sheet
from euchrelog.models import Declaration, Exchange, Order, Pass, Play
from euchrelog.replay import replay
from euchrelog.rules import ruleset_from_tags
from euchrelog.seats import Seat

HANDS = {"E": "9C TC QS KS AD", "S": "9S TS AS 9D TD", "W": "JD AH KH QH 9H",
         "N": "AC KC QC JC KD"}


def cards(text: str) -> list[Card]:
    out = [parse_card(c) for c in text.split()]
    return [c for c in out if c is not None]


def state(rules: str, upcard: str = "JH", hands: dict[str, str] | None = None) -> DealState:
    """Deal 1, dealt by N, under a four-hand game with these ``Rules``."""
    ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Rules": rules})
    assert problems == []
    return DealState(ruleset, Seat.N,
                     hands={Seat(s): cards(h) for s, h in (hands or HANDS).items()},
                     upcard=parse_card(upcard))


def ordered(deal: DealState, seats: str, by: str) -> DealState:
    """``seats`` pass and ``by`` orders up."""
    for seat in seats.split():
        deal.bid(Pass(act="pass", seat=Seat(seat)))
    deal.bid(Order(act="order", seat=Seat(by)))
    return deal


def alone(seat: str) -> Declaration:
    return Declaration(act="alone", seat=Seat(seat))


def declarations(deal: DealState) -> list[Declaration]:
    return [a for a in deal.legal_actions() if isinstance(a, Declaration)]


def test_the_options_are_rows_of_the_table() -> None:
    ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Rules": "partner-alone"})
    assert problems == [] and ruleset.options.partner_alone
    assert ruleset.options.spell(ruleset.variant) == "partner-alone"
    _, problems = ruleset_from_tags({"Variant": "cutthroat", "Rules": "partner-alone"})
    assert [p.message for p in problems] == ["option partner-alone does not apply to cutthroat"]


# ---------------------------------------------------------------- partner-alone


def test_without_the_option_only_the_maker_goes_alone() -> None:
    deal = ordered(state(""), "E", "S")
    assert alone("N") not in declarations(deal) and alone("S") in declarations(deal)
    err = deal.check_declare(alone("N"))
    assert err is not None and (err.code, err.message) == (
        "A601", "N goes alone, but only the maker S may; N is the maker's partner")
    assert PARTNER_ALONE_ID not in deal.legal_action_ids()


def test_the_makers_partner_goes_alone_and_the_maker_sits_out() -> None:
    deal = ordered(state("partner-alone"), "E", "S")
    assert {alone("S"), alone("N")} <= set(declarations(deal))
    assert {ALONE_ID, PARTNER_ALONE_ID} <= set(deal.legal_action_ids())
    assert deal.action_of(PARTNER_ALONE_ID) == alone("N")
    assert deal.action_id(alone("N")) == PARTNER_ALONE_ID
    assert deal.action_id(alone("S")) == ALONE_ID
    err = deal.check_declare(alone("E"))
    assert err is not None and (err.code, err.message) == (
        "A601", "E goes alone, but only the makers S and N may; E is a defender (a defender "
                "declares defend)")
    deal.exchange(Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card("KD")))
    deal.do_id(PARTNER_ALONE_ID)
    assert deal.alone == Seat.N and deal.sitting_out == (Seat.S,)
    assert deal.to_play() == Seat.E  # the lone lead counts from the one alone (F10)
    assert alone("S") not in declarations(deal)
    err = deal.check_declare(alone("S"))
    assert err is not None and (err.code, err.message) == (
        "A603", "S goes alone, but N already goes alone (only one of the makers may, "
                "partner-alone)")
    err = deal.check_declare(alone("N"))
    assert err is not None and (err.code, err.message) == ("A603", "N declares alone twice")


@pytest.mark.parametrize("rules", ["partner-alone", "", "partner-alone canadian-loner",
                                   "partner-alone lone-lead=dealer-left"])
def test_legal_declarations_are_those_the_checks_accept(rules: str) -> None:
    for bids, by in (("E", "S"), ("E S", "W"), ("", "E"), ("E S W", "N")):
        deal = ordered(state(rules), bids, by)
        every = [Declaration(act=act, seat=s) for act in ("alone", "defend") for s in Seat]
        assert sorted(map(str, declarations(deal))) == sorted(
            str(d) for d in every if deal.can_declare(d))
        for number in deal.legal_action_ids():
            assert deal.can(deal.action_of(number)), number


def test_under_canadian_loner_the_dealer_does_not_go_alone_for_the_partner() -> None:
    """H3 makes the dealer's partner who orders in round 1 go alone: the dealer may not take
    the lone hand over then."""
    deal = ordered(state("partner-alone canadian-loner"), "E", "S")
    assert alone("N") not in declarations(deal)
    err = deal.check_declare(alone("N"))
    assert err is not None and err.code == "A601"
    deal = ordered(state("partner-alone canadian-loner"), "E S", "W")  # an opponent orders
    assert alone("E") in declarations(deal)


def test_a_lone_hand_by_the_partner_scores_as_the_makers_lone_hand() -> None:
    deal = ordered(state("partner-alone"), "E S", "W")
    deal.declare(alone("E"))
    assert deal.sitting_out == (Seat.W,) and deal.to_play() == Seat.S
    deal.exchange(Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card("KD")))
    while deal.phase is not Phase.DONE:
        deal.do(next(a for a in deal.legal_actions() if isinstance(a, Play)))
    made = deal.maker_tricks()
    assert made is not None and Seat.W not in {s for trick in deal.tricks for s, _ in trick}
    assert deal.points() == deal.ruleset.side_points(Seat.W, made, maker_alone=True,
                                                     defender_alone=False)


PARTNER = """[Variant "four-hand"]
[Rules "partner-alone"]
[Target "4"]

deal 1 dealer N
  hands N: JD AH KH QH AC  E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: KC QC JC 9H KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards AC
  alone N
  1. E: AD  W: KD  N: QH
  2. N: JH  E: 9C  W: 9H
  3. N: JD  E: TC  W: KC
  4. N: AH  E: QS  W: QC
  5. N: KH  E: KS  W: JC
  points NS 4  total NS 4 EW 0

result NS 4 EW 0 winner NS
"""
"""S orders, the dealer N takes the upcard and goes alone: S sits out, E leads."""


def test_a_record_of_the_partner_alone_checks_clean() -> None:
    assert [r.findings for r in check_text(PARTNER)] == [[]]
    without = PARTNER.replace('[Rules "partner-alone"]\n', "")
    assert [f.code for r in check_text(without) for f in r.findings][:1] == ["A601"]


def test_the_generator_lets_either_maker_go_alone() -> None:
    rules = ruleset_for(partner_alone=True)
    partners = 0
    for seed in (95, 104):
        game = random_game(random.Random(seed), rules)
        assert replay(game).findings == []
        assert replay(score_sheet(game)).findings == []
        for deal in game.deals:
            fixed = contract(deal)
            partners += fixed is not None and any(
                d.act == "alone" and d.seat != fixed[1] for d in deal.declarations)
    assert partners >= 2
