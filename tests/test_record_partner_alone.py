"""``euchrelog record`` and the ``Recorder`` under ``partner-alone``: the maker's partner
goes alone, typed as ``alone N`` in the play or answered by its seat on the score sheet,
and the record names the seat that went alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.cli import main
from euchrelog.errors import IllegalActionError
from euchrelog.models import Deal, Declaration, Order, Pass, Sheet
from euchrelog.notation import loads
from euchrelog.recorder import Recorder
from euchrelog.replay import replay
from euchrelog.seats import Seat
from support.record_scripts import answers, record_options, ruleset_of

SAMPLE = Path(__file__).parent.parent / "samples" / "valid" / "four-hand-partner-alone.euchre"
RULES = ("--rules", "partner-alone", "--target", "10")
SETUP = ["Ann", "Ben", "Cleo", "Dev", "N"]
# N deals, S orders up: N, the dealer, may take the upcard and go alone for S.
CARDS = ["full", "9C TC QS KS AD", "9S TS AS 9D TD", "JD AH KH QH 9H", "AC KC QC JC KD", "JH",
         "", "pass", "order", "discard KD"]
LONE_PLAY = ["AD", "9H", "JH", "AC", "9C", "QH", "JD", "JC", "TC", "AH", "KC", "QS", "KH", "QC",
             "KS"]


def record(path: Path, lines: Sequence[str], *args: str) -> Result:
    """Runs ``euchrelog record PATH ARGS`` in-process with ``lines`` on standard input."""
    text = "".join(f"{line}\n" for line in lines)
    return CliRunner().invoke(main, ["record", str(path), *args], input=text)


def check_clean(path: Path) -> None:
    """The file passes ``euchrelog check`` and ``euchrelog fmt --check``."""
    for command in ("check", "fmt --check"):
        result = CliRunner().invoke(main, [*command.split(), str(path)])
        assert result.exit_code == 0, result.output


def lone_lines(deal: Deal) -> list[str]:
    """A deal's declaration lines, as ``alone S`` or ``defend E``."""
    return [f"{d.act} {d.seat}" for d in deal.declarations]


def went_alone(deal: Deal) -> Seat | None:
    """The seat a deal's record says went alone: its ``alone`` line, else the maker of a
    score-sheet line that says ``alone``."""
    lone = [d.seat for d in deal.declarations if d.act == "alone"]
    if lone:
        return lone[0]
    return deal.sheet.maker if deal.sheet is not None and deal.sheet.alone else None


# ---------------------------------------------------------------- in the play


def test_the_hint_offers_the_partner_and_alone_names_it(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, *CARDS, "alone N", *LONE_PLAY], *RULES)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  before the lead: S or N may go alone (alone, or alone N); E or W may defend " \
           "alone (defend E)\n" in out
    assert "E leads [9C TC AD QS KS] > alone N\n  before the lead: E or W may defend alone " \
           "(defend E)\n" in out  # one lone maker: the hint offers no second
    assert "deal 1: EW 2; score NS 0 EW 2" in out  # the lone hand euchred (F11)
    deal = loads(path.read_text(encoding="utf-8")).games[0].deals[0]
    assert lone_lines(deal) == ["alone N"]
    assert [p.seat for p in deal.tricks[0].plays] == [Seat.E, Seat.W, Seat.N]  # S sits out
    check_clean(path)


def test_alone_with_no_seat_is_the_maker(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, *CARDS, "alone", "alone N"], *RULES)
    assert "  refused: A603 N goes alone, but S already goes alone (only one of the makers " \
           "may, partner-alone)" in result.output
    deal = loads(path.read_text(encoding="utf-8")).games[0].deals[0]
    assert lone_lines(deal) == ["alone S"]


def test_without_the_option_the_partner_is_refused(tmp_path: Path) -> None:
    result = record(tmp_path / "g.euchre", [*SETUP, *CARDS, "alone N"], "--target", "10")
    out = result.output
    assert "  before the lead: S may go alone (alone); E or W may defend alone (defend E)" in out
    assert "  refused: A601 N goes alone, but only the maker S may; N is the maker's partner" \
           in out


