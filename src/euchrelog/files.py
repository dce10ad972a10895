"""The user's files: reading sources within limits, writing outputs, and the lock a
recording session holds on its file.

One way in: every command reads its sources through :func:`read_lines` (so
``--max-file-size`` and ``--max-line-length`` hold for all of them), which opens them with
:func:`open_source`. A regular file is opened again for each reading; anything else
(standard input, a pipe, a named pipe, process substitution, a device) is read once, as it
is needed, and kept in a temporary file, so that sniffing its format and then reading it
see the same bytes. :func:`expand` finds the records of a folder (not following a link out
of it).

One way out: every command writes a file with :func:`write_output`. A regular file is
replaced atomically (:func:`write_atomic`: wholly written or left as it was, keeping its
mode, owner and links, written in place when it has several names); anything else (a
device, a named pipe, ``/dev/stdout``, process substitution) is written directly and never
replaced. Standard output gets the text exactly as written (:func:`write_stdout`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import re
import select
import stat
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from .errors import EuchrelogError, LimitError, NotationError

if TYPE_CHECKING:
    from .progress import Progress

EXTENSION = ".euchre"


class FileError(EuchrelogError):
    """A file that cannot be read or written (the command line says so on stderr and exits
    with status 2)."""


class NoRecordsError(EuchrelogError):
    """A folder named as a source that holds no record (a usage error on the command
    line)."""


# ---------------------------------------------------------------- reading


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def expand(sources: tuple[str, ...], *,
           warn: Callable[[str], None] | None = _to_stderr) -> Iterator[str]:
    """The files of the sources: a folder gives the ``*.euchre`` files under it, except
    those that are links to a file outside it (not read: ``warn`` is told, standard error
    by default, nobody if ``None``); anything else is given as it is.

    :raises NoRecordsError: for a folder without a record.
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
                if warn is not None:
                    warn(f"euchrelog: {file}: a link to a file outside {source}: not read")
                continue
            found.append(str(file))
        if not found:
            raise NoRecordsError(f"no *{EXTENSION} file under {source}")
        yield from found


_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def size_text(n: int) -> str:
    """A byte count the way ``--max-file-size`` takes it: ``8G``, ``256M``, ``200``."""
    for unit in "TGMK":
        if n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return str(n)


def parse_size(value: str) -> int:
    """Reads a number of bytes with an optional unit: K, M, G or T (powers of 1000).

    >>> parse_size("64K"), parse_size("8gb")
    (64000, 8000000000)

    :raises ValueError: for anything else.
    """
    text = value.strip().upper().removesuffix("B")
    number = text.rstrip("KMGT")
    unit = text[len(number):]
    if not (number.isascii() and number.isdigit()) or unit not in _UNITS or int(number) < 1:
        raise ValueError(f"{value!r} is not a size like 200, 64K, 256M or 8G")
    return int(number) * _UNITS[unit]


@dataclass(frozen=True)
class Limits:
    """How much of an input a command reads (``--max-file-size``, ``--max-line-length``)."""

    max_bytes: int = 8 * 10**9
    max_line: int = 1_000_000


PIPE_WAIT = 10.0
"""Seconds to wait for a program to open a named pipe for writing before reading it is an
error (a pipe nobody writes to would otherwise be waited for forever)."""


class _Spool:
    """A source that can be read only once (a pipe, standard input, a device), kept in a
    temporary file as it is read, so that it can be read again from the start."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream: BinaryIO | None = stream
        self.read = getattr(stream, "read1", stream.read)
        import tempfile

        self.kept = tempfile.TemporaryFile(prefix="euchrelog-")  # noqa: SIM115
        self.size = 0

    def bytes_at(self, at: int, n: int) -> bytes:
        """Up to ``n`` bytes from offset ``at`` (fewer when no more have come yet), reading
        more of the source when none are kept there."""
        while self.stream is not None and self.size <= at:
            chunk = self.read(max(n, 1 << 16))
            if not chunk:
                if self.stream is not sys.stdin.buffer:
                    self.stream.close()
                self.stream = None
                break
            os.pwrite(self.kept.fileno(), chunk, self.size)
            self.size += len(chunk)
        return os.pread(self.kept.fileno(), n, at) if at < self.size else b""

    def close(self) -> None:
        """Forgets the source (its temporary file is removed)."""
        if self.stream is not None and self.stream is not sys.stdin.buffer:
            self.stream.close()
        self.stream = None
        self.kept.close()


class _SpoolReader(io.RawIOBase):
    """One reading of a :class:`_Spool`, from the start."""

    def __init__(self, spool: _Spool) -> None:
        self.spool = spool
        self.at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.spool.bytes_at(self.at, len(buffer))
        buffer[:len(data)] = data
        self.at += len(data)
        return len(data)


_SPOOLS: dict[str, _Spool] = {}
"""The sources read once in this run, by path (``-`` is standard input)."""


def forget_sources() -> None:
    """Closes the sources kept by :func:`open_source` (at the end of a command)."""
    for spool in _SPOOLS.values():
        spool.close()
    _SPOOLS.clear()


def is_regular(path: str) -> bool:
    """Whether ``path`` is a regular file (not ``-``, a pipe, a device or a folder)."""
    try:
        return path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _open_pipe(path: str) -> BinaryIO:
    """Opens a named pipe for reading, waiting at most :data:`PIPE_WAIT` seconds for a
    program to write to it.

    :raises OSError: (ETIMEDOUT) when no program opened it for writing in that time.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    poll = select.poll()
    poll.register(fd, select.POLLIN | select.POLLHUP)
    if not poll.poll(PIPE_WAIT * 1000):
        os.close(fd)
        raise OSError(errno.ETIMEDOUT, f"no program wrote to the named pipe in {PIPE_WAIT:g} s",
                      path)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb", buffering=0)


