"""Every variant on hand-built deals, with a comment on the plays that matter."""

from __future__ import annotations

import pytest

from euchrelog import (
    Call,
    DealState,
    Declaration,
    IllegalActionError,
    Order,
    Pass,
    Seat,
    Suit,
    loads,
    parse_card,
    replay,
)
from euchrelog.acts import Bid, Merge, Number, Swap
from euchrelog.rules import ruleset_from_tags

CUTTHROAT = """[Variant "cutthroat"] [Target "3"]
deal 1 dealer N
  hands N: 9C TC QS KS AD  E: 9S TS AS 9D TD  S: JD QH JH 9H KD
  dummy JC KC AC QD JS
  up AH  kitty TH QC KH
  bid E pass, S order
  N takes AH discards 9C
  S merges keeps JH JD QH 9H AC  # S keeps the bowers and two trumps of the ten
  1. E: AS  S: 9H  N: QS  # no player sits at W: the dummy is skipped
  2. S: JH  N: AH  E: 9D
  3. S: JD  N: TC  E: TD
  4. S: QH  N: KS  E: 9S
  5. S: AC  N: AD  E: TS
  points S 3  total N 0 E 0 S 3  # a march by the maker scores 3 (X8)
result N 0 E 0 S 3 winner S
"""

GHOST = """[Variant "ghost"] [Target "4"]
deal 1 dealer N
  hands N: 9C TC QS KS AD AH  E: 9S TS AS 9D TD KH  S: JD QH JH 9H KD QC
  ghost JC KC AC QD JS TH
  bid E swap 3, S 4, N pass, S call H  # E takes the ghost hand; E's own hand is dead
  1. S: JH  N: AH  E: TH  # the bidder leads (G5)
  2. S: JD  N: 9C  E: QD
  3. S: QH  N: TC  E: JS
  4. S: 9H  N: QS  E: AC
  5. S: KD  N: AD  E: KC
  6. N: KS  E: JC  S: QC
  points N 2 E 0 S 4  # S made the bid of 4: one point a trick for everyone (G6)
result N 2 E 0 S 4 winner S
"""

THREE_HAND = """[Variant "three-hand"] [Target "1"]
deal 1 dealer N
  hands N: 9C TC QS KS AD  E: 9S TS AS 9D TD  S: JD QH JH 9H KD
  up AH  kitty JC KC AC QD JS TH QC KH
  bid E pass, S order
  N takes AH discards 9C
  1. N: AD  E: 9D  S: KD  # the maker always plays alone: the maker's left leads (X10)
  2. N: AH  E: 9S  S: JH
  3. S: JD  N: TC  E: TD
  4. S: QH  N: QS  E: TS
  5. S: 9H  N: KS  E: AS
  points S 1
result N 0 E 0 S 1 winner S
"""

TWO_HAND = """[Variant "two-hand"] [Target "2"]
deal 1 dealer N
  hands N: 9C TC QS KS AD  S: 9S TS AS 9D TD
  up AH  kitty JD QH JH 9H KD JC KC AC QD JS TH QC KH  # the stock of 13 is never played
  bid S pass, N order  # the non-dealer bids first (T2)
  N takes AH discards 9C
  1. S: 9S  N: QS  # and leads (T4)
  2. N: AH  S: 9D
  3. N: AD  S: TD
  4. N: KS  S: TS
  5. N: TC  S: AS
  points N 2
result N 2 S 0 winner N
"""


@pytest.mark.parametrize("text", [CUTTHROAT, GHOST, THREE_HAND, TWO_HAND],
                         ids=["cutthroat", "ghost", "three-hand", "two-hand"])
def test_clean_games(text: str) -> None:
    report = replay(loads(text).games[0])
    assert report.findings == []
    assert report.ended


def state_for(text: str) -> DealState:
    game = loads(text).games[0]
    ruleset, _ = ruleset_from_tags({t.name: t.value for t in game.tags})
    deal = game.deals[0]
    hands = {s: list(c) for line in deal.hands for s, c in line.cards.items()}
    return DealState(ruleset, deal.dealer, hands=hands,
                     upcard=deal.up.card if deal.up else None,
                     kitty=deal.up.kitty if deal.up else None,
                     extra=deal.extra.cards if deal.extra else None)


