"""The CLI's report: counts what happened and owns the exit code."""

from __future__ import annotations

import re
from dataclasses import dataclass

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_SYNTAX = 2
"""Also Click's exit code for a usage error."""
EXIT_FILE = 2
"""A file that cannot be read or written (as for a usage error)."""
EXIT_INTERRUPTED = 130
"""Stopped by Ctrl-C (SIGINT), as a shell reports it: 128 + the signal's number."""


@dataclass
class Report:
    """Counts of files, games and findings over one command run."""

    files: int = 0
    games: int = 0
    deals: int = 0
    findings: int = 0
    notes: int = 0
    """Findings of severity note, which do not set the exit status."""
    syntax_errors: int = 0
    files_with_findings: int = 0
    changed: int = 0
    """Files that ``fmt --check`` would change."""
    interrupted: bool = False
    """Stopped by Ctrl-C before the end: the counts are of what was checked."""

    @property
    def return_code(self) -> int:
        """0 when clean or only notes were found, 1 when a fault was found, 2 on a syntax
        error."""
        if self.interrupted:
            return EXIT_INTERRUPTED
        if self.syntax_errors:
            return EXIT_SYNTAX
        if self.findings > self.notes or self.changed:
            return EXIT_FINDINGS
        return EXIT_CLEAN

    def summary(self) -> str:
        """One line for stderr."""
        def n(count: int, word: str) -> str:
            return f"{count} {word}{'' if count == 1 else 's'}"

        head = f"checked {n(self.files, 'file')}, {n(self.games, 'game')}, {n(self.deals, 'deal')}"
        if self.interrupted:
            return (f"interrupted: {head} before the end, {n(self.findings, 'finding')} so far; "
                    "the rest was not checked")
        if not self.findings:
            return f"{head}: all clean"
        files = n(self.files_with_findings, 'file')
        if self.notes == self.findings:
            return f"{head}: no faults ({n(self.notes, 'note')} in {files})"
        tail = f"{n(self.findings, 'finding')} in {files}"
        if self.notes:
            tail += f" ({n(self.notes, 'note')})"
        if self.syntax_errors:
            tail += f" ({n(self.syntax_errors, 'syntax error')})"
        return f"{head}: {tail}"


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                      "\u2028\u2029]")
"""Characters that a terminal obeys rather than shows: controls (escape sequences, CR,
BEL, backspace), the marks that reorder text (bidirectional overrides) and the line
separators that are not line feeds."""


def visible(text: str) -> str:
    r"""Text for a terminal, its control characters written as escapes (``\x1b``,
    ``\r``, ``\u202e``), so that what a record holds can only be read, never obeyed.

    >>> print(visible("Ann\x1b[2J\r"))
    Ann\x1b[2J\r
    """
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def visible_context(context: str) -> str:
    """A caret display (a source line, then a caret under one of its characters) made
    :func:`visible`, the caret kept under the same character."""
    lines = context.split("\n")
    if len(lines) == 2 and lines[1].strip() == "^":
        source, column = lines[0], len(lines[1]) - 1
        return f"{visible(source)}\n{' ' * len(visible(source[:column]))}^"
    return visible(context)
