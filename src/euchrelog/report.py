"""The CLI's report: counts what a command did, and owns its exit status and summary line."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_SYNTAX = 2
"""Also Click's exit code for a usage error."""
EXIT_FILE = 2
"""A file that cannot be read or written (as for a usage error)."""
EXIT_INTERRUPTED = 130
"""Stopped by Ctrl-C (SIGINT), as a shell reports it: 128 + the signal's number."""


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass
class Report:
    """Counts over one command run: they make the command's exit status
    (:attr:`return_code`) and its summary line on stderr (:meth:`summary`, worded for
    :attr:`command`).

    >>> report = Report("score", files=2, games=3, deals=12, events=1)
    >>> report.return_code, report.summary()
    (0, 'scored 1 event from 2 files: 3 games, 12 deals: all clean')
    """

    command: str = "check"
    """The command whose summary it is: one of :data:`SUMMARIES`."""
    files: int = 0
    games: int = 0
    deals: int = 0
    findings: int = 0
    notes: int = 0
    """Findings of severity note, which do not set the exit status."""
    syntax_errors: int = 0
    """Sources or games that could not be read (exit status 2)."""
    files_with_findings: int = 0
    changed: int = 0
    """Files that ``fmt --check`` would change."""
    interrupted: bool = False
    """Stopped by Ctrl-C before the end: the counts are of what was checked."""
    exit_zero: bool = False
    """Faults leave the exit status 0 (``check --exit-zero``); a syntax error still sets 2."""
    events: int = 0
    """Events scored (``score``)."""
    provisional: list[str] = field(default_factory=list)
    """The titles of the events whose standings still have errors (``score``)."""
    reviewed: int = 0
    """Deals reviewed (``analyze``)."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Deals not reviewed, by reason (``analyze``)."""
    read: int = 0
    """Games read, before the filters (``stats``)."""
    left_out: int = 0
    """Games read but left out by the filters (``stats``)."""
    faulty_games: int = 0
    """Games with a fault, counted without their findings (``stats``)."""
    written_to: str = ""
    """Where the output went (``view``)."""
    empty: list[str] = field(default_factory=list)
    """The sources read that hold no game (``check``, ``score``)."""

    @property
    def return_code(self) -> int:
        """0 when clean or only notes were found, 1 when a fault was found (unless
        :attr:`exit_zero`) or a file is not canonical, 2 on a syntax error, 130 when
        interrupted."""
        if self.interrupted:
            return EXIT_INTERRUPTED
        if self.syntax_errors:
            return EXIT_SYNTAX
        faults = self.findings > self.notes or self.faulty_games
        if (faults and not self.exit_zero) or self.changed:
            return EXIT_FINDINGS
        return EXIT_CLEAN

    def summary(self) -> str:
        """One line for stderr."""
        return SUMMARIES[self.command](self)


def _no_game(r: Report) -> str:
    """Which sources hold no game: ``empty.euchre holds no game``."""
    names = r.empty[:3] + ([f"{len(r.empty) - 3} more"] if len(r.empty) > 3 else [])
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{listed} hold{'s' if len(r.empty) == 1 else ''} no game"


def _checked(r: Report) -> str:
    head = f"checked {_n(r.files, 'file')}, {_n(r.games, 'game')}, {_n(r.deals, 'deal')}"
    if r.interrupted:
        return (f"interrupted: {head} before the end, {_n(r.findings, 'finding')} so far; "
                "the rest was not checked")
    if r.empty and not r.games and not r.findings:
        return f"{head}: {_no_game(r)}"
    if r.empty:
        head = f"{head} ({_no_game(r)})"
    if not r.findings:
        return f"{head}: all clean"
    files = _n(r.files_with_findings, 'file')
    if r.notes == r.findings:
        return f"{head}: no faults ({_n(r.notes, 'note')} in {files})"
    tail = f"{_n(r.findings, 'finding')} in {files}"
    if r.notes:
        tail += f" ({_n(r.notes, 'note')})"
    if r.syntax_errors:
        tail += f" ({_n(r.syntax_errors, 'syntax error')})"
    return f"{head}: {tail}"


