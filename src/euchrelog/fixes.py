"""``check --fix``: the corrections the replay proves, made in the text of a record.

A finding the replay can correct carries a :class:`~euchrelog.findings.Fix`: edits that
name a part of the game (a card, a seat, the points of a deal, the end line ...) by its
place. :func:`resolve` finds each part in the text, so that a fix is a plain replacement
of characters (what SARIF's ``fixes`` and ``--diff`` show), and drops a fix whose part is
not where it is placed. :func:`fix_text` corrects a whole text game by game: it applies the
fixes wanted, checks the game again, and goes on while the check offers more (a total
carried from a wrong one is wrong in its turn), up to :data:`MAX_ROUNDS`. The other lines
are kept as they are, byte for byte; each part rewritten is written in canonical form.
A game whose corrections leave a finding it did not have is left as it was: the fix was
not what the record meant, or not the only way to read it.

>>> text = '''[Variant "four-hand"]
... [Target "2"]
... deal 1 dealer N
...   trump H maker S tricks 3
...   points NS 1  total NS 1 EW 0
... deal 2 dealer E
...   trump S maker N tricks 3
...   points NS 1  total NS 3 EW 0
... result NS 3 EW 0 winner NS
... '''
>>> fixed = fix_text(text)
>>> print(fixed.text, end="")
[Variant "four-hand"]
[Target "2"]
deal 1 dealer N
  trump H maker S tricks 3
  points NS 1  total NS 1 EW 0
deal 2 dealer E
  trump S maker N tricks 3
  points NS 1  total NS 2 EW 0
result NS 2 EW 0 winner NS
>>> [f.code for f in fixed.fixed]  # (the result carried the total, then follows it)
['C902', 'G952']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .cards import parse_card
from .findings import Edit, Finding, Fix

if TYPE_CHECKING:
    from .check import GameCheck
    from .sources import Chunk

MAX_ROUNDS = 100
"""Rounds of fixes and checks a game may take (ruff's limit too)."""

_TOKEN = re.compile(r"[^\s,#]+")
"""A word of a line: a card stands alone between blanks."""
_TOTAL = re.compile(r"\btotal\b", re.IGNORECASE)
_WORDS = {"points": re.compile(r"points\b", re.IGNORECASE),
          "end": re.compile(r"(?:result|unfinished)\b", re.IGNORECASE)}


def _comment(line: str, start: int) -> int:
    """Where the comment of ``line`` starts (its ``#``) after ``start``, else its end."""
    at = line.find("#", start)
    return len(line) if at < 0 else at


def _span(edit: Edit, line: str) -> tuple[int, int] | None:
    """The columns (0-based, end excluded) of the part ``edit`` names in ``line``, found at
    its place, or ``None`` if it is not there."""
    at = edit.column - 1
    if edit.kind == "card":
        m = _TOKEN.match(line, at)
        try:
            card = parse_card(m.group()) if m is not None else None
        except ValueError:
            return None
        if m is None or str(card or "??") != edit.old:
            return None
        return m.start(), m.end()
    if edit.kind in ("seat", "number"):
        # The word at the place, or the nearest before it (a bid is placed at its act, after
        # its seat), or else the first after it (``alone N``).
        word = re.compile(rf"(?<![A-Za-z0-9?]){re.escape(edit.old)}(?![A-Za-z0-9])",
                          re.IGNORECASE)
        stop = _comment(line, at)
        found = [m for m in word.finditer(line) if m.start() < stop]
        before = [m for m in found if m.start() <= at]
        m = before[-1] if before else next((m for m in found if m.start() > at), None)
        return (m.start(), m.end()) if m else None
    if edit.kind == "name":
        m = re.compile(r"\[\s*([A-Za-z][A-Za-z0-9_]*)").match(line, at)
        return m.span(1) if m and m.group(1) == edit.old else None
    if edit.kind in _WORDS:
        if not _WORDS[edit.kind].match(line, at):
            return None
        split = _TOTAL.search(line, at) if edit.kind == "points" else None
        stop = min(_comment(line, at), split.start() if split else len(line))
        return at, len(line[:stop].rstrip())
    if edit.kind == "total":
        m = _TOTAL.search(line, at, _comment(line, at))
        if m is None:
            return None
        return m.start(), len(line[:_comment(line, m.start())].rstrip())
    return None


def resolve(finding: Finding, lines: list[str], first_line: int) -> Finding:
    """``finding`` with its fix found in ``lines``, the text of its game from line
    ``first_line`` on: each edit a replacement of characters (or a line deleted, or two
    lines exchanged); without a fix if a part is not where it is placed."""
    fix = finding.fix
    if fix is None:
        return finding

    def text(edit: Edit) -> str | None:
        k = edit.line - first_line
        return lines[k] if edit.line and 0 <= k < len(lines) else None

    edits: list[Edit] = []
    swaps = [e for e in fix.edits if e.kind == "swap"]
    for edit in fix.edits:
        line = text(edit)
        if line is None:
            return replace(finding, fix=None)
        if edit.kind == "line":
            edits.append(Edit(None, line=edit.line))
        elif edit.kind == "swap":
            other = next(e for e in swaps if e is not edit)
            moved = text(other)
            if moved is None or edit.line == other.line:
                return replace(finding, fix=None)
            edits.append(Edit(moved, line=edit.line, column=1, end=len(line) + 1))
        else:
            span = _span(edit, line)
            if span is None or edit.text is None:
                return replace(finding, fix=None)
            edits.append(Edit(edit.text, line=edit.line, column=span[0] + 1, end=span[1] + 1))
    return replace(finding, fix=replace(fix, edits=tuple(edits)))


def apply_fixes(lines: list[str], first_line: int, fixes: Iterable[Fix]
                ) -> tuple[list[str], list[Fix]]:
    """The lines with the fixes made, and the fixes made: a fix whose edits overlap one
    made before is left for the next round (the same edit twice is made once)."""
    made: list[Fix] = []
    taken: dict[int, list[Edit]] = {}

    def clashes(edit: Edit) -> bool:
        for other in taken.get(edit.line, ()):
            if edit == other:
                continue
            if edit.text is None or other.text is None or not (
                    edit.end <= other.column or other.end <= edit.column):
                return True
        return False

    for fix in fixes:
        if any(clashes(e) for e in fix.edits):
            continue
        made.append(fix)
        for edit in fix.edits:
            if edit not in taken.setdefault(edit.line, []):
                taken[edit.line].append(edit)
    out: list[str | None] = list(lines)
    for number, edits in taken.items():
        k = number - first_line
        line = lines[k]
        for edit in sorted(edits, key=lambda e: -e.column):
            if edit.text is None:
                out[k] = None
                break
            line = line[:edit.column - 1] + edit.text + line[edit.end - 1:]
            out[k] = line
    return [line for line in out if line is not None], made


@dataclass
class FixedText:
    """What :func:`fix_text` did to a text."""

    text: str
    fixed: list[Finding] = field(default_factory=list)
    """The findings corrected, as first found (a finding fixed in a later round is placed
    in the text as it then was)."""
    withheld: list[int] = field(default_factory=list)
    """The games (1-based) left as they were: their fixes would leave a finding they did not
    have, or would not settle within :data:`MAX_ROUNDS`."""


def _key(finding: Finding) -> tuple[object, ...]:
    """What a finding is about, wherever its game's lines moved."""
    return finding.code, finding.deal, finding.trick, finding.seat, finding.card


def fix_text(text: str, path: str | None = None, *, unsafe: bool = False,
             wanted: Callable[[Finding], bool] = lambda f: True) -> FixedText:
    """Corrects the games of a text of notation with the fixes of the findings ``wanted``
    (the safe ones; with ``unsafe``, the guesses too), each game checked again after each
    round of fixes; a game with a syntax error is corrected in its lines that read."""
    from .check import notation_chunks
    from .sources import Chunk

    outcome = FixedText("")
    body = text.removeprefix("\ufeff")
    pieces = body.split("\n")
    ends = [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    chunks = list(notation_chunks(ends, path))
    parts: list[str] = []
    for k, chunk in enumerate(chunks):
        # (the game's own lines, their ends as written: the reader drops a CR)
        stop = chunks[k + 1].first_line - 1 if k + 1 < len(chunks) else len(ends)
        own = Chunk(chunk.index, chunk.first_line,
                    "".join(ends[chunk.first_line - 1:stop]), path)
        game, fixed = _fix_game(own, unsafe, wanted)
        if fixed is None:
            outcome.withheld.append(chunk.index)
        else:
            outcome.fixed.extend(fixed)
        parts.append(game if fixed else own.text)
    outcome.text = text[:len(text) - len(body)] + "".join(parts)
    return outcome


def _fix_game(chunk: Chunk, unsafe: bool, wanted: Callable[[Finding], bool]
              ) -> tuple[str, list[Finding] | None]:
    """One game's text corrected, and the findings fixed (``None``: the corrections are
    withheld, and the text is the game's own)."""
    from .replay.readings import proving_fixes

    with proving_fixes():  # (the one card a deal must have held: its fix proved too)
        return _fix_rounds(chunk, unsafe, wanted)


def _fix_rounds(chunk: Chunk, unsafe: bool, wanted: Callable[[Finding], bool]
                ) -> tuple[str, list[Finding] | None]:
    """:func:`_fix_game`'s rounds of fixes and checks."""
    from .check import check_chunk
    from .sources import Chunk

    def fixes(result: GameCheck) -> list[Finding]:
        return [f for f in result.findings + result.unused
                if f.fix is not None and (f.fix.safe or unsafe) and wanted(f)]

    before = check_chunk(chunk)
    found = fixes(before)
    if not found:
        return chunk.text, []
    lines = chunk.text.split("\n")
    fixed: list[Finding] = []
    for _ in range(MAX_ROUNDS):
        was = lines
        lines, made = apply_fixes(lines, chunk.first_line,
                                  (f.fix for f in found if f.fix is not None))
        if lines == was:  # (fixes that change nothing: they would come back every round)
            return chunk.text, None
        fixed += [f for f in found if f.fix in made]
        result = check_chunk(Chunk(chunk.index, chunk.first_line, "\n".join(lines), chunk.path))
        found = fixes(result)
        if not found:
            break
    else:
        return chunk.text, None
    left = Counter(_key(f) for f in result.findings if f.is_fault)
    had = Counter(_key(f) for f in before.findings)
    if left - had:
        return chunk.text, None
    return "\n".join(lines), fixed
