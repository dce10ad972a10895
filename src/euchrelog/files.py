"""The user's files: reading sources within limits, writing outputs atomically, and the
lock a recording session holds on its file.

Every command reads its sources through :func:`read_lines` (so ``--max-file-size`` and
``--max-line-length`` hold for all of them), finds the records of a folder with
:func:`expand` (which does not follow a link out of the folder), and writes a file with
:func:`write_atomic`: the file is either wholly written or left as it was, keeps its
mode, and stays a link if it was one.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import socket
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import click

from .errors import EuchrelogError, LimitError, NotationError
from .progress import Progress

EXTENSION = ".euchre"
EXIT_FILE = 2
"""The exit status when a file cannot be read or written (as for a usage error)."""


# ---------------------------------------------------------------- reading


def expand(sources: tuple[str, ...], *, quiet: bool = False) -> Iterator[str]:
    """The files of the sources: a folder gives the ``*.euchre`` files under it, except
    those that are links to a file outside it (not read: standard error says so, unless
    ``quiet``); anything else is given as it is.

    :raises click.UsageError: for a folder without a record.
    """
    for source in sources:
        path = Path(source)
        if source == "-" or not path.is_dir():
            yield source
            continue
        root = path.resolve()
        found = []
        for file in sorted(path.rglob(f"*{EXTENSION}")):
            if not file.is_file():
                continue
            if not file.resolve().is_relative_to(root):
                if not quiet:
                    click.echo(f"euchrelog: {file}: a link to a file outside {source}: not "
                               "read", err=True)
                continue
            found.append(str(file))
        if not found:
            raise click.UsageError(f"no *{EXTENSION} file under {source}")
        yield from found


_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def size_text(n: int) -> str:
    """A byte count the way ``--max-file-size`` takes it: ``8G``, ``256M``, ``200``."""
    for unit in "TGMK":
        if n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return str(n)


def parse_size(ctx: click.Context, param: click.Parameter, value: str) -> int:
    """Reads a number of bytes with an optional unit: K, M, G or T (powers of 1000)."""
    text = value.strip().upper().removesuffix("B")
    number = text.rstrip("KMGT")
    unit = text[len(number):]
    if not (number.isascii() and number.isdigit()) or unit not in _UNITS or int(number) < 1:
        raise click.BadParameter(f"{value!r} is not a size like 200, 64K, 256M or 8G")
    return int(number) * _UNITS[unit]


@dataclass(frozen=True)
class Limits:
    """How much of an input a command reads (``--max-file-size``, ``--max-line-length``)."""

    max_bytes: int = 8 * 10**9
    max_line: int = 1_000_000


def limit_options(default_size: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The size-limit options of a command that reads records."""
    def add(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option(
            "--max-line-length", "max_line", type=click.IntRange(min=1), default=1_000_000,
            show_default=True, metavar="BYTES",
            help="Stop reading an input at a line longer than this (finding S104).")(command)
        return click.option(
            "--max-file-size", "max_bytes", default=default_size, callback=parse_size,
            show_default=True, metavar="SIZE",
            help="Stop reading an input after this many bytes, like 200, 64K, 256M or 8G "
                 "(finding S103).")(command)
    return add


def read_lines(path: str, limits: Limits, *, strip_bom: bool = True,
               progress: Progress | None = None) -> Iterator[str]:
    """The lines of a file or stdin, decoded one by one (so a file is never held whole),
    counted in ``progress``.

    :raises NotationError: at the first line that is not UTF-8.
    :raises LimitError: at the first line over a limit (which is not read whole).
    """
    stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    total = 0
    number = 0
    try:
        while raw := stream.readline(limits.max_line + 1):
            number += 1
            if len(raw) > limits.max_line and not raw.endswith(b"\n"):
                raise LimitError("S104", f"line {number} is longer than {limits.max_line} bytes "
                                         f"(--max-line-length {limits.max_line}): reading stops "
                                         "there; the game there and the rest are not checked",
                                 number, limits.max_line + 1)
            total += len(raw)
            if progress is not None:
                progress.advance(len(raw))
            if total > limits.max_bytes:
                size = size_text(limits.max_bytes)
                raise LimitError("S103", f"the input is larger than {size} bytes (--max-file-size "
                                         f"{size}): reading stops at line {number}; the game there "
                                         "and the rest are not checked",
                                 number, 1)
            if number == 1 and strip_bom:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise NotationError(f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x}): "
                                    "reading stops there; the game there and the rest are "
                                    "not checked", number, exc.start + 1) from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


