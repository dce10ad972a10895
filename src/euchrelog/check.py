"""Checking sources in bulk: every game of a text is parsed and replayed, and every
finding is collected with its file, line and column.

>>> results = list(check_text('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\n'))
>>> [f.code for f in results[0].findings]
['G951']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from .errors import NotationError, RecordError
from .fast import verify_json, verify_notation
from .findings import Finding, is_suppressed
from .jsonio import is_document, is_json, json_value, loads_json, parse_game_json
from .models import Game
from .notation import ParsedGame, SourceMap, parse_game, split_games, text_lines
from .replay import GameReport, replay


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


def _with(finding: Finding, path: str | None, index: int) -> Finding:
    return replace(finding, path=path, game=index)


def check_game(game: Game, index: int = 1, path: str | None = None, line: int = 0,
               source: SourceMap | None = None) -> GameCheck:
    """Replays one game and returns its findings, placed at ``line`` when there is no source
    map (a game read from JSON)."""
    report = replay(game, source)
    findings = []
    for f in report.findings:
        if f.line == 0 and line:
            f = replace(f, line=line, column=1)
        findings.append(_with(f, path, index))
    findings.sort(key=lambda f: (f.line, f.column))
    return GameCheck(index, line, findings, report, deals=len(game.deals))


@dataclass(frozen=True)
class Chunk:
    """One game's text, to be checked on its own (in this process or another)."""

    index: int
    first_line: int
    text: str
    path: str | None
    json: bool = False
    """Whether the text is one line of JSON Lines rather than notation."""
    done: GameCheck | None = None
    """A result already known (a game of a JSON document, checked as the document was)."""


def notation_chunks(lines: Iterable[str], path: str | None = None) -> Iterator[Chunk]:
    """Splits notation into games as it reads, without holding the file."""
    for index, (first, text) in enumerate(split_games(lines), 1):
        yield Chunk(index, first, text, path)


def json_line_chunks(lines: Iterable[str], path: str | None = None) -> Iterator[Chunk]:
    """One chunk per non-blank line of JSON Lines."""
    index = 0
    for number, line in enumerate(lines, 1):
        if line.strip():
            index += 1
            yield Chunk(index, number, line, path, json=True)


def check_chunk(chunk: Chunk, *, keep_report: bool = True, fast: bool = True) -> GameCheck:
    """Parses and replays one chunk; ``keep_report=False`` drops the replay report (for
    results sent back from another process).

    A clean canonical game is proved clean by the fast path (:mod:`euchrelog.fast`);
    every other game, or all with ``fast=False``, is read and replayed in full.
    """
    if fast:
        quick = verify_json(chunk.text) if chunk.json else verify_notation(chunk.text)
        if quick is not None:
            return GameCheck(chunk.index, chunk.first_line, report=quick if keep_report else None,
                             deals=len(quick.deals))
    if chunk.json:
        try:
            game = parse_game_json(chunk.text, f"line {chunk.first_line}")
        except RecordError as exc:
            finding = Finding("S102", str(exc), chunk.first_line, 1, path=chunk.path,
                              game=chunk.index)
            return GameCheck(chunk.index, chunk.first_line, [finding], syntax_error=True)
        result = check_game(game, chunk.index, chunk.path, chunk.first_line)
    else:
        try:
            parsed = parse_game(chunk.text, chunk.first_line)
        except NotationError as err:
            finding = Finding("S101", f"{err.message}; {_span(chunk)} not checked", err.line,
                              err.column, path=chunk.path, game=chunk.index)
            return GameCheck(chunk.index, chunk.first_line, [finding], None, err.context,
                             syntax_error=True)
        if not isinstance(parsed, ParsedGame):  # only comments
            return GameCheck(chunk.index, chunk.first_line)
        result = check_game(parsed.game, chunk.index, chunk.path, chunk.first_line,
                            parsed.source)
        if "noqa" in chunk.text.lower():
            result.findings = _unsuppressed(result.findings, chunk)
    if not keep_report:
        result.report = None
    return result


def _unsuppressed(findings: list[Finding], chunk: Chunk) -> list[Finding]:
    """The findings that no ``# noqa`` comment on their line suppresses."""
    lines = chunk.text.split("\n")

    def text(line: int) -> str:
        k = line - chunk.first_line
        return lines[k] if 0 <= k < len(lines) else ""

    return [f for f in findings if not is_suppressed(f.code, text(f.line))]


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
        if result.report is not None or result.syntax_error:
            yield result


def check_json_lines(lines: Iterable[str], path: str | None = None) -> Iterator[GameCheck]:
    """Checks JSON Lines, or one JSON document, game by game."""
    buffered = list(lines)
    text = "".join(buffered)
    try:
        data = json_value(text)
    except RecordError as err:
        yield GameCheck(1, 1, [Finding("S102", str(err), 1, 1, path=path, game=1)],
                        syntax_error=True)
        return
    except json.JSONDecodeError as exc:
        data = None
        try:
            json_value(buffered[0] if buffered else "")
        except (json.JSONDecodeError, RecordError):
            # Not JSON Lines either: one broken document.
            cut = " (is the file cut short?)" if exc.pos >= len(text.rstrip()) else ""
            yield GameCheck(1, 1, [Finding("S102", f"not JSON: {exc.msg.lower()}{cut}",
                                           exc.lineno, exc.colno, path=path, game=1)],
                            syntax_error=True)
            return
    if is_document(data):
        try:
            log = loads_json(text)
        except RecordError as err:
            yield GameCheck(1, 1, [Finding("S102", str(err), 1, 1, path=path, game=1)],
                            syntax_error=True)
            return
        for index, game in enumerate(log.games, 1):
            yield check_game(game, index, path, 1)
        return
    for chunk in json_line_chunks(buffered, path):
        yield check_chunk(chunk)


def check_text(text: str, path: str | None = None) -> Iterator[GameCheck]:
    """Checks a whole text, notation or JSON (told apart by its first character)."""
    lines = [line + "\n" for line in text_lines(text.lstrip("\ufeff"))]
    if lines and not text.endswith("\n"):
        lines[-1] = lines[-1][:-1]  # as the file is read: no line end where there is none
    if is_json(text):
        yield from check_json_lines(lines, path)
    else:
        yield from check_lines(lines, path)
