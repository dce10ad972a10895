"""The command line: check, convert, fmt and schema, through Click's test runner and, for
exit statuses and the absence of tracebacks, through ``python -m euchrelog``."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from euchrelog import progress
from euchrelog.cli import main
from euchrelog.cli.formats import use_colour
from euchrelog.findings import CODES
from euchrelog.notation import loads
from euchrelog.notation.jsonio import loads_json
from euchrelog.notation.writer import dumps

# A clean, canonical game: W orders hearts, N picks up, EW make 4 tricks (Target 1).
CLEAN = """\
[Event "Tuesday League"]
[Variant "four-hand"]
[Target "1"]
[N "Ann"]
[E "Bob"]
[S "Cy"]
[W "Dee"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD JS TH
  bid E pass, S pass, W order
  N takes JH discards KD
  1. E: AD  S: 9D  W: 9H  N: JC
  2. W: JD  N: JH  E: 9C  S: 9S
  3. N: AC  E: TC  S: TD  W: AH
  4. W: KH  N: KC  E: QS  S: TS
  5. W: QH  N: QC  E: KS  S: AS
  points EW 1  total NS 0 EW 1

result NS 0 EW 1 winner EW
"""

# The same game with a wrong result line: one G952 finding on that line.
WRONG_RESULT = CLEAN.replace("result NS 0 EW 1", "result NS 0 EW 2")
WRONG_RESULT_LINE = CLEAN.splitlines().index("result NS 0 EW 1 winner EW") + 1
WRONG_RESULT_COLUMN = 13  # the wrong score, EW 2

# The same game with a card that is not a card (1C) in trick 3.
BAD_CARD = CLEAN.replace("E: TC  S: TD", "E: 1C  S: TD")
BAD_CARD_LINE = next(n for n, line in enumerate(BAD_CARD.splitlines(), 1) if "1C" in line)
BAD_CARD_COLUMN = BAD_CARD.splitlines()[BAD_CARD_LINE - 1].index("1C") + 1

# The same game written loosely: lower case, 10 for T, one space between hands.
LOOSE = (CLEAN.replace("E: AD  S: 9D", "e: ad  s: 9d")
         .replace("3. N: AC  E: TC", "3. N: AC  E: 10C")
         .replace("QH 9H  N: AC", "QH 9H N: AC"))

FINDING_RE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]\d{3}) \S.*$")


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    """Invokes the CLI in-process; stdout and stderr stay apart (Click 8.2+)."""
    return CliRunner().invoke(main, list(args), input=stdin)


def write(folder: Path, name: str, text: str) -> Path:
    """Writes a UTF-8 file and returns its path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


def run_module(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m euchrelog`` in a subprocess; output is decoded leniently."""
    proc = subprocess.run([sys.executable, "-m", "euchrelog", *args], input=stdin,
                          capture_output=True, check=False, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


# ------------------------------------------------------------------ check


def test_check_clean_file_exits_0_with_summary_on_stderr(tmp_path: Path) -> None:
    path = write(tmp_path, "clean.euchre", CLEAN)
    result = run("check", str(path))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr.strip() == "checked 1 file, 1 game, 1 deal: all clean"


def test_check_findings_exit_1_in_path_line_col_format(tmp_path: Path) -> None:
    path = write(tmp_path, "wrong.euchre", WRONG_RESULT)
    result = run("check", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    m = FINDING_RE.match(lines[0])
    assert m is not None, lines[0]
    assert (m["path"], int(m["line"]), int(m["column"]), m["code"]) == (
        str(path), WRONG_RESULT_LINE, WRONG_RESULT_COLUMN, "G952")
    assert "NS 0 EW 1" in lines[0]
    assert result.stderr.strip() == "checked 1 file, 1 game, 1 deal: 1 finding in 1 file"


def test_check_quiet_prints_no_summary(tmp_path: Path) -> None:
    path = write(tmp_path, "wrong.euchre", WRONG_RESULT)
    result = run("check", "--quiet", str(path))
    assert result.exit_code == 1
    assert result.stderr == ""
    assert result.stdout.count("G952") == 1


def test_check_syntax_error_exits_2_with_caret_and_goes_on(tmp_path: Path) -> None:
    # Two games in one file: a syntax error in the first, a wrong result in the second.
    path = write(tmp_path, "two.euchre", BAD_CARD + "\n" + WRONG_RESULT)
    second_offset = BAD_CARD.count("\n") + 1
    result = run("check", str(path))
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{path}:{BAD_CARD_LINE}:{BAD_CARD_COLUMN}: S101 "
                        "expected a card like 9H, TS or ??, found '1C'; "
                        f"line {BAD_CARD_LINE} is skipped, the rest is checked")
    source = BAD_CARD.splitlines()[BAD_CARD_LINE - 1]
    assert lines[1] == "    " + source
    assert lines[2] == "    " + " " * (BAD_CARD_COLUMN - 1) + "^"
    assert lines[1][lines[2].index("^"):].startswith("1C")
    m = FINDING_RE.match(lines[3])
    assert m is not None and m["code"] == "G952"
    assert int(m["line"]) == second_offset + WRONG_RESULT_LINE
    assert len(lines) == 4
    assert result.stderr.strip() == (
        "checked 1 file, 2 games, 2 deals: 2 findings in 1 file (1 syntax error)")


def test_check_format_json_prints_one_object_per_line(tmp_path: Path) -> None:
    path = write(tmp_path, "two.euchre", BAD_CARD + "\n" + WRONG_RESULT)
    result = run("check", "--format", "json", str(path))
    assert result.exit_code == 2
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["code"], r["game"]) for r in rows] == [("S101", 1), ("G952", 2)]
    first = rows[0]
    assert (first["path"], first["line"], first["column"]) == (
        str(path), BAD_CARD_LINE, BAD_CARD_COLUMN)
    assert first["name"] == "syntax-error" and first["severity"] == "error"
    assert set(first) >= {"path", "line", "column", "code", "name", "severity", "message",
                          "game", "deal", "trick", "seat"}


def test_check_folder_recurses_into_euchre_files(tmp_path: Path) -> None:
    write(tmp_path, "a/clean.euchre", CLEAN)
    wrong = write(tmp_path, "a/b/c/wrong.euchre", WRONG_RESULT)
    write(tmp_path, "a/notes.txt", "not a record\n")
    write(tmp_path, "a/b/broken.euchre.bak", BAD_CARD)
    result = run("check", str(tmp_path / "a"))
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [str(wrong)]
    assert result.stderr.strip().startswith("checked 2 files, 2 games, 2 deals:")


def test_check_stdin(tmp_path: Path) -> None:
    result = run("check", "-", stdin=WRONG_RESULT)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"<stdin>:{WRONG_RESULT_LINE}:{WRONG_RESULT_COLUMN}: G952 ")
    clean = run("check", "-", stdin=CLEAN)
    assert clean.exit_code == 0 and clean.stdout == ""


def test_check_json_lines_input(tmp_path: Path) -> None:
    jsonl = run("convert", "--to", "jsonl", str(write(tmp_path, "w.euchre", WRONG_RESULT)))
    path = write(tmp_path, "w.jsonl", jsonl.stdout)
    result = run("check", "--quiet", str(path))
    assert result.exit_code == 1
    assert " G952 " in result.stdout


def test_check_non_utf8_exits_2_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "latin1.euchre"
    path.write_bytes(CLEAN.replace("Dee", "D\u00e9").encode("latin-1"))
    result = run("check", str(path))
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stdout + result.stderr
    m = FINDING_RE.match(result.stdout.splitlines()[0])
    assert m is not None and m["code"] == "S101"
    assert (int(m["line"]), int(m["column"])) == (7, 6)
    assert "UTF-8" in result.stdout


def test_check_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = run("check", str(tmp_path / "nope.euchre"))
    assert result.exit_code == 2
    assert "Traceback" not in result.stdout + result.stderr


# ------------------------------------------------------------------ convert


def test_convert_to_json_document(tmp_path: Path) -> None:
    path = write(tmp_path, "g.euchre", CLEAN)
    result = run("convert", "--to", "json", str(path))
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["format"] == "euchrelog" and data["version"] == 1
    assert len(data["games"]) == 1
    assert loads_json(result.stdout) == loads(CLEAN)


def test_convert_notation_defaults_to_json(tmp_path: Path) -> None:
    path = write(tmp_path, "g.euchre", CLEAN)
    assert run("convert", str(path)).stdout == run("convert", "--to", "json", str(path)).stdout


def test_convert_to_json_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "g.euchre", CLEAN + "\n" + WRONG_RESULT)
    result = run("convert", "--to", "jsonl", str(path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert all(isinstance(json.loads(line), dict) for line in lines)
    assert loads_json(result.stdout) == loads(CLEAN + "\n" + WRONG_RESULT)


def test_convert_json_back_to_notation(tmp_path: Path) -> None:
    document = run("convert", "--to", "json", str(write(tmp_path, "g.euchre", LOOSE))).stdout
    json_path = write(tmp_path, "g.json", document)
    by_default = run("convert", str(json_path))
    assert by_default.exit_code == 0
    assert by_default.stdout == CLEAN  # canonical form
    assert run("convert", "--to", "euchre", str(json_path)).stdout == CLEAN


def test_convert_json_from_stdin_defaults_to_notation(tmp_path: Path) -> None:
    document = run("convert", "--to", "json", str(write(tmp_path, "g.euchre", CLEAN))).stdout
    result = run("convert", "-", stdin=document)
    assert result.exit_code == 0
    assert result.stdout == CLEAN


@pytest.mark.parametrize(("suffix", "kind"), [(".json", "json"), (".jsonl", "jsonl"),
                                              (".euchre", "euchre")])
def test_convert_by_output_extension(tmp_path: Path, suffix: str, kind: str) -> None:
    source = write(tmp_path, "in.euchre", LOOSE)
    output = tmp_path / f"out{suffix}"
    result = run("convert", str(source), "-o", str(output))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    text = output.read_text(encoding="utf-8")
    if kind == "euchre":
        assert text == CLEAN
    elif kind == "json":
        assert json.loads(text)["format"] == "euchrelog"
    else:
        assert len(text.splitlines()) == 1 and "format" not in json.loads(text)
    assert (loads(text) if kind == "euchre" else loads_json(text)) == loads(CLEAN)


@pytest.mark.parametrize("name", ["g.euchre", "g.json"])
def test_convert_refuses_to_overwrite_its_input(tmp_path: Path, name: str) -> None:
    text = CLEAN if name.endswith(".euchre") else run(
        "convert", str(write(tmp_path, "src.euchre", CLEAN))).stdout
    path = write(tmp_path, name, text)
    result = run("convert", str(path), "-o", str(path))
    assert result.exit_code == 2
    assert "input" in result.stderr
    assert path.read_text(encoding="utf-8") == text


def test_convert_syntax_error_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.euchre", BAD_CARD)
    result = run("convert", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"{path}:{BAD_CARD_LINE}:{BAD_CARD_COLUMN}: S101" in result.stderr


# ------------------------------------------------------------------ fmt


def test_fmt_prints_canonical_text(tmp_path: Path) -> None:
    path = write(tmp_path, "loose.euchre", LOOSE)
    result = run("fmt", str(path))
    assert result.exit_code == 0
    assert result.stdout == CLEAN
    assert result.stdout == dumps(loads(LOOSE))
    assert path.read_text(encoding="utf-8") == LOOSE  # untouched


def test_fmt_stdin() -> None:
    result = run("fmt", "-", stdin=LOOSE)
    assert result.exit_code == 0
    assert result.stdout == CLEAN


def test_fmt_check(tmp_path: Path) -> None:
    canonical = write(tmp_path, "canonical.euchre", CLEAN)
    loose = write(tmp_path, "loose.euchre", LOOSE)
    ok = run("fmt", "--check", str(canonical))
    assert ok.exit_code == 0
    assert ok.stdout == ""
    bad = run("fmt", "--check", str(loose))
    assert bad.exit_code == 1
    assert bad.stdout == ""
    assert f"would reformat {loose}" in bad.stderr
    assert loose.read_text(encoding="utf-8") == LOOSE  # --check writes nothing
    both = run("fmt", "--check", str(tmp_path))
    assert both.exit_code == 1
    assert "2 files: 1 canonical, 1 not canonical" in both.stderr


def test_fmt_in_place(tmp_path: Path) -> None:
    loose = write(tmp_path, "loose.euchre", LOOSE)
    canonical = write(tmp_path, "canonical.euchre", CLEAN)
    before = canonical.stat().st_mtime_ns
    result = run("fmt", "--in-place", str(loose), str(canonical))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert loose.read_text(encoding="utf-8") == CLEAN
    assert canonical.read_text(encoding="utf-8") == CLEAN
    assert canonical.stat().st_mtime_ns == before  # a canonical file is not rewritten
    assert run("fmt", "--check", str(loose)).exit_code == 0


def test_fmt_in_place_and_check_do_not_go_together(tmp_path: Path) -> None:
    path = write(tmp_path, "g.euchre", LOOSE)
    result = run("fmt", "--in-place", "--check", str(path))
    assert result.exit_code == 2
    assert path.read_text(encoding="utf-8") == LOOSE


def test_fmt_syntax_error_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.euchre", BAD_CARD)
    result = run("fmt", str(path))
    assert result.exit_code == 2
    assert f"{path}:{BAD_CARD_LINE}:{BAD_CARD_COLUMN}: S101" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


# ------------------------------------------------------------------ schema


def test_schema_prints_valid_json() -> None:
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["type"] == "object"
    assert "games" in schema["properties"]
    assert "Game" in schema["$defs"]


# ------------------------------------------------------------------ python -m euchrelog


def test_module_exit_codes(tmp_path: Path) -> None:
    clean = write(tmp_path, "clean.euchre", CLEAN)
    wrong = write(tmp_path, "wrong.euchre", WRONG_RESULT)
    bad = write(tmp_path, "bad.euchre", BAD_CARD)
    for path, status in ((clean, 0), (wrong, 1), (bad, 2)):
        proc = run_module("check", str(path))
        assert proc.returncode == status, proc.stdout + proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr
    proc = run_module("check", "-", stdin=WRONG_RESULT.encode("utf-8"))
    assert proc.returncode == 1
    assert proc.stdout.startswith("<stdin>:")


@pytest.mark.parametrize("command", [["check"], ["fmt"], ["fmt", "--check"], ["convert"]])
def test_module_non_utf8_never_prints_a_traceback(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "binary.euchre"
    path.write_bytes(b'[Event "x"]\n\xff\xfe\x00garbage\n')
    proc = run_module(*command, str(path))
    assert proc.returncode == 2
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output
    assert "UTF-8" in output


def test_module_usage_error_exits_2(tmp_path: Path) -> None:
    proc = run_module("check", "--format", "xml", str(write(tmp_path, "g.euchre", CLEAN)))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr


# ------------------------------------------------------------------ pipes


def _read_one_line_and_close(*args: str) -> tuple[int, str]:
    """Runs ``python -m euchrelog`` into a pipe that is closed after one line, as ``| head -1``
    does; returns the exit status and what went to stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "euchrelog", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    return proc.wait(timeout=120), stderr


@pytest.mark.parametrize(("command", "status"), [
    (["check", "-q"], 1), (["check"], 1), (["convert"], 0), (["convert", "--to", "jsonl"], 0),
    (["fmt"], 0)])
def test_a_closed_pipe_ends_quietly(command: list[str], status: int, tmp_path: Path) -> None:
    many = write(tmp_path, "many.euchre", "\n".join([WRONG_RESULT] * 1500))
    other = write(tmp_path, "other.euchre", WRONG_RESULT)
    sources = [str(many)] if command[0] == "convert" else [str(many), str(other)]
    code, stderr = _read_one_line_and_close(*command, *sources)
    assert (code, stderr) == (status, "")


def test_output_dash_is_standard_output(tmp_path: Path) -> None:
    path = write(tmp_path, "g.euchre", CLEAN)
    result = run("convert", str(path), "-o", "-")
    assert result.exit_code == 0
    assert loads_json(result.stdout) == loads(CLEAN)
    assert not (tmp_path / "-").exists()


def test_convert_several_sources_into_one_output(tmp_path: Path) -> None:
    one = write(tmp_path, "one.euchre", CLEAN)
    two = write(tmp_path, "two.euchre", WRONG_RESULT)
    result = run("convert", str(one), str(two), "-o", str(tmp_path / "both.jsonl"))
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "both.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    result = run("convert", str(tmp_path / "both.jsonl"), str(one), "--to", "euchre")
    assert result.stdout == "\n".join([CLEAN, WRONG_RESULT, CLEAN])
    result = run("convert", str(one), str(two))
    assert [g.tags for g in loads_json(result.stdout).games] == [
        g.tags for g in loads(CLEAN + "\n" + WRONG_RESULT).games]


def test_convert_into_a_folder(tmp_path: Path) -> None:
    one = write(tmp_path, "one.euchre", CLEAN)
    two = write(tmp_path, "sub/two.euchre", WRONG_RESULT)
    result = run("convert", str(one), str(two), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert loads_json((tmp_path / "out" / "one.json").read_text(encoding="utf-8")) == loads(CLEAN)
    assert (tmp_path / "out" / "two.json").is_file()
    assert result.stderr.splitlines() == [f"{one} -> {tmp_path / 'out' / 'one.json'}",
                                          f"{two} -> {tmp_path / 'out' / 'two.json'}"]
    result = run("convert", "-q", str(tmp_path / "out" / "one.json"), "--out-dir",
                 str(tmp_path / "back"))
    assert (result.exit_code, result.stderr) == (0, "")
    assert (tmp_path / "back" / "one.euchre").read_text(encoding="utf-8") == CLEAN


@pytest.mark.parametrize(("args", "message"), [
    (["-o", "x.json", "--out-dir", "out"], "--output and --out-dir do not go together"),
    (["-", "--out-dir", "out"], "standard input has no name"),
    (["sub/one.euchre", "--out-dir", "out"], "two sources would be written to one.*"),
])
def test_convert_usage_errors(args: list[str], message: str, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "one.euchre", CLEAN)
    write(tmp_path, "sub/one.euchre", CLEAN)
    result = run("convert", "one.euchre", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_fmt_diff_shows_the_change_and_writes_nothing(tmp_path: Path) -> None:
    loose = write(tmp_path, "loose.euchre", LOOSE)
    clean = write(tmp_path, "clean.euchre", CLEAN)
    result = run("fmt", "--diff", str(loose), str(clean))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"--- {loose}\n+++ {loose}\n@@ ")
    assert "-  1. e: ad  s: 9d  W: 9H  N: JC" in result.stdout
    assert "+  1. E: AD  S: 9D  W: 9H  N: JC" in result.stdout
    assert result.stderr == f"would reformat {loose}\n2 files: 1 canonical, 1 not canonical\n"
    assert loose.read_text(encoding="utf-8") == LOOSE
    assert run("fmt", "--diff", str(clean)).stdout == ""


def test_fmt_quiet(tmp_path: Path) -> None:
    loose = write(tmp_path, "loose.euchre", LOOSE)
    assert (run("fmt", "--check", "-q", str(loose)).stderr, run("fmt", "-q", "-i", str(loose))
            .stderr) == ("", "")
    assert loose.read_text(encoding="utf-8") == CLEAN
    result = run("fmt", "-q", "--check", str(write(tmp_path, "bad.euchre", BAD_CARD)))
    assert result.exit_code == 2
    assert "S101" in result.stderr


# ------------------------------------------------------------------ linter habits

# The README's record: a renege (R801, line 10) and wrong points (C901, line 15).
CLUB = """\
[Event "Club night"]
[Variant "four-hand"]
[Target "2"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards KD
  1. E: AD  S: 9S  W: 9H  N: AC
  2. W: JD  N: JH  E: 9C  S: 9D
  3. N: KC  E: TC  S: TD  W: AH
  4. W: KH  N: QC  E: QS  S: TS
  5. W: QH  N: JC  E: KS  S: AS
  points NS 1

result NS 0 EW 2 winner EW
"""


def _codes(result: Result) -> list[str]:
    return [FINDING_RE.match(line)["code"] for line in result.stdout.splitlines()  # type: ignore[index]
            if FINDING_RE.match(line)]


@pytest.mark.parametrize(("args", "codes", "status"), [
    ([], ["R801", "C901"], 1),
    (["--select", "R"], ["R801"], 1),
    (["--select", "r801,C9"], ["R801", "C901"], 1),
    (["--ignore", "R8", "--ignore", "C901"], [], 0),
    (["--select", "R", "--ignore", "R801"], [], 0),
    (["--exit-zero"], ["R801", "C901"], 0),
])
def test_select_ignore_and_exit_zero(args: list[str], codes: list[str], status: int,
                                     tmp_path: Path) -> None:
    result = run("check", *args, str(write(tmp_path, "club.euchre", CLUB)))
    assert (_codes(result), result.exit_code) == (codes, status)


def test_syntax_errors_are_never_selected_away(tmp_path: Path) -> None:
    result = run("check", "--select", "R801", "--exit-zero", str(write(tmp_path, "bad.euchre",
                                                                     BAD_CARD)))
    assert (_codes(result), result.exit_code) == (["S101"], 2)
    result = run("check", "--ignore", "Z9", str(tmp_path / "bad.euchre"))
    assert result.exit_code == 2
    assert "'Z9' is no finding code nor the start of one" in result.stderr


def test_noqa_comment_suppresses_a_finding_on_its_line(tmp_path: Path) -> None:
    one = CLUB.replace("  points NS 1\n", "  points NS 1  # noqa: C901\n")
    assert _codes(run("check", str(write(tmp_path, "one.euchre", one)))) == ["R801"]
    other = CLUB.replace("  points NS 1\n", "  points NS 1  # noqa: R801\n")
    assert _codes(run("check", str(write(tmp_path, "other.euchre", other)))) == ["R801", "C901"]
    both = CLUB.replace("N: AC\n", "N: AC  # noqa\n").replace("NS 1\n", "NS 1  # NOQA:C901\n")
    result = run("check", str(write(tmp_path, "both.euchre", both)))
    assert (_codes(result), result.exit_code) == ([], 0)
    assert loads(both).games[0].deals[0].tricks[0].note == "noqa"


def test_statistics_count_each_code(tmp_path: Path) -> None:
    club = write(tmp_path, "club.euchre", CLUB)
    result = run("check", "--statistics", str(club), str(club), str(write(tmp_path, "w.euchre",
                                                                          WRONG_RESULT)))
    assert result.stdout.splitlines() == ["     2  C901  error    points-differ",
                                          "     2  R801  error    renege",
                                          "     1  G952  error    result-differs"]
    assert result.exit_code == 1


def test_github_annotations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a,b.euchre", CLUB)
    result = run("check", "-q", "--format", "github", "a,b.euchre")
    assert result.stdout.splitlines() == [
        "::error file=a%2Cb.euchre,line=10,col=16,title=R801 renege::deal 1: renege: S plays "
        "9S on the AD lead (diamonds) in trick 1 holding 9D TD; not claimed (the penalty would "
        "have been EW 2)",
        "::error file=a%2Cb.euchre,line=15,col=10,title=C901 points-differ::deal 1: points "
        "written NS 1 EW 0, but the deal scored NS 0 EW 2"]


def test_sarif_is_valid_sarif_2_1_0(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json")
                        .read_text(encoding="utf-8"))
    result = run("check", "-q", "--format", "sarif", str(write(tmp_path, "club.euchre", CLUB)),
                 str(write(tmp_path, "bad.euchre", BAD_CARD)))
    log = json.loads(result.stdout)
    jsonschema.validate(log, schema, format_checker=jsonschema.FormatChecker())
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in results] == [("R801", "error", 10), ("C901", "error", 15),
                                  ("S101", "error", BAD_CARD_LINE)]
    rules = {rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {"R801", "C901", "S101"} <= rules
    assert result.exit_code == 2
    clean = json.loads(run("check", "-q", "--format", "sarif", str(write(tmp_path, "c.euchre",
                                                                         CLEAN))).stdout)
    jsonschema.validate(clean, schema)
    assert clean["runs"][0]["results"] == []


def test_colour_on_a_terminal_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    club = str(write(tmp_path, "club.euchre", CLUB))
    coloured = run("check", "-q", "--color", "always", club).stdout
    assert "\x1b[1m" + club + ":\x1b[0m10:16: \x1b[31m\x1b[1mR801\x1b[0m deal 1" in coloured
    assert "\x1b[" not in run("check", "-q", club).stdout  # not a terminal
    assert "\x1b[" not in run("check", "-q", "--color", "never", club).stdout
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Terminal()) and not use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())
    assert use_colour(io.StringIO(), "always")


# ------------------------------------------------------------------ explain and help


def test_explain_prints_the_documentation_of_every_code() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "findings.md").read_text(
        encoding="utf-8")
    for code, info in CODES.items():
        result = run("explain", code.lower())
        assert result.exit_code == 0
        assert result.stdout.startswith(f"### {code} {info.name}\n\nSeverity: ")
        assert result.stdout in doc
        assert "\n### " not in result.stdout and "\n## " not in result.stdout
    listing = run("explain").stdout.splitlines()
    assert len(listing) == len(CODES) and listing[0].startswith("S101  error    syntax-error")
    unknown = run("explain", "Z999")
    assert unknown.exit_code == 2 and "'Z999' is no finding code" in unknown.stderr