def _formatted(r: Report) -> str:
    good = r.files - r.changed - r.syntax_errors
    state = "all canonical" if good == r.files else ", ".join(
        f"{n} {what}" for n, what in ((good, "canonical"), (r.changed, "not canonical"),
                                      (r.syntax_errors, "unreadable")) if n)
    return f"{_n(r.files, 'file')}: {state}"


def _scored(r: Report) -> str:
    head = (f"scored {_n(r.events, 'event')} from {_n(r.files, 'file')}: "
            f"{_n(r.games, 'game')}, {_n(r.deals, 'deal')}")
    if r.empty and not r.games and not r.findings:
        return f"{head}: {_no_game(r)}"
    if r.empty:
        head = f"{head} ({_no_game(r)})"
    if not r.findings:
        return f"{head}: all clean"
    tail = f"{_n(r.findings, 'finding')} in {_n(r.files_with_findings, 'file')}"
    if r.provisional:
        tail += "; provisional standings for " + ", ".join(r.provisional)
    return f"{head}: {tail}"


def _analyzed(r: Report) -> str:
    text = (f"analyzed {_n(r.files, 'file')}, {_n(r.games, 'game')}: "
            f"{_n(r.reviewed, 'deal')} reviewed")
    skipped = sum(r.skipped.values())
    if skipped:
        why = ", ".join(f"{count} {kind}" for kind, count in sorted(r.skipped.items()))
        text += f", {skipped} not reviewed ({why})"
    return text


def _counted(r: Report) -> str:
    out = f"counted {_n(r.games, 'game')}, {_n(r.deals, 'deal')} from {_n(r.files, 'file')}"
    if r.left_out:
        out += (f"; {r.left_out} of the {_n(r.read, 'game')} read left out by the filters or "
                "an unknown variant")
    if r.faulty_games:
        out += f"; {_n(r.faulty_games, 'game')} with findings (euchrelog check lists them)"
    if r.syntax_errors:
        out += f"; {_n(r.syntax_errors, 'game')} not read (see above)"
    if r.interrupted:
        out = f"interrupted: {out}; the statistics are of these games, the rest was not read"
    return out


def _wrote(r: Report) -> str:
    faults = r.findings - r.notes
    return (f"wrote {r.written_to}: {_n(r.games, 'game')}, {_n(r.deals, 'deal')}, "
            f"{_n(faults, 'finding')}" + (f" and {_n(r.notes, 'note')}" if r.notes else ""))


SUMMARIES: dict[str, Callable[[Report], str]] = {
    "check": _checked, "fmt": _formatted, "score": _scored, "analyze": _analyzed,
    "stats": _counted, "view": _wrote}
"""The summary line of each command that has one, from its report."""


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                     "\u2028\u2029]")
"""Characters that a terminal obeys rather than shows: controls (escape sequences, CR,
BEL, backspace), the marks that reorder text (bidirectional overrides) and the line
separators that are not line feeds. Pages show them as :func:`visible` does
(:mod:`euchrelog.present`)."""


def visible(text: str) -> str:
    r"""Text for a terminal, its control characters written as escapes (``\x1b``,
    ``\r``, ``\u202e``), so that what a record holds can only be read, never obeyed.

    >>> print(visible("Ann\x1b[2J\r"))
    Ann\x1b[2J\r
    """
    return CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def visible_context(context: str) -> str:
    """A caret display (a source line, then a caret under one of its characters) made
    :func:`visible`, the caret kept under the same character."""
    lines = context.split("\n")
    if len(lines) == 2 and lines[1].strip() == "^":
        source, column = lines[0], len(lines[1]) - 1
        return f"{visible(source)}\n{' ' * len(visible(source[:column]))}^"
    return visible(context)
