"""The ``euchrelog check`` command: every source replayed (here, in a pool of processes or
on a Dask cluster, :mod:`euchrelog.checker`), its findings printed in the format asked for
(:mod:`euchrelog.cli.formats`) and counted in a :class:`~euchrelog.report.Report`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .. import checker
from ..checker import check_one, prepare_reader
from ..errors import NotationError
from ..files import FileError, Limits, failure_text
from ..findings import Finding
from ..progress import Progress, total_size
from ..report import Report
from ..runs import Runner
from ..sources import Chunk, open_source, source_name
from .formats import FORMATS, FindingPrinter, Selection, use_colour
from .options import expand, limit_options, need_dask
from .streams import closed_stdout

if TYPE_CHECKING:
    from ..check import GameCheck


@click.command()
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True,
              help="text: one 'path:line:col: CODE message' line per finding; json: one JSON "
                   "object per finding per line; github: workflow annotations; sarif: one "
                   "SARIF 2.1.0 log.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Report only these codes or code prefixes, like R8,C901 (repeatable).")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Do not report these codes or code prefixes (repeatable).")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when findings are reported (2 still for a syntax error).")
@click.option("--statistics", is_flag=True,
              help="Print a count per code instead of each finding.")
@click.option("--color", "colour", type=click.Choice(["auto", "always", "never"]),
              default="auto", show_default=True,
              help="Colour the path and code: auto on a terminal unless NO_COLOR is set.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0,
              help="Processes that check games in parallel (output stays in input order). "
                   "Default 0: every core when the input is 1 MB or more, else one.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Check the games on the workers of this Dask scheduler (like "
                   "tcp://10.0.0.5:8786, or a scheduler file like scheduler.json), in the "
                   "batches of --jobs; the output is that of a local run. Needs "
                   "euchrelog[dask] here and on the workers.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print neither the summary nor the progress line on stderr.")
@limit_options("8G")
def check(sources: tuple[str, ...], fmt: str, select: tuple[str, ...],
          ignore: tuple[str, ...], exit_zero: bool, statistics: bool, colour: str, jobs: int,
          scheduler: str | None, quiet: bool, max_bytes: int, max_line: int) -> None:
    """Replay records and report every rule violation.

    SOURCES are .euchre files, folders (searched for *.euchre), JSON or JSON Lines
    files, or - for standard input. Every game is replayed under its Variant and
    Rules tags; a syntax error costs only its own game. Files are read game by game,
    so memory stays flat however large they are; a progress line is shown on a
    terminal.

    A finding is left out by a '# noqa: CODE' comment at the end of its line (or
    '# noqa' for every code).

    Exit status: 0 clean, 1 findings, 2 syntax or usage error.

    \b
    Examples:
      euchrelog check samples/valid
      euchrelog check archive/ --jobs 4
      euchrelog check archive/ --scheduler tcp://10.0.0.5:8786
    """
    if scheduler is not None and jobs:
        raise click.UsageError("--jobs and --scheduler do not go together")
    if scheduler is not None:
        need_dask()
    try:
        selection = Selection.parse(select, ignore)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--select' / '--ignore'") from None
    printer = FindingPrinter(fmt, use_colour(sys.stdout, colour), statistics)
    paths = list(expand(sources))
    if jobs == 0 and scheduler is None:
        size = sum(Path(p).stat().st_size for p in paths if p != "-")
        jobs = (os.cpu_count() or 1) if size >= AUTO_PARALLEL_BYTES else 1
    report = Report(exit_zero=exit_zero)
    limits = Limits(max_bytes, max_line)
    progress = Progress(total_size(paths), enabled=not quiet)
    try:
        _check_all(paths, jobs, limits, printer, selection, report, progress, scheduler)
        progress.clear()
        printer.close()
    except BrokenPipeError:  # the reader of the findings has gone: stop quietly
        closed_stdout()
        progress.clear()
        sys.exit(report.return_code)
    except KeyboardInterrupt:  # Ctrl-C: what was found so far, and that it is not all
        progress.clear()
        printer.close()
        sys.stdout.flush()
        report.interrupted = True
        if not quiet:
            click.echo(report.summary(), err=True)
        sys.exit(report.return_code)
    if not quiet:
        click.echo(report.summary(), err=True)
    sys.exit(report.return_code)


def _check_all(paths: list[str], jobs: int, limits: Limits, printer: FindingPrinter,
               selection: Selection, report: Report, progress: Progress,
               scheduler: str | None = None) -> None:
    """Checks every source, printing the findings wanted and counting them in ``report``."""
    with Runner(jobs, scheduler, prepare_reader) as runner:
        for path in paths:
            report.files += 1
            name = source_name(path)
            found = 0
            try:
                source = open_source(path, limits, progress)
                for _, result in runner.map(check_one, source.chunks(), batching=checker.BY_LINES,
                                            what=_batch_name):
                    if result.comments_only:
                        continue
                    result.findings = [f for f in result.findings if selection.wants(f.code)]
                    _count(report, result)
                    progress.count(result.deals)
                    if result.findings:
                        progress.clear()
                    for finding in result.findings:
                        printer.emit(finding, result.context if finding.kind.syntax else "")
                    found += len(result.findings)
            except NotationError as exc:  # bytes that are not UTF-8 text, or over a limit
                finding = Finding(exc.code, exc.message, exc.line, exc.column, path=name)
                progress.clear()
                printer.emit(finding)
                report.findings += 1
                report.syntax_errors += 1
                found += 1
            except BrokenPipeError:  # standard output, not this source
                raise
            except OSError as exc:
                raise FileError(f"cannot read {name}: {failure_text(exc)}") from None
            if found:
                report.files_with_findings += 1


def _batch_name(batch: list[Chunk]) -> str:
    """A batch of games in messages: where it starts."""
    first = batch[0]
    return f"the games of {first.path or '<stdin>'} from line {first.first_line}"


AUTO_PARALLEL_BYTES = 1_000_000
"""Input size from which ``check`` uses every core unless told otherwise."""


def _count(report: Report, result: GameCheck) -> None:
    report.games += 1
    report.deals += result.deals
    report.findings += len(result.findings)
    report.notes += sum(not f.is_fault for f in result.findings)
    if result.syntax_error and any(f.kind.syntax for f in result.findings):
        report.syntax_errors += 1
