"""The ``euchrelog fmt`` command: records printed, checked or rewritten in canonical form."""

from __future__ import annotations

import difflib
import sys
from dataclasses import replace

import click

from ..errors import NotationError, RecordError
from ..files import FileError, Limits, write_output, write_stdout
from ..models import Log
from ..notation import log_of
from ..notation.writer import dumps
from ..progress import Progress, total_size
from ..report import Report, visible
from ..sources import text_source
from .options import Configured, config_options, expand, limit_options, say_failure
from .streams import SyntaxFailure, closed_stdout, read_text, source_name, syntax_failure


def _parse(path: str, text: str, progress: Progress | None = None) -> Log:
    """Reads a source's text in whatever form it is (:func:`~euchrelog.sources.text_source`
    decides, as for every command), turning a syntax error into a located message; its
    bytes are counted in ``progress`` as its games are read."""
    from ..interop import ConversionError

    source = text_source(text, path)
    if progress is not None:
        source = replace(source, progress=progress)
    try:
        items = source.items()
        return log_of(progress.games(items) if progress is not None else items)
    except ConversionError as exc:
        raise SyntaxFailure(f"{source_name(path)}:{exc.where}: S102 {exc.message}") from None
    except (NotationError, RecordError) as exc:
        raise syntax_failure(path, exc) from None


@click.command(cls=Configured)
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--in-place", "-i", is_flag=True, help="Rewrite each file in canonical form.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 if any file is not in canonical form.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing but a unified diff of each file that is not in canonical "
                   "form; exit 1 if there is one.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on stderr but errors.")
@click.option("-f", "--force", is_flag=True, help="With --in-place, rewrite read-only files too.")
@limit_options("256M")
@config_options
def fmt(files: tuple[str, ...], in_place: bool, check_only: bool, show_diff: bool,
        quiet: bool, force: bool, max_bytes: int, max_line: int) -> None:
    """Print records in canonical form.

    FILES are .euchre files, folders (searched for *.euchre) or - for standard input.
    The canonical form of a canonical file is the file itself.
    """
    if in_place and (check_only or show_diff):
        raise click.UsageError("--in-place and --check or --diff do not go together")
    report = Report("fmt")
    paths = list(expand(files))
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
            original = read_text(path, limits)
            canonical = dumps(_parse(path, original, progress))
        except NotationError as exc:
            progress.clear()
            click.echo(f"{source_name(path)}:{exc.line}:{exc.column}: {exc.code} "
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
                    click.echo(unified_diff(original, canonical, source_name(path)), nl=False)
                if not quiet:
                    click.echo(f"would reformat {source_name(path)}", err=True)
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