def open_source(path: str) -> BinaryIO:
    """A binary reader of a source from its start: ``-`` is standard input. A regular file
    is opened again each time; anything else is read once, as it is needed, and kept for
    the next reader (until :func:`forget_sources`).

    :raises OSError: when the source cannot be opened.
    """
    if is_regular(path):
        return open(path, "rb")
    spool = _SPOOLS.get(path)
    if spool is None:
        if path == "-":
            stream: BinaryIO = sys.stdin.buffer
        elif stat.S_ISFIFO(os.stat(path).st_mode):
            stream = _open_pipe(path)
        else:
            stream = open(path, "rb", buffering=0)  # noqa: SIM115
        spool = _SPOOLS[path] = _Spool(stream)
    return io.BufferedReader(_SpoolReader(spool))


def read_lines(path: str, limits: Limits, *, strip_bom: bool = True,
               progress: Progress | None = None) -> Iterator[str]:
    """The lines of a file or stdin, decoded one by one (so a file is never held whole),
    counted in ``progress``.

    :raises NotationError: at the first line that is not UTF-8.
    :raises LimitError: at the first line over a limit (which is not read whole).
    """
    stream = open_source(path)
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
    gets the mode the umask leaves. A link is kept and the file it points to is written. A
    file with several names (hard links) keeps them: the text is written to the temporary
    file first, then copied into the file in place.

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
    import tempfile

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
        if old is not None and old.st_nlink > 1:
            _copy_in_place(tmp, target)
            Path(tmp).unlink()
            return
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


def _copy_in_place(source: str, target: Path) -> None:
    """Copies a file's bytes over another's, keeping the target's inode (and so its hard
    links), and syncs it."""
    with open(source, "rb") as src, open(target, "r+b") as dst:
        while block := src.read(1 << 20):
            dst.write(block)
        dst.truncate()
        dst.flush()
        os.fsync(dst.fileno())


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether an output path is something other than a regular file to replace: a device,
    a named pipe, a socket, or a path under ``/dev`` or ``/proc`` (``/dev/stdout``,
    ``/dev/fd/63`` of process substitution)."""
    text = os.path.abspath(os.fspath(path))
    if text.startswith(("/dev/", "/proc/")):
        return True
    try:
        return not stat.S_ISREG(os.stat(text).st_mode)
    except OSError:  # not there yet: a new regular file
        return False


def write_stream(path: str | os.PathLike[str], content: str | Callable[[TextIO], None]) -> None:
    """Writes a text, or what a writer function writes, straight into ``path`` (a device,
    a pipe): it is opened for writing and never replaced."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        if isinstance(content, str):
            fh.write(content)
        else:
            content(fh)


def write_stdout(text: str) -> None:
    """Writes ``text`` to standard output exactly as it is (no escape sequence stripped,
    whatever standard output is)."""
    sys.stdout.write(text)


def failure_text(exc: OSError) -> str:
    """Why a file could not be written, in a few lowercase words."""
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def write_output(path: str | os.PathLike[str], content: str | Callable[[TextIO], None], *,
                 force: bool = False) -> None:
    """Writes a command's output file: :func:`write_stream` for a device, a pipe or
    ``/dev/stdout`` (:func:`is_stream`), else :func:`write_atomic`.

    :raises FileError: (exit status 2) when it cannot be written, saying that the file
        is unchanged.
    """
    try:
        if is_stream(path):
            write_stream(path, content)
        else:
            write_atomic(path, content, force=force)
    except BrokenPipeError:
        raise
    except OSError as exc:
        kept = "unchanged" if os.path.lexists(path) else "not written"
        raise FileError(f"cannot write {os.fspath(path)}: {failure_text(exc)}; "
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
            import socket  # (a lock taken: a server's)

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
