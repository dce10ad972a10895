"""The terminal of ``euchrelog record``: :class:`Console` asks the questions (with readline
completion, or from standard input, echoed), :func:`signature` tells one version of the file
from another, and :class:`SaveError` is a save that failed."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

COMMANDS = ("undo", "?", "help", "sheet", "penalty", "quit")
"""Words that may be typed at any prompt."""


class SaveError(Exception):
    """The file could not be saved: the session takes nothing more."""

    def __init__(self, reason: str, what: str, *, changed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        """Why the file could not be written."""
        self.what = what
        """What the failed save would have put on the disk."""
        self.changed = changed
        """Whether another program changed the file (else it is as this session left it)."""


class Console:
    """Asks questions on the terminal, with readline completion and history, or reads the
    answers from standard input (echoing them) when it is not a terminal."""

    def __init__(self) -> None:
        self.tty = _isatty(sys.stdin)
        self.words: list[str] = []
        if self.tty:
            self._readline()

    def _readline(self) -> None:
        try:
            import readline
        except ImportError:  # pragma: no cover - a Python without readline
            return
        readline.set_completer(self._complete)
        readline.set_completer_delims(" \t,:")
        if "libedit" in (readline.__doc__ or ""):  # pragma: no cover - macOS
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    def _complete(self, text: str, state: int) -> str | None:
        options = [w for w in dict.fromkeys(self.words) if w.lower().startswith(text.lower())]
        return options[state] if state < len(options) else None

    def ask(self, prompt: str, words: Sequence[str]) -> str | None:
        """One answer, or ``None`` at the end of the input."""
        self.words = [*words, *COMMANDS]
        if self.tty:
            try:
                return input(prompt)
            except EOFError:
                click.echo()
                return None
        click.echo(prompt, nl=False)
        raw = sys.stdin.buffer.readline()
        if not raw:
            click.echo()
            return None
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        click.echo(line)
        return line

    def say(self, text: str = "") -> None:
        """Shows a line."""
        click.echo(text)


def signature(path: Path) -> tuple[int, int, int, int] | None:
    """What tells one version of a file from another: its inode, size, time of last change
    and time of last status change (which, unlike the first, no program can set back: a
    rewrite of the same size that restores the modification time still shows), ``None``
    when there is no file."""
    try:
        st = os.stat(os.path.realpath(path))
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False

