"""Two traditional rules as options: ``partner-alone`` (either maker may go alone, the
other sits out) and ``natural-pickup`` (the dealer takes the upcard only with a natural
trump): the options table, the engine's checks and its legal acts, the replay of records
and the generator."""

from __future__ import annotations

import random

import pytest

from euchrelog.actions import ALONE_ID, PARTNER_ALONE_ID
from euchrelog.acts import Call, Declaration, Exchange, Order, Pass, Play
from euchrelog.cards import Card, Suit, parse_card
from euchrelog.check import check_text
from euchrelog.engine import DealState, Phase
from euchrelog.generate import contract, random_game, ruleset_for, score_sheet
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
        deal.do(Pass(act="pass", seat=Seat(seat)))
    deal.do(Order(act="order", seat=Seat(by)))
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
    deal.do(Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card("KD")))
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
            str(d) for d in every if deal.can(d))
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
    deal.do(alone("E"))
    assert deal.sitting_out == (Seat.W,) and deal.to_play() == Seat.S
    deal.do(Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card("KD")))
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


# ---------------------------------------------------------------- natural-pickup

LEFT_ONLY = {"E": "9C TC QS KS AD", "S": "9S TS AS 9D TD", "W": "JC AH KH QH 9H",
             "N": "AC KC QC JD KD"}
"""N, the dealer, holds the jack of diamonds: the left bower under hearts, no natural
trump."""


def pickup(discard: str) -> Exchange:
    return Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card(discard))


DECLINE = Exchange(seat=Seat.N, act="declines")


def exchanges(deal: DealState) -> list[Exchange]:
    return [a for a in deal.legal_actions() if isinstance(a, Exchange)]


@pytest.mark.parametrize("rules", ["natural-pickup", "natural-pickup dealer-pickup=required"])
def test_without_a_natural_trump_the_dealer_only_declines(rules: str) -> None:
    deal = ordered(state(rules, hands=LEFT_ONLY), "E S", "W")
    err = deal.check_exchange(pickup("KD"))
    assert err is not None and (err.code, err.message) == (
        "K508", "the dealer N takes the upcard holding no hearts (the left bower does not "
                "count), but natural-pickup requires a natural trump")
    assert exchanges(deal) == [DECLINE] and deal.can(DECLINE)
    assert deal.exchange_due and not any(isinstance(a, Play) for a in deal.legal_actions())
    deal.do(DECLINE)  # the order stands: hearts are trump
    assert deal.trump is not None and deal.maker == Seat.W
    assert any(isinstance(a, Play) for a in deal.legal_actions())


def test_with_a_natural_trump_the_dealer_may_pick_up() -> None:
    deal = ordered(state("natural-pickup", hands=LEFT_ONLY, upcard="QD"), "E S", "W")
    assert deal.can(Exchange(seat=Seat.N, upcard=parse_card("QD"),
                                      discard=parse_card("AC")))
    assert len(exchanges(deal)) == 7  # the decline and six discards
    required = ordered(state("natural-pickup dealer-pickup=required", hands=LEFT_ONLY,
                             upcard="QD"), "E S", "W")
    err = required.check_exchange(Exchange(seat=Seat.N, act="declines"))
    assert err is not None and err.code == "K504"  # it holds KD: the pickup is required


def test_without_the_option_or_after_a_round_two_call_nothing_is_barred() -> None:
    deal = ordered(state("", hands=LEFT_ONLY), "E S", "W")
    assert deal.can(pickup("KD"))
    deal = state("natural-pickup", hands=LEFT_ONLY)
    for seat in ("E", "S", "W", "N"):
        deal.do(Pass(act="pass", seat=Seat(seat)))
    deal.do(Call(act="call", seat=Seat.E, suit=Suit.SPADES))
    err = deal.check_exchange(pickup("KD"))
    assert err is not None and (err.code, err.message) == (
        "K501", "N exchanges after a round-2 call, where no exchange happens")


def test_an_unrecorded_hand_cannot_be_tested() -> None:
    hands = {**LEFT_ONLY, "N": "AC KC QC ?? KD"}
    deal = ordered(state("natural-pickup dealer-pickup=required", hands=hands), "E S", "W")
    assert deal.can(pickup("KD")) and deal.can(DECLINE)


@pytest.mark.parametrize("rules", ["natural-pickup", "natural-pickup dealer-pickup=required",
                                   "natural-pickup partner-alone"])
