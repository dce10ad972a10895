"""The ``euchrelog convert`` command: between the notation, JSON, JSON Lines and EGN, and
from EMN and OpenSpiel histories, without loss."""

from __future__ import annotations

import collections
import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

import click

from ..errors import NotationError, RecordError
from ..files import EXTENSION, Limits, write_output
from ..interop import ConversionError
from ..interop.egn import dumps_egn
from ..kinds import KINDS
from ..models import LogItem
from ..notation.jsonio import write_json
from ..notation.writer import write_log
from ..progress import Progress, total_size
from ..sources import JSON_DOCUMENT, JSON_LINES, open_source
from .options import Configured, config_options, limit_options
from .streams import SyntaxFailure, closed_stdout, source_name, syntax_failure

_TARGETS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", EXTENSION: "euchre",
            ".egn": "egn"}
_SUFFIXES = {"json": ".json", "jsonl": ".jsonl", "euchre": EXTENSION, "egn": ".egn"}


@click.command(cls=Configured)
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
                   "extension (.egn, .emn) or how the source starts.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on stderr but errors.")
@click.option("-f", "--force", is_flag=True, help="Rewrite an output file even if it is read-only.")
@limit_options("8G")
@config_options
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
    OpenSpiel; :func:`~euchrelog.sources.open_source` decides) and its games, read as they
    are needed; what cannot be read stops with exit status 2, naming its place."""
    source = open_source(path, limits, progress, kind=origin)
    kind = ("foreign" if source.from_elsewhere
            else "json" if source.kind in (JSON_LINES, JSON_DOCUMENT) else "euchre")
    return kind, _located(path, source.items(lost=lambda what: click.echo(
        f"{source_name(path)}: not in the record: {what}", err=True)))


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


def _egn_text(path: str, items: Iterator[LogItem]) -> str:
    """The EGN file of the one game of a source; what EGN cannot hold goes to stderr."""
    games = [item for item in items if not isinstance(item, tuple)]
    if len(games) != 1:
        raise click.UsageError(f"an EGN file holds one game; {source_name(path)} has {len(games)}")
    try:
        text, lost = dumps_egn(games[0])
    except ConversionError as exc:
        raise SyntaxFailure(f"{source_name(path)}: {exc.where}: EGN cannot record this game: "
                            f"{exc.message}") from None
    for what in lost:
        click.echo(f"{source_name(path)}: not in the EGN file: {what}", err=True)
    return text


def _located(path: str, items: Iterator[LogItem]) -> Iterator[LogItem]:
    """Passes items on, turning a syntax error into a located message."""
    try:
        yield from items
    except ConversionError as exc:
        raise SyntaxFailure(f"{source_name(path)}:{exc.where}: S102 {exc.message}") from None
    except (NotationError, RecordError) as exc:
        raise syntax_failure(path, exc) from None
