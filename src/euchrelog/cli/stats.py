"""The ``euchrelog stats`` command: player and side statistics over any number of records.

The command reads its sources game by game through the size limits of
:mod:`euchrelog.files`, replays each game and hands it to a
:class:`~euchrelog.stats.Collector`, which keeps only counts; the statistics go to standard
output (or ``-o``), the games that could not be read and the summary to standard error.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import NotationError
from ..files import (
    FileError,
    Limits,
    failure_text,
    write_output,
    write_stdout,
)
from ..findings import Finding
from ..models import Game
from ..progress import Progress, total_size
from ..replay import GameReport, replay
from ..report import Report, visible
from ..runs import Runner
from ..seats import Seat
from ..sources import Entry, open_source, source_name
from ..stats import Collector, DateRange, Filters, double_dummy, parse_date_range
from ..stats.output import RENDERERS
from .options import (
    JOBS,
    Configured,
    config_options,
    expand,
    jobs_for,
    jobs_option,
    limit_options,
    need_dask,
    parsed,
    sampling_options,
    single_settings,
)

if TYPE_CHECKING:  # (the solver is imported only when a review is asked for)
    from ..analysis import DealReview, Settings
    from ..analysis.players import PlayerReport

STDIN = "<stdin>"
"""The name standard input goes by in messages."""
AUTO_PARALLEL_BYTES = 1_000_000
"""Input size from which ``stats`` replays games in every core unless told otherwise."""
AUTO_REVIEW_BYTES = 20_000
"""The same with ``--double-dummy``, whose reviews take a second or more a game."""


@click.command(cls=Configured)
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(list(RENDERERS)), default="text",
              show_default=True, help="How to print the statistics.")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="Only the games this player sat in, and only the rows of this player "
                   "and the sides with them (repeatable; any case).")
@click.option("--event", "events", multiple=True, metavar="NAME",
              help="Only the games whose Event tag is NAME (repeatable; any case).")
@click.option("--date", "dates", callback=parsed(parse_date_range), metavar="RANGE",
              help="Only the games whose Date tag falls in RANGE: a year, month or day "
                   "(2025, 2025-05, 2025-05-17) or FROM..TO, either end open "
                   "(2025-03-01..2025-05-31, 2025-03..). Undated games are left out.")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="Only the games of this variant (repeatable): four-hand, cutthroat, "
                   "three-hand, ghost or two-hand.")
@click.option("--double-dummy", "--dd", "dd", is_flag=True,
              help="Also review every deal whose cards are all recorded double-dummy, for "
                   "the tricks each player's mistakes cost and the contracts that beat or "
                   "missed par (as euchrelog analyze does; far slower than the counts).")
@click.option("--single-dummy", "single", is_flag=True,
              help="Also grade every bid, play and discard of the deals whose cards are all "
                   "recorded single dummy, as euchrelog analyze --single-dummy does: each "
                   "player's accuracy and the points lost bidding and playing (slower "
                   "still).")
@sampling_options(" (a bid draws a quarter as many, at least 4)", "figures, whatever --jobs")
@jobs_option("replay (and review) games", "1 MB (with --double-dummy or --single-dummy, 20 KB)")
@click.option("--scheduler", metavar="ADDRESS",
              help="Replay (and review) the games on the workers of this Dask scheduler "
                   "(like tcp://10.0.0.5:8786, or a scheduler file); the figures are the "
                   "same. Needs euchrelog[dask] here and on the workers.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the statistics here (atomically) instead of to standard output (- "
                   "is standard output).")
@click.option("-f", "--force", is_flag=True, help="Rewrite OUTPUT even if it is read-only.")
@click.option("--by-number", is_flag=True,
              help="Key players by their number in the club's registry (the NId, EId, SId, "
                   "WId tags 'euchrelog serve' writes): the same number is one player however "
                   "the name is spelt, shown as 'Ann #12'.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print neither the unreadable games nor the summary on stderr.")
@limit_options("8G")
@config_options
def stats(sources: tuple[str, ...], fmt: str, players: tuple[str, ...],
          events: tuple[str, ...], dates: DateRange | None, variants: tuple[str, ...],
          dd: bool, single: bool, samples: int | None, exact_limit: int | None,
          seed: int | None, jobs: int, scheduler: str | None, output: Path | None,
          force: bool, by_number: bool, quiet: bool, max_bytes: int, max_line: int) -> None:
    """Count how each player and side bids, defends and scores.

    SOURCES are .euchre files, folders (searched for *.euchre), JSON or JSON Lines
    files, or - for standard input. Every game is replayed, and every figure comes
    from the replay: who made trump and in which round, from which seat (counted
    from the dealer), whether the contract was made, marched or euchred, lone hands
    and lone defences, euchres taken, reneges (claimed or not) and points per deal;
    with --double-dummy, also the tricks lost to play mistakes and the contracts
    against par; with --single-dummy, each player's accuracy and the points lost
    bidding and playing. Each variant gets tables of its own. Player names come from the seat tags
    (N "Ann" or North "Ann"); a seat without one counts as a player named by its
    letter.

    \b
    Examples:
      euchrelog stats samples/valid
      euchrelog stats club/ --player Ann --date 2025-03..2025-05
      euchrelog stats club/ --format html -o stats.html
      euchrelog stats club/ --double-dummy --player Ann
      euchrelog stats club/ --single-dummy --samples 32 --jobs 2
      euchrelog stats archive/ --double-dummy --scheduler tcp://10.0.0.5:8786
      euchrelog stats club/ --format csv --variant four-hand > stats.csv

    The figures, the JSON and the page: 'euchrelog docs stats' (docs/stats.md).

    Exit status: 0 when every game read is clean, 1 when a game has findings (the
    statistics are still given: euchrelog check lists them), 2 when a game cannot be
    read or on a usage error, 130 when stopped by Ctrl-C (the statistics written are of
    the games counted before it).
    """
    if scheduler is not None and jobs != JOBS:
        raise click.UsageError("--jobs and --scheduler do not go together")
    settings = single_settings(single, samples, exact_limit, seed)
    if scheduler is not None:
        need_dask()
    try:
        filters = Filters.of(players, events, dates, variants)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--variant'") from None
    paths = list(expand(sources, quiet=quiet))
    jobs = jobs_for(jobs, paths, AUTO_REVIEW_BYTES if dd or single else AUTO_PARALLEL_BYTES)
    limits = Limits(max_bytes, max_line)
    progress = Progress(total_size(paths), verb="counting", enabled=not quiet)
    given = _Given()
    collector = Collector(filters, given if dd else None, by_number,
                          given.graded if single else None)
    unreadable: list[tuple[Finding, str]] = []
    faulty = 0
    read = 0
    entries = _entries(paths, limits, progress, unreadable)
    interrupted = False
    try:
        with Runner(jobs, scheduler) as runner:
            for (entry, _, _), (report, reviews, graded) in runner.map(
                    _replayed, ((e, dd, settings) for e in entries), what=_entries_name):
                assert entry.game is not None
                read += 1
                progress.advance(entry.size)
                progress.count(len(entry.game.deals))
                given.reviews = reviews
                given.players = graded
                if collector.add(entry.game, report):
                    faulty += any(f.is_fault for f in report.findings)
    except KeyboardInterrupt:  # Ctrl-C: the statistics of the games counted before it
        interrupted = True
    progress.clear()
    rendered = RENDERERS[fmt](collector)
    if output is not None and str(output) != "-":
        write_output(output, rendered, force=force)
    else:
        write_stdout(rendered)
    counts = Report("stats", files=len(paths), games=collector.games,
                    deals=sum(g.deals for g in collector.groups.values()),
                    syntax_errors=len(unreadable), read=read, left_out=collector.left_out,
                    faulty_games=faulty, interrupted=interrupted)
    if not quiet:
        for finding, context in unreadable:
            click.echo(visible(str(finding)), err=True)
            for line in context.splitlines():
                click.echo(f"    {visible(line)}", err=True)
        click.echo(counts.summary(), err=True)
    sys.exit(counts.return_code)


def _entries(paths: list[str], limits: Limits, progress: Progress,
             unreadable: list[tuple[Finding, str]]) -> Iterator[Entry]:
    """The games of every source that can be read, in order; those that cannot are added
    to ``unreadable``."""
    for order, path in enumerate(paths):
        name = source_name(path)
        try:
            for entry in open_source(path, limits).entries(order):
                if entry.game is not None:
                    yield entry
                elif entry.failed is not None:
                    progress.advance(entry.size)
                    unreadable += [(f, entry.failed.context) for f in entry.failed.findings]
        except NotationError as exc:
            unreadable.append((Finding(exc.code, exc.message, exc.line, exc.column, path=name),
                               ""))
        except OSError as exc:
            raise FileError(f"cannot read {name}: {failure_text(exc)}") from None


class _Given:
    """The reviewer of ``--double-dummy``: the reviews of the game being counted, made with
    its replay (here, in a worker process or on a Dask worker)."""

    def __init__(self) -> None:
        self.reviews: list[DealReview] = []
        self.players: dict[Seat, PlayerReport] = {}

    def __call__(self, game: Game, report: GameReport) -> list[DealReview]:
        return self.reviews

    def graded(self, game: Game, report: GameReport) -> dict[Seat, PlayerReport]:
        """The grader of ``--single-dummy``: the players of the game being counted."""
        return self.players


Job = tuple[Entry, bool, "Settings | None"]
"""A game to count, whether to review it double dummy, and how to grade it single dummy
(``None``: not)."""


def _replayed(job: Job) -> tuple[GameReport, list[DealReview], dict[Seat, PlayerReport]]:
    """The one replay of a game (here, in a worker process or on a Dask worker) and, with
    ``--double-dummy``, the reviews that ride it, with ``--single-dummy`` its players
    graded; the deals as taken are dropped after, so that the report is small to send
    back."""
    entry, dd, single = job
    assert entry.game is not None
    report = replay(entry.game, entry.source, trace=dd or single is not None)
    reviews: list[DealReview] = []
    graded: dict[Seat, PlayerReport] = {}
    if single is not None:
        from ..analysis import DealReview, review_game
        from ..analysis.players import player_reports

        found = list(review_game(entry.game, entry.index, par=dd, report=report,
                                 single=single))
        graded = player_reports(found)
        if dd:
            reviews = [r for r in found if isinstance(r, DealReview) and r.stopped is None]
    elif dd:
        reviews = list(double_dummy(entry.game, report))
    for result in report.deals:
        result.trace = None
    return report, reviews, graded


def _entries_name(batch: list[Job]) -> str:
    """A batch of games in messages: where it starts."""
    entry = batch[0][0]
    return f"{entry.path} game {entry.index}"