# ---------------------------------------------------------------- on the score sheet

PROMPT = "did the maker go alone? [y, no, or {} if its partner went alone] (Enter for no) > "


def test_the_sheet_asks_which_maker_went_alone(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    lines = [*SETUP, "sheet", "H", "E", "S", "x", "W", "", "5",  # W alone for E: a march
             "sheet", "D", "S", "n", "N", "", "3"]  # N alone for S
    result = record(path, lines, *RULES)
    out = result.output
    assert result.exit_code == 0, out
    assert PROMPT.format("W") + "S\n  refused: A601 S goes alone, but only the makers E and " \
                                "W may; S is a defender (a defender declares defend)\n" in out
    assert PROMPT.format("W") + "x\n  answer y, no, or W if the maker's partner went alone\n" \
        in out
    assert PROMPT.format("N") + "n\n  answer no, or the partner's seat in capitals (N)\n" in out
    assert "deal 1: EW 4; score NS 0 EW 4" in out
    assert "deal 2: NS 1; score NS 1 EW 4" in out
    text = path.read_text(encoding="utf-8")
    assert "deal 1 dealer N\n  alone W\n  trump H maker E alone tricks 5\n" in text
    assert "deal 2 dealer E\n  alone N\n  trump D maker S alone tricks 3\n" in text
    check_clean(path)


@pytest.mark.parametrize(("answer", "written"), [
    ("y", "  trump H maker E alone tricks 5"), ("E", "  trump H maker E alone tricks 5"),
    ("e", "  trump H maker E alone tricks 5"), ("n", "  trump H maker E tricks 5"),
    ("no", "  trump H maker E tricks 5"), ("", "  trump H maker E tricks 5"),
])
def test_the_maker_alone_or_no_one(answer: str, written: str, tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, "sheet", "H", "E", answer, "", "5"], *RULES)
    assert result.exit_code == 0, result.output
    assert f"deal 1 dealer N\n{written}\n" in path.read_text(encoding="utf-8")


def test_a_partner_alone_with_a_lone_defender(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, "sheet", "H", "E", "W", "S", "4"], *RULES)
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    # the line's words agree with the deal's declaration lines (C903): both are written
    assert "  alone W\n  defend S\n  trump H maker E alone defend S tricks 4\n" in text
    check_clean(path)


def test_a_deal_started_with_its_cards_then_scored_from_the_sheet(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, *CARDS[:7], "sheet", "H", "S", "N", "", "5"], *RULES)
    assert result.exit_code == 0, result.output
    assert "  up JH\n  alone N\n  trump H maker S alone tricks 5\n  points NS 4" in \
        path.read_text(encoding="utf-8")
    check_clean(path)


def test_undo_asks_again_with_the_partner_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    lines = [*SETUP, "sheet", "H", "E", "W", "", "5", "undo", "4"]
    result = record(path, lines, *RULES)
    assert result.exit_code == 0, result.output
    assert "  undone: trump H maker E alone tricks 5\ntricks the makers took [0-5] > 4" \
           in result.output
    assert "  alone W\n  trump H maker E alone tricks 4\n" in path.read_text(encoding="utf-8")


def test_the_sheet_question_without_the_option(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, "sheet", "H", "E", "W", "y", "", "5"], "--target", "10")
    out = result.output
    assert "did the maker go alone? [y/n] (Enter for n) > W\n  answer y or n\n" in out
    assert "  trump H maker E alone tricks 5\n" in path.read_text(encoding="utf-8")


