"""The pages' templates: one Jinja2 environment, autoescaping everything, whose every
``{{ }}`` goes through :func:`~euchrelog.present.escape.escape` (its ``finalize`` hook), so
that no text of a record reaches a page raw: its markup is escaped and its control and
bidirectional characters are shown, not obeyed. Only :class:`~markupsafe.Markup` (the
pages' own SVG charts and script data) is written as it is.

The templates live in ``templates/`` beside this module (they ship in the wheel); every
page extends ``base.html``, the one page shell.

>>> print(render_text("{{ name }} <b>{{ 2 }}</b>", name="<i>\\u202e"))
&lt;i&gt;\\u202e <b>2</b>
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TextIO

from jinja2 import Environment, PackageLoader, StrictUndefined

from .escape import escape, script_json

ENVIRONMENT = Environment(
    loader=PackageLoader("euchrelog.present", "templates"),
    autoescape=True,
    finalize=escape,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    auto_reload=False,
)
"""The environment of every page."""
ENVIRONMENT.filters["tojson"] = script_json


def render(name: str, **context: Any) -> str:
    """The page (or part of a page) of template ``name``, whole."""
    return ENVIRONMENT.get_template(name).render(**context)


def chunks(name: str, **context: Any) -> Iterator[str]:
    """The page of template ``name`` piece by piece, as its loops give them (a loop over a
    generator is never held whole)."""
    return ENVIRONMENT.get_template(name).generate(**context)


def write(out: TextIO, name: str, **context: Any) -> None:
    """Writes the page of template ``name`` to ``out`` as it is made (see
    :func:`chunks`)."""
    for chunk in chunks(name, **context):
        out.write(chunk)


def render_text(source: str, **context: Any) -> str:
    """A template given as text, rendered in the pages' environment (for tests and
    examples)."""
    return ENVIRONMENT.from_string(source).render(**context)
