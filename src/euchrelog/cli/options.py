"""What the commands' options share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

T = TypeVar("T")


def parsed(parse: Callable[[str], T]
           ) -> Callable[[click.Context, click.Parameter, str | None], T | None]:
    """An option's callback that reads its value with ``parse``; the ``ValueError`` of a
    value it cannot read is a usage error."""
    def callback(_ctx: click.Context, _param: click.Parameter, value: str | None) -> T | None:
        if value is None:
            return None
        try:
            return parse(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    return callback
