"""Checking sources in bulk: every game of a text is parsed and replayed, and every
finding is collected with its file, line and column.

>>> results = list(check_text('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\n'))
>>> [f.code for f in results[0].findings]
['G951']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .errors import RecordError
from .findings import Finding
from .jsonio import is_json, iter_json_games, loads_json
from .models import Game
from .notation import SourceMap, read_games
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

    @property
    def syntax_error(self) -> bool:
        """Whether the game could not be read at all."""
        return self.report is None


def _with(finding: Finding, path: str | None, index: int) -> Finding:
    return Finding(finding.code, finding.message, finding.line, finding.column,
                   deal=finding.deal, trick=finding.trick, seat=finding.seat, path=path,
                   game=index)


def check_game(game: Game, index: int = 1, path: str | None = None, line: int = 0,
               source: SourceMap | None = None) -> GameCheck:
    """Replays one game and returns its findings, placed at ``line`` when there is no source
    map (a game read from JSON)."""
    report = replay(game, source)
    findings = []
    for f in report.findings:
        if f.line == 0 and line:
            f = Finding(f.code, f.message, line, 1, deal=f.deal, trick=f.trick, seat=f.seat)
        findings.append(_with(f, path, index))
    findings.sort(key=lambda f: (f.line, f.column))
    return GameCheck(index, line, findings, report, deals=len(game.deals))


def check_lines(lines: Iterable[str], path: str | None = None) -> Iterator[GameCheck]:
    """Checks notation game by game, going on after a syntax error."""
    for index, item in enumerate(read_games(lines), 1):
        if item.error is not None:
            err = item.error
            finding = Finding("S101", err.message, err.line, err.column, path=path, game=index)
            yield GameCheck(index, item.first_line, [finding], None, err.context)
        elif item.parsed is not None:
            yield check_game(item.parsed.game, index, path, item.first_line, item.parsed.source)


def check_json_lines(lines: Iterable[str], path: str | None = None) -> Iterator[GameCheck]:
    """Checks JSON Lines, or one JSON document, game by game."""
    buffered = list(lines)
    text = "".join(buffered)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        data = None
        try:
            json.loads(buffered[0] if buffered else "")
        except json.JSONDecodeError:
            # Not JSON Lines either: one broken document.
            cut = " (is the file cut short?)" if exc.pos >= len(text.rstrip()) else ""
            yield GameCheck(1, 1, [Finding("S102", f"not JSON: {exc.msg.lower()}{cut}",
                                           exc.lineno, exc.colno, path=path, game=1)])
            return
    if isinstance(data, dict) and ("games" in data or "format" in data):
        try:
            log = loads_json(text)
        except RecordError as err:
            yield GameCheck(1, 1, [Finding("S102", str(err), 1, 1, path=path, game=1)])
            return
        for index, game in enumerate(log.games, 1):
            yield check_game(game, index, path, 1)
        return
    for index, (number, item) in enumerate(iter_json_games(buffered), 1):
        if isinstance(item, RecordError):
            yield GameCheck(index, number, [Finding("S102", str(item), number, 1, path=path,
                                                    game=index)])
        else:
            yield check_game(item, index, path, number)


def check_text(text: str, path: str | None = None) -> Iterator[GameCheck]:
    """Checks a whole text, notation or JSON (told apart by its first character)."""
    lines = text.lstrip("\ufeff").splitlines(keepends=True)
    if is_json(text):
        yield from check_json_lines(lines, path)
    else:
        yield from check_lines(lines, path)
