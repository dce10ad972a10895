"""Recovery from syntax errors (RULES.md P4): a game with unreadable lines is checked
without them, each unreadable line one S101 finding, and the findings that only follow
from a skipped line are left out. The checker (:mod:`euchrelog.check`) calls
:func:`recover` with its own way of reading a game's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .check import GameCheck
from .errors import NotationError
from .findings import Finding
from .notation import parse_game
from .sources import Chunk

MAX_SKIPS = 20
"""Unreadable lines skipped in one game before it is given up as unreadable."""

_DEAL_LINE = re.compile(r"\s*\S+\s+(\d{1,9})\b")
_OWN_NUMBER = re.compile(r"\s*deal\s+(\d{1,9})\s+dealer\s", re.IGNORECASE)
_END_LINE = re.compile(r"\s*(result|unfinished)\b", re.IGNORECASE)
_START_DEAL = re.compile(r"\s*start\s+deal\s+(\d{1,9})\b", re.IGNORECASE)
"""(A deal number of more than nine digits is no number to count from: ``int`` refuses
very long ones.)"""


def _is_deal_line(line: str) -> bool:
    return line.lstrip().lower().startswith("deal")


def _deal_block(lines: list[str], i: int) -> tuple[int, int, int | None]:
    """The lines (0-based, inclusive) of the deal that line ``i`` belongs to, and its
    number: from a line that starts with ``deal`` or follows a blank line, to the line
    before the next deal, blank line or end line. ``(i, i, None)`` for a line of the header
    or the end line."""
    start = i
    while start > 0 and lines[start - 1].strip() and not _is_deal_line(lines[start]):
        start -= 1
    if lines[start].lstrip().startswith("[") or _END_LINE.match(lines[i]):
        return i, i, None
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if not any(_is_deal_line(line) for line in lines[:i + 1]) and (
            not following.strip() or _is_deal_line(following)):
        return i, i, None  # a line of the header, such as the start line
    end = i
    while (end + 1 < len(lines) and lines[end + 1].strip() and not _is_deal_line(lines[end + 1])
           and not _END_LINE.match(lines[end + 1])):
        end += 1
    if not any(line.strip() and not line.lstrip().startswith("#") for line in lines[i + 1:]):
        return i, i, None  # the last line of the game: the end line, misspelt
    own = _OWN_NUMBER.match(lines[start])
    if own:
        return start, end, int(own.group(1))
    numbers = [int(m.group(1)) for line in lines[:start] if _is_deal_line(line)
               and (m := _DEAL_LINE.match(line))]
    if numbers:
        return start, end, numbers[-1] + 1
    first = [int(m.group(1)) for line in lines[:start] if (m := _START_DEAL.match(line))]
    if first:
        return start, end, first[-1]  # the first deal of a game recorded from the middle
    match = _DEAL_LINE.match(lines[start])
    return start, end, int(match.group(1)) if match else 1


def recover(chunk: Chunk, first: NotationError,
            check: Callable[[str], GameCheck | None]) -> GameCheck:
    """Checks a game with unreadable lines (RULES.md P4): each unreadable line is one S101
    finding and is skipped, however many a deal has, and the rest of the game is checked
    (an unreadable deal line skips its deal, whose other unreadable lines are each one S101
    too). The findings that only follow from a
    skipped line are left out: those of its deal after it, and those a missing line makes
    anywhere in its deal (no trump, a short deal, unknown points); after a skipped deal or
    header line, the dealer and numbering of the next deal, the running totals and the
    result (and so after any skipped line of a deal under ``pass-out=same-dealer``, where
    whether the deal was thrown in decides them, H4); after skipped lines that leave a
    deal's points unknown, the running totals and the result; after a skipped end line,
    the game's end. ``check`` reads and checks a text of the game (the checker's own
    policy, :func:`euchrelog.check.check_chunk`): it raises :class:`NotationError` at an
    unreadable line, and gives ``None`` for a text of comments only."""
    lines = chunk.text.split("\n")
    skips: list[tuple[int, int, NotationError]] = []
    err = first
    result: GameCheck | None = None
    for _ in range(MAX_SKIPS):
        i = err.line - chunk.first_line
        if not 0 <= i < len(lines) or any(a <= i <= b for a, b, _ in skips):
            break
        start, end, number = _deal_block(lines, i)
        head = next(k for k in range(start, end + 1)
                    if k == end or not lines[k].lstrip().startswith("#"))
        if i == head and number is not None and end > start:
            skips.append((start, end, err))  # the deal line itself: the deal
        else:
            skips.append((i, i, err))  # one line, however many a deal has
        text = "\n".join("#" if any(a <= k <= b for a, b, _ in skips) else line
                         for k, line in enumerate(lines))
        try:
            result = check(text)  # (as the game is read when it reads whole)
            break
        except NotationError as again:
            err = again
    if result is None:
        finding = Finding("S101", f"{first.message}; {_span(chunk)} not checked", first.line,
                          first.column, path=chunk.path, game=chunk.index)
        return GameCheck(chunk.index, chunk.first_line, [finding], None, first.context,
                         syntax_error=True)
    found: list[Finding] = []
    kept = result.findings
    tries = MAX_SKIPS  # readings of the game to find the typos of deals skipped whole
    for a, b, err in skips:
        start, end, number = _deal_block(lines, a)
        whole = (a, b) == (start, end) and number is not None and (a != b or a == start)
        here = (f"deal {number} (lines {chunk.first_line + a}-{chunk.first_line + b}) is "
                "skipped" if whole else f"line {err.line} is skipped")
        found.append(Finding("S101", f"{err.message}; {here}, the rest is checked", err.line,
                             err.column, path=chunk.path, game=chunk.index))
        if whole and a != b and tries > 0:
            inners, used = _unreadable_within(chunk, lines, skips, a, b, tries)
            tries -= used
            found.extend(Finding("S101", f"{inner.message}; line {inner.line} is skipped with "
                                         f"deal {number}", inner.line, inner.column,
                                 path=chunk.path, game=chunk.index) for inner in inners)
        if number is None and any(_is_deal_line(line) for line in lines[:a]):
            kept = [f for f in kept if f.kind.tally != "end"]  # the end line
        elif number is None:  # a header line: the game's start and length are unsure
            kept = [f for f in kept if not f.kind.tally and not (
                f.kind.sequence and f.deal == min(
                    (g.deal for g in kept if g.deal is not None), default=None))]
        elif whole:
            kept = [f for f in kept if f.deal != number and not f.kind.tally
                    and not (f.kind.sequence and f.deal == (number or 0) + 1)]
        elif number is not None:
            # Under pass-out=same-dealer whether the deal was thrown in, and so who deals
            # next and whether it counts among deals=N, may rest on the line (H4).
            redeal = result.report is not None and (
                result.report.ruleset.options.pass_out == "same-dealer")
            # When the skipped lines leave the deal's points unknown (C905: the points line
            # and a line they are recomputed from), so are the totals after it.
            unknown = any(f.kind.sheet == "unknown" and f.deal == number for f in result.findings)
            kept = [f for f in kept if (f.deal != number
                    or (f.line < err.line and not f.kind.gap))
                    and not ((redeal or unknown) and f.kind.tally)
                    and not (redeal and f.kind.sequence == "dealer" and f.deal == number + 1)]
    result.findings = sorted(found + kept, key=lambda f: (f.line, f.column))
    result.context = first.context
    result.syntax_error = True
    return result


def _unreadable_within(chunk: Chunk, lines: list[str],
                       skips: list[tuple[int, int, NotationError]], a: int, b: int,
                       tries: int) -> tuple[list[NotationError], int]:
    """The unreadable lines of the deal on lines ``a``-``b`` (0-based), skipped whole for
    its deal line, after that line: the game read again with a deal line of each seat in
    turn standing in for its own (the other skips kept), each line found unreadable skipped
    in its turn, so that every typo of the deal is reported (RULES.md P4). At most
    ``tries`` readings; returns the errors and the readings made."""
    head = next((k for k in range(a, b + 1) if not lines[k].lstrip().startswith("#")), None)
    if head is None:  # a skip of comment lines only: no deal line to stand in for
        return [], 0
    others = [(x, y) for x, y, _ in skips if (x, y) != (a, b)]
    found: list[NotationError] = []
    masked: set[int] = set()
    seats = iter("NESW")
    dealer = next(seats)
    used = 0
    while used < tries:
        used += 1
        text = "\n".join(
            f"deal 1 dealer {dealer}" if k == head
            else "#" if k in masked or any(x <= k <= y for x, y in others) else line
            for k, line in enumerate(lines))
        try:
            parse_game(text, chunk.first_line)
            break
        except NotationError as err:
            i = err.line - chunk.first_line
            if i == head:  # the stand-in's seat is not one of the game's: try the next
                dealer = next(seats, "")
                if not dealer:
                    break
                continue
            if not head < i <= b or i in masked:
                break  # (an error outside the deal: the deal's own lines all read)
            masked.add(i)
            found.append(err)
    return found, used


def _span(chunk: Chunk) -> str:
    """The lines of a chunk's game, from its first line that is not blank to its last."""
    lines = chunk.text.split("\n")
    filled = [k for k, line in enumerate(lines) if line.strip()]
    first = chunk.first_line + (filled[0] if filled else 0)
    last = chunk.first_line + (filled[-1] if filled else 0)
    where = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"the game on {where} is"
