"""The ``euchrelog score`` command: check every game of an event and publish its standings.

The command reads its sources game by game through the size limits of
:mod:`euchrelog.files`, hands each game to a :class:`~euchrelog.events.Scorer` (which
keeps only what the standings need of it) and prints the events with
:mod:`euchrelog.events.output`; findings go to standard error, like the summary, so
standard output holds only the standings.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path

import click

from ..errors import NotationError
from ..events import (
    FORMATS,
    KEYS,
    RANKS,
    Entry,
    EventResult,
    Overrides,
    Scorer,
    parse_lone,
    parse_tiebreaks,
)
from ..events.output import RENDERERS, render_html
from ..files import (
    FileError,
    Limits,
    failure_text,
    read_lines,
    write_output,
    write_stdout,
)
from ..findings import Finding
from ..progress import Progress, total_size
from ..report import Report, visible_context
from ..sources import open_source, source_name
from .formats import FindingPrinter, colour_option, use_colour
from .options import Configured, config_options, expand, limit_options, parsed

STDIN = "<stdin>"
"""The name standard input goes by in findings."""


class _Sources:
    """The sources of one run, read through the limits game by game (a source that can be
    read only once, such as standard input, is kept by :func:`~euchrelog.files.open_source`,
    so that a game can be read again: :meth:`reread`)."""

    def __init__(self, paths: list[str], limits: Limits, progress: Progress | None = None
                 ) -> None:
        self.paths = paths
        self.limits = limits
        self.progress = progress

    def read(self, order: int, scorer: Scorer) -> Finding | None:
        """Gives the games of one source to ``scorer``; returns the finding that stopped the
        reading early, if any (bytes that are not UTF-8, a limit): the games before the
        one it stopped in are scored.

        :raises FileError: when the source cannot be read at all.
        """
        path = self.paths[order]
        name = source_name(path)
        try:
            for entry in open_source(path, self.limits, self.progress).entries(order):
                scorer.add(entry)
        except NotationError as exc:
            return Finding(exc.code, exc.message, exc.line, exc.column, path=name)
        except OSError as exc:
            raise FileError(f"cannot read {name}: {failure_text(exc)}") from None
        return None

    def reread(self, wanted: Sequence[Entry]) -> Iterator[Entry]:
        """The games ``wanted``, read again whole from their sources."""
        numbers: dict[int, set[int]] = {}
        for entry in wanted:
            numbers.setdefault(entry.order, set()).add(entry.index)
        for order, indexes in numbers.items():
            path = self.paths[order]
            try:
                yield from open_source(path, self.limits).entries(order, indexes)
            except (NotationError, OSError):
                continue  # reported when it was first read; its games stay as replayed then


@click.command(cls=Configured)
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(list(RENDERERS)), default="text",
              show_default=True, help="How to print the standings.")
@click.option("--event-format", type=click.Choice(FORMATS),
              help="partners or progressive, whatever the Format tags say.")
@click.option("--deals", type=click.IntRange(min=1),
              help="Deals in every game (a round), whatever the Format tags say or the "
                   "games show.")
@click.option("--target", type=click.IntRange(min=1),
              help="The target of every game, in an event played to a target, whatever the "
                   "Format tags say or the games show.")
@click.option("--rank", type=click.Choice(RANKS),
              help="What the standings rank by first, whatever the Format tags say.")
@click.option("--lone", callback=parsed(parse_lone), metavar="L/P",
              help="In a progressive event, a lone hand of five tricks scores L points to the "
                   "loner and P to the partner, each for themselves, instead of the side's "
                   "points to both (e.g. --lone 5/4), whatever the Format tags say "
                   "(lone=L/P).")
@click.option("--tiebreak", callback=parsed(parse_tiebreaks), metavar="A,B,...",
              help="Tie-breaks after the main ranking, in order, from: "
                   + ", ".join(k for k in KEYS if KEYS[k].formats) + ".")
@click.option("--event", "only", multiple=True, metavar="NAME",
              help="Score only this event (repeatable).")
@click.option("--check", "check_only", is_flag=True,
              help="Print the findings (text, or JSON with --format json) instead of the "
                   "standings.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the standings here (atomically) instead of to standard output (- is "
                   "standard output).")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="With --format html: write the standings to DIR/index.html and each "
                   "game's replay page (as 'euchrelog view' writes it) to DIR/games/, "
                   "linked from its table in the rounds.")
@click.option("-f", "--force", is_flag=True, help="Rewrite OUTPUT even if it is read-only.")
@click.option("--by-number", is_flag=True,
              help="Key players by their number in the club's registry (the NId, EId, SId, "
                   "WId tags 'euchrelog serve' writes): the same number is one player however "
                   "the name is spelt, shown as 'Ann #12'.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print neither the findings nor the summary on stderr.")
@colour_option
@limit_options("8G")
@config_options
def score(sources: tuple[str, ...], fmt: str, event_format: str | None, deals: int | None,
          target: int | None, rank: str | None, lone: tuple[int, int] | None,
          tiebreak: tuple[str, ...] | None, only: tuple[str, ...],
          check_only: bool, output: Path | None, out_dir: Path | None, force: bool,
          by_number: bool, quiet: bool, colour: str, max_bytes: int, max_line: int) -> None:
    """Check every game of an event and print its standings.

    SOURCES are .euchre files, folders (searched for *.euchre), JSON or JSON Lines
    files, or - for standard input. Games are grouped into events by their Event tag
    and placed by their Round and Table tags. The Format tag says whether partners
    are fixed or change every round. Every game is replayed
    first, then the event checks run; findings go to stderr, and standings that
    still have errors are marked provisional.

    \b
    Examples:
      euchrelog score samples/events/spring-progressive
      euchrelog score sheets/ --format html -o standings.html
      euchrelog score sheets/ --format html --out-dir site

    The formats, tie-breaks and awards:
    'euchrelog docs tournaments' (docs/tournaments.md).

    Exit status: 0 clean, 1 findings, 2 syntax or usage error.
    """
    if check_only and fmt not in ("text", "json"):
        raise click.UsageError("--check prints the findings as text or json")
    if out_dir is not None and (fmt != "html" or check_only or output is not None):
        raise click.UsageError("--out-dir writes the HTML standings and replay pages: use it "
                               "with --format html, without --check or --output")
    unreadable: list[Finding] = []
    orders: dict[str, int] = {}
    paths = list(expand(sources, quiet=quiet))
    progress = Progress(total_size(paths), verb="reading", enabled=not quiet)
    scorer = Scorer(Overrides(event_format, deals, target, tiebreak, rank, lone), by_number)
    read = _Sources(paths, Limits(max_bytes, max_line), progress)
    empty: list[str] = []
    for order, path in enumerate(paths):
        orders.setdefault(STDIN if path == "-" else path, order)
        before = scorer.games
        failure = read.read(order, scorer)
        if failure is not None:
            unreadable.append(failure)
        elif scorer.games == before:
            empty.append(STDIN if path == "-" else path)
    progress.clear()
    missing = set(only) - set(scorer.events)
    if missing:
        known = ", ".join(repr(name) for name in scorer.events) or "none"
        raise click.UsageError(f"no event named {sorted(missing)[0]!r} (events: {known})")
    try:
        events = scorer.results(read.reread, set(only))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    findings = _all_findings(events, scorer.broken, unreadable, orders, bool(only))
    contexts = {f: e.failed.context for e in scorer.broken if e.failed is not None
                for f in e.failed.findings}
    shown = _show_findings(findings, contexts, "text", use_colour(sys.stderr, colour))
    if out_dir is not None:
        links = _write_replays(events, out_dir, Limits(max_bytes, max_line), force)
        write_output(out_dir / "index.html", render_html(events, links), force=force)
        rendered = ""
    else:
        rendered = (_show_findings(findings, contexts, fmt, output is None and use_colour(
                        sys.stdout, colour)) if check_only
                    else RENDERERS[fmt](events))
    if output is not None and str(output) != "-":
        write_output(output, rendered, force=force)
    elif rendered:
        write_stdout(rendered)
    report = _report(events, len(orders), findings)
    report.empty = empty
    if not quiet:
        if not check_only and shown:
            click.echo(shown, nl=False, err=True, color=use_colour(sys.stderr, colour))
        click.echo(report.summary(), err=True)
    sys.exit(report.return_code)


def _write_replays(events: list[EventResult], out_dir: Path, limits: Limits, force: bool
                   ) -> dict[tuple[str, int], str]:
    """Writes the replay page of every game of the events' tables read from a file (not
    standard input) to ``out_dir/games``; returns each page's address from ``out_dir``, by
    the game's path and first line."""
    from ..viewer import ViewError, placed_views, write_page

    try:
        (out_dir / "games").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileError(f"cannot write {out_dir / 'games'}: {failure_text(exc)}") from None
    paths = list(dict.fromkeys(t.path for e in events for t in e.tables if t.path != STDIN))
    wanted = {(t.path, t.line) for e in events for t in e.tables}
    links: dict[tuple[str, int], str] = {}
    for order, path in enumerate(paths, 1):
        try:
            text = "".join(read_lines(path, limits))
        except NotationError:
            continue  # its games' findings are reported with the standings
        except OSError as exc:
            raise FileError(f"cannot read {path}: {failure_text(exc)}") from None
        stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(path).stem).strip("-") or "game"
        try:
            for k, (line, view) in enumerate(placed_views(text, path, skip_unreadable=True), 1):
                if (path, line) not in wanted:
                    continue
                name = f"games/{order:03d}-{stem}-{k}.html"
                write_output(out_dir / name, partial(write_page, views=[view], title=view.title),
                             force=force)
                links[(path, line)] = name
        except (NotationError, ViewError):
            continue  # the games after it are reported with the standings
    return links


