"""Writes the ``--help`` of every command into docs/cli.md, where the manual quotes it
(a ```console block that starts ``$ euchrelog ... --help``), so that the manual says what
the code does; tests/test_docs.py checks that it does.

    python tests/make_cli_docs.py
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from euchrelog.cli import main

CLI_MD = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
HELP_BLOCK = re.compile(r"```console\n\$ euchrelog ([^\n]*--help)\n(.*?)```\n", re.DOTALL)
"""A quoted ``--help``: the command, then what it prints."""


def help_text(command: str) -> str:
    """What ``euchrelog COMMAND`` prints on a terminal 80 columns wide."""
    result = CliRunner().invoke(main, command.split(), terminal_width=80, prog_name="euchrelog")
    return result.output


def rewritten(text: str) -> str:
    """docs/cli.md with every quoted ``--help`` as the code prints it now."""
    return HELP_BLOCK.sub(
        lambda m: f"```console\n$ euchrelog {m.group(1)}\n{help_text(m.group(1))}```\n", text)


def main_() -> None:
    """Rewrites docs/cli.md in place."""
    CLI_MD.write_text(rewritten(CLI_MD.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main_()
