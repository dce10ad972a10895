"""The commands' ends of their streams: a source read whole as text, its name in
messages, a syntax error in it as a located message (exit status 2), and a standard output
whose reader has gone."""

from __future__ import annotations

import os
import sys

import click

from ..errors import NotationError, RecordError
from ..files import Limits, read_lines
from ..progress import Progress
from ..report import EXIT_SYNTAX, visible, visible_context
from ..sources import source_name

__all__ = ["SyntaxFailure", "closed_stdout", "read_text", "source_name", "syntax_failure"]


def read_text(path: str, limits: Limits, progress: Progress | None = None) -> str:
    """A whole file or stdin as text, byte-order mark and all (``fmt`` compares it)."""
    return "".join(read_lines(path, limits, strip_bom=False, progress=progress))


class SyntaxFailure(click.ClickException):
    """A record that cannot be read; exit status 2."""

    exit_code = EXIT_SYNTAX

    def show(self, file: object = None) -> None:
        click.echo(self.format_message(), err=True)


def syntax_failure(path: str, exc: NotationError | RecordError) -> SyntaxFailure:
    """A syntax error as a located message (S101 for notation, S102 for JSON)."""
    if isinstance(exc, RecordError):
        where = f":{exc.line}:{exc.column}" if exc.line else ""
        return SyntaxFailure(f"{source_name(path)}{where}: S102 {exc}")
    context = "".join(f"\n    {line}" for line in visible_context(exc.context).splitlines())
    return SyntaxFailure(f"{source_name(path)}:{exc.line}:{exc.column}: {exc.code} "
                         f"{visible(exc.message)}"
                         f"{context}")


def closed_stdout() -> None:
    """Points standard output at the null device once its reader has gone (``| head``), so
    that nothing more is written to the closed pipe and the last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - a stdout with no file behind it
        pass
