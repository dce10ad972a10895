"""The ``euchrelog arena`` command: players matched on the same deals, duplicate, with a
rating table (:mod:`euchrelog.arena`, docs/players.md)."""

from __future__ import annotations

import os
import sys
from typing import TextIO

import click

from ..arena import BoardResult, Match, Setup, html, json_text, run, text
from ..errors import IllegalActionError
from ..files import write_output
from ..notation.writer import dumps_game
from ..players import load_player
from ..progress import Progress
from ..rules import VARIANTS
from .options import JOBS, jobs_option, need_dask
from .streams import closed_stdout

FORMATS = ("text", "json", "html")
AUTO_PARALLEL_BOARDS = 200
"""Boards from which ``arena`` plays in every core unless told otherwise."""
EXIT_FAULTS = 1
"""The exit status of a match in which a player failed (a crash, a timeout, an illegal
answer)."""


def _players(specs: tuple[str, ...], setup: Setup, sides: int, variant: str) -> None:
    """Checks the players named: as many as the variant's sides, each one that loads."""
    if len(specs) != sides:
        raise click.UsageError(
            f"{variant} has {sides} sides: name {sides} players (a player holds every seat "
            f"of its side), not {len(specs)}")
    for spec in specs:
        try:
            player = load_player(spec, timeout=setup.timeout)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="PLAYERS") from None
        close = getattr(player, "close", None)
        if callable(close):
            close()


@click.command()
@click.argument("players", nargs=-1, required=True, metavar="PLAYER PLAYER...")
@click.option("--variant", default="four-hand", show_default=True,
              type=click.Choice([v.name for v in VARIANTS]),
              help="The variant played (docs/variants.md).")
@click.option("--rules", default="", metavar="OPTIONS",
              help="House rules, as a Rules tag writes them: 'stick-the-dealer deck=32'.")
@click.option("-n", "--deals", type=click.IntRange(min=1), default=100, show_default=True,
              help="Boards: deals dealt, each played once in every seating (duplicate).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seeds the shuffles and the random players: the same seed, the same match.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SEC",
              help="Seconds a player has to answer (a program is ended and started again; a "
                   "Python player's late answer is not taken). Default: no limit.")
@click.option("--no-duplicate", is_flag=True,
              help="Play each board once, the seating turning from board to board.")
@click.option("--games", "games_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write every game to FILE as notation ('euchrelog check FILE' checks it).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True,
              help="text: the rating table and the faults; json: the same as one JSON "
                   "document; html: a page.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the report to this file instead of standard output.")
@jobs_option("play boards", f"{AUTO_PARALLEL_BOARDS} boards")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play the boards on the workers of this Dask scheduler (like "
                   "tcp://10.0.0.5:8786), in order as with --jobs. Needs euchrelog[dask] "
                   "here and on the workers, and the players there.")
@click.option("-f", "--force", is_flag=True, help="Write over read-only output files.")
@click.option("-q", "--quiet", is_flag=True, help="Show no progress line on stderr.")
def arena(players: tuple[str, ...], variant: str, rules: str, deals: int, seed: int,
          timeout: float | None, no_duplicate: bool, games_file: str | None, fmt: str,
          output: str | None, jobs: int, scheduler: str | None, force: bool,
          quiet: bool) -> None:
    """Match players on the same deals and rate them.

    Each PLAYER is one of: random (random legal acts), rule-based (common euchre advice,
    docs/players.md), single-dummy (the card of best mean over the layouts it cannot see;
    bids as rule-based), module:Class (a Python class with choose(decision), importable
    here), or exec:COMMAND (a program in any language that answers JSON lines on its
    standard input and output). Name one player a side: two in four-hand and two-hand
    (a player holds both seats of its side), three in cutthroat, three-hand and ghost.

    Duplicate by default: every board (one shuffle) is played once in every seating of
    the players over the sides, so that each holds every side's cards once and the luck
    of the cards cancels out. The report gives each player's points per deal less the
    others' (net), with its 95% confidence interval, the share of boards won against the
    field and an Elo rating. A player that crashes, answers late or answers an act not
    offered is reported with the board, the game, the seat and the act, and the act is
    chosen at random instead: the match goes on.

    \b
    Examples:
      euchrelog arena random rule-based --deals 1000
      euchrelog arena rule-based exec:'python3 bot.py' --timeout 2 --games match.euchre
      euchrelog arena rule-based random random --variant cutthroat --format html -o r.html
      euchrelog arena mybots:Greedy rule-based --deals 5000 --jobs 4 --format json

    Exit status: 0 when every player answered every question, 1 when one failed, 2 for a
    usage error or a file that cannot be written.
    """
    if scheduler is not None and jobs != JOBS:
        raise click.UsageError("--jobs and --scheduler do not go together")
    if scheduler is not None:
        need_dask()
    setup = Setup(players, variant, rules, seed, timeout, not no_duplicate,
                  record=games_file is not None)
    try:
        ruleset = setup.recorder().ruleset
    except IllegalActionError as exc:
        raise click.BadParameter(exc.message, param_hint="--rules") from None
    _players(players, setup, len(ruleset.side_names), variant)
    if jobs == JOBS:
        jobs = (os.cpu_count() or 1) if deals >= AUTO_PARALLEL_BOARDS else 1
    progress = Progress(deals, verb="playing", unit="boards",
                        enabled=not quiet and (output is not None or not sys.stdout.isatty()))

    def play(out: TextIO | None) -> Match:
        first = [True]

        def each(result: BoardResult) -> None:
            if scheduler is not None:
                progress.count(len(result.points), "game")
            progress.advance(1)
            if out is None:
                return
            for game in result.games:
                if not first[0]:
                    out.write("\n")
                first[0] = False
                out.write(dumps_game(game))

        return run(setup, deals, jobs=jobs, scheduler=scheduler, each=each,
                   counted=lambda n: progress.count(n, "game"))

    played: list[Match] = []
    try:
        if games_file is not None:
            write_output(games_file, lambda out: played.append(play(out)), force=force)
        else:
            played.append(play(None))
    finally:
        progress.clear()
    match = played[0]
    report = {"text": text, "json": json_text, "html": html}[fmt](match)
    try:
        if output is not None and output != "-":
            write_output(output, report, force=force)
        else:
            sys.stdout.write(report)
            sys.stdout.flush()
    except BrokenPipeError:
        closed_stdout()
    if match.interrupted and not quiet:
        click.echo(f"interrupted: the report counts the {match.boards} boards finished",
                   err=True)
    sys.exit(EXIT_FAULTS if match.faults else 0)
