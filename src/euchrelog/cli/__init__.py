"""The ``euchrelog`` command line."""

from __future__ import annotations

import collections
import contextlib
import difflib
import gc
import importlib
import itertools
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, TextIO

import click

from .. import __version__
from ..check import GameCheck
from ..checker import Checker, foreign_kind
from ..errors import EuchrelogError, NotationError, RecordError
from ..explain import explain
from ..files import (
    EXTENSION,
    FileError,
    Limits,
    failure_text,
    forget_sources,
    write_output,
    write_stdout,
)
from ..files import read_lines as _lines
from ..findings import Finding
from ..interop import KINDS, ConversionError, check_converted, read_source
from ..interop.egn import dumps_egn
from ..models import Log, LogItem
from ..notation import iter_log, loads, log_of, text_lines
from ..notation.jsonio import is_json, iter_json_log, loads_json, peek, write_json
from ..notation.writer import dumps, write_log
from ..progress import Progress, total_size
from ..report import (
    EXIT_INTERRUPTED,
    EXIT_SYNTAX,
    Report,
    visible,
    visible_context,
)
from .formats import FORMATS, FindingPrinter, Selection, use_colour
from .options import FileFailed, say_failure
from .options import expand as _expand
from .options import limit_options as _limit_options


def _read(path: str, limits: Limits, progress: Progress | None = None) -> str:
    """A whole file or stdin as text, byte-order mark and all (``fmt`` compares it)."""
    return "".join(_lines(path, limits, strip_bom=False, progress=progress))


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


class _Commands(click.Group):
    """The commands, those of other modules imported when first named (so that ``check``
    does not pay for importing the recorder and the event scorer)."""

    elsewhere: ClassVar[dict[str, str]] = {"analyze": "euchrelog.cli.analyze",
                                           "docs": "euchrelog.cli.docs",
                                           "record": "euchrelog.cli.record",
                                           "score": "euchrelog.cli.score",
                                           "serve": "euchrelog.cli.serve",
                                           "stats": "euchrelog.cli.stats",
                                           "view": "euchrelog.cli.view"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.elsewhere})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.elsewhere and cmd_name not in self.commands:
            command = getattr(importlib.import_module(self.elsewhere[cmd_name]), cmd_name)
            self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        """Runs the command, a file it cannot read or write reported as :class:`FileFailed`."""
        try:
            return super().invoke(ctx)
        except FileError as exc:
            raise FileFailed(str(exc)) from None


@click.group(cls=_Commands,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 96})
@click.version_option(__version__, prog_name="euchrelog")
def main() -> None:
    """Record Euchre games as plain text and prove them right or wrong.

    A record is a .euchre file in the euchrelog notation. The commands below check
    records by replaying every deal, convert them to JSON and back, and print them in
    canonical form; 'euchrelog explain CODE' tells what a finding means, and
    'euchrelog docs' prints the manual (docs/ in the source).

    \b
    Examples:
      euchrelog check samples/valid
      euchrelog check game.euchre --format json
      euchrelog convert game.euchre -o game.json
      euchrelog fmt --check samples
    """
    click.get_current_context().call_on_close(forget_sources)


@main.command()
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
@_limit_options("8G")
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
    try:
        selection = Selection.parse(select, ignore)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--select' / '--ignore'") from None
    printer = FindingPrinter(fmt, use_colour(sys.stdout, colour), statistics)
    paths = list(_expand(sources))
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
    with checker_for(jobs, scheduler, progress) as checker:
        for path in paths:
            report.files += 1
            name = _name(path)
            found = 0
            try:
                kind = foreign_kind(path, limits)
                if kind:
                    progress.clear()
                results = (_check_foreign(kind, path, name, limits, printer, selection) if kind
                           else checker.run(path, name, limits))
                for result in results:
                    result.findings = [f for f in result.findings if selection.wants(f.code)]
                    _count(report, result)
                    progress.count(result.deals)
                    if result.findings:
                        progress.clear()
                    for finding in result.findings if not kind else ():  # printed there
                        printer.emit(finding, result.context if finding.code == "S101" else "")
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