def _commands() -> list[list[str]]:
    return [[], *([name] for name in main.list_commands(click.Context(main)))]


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "euchrelog")
def test_help_points_at_no_file_pip_did_not_install(command: list[str]) -> None:
    """A document the help names is one that ``euchrelog docs`` prints from the package."""
    from euchrelog.cli.docs import topics

    text = run(*command, "--help").stdout.replace("\n", " ")
    for match in re.finditer(r"[^\s(]*\.md\b", text):
        assert match.group().removeprefix("docs/").removesuffix(".md") in topics(), (
            match.group())
    assert "example.org" not in text


def test_shell_completion_works_as_documented() -> None:
    script = Path(sys.executable).parent / "euchrelog"
    if not script.exists():
        pytest.skip("the euchrelog script is not installed beside this Python")
    docs = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert 'eval "$(_EUCHRELOG_COMPLETE=bash_source euchrelog)"' in docs
    env = {"PATH": "", "COMP_WORDS": "euchrelog ex", "COMP_CWORD": "1",
           "_EUCHRELOG_COMPLETE": "bash_complete"}
    proc = subprocess.run([str(script)], env=env, capture_output=True, text=True, check=False,
                          timeout=60)
    assert proc.stdout.splitlines() == ["plain,explain"]


# ------------------------------------------------------------------ progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["convert", "-o", "x.json"],
                                     ["score"]])