def test_cutthroat_lone_maker_leaves_the_dummy_and_the_lead() -> None:
    state = state_for(CUTTHROAT)
    state.do(Pass(act="pass", seat=Seat.E))
    state.do(Order(act="order", seat=Seat.S))
    state.do(Declaration(act="alone", seat=Seat.S))
    with pytest.raises(IllegalActionError) as err:
        state.do(Merge(act="merge", seat=Seat.S))
    assert err.value.code == "K505"  # a lone maker leaves the dummy (X6)
    assert state.to_play() == Seat.N  # left of the lone maker S, skipping the empty W (X7)


def test_cutthroat_merge_keeps_only_the_ten() -> None:
    state = state_for(CUTTHROAT)
    state.do(Pass(act="pass", seat=Seat.E))
    state.do(Order(act="order", seat=Seat.S))
    keeps = tuple(parse_card(c) for c in ["JH", "JD", "QH", "9H", "KH"])  # KH is in the kitty
    with pytest.raises(IllegalActionError) as err:
        state.do(Merge(act="merge", seat=Seat.S, keeps=keeps))
    assert err.value.code == "K506"


def test_ghost_bidding() -> None:
    state = state_for(GHOST)
    state.do(Swap(act="swap", seat=Seat.E))
    state.do(Number(act="bid", seat=Seat.E, tricks=4))
    faults: list[tuple[Bid, str]] = [
        (Swap(act="swap", seat=Seat.S), "B409"),  # one swap a deal
        (Number(act="bid", seat=Seat.S, tricks=4), "B408"),  # does not outbid
        (Number(act="bid", seat=Seat.S, tricks=7), "B408"),
        (Call(act="call", seat=Seat.S, suit=Suit.CLUBS), "B402")]
    for bid, code in faults:
        with pytest.raises(IllegalActionError) as err:
            state.verify(bid)
        assert err.value.code == code
    state.do(Number(act="bid", seat=Seat.S, tricks=6))  # the moon
    state.do(Pass(act="pass", seat=Seat.N))
    assert state.naming and not state.can(Call(act="call", seat=Seat.E, suit=Suit.CLUBS))
    state.do(Call(act="call", seat=Seat.S, suit=Suit.SPADES))
    assert (state.maker, state.trump, state.contract, state.to_play()) == (
        Seat.S, Suit.SPADES, 6, Seat.S)


@pytest.mark.parametrize(("rules", "points"), [("", -6), ("failed-moon=-24", -24)])
def test_ghost_failed_moon(rules: str, points: int) -> None:
    text = f"""[Variant "ghost"] [Rules "{rules}"]
deal 1 dealer N
  trump H maker S bid moon tricks N 1 E 0 S 5
  points N 1 E 0 S {points}
unfinished
"""
    assert replay(loads(text).games[0]).findings == []


def test_ghost_renege_costs_the_offender_two() -> None:
    # E throws QD on the trump lead while holding TH, then follows with TH in trick 2.
    text = GHOST.replace("1. S: JH  N: AH  E: TH", "1. S: JH  N: AH  E: QD").replace(
        "2. S: JD  N: 9C  E: QD", "2. S: JD  N: 9C  E: TH").replace(
        "  points N 2 E 0 S 4  #", "  renege E\n  points N 2 E -2 S 4  #").replace(
        "result N 2 E 0 S 4", "result N 2 E -2 S 4")
    findings = replay(loads(text).games[0]).findings
    assert [f.code for f in findings] == ["R801"]
    assert findings[0].message.endswith("claimed: E -2")


@pytest.mark.parametrize(("variant", "code"), [("three-hand", "A601"), ("two-hand", "A601")])
def test_no_alone_declarations(variant: str, code: str) -> None:
    text = THREE_HAND if variant == "three-hand" else TWO_HAND
    maker = "S" if variant == "three-hand" else "N"
    text = text.replace("  1. ", f"  alone {maker}\n  1. ", 1)
    assert [f.code for f in replay(loads(text).games[0]).findings] == [code]


TIE = """[Variant "{variant}"] [Target "{target}"]
deal 1 dealer N
  {first}
deal 2 dealer E
  {second}
result winner {winner}
"""


@pytest.mark.parametrize(("variant", "target", "first", "second", "winner"), [
    # S is euchred: each defender scores 2, and N and E tie on top at the target (X9).
    ("cutthroat", 2, "trump H maker S tricks 2", "trump S maker N tricks 3", "N"),
    # S and N both score 3 at the target 3: another deal is played (G7).
    ("ghost", 3, "trump H maker S bid 3 tricks N 3 E 0 S 3",
     "trump C maker N bid 3 tricks N 4 E 1 S 1", "N"),
])
def test_a_tie_at_the_target_plays_on(variant: str, target: int, first: str, second: str,
                                      winner: str) -> None:
    text = TIE.format(variant=variant, target=target, first=first, second=second,
                      winner=winner)
    report = replay(loads(text).games[0])
    assert report.findings == [] and report.winner == winner
    stopped = text.split("deal 2")[0] + f"result winner {winner}\n"
    assert [f.code for f in replay(loads(stopped).games[0]).findings] == ["G955"]


