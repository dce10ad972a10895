"""The ``euchrelog`` command line."""

from __future__ import annotations

import collections
import json
import multiprocessing
import multiprocessing.pool
import os
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

import click

from . import __version__, fast
from .check import (
    Chunk,
    GameCheck,
    check_chunk,
    check_json_lines,
    json_line_chunks,
    notation_chunks,
)
from .errors import EuchrelogError, NotationError, RecordError
from .files import EXTENSION, FileFailure, Limits, write_output
from .files import expand as _expand
from .files import limit_options as _limit_options
from .files import read_lines as _lines
from .findings import Finding
from .jsonio import game_per_line, is_json, iter_json_log, loads_json, peek, write_json
from .models import Log, LogItem
from .notation import iter_log, loads, prepare, text_lines
from .record_cli import record
from .report import EXIT_SYNTAX, Report, visible, visible_context
from .score_cli import score
from .writer import dumps, write_log


def _read(path: str, limits: Limits) -> str:
    """A whole file or stdin as text, byte-order mark and all (``fmt`` compares it)."""
    return "".join(_lines(path, limits, strip_bom=False))


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _print_finding(finding: Finding, context: str, fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(finding.to_dict(), ensure_ascii=False))
        return
    click.echo(visible(str(finding)))
    if context:
        for line in visible_context(context).splitlines():
            click.echo(f"    {line}")


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 96})
@click.version_option(__version__, prog_name="euchrelog")
def main() -> None:
    """Record Euchre games as plain text and prove them right or wrong.

    A record is a .euchre file in the euchrelog notation (docs/notation.md). The
    commands below check records by replaying every deal, convert them to JSON and
    back, and print them in canonical form.

    \b
    Examples:
      euchrelog check samples/valid
      euchrelog check game.euchre --format json
      euchrelog convert game.euchre -o game.json
      euchrelog fmt --check samples
    """


@main.command()
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="text: one 'path:line:col: CODE message' line per finding; json: one JSON "
                   "object per finding per line.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0,
              help="Processes that check games in parallel (output stays in input order). "
                   "Default 0: every core when the input is 1 MB or more, else one.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print neither the summary nor the progress line on stderr.")
@_limit_options("8G")
def check(sources: tuple[str, ...], fmt: str, jobs: int, quiet: bool, max_bytes: int,
          max_line: int) -> None:
    """Replay records and report every rule violation.

    SOURCES are .euchre files, folders (searched for *.euchre), JSON or JSON Lines
    files, or - for standard input. Every game is replayed under its Variant and
    Rules tags; a syntax error costs only its own game. Files are read game by game,
    so memory stays flat however large they are; a progress line is shown on a
    terminal.

    Exit status: 0 clean, 1 findings, 2 syntax or usage error.
    """
    paths = list(_expand(sources))
    if jobs == 0:
        size = sum(Path(p).stat().st_size for p in paths if p != "-")
        jobs = (os.cpu_count() or 1) if size >= AUTO_PARALLEL_BYTES else 1
    report = Report()
    limits = Limits(max_bytes, max_line)
    progress = Progress(enabled=not quiet and sys.stderr.isatty())
    with Checker(jobs) as checker:
        for path in paths:
            report.files += 1
            name = _name(path)
            found = 0
            try:
                for result in checker.run(path, name, limits):
                    _count(report, result)
                    progress.update(report)
                    for finding in result.findings:
                        _print_finding(finding, result.context, fmt)
                    found += len(result.findings)
            except NotationError as exc:  # bytes that are not UTF-8 text, or over a limit
                finding = Finding(exc.code, exc.message, exc.line, exc.column, path=name)
                _print_finding(finding, "", fmt)
                report.findings += 1
                report.syntax_errors += 1
                found += 1
            except OSError as exc:
                raise click.FileError(name, hint=exc.strerror or str(exc)) from None
            if found:
                report.files_with_findings += 1
    progress.clear()
    if not quiet:
        click.echo(report.summary(), err=True)
    sys.exit(report.return_code)


AUTO_PARALLEL_BYTES = 1_000_000
"""Input size from which ``check`` uses every core unless told otherwise."""


def _source(path: str, limits: Limits) -> tuple[str, Iterator[str]]:
    """What a source holds (``notation``, ``json-lines`` or ``json``, a JSON document) and
    its lines, read as they are needed."""
    first, stream = peek(_lines(path, limits))
    if not is_json(first):
        return "notation", stream
    return ("json-lines" if game_per_line(first) else "json"), stream


def _chunks(path: str, name: str, limits: Limits) -> Iterator[Chunk]:
    """The games of a source, as they are read: notation, JSON Lines, or a JSON document."""
    kind, stream = _source(path, limits)
    if kind == "notation":
        yield from notation_chunks(stream, name)
    elif kind == "json-lines":
        yield from json_line_chunks(stream, name)
    else:  # a JSON document (on one line or many): read whole
        for result in check_json_lines(stream, name):
            yield Chunk(result.index, result.first_line, "", name, json=True, done=result)


