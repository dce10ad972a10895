"""The ``euchrelog`` command line: the group of commands and the entry point :func:`run`.

Each command lives in a module of its own name (``arena``, ``check``, ``convert``, ``fmt``,
``schema``, ``score``, ``stats``, ``analyze``, ``view``, ``record``, ``serve``, ``docs``;
``explain`` in :mod:`euchrelog.explain`), imported only when it is named, so that a
command pays only for what it uses. :mod:`~euchrelog.cli.options` holds what the commands'
options share, :mod:`~euchrelog.cli.streams` their reading of sources and ends of pipes,
:mod:`~euchrelog.cli.formats` the printing of findings.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from typing import ClassVar

import click

from .. import COMPILED, __version__
from ..errors import EuchrelogError, NotationError
from ..files import FileError, forget_sources
from ..imports import import_frozen
from ..report import EXIT_INTERRUPTED, EXIT_SYNTAX, visible, visible_context
from ..spelling import nearest
from .options import FileFailed


class _Commands(click.Group):
    """The commands, each imported from its module when first named (so that ``check``
    does not pay for importing the recorder, the event scorer or the converters)."""

    elsewhere: ClassVar[dict[str, str]] = {"analyze": "euchrelog.cli.analyze",
                                           "arena": "euchrelog.cli.arena",
                                           "check": "euchrelog.cli.check",
                                           "convert": "euchrelog.cli.convert",
                                           "docs": "euchrelog.cli.docs",
                                           "explain": "euchrelog.explain",
                                           "fmt": "euchrelog.cli.fmt",
                                           "record": "euchrelog.cli.record",
                                           "schema": "euchrelog.cli.schema",
                                           "score": "euchrelog.cli.score",
                                           "serve": "euchrelog.cli.serve",
                                           "sheet": "euchrelog.cli.sheet",
                                           "stats": "euchrelog.cli.stats",
                                           "view": "euchrelog.cli.view"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.elsewhere})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.elsewhere and cmd_name not in self.commands:
            command = getattr(import_frozen(self.elsewhere[cmd_name]), cmd_name)
            self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command named first in ``args``; an unknown name is a usage error that says
        which command was most likely meant."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            meant = nearest(name, self.list_commands(ctx))
            ctx.fail(f"No such command {name!r}."
                     + (f" Did you mean {meant!r}?" if meant is not None else ""))
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        """Runs the command, a file it cannot read or write reported as :class:`FileFailed`."""
        try:
            return super().invoke(ctx)
        except FileError as exc:
            raise FileFailed(str(exc)) from None


@click.group(cls=_Commands,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 96})
@click.version_option(__version__, prog_name="euchrelog", message=(
    f"%(prog)s, version %(version)s ({'compiled' if COMPILED else 'pure Python'})"))
def main() -> None:
    """Record Euchre games as plain text and prove them right or wrong.

    A record is a .euchre file in the euchrelog notation. The commands below check
    records by replaying every deal, convert them to JSON and back, and print them in
    canonical form; 'euchrelog explain CODE' tells what a finding means, and
    'euchrelog docs' prints the manual (docs/ in the source).

    \b
    Examples:
      euchrelog check samples/valid
      euchrelog check game.euchre --format json
      euchrelog convert game.euchre -o game.json
      euchrelog fmt --check samples
    """
    click.get_current_context().call_on_close(forget_sources)


def _interrupted() -> None:
    """Ends a command stopped by Ctrl-C: what it wrote is flushed, and the status is 130."""
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    click.echo("euchrelog: interrupted", err=True)
    sys.exit(EXIT_INTERRUPTED)


def run() -> None:
    """Runs the CLI, turning every error into a message and an exit status."""
    # What start-up made (the modules, the grammar, the models) lives as long as the
    # process: out of the collector's sight, a long run does not scan it again and again.
    gc.freeze()
    try:
        status = main(standalone_mode=False)  # a command's Exit comes back as its status
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            _interrupted()
        click.echo("aborted", err=True)
        sys.exit(EXIT_SYNTAX)
    except KeyboardInterrupt:
        _interrupted()
    except NotationError as exc:
        click.echo(f"euchrelog: {visible(str(exc))}", err=True)
        if exc.context:
            click.echo("\n".join(f"    {line}" for line in visible_context(
                exc.context).splitlines()), err=True)
        sys.exit(EXIT_SYNTAX)
    except EuchrelogError as exc:
        click.echo(f"euchrelog: {exc}", err=True)
        sys.exit(EXIT_SYNTAX)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        sys.exit(0)
    except OSError as exc:
        click.echo(f"euchrelog: {exc.strerror or exc}: {exc.filename or ''}", err=True)
        sys.exit(EXIT_SYNTAX)
    sys.exit(status if isinstance(status, int) else 0)
