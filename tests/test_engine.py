"""The engine on hand-built deals: verify/can/do, bowers, lone hands, options.

Each fixture is a literal record with a comment on the plays that matter.
"""

from __future__ import annotations

import pytest

from euchrelog import (
    Call,
    DealState,
    Declaration,
    Exchange,
    IllegalActionError,
    Order,
    Pass,
    Phase,
    Play,
    RenegeError,
    Ruleset,
    Seat,
    Suit,
    loads,
    parse_card,
    replay,
)
from euchrelog.rules import ruleset_from_tags

HANDS = {
    Seat.E: "9C TC QS KS AD",
    Seat.S: "9S TS AS 9D TD",
    Seat.W: "JD AH KH QH 9H",
    Seat.N: "AC KC QC JC KD",
}


def new_state(ruleset: Ruleset | None = None, upcard: str = "JH") -> DealState:
    hands = {s: [parse_card(c) for c in h.split()] for s, h in HANDS.items()}
    return DealState(ruleset or Ruleset(), Seat.N, hands=hands, upcard=parse_card(upcard))


def card_play(seat: Seat, card: str) -> Play:
    return Play(seat=seat, card=parse_card(card))


def codes(text: str) -> list[str]:
    game = loads(text).games[0]
    return [f.code for f in replay(game).findings]


def test_bidding_turns_and_rounds() -> None:
    state = new_state()
    with pytest.raises(IllegalActionError) as err:
        state.verify(Pass(act="pass", seat=Seat.S))  # E bids first, left of the dealer
    assert err.value.code == "B401"
    for seat in (Seat.E, Seat.S, Seat.W, Seat.N):
        state.do(Pass(act="pass", seat=seat))
    assert state.round == 2
    assert not state.can(Call(act="call", seat=Seat.E, suit=Suit.HEARTS))  # turned down
    assert not state.can(Order(act="order", seat=Seat.E))  # no order in round 2
    state.do(Call(act="call", seat=Seat.E, suit=Suit.SPADES))
    assert (state.trump, state.maker, state.phase) == (Suit.SPADES, Seat.E, Phase.DECLARING)
    with pytest.raises(IllegalActionError) as err:
        state.verify(Exchange(seat=Seat.N, discard=parse_card("KD")))
    assert err.value.code == "K501"  # no exchange after a round-2 call


def test_stick_the_dealer() -> None:
    ruleset, _ = ruleset_from_tags({"Variant": "four-hand", "Rules": "stick-the-dealer"})
    state = new_state(ruleset)
    for seat in (Seat.E, Seat.S, Seat.W, Seat.N, Seat.E, Seat.S, Seat.W):
        state.do(Pass(act="pass", seat=seat))
    with pytest.raises(IllegalActionError) as err:
        state.do(Pass(act="pass", seat=Seat.N))
    assert err.value.code == "B404"
    assert list(state.legal_actions()) == [  # any suit but the turned-down hearts
        Call(act="call", seat=Seat.N, suit=s) for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)]


def test_lone_maker_and_the_left_bower() -> None:
    state = new_state()
    state.do(Pass(act="pass", seat=Seat.E))
    state.do(Pass(act="pass", seat=Seat.S))
    state.do(Order(act="order", seat=Seat.W))  # W orders hearts
    state.do(Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card("KD")))
    with pytest.raises(IllegalActionError) as err:
        state.do(Declaration(act="alone", seat=Seat.E))
    assert err.value.code == "A601"  # E's partner W is the maker
    state.do(Declaration(act="alone", seat=Seat.W))
    assert state.sitting_out == (Seat.E,)
    assert state.to_play() == Seat.N  # lone-lead=maker-left: W's left is N
    state.do(card_play(Seat.N, "AC"))
    state.do(card_play(Seat.S, "9D"))  # void in clubs
    state.do(card_play(Seat.W, "9H"))  # trumps
    assert state.winners == [Seat.W]
    state.do(card_play(Seat.W, "JD"))  # the left bower leads trump
    with pytest.raises(RenegeError) as renege:
        state.verify(card_play(Seat.N, "KC"))  # N holds the right bower, a trump
    assert renege.value.code == "R801"
    assert list(state.legal_actions()) == [card_play(Seat.N, "JH")]
    state.do(card_play(Seat.N, "JH"))
    state.do(card_play(Seat.S, "9S"))
    assert state.winners[-1] == Seat.N  # right bower beats left bower


def test_left_bower_does_not_follow_its_printed_suit() -> None:
    state = new_state(upcard="9C")
    state.do(Pass(act="pass", seat=Seat.E))
    state.do(Pass(act="pass", seat=Seat.S))
    state.do(Pass(act="pass", seat=Seat.W))
    state.do(Pass(act="pass", seat=Seat.N))
    state.do(Call(act="call", seat=Seat.E, suit=Suit.HEARTS))
    state.do(card_play(Seat.E, "AD"))  # diamonds led
    state.do(card_play(Seat.S, "9D"))
    # W holds JD, but with hearts trump it is a heart: W is void in diamonds.
    assert state.can(card_play(Seat.W, "AH"))


