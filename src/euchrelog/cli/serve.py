"""The ``euchrelog serve`` command: the live event server, and ``serve export``."""

from __future__ import annotations

import os
import secrets
import socket
import sys
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


TOKEN_ENV = "EUCHRELOG_DIRECTOR_TOKEN"
"""The environment variable that may give the director's token."""

TOKEN_FILE = "director-token"
"""Where a director's token is kept when none is given (made if absent)."""


def _director_token(given: str | None, path: Path | None) -> tuple[str, str]:
    """The director's token and where it came from (said at start, the token never): the
    environment variable, else the file (made with a new random token, readable by its
    owner only, when it does not exist)."""
    from ..serve.app import MIN_TOKEN

    where = f"from ${TOKEN_ENV}"
    if given is None:
        path = path or Path(TOKEN_FILE)
        where = f"from {path}"
        try:
            given = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            given = secrets.token_urlsafe(24)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(given + "\n")
            except OSError as exc:
                raise click.UsageError(f"cannot write the director's token to {path}: "
                                       f"{exc.strerror}") from None
            where = f"new, written to {path} (readable by you only)"
        except (OSError, UnicodeDecodeError) as exc:
            raise click.UsageError(f"cannot read the director's token from {path}: "
                                   f"{getattr(exc, 'strerror', None) or exc}") from None
    if len(given) < MIN_TOKEN or not given.isprintable():
        raise click.UsageError(f"the director's token ({where}) must be at least "
                               f"{MIN_TOKEN} printable characters")
    return given, where


@click.group(invoke_without_command=True)
@click.option("--db", default="event.sqlite", show_default=True, help=_DB_HELP)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0 for every network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port, printed when ready).")
@click.option("--director-token-file", "token_file", metavar="PATH",
              type=click.Path(dir_okay=False, path_type=Path),
              help=f"A file holding the director's secret (made with a new random one if "
                   f"absent; default: ./{TOKEN_FILE}). ${TOKEN_ENV} gives it instead. Keep "
                   "the same one to keep the table links of earlier events working.")
@click.option("--idle-timeout", type=click.FloatRange(0.5, 3600), default=10.0,
              show_default=True, metavar="SECONDS",
              help="Close a connection that sends no whole request for this long.")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True,
              metavar="ADDRESSES",
              help="The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
                   "headers are believed (comma-separated; '*' for any).")
@click.pass_context
def serve(ctx: click.Context, db: str, host: str, port: int, token_file: Path | None,
          idle_timeout: float, forwarded_allow_ips: str) -> None:
    """Run a live event: deals entered by phone, standings shown live.

    The server judges every deal with the engine and the event checks of 'euchrelog
    score', stores each accepted deal in one transaction before answering, and shows
    the standings that 'euchrelog score' prints on its export. When it accepts
    connections it prints its address (never the director's token, which comes from
    $EUCHRELOG_DIRECTOR_TOKEN or a file); the director signs in at /director, creates an
    event and hands out one link per table.

    \b
    Examples:
      euchrelog serve --db friday.sqlite
      euchrelog serve --db friday.sqlite --host 0.0.0.0 --port 8080
      EUCHRELOG_DIRECTOR_TOKEN=... euchrelog serve --db postgresql://euchrelog@localhost/events
      euchrelog serve export --db friday.sqlite -o sheets/

    The JSON API, the security model (and running behind an HTTPS reverse proxy) and
    durability are in the manual's page on serve.
    """
    if ctx.invoked_subcommand is not None:
        return
    import uvicorn

    from ..serve.app import Settings, create_app
    from ..serve.guard import GuardedProtocol, raise_file_limit

    token, where = _director_token(os.environ.get(TOKEN_ENV) or None, token_file)
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
    GuardedProtocol.max_connections = raise_file_limit()
    GuardedProtocol.idle_timeout = idle_timeout

    settings = Settings(token)
    app = create_app(store, settings)

    class Server(uvicorn.Server):
        """The server: it says it listens once it accepts connections, and ends the live
        streams when asked to stop."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.should_exit:
                click.echo(f"euchrelog serve: listening on http://{shown}:{bound}/ "
                           f"(database {db})")
                click.echo(f"director token: {where}")
                sys.stdout.flush()

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            settings.closing.set()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5,
                            lifespan="off", http=GuardedProtocol,
                            timeout_keep_alive=max(1, int(idle_timeout)),
                            proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips)
    Server(config).run(sockets=[sock])


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