# ---------------------------------------------------------------- writing


class ReadOnlyError(PermissionError):
    """A file that is read-only, which a command rewrites only when told (``--force``)."""


def is_read_only(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a file that exists and is read-only: no write permission for
    anyone, or none for this user."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], content: str | Callable[[TextIO], None], *,
                 force: bool = False) -> None:
    """Writes a text, or what a writer function writes, to ``path`` atomically: a
    temporary file in the same folder, flushed to disk (fsync), then renamed over ``path``
    (so the file is either wholly written or untouched, even on a full disk); the folder
    is synced too where the system allows, so the rename itself survives a crash.

    A file replaced keeps its mode (and its owner, where the system allows); a new file
    gets the mode the umask leaves. A link is kept and the file it points to is written.

    :raises ReadOnlyError: when ``path`` is read-only, unless ``force``.
    :raises OSError: when the file cannot be written; ``path`` is then unchanged.
    """
    target = Path(os.path.realpath(path))
    try:
        frozen = bool(os.statvfs(target.parent).f_flag & os.ST_RDONLY)
    except OSError:  # no such folder: mkstemp says so below
        frozen = False
    if frozen:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))
    if not force and is_read_only(target):
        raise ReadOnlyError(errno.EACCES, "the file is read-only (--force rewrites it)",
                            os.fspath(path))
    try:
        old: os.stat_result | None = target.stat()
    except FileNotFoundError:
        old = None
    folder = target.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~_umask())
        if old is not None:
            with contextlib.suppress(OSError):  # only root may give a file to another owner
                os.fchown(fd, old.st_uid, old.st_gid)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            if isinstance(content, str):
                fh.write(content)
            else:
                content(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a system that cannot open folders
        return
    try:
        os.fsync(dir_fd)
    except OSError:  # pragma: no cover - a file system that cannot sync folders
        pass
    finally:
        os.close(dir_fd)


class FileFailure(click.ClickException):
    """A file that cannot be written; exit status 2."""

    exit_code = EXIT_FILE

    def show(self, file: object = None) -> None:
        click.echo(f"euchrelog: {self.format_message()}", err=True)


def failure_text(exc: OSError) -> str:
    """Why a file could not be written, in a few lowercase words."""
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def write_output(path: str | os.PathLike[str], content: str | Callable[[TextIO], None], *,
                 force: bool = False) -> None:
    """:func:`write_atomic` for a command's output file.

    :raises FileFailure: (exit status 2) when it cannot be written, saying that the file
        is unchanged.
    """
    try:
        write_atomic(path, content, force=force)
    except OSError as exc:
        kept = "unchanged" if os.path.lexists(path) else "not written"
        raise FileFailure(f"cannot write {os.fspath(path)}: {failure_text(exc)}; "
                          f"{os.fspath(path)} is {kept}") from None


def stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """The temporary files that :func:`write_atomic` left beside ``path`` when it was
    killed in the middle of a write (``.NAME.xxxxxxxx.tmp``)."""
    target = Path(os.path.realpath(path))
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    return [target.parent / n for n in sorted(names) if pattern.fullmatch(n)]


# ---------------------------------------------------------------- the lock


class LockedError(EuchrelogError):
    """A file that another session is recording into."""


class FileLock:
    """An advisory lock (``flock``) on a file being recorded, held through a hidden file
    beside it, ``.NAME.lock``, which says who holds it (process, host, start time). The
    lock ends with the process that holds it, however it ends."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        target = Path(os.path.realpath(path))
        self.path = target.parent / f".{target.name}.lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        """Takes the lock.

        :raises LockedError: when another session holds it, naming that session.
        :raises OSError: when the lock file cannot be made.
        """
        while self._fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666 & ~_umask())
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 1000).decode("utf-8", "replace").strip()
                os.close(fd)
                raise LockedError(f"another session is recording into this file "
                                  f"({holder or 'unknown'}); wait for it to stop") from None
            except BaseException:
                os.close(fd)
                raise
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # the holder before removed the file while we waited: again
                os.close(fd)
                continue
            started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
            os.ftruncate(fd, 0)
            os.write(fd, f"process {os.getpid()} on {socket.gethostname()}, started "
                         f"{started}\n".encode())
            self._fd = fd

    def release(self) -> None:
        """Gives the lock up and removes the lock file."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self._fd)
        self._fd = None
