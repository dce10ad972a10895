"""Hostile JSON in the readers from elsewhere (issue 23, item 4): EGN, EMN and OpenSpiel
read JSON with the notation's own limits (``json_value``), so nesting of any depth is a
finding or an error with its place, never a traceback; the OpenSpiel sniff reads the
structure of the first line; and the 4-line canadian-loner record that crashed ``check``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.check import check_text
from euchrelog.cli import main
from euchrelog.errors import RecordError
from euchrelog.interop import ConversionError, read_source
from euchrelog.interop.egn import from_egn, to_egn
from euchrelog.interop.emn import from_emn
from euchrelog.kinds import MAX_DEPTH, is_history, json_value, kind_of, too_deep
from euchrelog.models import Tag
from euchrelog.notation import loads

DEEP = 10_000
"""The depth of the deep inputs: far past Python's recursion limit."""

NESTED = {
    "egn": ("game.egn", "[" * DEEP),
    "egn-object": ("game.egn", '{"deals":' * DEEP),
    "egn-walked": ("game.egn", '{"fileType": "Euchre Game Notation", "deals": '
                   + "[" * 600 + "]" * 600 + "}"),
    "emn": ("match.emn", '{"games": [' + '{"gameData": ' * DEEP),
    "openspiel": ("histories.jsonl", '{"actions": [0, 1]}\n{"actions": '
                  + "[" * DEEP + "]" * DEEP + "}\n"),
}
"""Deep JSON for each reader from elsewhere; ``egn-walked`` is shallow enough for
``json.loads`` but was too deep for the EGN reader's own walks (from about 500 levels)."""


def run(*args: str) -> Result:
    """A command through Click's runner, exceptions left to the result."""
    return CliRunner().invoke(main, list(args))


def _no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", sorted(NESTED))
def test_deep_json_is_a_finding_of_check(tmp_path: Path, name: str) -> None:
    file, text = NESTED[name]
    path = tmp_path / file
    path.write_text(text, encoding="utf-8")
    result = run("check", str(path))
    _no_traceback(result)
    assert result.exit_code == 2
    assert "S102 the JSON is nested too deeply (more than 100 levels) at " in result.output


@pytest.mark.parametrize("name", sorted(NESTED))
def test_deep_json_is_an_error_of_convert(tmp_path: Path, name: str) -> None:
    file, text = NESTED[name]
    path = tmp_path / file
    path.write_text(text, encoding="utf-8")
    result = run("convert", str(path), "-o", str(tmp_path / "out.euchre"))
    _no_traceback(result)
    assert result.exit_code == 2
    assert "S102 the JSON is nested too deeply" in result.output
    assert not (tmp_path / "out.euchre").exists()


def test_a_history_after_a_deep_line_is_still_read() -> None:
    text = NESTED["openspiel"][1] + json.dumps({"actions": [0, *range(20), 20] + [24] * 8})
    read = read_source("openspiel", text)
    assert len(read) == 3
    assert not isinstance(read[0], ConversionError) and not isinstance(read[2], ConversionError)
    assert isinstance(read[1], ConversionError) and read[1].where == "2:0"
    assert read[1].message.endswith("nested too deeply (more than 100 levels) at column 112")


def test_the_depth_limit_is_one_for_every_json_reader() -> None:
    inside = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert json_value(inside) == json.loads(inside)
    with pytest.raises(RecordError, match=r"more than 100 levels\) at line 2, column 100"):
        json_value("[\n" + "[" * MAX_DEPTH + "]" * (MAX_DEPTH + 1))
    with pytest.raises(RecordError, match=r"levels\) at column 101$"):
        json_value("[" * DEEP)
    assert not too_deep(json.loads(inside))
    assert too_deep([json.loads(inside)])
    assert too_deep({"a": 1, "b": [1, {"c": json.loads(inside)}]})


def test_library_callers_of_the_egn_and_emn_readers_get_the_limit_too() -> None:
    deep: list[object] = []
    for _ in range(2 * MAX_DEPTH):
        deep = [deep]
    with pytest.raises(ConversionError, match="nested too deeply"):
        from_egn({"fileType": "Euchre Game Notation", "deals": deep})
    with pytest.raises(ConversionError, match="nested too deeply"):
        list(from_emn({"games": deep}))