def test_seats_tag_and_dealer_rotation() -> None:
    text = """[Variant "cutthroat"] [Seats "N E W"]
deal 1 dealer E
  thrown in
deal 2 dealer S
  thrown in
unfinished
"""
    findings = replay(loads(text).games[0]).findings
    assert [(f.code, f.message) for f in findings] == [
        ("D302", "deal 2 is dealt by S, but S has no player: the deal passes from E to W")]


@pytest.mark.parametrize(("sheet", "code"), [
    ("trump H maker S bid 4 tricks N 5 E 5 S 5", "C903"),  # 15 tricks of 6
    ("trump H maker S bid 7 tricks N 1 E 1 S 4", "B408"),  # no bid of 7
    ("trump H maker S bid 4 tricks 4", "C903"),  # ghost scores each player's tricks
    ("trump H maker S tricks N 1 E 1 S 4", "C903"),  # the bid is missing
])
def test_ghost_score_sheet_lines_are_checked(sheet: str, code: str) -> None:
    text = f'[Variant "ghost"]\ndeal 1 dealer N\n  {sheet}\nunfinished\n'
    assert code in [f.code for f in replay(loads(text).games[0]).findings]


def test_each_players_tricks_score_other_variants_too() -> None:
    text = """[Variant "cutthroat"]
deal 1 dealer N
  trump C maker N tricks N 4 E 1 S 0
  points N 1
unfinished
"""
    assert replay(loads(text).games[0]).findings == []
    bid = text.replace("maker N tricks", "maker N bid 4 tricks")
    assert [f.code for f in replay(loads(bid).games[0]).findings] == ["C903"]


@pytest.mark.parametrize(("variant", "rules", "problems"), [
    ("four-hand", "euchred-loner=3 euchre-scoring=set pass-out=same-dealer", []),
    ("four-hand", "no-stick-the-dealer, stick-the-dealer=off", [
        "option stick-the-dealer is given twice in the Rules tag"]),
    ("four-hand", "euchred-loner=1", ["euchred-loner=1: the option takes 2, 3 or 4"]),
    ("four-hand", "euchre-scoring=both", [
        "option euchre-scoring takes one of defenders, set, not 'both'"]),
    ("cutthroat", "euchred-loner=3", ["option euchred-loner does not apply to cutthroat"]),
    ("ghost", "pass-out=same-dealer euchre-scoring=set", [
        "option pass-out does not apply to ghost",
        "option euchre-scoring does not apply to ghost"]),
    ("two-hand", "no-deck", ["unknown option 'no-deck' in the Rules tag"]),
])
def test_house_rules_in_the_rules_tag(variant: str, rules: str, problems: list[str]) -> None:
    """The options of H1, H2 and H4 are read from the Rules tag by their row of the options
    table, and spelt back the same way."""
    ruleset, found = ruleset_from_tags({"Variant": variant, "Rules": rules})
    assert [p.message for p in found] == problems
    if not problems:
        assert ruleset.options.spell(ruleset.variant) == rules


@pytest.mark.parametrize(("rules", "sheet", "points"), [
    ("", "trump H maker E alone tricks 2", "NS 2"),
    ("euchred-loner=3", "trump H maker E alone tricks 2", "NS 3"),
    ("euchred-loner=3", "trump H maker E alone defend N tricks 0", "NS 4"),
    ("euchred-loner=4", "trump H maker E tricks 2", "NS 2"),
    ("euchre-scoring=set", "trump H maker E tricks 2", "EW -2"),
    ("euchre-scoring=set euchred-loner=4", "trump H maker E alone tricks 1", "EW -4"),
    ("euchre-scoring=set", "trump H maker E defend S tricks 0", "EW -4"),
    ("euchre-scoring=set", "trump H maker E tricks 5", "EW 2"),
])
def test_euchred_loner_and_set_scoring(rules: str, sheet: str, points: str) -> None:
    """H1 and H2 on the four-hand table (F11)."""
    text = (f'[Variant "four-hand"] [Rules "{rules}"]\ndeal 1 dealer N\n  {sheet}\n'
            f"  points {points}\nunfinished\n")
    assert replay(loads(text).games[0]).findings == []
