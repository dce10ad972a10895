"""The house rules H3 (``canadian-loner``) and H5 (``no-trump``): ranking with no trump, the
options, the engine's checks, the replay, the recorder and ``euchrelog record``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchrelog.cards import (
    NO_TRUMP,
    Card,
    Suit,
    card_power,
    effective_suit,
    parse_card,
    trick_winner,
)
from euchrelog.cli import main
from euchrelog.cli.record import parse_bids
from euchrelog.engine import DealState, Phase
from euchrelog.errors import IllegalActionError
from euchrelog.generate import random_game, ruleset_for, score_sheet
from euchrelog.interop import ConversionError
from euchrelog.interop.egn import from_egn, to_egn
from euchrelog.models import Call, Declaration, Exchange, Log, Order, Pass, Play
from euchrelog.notation import loads
from euchrelog.notation.jsonio import dumps_json, loads_json
from euchrelog.notation.writer import dumps
from euchrelog.recorder import Recorder
from euchrelog.replay import replay
from euchrelog.rules import FOUR_HAND, ruleset_from_tags
from euchrelog.seats import Seat
from support.record_scripts import answers, record_options


def cards(text: str) -> list[Card]:
    out = [parse_card(c) for c in text.split()]
    return [c for c in out if c is not None]


HANDS = {"E": "9C TC QS KS AD", "S": "9S TS AS 9D TD", "W": "JD AH KH QH 9H",
         "N": "AC KC QC JC KD"}


def state(rules: str, upcard: str = "JH") -> DealState:
    """Deal 1, dealt by N, under a four-hand game with these ``Rules``."""
    ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Rules": rules})
    assert problems == []
    return DealState(ruleset, Seat.N, hands={Seat(s): cards(h) for s, h in HANDS.items()},
                     upcard=parse_card(upcard))


def passes(deal: DealState, seats: str) -> None:
    for seat in seats.split():
        deal.do(Pass(act="pass", seat=Seat(seat)))


# ---------------------------------------------------------------- ranking (H5)


def test_no_trump_has_no_bowers() -> None:
    jack, queen, ten = cards("JS QS TS")
    assert card_power(queen, NO_TRUMP, Suit.SPADES) > card_power(jack, NO_TRUMP, Suit.SPADES)
    assert card_power(jack, NO_TRUMP, Suit.SPADES) > card_power(ten, NO_TRUMP, Suit.SPADES)
    left = parse_card("JC")
    assert left is not None
    assert effective_suit(left, NO_TRUMP) is Suit.CLUBS  # with spades trump it would be one
    assert effective_suit(left, Suit.SPADES) is Suit.SPADES
    assert card_power(left, NO_TRUMP, Suit.SPADES) == 0


@pytest.mark.parametrize(("trick", "winner"), [
    ("9H JD JH TH", 2),  # no bowers: JD is a diamond, JH ranks above the ten only
    ("QS AC JS KS", 3),  # an ace of another suit cannot win
    ("9D 9C 9S 9H", 0),  # nothing follows: the lead wins
])
def test_every_trick_goes_to_the_led_suit(trick: str, winner: int) -> None:
    assert trick_winner(cards(trick), NO_TRUMP) == winner


# ---------------------------------------------------------------- the options


def test_options_are_spelled_and_read_back() -> None:
    ruleset, problems = ruleset_from_tags({"Variant": "four-hand",
                                           "Rules": "Canadian-Loner, no-trump=on"})
    assert problems == []
    assert ruleset.options.canadian_loner and ruleset.options.no_trump
    assert ruleset.options.spell(FOUR_HAND) == "canadian-loner no-trump"
    off, _ = ruleset_from_tags({"Variant": "four-hand",
                                "Rules": "canadian-loner=off no-trump=off"})
    assert not off.options.canadian_loner and not off.options.no_trump


@pytest.mark.parametrize(("tags", "code", "message"), [
    ({"Variant": "cutthroat", "Rules": "no-trump"}, "T203",
     "option no-trump does not apply to cutthroat"),
    ({"Variant": "two-hand", "Rules": "canadian-loner"}, "T203",
     "option canadian-loner does not apply to two-hand"),
    ({"Variant": "four-hand", "Rules": "no-trump=yes"}, "T203",
     "option no-trump takes one of off, on, not 'yes'"),
    ({"Variant": "four-hand", "Rules": "no-trump", "Deck": "25"}, "T205",
     "no-trump does not combine with deck=25: the benny needs a trump suit; no-trump is off"),
])
def test_options_that_do_not_fit(tags: dict[str, str], code: str, message: str) -> None:
    ruleset, problems = ruleset_from_tags(tags)
    assert [(p.code, p.message) for p in problems] == [(code, message)]
    assert not ruleset.options.no_trump and not ruleset.options.canadian_loner


# ---------------------------------------------------------------- the engine


def test_no_trump_is_a_round_two_call_under_the_option() -> None:
    nt = Call(act="call", seat=Seat.E, suit=NO_TRUMP)
    plain = state("")
    passes(plain, "E S W N")
    err = plain.check_bid(nt)
    assert err is not None and (err.code, err.message) == (
        "B410", "E calls no trump, but the game is not played with no-trump (H5)")
    assert nt not in list(plain.legal_actions())
    game = state("no-trump")
    err = game.check_bid(nt)
    assert err is not None and err.code == "B402"  # round 1: order up or pass
    passes(game, "E S W N")
    assert nt in list(game.legal_actions())
    game.do(nt)
    assert (game.trump, game.maker, game.phase) == (NO_TRUMP, Seat.E, Phase.DECLARING)
    assert not game.can(Exchange(seat=Seat.N, act="declines"))  # no exchange
    # E leads the ace of diamonds; W's jack of diamonds is no left bower, N's king of
    # diamonds beats it, and the ace wins.
    for seat, card in (("E", "AD"), ("S", "9D"), ("W", "JD"), ("N", "KD")):
        game.do(Play(seat=Seat(seat), card=parse_card(card)))
    assert game.winners == [Seat.E]
    game.do(Play(seat=Seat.E, card=parse_card("QS")))
    with pytest.raises(IllegalActionError) as exc:  # S holds spades and must follow
        game.do(Play(seat=Seat.S, card=parse_card("TD")))
    assert exc.value.code == "R801"


def test_the_dealers_partner_who_orders_must_go_alone() -> None:
    deal = state("canadian-loner")
    passes(deal, "E")
    deal.do(Order(act="order", seat=Seat.S))
    deal.do(Exchange(seat=Seat.N, upcard=parse_card("JH"), discard=parse_card("KD")))
    assert not any(isinstance(a, Play) for a in deal.legal_actions())
    err = deal.check_play(Play(seat=Seat.E, card=parse_card("AD")))
    assert err is not None and (err.code, err.message) == (
        "A604", "S, the dealer's partner, orders up and does not go alone, but under "
                "canadian-loner that player must (H3)")
    assert Declaration(act="alone", seat=Seat.S) in list(deal.legal_actions())
    deal.do(Declaration(act="alone", seat=Seat.S))
    deal.do(Play(seat=Seat.W, card=parse_card("9H")))  # the loner's left leads (F10)


@pytest.mark.parametrize(("bids", "maker"), [
    ("E pass, S pass, W pass, N order", Seat.N),  # the dealer takes it up: no loner needed
    ("E order", Seat.E),  # an opponent orders
])
def test_only_the_dealers_partner_must_go_alone(bids: str, maker: Seat) -> None:
    deal = state("canadian-loner")
    for bid in bids.split(", "):
        seat, act = bid.split()
        deal.do(Pass(act="pass", seat=Seat(seat)) if act == "pass"
                 else Order(act="order", seat=Seat(seat)))
    assert deal.maker == maker and deal.check_canadian() is None


def test_a_round_two_call_by_the_partner_is_no_canadian_loner() -> None:
    deal = state("canadian-loner")
    passes(deal, "E S W N E")
    deal.do(Call(act="call", seat=Seat.S, suit=Suit.SPADES))
    assert deal.check_canadian() is None
    deal.do(Play(seat=Seat.E, card=parse_card("AD")))


def test_the_benny_at_no_trump_follows_no_suit_and_wins() -> None:
    """no-trump is not played with the Benny (T205), but a record may call no trump in a
    game with it (B410): the deal is still checked, without a traceback."""
    ruleset, _ = ruleset_from_tags({"Variant": "four-hand", "Deck": "25"})
    hands = {"E": "JK TC QS KS AD", "S": "9S TS AS 9D TD", "W": "JD AH KH QH 9H",
             "N": "AC KC QC JC KD"}
    deal = DealState(ruleset, Seat.N, hands={Seat(s): cards(h) for s, h in hands.items()},
                     upcard=parse_card("JH"))
    for seat in ["E", "S", "W", "N", "E", "S"]:
        deal.apply_bid(Pass(act="pass", seat=Seat(seat)))
    nt = Call(act="call", seat=Seat.W, suit=NO_TRUMP)
    assert deal.check_bid(nt) is not None
    deal.apply_bid(nt)
    for seat, card in (("E", "JK"), ("S", "9D"), ("W", "9H"), ("N", "AC")):
        assert deal.check_play(Play(seat=Seat(seat), card=parse_card(card))) is None
        deal.apply_play(Play(seat=Seat(seat), card=parse_card(card)))
    assert deal.winners == [Seat.E]
    deal.apply_play(Play(seat=Seat.E, card=parse_card("AD")))
    err = deal.check_play(Play(seat=Seat.S, card=parse_card("9S")))
    assert err is not None and err.code == "R801"  # S holds TD


# ---------------------------------------------------------------- the replay


CANADIAN = """[Variant "four-hand"] [Rules "canadian-loner"] [Target "2"]
deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD JS TH
  bid E pass, S order
  N takes JH discards JC
{alone}  1. E: AD  S: 9D  W: 9H  N: KD
  2. W: JD  N: JH  E: 9C  S: 9S
  3. N: AC  E: TC  S: TD  W: QH
  4. W: KH  N: QC  E: QS  S: TS
  5. W: AH  N: KC  E: KS  S: AS
  points EW 2
