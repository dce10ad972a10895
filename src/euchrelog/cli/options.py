"""What the commands' options share, and what turns the errors of
:mod:`euchrelog.files` into the command line's messages."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from .. import files
from ..files import Limits, NoRecordsError, parse_size
from ..report import EXIT_FILE
from .config import Config, apply, find_config, load_config, option_keys, sources_folder

if TYPE_CHECKING:
    from ..analysis import Settings

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
    stderr unless ``quiet``; a file that the configuration's ``exclude`` names is left out
    of a folder's search (a file named on the command line is read all the same).

    :raises click.UsageError: for a folder without a record.
    """
    config = current_config()
    named = set(sources)
    try:
        for path in files.expand(sources, warn=None if quiet else _warn):
            if path in named or not config.excluded(path):
                yield path
    except NoRecordsError as exc:
        raise click.UsageError(str(exc)) from None


# ------------------------------------------------------------------ jobs

JOBS = 0
"""The default of every command's ``--jobs``: 0, as many processes as pay off (every core
once the input is large enough for the command's work, else one)."""


def jobs_option(what: str, threshold: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The ``-j``/``--jobs`` option of a command that works on games in processes: ``what``
    it does with them, and from what input size (``threshold``) the default uses every
    core."""
    return click.option(
        "-j", "--jobs", type=click.IntRange(min=0), default=JOBS,
        help=f"Processes that {what} in parallel (the output stays in input order). "
             f"Default {JOBS}: every core when the input is {threshold} or more, else one.")


def sampling_options(samples_note: str, same: str
                     ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The options of the single-dummy draws (``--samples``, ``--exact-limit``, ``--seed``)
    of a command with ``--single-dummy``: ``samples_note`` ends the help of ``--samples``,
    ``same`` names what the same seed gives the same of. :func:`single_settings` reads
    them."""
    def add(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option(
            "--seed", type=int, metavar="S",
            help=f"With --single-dummy: the seed of the draws (the same seed, the same "
                 f"{same}).  [default: 0]")(command)
        command = click.option(
            "--exact-limit", type=click.IntRange(min=0), metavar="M",
            help="With --single-dummy: value every layout when there are at most M.  "
                 "[default: 64]")(command)
        return click.option(
            "--samples", type=click.IntRange(min=1), metavar="N",
            help="With --single-dummy: layouts drawn where there are more than the exact "
                 f"limit{samples_note}.  [default: 64]")(command)
    return add


def single_settings(single: bool, samples: int | None, exact_limit: int | None,
                    seed: int | None) -> Settings | None:
    """The single-dummy settings the options of :func:`sampling_options` ask for (``None``:
    without ``--single-dummy``), the defaults of :class:`~euchrelog.analysis.Settings`
    where an option is not given.

    :raises click.UsageError: for one of them without ``--single-dummy``.
    """
    given = [name for name, value in (("--samples", samples), ("--exact-limit", exact_limit),
                                      ("--seed", seed)) if value is not None]
    if given and not single:
        raise click.UsageError(f"{given[0]} goes with --single-dummy")
    if not single:
        return None
    from ..analysis import Settings

    defaults = Settings()
    return Settings(defaults.samples if samples is None else samples,
                    defaults.exact_limit if exact_limit is None else exact_limit,
                    defaults.seed if seed is None else seed)


def jobs_for(jobs: int, paths: list[str], threshold: int) -> int:
    """The processes of ``--jobs``: as asked, or (:data:`JOBS`) every core once the files
    add up to ``threshold`` bytes, else one."""
    if jobs != JOBS:
        return jobs
    size = sum(Path(p).stat().st_size for p in paths if p != "-")
    return (os.cpu_count() or 1) if size >= threshold else 1


# ------------------------------------------------------------------ configuration

_CONFIG = "euchrelog.config"
"""The key of the run's :class:`~euchrelog.cli.config.Config` in the context's ``meta``."""


def current_config() -> Config:
    """The configuration of the command being run (an empty one outside a command)."""
    ctx = click.get_current_context(silent=True)
    found = ctx.meta.get(_CONFIG) if ctx is not None else None
    return found if isinstance(found, Config) else Config()


def _keep(ctx: click.Context, param: click.Parameter, value: object) -> None:
    """Keeps the value of ``--config`` or ``--isolated`` for :class:`Configured`."""
    ctx.meta[f"{_CONFIG}.{param.name}"] = value


def config_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options that choose a command's configuration: ``--config`` and ``--isolated``
    (read by :class:`Configured`, not by the command)."""
    command = click.option(
        "--isolated", is_flag=True, expose_value=False, callback=_keep,
        help="Read no configuration file.")(command)
    return click.option(
        "--config", "config_file", metavar="FILE", expose_value=False, callback=_keep,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Read the configuration from FILE (an euchrelog.toml, or a pyproject.toml with "
             "[tool.euchrelog]) instead of the one found from the sources up.")(command)


class Configured(click.Command):
    """A command that takes its configuration before it runs: the file named by
    ``--config``, or found from its sources up (none with ``--isolated``), which sets the
    options the command line leaves at their defaults (:mod:`euchrelog.cli.config`)."""

    def invoke(self, ctx: click.Context) -> object:
        ctx.meta[_CONFIG] = config = self.configuration(ctx)
        apply(ctx, config)
        return super().invoke(ctx)

    def configuration(self, ctx: click.Context) -> Config:
        """The configuration of this run."""
        if ctx.meta.get(f"{_CONFIG}.isolated"):
            return Config()
        path = ctx.meta.get(f"{_CONFIG}.config_file")
        if path is None:
            sources = next((ctx.params.get(p.name) for p in self.params
                            if isinstance(p, click.Argument) and p.name is not None), None)
            values = (sources,) if isinstance(sources, str | Path) else tuple(sources or ())
            path = find_config(sources_folder(str(v) for v in values))
            if path is None:
                return Config()
        group = ctx.parent.command if ctx.parent is not None else None
        names = (group.list_commands(ctx.parent) if isinstance(group, click.Group)
                 and ctx.parent is not None else [])
        assert self.name is not None
        return load_config(Path(path), names, self.name, option_keys(self))


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
    import logging

    for name in list(logging.root.manager.loggerDict):  # those that Dask's import made
        if name.partition(".")[0] in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
