"""The ``euchrelog analyze`` command: the double-dummy review of every deal of records.

Sources are read game by game (as ``check`` reads them) and each game is reviewed by
:func:`~euchrelog.analysis.review_game`, in this process or in ``--jobs`` worker
processes, a bounded number of games at a time, so memory stays flat however large the
input; the output keeps the order of the input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

import click

from ..analysis import Review, Settings, Skipped, review_game, review_json
from ..analysis.output import annotate, review_text
from ..analysis.players import player_reports, players_json, players_text
from ..errors import NotationError
from ..files import (
    FileError,
    Limits,
    failure_text,
    write_output,
)
from ..models import Game
from ..notation.writer import write_log
from ..progress import Progress, total_size
from ..report import Report, visible
from ..runs import Runner, tally
from ..sources import open_source, source_name
from .options import (
    JOBS,
    Configured,
    config_options,
    expand,
    jobs_for,
    jobs_option,
    limit_options,
    need_dask,
    sampling_options,
    single_settings,
)
from .streams import closed_stdout

FORMATS = ("text", "json")
AUTO_PARALLEL_BYTES = 20_000
"""Input size from which ``analyze`` reviews games in every core unless told otherwise (some
four full games: a game's review takes a second or more)."""
def _count(report: Report, reviews: list[Review]) -> None:
    """Counts a game's reviews: the deals reviewed, and those skipped by reason."""
    report.games += 1
    for item in reviews:
        if isinstance(item, Skipped):
            kind = item.reason.split(":")[0]
            report.skipped[kind] = report.skipped.get(kind, 0) + 1
        else:
            report.reviewed += 1


Plan = tuple[bool, Settings | None]
"""What a review works out: the par tables (or not), and the single-dummy values (with
their settings, or not)."""


def _review(job: tuple[Game, int, Plan]) -> list[Review]:
    """Reviews one game (in a worker process, or here), each deal tallied as it is done
    (:func:`~euchrelog.runs.tally`: the progress line moves within a long game)."""
    game, index, (par, single) = job
    reviews = []
    for review in review_game(game, index, par=par, single=single):
        reviews.append(review)
        tally(1)
    return reviews


Source = tuple[str, int, Game, int]
"""A game of a source: the source's name, the game's number in it (from 1), the game, and
the bytes of its text."""


def _review_source(job: tuple[Source, Plan]) -> list[Review]:
    """Reviews one game of a source (in a worker process, or here)."""
    (_, index, game, _), plan = job
    return _review((game, index, plan))


def _batch_name(batch: list[tuple[Source, Plan]]) -> str:
    """A batch of games in messages: where it starts."""
    (name, index, _, _), _ = batch[0]
    return f"{name} game {index}"


def _reviewed(games: Iterator[Source], jobs: int, plan: Plan, progress: Progress,
              scheduler: str | None = None) -> Iterator[tuple[Source, list[Review]]]:
    """Each game with its reviews, in order: here, in ``jobs`` processes, or on the workers
    of a Dask scheduler (:class:`~euchrelog.runs.Runner`), a game a batch. The deals
    reviewed are counted in ``progress`` as they are done (on a cluster, as their games
    come back), the bytes of a game when all of it is."""
    if scheduler is not None:
        need_dask()
    with Runner(jobs, scheduler, counted=progress.count) as runner:
        for (source, _), reviews in runner.map(_review_source, ((s, plan) for s in games),
                                               what=_batch_name):
            if scheduler is not None:
                progress.count(len(reviews))
            progress.advance(source[3])
            yield source, reviews


def _sources(paths: list[str], limits: Limits, progress: Progress, report: Report
             ) -> Iterator[Source]:
    """The games of every source (:mod:`euchrelog.sources`); a game that cannot be read is
    reported and left out, as is the rest of a source that stops being readable."""
    for path in paths:
        report.files += 1
        name = source_name(path)
        try:
            for entry in open_source(path, limits).entries():
                if entry.game is not None:
                    yield name, entry.index, entry.game, entry.size
                    continue
                progress.advance(entry.size)
                assert entry.failed is not None
                for finding in entry.failed.findings:
                    _fail(str(finding), progress, report)
        except NotationError as exc:
            _fail(f"{name}:{exc.line}:{exc.column}: {exc.code} {exc.message}", progress, report)
        except OSError as exc:
            raise FileError(f"cannot read {visible(name)}: {failure_text(exc)}") from None


def _fail(message: str, progress: Progress, report: Report) -> None:
    """Says that a game cannot be read (exit status 2)."""
    progress.clear()
    click.echo(visible(message), err=True)
    report.syntax_errors += 1


def _run(paths: list[str], fmt: str, annotating: bool, jobs: int, plan: Plan, limits: Limits,
         progress: Progress, report: Report, scheduler: str | None = None
         ) -> Callable[[TextIO], None]:
    """What writes the output of the run to a text file; on Ctrl-C it stops after the
    games finished, which are written (and :attr:`Report.stopped_at` says where)."""
    def reviewed() -> Iterator[tuple[Source, list[Review]]]:
        games = _sources(paths, limits, progress, report)
        try:
            for source, reviews in _reviewed(games, jobs, plan, progress, scheduler):
                _count(report, reviews)
                yield source, reviews
        except KeyboardInterrupt:
            report.interrupted = True

    def put(out: TextIO) -> None:
        if annotating:
            write_log((annotate(game, reviews) for (_, _, game, _), reviews in reviewed()),
                      out)
            return
        for (name, index, _, _), reviews in reviewed():
            where = f"{visible(name)} game {index}"
            for item in reviews:
                if fmt == "json":
                    out.write(json.dumps({"file": name, **review_json(item)}) + "\n")
                else:
                    out.write("\n".join(review_text(item, where)) + "\n")
            if plan[1] is None:
                continue
            players = player_reports(reviews)
            if fmt == "json":
                out.write(json.dumps({"file": name, "game": index,
                                      "players": players_json(players)}) + "\n")
            else:
                out.write("\n".join([f"{where}: the players, single dummy",
                                      *(f"  {line}" for line in players_text(players))])
                          + "\n")
    return put


@click.command(cls=Configured)
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True,
              help="text: each deal's tricks with the makers' double-dummy total after every "
                   "play, each costly play and the par table; json: one JSON object per deal "
                   "per line (JSON Lines, see docs/analysis.md).")
