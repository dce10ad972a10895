"""The CLI's report: counts what happened and owns the exit code."""

from __future__ import annotations

from dataclasses import dataclass

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_SYNTAX = 2
"""Also Click's exit code for a usage error."""


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

    @property
    def return_code(self) -> int:
        """0 when clean or only notes were found, 1 when a fault was found, 2 on a syntax
        error."""
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
