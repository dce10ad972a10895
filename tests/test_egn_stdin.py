"""EGN and EMN read from standard input, a pipe or process substitution: told by what the
source starts with, so they are checked and converted exactly as the file is."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.cli import main
from euchrelog.kinds import head_of, kind_of

DATA = Path(__file__).resolve().parent / "data" / "egn"
FINDINGS = DATA / "validation examples" / "July 4th Pairs Finals.egn"  # a D307
CLEAN = DATA / "Epic Comeback.egn"
MATCH = DATA / "combination examples" / "MotE W5 Match.emn"
SOURCES = [FINDINGS, CLEAN, MATCH]
EUCHRELOG = [sys.executable, "-m", "euchrelog"]


def run(*args: str, stdin: bytes | None = None) -> Result:
    """Runs ``euchrelog ARGS`` in-process."""
    return CliRunner().invoke(main, list(args), input=stdin)


def as_file(result: Result, path: Path, name: str) -> tuple[int, str, str]:
    """A run's status, standard output and standard error, with the file's name as
    ``name`` (what the same run on standard input or a pipe prints)."""
    return (result.exit_code, result.stdout.replace(str(path), name),
            result.stderr.replace(str(path), name))


def piped(data: bytes) -> Iterator[int]:
    """The read end of a pipe that a thread fills with ``data`` (what ``<(cat FILE)``
    gives a command), as a generator that closes it afterwards."""
    read, write = os.pipe()

    def fill() -> None:
        with os.fdopen(write, "wb") as fh:
            fh.write(data)

    thread = threading.Thread(target=fill)
    thread.start()
    try:
        yield read
    finally:
        thread.join()
        os.close(read)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_check_of_stdin_is_check_of_the_file(path: Path) -> None:
    from_stdin = run("check", "-", stdin=path.read_bytes())
    assert as_file(run("check", str(path)), path, "<stdin>") == (
        from_stdin.exit_code, from_stdin.stdout, from_stdin.stderr)
    assert "S102" not in from_stdin.stdout


def test_a_finding_on_stdin_is_at_its_json_path() -> None:
    result = run("check", "-", stdin=FINDINGS.read_bytes())
    assert result.exit_code == 1
    assert result.stdout == "<stdin>:$.deals[9]: D307 deal 10 is recorded after the game ended\n"


@pytest.mark.parametrize("path", [FINDINGS, MATCH], ids=lambda p: p.name)
def test_convert_of_stdin_is_convert_of_the_file(path: Path) -> None:
    from_stdin = run("convert", "-", stdin=path.read_bytes())
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout.startswith("[")  # notation: the default for EGN and EMN input
    assert as_file(run("convert", str(path)), path, "<stdin>") == (
        from_stdin.exit_code, from_stdin.stdout, from_stdin.stderr)


def test_egn_on_one_line_and_a_broken_one() -> None:
    compact = json.dumps(json.loads(FINDINGS.read_text("utf-8"))).encode()
    assert run("check", "-", stdin=compact).stdout == run("check", "-",
                                                          stdin=FINDINGS.read_bytes()).stdout
    broken = b'{\n  "fileType": "Euchre Game Notation",\n  "version": "1.4"\n}\n'
    result = run("check", "-", stdin=broken)
    assert (result.exit_code, result.stdout) == (2, "<stdin>:$: S102 missing field 'metadata'\n")
    converted = run("convert", "-", stdin=broken)
    assert converted.exit_code == 2
    assert converted.stderr == "<stdin>:$: S102 missing field 'metadata'\n"


def test_check_of_a_real_pipe() -> None:
    proc = subprocess.run([*EUCHRELOG, "check", "-"], input=FINDINGS.read_bytes(),
                          capture_output=True, timeout=60, check=False)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == b"<stdin>:$.deals[9]: D307 deal 10 is recorded after the game ended\n"


def test_check_and_convert_of_process_substitution() -> None:
    for fd in piped(FINDINGS.read_bytes()):
        proc = subprocess.run([*EUCHRELOG, "check", f"/dev/fd/{fd}"], pass_fds=(fd,),
                              capture_output=True, timeout=60, check=False)
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout == (f"/dev/fd/{fd}:$.deals[9]: D307 deal 10 is recorded after the "
                               "game ended\n").encode()
    for fd in piped(MATCH.read_bytes()):
        proc = subprocess.run([*EUCHRELOG, "convert", f"/dev/fd/{fd}", "--to", "jsonl"],
                              pass_fds=(fd,), capture_output=True, timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.count(b"\n") == 6  # the match's six games


def test_the_sniff_reads_the_start_only() -> None:
    lines = iter(['\n', '{\n', '\n', '  "fileType": "Euchre Game Notation",\n', 'rest\n'])
    assert head_of(lines) == '{\n  "fileType": "Euchre Game Notation",\n'
    assert next(lines) == "rest\n"
    assert head_of(io.StringIO('{"actions": [1]}\n{"actions": [2]}\n')) == '{"actions": [1]}\n'
    assert head_of(io.StringIO("")) == ""


@pytest.mark.parametrize(("head", "kind"), [
    ('{\n  "fileType": "Euchre Game Notation",\n', "egn"),
    ('{"fileType":"Euchre Match Notation","version":"1.0"', "emn"),
    ('\ufeff{ "file_type": "Euchre Game Notation"', "egn"),
    ('{"actions": [0, 1]}\n', "openspiel"),
    ('{\n  "format": "euchrelog",\n', None),  # the notation's JSON
    ('{"tags": [{"name": "Event", "value": "\\"fileType\\": \\"Euchre Game Notation\\""}]}',
     None),
    ('{"version": "1.4", "fileType": "Euchre Game Notation"}', None),  # not its first member
    ('[Event "Euchre Game Notation"]\n', None),
])
def test_kinds_told_by_the_start(head: str, kind: str | None) -> None:
    for name in ("-", "/dev/fd/63", "game.json"):
        assert kind_of(name, head) == kind
    assert kind_of("game.egn", head) == "egn"  # the extension decides first