@click.option("--annotate", "annotating", is_flag=True,
              help="Write the records back in the notation with the review as '# dd:' "
                   "comments (an earlier review's are replaced).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this file instead of standard output.")
@click.option("--no-par", is_flag=True, help="Leave out the par tables (the costly part).")
@click.option("--single-dummy", "single", is_flag=True,
              help="Also value every bid and play single dummy: each option's mean over the "
                   "layouts of the cards the player could not see, the later bidding by the "
                   "rule-based player and the play double dummy, and a class from best to "
                   "blunder; after each game, each player's accuracy (docs/analysis.md).")
@sampling_options(" (a bid draws a quarter as many, at least 4)", "output, whatever --jobs")
@jobs_option("review games", "20 KB")
@click.option("--scheduler", metavar="ADDRESS",
              help="Review the games on the workers of this Dask scheduler (like "
                   "tcp://10.0.0.5:8786, or a scheduler file), in input order as with "
                   "--jobs. Needs euchrelog[dask] here and on the workers.")
@click.option("-f", "--force", is_flag=True, help="Write over a read-only output file.")
@click.option("-q", "--quiet", is_flag=True,
              help="Print neither the summary nor the progress line on stderr.")
@limit_options("8G")
@config_options
def analyze(sources: tuple[str, ...], fmt: str, annotating: bool, output: str | None,
            no_par: bool, single: bool, samples: int | None, exact_limit: int | None,
            seed: int | None, jobs: int, scheduler: str | None, force: bool, quiet: bool,
            max_bytes: int, max_line: int) -> None:
    """Review every deal double dummy: could the makers have made it?

    SOURCES are .euchre files, folders (searched for *.euchre), JSON or JSON Lines
    files, or - for standard input. For each deal whose every card is recorded, the
    review gives the makers' tricks under perfect play from the opening lead, the value
    of every card each seat could have played ("W: 9H loses 1 trick; AH keeps 3"), the
    points each side's mistakes cost it, and a par table: for each trump the bidding
    could have reached, with and without a lone hand, what the makers would take and
    score. Deals with unknown cards, play-only deals, score-sheet lines, thrown-in deals
    and deals with findings (see 'euchrelog check') are listed as not reviewed, with the
    reason.

    \b
    Examples:
      euchrelog analyze game.euchre
      euchrelog analyze night/ --format json -o review.jsonl
      euchrelog analyze game.euchre --annotate -o game-reviewed.euchre
      euchrelog analyze corpus.jsonl --jobs 4 --no-par --format json
      euchrelog analyze corpus.jsonl --scheduler tcp://10.0.0.5:8786 --format json
      euchrelog analyze game.euchre --single-dummy --samples 128 --seed 7

    Exit status: 0 when every source was read, 2 for a source that cannot be read
    (a syntax error) or a usage error.
    """
    if annotating and fmt != "text":
        raise click.UsageError("--annotate writes the notation; it takes no --format")
    if scheduler is not None and jobs != JOBS:
        raise click.UsageError("--jobs and --scheduler do not go together")
    settings = single_settings(single, samples, exact_limit, seed)
    paths = list(expand(sources))
    jobs = jobs_for(jobs, paths, AUTO_PARALLEL_BYTES)
    if output == "-":
        output = None
    report = Report("analyze")
    progress = Progress(total_size(paths), verb="analyzing",
                        enabled=not quiet and (output is not None or not sys.stdout.isatty()))
    limits = Limits(max_bytes, max_line)
    put = _run(paths, fmt, annotating, jobs, (not no_par, settings), limits, progress, report,
               scheduler)
    try:
        if output is not None:
            write_output(output, put, force=force)
        else:
            put(sys.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        closed_stdout()
    finally:
        progress.clear()
    if report.interrupted and not quiet:
        kept = f"written to {output}" if output is not None else "written"
        games = f"{report.games} game{'' if report.games == 1 else 's'}"
        click.echo(f"interrupted: the {games} finished before are {kept}; the rest was not "
                   "analyzed", err=True)
    if not quiet:
        click.echo(report.summary(), err=True)
    sys.exit(report.return_code)