def _check_foreign(kind: str, path: str, name: str, limits: Limits, printer: FindingPrinter,
                   selection: Selection) -> Iterator[GameCheck]:
    """Checks the games of a source from elsewhere, printing each finding wanted at its
    place in the input (a JSON path, or line:action), and yields their counts."""
    for index, item in enumerate(read_source(kind, _read(path, limits)), 1):
        if isinstance(item, ConversionError):
            finding = Finding("S102", item.message, path=name, game=index)
            placed = [(finding, item.where)]
            result = GameCheck(index, 0, [finding], syntax_error=True)
        else:
            report, found = check_converted(item)
            placed = [(replace(p.finding, path=name, game=index, line=0, column=0), p.where)
                      for p in found if selection.wants(p.finding.code)]
            result = GameCheck(index, 0, [f for f, _ in placed], report,
                               deals=len(item.game.deals))
        for finding, where in placed:
            if printer.statistics or printer.fmt in ("github", "sarif"):
                printer.emit(finding)  # no line to point at: the file is annotated
            elif printer.fmt == "json":
                click.echo(json.dumps({**finding.to_dict(), "where": where}, ensure_ascii=False))
            else:
                click.echo(f"{name}:{where}: {finding.code} {finding.message}")
        yield result


AUTO_PARALLEL_BYTES = 1_000_000
"""Input size from which ``check`` uses every core unless told otherwise."""


def checker_for(jobs: int, scheduler: str | None, progress: Progress | None = None
                ) -> Checker:
    """A checker with ``jobs`` processes here, or on the workers of a Dask scheduler."""
    if scheduler is None:
        return Checker(jobs, progress)
    need_dask()
    from ..distributed import DaskChecker
    return DaskChecker(scheduler, progress)


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


def _count(report: Report, result: GameCheck) -> None:
    report.games += 1
    report.deals += result.deals
    report.findings += len(result.findings)
    report.notes += sum(not f.is_fault for f in result.findings)
    if result.syntax_error and any(f.code in ("S101", "S102") for f in result.findings):
        report.syntax_errors += 1


class SyntaxFailure(click.ClickException):
    """A record that cannot be read; exit status 2."""

    exit_code = EXIT_SYNTAX

    def show(self, file: object = None) -> None:
        click.echo(self.format_message(), err=True)


def _failure(path: str, exc: NotationError | RecordError) -> SyntaxFailure:
    """A syntax error as a located message (S101 for notation, S102 for JSON)."""
    if isinstance(exc, RecordError):
        return SyntaxFailure(f"{_name(path)}: S102 {exc}")
    context = "".join(f"\n    {line}" for line in visible_context(exc.context).splitlines())
    return SyntaxFailure(f"{_name(path)}:{exc.line}:{exc.column}: {exc.code} "
                         f"{visible(exc.message)}"
                         f"{context}")


def _parse(path: str, text: str, progress: Progress | None = None) -> Log:
    """Reads notation or JSON, turning a syntax error into a located message; the games of
    notation are counted in ``progress`` as they are read."""
    try:
        if is_json(text) or path.endswith((".json", ".jsonl")):
            if progress is not None:
                progress.advance(len(text.encode("utf-8")))
            return loads_json(text)
        if progress is None or not progress.enabled:  # (counting lines costs a pass)
            return loads(text)
        return log_of(progress.games(iter_log(progress.lines(text_lines(text.lstrip("\ufeff"))))))
    except (NotationError, RecordError) as exc:
        raise _failure(path, exc) from None


_TARGETS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", EXTENSION: "euchre",
            ".egn": "egn"}
_SUFFIXES = {"json": ".json", "jsonl": ".jsonl", "euchre": EXTENSION, "egn": ".egn"}


