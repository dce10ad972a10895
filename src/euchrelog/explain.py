"""``euchrelog explain``: the documentation of a finding code, from docs/findings.md (which
the wheel ships inside the package, so that the command works wherever euchrelog is
installed).

>>> print(section("T201").splitlines()[0])
### T201 missing-variant
"""

from __future__ import annotations

import functools

import click

from .findings import CODES
from .notation import shipped_text


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


@click.command()
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Print the documentation of a finding code, like R801.

    Without CODE, list every code with its severity, name and summary.
    """
    if code is None:
        click.echo(code_list(), nl=False)
        return
    code = code.strip().upper()
    if code not in CODES:
        raise click.BadParameter(f"{code!r} is not a finding code (euchrelog explain lists "
                                 "them)", param_hint="'CODE'")
    click.echo(section(code), nl=False)
