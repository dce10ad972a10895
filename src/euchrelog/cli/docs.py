"""``euchrelog docs``: the manual, from the docs that the wheel ships inside the package
(``docs/`` in a checkout), so that it can be read wherever euchrelog is installed.

>>> "notation" in topics() and "findings" in topics()
True
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import click

from ..files import write_stdout
from ..notation import shipped_text
from ..spelling import did_you_mean


def _folder() -> Path:
    """The folder of the docs: in the package, or at the top of a checkout."""
    packaged = Path(str(resources.files("euchrelog") / "docs"))
    if (packaged / "notation.md").is_file():
        return packaged
    return Path(__file__).resolve().parents[3] / "docs"


def topics() -> list[str]:
    """The names of the documents, such as ``notation`` for notation.md."""
    return sorted(p.stem for p in _folder().glob("*.md"))


def _first_line(topic: str) -> str:
    """What a document is about: its title, without the ``#``."""
    for line in shipped_text("docs", f"{topic}.md").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def on_terminal() -> bool:
    """Whether standard output is a terminal (a part of the manual is then paged)."""
    return sys.stdout.isatty()


@click.command()
@click.argument("topic", required=False)
def docs(topic: str | None) -> None:
    """Print a part of the manual, like notation or findings.

    Without TOPIC, list the parts. The manual is Markdown; on a terminal a part is shown
    through the pager ($PAGER, else less or more), and piped it is printed as it is.

    \b
    Examples:
      euchrelog docs
      euchrelog docs cli
    """
    known = topics()
    if topic is None:
        width = max(map(len, known))
        write_stdout("".join(f"{name:<{width}}  {_first_line(name)}\n" for name in known))
        return
    name = topic.strip().lower().removesuffix(".md")
    if name not in known:
        raise click.BadParameter(f"{topic!r} is no part of the manual{did_you_mean(name, known)} "
                                 f"(one of: {', '.join(known)})", param_hint="'TOPIC'")
    text = shipped_text("docs", f"{name}.md")
    if on_terminal():
        click.echo_via_pager(text)
    else:
        write_stdout(text)