result NS 0 EW 2 winner EW
"""


def test_a_partner_who_orders_and_plays_with_the_dealer_is_one_finding() -> None:
    report = replay(loads(CANADIAN.format(alone="")).games[0])
    assert [(f.code, f.deal, f.seat) for f in report.findings] == [("A604", 1, "S")]
    assert report.winner == "EW"  # the tricks are scored as played


def test_no_trump_in_notation_and_json_is_lossless() -> None:
    text = ('[Variant "four-hand"] [Rules "no-trump"] [Target "1"]\n'
            "deal 1 dealer N\n  up JH\n  bid e pass, s pass, w pass, n pass\n"
            "  bid e call nt\n  trump nt maker e tricks 3\n  points EW 1\n"
            "result NS 0 EW 1 winner EW\n")
    log = loads(text)
    deal = log.games[0].deals[0]
    assert deal.bids[-1] == Call(act="call", seat=Seat.E, suit=NO_TRUMP)
    assert deal.sheet is not None and deal.sheet.trump is NO_TRUMP
    canonical = dumps(log)
    assert "  bid E call NT\n  trump NT maker E tricks 3\n" in canonical
    assert loads(canonical) == log
    assert '"suit": "NT"' in dumps_json(log) and loads_json(dumps_json(log)) == log
    assert replay(log.games[0]).findings == []


def test_the_generator_calls_no_trump_and_canadian_loners_go_alone() -> None:
    rules = ruleset_for(no_trump=True, canadian_loner=True)
    calls = loners = 0
    for seed in range(12):
        game = random_game(random.Random(seed), rules)
        assert replay(game).findings == []
        assert replay(score_sheet(game)).findings == []
        for deal in game.deals:
            calls += any(isinstance(b, Call) and b.suit is NO_TRUMP for b in deal.bids)
            ordered = next((b for b in deal.bids if isinstance(b, Order)), None)
            if ordered is not None and ordered.seat == deal.dealer.partner:
                loners += 1
                assert Declaration(act="alone", seat=ordered.seat) in deal.declarations
    assert calls and loners


# ---------------------------------------------------------------- the recorder


def test_the_recorder_refuses_a_partner_who_does_not_go_alone() -> None:
    rec = Recorder("four-hand", rules="canadian-loner", target=1)
    rec.deal(HANDS, upcard="JH", kitty="QD JS TH", dealer="N")
    rec.bid(Pass(act="pass", seat=Seat.E))
    rec.bid(Order(act="order", seat=Seat.S))
    rec.exchange(Exchange(seat=Seat.N, discard=parse_card("KD")))
    with pytest.raises(IllegalActionError) as exc:
        rec.play(Play(seat=Seat.E, card=parse_card("AD")))
    assert exc.value.code == "A604"
    with pytest.raises(IllegalActionError) as exc:
        rec.sheet(tricks=3)
    assert exc.value.code == "A604"
    assert all(not isinstance(a, Play) for a in rec.legal_actions())
    rec.declare(Declaration(act="alone", seat=Seat.S))
    assert rec.legal_actions(), "the loner's left leads"
    rec.sheet(tricks=5)
    assert rec.totals == {"NS": 4, "EW": 0}


def test_the_recorder_takes_no_trump_from_the_sheet() -> None:
    rec = Recorder("four-hand", rules="no-trump", target=2)
    rec.sheet("NT", "W", tricks=5)
    assert "trump NT maker W tricks 5" in rec.dumps()
    plain = Recorder("four-hand", target=2)
    with pytest.raises(IllegalActionError) as exc:
        plain.sheet("nt", "W", tricks=5)
    assert exc.value.code == "B410"


@pytest.mark.parametrize("text", ["call NT", "nt", "no-trump", "W call nt"])
def test_the_record_prompt_reads_a_no_trump_call(text: str) -> None:
    assert parse_bids(text, Seat.W, FOUR_HAND) == [Call(act="call", seat=Seat.W,
                                                         suit=NO_TRUMP)]


@pytest.mark.parametrize(("seed", "announced"), [(12, True), (43, False)])
def test_record_a_game_under_both_house_rules(seed: int, announced: bool,
                                              tmp_path: Path) -> None:
    """Full deals and score-sheet deals alike, with canadian loners and a no-trump call
    (seed 12: in a full deal, which the session announces; 43: on the score sheet)."""
    rules = ruleset_for(target=5, canadian_loner=True, no_trump=True)
    game = random_game(random.Random(seed), rules)
    lines = [*answers(game, lambda d: "sheet" if d % 2 else "full"), ""]
    path = tmp_path / "g.euchre"
    result = CliRunner().invoke(main, ["record", str(path), *record_options(rules)],
                                input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert ("no trump is called" in result.output) is announced
    recorded = loads(path.read_text(encoding="utf-8")).games[0]
    mine, theirs = replay(recorded), replay(game)
    assert mine.findings == [] and (mine.totals, mine.winner) == (theirs.totals, theirs.winner)
    assert "NT" in path.read_text(encoding="utf-8")


def test_json_log_of_a_no_trump_game_round_trips() -> None:
    game = random_game(random.Random(3), ruleset_for(no_trump=True, target=5))
    log = Log(games=(game,))
    assert loads_json(dumps_json(log)) == log
    assert loads(dumps(log)) == log


# ---------------------------------------------------------------- EGN


def test_egn_canadian_and_no_trump_read_and_write_back() -> None:
    """EGN's ruleset flags ``canadian`` and ``allow_no_trump`` are the options, and its call
    ``n`` is ``call NT``; a game under both goes to EGN and back unchanged in what it
    scores."""
    rules = ruleset_for(canadian_loner=True, no_trump=True)
    game = random_game(random.Random(6), rules)
    assert any(isinstance(b, Call) and b.suit is NO_TRUMP for d in game.deals for b in d.bids)
    data, _ = to_egn(game)
    assert data["metadata"]["ruleset"]["canadian"] is True
    assert data["metadata"]["ruleset"]["allow_no_trump"] is True
    assert any("n" in phase.get("calls", ()) for deal in data["deals"]
               for phase in deal["phases"])
    back = from_egn(data).game
    assert "canadian-loner" in (back.tag("Rules") or "")
    assert "no-trump" in (back.tag("Rules") or "")
    mine, theirs = replay(back), replay(game)
    assert mine.findings == [] and (mine.totals, mine.winner) == (theirs.totals, theirs.winner)
    assert [d.bids for d in back.deals] == [d.bids for d in game.deals]


def test_egn_no_trump_has_no_bowers() -> None:
    data, _ = to_egn(random_game(random.Random(6), ruleset_for(no_trump=True)))
    deal = next(d for d in data["deals"] if "n" in d["phases"][0]["calls"])
    deal["initialState"]["upCard"] = "R"
    with pytest.raises(ConversionError) as caught:
        from_egn(data)
    assert "no bowers" in caught.value.message