@dataclass(frozen=True)
class Batch:
    """Whole games' lines, checked together in another process."""

    first_line: int
    text: str
    """The lines, joined (one string crosses to another process much faster than many)."""
    path: str | None
    json: bool = False


BATCH_LINES = 2000
"""About how many lines go to a process at a time (some 170 full deals)."""


def _batches(path: str, name: str, limits: Limits) -> Iterator[Batch | GameCheck]:
    """A source cut into batches of whole games, as it is read (a JSON document, read whole,
    gives its results at once)."""
    kind, stream = _source(path, limits)
    if kind == "json":
        yield from check_json_lines(stream, name)
        return
    lines: list[str] = []
    first = 1
    want = BATCH_LINES
    try:
        for line in stream:
            lines.append(line)
            if len(lines) < want:
                continue
            cut = len(lines) if kind == "json-lines" else _game_start(lines)
            if cut <= 0:
                want *= 2  # one long game: wait for its end
                continue
            yield Batch(first, "".join(lines[:cut]), name, kind == "json-lines")
            first += cut
            del lines[:cut]
            want = BATCH_LINES
    except NotationError:
        # The games read whole before the unreadable line are checked, as in one process.
        cut = len(lines) if kind == "json-lines" else _game_start(lines)
        if cut > 0:
            yield Batch(first, "".join(lines[:cut]), name, kind == "json-lines")
        raise
    if lines:
        yield Batch(first, "".join(lines), name, kind == "json-lines")


def _game_start(lines: list[str]) -> int:
    """The last place in ``lines`` where :func:`~euchrelog.notation.split_games` starts a
    game (before the comment and blank lines above its first tag), or 0."""
    def kind(line: str) -> str:
        text = line.strip()
        return "blank" if not text or text.startswith("#") else (
            "tag" if text.startswith("[") else "body")

    i = len(lines) - 1
    while i > 0:
        if kind(lines[i]) == "tag":
            j = i
            while j > 0 and kind(lines[j - 1]) == "blank":
                j -= 1
            if j > 0 and kind(lines[j - 1]) == "body":
                return j
            i = j - 1
        else:
            i -= 1
    return 0


def _check_batch(batch: Batch) -> list[GameCheck]:
    """Checks the games of a batch (in a worker process), numbered within the batch."""
    lines = text_lines(batch.text)
    chunks = (json_line_chunks if batch.json else notation_chunks)(lines, batch.path)
    return [check_chunk(replace(c, first_line=c.first_line + batch.first_line - 1),
                        keep_report=False) for c in chunks]


class Checker:
    """Checks the games of a source in this process, or in a pool of processes, keeping the
    input order."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: multiprocessing.pool.Pool | None = None

    def __enter__(self) -> Checker:
        if self.jobs > 1:
            prepare()
            fast.prepare()
            context = multiprocessing.get_context(
                "fork" if "fork" in multiprocessing.get_all_start_methods() else None)
            self.pool = context.Pool(self.jobs)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.terminate()

    def run(self, path: str, name: str, limits: Limits) -> Iterator[GameCheck]:
        """The results of the games of a source, in order.

        :raises NotationError: where the source stops being readable, after the results of
            the games before it.
        """
        if self.pool is None:
            yield from (c.done or check_chunk(c) for c in _chunks(path, name, limits))
            return
        window: collections.deque[multiprocessing.pool.AsyncResult[list[GameCheck]] | GameCheck]
        window = collections.deque()
        batches = _batches(path, name, limits)
        base = 0
        stop: NotationError | None = None
        while True:
            try:
                item = next(batches)
            except StopIteration:
                break
            except NotationError as exc:
                stop = exc
                break
            window.append(item if isinstance(item, GameCheck)
                          else self.pool.apply_async(_check_batch, (item,)))
            while len(window) > 2 * self.jobs:
                base = yield from _in_order(window.popleft(), base)
        while window:
            base = yield from _in_order(window.popleft(), base)
        if stop is not None:
            raise stop


def _in_order(
        item: multiprocessing.pool.AsyncResult[list[GameCheck]] | GameCheck,
        base: int) -> Generator[GameCheck, None, int]:
    """Yields a batch's results numbered in the whole source; returns the last number."""
    if isinstance(item, GameCheck):
        yield item
        return item.index
    results = item.get()
    for result in results:
        result.index += base
        result.findings = [replace(f, game=result.index) for f in result.findings]
        yield result
    return results[-1].index if results else base


