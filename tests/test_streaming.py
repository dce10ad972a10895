"""`check` and `convert` read game by game; `check` runs in parallel when asked and keeps
the input order; the streamed output is the whole output."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchrelog import checker
from euchrelog.cli import main
from euchrelog.generate import random_game
from euchrelog.models import Log, log_items
from euchrelog.notation import iter_log, loads, text_lines
from euchrelog.notation.jsonio import dumps_json, iter_json_log, write_json
from euchrelog.notation.writer import dumps, dumps_game, write_log
from euchrelog.runs import Batching

ROOT = Path(__file__).resolve().parents[1]
INVALID = sorted((ROOT / "samples" / "invalid").glob("*.euchre"))


def test_parallel_output_is_the_sequential_output(tmp_path: Path) -> None:
    # Many games with findings and syntax errors, in one file.
    big = tmp_path / "all.euchre"
    big.write_text("\n".join(p.read_text(encoding="utf-8") for p in INVALID), encoding="utf-8")
    runner = CliRunner()
    one = runner.invoke(main, ["check", "--jobs", "1", str(big)])
    two = runner.invoke(main, ["check", "--jobs", "2", str(big)])
    assert one.exit_code == two.exit_code == 2
    assert one.stdout == two.stdout and one.stdout.count("\n") >= len(INVALID)
    assert one.stderr == two.stderr


def test_bad_bytes_midway_keep_what_came_before(tmp_path: Path) -> None:
    good = (ROOT / "samples" / "invalid" / "C901-points-differ.euchre").read_bytes()
    path = tmp_path / "mixed.euchre"
    path.write_bytes(good + b"\n[Event \"x\"]\ndeal 1 dealer N\n  thrown \xff in\n")
    result = subprocess.run([sys.executable, "-m", "euchrelog", "check", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[1] for line in lines] == ["C901", "S101"]
    bad_line = good.count(b"\n") + 4
    assert lines[1].startswith(f"{path}:{bad_line}:10: S101 the file is not UTF-8")


def test_json_lines_are_read_line_by_line(tmp_path: Path) -> None:
    runner = CliRunner()
    sample = ROOT / "samples" / "valid" / "several-games.euchre"
    lines = runner.invoke(main, ["convert", str(sample), "--to", "jsonl"]).stdout
    path = tmp_path / "games.jsonl"
    path.write_text(lines.replace("\n", "\n\n", 1) + "not json\n", encoding="utf-8")
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stdout.startswith(f"{path}:5:2: S102 not JSON: expected ident")


VALID = sorted((ROOT / "samples" / "valid").glob("*.euchre"))


def _logs() -> list[Log]:
    logs = [loads(p.read_text(encoding="utf-8")) for p in VALID]
    logs += [Log(), Log(comments=("only", "", "comments"))]
    logs += [Log(games=tuple(random_game(random.Random(k)) for _ in range(k))) for k in range(4)]
    return logs


@pytest.mark.parametrize("lines", [False, True], ids=["document", "lines"])
def test_streamed_json_is_the_whole_json(lines: bool) -> None:
    for log in _logs():
        out = io.StringIO()
        write_json(log_items(log), out, lines=lines)
        assert out.getvalue() == dumps_json(log, lines=lines)
        if not lines:
            assert tuple(iter_json_log(io.StringIO(out.getvalue()))) == log_items(log)


def test_streamed_notation_is_the_whole_notation() -> None:
    for log in _logs():
        out = io.StringIO()
        write_log(log_items(log), out)
        assert out.getvalue() == dumps(log)
        assert tuple(iter_log(text_lines(out.getvalue()))) == log_items(log)


def test_convert_streams_and_writes_nothing_on_a_late_error(tmp_path: Path) -> None:
    sample = (ROOT / "samples" / "valid" / "several-games.euchre").read_text(encoding="utf-8")
    source = tmp_path / "late.euchre"
    source.write_text(sample + '\n[Event "x"]\ndeal 1 dealer Q\n', encoding="utf-8")
    target = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["convert", str(source), "-o", str(target)])
    assert result.exit_code == 2 and "S101" in result.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == [source]


def test_convert_reads_game_by_game() -> None:
    """The reader holds one game back (the comments after the last game belong to it), so
a million games cost no more memory than two."""
    games = (random_game(random.Random(k)) for k in range(6))
    text = "\n".join(dumps_game(g) for g in games)
    pulled: list[int] = []

    def lines() -> Iterator[str]:
        for number, line in enumerate(text_lines(text), 1):
            pulled.append(number)
            yield line
    stream = iter_log(lines())
    next(stream)
    assert len(pulled) < len(text_lines(text)) // 2  # games 1 and 2 of 6


@pytest.mark.parametrize("size", [1, 7, 60])
def test_batches_are_cut_between_games(size: int, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """With --jobs the games go to the processes in batches cut where a game starts (above
    the comments over its first tag): whatever the batch size, the output is the output of
    one process, with the same game numbers and lines."""
    monkeypatch.setattr(checker, "BY_LINES", Batching(checker.lines_of, size))
    texts = [p.read_text(encoding="utf-8") for p in (*INVALID, *VALID)]
    big = tmp_path / "all.euchre"
    big.write_text("\n# between games\n\n".join(texts), encoding="utf-8")
    runner = CliRunner()
    for args in (["--format", "json"], []):
        one = runner.invoke(main, ["check", *args, "--jobs", "1", str(big)])
        two = runner.invoke(main, ["check", *args, "--jobs", "2", str(big)])
        assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr)
        assert one.stdout.count("\n") >= len(INVALID) - 2  # S103, S104 need their limits


def test_json_lines_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checker, "BY_LINES", Batching(checker.lines_of, 3))
    runner = CliRunner()
    lines = "".join(runner.invoke(main, ["convert", str(p), "--to", "jsonl"]).stdout
                    for p in VALID)
    path = tmp_path / "games.jsonl"
    path.write_text(lines + "\n{\"tags\": 1}\n" + lines, encoding="utf-8")
    one = runner.invoke(main, ["check", "--jobs", "1", str(path)])
    two = runner.invoke(main, ["check", "--jobs", "2", str(path)])
    assert one.exit_code == two.exit_code == 2
    assert one.stdout == two.stdout and "S102" in one.stdout
    assert one.stderr == two.stderr


def test_bad_bytes_midway_in_parallel(tmp_path: Path) -> None:
    good = (ROOT / "samples" / "invalid" / "C901-points-differ.euchre").read_bytes()
    path = tmp_path / "mixed.euchre"
    path.write_bytes(good + b"\n[Event \"x\"]\ndeal 1 dealer N\n  thrown \xff in\n" + good)
    runner = CliRunner()
    one = runner.invoke(main, ["check", "--jobs", "1", str(path)])
    two = runner.invoke(main, ["check", "--jobs", "2", str(path)])
    assert one.exit_code == two.exit_code == 2
    assert one.stdout == two.stdout
    assert [line.split()[1] for line in one.stdout.splitlines()] == ["C901", "S101"]


def test_an_empty_json_object_is_an_empty_log_everywhere(tmp_path: Path) -> None:
    """`{}` is a JSON document with no game: `check` and `convert` read it alike (check
    took it for one game of JSON Lines and reported S102)."""
    path = tmp_path / "empty.json"
    path.write_text("{}\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and "0 games" in result.stderr
    assert runner.invoke(main, ["convert", str(path)]).exit_code == 0
    assert list(iter_json_log(["{}\n"])) == []