def test_replay_full_deal_lone_hand() -> None:
    text = """[Variant "four-hand"] [Target "1"]
deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD JS TH
  bid E pass, S pass, W order
  N takes JH discards KD
  alone W
  1. N: AC  S: 9D  W: 9H
  2. W: JD  N: JH  S: 9S
  3. N: KC  S: TS  W: QH
  4. W: AH  N: QC  S: AS
  5. W: KH  N: JC  S: TD
  points EW 1  total NS 0 EW 1
result NS 0 EW 1 winner EW
"""
    report = replay(loads(text).games[0])
    assert report.findings == []
    assert report.deals[0].maker_tricks == 4  # a lone maker with 4 tricks scores 1
    assert report.winner == "EW"


def test_lone_lead_dealer_left_option() -> None:
    text = """[Variant "four-hand"] [Target "1"] [Rules "lone-lead=dealer-left"]
deal 1 dealer N
  up TH
  bid E pass, S pass, W order
  alone W
  1. N: AC  S: 9D  W: 9H
unfinished
"""
    # With dealer-left, E would lead, but E sits out, so S leads: N is out of turn.
    assert codes(text) == ["P701"]


def test_lone_defender_takes_all_five() -> None:
    sheet = """[Variant "four-hand"] [Target "4"] {rules}
deal 1 dealer N
  trump S maker E defend N tricks 0
  points NS {points}
result winner NS
"""
    assert codes(sheet.format(rules="", points=4)) == []
    euchre = sheet.replace("tricks 0", "tricks 2")
    assert codes(euchre.format(rules="", points=2)) == ["G955"]
    tournament = '[Rules "lone-defender-euchre=4"]'
    assert codes(euchre.format(rules=tournament, points=4)) == []


def test_renege_by_evidence_on_a_play_only_deal() -> None:
    text = """[Variant "four-hand"]
deal 1 dealer N
  up 9S
  bid E pass, S pass, W pass, N pass
  bid E call H
  1. E: AD  S: KD  W: 9C  N: QD
  2. E: TD  S: TS  W: 9D  N: JS
unfinished
"""
    # W shows out of diamonds in trick 1, then plays a diamond in trick 2: a renege
    # proved by evidence, reported at W's play in trick 1.
    game = loads(text).games[0]
    findings = replay(game).findings
    assert [f.code for f in findings] == ["R802"]
    assert "trick 1" in findings[0].message and "plays 9D in trick 2" in findings[0].message


def test_benny_turn_up() -> None:
    ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Deck": "25"})
    assert problems == []
    state = new_state(ruleset, upcard="JK")
    assert not state.can(Pass(act="pass", seat=Seat.E))
    state.do(Call(act="call", seat=Seat.N, suit=Suit.CLUBS))  # the dealer names trump
    assert state.maker == Seat.N
    with pytest.raises(IllegalActionError) as err:
        state.do(Exchange(seat=Seat.N, act="declines"))
    assert err.value.code == "K504"
    state.do(Exchange(seat=Seat.N, discard=parse_card("KD")))
    assert parse_card("JK") in state.hands[Seat.N].cards


def test_claimed_renege_scores_the_penalty() -> None:
    text = """[Variant "four-hand"] [Target "2"]
deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD JS TH
  bid E pass, S pass, W order
  N takes JH discards QC
  1. E: AD  S: 9D  W: 9H  N: AC
  renege N trick 1
  points EW 2
result EW 2 winner EW
"""
    game = loads(text).games[0]
    findings = replay(game).findings
    assert [f.code for f in findings] == ["R801"]
    assert findings[0].message.endswith("claimed: EW 2")


def test_strict_replay_raises() -> None:
    text = """[Variant "four-hand"]
deal 1 dealer N
  bid S pass
unfinished
"""
    with pytest.raises(IllegalActionError) as err:
        replay(loads(text).games[0], strict=True)
    assert err.value.code == "B401"


def test_a_copy_has_every_attribute_and_shares_no_mutable_one() -> None:
    """``DealState.copy`` copies each attribute by name (the compiled build cannot use
    ``copy.copy``): a copy in the middle of the play has every attribute the state has,
    equal, and playing on in the copy leaves the state as it was."""
    state = new_state()
    for act in (Order(seat=Seat.E), Exchange(seat=Seat.N, discard=parse_card("KD")),
                Play(seat=Seat.E, card=parse_card("AD"))):
        state.do(act)
    other = state.copy()
    if hasattr(state, "__dict__"):  # the pure build: its attributes can be listed
        assert set(vars(other)) == set(vars(state))
        assert all(getattr(other, name) == value for name, value in vars(state).items())
    before = tuple(map(repr, (state.current, state.played, state.hands[Seat.S].known,
                              state.acted)))
    other.do(Play(seat=Seat.S, card=parse_card("TD")))
    assert tuple(map(repr, (state.current, state.played, state.hands[Seat.S].known,
                            state.acted))) == before
    assert other.current != state.current