def test_progress_on_a_terminal_is_cleared_before_anything_is_printed(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stderr", screen)
    write(tmp_path, "a.euchre", "\n".join([WRONG_RESULT] * 3))
    write(tmp_path, "b.euchre", LOOSE)
    with contextlib.suppress(SystemExit):
        main([*command, "a.euchre", "b.euchre"], standalone_mode=False)
    shown = screen.getvalue()
    drawn = re.findall(r"\r\x1b\[K(\w+ +\d+%  0\.0 of 0\.0 MB, [^\r\n]* left)(.?)",
                       shown, re.DOTALL)
    assert drawn, shown
    assert all(after == "\r" for _, after in drawn), shown  # cleared (or redrawn) at once


def test_no_progress_when_not_on_a_terminal_or_quiet(tmp_path: Path) -> None:
    path = str(write(tmp_path, "a.euchre", WRONG_RESULT))
    assert "\x1b[K" not in run("check", path).stderr
    stream = Terminal()
    quiet = progress.Progress(100, enabled=False, stream=stream)
    quiet.advance(50)
    quiet.clear()
    assert stream.getvalue() == ""


def test_a_note_keeps_its_level_in_every_format(tmp_path: Path) -> None:
    """A claimed renege is a note (P2): a notice on GitHub, a SARIF note, a note in the
    statistics and the text, and exit status 0."""
    claimed = CLUB.replace("  points NS 1\n", "  renege S trick 1\n  points EW 2\n")
    path = str(write(tmp_path, "claimed.euchre", claimed))
    github = run("check", "-q", "--format", "github", path)
    assert github.exit_code == 0
    assert github.stdout.startswith(f"::notice file={path},line=10,col=16,title=R801 renege::")
    sarif = json.loads(run("check", "-q", "--format", "sarif", path).stdout)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["note"]
    assert run("check", "-q", "--statistics", path).stdout == "     1  R801  note     renege\n"
    coloured = run("check", "-q", "--color", "always", path).stdout
    assert f"\x1b[1m{path}:\x1b[0m10:16: \x1b[36m\x1b[1mR801\x1b[0m note: deal 1: renege" in (
        coloured)


def test_sources_from_elsewhere_take_the_new_options(tmp_path: Path) -> None:
    data = Path(__file__).resolve().parent / "data" / "egn"
    final = str(data / "validation examples" / "July 4th Pairs Finals.egn")
    assert run("check", "--ignore", "D3", final).exit_code == 0
    github = run("check", "-q", "--format", "github", final).stdout
    assert github.startswith(f"::error file={final.replace(',', '%2C')},title=D307 ")
    both = run("convert", str(data / "VWEC Finals.egn"), str(data / "Epic Comeback.egn"),
               "--out-dir", str(tmp_path / "out"), "-q")
    assert (both.exit_code, both.stderr.count("->")) == (0, 0)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "Epic Comeback.euchre", "VWEC Finals.euchre"]
    assert run("check", "-q", str(tmp_path / "out")).exit_code == 0


