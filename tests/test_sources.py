"""The one way in (:mod:`euchrelog.sources`): what a source holds is decided once, by one
rule, so every command reads the same file the same way, and games are numbered from 1
in every output; and the one runner (:mod:`euchrelog.runs`) gives the same output here,
in processes, and in batches of any size."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchrelog.cli import main
from euchrelog.files import Limits
from euchrelog.runs import Batching, ordered_map
from euchrelog.sources import (
    EMPTY,
    JSON_DOCUMENT,
    JSON_LINES,
    NOTATION,
    line_chunks,
    open_source,
    text_source,
)

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "valid" / "four-hand-24-club-night.euchre"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.stderr, result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("text", "kind"), [
    ('[Event "x"]\n', NOTATION), ("\n\n  # a comment\n", NOTATION), ("", EMPTY),
    ("\n  \n", EMPTY), ('{"tags": []}\n', JSON_LINES), ('{\n "games": []}\n', JSON_DOCUMENT),
    ('{"games": []}\n', JSON_DOCUMENT), ("\ufeff[Event \"x\"]\n", NOTATION)])
def test_the_kind_of_a_source_is_told_by_its_content(text: str, kind: str,
                                                      tmp_path: Path) -> None:
    for name in ("a.euchre", "a.json", "a.jsonl", "a.txt"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert open_source(str(path), Limits()).kind == kind
        assert text_source(text, name).kind == kind


def test_a_format_from_elsewhere_is_told_by_its_extension_or_start(tmp_path: Path) -> None:
    egn = tmp_path / "final.egn"
    egn.write_text('{"fileType": "Euchre Game Notation"}', encoding="utf-8")
    assert open_source(str(egn), Limits()).kind == "egn"
    named = tmp_path / "final.json"
    shutil.copy(egn, named)
    assert open_source(str(named), Limits()).kind == "egn"
    assert text_source('{"actions": [1, 2]}\n').kind == "openspiel"


def test_games_are_numbered_from_one_with_their_lines() -> None:
    text = CLUB.read_text(encoding="utf-8")
    chunks = list(line_chunks([line + "\n" for line in (text + "\n" + text).split("\n")]))
    assert [c.index for c in chunks] == [1, 2]
    assert chunks[0].first_line == 1 and chunks[1].first_line > 1


def test_a_notation_file_named_json_is_read_alike_by_every_command(tmp_path: Path) -> None:
    """A record of notation saved as ``game.json`` is notation to every command (before,
    ``check``, ``stats`` and ``view`` read it and ``convert``, ``analyze`` and
    ``fmt --check`` refused it as JSON, S102)."""
    named = tmp_path / "game.json"
    shutil.copy(CLUB, named)
    plain = tmp_path / "game.euchre"
    shutil.copy(CLUB, plain)
    commands = [["check"], ["stats"], ["convert", "--to", "jsonl"], ["analyze", "--no-par"],
                ["fmt", "--check"], ["score"], ["view", "-o", str(tmp_path / "out.html")]]
    for command in commands:
        code, out, err = _run(*command, str(named))
        assert code in (0, 1), (command, err)
        assert "S102" not in out + err, (command, out + err)
        again = _run(*command, str(plain))
        assert (code, out.replace(str(named), "X")) == (again[0], again[1].replace(
            str(plain), "X")), command


def test_game_numbers_start_at_one_in_every_json_output(tmp_path: Path) -> None:
    source = tmp_path / "two.euchre"
    text = CLUB.read_text(encoding="utf-8")
    source.write_text(text + "\n" + text, encoding="utf-8")
    _, out, _ = _run("analyze", "--no-par", "--format", "json", str(source))
    assert {json.loads(line)["game"] for line in out.splitlines()} == {1, 2}
    bad = tmp_path / "bad.euchre"
    bad.write_text(text.replace("points", "pints", 1) + "\n" + text, encoding="utf-8")
    _, out, _ = _run("check", "--format", "json", str(bad))
    assert {json.loads(line)["game"] for line in out.splitlines()} == {1}


@pytest.mark.parametrize("size", [1, 3, 100])
def test_the_runner_keeps_the_order_in_processes_and_batches(size: int) -> None:
    items = list(range(-40, 40))
    here = list(ordered_map(abs, items))
    assert list(ordered_map(abs, items, jobs=2, batching=Batching(lambda n: 1, size))) == here
    assert [r for _, r in here] == [abs(n) for n in items]


def test_the_runner_gives_what_came_before_a_fault_first() -> None:
    def items() -> Iterator[int]:
        yield from (1, 2, 3)
        raise ValueError("stop")

    got: list[int] = []
    with pytest.raises(ValueError, match="stop"):
        for _, result in ordered_map(abs, items(), jobs=2, batching=Batching(lambda n: 1, 2)):
            got.append(result)
    assert got == [1, 2, 3]
