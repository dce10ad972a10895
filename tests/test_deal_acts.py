"""A deal's acts after the bidding (issue 27, item 2): one home in the model, ``Deal.acts``,
and the JSON form as before, ``exchange`` and ``declarations``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from euchrelog.cli import main
from euchrelog.errors import RecordError
from euchrelog.models import Deal, Declaration, Exchange, Log, Merge
from euchrelog.notation import loads, read_games
from euchrelog.notation.jsonio import dumps_json, loads_json
from euchrelog.notation.writer import dumps
from euchrelog.replay import replay
from euchrelog.seats import Seat

LATE = """[Variant "cutthroat"]

deal 1 dealer N
  hands N: 9C TC QS KS AD  E: 9S TS AS 9D TD  S: JD AH KH QH 9H
  dummy AC KC QC JC KD
  up JH  kitty JS QD TH
  bid E pass, S pass, N order
  N merges keeps 9C TC QS KS AD
  N takes JH discards 9C  # too late

unfinished
"""
"""A cutthroat deal whose exchange is written after the merge (K501, X5)."""

TAKES = Exchange(seat=Seat.N, discard="KD")
ALONE = Declaration(act="alone", seat=Seat.S)


def test_a_late_exchange_keeps_its_place_and_is_the_deals_exchange() -> None:
    log = loads(LATE)
    deal = log.games[0].deals[0]
    merge, exchange = deal.acts
    assert isinstance(merge, Merge) and isinstance(exchange, Exchange)
    assert deal.exchange is exchange and deal.merge is merge and deal.late_exchange
    assert deal.declarations == ()
    assert dumps(log) == LATE
    form = json.loads(dumps_json(log))["games"][0]["deals"][0]
    assert "exchange" not in form and "acts" not in form
    assert form["declarations"] == [
        {"act": "merge", "seat": "N", "keeps": ["9C", "TC", "QS", "KS", "AD"]},
        {"note": "too late", "seat": "N", "takes": True, "upcard": "JH", "discard": "9C"}]
    assert loads_json(dumps_json(log)) == log
    assert loads_json(dumps_json(log, lines=True)) == log
    assert dumps(loads_json(dumps_json(log))) == LATE
    item = next(iter(read_games(LATE.splitlines(keepends=True))))
    assert item.parsed is not None
    assert [(f.code, f.line, f.column) for f in replay(item).findings] == [("K501", 9, 3)]


def test_the_exchange_comes_first_unless_written_after_the_merge() -> None:
    deal = Deal(number=1, dealer=Seat.N, acts=(ALONE, TAKES))
    assert deal.acts == (TAKES, ALONE) and not deal.late_exchange
    assert deal.exchange is TAKES and deal.declarations == (ALONE,) and deal.merge is None
    assert deal.model_dump(mode="json", exclude_defaults=True) == {
        "number": 1, "dealer": "N", "exchange": {"seat": "N", "discard": "KD"},
        "declarations": [{"act": "alone", "seat": "S"}]}
    assert Deal.model_validate(deal.model_dump()) == deal
    empty = Deal(number=1, dealer=Seat.N).model_dump()
    assert empty["exchange"] is None and empty["declarations"] == () and "acts" not in empty
    assert list(empty).index("exchange") == list(empty).index("bidding") + 1
    assert "exchange" not in Deal(number=1, dealer=Seat.N).model_dump(exclude_none=True)


@pytest.mark.parametrize(("deal", "message"), [
    ({"acts": [], "exchange": {"seat": "N"}}, "not both"),
    ({"exchange": {"seat": "X"}}, r"^deal 1, exchange, seat: not a seat"),
    ({"exchange": {"act": "alone", "seat": "N"}}, r"^deal 1, exchange, act: expected "),
    ({"exchange": {"seat": "N"}, "declarations": [{"act": "defend", "seat": "Q"}]},
     r"^deal 1, declaration 1, seat: not a seat"),
    ({"declarations": [{"seat": "N"}, {"act": "merge", "seat": "N"}]}, "after the merge"),
    ({"declarations": [{"act": "alone", "seat": "N"}, {"seat": "N"}]}, "after the merge"),
])
def test_json_errors_name_the_json_form(deal: dict[str, object], message: str) -> None:
    text = json.dumps({"tags": [{"name": "Variant", "value": "cutthroat"}],
                       "deals": [{"number": 1, "dealer": "N", **deal}]})
    with pytest.raises(RecordError, match=message):
        loads_json(text)


def test_the_schema_describes_the_json_form() -> None:
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    deal = json.loads(result.stdout)["$defs"]["Deal"]["properties"]
    assert "acts" not in deal
    names = list(deal)
    assert names[names.index("bidding") + 1:names.index("sheet")] == ["exchange",
                                                                       "declarations"]
    assert deal["exchange"] == {"anyOf": [{"$ref": "#/$defs/Exchange"}, {"type": "null"}],
                                "default": None}
    assert deal["declarations"]["title"] == "Declarations"
    assert Log.model_json_schema() == json.loads(result.stdout)
