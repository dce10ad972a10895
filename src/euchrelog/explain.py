"""``euchrelog explain``: the documentation of a finding code, from docs/findings.md (which
the wheel ships inside the package, so that the command works wherever euchrelog is
installed).

>>> print(section("T201").splitlines()[0])
### T201 missing-variant
"""

from __future__ import annotations

import functools

import click

from .findings import CODES, nearest_code
from .notation import shipped_text
from .spelling import nearest


@functools.lru_cache(maxsize=1)
def _findings_doc() -> list[str]:
    return shipped_text("docs", "findings.md").splitlines()


def section(code: str) -> str:
    """The section of findings.md on ``code``: its heading and everything up to the next
    heading of its level or above.

    :raises KeyError: for a code findings.md does not document.
    """
    lines = _findings_doc()
    heading = f"### {code} {CODES[code].name}"
    start = lines.index(heading) if heading in lines else None
    if start is None:
        raise KeyError(code)
    end = next((k for k in range(start + 1, len(lines))
                if lines[k].startswith(("### ", "## ", "# "))), len(lines))
    return "\n".join(lines[start:end]).rstrip() + "\n"


def code_list() -> str:
    """One line per finding code: code, severity, name and summary."""
    return "".join(f"{c.code}  {c.severity:<7}  {c.name:<22}  {c.summary}\n"
                   for c in CODES.values())


def code_named(text: str) -> str:
    """The finding code ``text`` names: a code in any case (``r801``) or a code's name
    (``renege``).

    :raises ValueError: for neither, saying which code was most likely meant.

    >>> code_named("renege"), code_named("c901")
    ('R801', 'C901')
    """
    word = text.strip()
    if word.upper() in CODES:
        return word.upper()
    by_name = {c.name: c.code for c in CODES.values()}
    if word.lower() in by_name:
        return by_name[word.lower()]
    meant = nearest_code(word) if len(word) == 4 else nearest(word, by_name)
    hint = f"; did you mean {meant}{'' if meant in CODES else f' ({by_name[meant]})'}?" if (
        meant is not None) else ""
    raise ValueError(f"{word!r} is no finding code nor the name of one{hint} (euchrelog "
                     "explain lists them)")


@click.command()
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Print the documentation of a finding code, like R801 or renege.

    CODE is a code (in any case) or its name. Without CODE, list every code with its
    severity, name and summary.
    """
    if code is None:
        click.echo(code_list(), nl=False)
        return
    try:
        named = code_named(code)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'CODE'") from None
    click.echo(section(named), nl=False)
