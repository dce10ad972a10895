"""Checking sources in bulk: every game of a text is parsed and replayed, and every
finding is collected with its file, line and column.

>>> results = list(check_text('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\n'))
>>> [f.code for f in results[0].findings]
['G951']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from .errors import NotationError, RecordError
from .fast import check_form, check_notation, verify_json
from .findings import CODES, Edit, Finding, Fix, nearest_code, noqa_of
from .notation import (
    GameForm,
    ParsedGame,
    SourceMap,
    parse_game,
    read_game,
    split_games,
    validate_form,
)
from .replay import GameReport, replay
from .sources import Chunk, json_chunks, text_source

if TYPE_CHECKING:
    from .models import Game


@dataclass
class GameCheck:
    """The outcome of checking one game."""

    index: int
    """1-based number of the game in its source."""
    first_line: int
    findings: list[Finding] = field(default_factory=list)
    report: GameReport | None = None
    """The replay report; ``None`` when the game could not be read."""
    context: str = ""
    """For a syntax error: the offending line with a caret."""
    deals: int = 0
    syntax_error: bool = False
    """Whether the game could not be read at all."""
    comments_only: bool = False
    """Whether the text held no game, only comments."""
    unused: list[Finding] = field(default_factory=list)
    """The ``# noqa`` comments that leave out no finding (N102), reported on request."""


def _with(finding: Finding, path: str | None, index: int) -> Finding:
    return replace(finding, path=path, game=index)


def check_game(game: Game, index: int = 1, path: str | None = None, line: int = 0,
               source: SourceMap | None = None, *,
               trace: bool | Literal["acts"] = False) -> GameCheck:
    """Replays one game and returns its findings, placed at ``line`` when there is no source
    map (a game read from JSON); ``trace`` keeps each deal as the replay took it, for what
    rides that one replay (:attr:`~euchrelog.replay.DealResult.trace`)."""
    return _checked(replay(game, source, trace=trace), index, path, line, len(game.deals))


def _checked(report: GameReport, index: int, path: str | None, line: int,
             deals: int) -> GameCheck:
    """The check of a game of ``deals`` deals from its replay report."""
    findings = []
    for f in report.findings:
        if f.line == 0 and line:
            f = replace(f, line=line, column=1)
        findings.append(_with(f, path, index))
    findings.sort(key=lambda f: (f.line, f.column))
    return GameCheck(index, line, findings, report, deals=deals)


def notation_chunks(lines: Iterable[str], path: str | None = None) -> Iterator[Chunk]:
    """Splits notation into games as it reads, without holding the file."""
    for index, (first, text) in enumerate(split_games(lines), 1):
        yield Chunk(index, first, text, path)


def check_chunk(chunk: Chunk, *, keep_report: bool = True, fast: bool = True) -> GameCheck:
    """Parses and replays one chunk; ``keep_report=False`` drops the replay report (for
    results sent back from another process).

    A game of notation is replayed from its JSON form (:func:`~euchrelog.fast.check_form`:
    the one game loop, each deal through the engine's bulk entry, and a deal with a
    finding, or one the bulk entry does not take, through the full replay of its model), a
    clean game of JSON Lines by the fast path; any other game, or every game with
    ``fast=False``, is validated into models and replayed with its source map.
    """
    if chunk.done is not None:
        return chunk.done
    if chunk.game is not None:
        result = check_game(chunk.game, chunk.index, chunk.path, chunk.first_line)
    elif chunk.converted is not None:
        result = check_converted_chunk(chunk)
    elif fast and chunk.json and (quick := verify_json(chunk.text)) is not None:
        return _clean(chunk, quick, keep_report)
    elif chunk.json:
        result = _check_json_line(chunk)
    else:
        result = _check_notation(chunk, fast)
        if any(f.fix is not None for f in result.findings):
            from .fixes import resolve  # (a finding with a fix)

            lines = chunk.text.split("\n")
            result.findings = [resolve(f, lines, chunk.first_line) for f in result.findings]
        if "noqa" in chunk.text.lower():
            apply_noqa(result, chunk)
    if not keep_report:
        result.report = None
    return result


