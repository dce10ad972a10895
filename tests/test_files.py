"""The user's files (issue 12): outputs written atomically with their mode, owner and links
kept, read-only files left alone unless told, a full disk or a read-only file system that
never loses the original; the recorder's failed save, its lock against a second session,
a file changed behind its back, the temporary files a killed save leaves, and resuming
every record that ``check`` accepts."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.cli import main
from euchrelog.files import FileLock, LockedError, stale_temporaries, write_atomic
from euchrelog.notation import loads
from test_cli import CLEAN
from test_record_cli import DEAL_1, SETUP

LOOSE = CLEAN.replace("up JH  kitty", "up JH kitty")
"""A record that ``fmt`` rewrites."""

EVENT = Path(__file__).parent.parent / "samples" / "events" / "legion-partners-cup"


def run(*args: str, stdin: str | None = None) -> Result:
    """Invokes the CLI in-process."""
    return CliRunner().invoke(main, list(args), input=stdin)


def run_limited(args: Sequence[str], limit: int, stdin: bytes = b"",
                cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m euchrelog ARGS`` in a process that may write no file larger than
    ``limit`` bytes (RLIMIT_FSIZE: a disk that is full from there on)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([sys.executable, "-m", "euchrelog", *args], input=stdin,
                          capture_output=True, check=False, timeout=120, preexec_fn=cap,
                          cwd=cwd)
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def leftovers(folder: Path) -> list[str]:
    """The hidden files of a folder (temporary files, lock files)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# ---------------------------------------------------------------- write_atomic


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "a.euchre"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(mode)
    write_atomic(path, "new\n")
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert path.read_text(encoding="utf-8") == "new\n"


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_mode_the_umask_leaves(tmp_path: Path, umask: int,
                                                   mode: int) -> None:
    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "a.euchre", "new\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.euchre").stat().st_mode) == mode


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another owner")
def test_a_replaced_file_keeps_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "a.euchre"
    path.write_text("old\n", encoding="utf-8")
    os.chown(path, 1234, 5678)
    write_atomic(path, "new\n")
    assert (path.stat().st_uid, path.stat().st_gid) == (1234, 5678)


def test_a_link_is_kept_and_its_target_written(tmp_path: Path) -> None:
    target = tmp_path / "real" / "a.euchre"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.euchre"
    link.symlink_to(target)
    write_atomic(link, "new\n")
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == "new\n"
    assert leftovers(tmp_path) == [] and leftovers(target.parent) == []