class Progress:
    """A one-line progress display on stderr, for long runs on a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, report: Report) -> None:
        """Shows the counts so far, at most a few times a second."""
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.25:
            return
        self.last = now
        rate = report.deals / max(now - self.start, 1e-9)
        click.echo(f"\rchecking: {report.games} games, {report.deals} deals, "
                   f"{report.findings} findings ({rate:.0f} deals/s)", err=True, nl=False)

    def clear(self) -> None:
        """Removes the progress line."""
        if self.enabled and self.last:
            click.echo("\r\033[K", err=True, nl=False)


def _count(report: Report, result: GameCheck) -> None:
    report.games += 1
    report.deals += result.deals
    report.findings += len(result.findings)
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
                         f"{visible(exc.message)}{context}")


def _parse(path: str, text: str) -> Log:
    """Reads notation or JSON, turning a syntax error into a located message."""
    try:
        if is_json(text) or path.endswith((".json", ".jsonl")):
            return loads_json(text)
        return loads(text)
    except (NotationError, RecordError) as exc:
        raise _failure(path, exc) from None


_TARGETS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", EXTENSION: "euchre"}


@main.command()
@click.argument("source", type=click.Path(exists=True, allow_dash=True, dir_okay=False,
                                          path_type=str))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here (atomically) instead of to standard output.")
@click.option("--to", "target", type=click.Choice(["json", "jsonl", "euchre"]),
              help="The output format. Default: from OUTPUT's extension, else json for "
                   "notation input and euchre for JSON input.")
@click.option("--force", is_flag=True, help="Rewrite OUTPUT even if it is read-only.")
@_limit_options("8G")
def convert(source: str, output: Path | None, target: str | None, force: bool, max_bytes: int,
            max_line: int) -> None:
    """Convert between the notation and JSON, without loss.

    SOURCE is a .euchre file, a JSON document or JSON Lines file, or - for standard
    input. Comments, unknown tags and unknown cards are all kept.

    \b
    Examples:
      euchrelog convert game.euchre -o game.json
      euchrelog convert games.jsonl --to euchre > games.euchre
    """
    if (output is not None and source != "-" and output.exists()
            and output.resolve() == Path(source).resolve()):
        raise click.UsageError("the output is the input file; write elsewhere")
    kind, items = _log_items(source, Limits(max_bytes, max_line))
    if target is None and output is not None:
        target = _TARGETS.get(output.suffix.lower())
    if target is None:
        target = "euchre" if kind == "json" else "json"

    def put(fp: TextIO) -> None:
        if target == "euchre":
            write_log(items, fp)
        else:
            write_json(items, fp, lines=target == "jsonl")

    if output is None:
        put(sys.stdout)
    else:
        write_output(output, put, force=force)


def _log_items(path: str, limits: Limits) -> tuple[str, Iterator[LogItem]]:
    """The format of a source (``euchre`` or ``json``) and its games, read as they are
    needed; a syntax error stops the reading with exit status 2."""
    try:
        first, stream = peek(_lines(path, limits))
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
@click.option("--force", is_flag=True, help="With --in-place, rewrite read-only files too.")
@_limit_options("256M")
def fmt(files: tuple[str, ...], in_place: bool, check_only: bool, force: bool, max_bytes: int,
        max_line: int) -> None:
    """Print records in canonical form (docs/notation.md, "Canonical form").

    FILES are .euchre files, folders (searched for *.euchre) or - for standard input.
    The canonical form of a canonical file is the file itself.
    """
    if in_place and check_only:
        raise click.UsageError("--in-place and --check do not go together")
    report = Report()
    for path in _expand(files):
        report.files += 1
        try:
            original = _read(path, Limits(max_bytes, max_line))
            canonical = dumps(_parse(path, original))
        except NotationError as exc:
            click.echo(f"{_name(path)}:{exc.line}:{exc.column}: {exc.code} "
                       f"{visible(exc.message)}",
                       err=True)
            report.syntax_errors += 1
            continue
        except SyntaxFailure as exc:  # reported, and the other files are still formatted
            exc.show()
            report.syntax_errors += 1
            continue
        if check_only:
            if canonical != original:
                report.changed += 1
                click.echo(f"would reformat {_name(path)}", err=True)
        elif in_place and path != "-":
            if canonical != original:
                try:
                    write_output(path, canonical, force=force)
                except FileFailure as exc:  # reported; the other files are still formatted
                    exc.show()
                    report.syntax_errors += 1
                    continue
                click.echo(f"reformatted {path}", err=True)
        else:
            click.echo(canonical, nl=False)
    if check_only:
        good = report.files - report.changed - report.syntax_errors
        state = "all canonical" if good == report.files else ", ".join(
            f"{n} {what}" for n, what in ((good, "canonical"), (report.changed, "not canonical"),
                                          (report.syntax_errors, "unreadable")) if n)
        click.echo(f"{report.files} file{'s' if report.files != 1 else ''}: {state}", err=True)
    sys.exit(report.return_code)


@main.command()
def schema() -> None:
    """Print the JSON Schema of the JSON form (a document with a list of games)."""
    click.echo(json.dumps(Log.model_json_schema(), indent=2, ensure_ascii=False))


main.add_command(score)
main.add_command(record)


def run() -> None:
    """Runs the CLI, turning every error into a message and an exit status."""
    try:
        status = main(standalone_mode=False)  # a command's Exit comes back as its status
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(EXIT_SYNTAX)
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