def closed_stdout() -> None:
    """Points standard output at the null device once its reader has gone (``| head``), so
    that nothing more is written to the closed pipe and the last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - a stdout with no file behind it
        pass


@main.command()
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, dir_okay=False, path_type=str))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=str),
              help="Write here (atomically) instead of to standard output; - is standard "
                   "output. Several SOURCES go into this one file.")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write each SOURCE to a file of its own name in this folder, with the "
                   "extension of the output format.")
@click.option("--to", "target", type=click.Choice(["json", "jsonl", "euchre", "egn"]),
              help="The output format. Default: from OUTPUT's extension, else json for "
                   "notation input and euchre for any other input.")
@click.option("--from", "origin", type=click.Choice(KINDS),
              help="Read SOURCES as EGN, EMN or OpenSpiel histories (euchrelog docs "
                   "interop). Default: from the "
                   "extension (.egn, .emn) or the first line.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on stderr but errors.")
@click.option("--force", is_flag=True, help="Rewrite an output file even if it is read-only.")
@_limit_options("8G")
def convert(sources: tuple[str, ...], output: str | None, out_dir: Path | None,
            target: str | None, origin: str | None, quiet: bool, force: bool, max_bytes: int,
            max_line: int) -> None:
    """Convert between the notation, JSON and EGN, without loss.

    SOURCES are .euchre files, JSON documents or JSON Lines files, EGN or EMN files,
    files of OpenSpiel histories, or - for standard input. Comments, unknown tags and
    unknown cards are all kept; what the output format cannot hold is listed on
    standard error.

    \b
    Examples:
      euchrelog convert game.euchre -o game.json
      euchrelog convert games.jsonl --to euchre > games.euchre
      euchrelog convert night/*.euchre --out-dir json/
      euchrelog convert final.egn -o final.euchre
      euchrelog convert histories.jsonl --from openspiel --to euchre
    """
    limits = Limits(max_bytes, max_line)
    if output == "-":
        output = None
    if out_dir is not None:
        if output is not None:
            raise click.UsageError("--output and --out-dir do not go together")
        if "-" in sources:
            raise click.UsageError("standard input has no name to write under --out-dir")
        _convert_each(sources, out_dir, target, origin, limits, quiet, force)
        return
    for source in sources:
        if (output is not None and source != "-" and Path(output).exists()
                and Path(output).resolve() == Path(source).resolve()):
            raise click.UsageError("the output is the input file; write elsewhere")
    progress = Progress(total_size(sources), verb="converting",
                        enabled=not quiet and (output is not None or not sys.stdout.isatty()))
    kind, first = _source_items(sources[0], origin, limits, progress)
    if target is None and output is not None:
        target = _TARGETS.get(Path(output).suffix.lower())
    target = target or ("json" if kind == "euchre" else "euchre")
    items = progress.games(itertools.chain(first, *(_lazy_items(s, origin, limits, progress)
                                                    for s in sources[1:])))
    name = sources[0] if len(sources) == 1 else "the sources"
    try:
        if output is not None:
            write_output(output, _writer(target, items, name), force=force)
        else:
            _writer(target, items, name)(sys.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        closed_stdout()
    finally:
        progress.clear()


def _writer(target: str, items: Iterator[LogItem], name: str) -> Callable[[TextIO], None]:
    """What writes ``items`` (of the source ``name``) in the ``target`` format to a text
    file."""
    def put(fp: TextIO) -> None:
        if target == "egn":
            fp.write(_egn_text(name, items))
        elif target == "euchre":
            write_log(items, fp)
        else:
            write_json(items, fp, lines=target == "jsonl")
    return put


def _source_items(path: str, origin: str | None, limits: Limits, progress: Progress
                  ) -> tuple[str, Iterator[LogItem]]:
    """The kind of a source (``euchre``, ``json``, or ``foreign`` for EGN, EMN and
    OpenSpiel) and its games, read as they are needed."""
    try:
        origin = origin or foreign_kind(path, limits)
    except NotationError as exc:  # bytes that are not UTF-8 text, or over a limit
        raise _failure(path, exc) from None
    if origin is not None:
        return "foreign", _foreign_items(origin, path, limits)
    return _log_items(path, limits, progress)


def _lazy_items(path: str, origin: str | None, limits: Limits, progress: Progress
                ) -> Iterator[LogItem]:
    """The games of a source, opened only when the first one is wanted."""
    yield from _source_items(path, origin, limits, progress)[1]


def _convert_each(sources: tuple[str, ...], out_dir: Path, target: str | None,
                  origin: str | None, limits: Limits, quiet: bool, force: bool) -> None:
    """Converts each source to a file of its own in ``out_dir``."""
    progress = Progress(total_size(sources), verb="converting", enabled=not quiet)
    stems = collections.Counter(Path(source).stem for source in sources)
    twice = [stem for stem, n in stems.items() if n > 1]
    if twice:
        raise click.UsageError(f"two sources would be written to {twice[0]}.* in {out_dir}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for source in sources:
        kind, items = _source_items(source, origin, limits, progress)
        form = target or ("json" if kind == "euchre" else "euchre")
        output = out_dir / (Path(source).stem + _SUFFIXES[form])
        if output.exists() and output.resolve() == Path(source).resolve():
            raise click.UsageError(f"the output for {source} is the input file; write elsewhere")
        try:
            write_output(output, _writer(form, items, source), force=force)
        finally:
            progress.clear()
        if not quiet:
            click.echo(f"{source} -> {output}", err=True)


def _foreign_items(kind: str, path: str, limits: Limits) -> Iterator[LogItem]:
    """The games of a source from elsewhere; one that cannot be converted stops with exit
    status 2, naming its place in the input."""
    try:
        text = _read(path, limits)
    except NotationError as exc:
        raise _failure(path, exc) from None
    for item in read_source(kind, text):
        if isinstance(item, ConversionError):
            raise SyntaxFailure(f"{_name(path)}:{item.where}: S102 {item.message}")
        for what in item.lost:
            click.echo(f"{_name(path)}: not in the record: {what}", err=True)
        yield item.game


def _egn_text(path: str, items: Iterator[LogItem]) -> str:
    """The EGN file of the one game of a source; what EGN cannot hold goes to stderr."""
    games = [item for item in items if not isinstance(item, tuple)]
    if len(games) != 1:
        raise click.UsageError(f"an EGN file holds one game; {_name(path)} has {len(games)}")
    try:
        text, lost = dumps_egn(games[0])
    except ConversionError as exc:
        raise SyntaxFailure(f"{_name(path)}: {exc.where}: EGN cannot record this game: "
                            f"{exc.message}") from None
    for what in lost:
        click.echo(f"{_name(path)}: not in the EGN file: {what}", err=True)
    return text


def _log_items(path: str, limits: Limits, progress: Progress | None = None
               ) -> tuple[str, Iterator[LogItem]]:
    """The format of a source (``euchre`` or ``json``) and its games, read as they are
    needed; a syntax error stops the reading with exit status 2."""
    try:
        first, stream = peek(_lines(path, limits, progress=progress))
    except NotationError as exc:
        raise _failure(path, exc) from None
    kind = "json" if is_json(first) or path.endswith((".json", ".jsonl")) else "euchre"
    items = iter_json_log(stream) if kind == "json" else iter_log(stream)
    return kind, _located(path, items)


def _located(path: str, items: Iterator[LogItem]) -> Iterator[LogItem]:
    """Passes items on, turning a syntax error into a located message."""
    try:
        yield from items
    except (NotationError, RecordError) as exc:
        raise _failure(path, exc) from None


@main.command()
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--in-place", "-i", is_flag=True, help="Rewrite each file in canonical form.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 if any file is not in canonical form.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing but a unified diff of each file that is not in canonical "
                   "form; exit 1 if there is one.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on stderr but errors.")
@click.option("--force", is_flag=True, help="With --in-place, rewrite read-only files too.")
@_limit_options("256M")
def fmt(files: tuple[str, ...], in_place: bool, check_only: bool, show_diff: bool,
        quiet: bool, force: bool, max_bytes: int, max_line: int) -> None:
    """Print records in canonical form.

    FILES are .euchre files, folders (searched for *.euchre) or - for standard input.
    The canonical form of a canonical file is the file itself.
    """
    if in_place and (check_only or show_diff):
        raise click.UsageError("--in-place and --check or --diff do not go together")
    report = Report("fmt")
    paths = list(_expand(files))
    progress = Progress(total_size(paths), verb="formatting", enabled=not quiet and (
        in_place or check_only or show_diff or not sys.stdout.isatty()))
    try:
        _format_all(paths, Limits(max_bytes, max_line), report, progress, in_place=in_place,
                    check_only=check_only or show_diff, show_diff=show_diff, quiet=quiet,
                    force=force)
    except BrokenPipeError:  # the reader of the output has gone: stop quietly
        closed_stdout()
        sys.exit(report.return_code)
    finally:
        progress.clear()
    if (check_only or show_diff) and not quiet:
        click.echo(report.summary(), err=True)
    sys.exit(report.return_code)


def _format_all(paths: list[str], limits: Limits, report: Report, progress: Progress, *,
                in_place: bool, check_only: bool, show_diff: bool, quiet: bool,
                force: bool) -> None:
    """Formats every file as ``fmt`` was asked to, counting in ``report``."""
    for path in paths:
        report.files += 1
        try:
            original = _read(path, limits)
            canonical = dumps(_parse(path, original, progress))
        except NotationError as exc:
            progress.clear()
            click.echo(f"{_name(path)}:{exc.line}:{exc.column}: {exc.code} "
                       f"{visible(exc.message)}",
                       err=True)
            report.syntax_errors += 1
            continue
        except SyntaxFailure as exc:  # reported, and the other files are still formatted
            progress.clear()
            exc.show()
            report.syntax_errors += 1
            continue
        progress.clear()  # before anything is said about this file
        if check_only:
            if canonical != original:
                report.changed += 1
                if show_diff:
                    click.echo(unified_diff(original, canonical, _name(path)), nl=False)
                if not quiet:
                    click.echo(f"would reformat {_name(path)}", err=True)
        elif in_place and path != "-":
            if canonical != original:
                try:
                    write_output(path, canonical, force=force)
                except FileError as exc:  # reported; the other files are still formatted
                    say_failure(str(exc))
                    report.syntax_errors += 1
                    continue
                if not quiet:
                    click.echo(f"reformatted {path}", err=True)
        else:
            write_stdout(canonical)


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff from ``before`` to ``after``, as ``diff -u`` writes it.

    >>> print(unified_diff("a\\nb\\n", "a\\nc", "x"), end="")
    --- x
    +++ x
    @@ -1,2 +1,2 @@
     a
    -b
    +c
    \\ No newline at end of file
    """
    lines = difflib.unified_diff(before.splitlines(keepends=True),
                                 after.splitlines(keepends=True), name, name)
    return "".join(line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n"
                   for line in lines)


@main.command()
def schema() -> None:
    """Print the JSON Schema of the JSON form (a document with a list of games)."""
    click.echo(json.dumps(Log.model_json_schema(), indent=2, ensure_ascii=False))


main.add_command(explain)


def _interrupted() -> None:
    """Ends a command stopped by Ctrl-C: what it wrote is flushed, and the status is 130."""
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    click.echo("euchrelog: interrupted", err=True)
    sys.exit(EXIT_INTERRUPTED)


def run() -> None:
    """Runs the CLI, turning every error into a message and an exit status."""
    # What start-up made (the modules, the grammar, the models) lives as long as the
    # process: out of the collector's sight, a long run does not scan it again and again.
    gc.freeze()
    try:
        status = main(standalone_mode=False)  # a command's Exit comes back as its status
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            _interrupted()
        click.echo("aborted", err=True)
        sys.exit(EXIT_SYNTAX)
    except KeyboardInterrupt:
        _interrupted()
    except NotationError as exc:
        click.echo(f"euchrelog: {visible(str(exc))}", err=True)
        if exc.context:
            click.echo("\n".join(f"    {line}" for line in visible_context(
                exc.context).splitlines()), err=True)
        sys.exit(EXIT_SYNTAX)
    except EuchrelogError as exc:
        click.echo(f"euchrelog: {exc}", err=True)
        sys.exit(EXIT_SYNTAX)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        sys.exit(0)
    except OSError as exc:
        click.echo(f"euchrelog: {exc.strerror or exc}: {exc.filename or ''}", err=True)
        sys.exit(EXIT_SYNTAX)
    sys.exit(status if isinstance(status, int) else 0)
