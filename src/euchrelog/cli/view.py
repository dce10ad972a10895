"""The ``euchrelog view`` command: a record as a replay page (see :mod:`euchrelog.viewer`)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import NotationError
from ..files import FileError, Limits, failure_text, write_output
from ..progress import Progress, total_size
from ..report import EXIT_SYNTAX, Report, visible, visible_context
from ..sources import open_source, source_name
from ..viewer import GameView, Stop, source_views, write_page
from .options import Configured, config_options, limit_options, sampling_options, single_settings

if TYPE_CHECKING:
    from ..analysis import Settings


def default_output(source: str) -> str:
    """Where the page of ``source`` goes without ``-o``: beside it, ending in ``.html``
    (standard output for standard input)."""
    return "-" if source == "-" else str(Path(source).with_suffix(".html"))


@click.command(cls=Configured)
@click.argument("source", type=click.Path(exists=True, dir_okay=False, allow_dash=True,
                                          path_type=str))
@click.option("-o", "--output", metavar="FILE",
              help="Write the page here ('-' for standard output). Default: the source's "
                   "name ending in .html, or standard output when reading standard input.")
@click.option("--title", metavar="TEXT", help="The page's title (default: the source's name).")
@click.option("--dd/--no-dd", "double_dummy", default=True, show_default=True,
              help="Add the double-dummy review of every deal whose cards are all known and "
                   "whose play is clean: each play's cost, each legal card's value, and the "
                   "perfect-play line after any card (a few seconds a game).")
@click.option("--single-dummy", "single", is_flag=True,
              help="Also value every decision single dummy, as 'analyze --single-dummy' "
                   "does: each legal card's (and the dealer's discard's) expected points "
                   "over the layouts of the cards the player could not see, drawn on the "
                   "cards beside the double-dummy value, an evaluation graph of the game "
                   "and a class from best to blunder (about half a second a four-hand deal).")
@sampling_options("", "page")
@click.option("-q", "--quiet", is_flag=True, help="Print no summary on standard error.")
@limit_options("256M")
@config_options
def view(source: str, output: str | None, title: str | None, double_dummy: bool, single: bool,
         samples: int | None, exact_limit: int | None, seed: int | None, quiet: bool,
         max_bytes: int, max_line: int) -> None:
    """Write a replay page of a record: look at a game instead of reading it.

    SOURCE is a .euchre file, a JSON or JSON Lines file, an EGN, EMN or OpenSpiel file,
    or - for standard input. The page is one self-contained HTML file (no network
    access, no external file) that shows the table with each seat's name and hand
    (card backs for cards the record does not know), the dummy, ghost hand or stock,
    the upcard and kitty, the bidding, exchanges, merges and lone declarations, and the
    tricks card by card, with the score after each deal. The findings of 'euchrelog
    check' are marked at the act they concern. A file of several games gets a game list.

    Step with the buttons, the slider or the keys (left and right arrows; Home and End;
    up and down arrows: trick; Page Up and Page Down: deal), show all hands or one
    seat's view, print one deal a page. Where the double-dummy review is available,
    each play shows its cost and each legal card its value; 'try' a card to see the
    play go on under perfect play, then go back to the game as played. With
    --single-dummy, each decision also has its single-dummy value (what the player could
    expect from what it could see): on the cards, in an evaluation graph of the game,
    and graded, with the keys n and p for the next and previous mistake.

    Exit status: 0 page written and the record clean (notes aside), 1 page written and
    the record has findings, 2 syntax or usage error (no page written), 130 stopped by
    Ctrl-C (the page holds the games and deals finished before it).

    \b
    Examples:
      euchrelog view club.euchre              # writes club.html
      euchrelog view club.euchre -o /tmp/game.html
      euchrelog view final.egn --title "Final" --no-dd
      euchrelog view club.euchre --single-dummy --samples 128 --seed 7
      cat club.euchre | euchrelog view - > club.html
    """
    settings = _settings(double_dummy, single, samples, exact_limit, seed)
    name = source_name(source)
    target = output or default_output(source)
    progress = Progress(total_size([source]), verb="viewing",
                        enabled=not quiet and target != "-")
    try:
        opened = open_source(source, Limits(max_bytes, max_line), progress)
    except OSError as exc:
        raise FileError(f"cannot read {name}: {failure_text(exc)}") from None
    report = Report("view")
    stop = Stop()
    games = source_views(opened, double_dummy=double_dummy, single=settings)
    try:
        first = next(games, None)
        if first is None:
            raise click.UsageError(f"{name} holds no game")
        views = _counted(chain([first], games), report, progress)
        page_title = title or Path(name).name
        if target == "-":
            with tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n") as spool:
                write_page(spool, views, page_title, stop)
                spool.seek(0)
                shutil.copyfileobj(spool, sys.stdout)
        else:
            write_output(target, lambda out: write_page(out, views, page_title, stop))
    except NotationError as exc:
        progress.clear()
        click.echo(f"{visible(name)}:{exc.line}:{exc.column}: {exc.code} {visible(exc.message)}",
                   err=True)
        if exc.context:
            click.echo(visible_context(exc.context), err=True)
        click.echo("no page written: fix the record, or check it with 'euchrelog check'",
                   err=True)
        sys.exit(EXIT_SYNTAX)
    except BrokenPipeError:
        raise
    except OSError as exc:  # (the source, read as the page is written)
        raise FileError(f"cannot read {name}: {failure_text(exc)}") from None
    finally:
        progress.clear()
    report.written_to = "standard output" if target == "-" else visible(target)
    if stop.stopped:
        report.interrupted = True
        click.echo(f"interrupted in game {stop.games}: {report.written_to} holds the games "
                   "and deals finished before it", err=True)
        sys.exit(report.return_code)
    if not quiet:
        click.echo(report.summary(), err=True)
    sys.exit(report.return_code)


def _settings(double_dummy: bool, single: bool, samples: int | None, exact_limit: int | None,
              seed: int | None) -> Settings | None:
    """The single-dummy settings asked for (``None``: no single-dummy layer), as
    ``analyze`` reads the same options.

    :raises click.UsageError: for an option of the layer without it, or the layer without
        the double-dummy review it rides.
    """
    settings = single_settings(single, samples, exact_limit, seed)
    if settings is not None and not double_dummy:
        raise click.UsageError("--single-dummy rides the double-dummy review: it does not go "
                               "with --no-dd")
    return settings


def _counted(views: Iterator[tuple[int, GameView]], report: Report, progress: Progress
             ) -> Iterator[GameView]:
    """The games' page data, each counted in ``report`` as it is written (a note, a
    claimed renege, is no fault), and each deal in ``progress`` as its frames are made."""
    for _, view in views:
        view.counted = progress.count
        report.games += 1
        report.deals += len(view.game.deals)
        report.findings += len(view.findings)
        report.notes += sum(f["severity"] == "note" for f in view.findings)
        yield view
