"""The replay viewer: a record of any variant and completeness as one self-contained HTML
page that steps through every deal act by act (``euchrelog view``).

:func:`placed_views` reads the games of a source (notation, JSON, or a format from
elsewhere) one at a time, each replayed and checked, as a :class:`GameView` whose frames
are made deal by deal; :func:`write_page` writes the page as they are made, so neither a
long record nor its page is ever held whole. :func:`game_view` gives one game's data at
once, :func:`views_of_text` each game's in turn.

>>> text = '''[Event "Club"] [Variant "four-hand"] [Target "1"]
... deal 1 dealer N
...   trump H maker E tricks 3
...   points EW 1
... result EW 1 NS 0 winner EW
... '''
>>> (view,) = views_of_text(text, "club.euchre")
>>> view["title"], len(view["frames"])
('Club', 3)
>>> next(views_of_text(text.replace('[Event "Club"]', '[Round "2"]'), "c.euchre"))["title"]
'Game 1, Round 2'
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace

from ..check import check_game
from ..errors import NotationError
from ..findings import is_suppressed
from ..interop import ConversionError, check_converted, read_source
from ..kinds import game_per_line, head_of, is_json, kind_of
from ..models import Game
from ..notation import ParsedGame, parse_game, split_games, text_lines
from ..notation.jsonio import loads_json
from .frames import GameView, Json, game_title, game_view
from .page import render_page, write_page

__all__ = ["GameView", "Json", "ViewError", "game_title", "game_view", "page_of_text",
           "placed_views", "render_page", "views_of_text", "write_page"]


class ViewError(NotationError):
    """A source the viewer cannot read: a syntax error (S101), or a JSON record or a game
    from elsewhere that cannot be read (S102)."""

    def __init__(self, message: str, line: int, column: int, context: str = "",
                 code: str = "S101") -> None:
        super().__init__(message, line, column, context)
        self.code = code


def views_of_text(text: str, path: str = "<stdin>", *, double_dummy: bool = False
                  ) -> Iterator[Json]:
    """The page's data for each game of a source's text, in turn (see
    :func:`placed_views`; each game's data whole, as :func:`game_view` gives it).

    :raises ViewError: for a game that cannot be read (placed at its line and column).
    """
    return (view.data() for _, view in placed_views(text, path, double_dummy=double_dummy))


def placed_views(text: str, path: str = "<stdin>", *, double_dummy: bool = False,
                 skip_unreadable: bool = False) -> Iterator[tuple[int, GameView]]:
    """Each game of a source's text, read, replayed and checked only when it is asked for:
    its page data (made deal by deal as it is written) with the line its game begins at
    in the source (0 for a game of JSON or from elsewhere), as ``score`` places games.

    :param double_dummy: add the double-dummy review of every deal it can review (see
        :mod:`euchrelog.viewer.double_dummy`).
    :param skip_unreadable: leave out a game of notation with a syntax error instead of
        raising :class:`ViewError`.
    :raises ViewError: for a game that cannot be read, when it is reached.
    """
    for line, _, view in _games(text, path, skip_unreadable, double_dummy):
        yield line, view


def _games(text: str, path: str, skip_unreadable: bool = False, double_dummy: bool = False
           ) -> Iterator[tuple[int, Game, GameView]]:
    """Each game of a source's text with its first line and its page data."""
    kind = kind_of(path, head_of(io.StringIO(text)))
    if kind is not None:
        yield from _foreign_views(kind, text, double_dummy)
        return
    if is_json(text.lstrip().split("\n", 1)[0]):
        try:
            log = loads_json(text)
        except ValueError as exc:  # (RecordError)
            raise ViewError(str(exc), 1, 1, code="S102") from None
        lines = text_lines(text)
        head = next((line for line in lines if line.strip()), "")
        # JSON Lines: each game at its line, as score places it; a document: at none.
        starts = ([n for n, line in enumerate(lines, 1) if line.strip()]
                  if game_per_line(head) else [])
        for k, game in enumerate(log.games, 1):
            line = starts[k - 1] if k <= len(starts) else 0
            yield line, game, _view(game, k, None, line, double_dummy=double_dummy)
        return
    index = 0
    for first, chunk in split_games(text_lines(text.lstrip("\ufeff"))):
        try:
            parsed = parse_game(chunk, first)
        except NotationError as exc:
            if skip_unreadable:
                continue
            raise ViewError(exc.message, exc.line, exc.column, exc.context) from None
        if isinstance(parsed, ParsedGame):
            index += 1
            yield first, parsed.game, _view(parsed.game, index, parsed, first, chunk,
                                            double_dummy=double_dummy)


def _view(game: Game, index: int, parsed: ParsedGame | None, first: int | None,
          text: str = "", *, double_dummy: bool = False) -> GameView:
    """One game's page data, checked as ``check`` checks it: a finding that a ``# noqa``
    comment on its line leaves out (in the game's ``text``) is left out here too."""
    source = parsed.source if parsed is not None else None
    report = check_game(game, index, None, first or 0, source).report
    assert report is not None  # (a game read is replayed)
    if first and "noqa" in text.lower():
        lines = text.split("\n")
        report = replace(report, findings=[
            f for f in report.findings
            if not (0 <= f.line - first < len(lines)
                    and is_suppressed(f.code, lines[f.line - first]))])
    return GameView(game, source, report, game_title(game, index), double_dummy=double_dummy)


def _foreign_views(kind: str, text: str, double_dummy: bool
                   ) -> Iterator[tuple[int, Game, GameView]]:
    """Each game of a source in a format from elsewhere (EGN, EMN, OpenSpiel)."""
    for index, item in enumerate(read_source(kind, text), 1):
        if isinstance(item, ConversionError):
            raise ViewError(f"game {index}: {item.where}: {item.message}", 1, 1, code="S102")
        report, _ = check_converted(item)
        yield 0, item.game, GameView(item.game, None, report, game_title(item.game, index),
                                     double_dummy=double_dummy)


def page_of_text(text: str, path: str = "<stdin>", title: str | None = None, *,
                 double_dummy: bool = False) -> str:
    """The viewer page of a source's text (see :func:`placed_views`)."""
    views = (view for _, view in placed_views(text, path, double_dummy=double_dummy))
    return render_page(views, title or path)
