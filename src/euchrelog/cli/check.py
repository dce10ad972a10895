"""The ``euchrelog check`` command: every source replayed (here, in a pool of processes or
on a Dask cluster, :mod:`euchrelog.checker`), its findings printed in the format asked for
(:mod:`euchrelog.cli.formats`) and counted in a :class:`~euchrelog.report.Report`."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from .. import checker
from ..checker import check_one, prepare_reader
from ..errors import NotationError
from ..files import FileError, Limits, failure_text, write_output, write_stdout
from ..findings import Finding
from ..progress import Progress, total_size
from ..report import Report
from ..runs import Runner
from ..sources import NOTATION, Chunk, open_source
from .formats import FORMATS, FindingPrinter, Selection, colour_option, use_colour
from .options import (
    JOBS,
    Configured,
    config_options,
    expand,
    jobs_for,
    jobs_option,
    limit_options,
    need_dask,
)
from .streams import closed_stdout, source_name

if TYPE_CHECKING:
    from ..check import GameCheck


@click.command(cls=Configured)
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
@click.option("--fix", is_flag=True,
              help="Correct in place every finding whose correction the replay proves (a card "
                   "read as the one that fits, points, totals, result), then report the rest.")
@click.option("--unsafe-fixes", is_flag=True,
              help="With --fix or --diff, make the guesses too (a seat read as the due one, a "
                   "dealer, a deal number).")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing but a unified diff of what --fix would change; exit 1 if "
                   "there is one.")
@click.option("--unused-noqa", is_flag=True,
              help="Report each '# noqa' comment that leaves out no finding (N102).")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when findings are reported (2 still for a syntax error).")
@click.option("--statistics", is_flag=True,
              help="Print a count per code instead of each finding.")
@colour_option
@jobs_option("check games", "1 MB")
@click.option("--scheduler", metavar="ADDRESS",
              help="Check the games on the workers of this Dask scheduler (like "
                   "tcp://10.0.0.5:8786, or a scheduler file like scheduler.json), in the "
                   "batches of --jobs; the output is that of a local run. Needs "
                   "euchrelog[dask] here and on the workers.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print neither the summary nor the progress line on stderr.")
@limit_options("8G")
@config_options
def check(sources: tuple[str, ...], fmt: str, select: tuple[str, ...],
          ignore: tuple[str, ...], fix: bool, unsafe_fixes: bool, show_diff: bool,
          unused_noqa: bool, exit_zero: bool, statistics: bool, colour: str, jobs: int,
          scheduler: str | None, quiet: bool, max_bytes: int, max_line: int) -> None:
    """Replay records and report every rule violation.

    SOURCES are .euchre files, folders (searched for *.euchre), JSON or JSON Lines
    files, or - for standard input. Every game is replayed under its Variant and
    Rules tags; a syntax error costs only its own game. Files are read game by game,
    so memory stays flat however large they are; a progress line is shown on a
    terminal.

    A finding is left out by a '# noqa: CODE' comment at the end of its line (or
    '# noqa' for every code). Options not given are read from the configuration: an
    euchrelog.toml, or [tool.euchrelog] in a pyproject.toml, found from the sources up
    ('euchrelog docs cli').

    Exit status: 0 clean, 1 findings, 2 syntax or usage error.

    \b
    Examples:
      euchrelog check samples/valid
      euchrelog check game.euchre --fix
      euchrelog check archive/ --jobs 4
      euchrelog check archive/ --scheduler tcp://10.0.0.5:8786
    """
    if scheduler is not None and jobs != JOBS:
        raise click.UsageError("--jobs and --scheduler do not go together")
    if scheduler is not None:
        need_dask()
    if fix and show_diff:
        raise click.UsageError("--fix writes the corrections, --diff shows them: use one")
    try:
        selection = Selection.parse(select, ignore, unused_noqa=unused_noqa)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--select' / '--ignore'") from None
    printer = FindingPrinter(fmt, use_colour(sys.stdout, colour), statistics)
    paths = list(expand(sources))
    limits = Limits(max_bytes, max_line)
    if fix or show_diff:
        if _fix_all(paths, limits, selection, unsafe=unsafe_fixes, show=show_diff,
                    quiet=quiet) and show_diff:
            sys.exit(0 if exit_zero else 1)
        if show_diff:
            sys.exit(0)
    if scheduler is None:
        jobs = jobs_for(jobs, paths, AUTO_PARALLEL_BYTES)
    report = Report(exit_zero=exit_zero)
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


def _fix_all(paths: list[str], limits: Limits, selection: Selection, *, unsafe: bool,
             show: bool, quiet: bool) -> bool:
    """Makes the fixes of every source of notation (``show``: prints their diff instead);
    says what it did on stderr. Returns whether anything was (or would be) changed. A
    record read from standard input is written corrected to standard output (and then not
    checked)."""
    from ..fixes import fix_text  # (the reader and the replay: only when fixing)
    from .fmt import unified_diff

    changed = fixed = 0
    withheld: list[str] = []
    for path in paths:
        name = source_name(path)
        try:
            source = open_source(path, limits)
            if source.kind != NOTATION:
                continue  # (JSON and the formats from elsewhere are not rewritten)
            text = source.text()
        except NotationError:
            continue  # (reported by the check that follows)
        except OSError as exc:
            raise FileError(f"cannot read {name}: {failure_text(exc)}") from None
        chosen = selection.for_path(name)
        outcome = fix_text(text, name, unsafe=unsafe, wanted=chosen.wants_finding)
        withheld += [f"{name} game {k}" for k in outcome.withheld]
        if outcome.text == text:
            if path == "-" and not show:
                write_stdout(text)
            continue
        changed += 1
        fixed += len(outcome.fixed)
        if show:
            click.echo(unified_diff(text, outcome.text, name), nl=False)
        elif path == "-":
            write_stdout(outcome.text)
        else:
            write_output(path, outcome.text)
    if not quiet:
        verb = "would fix" if show else "fixed"
        if fixed:
            click.echo(f"{verb} {fixed} finding{'s' if fixed != 1 else ''} in {changed} "
                       f"file{'s' if changed != 1 else ''}", err=True)
        if withheld:
            click.echo(f"left as written: {', '.join(withheld)} (the corrections would leave "
                       "a finding the record did not have, or more than one reading fits)",
                       err=True)
    if "-" in paths and not show:
        sys.exit(0)
    return changed > 0


def _check_all(paths: list[str], jobs: int, limits: Limits, printer: FindingPrinter,
               selection: Selection, report: Report, progress: Progress,
               scheduler: str | None = None) -> None:
    """Checks every source, printing the findings wanted and counting them in ``report``."""
    with Runner(jobs, scheduler, prepare_reader) as runner:
        for path in paths:
            report.files += 1
            name = source_name(path)
            found = 0
            games = report.games
            try:
                source = open_source(path, limits, progress)
                wanted = selection.for_path(name)
                for _, result in runner.map(check_one, source.chunks(),
                                            batching=checker.BY_LINES, what=_batch_name):
                    if result.comments_only:
                        continue
                    every = result.findings + ([replace(f, game=result.index)
                                                for f in result.unused]
                                               if wanted.unused_noqa else [])
                    result.findings = sorted((f for f in every if wanted.wants(f.code)),
                                             key=lambda f: (f.line, f.column))
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
            elif report.games == games:
                report.empty.append(name)


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