def _check_json_line(chunk: Chunk) -> GameCheck:
    """Reads and replays one game of JSON Lines."""
    from .notation.jsonio import parse_game_json  # (the models: a game the fast path declines)

    try:
        game = parse_game_json(chunk.text)
    except RecordError as exc:
        finding = Finding("S102", str(exc), chunk.first_line + max(exc.line, 1) - 1,
                          exc.column or 1, path=chunk.path, game=chunk.index)
        return GameCheck(chunk.index, chunk.first_line, [finding], syntax_error=True)
    return check_game(game, chunk.index, chunk.path, chunk.first_line)


def check_converted_chunk(chunk: Chunk) -> GameCheck:
    """Replays a game converted from elsewhere, its findings placed in the input (a JSON
    path, or ``line:action``)."""
    from .interop import check_converted

    assert chunk.converted is not None
    report, placed = check_converted(chunk.converted)
    findings = [replace(p.finding, path=chunk.path, game=chunk.index, line=0, column=0,
                        where=p.where) for p in placed]
    return GameCheck(chunk.index, 0, findings, report, deals=len(chunk.converted.game.deals))


def _check_notation(chunk: Chunk, fast: bool) -> GameCheck:
    """Reads and replays one game of notation (see :func:`check_chunk`)."""
    try:
        read = _read(chunk.text, chunk, fast)
    except NotationError as err:
        return _recover(chunk, err, fast)
    if read is None:
        return GameCheck(chunk.index, chunk.first_line, comments_only=True)
    return _replayed(read, chunk)


def _read(text: str, chunk: Chunk, fast: bool) -> GameCheck | ParsedGame | None:
    """Reads ``text``, the text of ``chunk``'s game (or that text with unreadable lines
    skipped): its check when the fast path replayed it (the parts read straight from the
    text, or else the JSON form), else its models and source map for the full replay;
    ``None`` for a text of comments only.

    :raises NotationError: at a syntax error, or a game the models refuse.
    """
    if fast:
        done = check_notation(text, chunk.first_line)
        if done is not None:
            return _checked(done[0], chunk.index, chunk.path, chunk.first_line, done[1])
    read = read_game(text, chunk.first_line)
    if not isinstance(read, GameForm):
        return None
    report = check_form(read) if fast else None
    if report is not None:
        return _checked(report, chunk.index, chunk.path, chunk.first_line,
                        len(read.form.get("deals", ())))
    return ParsedGame(validate_form(read.form, chunk.first_line), read.source)


def _replayed(read: GameCheck | ParsedGame, chunk: Chunk) -> GameCheck:
    """The check of a game :func:`_read` read: replayed in full where it gave the models."""
    if isinstance(read, GameCheck):
        return read
    return check_game(read.game, chunk.index, chunk.path, chunk.first_line, read.source)


def _clean(chunk: Chunk, report: GameReport, keep_report: bool) -> GameCheck:
    """The check of a game the fast path proved clean."""
    return GameCheck(chunk.index, chunk.first_line, report=report if keep_report else None,
                     deals=len(report.deals))


