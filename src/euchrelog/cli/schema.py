"""The ``euchrelog schema`` command: the JSON Schema of the JSON form."""

from __future__ import annotations

import json

import click

from ..models import Log


@click.command()
def schema() -> None:
    """Print the JSON Schema of the JSON form (a document with a list of games)."""
    click.echo(json.dumps(Log.model_json_schema(), indent=2, ensure_ascii=False))