def test_a_read_only_file_is_rewritten_only_when_told(tmp_path: Path) -> None:
    path = tmp_path / "a.euchre"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o444)
    with pytest.raises(PermissionError, match="read-only"):
        write_atomic(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    write_atomic(path, "new\n", force=True)
    assert path.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


# ---------------------------------------------------------------- the commands


def _outputs(tmp_path: Path) -> dict[str, tuple[list[str], Path]]:
    """Each command that writes a file: its arguments and the file it writes."""
    source = tmp_path / "loose.euchre"
    source.write_text(LOOSE, encoding="utf-8")
    return {
        "fmt": (["fmt", "--in-place", str(source)], source),
        "convert": (["convert", str(source), "-o", str(tmp_path / "out.json")],
                    tmp_path / "out.json"),
        "score": (["score", str(EVENT), "-o", str(tmp_path / "out.html"), "--format", "html"],
                  tmp_path / "out.html"),
    }


@pytest.mark.parametrize("command", ["fmt", "convert", "score"])
def test_the_commands_refuse_a_read_only_output_unless_forced(tmp_path: Path,
                                                              command: str) -> None:
    args, output = _outputs(tmp_path)[command]
    if not output.exists():
        output.write_text("old\n", encoding="utf-8")
    before = output.read_text(encoding="utf-8")
    output.chmod(0o444)
    result = run(*args)
    assert result.exit_code == 2
    assert "read-only" in result.stderr and "unchanged" in result.stderr
    assert output.read_text(encoding="utf-8") == before
    result = run(*args, "--force")
    assert result.exit_code in (0, 1), result.output
    assert output.read_text(encoding="utf-8") != before
    assert stat.S_IMODE(output.stat().st_mode) == 0o444


@pytest.mark.parametrize("command", ["fmt", "convert", "score"])
def test_a_full_disk_never_loses_the_original(tmp_path: Path, command: str) -> None:
    args, output = _outputs(tmp_path)[command]
    if not output.exists():
        output.write_text("old\n", encoding="utf-8")
    before = output.read_text(encoding="utf-8")
    proc = run_limited(args, 200)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"cannot write {output}: file too large; {output} is unchanged" in proc.stderr
    assert output.read_text(encoding="utf-8") == before
    assert leftovers(tmp_path) == []


@contextlib.contextmanager
def read_only_file_system(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs, made read-only once a file is put on it (root only)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a file system needs root")
    folder = tmp_path / "mnt"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True, check=False)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_read_only_file_system_never_loses_the_original(tmp_path: Path) -> None:
    with read_only_file_system(tmp_path) as folder:
        path = folder / "loose.euchre"
        path.write_text(LOOSE, encoding="utf-8")
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        result = run("fmt", "--in-place", str(path))
        assert result.exit_code == 2
        assert f"cannot write {path}: read-only file system; {path} is unchanged" in \
            result.stderr
        assert path.read_text(encoding="utf-8") == LOOSE
        result = run("record", str(folder / "new.euchre"),
                     stdin="".join(f"{line}\n" for line in SETUP))
        assert result.exit_code == 2
        assert "read-only file system" in result.output


# ---------------------------------------------------------------- score's sources


def test_score_reads_through_the_size_limits(tmp_path: Path) -> None:
    huge = tmp_path / "huge.euchre"
    huge.write_bytes(b"[Event \"x\"]\n" + b"x" * 2_000_000 + b"\n")
    result = run("score", str(huge))
    assert result.exit_code == 2
    assert "S104 line 2 is longer than 1000000 bytes" in result.stderr
    result = run("score", "--max-file-size", "1K", str(EVENT))
    assert result.exit_code == 2
    assert "S103 the input is larger than 1K bytes" in result.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_score_of_dev_zero_stops_at_the_line_limit() -> None:
    result = run("score", "--max-line-length", "1000", "/dev/zero")
    assert result.exit_code == 2
    assert "S104" in result.stderr


def test_score_does_not_follow_a_link_out_of_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    shutil.copytree(EVENT, folder)
    secret = tmp_path / "secret.euchre"
    secret.write_text("[Event \"x\"]\nthe secret of another user\n", encoding="utf-8")
    (folder / "zz.euchre").symlink_to(secret)
    result = run("score", str(folder))
    assert f"{folder / 'zz.euchre'}: a link to a file outside {folder}: not read" in \
        result.stderr
    assert "secret" not in result.output.replace(str(secret), "")
    assert result.exit_code == 0, result.output
    checked = run("check", str(folder))
    assert f"{folder / 'zz.euchre'}: a link to a file outside {folder}: not read" in \
        checked.stderr
    assert "secret" not in checked.output.replace(str(secret), "")


# ---------------------------------------------------------------- the recorder


def test_a_failed_save_stops_the_session_and_says_what_is_not_on_disk(tmp_path: Path) -> None:
    script = "".join(f"{line}\n" for line in [*SETUP, *DEAL_1[:16]])
    proc = run_limited(["record", "g.euchre"], 235, script.encode(), cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "internal error" not in proc.stdout
    assert "cannot save g.euchre: file too large" in proc.stdout
    assert "not on disk: N takes JH discards KD (deal 1); g.euchre holds everything before " \
           "it; no more entries are taken" in proc.stdout
    # The answers after the failure were not taken as entries, nor as file names.
    after = DEAL_1[DEAL_1.index("discard KD") + 1:16]
    assert proc.stdout.count("give the name of a .euchre file") == len(after) == 6
    assert "not saved: N takes JH discards KD (deal 1)" in proc.stdout
    text = (tmp_path / "g.euchre").read_text(encoding="utf-8")
    assert "bid E pass, S order" in text and "discards" not in text
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("stealthy", [False, True], ids=["edited", "same-size-same-time"])
def test_a_file_changed_behind_the_session_is_not_overwritten(tmp_path: Path,
                                                              stealthy: bool) -> None:
    path = tmp_path / "g.euchre"
    rescue = tmp_path / "rescue.euchre"
    answers = iter([*SETUP, *DEAL_1[:8], str(rescue)])
    edited = "edited elsewhere\n"

    def ask(self: object, prompt: str, words: Sequence[str]) -> str | None:
        nonlocal edited
        answer = next(answers, None)
        if answer == DEAL_1[7]:  # another program writes the file before E's bid
            if stealthy:  # in place, of the same size, its modification time put back
                before = path.stat()
                edited = "x" * before.st_size
                with open(path, "r+", encoding="utf-8") as fh:
                    fh.write(edited)
                os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
            else:
                path.write_text(edited, encoding="utf-8")
        return answer

    from euchrelog.cli.record import Console
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Console, "ask", ask)
        result = CliRunner().invoke(main, ["record", str(path)])
    assert result.exit_code == 2
    assert "cannot save" in result.output and "it changed since this session last saved " \
           "it (another program wrote it), so it is not overwritten" in result.output
    assert "not on disk: E pass (deal 1); " in result.output
    assert path.read_text(encoding="utf-8") == edited
    assert f"saved {rescue}: go on with: euchrelog record --resume {rescue}" in result.output
    assert "bid E pass" in rescue.read_text(encoding="utf-8")


def test_a_second_session_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    first = subprocess.Popen([sys.executable, "-m", "euchrelog", "record", str(path)],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    assert first.stdin is not None
    try:
        first.stdin.write("".join(f"{line}\n" for line in SETUP).encode())
        first.stdin.flush()
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        second = subprocess.run([sys.executable, "-m", "euchrelog", "record", "--resume",
                                 str(path)], input=b"quit\n", capture_output=True, timeout=60,
                                check=False)
        assert second.returncode == 2
        message = second.stderr.decode()
        assert f"cannot record into {path}: another session is recording into this file " \
               f"(process {first.pid} on " in message
        first.stdin.write(b"quit\n")
        first.stdin.close()
        assert first.wait(timeout=60) == 0
    finally:
        if first.poll() is None:  # pragma: no cover
            first.kill()
    assert leftovers(tmp_path) == []
    # The lock went with the first session: the file may be recorded into again.
    again = run("record", "--resume", str(path), stdin="quit\n")
    assert again.exit_code == 0, again.output


def test_the_lock_names_its_holder(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    held = FileLock(path)
    held.acquire()
    try:  # flock: another open file of the lock, as another process would have, waits
        with pytest.raises(LockedError, match=rf"process {os.getpid()} on \S+, started "):
            FileLock(path).acquire()
    finally:
        held.release()
    assert not held.path.exists()
    again = FileLock(path)
    again.acquire()  # free again once released
    again.release()


def test_temporary_files_left_by_a_killed_save_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = run("record", str(path), stdin="".join(f"{line}\n" for line in SETUP))
    assert result.exit_code == 0
    stale = [tmp_path / f".g.euchre.{uuid.uuid4().hex[:8]}.tmp" for _ in range(2)]
    for file in stale:
        file.write_text("half a reco", encoding="utf-8")
    other = tmp_path / ".other.euchre.abcd1234.tmp"
    other.write_text("", encoding="utf-8")
    assert stale_temporaries(path) == sorted(stale)
    result = run("record", "--resume", str(path), stdin="quit\n")
    assert result.exit_code == 0
    for file in stale:
        assert f"removed {file}, left by a save that was cut short" in result.output
    assert leftovers(tmp_path) == [other.name]


@pytest.mark.parametrize("answer", ["²", "٣", "3²"])
def test_a_number_in_other_digits_is_refused_clearly(tmp_path: Path, answer: str) -> None:
    script = [*SETUP, "sheet", "H", "S", "n", "", answer, "3", ""]
    result = run("record", str(tmp_path / "g.euchre"), stdin="".join(f"{x}\n" for x in script))
    assert "internal error" not in result.output
    assert "  answer a number of tricks, 0 to 5" in result.output
    assert result.exit_code == 0


# ---------------------------------------------------------------- resume what check accepts


HEAD = '[Variant "four-hand"]\n[Target "10"]\n\n'
HANDS = ("deal 1 dealer N\n"
         "  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD\n"
         "  up JH\n  bid E pass, S order\n  N takes JH discards KD\n")


@pytest.mark.parametrize(("record", "answers", "expected"), [
    (HEAD + "deal 1 dealer N\n  points NS 1\n\ndeal 2 dealer E\n  trump S maker W\n\n"
     "unfinished\n", ["3"],
     "deal 1 dealer N\n  points NS 1\n\ndeal 2 dealer E\n  trump S maker W tricks 3\n"
     "  points EW 1  total NS 1 EW 1\n"),
    (HEAD + "deal 1 dealer N\n  trump S maker W\n\nunfinished\n", ["5"],
     "deal 1 dealer N\n  trump S maker W tricks 5\n  points EW 2  total NS 0 EW 2\n"),
    (HEAD + "deal 1 dealer N\n  points NS 2\n\ndeal 2 dealer E\n  points EW 1\n\n"
     "unfinished\n", ["sheet", "H", "S", "n", "", "3"],
     "deal 3 dealer S\n  trump H maker S tricks 3\n  points NS 1  total NS 3 EW 1\n"),
    (HEAD + HANDS + "  1. E: ??  S: 9D  W: 9H  N: AC\n\nunfinished\n",
     ["AD", "undo", "undo", "undo", "undo", "AD", "9D", "9H", "AC"],
     "  1. E: AD  S: 9D  W: 9H  N: AC\n"),
    (HEAD + HANDS + "  1. E: ??  S: 9D  W: 9H  N: AC\n  2. W: JD  N: JH  E: 9C  S: 9S\n"
     "  3. N: KC  E: TC  S: TD  W: AH\n  4. W: KH  N: QC  E: QS  S: TS\n"
     "  5. W: QH  N: JC  E: KS  S: AS\n  points EW 2\n\nunfinished\n",
     ["sheet", "H", "S", "n", "", "3"],
     "  5. W: QH  N: JC  E: KS  S: AS\n  points EW 2\n\ndeal 2 dealer E\n"),
])
def test_resume_takes_every_record_check_accepts(tmp_path: Path, record: str,
                                                 answers: list[str], expected: str) -> None:
    path = tmp_path / "g.euchre"
    path.write_text(record, encoding="utf-8")
    checked = run("check", str(path))
    assert checked.exit_code == 0, checked.output
    result = run("record", "--resume", str(path), stdin="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert "cannot resume" not in result.output
    text = path.read_text(encoding="utf-8")
    assert expected in text, text
    loads(text)
    assert run("check", str(path)).exit_code == 0
