"""``euchrelog docs``: the manual, from the docs that the wheel ships inside the package
(``docs/`` in a checkout), so that it can be read wherever euchrelog is installed.

>>> "notation" in topics() and "findings" in topics()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import click

from ..files import write_stdout
from ..notation import shipped_text


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


@click.command()
@click.argument("topic", required=False)
def docs(topic: str | None) -> None:
    """Print a part of the manual, like notation or findings.

    Without TOPIC, list the parts. The manual is Markdown; page it with 'euchrelog docs
    notation | less'.

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
        raise click.BadParameter(f"{topic!r} is no part of the manual (one of: "
                                 f"{', '.join(known)})", param_hint="'TOPIC'")
    write_stdout(shipped_text("docs", f"{name}.md"))
