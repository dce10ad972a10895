"""Hostile and careless input and a hostile world (issue 12): inputs that once raised a
traceback, names that would inject into the outputs, files that must not be lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.cli import main
from euchrelog.errors import RecordError
from euchrelog.fast import verify_json
from euchrelog.jsonio import loads_json

GAME_LINE = ('{"tags":[{"name":"Variant","value":"four-hand"}],"deals":[{"number":1,'
             '"dealer":"N"}],"end":{"act":"unfinished"}}')


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    """Invokes the CLI in-process; stdout and stderr stay apart."""
    return CliRunner().invoke(main, list(args), input=stdin)


# ------------------------------------------------------------------ the last tracebacks


HUGE = "1" * 5000
"""An integer longer than Python reads by default (4300 digits)."""


@pytest.mark.parametrize("text", [
    '{"games": [], "x": ' + HUGE + "}",
    GAME_LINE.replace('"number":1', '"number":' + HUGE),
    GAME_LINE + "\n" + GAME_LINE.replace('"number":1', '"number":' + HUGE) + "\n",
])
def test_a_json_integer_too_long_for_python_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError, match="number"):
        loads_json(text)


@pytest.mark.parametrize("command", ["check", "convert", "fmt", "score"])
def test_a_json_integer_too_long_for_python_is_a_finding(tmp_path: Path, command: str) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"games": [], "x": ' + HUGE + "}\n", encoding="utf-8")
    result = run(command, str(path))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2
    assert "S102" in result.output and "number too long" in result.output


def test_the_fast_path_leaves_deep_json_lines_to_the_full_reader(tmp_path: Path) -> None:
    assert verify_json("[" * 100_000 + "]" * 100_000) is None
    path = tmp_path / "deep.jsonl"
    path.write_text(GAME_LINE + "\n" + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    result = run("check", str(path))
    assert not isinstance(result.exception, RecursionError)
    assert result.exit_code == 2
    assert f"{path}:2:1: S102" in result.output


@pytest.mark.parametrize("size", ["²", "1²", "٣K"])
def test_a_size_in_other_digits_is_a_usage_error(tmp_path: Path, size: str) -> None:
    path = tmp_path / "a.euchre"
    path.write_text("", encoding="utf-8")
    result = run("check", "--max-file-size", size, str(path))
    assert result.exit_code == 2
    assert "is not a size" in result.stderr


EVENT = Path(__file__).parent.parent / "samples" / "events" / "legion-partners-cup"


def _event(tmp_path: Path, old: str, new: str, count: int = -1) -> Path:
    """The sample partners event with ``old`` replaced by ``new`` in round 2."""
    folder = tmp_path / "event"
    folder.mkdir()
    for source in sorted(EVENT.glob("round-*.euchre")):
        text = source.read_text(encoding="utf-8")
        if source.name == "round-2.euchre":
            text = text.replace(old, new, count)
        (folder / source.name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("old", "new", "count", "expected"), [
    ('[Round "2"]', '[Round "03"]', -1, "E964 round 2 is missing: no game has the Round tag 2"),
    ('[Round "2"]', '[Round "03"]', 1, "E964 round 2 has no game for table 1"),
    ('[Round "2"]', '[Round "²"]', 1, "E964 round ² has no game for table 2"),
    ('[Table "1"]', '[Table "²"]', 1, "E964 round 1 has no game for table ²"),
    ('[Round "2"]', '[Round "99999999999"]', -1,
     "E964 rounds 4 to 99999999998 are missing: no game has a Round tag from 4 to 99999999998"),
])
def test_rounds_and_tables_in_any_digits_are_placed_without_a_traceback(
        tmp_path: Path, old: str, new: str, count: int, expected: str) -> None:
    result = run("score", str(_event(tmp_path, old, new, count)))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1
    assert expected in result.stderr


# ------------------------------------------------------------------ strict JSON


def _exchange_game(exchange: str, number: str = "1") -> str:
    return ('{"tags":[{"name":"Variant","value":"four-hand"}],"deals":[{"number":' + number
            + ',"dealer":"N","exchange":' + exchange + '}],"end":{"act":"unfinished"}}')


@pytest.mark.parametrize("text", [
    _exchange_game('{"seat":"N","takes":"no","upcard":"JH","discard":"KD"}'),
    _exchange_game('{"seat":"N","takes":0,"upcard":"JH","discard":"KD"}'),
    _exchange_game('{"seat":"N","takes":"true","upcard":"JH","discard":"KD"}'),
    _exchange_game('{"seat":"N","takes":true,"upcard":"JH","discard":"KD"}', '"1"'),
    _exchange_game('{"seat":"N","takes":true,"upcard":"JH","discard":"KD"}', "1.0"),
    _exchange_game('{"seat":"N","takes":true,"upcard":"JH","discard":"KD"}', "true"),
    GAME_LINE.replace('"dealer":"N"}', '"dealer":"N","sheet":{"trump":"H","maker":"S",'
                                      '"alone":"yes","tricks":3}}'),
    GAME_LINE.replace('"dealer":"N"}', '"dealer":"N","sheet":{"trump":"H","maker":"S",'
                                      '"tricks":"3"}}'),
    GAME_LINE.replace('"dealer":"N"}', '"dealer":"N","sheet":{"thrown":1}}'),
])
def test_json_values_of_another_type_are_refused_not_coerced(text: str) -> None:
    with pytest.raises(RecordError, match=r"valid (boolean|integer)"):
        loads_json(text)


def test_an_exchange_that_names_the_card_taken_keeps_it(tmp_path: Path) -> None:
    text = _exchange_game('{"seat":"N","takes":false,"upcard":"JH","discard":"KD"}')
    exchange = loads_json(text).games[0].deals[0].exchange
    assert exchange is not None and exchange.takes and str(exchange.upcard) == "JH"
    path = tmp_path / "game.json"
    path.write_text(_exchange_game('{"seat":"N","takes":"no","upcard":"JH","discard":"KD"}'),
                    encoding="utf-8")
    result = run("convert", str(path), "--to", "euchre")
    assert result.exit_code == 2
    assert "discards KD" not in result.output
