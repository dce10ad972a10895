"""Writes into docs/cli.md what the commands themselves say, so that the manual says what
the code does; tests/test_docs.py checks that it does (``rewritten(text) == text``):

- the table of commands at the top: each command and the first sentence of its help;
- what ``euchrelog --version`` prints;
- the ``--help`` of every command, where the manual quotes it (a ```console block that
  starts ``$ euchrelog ... --help``);
- every other ```console block whose commands run on the repository's own files (the
  samples): each ``$ euchrelog ...`` line, and ``$ echo $?``, followed by what it prints (a
  line ``...`` in the block stands for the lines it leaves out, and stays); standard
  output first, then standard error (where the summaries go).

    python tests/make_cli_docs.py
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from click.testing import CliRunner

from euchrelog.cli import main

ROOT = Path(__file__).resolve().parent.parent
CLI_MD = ROOT / "docs" / "cli.md"
HELP_BLOCK = re.compile(r"```console\n\$ euchrelog ([^\n]*--help)\n(.*?)```\n", re.DOTALL)
"""A quoted ``--help``: the command, then what it prints."""
CONSOLE = re.compile(r"```console\n(.*?)```\n", re.DOTALL)
TABLE = re.compile(r"\| command \| what it does \|\n\|---\|---\|\n(?:\|[^\n]*\|\n)+")
VERSION = re.compile(r"`euchrelog --version` prints `[^`]*`"
                     r"(?: \(`compiled` in the compiled build\))?")
SHELL = re.compile(r"[|<>;&`$]")
"""What makes a command line one for a shell rather than for euchrelog alone."""


def help_text(command: str) -> str:
    """What ``euchrelog COMMAND`` prints on a terminal 80 columns wide."""
    result = CliRunner().invoke(main, command.split(), terminal_width=80, prog_name="euchrelog")
    return result.output


def command_table() -> str:
    """The table of commands: each with the first sentence of its help."""
    ctx = click.Context(main)
    rows = ["| command | what it does |", "|---|---|"]
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert command is not None
        short = (command.help or "").split("\n\n")[0].replace("\n", " ").split(". ")[0]
        short = short.rstrip(".")
        rows.append(f"| [`euchrelog {name}`](#euchrelog-{name}) | "
                    f"{short[:1].lower()}{short[1:]} |")
    return "\n".join(rows) + "\n"


def version_line() -> str:
    """The sentence that quotes ``euchrelog --version``."""
    shown = CliRunner().invoke(main, ["--version"], prog_name="euchrelog").output.strip()
    shown = shown.replace("(compiled)", "(pure Python)")
    return f"`euchrelog --version` prints `{shown}` (`compiled` in the compiled build)"


def _runnable(block: str) -> list[list[str]] | None:
    """The command lines of a console block (``[]`` for ``echo $?``), if every one runs on
    the repository's files alone: euchrelog (not its ``--help``), no shell, every file a
    sample."""
    commands: list[list[str]] = []
    for line in block.splitlines():
        if not line.startswith("$ "):
            continue
        if line == "$ echo $?":
            commands.append([])
            continue
        if SHELL.search(line[2:]) or not line.startswith("$ euchrelog ") or line.endswith(
                "--help"):
            return None
        args = shlex.split(line[2:])[1:]
        if not any(a.startswith("samples/") for a in args) or not all(
                (ROOT / a).exists() for a in args if a.startswith("samples/")):
            return None
        commands.append(args)
    return commands or None


@contextmanager
def _workplace() -> Iterator[Path]:
    """A folder with a copy of the samples, where the examples run (and write their
    files)."""
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(ROOT / "samples", Path(folder) / "samples")
        here = Path.cwd()
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(here)


def _run(block: str, commands: list[list[str]]) -> str:
    """The console block as the commands print it now."""
    lines = block.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith("$ ")]
    out: list[str] = []
    status = 0
    for k, args in zip(starts, commands, strict=True):
        shown = lines[k + 1:next((s for s in starts if s > k), len(lines))]
        if not args:
            printed = [str(status)]
        else:
            result = CliRunner().invoke(main, args, prog_name="euchrelog", terminal_width=80)
            status = result.exit_code
            printed = (result.stdout + result.stderr).splitlines()  # (the summary last)
        if shown.count("...") == 1:  # the lines the manual leaves out
            cut = shown.index("...")
            tail = len(shown) - cut - 1
            printed = [*printed[:cut], "...", *(printed[len(printed) - tail:] if tail else [])]
        out += [lines[k], *printed]
    return "\n".join(out) + "\n"


def rewritten(text: str) -> str:
    """docs/cli.md with the table of commands, the version, every quoted ``--help`` and
    every example on the samples as the code prints them now."""
    text = TABLE.sub(lambda m: command_table(), text, count=1)
    text = VERSION.sub(lambda m: version_line(), text)
    text = HELP_BLOCK.sub(
        lambda m: f"```console\n$ euchrelog {m.group(1)}\n{help_text(m.group(1))}```\n", text)
    with _workplace():
        def again(m: re.Match[str]) -> str:
            commands = _runnable(m.group(1))
            if commands is None:
                return m.group(0)
            return f"```console\n{_run(m.group(1), commands)}```\n"
        return CONSOLE.sub(again, text)


def main_() -> None:
    """Rewrites docs/cli.md in place."""
    CLI_MD.write_text(rewritten(CLI_MD.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main_()