def test_check_imports_neither_the_recorder_nor_the_event_scorer() -> None:
    """``check`` starts without what only ``record`` and ``score`` need (start-up)."""
    code = ("import sys\nfrom euchrelog.cli import main\n"
            "print([m for m in ('euchrelog.recorder', 'euchrelog.events') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
    assert {"record", "score"} <= set(main.list_commands(click.Context(main)))


def test_check_of_an_empty_source_imports_no_reader(tmp_path: Path) -> None:
    """``check`` of a source with nothing in it imports neither the models (pydantic), the
    grammar (lark) nor the engine: its start-up is the command's alone (issue 24). A
    source with a game imports the models and the engine with its first line, and Lark
    only for a game the line reader does not take."""
    empty, game = tmp_path / "empty.euchre", tmp_path / "game.euchre"
    empty.write_text("\n\n")
    game.write_text('[Variant "four-hand"]\n\ndeal 1 dealer N\n  thrown in\n\nunfinished\n')
    code = ("import sys\nfrom euchrelog.cli import main\n"
            "try:\n    main(['check', '-q', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('pydantic', 'lark', 'euchrelog.engine', "
            "'euchrelog.models') if m in sys.modules))")
    loaded = [subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                             text=True, check=True).stdout.strip() for path in (empty, game)]
    assert loaded == ["[]", "['euchrelog.engine', 'euchrelog.models', 'pydantic']"]