def test_canadian_loner_asks_the_state(tmp_path: Path) -> None:
    """The question offers the partner only when the state allows it: under canadian-loner
    with no bidding written the sheet cannot show the round, so both may."""
    result = record(tmp_path / "g.euchre", [*SETUP, "sheet", "H", "E"],
                    "--rules", "partner-alone canadian-loner", "--target", "10")
    assert PROMPT.format("W") in result.output


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("modes", ["full", "sheet", "mixed"])
def test_the_sample_recorded_again(modes: str, tmp_path: Path) -> None:
    game = loads(SAMPLE.read_text(encoding="utf-8")).games[0]
    pick: dict[str, Callable[[int], str]] = {
        "full": lambda d: "full", "sheet": lambda d: "sheet",
        "mixed": lambda d: "sheet" if d % 2 == 0 else "full"}
    path = tmp_path / "g.euchre"
    lines = answers(game, pick[modes])
    result = record(path, [*lines, ""], *record_options(ruleset_of(game)))
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    recorded = loads(path.read_text(encoding="utf-8")).games[0]
    mine, theirs = replay(recorded), replay(game)
    assert mine.findings == []
    assert (mine.totals, mine.winner) == (theirs.totals, theirs.winner)
    assert [went_alone(d) for d in recorded.deals] == [went_alone(d) for d in game.deals]
    assert [went_alone(d) for d in game.deals].count(None) < len(game.deals) - 1
    if modes == "sheet":  # S goes alone for the maker N in deal 3: its own line
        assert lone_lines(recorded.deals[2]) == ["alone S"]
    check_clean(path)


def test_resume_after_a_partner_alone_sheet(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    record(path, [*SETUP, "sheet", "H", "E", "W", "", "5"], *RULES)
    result = record(path, ["sheet", "C", "S", "N", "", "5"], "--resume")
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert "  alone W\n  trump H maker E alone tricks 5\n" in text
    assert "  alone N\n  trump C maker S alone tricks 5\n" in text
    check_clean(path)


# ---------------------------------------------------------------- the Recorder


def test_the_recorder_takes_the_seat_that_went_alone() -> None:
    rec = Recorder(rules="partner-alone", target=10)
    rec.sheet("D", "N", alone="S", tricks=5, dealer="N")
    assert rec.alone() == Seat.S and rec.points() == {"NS": 4}
    rec.sheet("H", "E", alone=Seat.E, tricks=5)  # the maker: the line's alone says it
    assert rec.alone() == Seat.E and rec.alone(0) == Seat.S
    model = rec.model()
    assert [lone_lines(d) for d in model.deals] == [["alone S"], []]
    assert replay(model).findings == []
    undone = rec.undo()  # the sheet line, and its alone line with it
    assert isinstance(undone, Sheet) and undone.alone
    assert rec.entries == [] and rec.alone() is None


def test_the_recorder_refuses_a_seat_that_may_not() -> None:
    plain = Recorder(target=10)
    with pytest.raises(IllegalActionError) as refused:
        plain.sheet("D", "N", alone="S", tricks=5, dealer="N")
    assert (refused.value.code, plain.deals) == ("A601", 0)
    assert "S goes alone, but only the maker N may" in str(refused.value)
    rec = Recorder(rules="partner-alone", target=10)
    with pytest.raises(IllegalActionError, match="A601 E goes alone"):
        rec.sheet("D", "N", alone="E", tricks=5, dealer="N")


def test_after_the_bidding_the_sheet_names_the_partner() -> None:
    rec = Recorder(rules="partner-alone", target=10)
    rec.deal(upcard="JH", dealer="N")
    rec.act(Pass(act="pass", seat=Seat.E))
    rec.act(Order(act="order", seat=Seat.S))
    rec.sheet(alone="N", tricks=5)
    deal = rec.model().deals[0]
    assert lone_lines(deal) == ["alone N"] and rec.points() == {"NS": 4}
    declared = Recorder(rules="partner-alone", target=10)
    declared.deal(upcard="JH", dealer="N")
    declared.act(Pass(act="pass", seat=Seat.E))
    declared.act(Order(act="order", seat=Seat.S))
    declared.declare(Declaration(act="alone", seat=Seat.S))
    with pytest.raises(IllegalActionError, match="A603 N goes alone, but S already"):
        declared.sheet(alone="N", tricks=5)

