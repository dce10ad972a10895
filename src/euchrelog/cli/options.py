"""What the commands' options share, and what turns the errors of
:mod:`euchrelog.files` into the command line's messages."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator
from typing import TypeVar

import click

from .. import files
from ..files import Limits, NoRecordsError, parse_size
from ..report import EXIT_FILE

T = TypeVar("T")


def parsed(parse: Callable[[str], T]
           ) -> Callable[[click.Context, click.Parameter, str | None], T | None]:
    """An option's callback that reads its value with ``parse``; the ``ValueError`` of a
    value it cannot read is a usage error."""
    def callback(_ctx: click.Context, _param: click.Parameter, value: str | None) -> T | None:
        if value is None:
            return None
        try:
            return parse(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    return callback


def limit_options(default_size: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The size-limit options of a command that reads records (:class:`~euchrelog.files.Limits`)."""
    def add(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option(
            "--max-line-length", "max_line", type=click.IntRange(min=1),
            default=Limits.max_line, show_default=True, metavar="BYTES",
            help="Stop reading an input at a line longer than this (finding S104).")(command)
        return click.option(
            "--max-file-size", "max_bytes", default=default_size, callback=parsed(parse_size),
            show_default=True, metavar="SIZE",
            help="Stop reading an input after this many bytes, like 200, 64K, 256M or 8G "
                 "(finding S103).")(command)
    return add


def _warn(message: str) -> None:
    click.echo(message, err=True)


def expand(sources: tuple[str, ...], *, quiet: bool = False) -> Iterator[str]:
    """:func:`euchrelog.files.expand` for a command: a link out of a folder is named on
    stderr unless ``quiet``.

    :raises click.UsageError: for a folder without a record.
    """
    try:
        yield from files.expand(sources, warn=None if quiet else _warn)
    except NoRecordsError as exc:
        raise click.UsageError(str(exc)) from None


class FileFailed(click.ClickException):
    """A :class:`~euchrelog.files.FileError` as the command line reports it: one line on
    stderr, exit status 2."""

    exit_code = EXIT_FILE

    def show(self, file: object = None) -> None:
        say_failure(self.format_message())


def say_failure(message: str) -> None:
    """Says on stderr that a file cannot be read or written."""
    click.echo(f"euchrelog: {message}", err=True)


def need_dask() -> None:
    """Imports Dask for a command's ``--scheduler``, and leaves what goes wrong to the
    command's own messages (Dask logs a lost scheduler with its tracebacks); raises a usage
    error where the dask extra is not installed."""
    try:
        importlib.import_module("distributed")
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in ("dask", "distributed"):
            raise
        raise click.UsageError("--scheduler needs Dask: pip install 'euchrelog[dask]'") from None
    for name in list(logging.root.manager.loggerDict):  # those that Dask's import made
        if name.partition(".")[0] in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
