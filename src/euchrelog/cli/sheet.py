"""The ``euchrelog sheet`` command: tally sheets (CSV, XLSX) read into the notation, and
written from games."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..files import write_output


@click.group()
def sheet() -> None:
    """Read club tally sheets (CSV or XLSX) into games, or write them from games.

    \b
    Examples:
      euchrelog sheet read friday.xlsx -o friday.euchre
      euchrelog sheet read tally.csv --column round=Rnd --column hand=H --event "Club night"
      euchrelog sheet write friday.euchre -o friday.xlsx --layout tables
      euchrelog score friday.euchre

    The layouts and the column mapping: 'euchrelog docs sheets' (docs/sheets.md).
    """


@sheet.command()
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Write the games here (atomically) instead of to standard output.")
@click.option("--event", metavar="NAME",
              help="The event's name (default: each file's name without its suffix).")
@click.option("--column", "columns", multiple=True, metavar="FIELD=HEADER",
              help="A header of the sheet for a field (round, table, player, partner, total, "
                   "n, e, s, w; hand, ns and ew: the hands' prefix); repeatable.")
@click.option("--force", is_flag=True, help="Rewrite OUTPUT even if it is read-only.")
def read(sources: tuple[Path, ...], output: Path | None, event: str | None,
         columns: tuple[str, ...], force: bool) -> None:
    """Read tally sheets into games of the notation.

    Every cell that cannot be read, and every table that does not add up, is reported as
    file:sheet:row:column; then nothing is written. Exit status: 0, or 1 when a sheet has
    errors, 2 on a usage error.
    """
    from ..sheets import mapping_of, notation, read_sheet

    try:
        mapping = mapping_of(columns)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--column'") from None
    games, errors = [], []
    for path in sources:
        try:
            found, wrong = read_sheet(path, event, mapping)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise click.UsageError(f"cannot read {path}: {exc}") from None
        games.extend(found)
        errors.extend(wrong)
    for error in errors:
        click.echo(str(error), err=True)
    if errors:
        sys.exit(1)
    text = notation(games)
    if output is None or str(output) == "-":
        click.echo(text, nl=False)
    else:
        write_output(output, text, force=force)


@sheet.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The sheet to write: .csv or .xlsx.")
@click.option("--layout", type=click.Choice(["players", "tables"]), default="players",
              show_default=True,
              help="One row a player a round, or one row a table a round.")
def write(source: Path, output: Path, layout: str) -> None:
    """Write a tally sheet of the games of a record (a progressive event's)."""
    from ..notation import loads
    from ..sheets import tally_rows, write_sheet

    games = loads(source.read_text(encoding="utf-8")).games
    write_sheet(tally_rows(games, layout), output)