def test_deep_json_kept_in_a_tag_is_refused_when_written_as_egn() -> None:
    game = loads('[Variant "four-hand"]\ndeal 1 dealer N\n  thrown in\nunfinished\n').games[0]
    tagged = game.model_copy(update={"tags": (*game.tags, Tag(
        name="EgnRuleset", value="[" * DEEP + "]" * DEEP))})
    with pytest.raises(ConversionError, match="nested too deeply"):
        to_egn(tagged)


# ------------------------------------------------------------------ the OpenSpiel sniff

NOT_OPENSPIEL = {
    "document": '{"format": "euchrelog", "version": 1, "actions": "none", "games": []}\n',
    "other keys": '{"actions": [0, 1, 2], "note": "not a history"}\n',
    "not numbers": '{"actions": ["deal", "bid"]}\n',
    "bad params": '{"actions": [0], "params": {"stick_the_dealer": "yes"}}\n',
}
"""JSON whose first line holds ``"actions"`` and is not a file of OpenSpiel histories."""


@pytest.mark.parametrize("name", sorted(NOT_OPENSPIEL))
def test_actions_in_the_first_line_is_not_openspiel(tmp_path: Path, name: str) -> None:
    text = NOT_OPENSPIEL[name]
    assert kind_of("x.jsonl", text) is None
    path = tmp_path / "x.jsonl"
    path.write_text(text, encoding="utf-8")
    result = run("check", str(path))
    _no_traceback(result)
    assert "actions and optional params" not in result.output
    assert f"{path}:1:" in result.output and ": S102 " in result.output


def test_an_openspiel_history_is_still_sniffed() -> None:
    line = '{"params": {"allow_lone_defender": true}, "actions": [0, 1, 2]}'
    assert kind_of("h.jsonl", line) == "openspiel"
    assert kind_of("h.jsonl", '{"actions": []}') == "openspiel"
    assert kind_of("h.jsonl", "[" * DEEP) is None
    assert kind_of("h.jsonl", '{"actions": ' + "[" * DEEP) is None
    assert not is_history({"actions": [True]})
    assert not is_history([{"actions": []}])


# ------------------------------------------------------------------ the 4-line record

FOUR_LINES = ('[Variant "four-hand"]\n[Rules "canadian-loner"]\ndeal 1 dealer N\n'
              "  bid E pass, S call S\n  1. E: AS\n")
"""Canadian-loner rules, a deal whose round-2 call is written in round 1 by the dealer's
partner, and a trick line: the replay looked for an order to place A604 at, found none, and
``check`` ended with a StopIteration."""


def test_the_four_line_canadian_loner_record_is_checked(tmp_path: Path) -> None:
    codes = [(f.code, f.line, f.column) for r in check_text(FOUR_LINES) for f in r.findings]
    assert ("B402", 4, 15) in codes and ("A604", 4, 15) in codes
    path = tmp_path / "four.euchre"
    path.write_text(FOUR_LINES, encoding="utf-8")
    result = run("check", str(path))
    _no_traceback(result)
    assert result.exit_code == 1
    assert f"{path}:4:15: A604 deal 1: S, the dealer's partner" in result.output


@pytest.mark.parametrize("field", ["title", "name"])
def test_an_emn_title_or_name_no_tag_can_hold_is_an_error_of_the_input(field: str) -> None:
    """Found by fuzz/run.py (seed 20261221, inputs 173633 and 205998): a lone surrogate in
    an EMN match's title or a player's name ended in a ValidationError."""
    match = next((Path(__file__).parent / "data" / "egn").rglob("*.emn"))
    data = json.loads(match.read_text(encoding="utf-8"))
    if field == "title":
        data["metadata"]["title"] = "x\ud800"
    else:
        data["metadata"]["players"][1]["name"] = "\ud800B"
    items = read_source("emn", json.dumps(data))
    assert items and isinstance(items[0], ConversionError)
    assert items[0].where == "$.metadata"