def _show_findings(findings: list[Finding], contexts: dict[Finding, str], fmt: str,
                   colour: bool = False) -> str:
    """The findings as ``path:line:column: CODE message`` lines (a syntax error with its
    caret display), the path and code coloured if asked, or as JSON Lines."""
    printer = FindingPrinter(colour=colour)
    lines = []
    for finding in findings:
        if fmt == "json":
            lines.append(json.dumps(finding.to_dict(), ensure_ascii=False))
            continue
        lines.append(printer.text(finding))
        lines.extend(f"    {line}" for line in visible_context(
            contexts.get(finding, "")).splitlines())
    return "".join(f"{line}\n" for line in lines)


def _all_findings(events: list[EventResult], entries: list[Entry], unreadable: list[Finding],
                  orders: dict[str, int], selected: bool) -> list[Finding]:
    """Every finding once, in the order of the sources, lines and columns."""
    found: dict[Finding, None] = {}
    for event in events:
        found.update(dict.fromkeys(event.findings))
    if not selected:
        for entry in entries:
            if entry.failed is not None:
                found.update(dict.fromkeys(entry.failed.findings))
        found.update(dict.fromkeys(unreadable))
    return sorted(found, key=lambda f: (orders.get(f.path or "", -1), f.line, f.column))


def _report(events: list[EventResult], files: int, findings: list[Finding]) -> Report:
    """What the run found: a syntax error (S1..) sets exit status 2, a fault 1, and notes
    (a claimed renege) leave it 0."""
    return Report("score", files=files, games=sum(e.games for e in events),
                  deals=sum(e.deals for e in events), findings=len(findings),
                  notes=sum(not f.is_fault for f in findings),
                  syntax_errors=sum(f.kind.syntax for f in findings),
                  files_with_findings=len({f.path for f in findings}), events=len(events),
                  provisional=[e.title for e in events if e.provisional])
