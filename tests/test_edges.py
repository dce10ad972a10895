"""Trust at every edge (issue 23): one way in (a pipe, a named pipe, ``/dev/stdin`` and
process substitution read like a file), one way out (a device or a pipe written, never
replaced; hard links kept; the text exactly as written), and Ctrl-C (status 130, no
traceback, no false "all clean")."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchrelog import checker, files, progress
from euchrelog.cli import main
from euchrelog.runs import Batching

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GAME = SAMPLES / "valid" / "four-hand-24-club-night.euchre"
RENEGE = SAMPLES / "invalid" / "R801-renege.euchre"
EVENT = SAMPLES / "events" / "spring-progressive"
EUCHRELOG = [sys.executable, "-m", "euchrelog"]


def command(*args: str, pass_fds: tuple[int, ...] = (), stdin: bytes | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """Runs ``euchrelog`` in a process of its own."""
    return subprocess.run([*EUCHRELOG, *args], input=stdin, capture_output=True,
                          pass_fds=pass_fds, timeout=timeout, check=False)


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


@pytest.fixture
def substituted() -> Iterator[tuple[str, int]]:
    """``/dev/fd/N`` of a pipe holding a record with one renege."""
    for fd in piped(RENEGE.read_bytes()):
        yield f"/dev/fd/{fd}", fd


def test_samples_exist() -> None:
    assert GAME.is_file() and RENEGE.is_file() and EVENT.is_dir()


# ------------------------------------------------------------------ one way in


def test_check_of_process_substitution_reads_the_record(substituted: tuple[str, int]) -> None:
    path, fd = substituted
    result = command("check", path, pass_fds=(fd,))
    assert result.returncode == 1, result.stderr
    assert b"R801" in result.stdout
    assert b"all clean" not in result.stderr and b"1 game" in result.stderr


def test_convert_of_process_substitution_writes_the_games(substituted: tuple[str, int]
                                                          ) -> None:
    path, fd = substituted
    result = command("convert", path, "--to", "jsonl", pass_fds=(fd,))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(b"\n") == 1 and b'"deals"' in result.stdout


def test_check_of_dev_stdin_reads_standard_input() -> None:
    result = command("check", "/dev/stdin", stdin=RENEGE.read_bytes())
    assert result.returncode == 1 and b"R801" in result.stdout


def test_score_of_a_pipe_is_the_score_of_the_files() -> None:
    text = b"".join(p.read_bytes() for p in sorted(EVENT.glob("*.euchre")))
    for fd in piped(text):
        from_pipe = command("score", f"/dev/fd/{fd}", pass_fds=(fd,))
    both = command("score", str(EVENT))
    assert from_pipe.returncode == both.returncode == 0
    assert from_pipe.stdout == both.stdout


def test_a_named_pipe_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "night.euchre"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(RENEGE.read_bytes())

    thread = threading.Thread(target=write)
    thread.start()
    result = command("check", str(fifo))
    thread.join()
    assert result.returncode == 1 and b"R801" in result.stdout


def test_a_named_pipe_nobody_writes_to_is_an_error_not_a_hang(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "gone.euchre"
    os.mkfifo(fifo)
    monkeypatch.setattr(files, "PIPE_WAIT", 0.2)
    result = CliRunner().invoke(main, ["check", str(fifo)])
    assert result.exit_code == 2
    assert "no program wrote to the named pipe" in result.stderr
    assert "all clean" not in result.stderr


def test_a_source_read_once_is_read_again_from_the_start() -> None:
    for fd in piped(b"one\ntwo\n"):
        path = f"/dev/fd/{fd}"
        try:
            with files.open_source(path) as first:
                assert first.readline() == b"one\n"
            with files.open_source(path) as again:
                assert again.read() == b"one\ntwo\n"
        finally:
            files.forget_sources()


def test_limits_hold_for_a_device() -> None:
    result = command("check", "--max-line-length", "1000", "/dev/zero")
    assert result.returncode == 2 and b"S104" in result.stdout


# ------------------------------------------------------------------ one way out


@pytest.mark.parametrize("cmd", [["convert", str(GAME)], ["score", str(EVENT)],
                                 ["fmt", str(GAME)]])
def test_output_to_a_named_pipe_is_written_into_it(tmp_path: Path, cmd: list[str]) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    thread = threading.Thread(target=read)
    thread.start()
    result = command(*cmd, "-o", str(fifo)) if cmd[0] != "fmt" else command(*cmd)
    if cmd[0] == "fmt":  # fmt writes to standard output: send it on through the pipe
        with open(fifo, "wb") as fh:
            fh.write(result.stdout)
    thread.join()
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and got[0]


def test_output_to_process_substitution_is_written() -> None:
    read, write = os.pipe()
    result = command("convert", str(GAME), "--to", "jsonl", "-o", f"/dev/fd/{write}",
                     pass_fds=(write,))
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        data = fh.read()
    assert result.returncode == 0, result.stderr
    assert data.count(b"\n") == 1


def test_a_device_is_a_stream_and_never_replaced() -> None:
    assert files.is_stream("/dev/null") and files.is_stream("/dev/stdout")
    assert not files.is_stream(str(GAME))
    result = command("convert", str(GAME), "-o", "/dev/null")
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_fmt_in_place_keeps_hard_links(tmp_path: Path) -> None:
    first = tmp_path / "a.euchre"
    second = tmp_path / "b.euchre"
    first.write_text(GAME.read_text(encoding="utf-8").replace("deal 1", "deal   1", 1),
                     encoding="utf-8")
    os.link(first, second)
    result = command("fmt", "-i", str(first))
    assert result.returncode == 0, result.stderr
    assert b"reformatted" in result.stderr
    assert os.stat(first).st_ino == os.stat(second).st_ino and os.stat(first).st_nlink == 2
    assert second.read_text(encoding="utf-8") == GAME.read_text(encoding="utf-8")


def test_fmt_output_keeps_escape_sequences_when_redirected(tmp_path: Path) -> None:
    record = tmp_path / "esc.euchre"
    text = GAME.read_text(encoding="utf-8")
    first_tag = text.index('"') + 1
    record.write_text(text[:first_tag] + "\x1b[31mred\x1b[0m " + text[first_tag:],
                      encoding="utf-8")
    result = command("fmt", str(record))
    assert result.returncode == 0, result.stderr
    assert result.stdout == record.read_bytes()
    assert command("fmt", "--check", str(record)).returncode == 0


# ------------------------------------------------------------------ signals


def _blocked_reading(pid: int) -> bool:
    """Whether a process waits in a read of an empty pipe (Linux)."""
    try:
        return Path(f"/proc/{pid}/wchan").read_text().endswith(("pipe_read", "pipe_wait"))
    except OSError:
        return False


AS_IN_A_TERMINAL = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")
"""Runs the rest of the command line with Ctrl-C's default action, as a terminal runs a
program: a child inherits an ignored SIGINT, and some tests in the same worker process
leave it ignored (Python then installs no KeyboardInterrupt for it)."""


def _interrupted(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """Runs a command on a named pipe that has sent one game with a finding and the tags of
    the next, waits until the command has read them all and waits for more, then presses
    Ctrl-C (SIGINT to the command's whole process group, as a terminal sends it)."""
    fifo = tmp_path / "slow.euchre"
    os.mkfifo(fifo)
    command = [sys.executable, "-c", AS_IN_A_TERMINAL, *EUCHRELOG[1:], *args, str(fifo)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    with open(fifo, "wb") as writer:
        writer.write(RENEGE.read_bytes() + b'\n[Event "the next"]\n')
        writer.flush()
        for _ in range(600):
            if _blocked_reading(proc.pid):
                break
            threading.Event().wait(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_check_with_130_and_says_it_was_interrupted(tmp_path: Path,
                                                               jobs: str) -> None:
    result = _interrupted(["check", "--jobs", jobs], tmp_path)
    assert result.returncode == 130
    if jobs == "1":  # with workers, the game waits for its batch to be complete
        assert b"R801" in result.stdout
    assert b"Traceback" not in result.stderr
    assert b"interrupted" in result.stderr and b"all clean" not in result.stderr


def test_ctrl_c_ends_convert_with_130(tmp_path: Path) -> None:
    result = _interrupted(["convert", "--to", "jsonl"], tmp_path)
    assert result.returncode == 130
    assert b"Traceback" not in result.stderr and b"interrupted" in result.stderr


# ------------------------------------------------------------------ controls as data


CONTROLS = "Ann\x1b[2J\x00\x08\x85\u202eX\rY\u2028Z"
"""A player name with an escape sequence, NUL, backspace, a C1 control, a right-to-left
override, a carriage return and a line separator."""


def _controlled(tmp_path: Path) -> Path:
    folder = tmp_path / "controls"
    folder.mkdir()
    for source in sorted(EVENT.glob("*.euchre")):
        text = source.read_text(encoding="utf-8")
        name = text.split('[North "', 1)[1].split('"', 1)[0]
        (folder / source.name).write_bytes(text.replace(f'"{name}"', f'"{CONTROLS}"')
                                           .encode("utf-8"))
    return folder


def _shown(text: str) -> list[str]:
    return [c for c in text if c not in "\n" and not c.isprintable()]


@pytest.mark.parametrize("fmt", ["text", "csv", "markdown", "html"])
def test_control_characters_in_names_are_shown_escaped(tmp_path: Path, fmt: str) -> None:
    result = CliRunner().invoke(main, ["score", "--format", fmt, str(_controlled(tmp_path))])
    assert result.exit_code == 0, result.stderr
    assert not _shown(result.stdout)
    for escape in ("\\x1b", "\\x00", "\\x08", "\\x85", "\\u202eX", "\\rY", "\\u2028Z"):
        assert escape in result.stdout.replace("\\\\", "\\")


def test_control_characters_keep_a_markdown_table_whole(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["score", "--format", "markdown",
                                       str(_controlled(tmp_path))])
    table = result.stdout.split("## Standings", 1)[1].split("\n\n")[1].splitlines()
    cells = {len(re.findall(r"(?<!\\)\|", row)) for row in table}
    assert len(table) == 2 + 13 and len(cells) == 1


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_control_characters_in_messages_are_escaped_for_a_ci(tmp_path: Path, fmt: str) -> None:
    record = tmp_path / "bad.euchre"
    record.write_text('[Event "x"]\n[Variant "four\x1b[2J\u202e"]\n\ndeal 1 dealer N\n'
                      "  thrown in\n\nunfinished\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", fmt, str(record)])
    assert result.exit_code in (1, 2), result.output
    assert "four" in result.stdout and not _shown(result.stdout)


def test_control_characters_are_kept_exactly_in_the_notation_and_in_json(tmp_path: Path
                                                                          ) -> None:
    record = tmp_path / "kept.euchre"
    text = GAME.read_text(encoding="utf-8")
    first_tag = text.index('"') + 1
    record.write_text(text[:first_tag] + CONTROLS + text[first_tag:], encoding="utf-8")
    as_json = tmp_path / "kept.json"
    back = tmp_path / "back.euchre"
    assert CliRunner().invoke(main, ["convert", str(record), "-o", str(as_json)]).exit_code == 0
    assert CliRunner().invoke(main, ["convert", str(as_json), "-o", str(back)]).exit_code == 0
    assert back.read_bytes() == record.read_bytes()


# ------------------------------------------------------------------ progress


class _Screen(io.StringIO):
    """A terminal that keeps what was drawn on it."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("cmd", [["fmt"], ["check"], ["check", "--jobs", "2"],
                                 ["convert", "--to", "jsonl"], ["score"]])
def test_progress_counts_work_done_in_one_big_file(cmd: list[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.euchre"
    games = sorted(EVENT.glob("*.euchre"))
    big.write_text("\n".join(p.read_text(encoding="utf-8") for p in games * 25),
                   encoding="utf-8")
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    monkeypatch.setattr(checker, "BY_LINES", Batching(checker.lines_of, 200))
    screen = _Screen()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with contextlib.suppress(SystemExit):
        main([*cmd, str(big)], standalone_mode=False)
    shares = [int(s) for s in re.findall(r"\r\x1b\[K\w+ +(\d+)%", screen.getvalue())]
    assert len(set(shares)) >= 5, screen.getvalue()[-500:]
    assert shares == sorted(shares) and shares[0] < 50
    if cmd[0] != "score":
        assert re.search(r"MB, \d+ (deal|game)s?, ", screen.getvalue())