@pytest.mark.parametrize("upcard", ["JH", "QD", "JS", "TH"])
def test_legal_exchanges_are_those_the_checks_accept(rules: str, upcard: str) -> None:
    for bids, by in (("E S", "W"), ("", "E"), ("E S W", "N")):
        deal = ordered(state(rules, upcard, hands=LEFT_ONLY if upcard != "TH" else HANDS),
                       bids, by)
        up = parse_card(upcard)
        held = {*deal.hands[Seat.N].cards, up}
        every = [DECLINE, *(Exchange(seat=Seat.N, upcard=up, discard=c) for c in held)]
        assert sorted(map(str, exchanges(deal))) == sorted(
            str(e) for e in every if deal.can(e))
        for number in deal.legal_action_ids():
            assert deal.can(deal.action_of(number)), number


NATURAL = """[Variant "four-hand"]
[Rules "natural-pickup"]
[Target "1"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JC AH KH QH 9H  N: AC KC QC JD KD
  up JH  kitty QD JS TH
  bid E pass, S pass, W order
  N declines
  1. E: 9C  S: 9D  W: JC  N: AC
  2. N: JD  E: AD  S: 9S  W: 9H
  3. N: KC  E: TC  S: AS  W: AH
  4. W: KH  N: KD  E: KS  S: TD
  5. W: QH  N: QC  E: QS  S: TS
  points EW 1  total NS 0 EW 1

result NS 0 EW 1 winner EW
"""
"""W orders the jack of hearts; the dealer N holds only the left bower and leaves it."""


def test_a_record_of_a_dealer_without_a_natural_trump() -> None:
    assert [r.findings for r in check_text(NATURAL)] == [[]]
    taken = NATURAL.replace("  N declines\n", "  N takes JH discards JH\n")
    assert [(f.code, f.line) for r in check_text(taken) for f in r.findings] == [("K508", 9)]
    assert [r.findings for r in check_text(taken.replace('[Rules "natural-pickup"]\n', ""))
            ] == [[]]


def test_with_no_exchange_line_the_barred_dealer_kept_the_five_cards() -> None:
    """A record without the exchange line: the dealer could not take the upcard, so the
    hand is known and a play of the upcard is a dead card."""
    kept = NATURAL.replace("  N declines\n", "")
    assert [r.findings for r in check_text(kept)] == [[]]
    played = kept.replace("3. N: KC  E: TC  S: AS  W: AH", "3. N: JH  E: TC  S: AS  W: AH")
    played = played.replace("4. W: KH  N: KD", "4. W: KH  N: KC")
    assert [f.code for r in check_text(played) for f in r.findings] == ["P708"]


@pytest.mark.parametrize("variant", ["four-hand", "cutthroat", "three-hand", "two-hand"])
def test_the_generator_declines_without_a_natural_trump(variant: str) -> None:
    rules = ruleset_for(variant, natural_pickup=True, dealer_pickup="required")
    declined = 0
    for seed in range(6):
        game = random_game(random.Random(seed), rules)
        assert replay(game).findings == []
        declined += sum(d.exchange is not None and d.exchange.act == "declines"
                        for d in game.deals)
    assert declined


def test_a_partners_lone_hand_is_credited_to_the_partner() -> None:
    """Under partner-alone the lone hand is the lone player's in the replay's results, in
    the statistics and in an event's lone-hand awards: not the maker's, who sat out."""
    from pathlib import Path

    from euchrelog.events.played import lone_hands
    from euchrelog.notation import loads
    from euchrelog.stats import collect

    path = Path(__file__).resolve().parent.parent / "samples/valid/four-hand-partner-alone.euchre"
    game = loads(path.read_text("utf-8")).games[0]
    report = replay(game)
    by_partner = [d for d in report.deals if d.lone is not None and d.lone != d.maker]
    assert [(d.number, d.maker, d.lone) for d in by_partner] == [(3, Seat.N, Seat.S)]
    assert all(d.alone for d in by_partner)
    players = next(iter(collect([game]).groups.values())).players
    lone = {name: tally.lone for name, tally in players.items() if tally.lone}
    assert lone == {"len fortier": 2}  # South: deal 3 for North, deal 7 as the maker
    assert {seat for seat, _, _ in lone_hands(report.ruleset, report)} == {Seat.S}
