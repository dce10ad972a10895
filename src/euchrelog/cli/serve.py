"""The ``euchrelog serve`` command: the live event server, and ``serve export``."""

from __future__ import annotations

import contextlib
import secrets
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click

from ..files import write_output

if TYPE_CHECKING:
    from ..serve.store import Store

_DB_HELP = ("The database: a SQLite file (made if absent) or a PostgreSQL URL, "
            "postgresql://user@host:5432/name.")


def _open(db: str) -> Store:
    """The store of ``db``, migrated; a database that cannot be opened is a usage error."""
    import sqlalchemy as sa

    from ..serve.store import Store, connect, migrate

    try:
        engine = connect(db)
        migrate(engine)
    except (sa.exc.SQLAlchemyError, OSError, ValueError, ImportError) as exc:
        message = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise click.UsageError(f"cannot open the database {db!r}: {message}") from None
    return Store(engine)


@click.group(invoke_without_command=True)
@click.option("--db", default="event.sqlite", show_default=True, help=_DB_HELP)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0 for every network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port, printed when ready).")
@click.option("--director-token", metavar="TOKEN",
              help="The director's secret (default: a new random one, printed). Give the "
                   "same one again to keep the table links of earlier events working.")
@click.pass_context
def serve(ctx: click.Context, db: str, host: str, port: int,
          director_token: str | None) -> None:
    """Run a live event: deals entered by phone, standings shown live.

    The server judges every deal with the engine and the event checks of 'euchrelog
    score', stores each accepted deal in one transaction before answering, and shows
    the standings that 'euchrelog score' prints on its export. When it is ready it
    prints its address and the director's token; the director signs in at /director,
    creates an event and hands out one link per table.

    \b
    Examples:
      euchrelog serve --db friday.sqlite
      euchrelog serve --db friday.sqlite --host 0.0.0.0 --port 8080 --director-token s3cret
      euchrelog serve --db postgresql://euchrelog@localhost:5432/events
      euchrelog serve export --db friday.sqlite -o sheets/

    The JSON API, the security model and durability are in the manual's page
    on serve.
    """
    if ctx.invoked_subcommand is not None:
        return
    import uvicorn
    from starlette.applications import Starlette

    from ..serve.app import Settings, create_app

    token = director_token or secrets.token_urlsafe(18)
    if len(token) < 8:
        raise click.BadParameter("at least 8 characters", param_hint="'--director-token'")
    store = _open(db)
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        raise click.UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host

    @contextlib.asynccontextmanager
    async def ready(_app: Starlette) -> AsyncIterator[None]:
        click.echo(f"euchrelog serve: listening on http://{shown}:{bound}/ (database {db})")
        click.echo(f"director token: {token}")
        sys.stdout.flush()
        yield

    settings = Settings(token)
    app = create_app(store, settings, lifespan=ready)

    class Stopping(uvicorn.Server):
        """The server, ending the live streams when asked to stop."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            settings.closing.set()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5,
                            lifespan="on")
    Stopping(config).run(sockets=[sock])


@serve.command()
@click.option("--db", default="event.sqlite", show_default=True, help=_DB_HELP)
@click.option("-o", "--output", "folder", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="The folder to write into (made if absent): a file event-ID.euchre per "
                   "event.")
@click.option("--event", "only", multiple=True, type=int, metavar="ID",
              help="Export only this event (repeatable).")
def export(db: str, folder: Path, only: tuple[int, ...]) -> None:
    """Write the events' games as notation files that 'euchrelog score' reads.

    \b
    Examples:
      euchrelog serve export --db friday.sqlite -o sheets/
      euchrelog score sheets/event-1.euchre --format json
    """
    from ..serve.standings import export_name
    from ..serve.store import NotFoundError

    store = _open(db)
    ids = list(only) or [int(e["id"]) for e in store.events()]
    try:
        texts = {i: store.records(i) for i in ids}
    except NotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    folder.mkdir(parents=True, exist_ok=True)
    for event_id, text in texts.items():
        write_output(folder / export_name(event_id), text, force=True)
        click.echo(f"wrote {folder / export_name(event_id)}", err=True)
    if not texts:
        click.echo("no event to export", err=True)
