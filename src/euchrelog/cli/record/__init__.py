"""``euchrelog record``: recording a game at the table, entry by entry.

The session asks for the players, then, deal by deal, for what the scorer knows: the full
play (the hands if known, the upcard, every bid, the exchange, the lone hands and every
card) or only the score-sheet line (trump, maker, lone hands, tricks). Every entry goes
through :class:`~euchrelog.recorder.Recorder`, so an illegal one is refused with the
finding code and message ``euchrelog check`` would give, and every accepted one is written
to the file at once, atomically, in canonical notation, with ``unfinished`` at the end
until the game is over. ``--resume`` goes on with the last game of a file.

The answers come from the terminal (with readline completion of the words that fit) or
from standard input when it is not a terminal (each answer is then echoed after its
prompt, so the output reads like the session).

The package's modules: :mod:`.terminal` (:class:`Console`, the file's signature, a failed
save), :mod:`.words` (the answers read into cards, seats, bids and acts, and entries said in
words), :mod:`.questions` (:class:`Question`, :class:`Draft`, the help of each question)
and :mod:`.session` (:class:`Session`, the questions asked and the answers recorded); this
module is the command, :func:`record`.
"""

from __future__ import annotations

from pathlib import Path

import click

from ...errors import IllegalActionError, NotationError
from ...files import FileLock, LockedError, failure_text, is_read_only, stale_temporaries
from ...recorder import Recorder, RecorderError
from ...rules import find_variant
from ..options import Configured, config_options
from .questions import EVENT_QUESTIONS, EVENT_TAGS, Draft, Question
from .session import Session
from .terminal import EXIT_INTERRUPTED, EXIT_USAGE, Console, SaveError
from .words import UnclearError, describe, parse_act, parse_bids, trump_news

__all__ = ["EVENT_QUESTIONS", "EVENT_TAGS", "EXIT_INTERRUPTED", "EXIT_USAGE", "Console",
           "Draft", "Question", "SaveError", "Session", "UnclearError", "describe",
           "parse_act", "parse_bids", "record", "trump_news"]


class _Failure(click.ClickException):
    """A file that cannot be recorded into; exit status 2."""

    exit_code = EXIT_USAGE

    def show(self, file: object = None) -> None:
        click.echo(f"euchrelog: {self.format_message()}", err=True)


# ---------------------------------------------------------------- the command


@click.command(cls=Configured)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--variant", metavar="NAME",
              help="The variant: four-hand (the default), cutthroat, three-hand, ghost, "
                   "two-hand.")
@click.option("--rules", metavar="OPTIONS",
              help="House rules, as in the Rules tag: 'stick-the-dealer deck=32'.")
@click.option("--target", type=click.IntRange(min=1), metavar="N",
              help="The score that wins (default: the variant's).")
@click.option("--resume", is_flag=True, help="Go on with the last game of FILE.")
@click.option("-f", "--force", is_flag=True, help="Record into FILE even if it is read-only.")
@click.option("--event", metavar="NAME",
              help="The event the game belongs to (the Event tag); the round, table, date and "
                   "site not given are then asked for.")
@click.option("--round", "round_", metavar="ROUND", help="The round of the event (Round tag).")
@click.option("--table", metavar="TABLE", help="The table in the round (Table tag).")
@click.option("--date", metavar="YYYY-MM-DD", help="When the game is played (Date tag).")
@click.option("--site", metavar="PLACE", help="Where the game is played (Site tag).")
@config_options
def record(file: Path, variant: str | None, rules: str | None, target: int | None,
           resume: bool, force: bool, event: str | None, round_: str | None,
           table: str | None, date: str | None, site: str | None) -> None:
    """Record a game at the table, entry by entry.

    Asks for the players, then deal by deal for the full play (hands if known,
    upcard, bids, exchange, lone hands, every card) or the score-sheet line only.
    Shows the legal choices; refuses an illegal entry with the finding code and
    reason 'check' gives. After every entry FILE is rewritten atomically in
    canonical notation, marked unfinished until the game ends.

    At any prompt: ? help, undo, sheet (score this deal from the sheet), quit.

    \b
    Examples:
      euchrelog record club.euchre --target 5
      euchrelog record game.euchre --variant cutthroat --rules dummy=required
      euchrelog record --resume club.euchre
    """
    console = Console()
    given = {"Event": event, "Site": site, "Date": date, "Round": round_, "Table": table}
    tags = {k: v.strip() for k, v in given.items() if v is not None and v.strip()}
    if resume and (variant is not None or rules is not None or target is not None or tags):
        raise click.UsageError("--variant, --rules, --target and the event tags come from "
                               "FILE with --resume")
    if not resume:
        if file.exists() and file.stat().st_size:
            raise click.UsageError(f"{file} exists: --resume goes on with it, or choose "
                                   "another file")
        try:
            kind = find_variant(variant or "four-hand")
            Recorder(kind, rules=rules, target=target)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    if is_read_only(file) and not force:
        raise _Failure(f"{file} is read-only: --force records into it all the same")
    lock = FileLock(file)
    try:
        lock.acquire()
    except LockedError as exc:
        raise _Failure(f"cannot record into {file}: {exc}") from None
    except OSError as exc:
        raise _Failure(f"cannot record into {file}: {failure_text(exc)}") from None
    try:
        for stale in stale_temporaries(file):
            stale.unlink(missing_ok=True)
            console.say(f"removed {stale}, left by a save that was cut short")
        if resume:
            session = _resume(file, console, force=force)
        else:
            session = Session(file, console, variant=kind, rules=rules, target=target,
                              tags=tags, force=force)
        status = session.run()
    finally:
        lock.release()
    if status:
        raise click.exceptions.Exit(status)


def _resume(path: Path, console: Console, *, force: bool) -> Session:
    from ...notation import loads

    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except FileNotFoundError:
        raise click.UsageError(f"{path} does not exist") from None
    except UnicodeDecodeError:
        raise _Failure(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise _Failure(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        log = loads(text)
    except NotationError as exc:
        raise _Failure(f"{path}:{exc.line}:{exc.column}: S101 {exc.message}") from None
    if not log.games:
        raise _Failure(f"{path} holds no game to resume")
    game = log.games[-1]
    last = game.deals[-1] if game.deals else None
    sheet = last.sheet if last is not None and last.score is None and (
        game.end is None or game.end.act == "unfinished") else None
    if sheet is not None and (sheet.thrown or sheet.tricks is not None or sheet.taken):
        sheet = None
    if sheet is not None and last is not None:  # a sheet line without its tricks: ask them
        game = game.model_copy(update={"deals": (
            *game.deals[:-1], last.model_copy(update={"sheet": None}))})
    try:
        recorder = Recorder.from_game(game)
    except (IllegalActionError, RecorderError) as exc:
        raise _Failure(f"cannot resume {path}: {exc}") from None
    session = Session(path, console, recorder=recorder, before=log.games[:-1], force=force)
    if sheet is not None:
        session.finish_sheet(sheet)
    return session