def apply_noqa(result: GameCheck, chunk: Chunk) -> None:
    """Leaves out of ``result`` the findings a ``# noqa`` comment on their line suppresses;
    reports each code a comment names that is no code (N101), and keeps aside each comment,
    or code of one, that suppresses nothing (N102, :attr:`GameCheck.unused`). A comment on
    a line skipped for a syntax error is not judged."""
    first = chunk.first_line
    lines = chunk.text.split("\n")
    comments = {first + k: noqa for k, line in enumerate(lines)
                if (noqa := noqa_of(line)) is not None}
    used: dict[int, set[str]] = {}
    kept = []
    for f in result.findings:
        noqa = comments.get(f.line)
        if noqa is not None and noqa.names(f.code) and not f.kind.syntax:
            used.setdefault(f.line, set()).add(f.code)
        else:
            kept.append(f)
    skipped = {f.line for f in result.findings if f.kind.syntax}
    found: list[Finding] = []
    for line, noqa in comments.items():
        text = lines[line - first]
        unknown = [(c, a, b) for c, a, b in noqa.codes or () if c not in CODES]
        for code, a, b in unknown:
            meant = nearest_code(code)
            fix = None if meant is None else Fix(
                (Edit(meant, line=line, column=a, end=b),), f"write {meant} for {code}",
                safe=False)
            found.append(Finding("N101", f"{code} in this '# noqa' comment is no finding code, "
                                         "so it leaves nothing out"
                                 + (f"; did you mean {meant}?" if meant else ""),
                                 line, a, path=chunk.path, game=chunk.index, fix=fix))
        if line in skipped:
            continue
        names = used.get(line, set())
        if noqa.codes is None:
            idle = [] if names else [("", noqa.column, noqa.end)]
        else:
            idle = [(c, a, b) for c, a, b in noqa.codes if c in CODES and c not in names]
        if not idle:
            continue
        idle_codes = [c for c, _, _ in idle]
        if noqa.codes is None or len(idle) == len(noqa.codes):
            rest = text[noqa.end - 1:].strip()
            if rest:  # the comment's own words stay
                edit = Edit(f"# {rest}", line=line, column=noqa.column,
                            end=len(text.rstrip()) + 1)
            else:  # the comment goes, with the spaces before it
                edit = Edit("", line=line, column=len(text[:noqa.column - 1].rstrip()) + 1,
                            end=noqa.end)
            what = ("'# noqa'" if noqa.codes is None
                    else f"'# noqa: {', '.join(idle_codes)}'")
        else:
            codes = [c for c, _, _ in noqa.codes if c not in idle_codes]
            edit = Edit(", ".join(codes), line=line, column=noqa.codes[0][1],
                        end=noqa.codes[-1][2])
            what = f"{', '.join(idle_codes)} in '# noqa'"
        result.unused.append(Finding(
            "N102", f"{what} leaves out no finding on this line", line,
            idle[0][1], path=chunk.path, game=chunk.index,
            fix=Fix((edit,), f"remove {what}")))
    result.findings = sorted(kept + found, key=lambda f: (f.line, f.column))


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


def _recover(chunk: Chunk, first: NotationError, fast: bool) -> GameCheck:
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
    the game's end."""
    lines = chunk.text.split("\n")
    skips: list[tuple[int, int, NotationError]] = []
    err = first
    read: GameCheck | ParsedGame | None = None
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
            read = _read(text, chunk, fast)  # (as the game is read when it reads whole)
            break
        except NotationError as again:
            err = again
    if read is None:
        finding = Finding("S101", f"{first.message}; {_span(chunk)} not checked", first.line,
                          first.column, path=chunk.path, game=chunk.index)
        return GameCheck(chunk.index, chunk.first_line, [finding], None, first.context,
                         syntax_error=True)
    result = _replayed(read, chunk)
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


def check_lines(lines: Iterable[str], path: str | None = None) -> Iterator[GameCheck]:
    """Checks notation game by game, going on after a syntax error."""
    for chunk in notation_chunks(lines, path):
        result = check_chunk(chunk)
        if not result.comments_only:
            yield result


def check_json_lines(lines: Iterable[str], path: str | None = None) -> Iterator[GameCheck]:
    """Checks JSON Lines, or one JSON document, game by game."""
    for chunk in json_chunks(list(lines), path):
        yield check_chunk(chunk)


def check_text(text: str, path: str | None = None) -> Iterator[GameCheck]:
    """Checks a whole text, in any form a source can be (:func:`~euchrelog.sources.text_source`
    tells which), game by game."""
    for chunk in text_source(text, path).chunks():
        result = check_chunk(chunk)
        if not result.comments_only:
            yield result
