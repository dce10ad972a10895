"""Checking sources in bulk: every game of a text is parsed and replayed, and every
finding is collected with its file, line and column.

>>> results = list(check_text('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\n'))
>>> [f.code for f in results[0].findings]
['G951']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from .errors import NotationError, RecordError
from .fast import check_form, check_notation, verify_json
from .findings import Finding
from .notation import (
    GameForm,
    ParsedGame,
    SourceMap,
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

    Each form of chunk (:attr:`~euchrelog.sources.Chunk.form`) has its check in
    :data:`CHECKS`. A game of notation is replayed from its parts or its JSON form
    (:func:`~euchrelog.fast.check_notation`, :func:`~euchrelog.fast.check_form`: the one
    game loop, each deal through the engine's bulk entry, and a deal with a finding, or
    one the bulk entry does not take, through the full replay of its model), a clean game
    of JSON Lines by the fast path; any other game, or every game with ``fast=False``, is
    validated into models and replayed with its source map.
    """
    result = CHECKS[chunk.form](chunk, fast)
    if not keep_report:
        result.report = None
    return result


def _done(chunk: Chunk, fast: bool) -> GameCheck:
    """The check of a game that could not be read: its syntax finding."""
    assert chunk.done is not None
    return chunk.done


def _check_model(chunk: Chunk, fast: bool) -> GameCheck:
    """Replays a game a source read whole (one of a JSON document)."""
    assert chunk.game is not None
    return check_game(chunk.game, chunk.index, chunk.path, chunk.first_line)


def _check_json_line(chunk: Chunk, fast: bool) -> GameCheck:
    """Checks one game of JSON Lines: by the fast path when it proves it clean, else read
    into models and replayed."""
    if fast and (quick := verify_json(chunk.text)) is not None:
        return GameCheck(chunk.index, chunk.first_line, report=quick, deals=len(quick.deals))
    from .notation.jsonio import parse_game_json  # (the models: a game the fast path declines)

    try:
        game = parse_game_json(chunk.text)
    except RecordError as exc:
        finding = Finding("S102", str(exc), chunk.first_line + max(exc.line, 1) - 1,
                          exc.column or 1, path=chunk.path, game=chunk.index)
        return GameCheck(chunk.index, chunk.first_line, [finding], syntax_error=True)
    return check_game(game, chunk.index, chunk.path, chunk.first_line)


def check_converted_chunk(chunk: Chunk, fast: bool = True) -> GameCheck:
    """Replays a game converted from elsewhere, its findings placed in the input (a JSON
    path, or ``line:action``)."""
    from .interop import check_converted

    assert chunk.converted is not None
    report, placed = check_converted(chunk.converted)
    findings = [replace(p.finding, path=chunk.path, game=chunk.index, line=0, column=0,
                        where=p.where) for p in placed]
    return GameCheck(chunk.index, 0, findings, report, deals=len(chunk.converted.game.deals))


def _check_notation(chunk: Chunk, fast: bool) -> GameCheck:
    """Reads and replays one game of notation (see :func:`check_chunk`), going on past its
    unreadable lines (:mod:`euchrelog.recovery`); then the fixes of its findings are placed
    and its ``# noqa`` comments applied."""
    try:
        result = _check_text(chunk.text, chunk, fast)
    except NotationError as err:
        from .recovery import recover  # (a game with a syntax error)

        result = recover(chunk, err, functools.partial(_check_text, chunk=chunk, fast=fast))
    if result is None:
        result = GameCheck(chunk.index, chunk.first_line, comments_only=True)
    if any(f.fix is not None for f in result.findings):
        from .fixes import resolve  # (a finding with a fix)

        lines = chunk.text.split("\n")
        result.findings = [resolve(f, lines, chunk.first_line) for f in result.findings]
    if "noqa" in chunk.text.lower():
        from .noqa import apply_noqa

        apply_noqa(result, chunk)
    return result


def _check_text(text: str, chunk: Chunk, fast: bool) -> GameCheck | None:
    """The check of ``text``, the text of ``chunk``'s game (or that text with unreadable
    lines skipped), read by :func:`_read` and replayed in full where it gave the models;
    ``None`` for a text of comments only.

    :raises NotationError: at a syntax error, or a game the models refuse.
    """
    read = _read(text, chunk, fast)
    if isinstance(read, ParsedGame):
        return check_game(read.game, chunk.index, chunk.path, chunk.first_line, read.source)
    return read


CHECKS: dict[str, Callable[[Chunk, bool], GameCheck]] = {
    "done": _done,
    "game": _check_model,
    "converted": check_converted_chunk,
    "json": _check_json_line,
    "notation": _check_notation,
}
"""The check of each form of chunk (:attr:`~euchrelog.sources.Chunk.form`), given the
chunk and whether the fast path may take it."""


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
