"""The replay viewer: a record of any variant and completeness as one self-contained HTML
page that steps through every deal act by act (``euchrelog view``).

:func:`source_views` reads the games of a source (:mod:`euchrelog.sources`: notation,
JSON, or a format from elsewhere) one at a time, each replayed once and checked, as a
:class:`GameView` whose frames are made deal by deal on that replay's deals as taken;
:func:`write_page` writes the page as they are made, so neither a
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

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ..check import check_game
from ..errors import NotationError
from ..interop import check_converted
from ..noqa import apply_noqa
from ..sources import Chunk, Entry, Source, text_source
from .frames import GameView, Json, game_title, game_view
from .page import Stop, render_page, write_page

if TYPE_CHECKING:
    from ..analysis import Settings

__all__ = [
    "GameView",
    "Json",
    "Stop",
    "ViewError",
    "entry_view",
    "game_title",
    "game_view",
    "page_of_text",
    "placed_views",
    "render_page",
    "source_views",
    "views_of_text",
    "write_page",
]


class ViewError(NotationError):
    """A source the viewer cannot read: a syntax error (S101), or a JSON record or a game
    from elsewhere that cannot be read (S102)."""

    def __init__(self, message: str, line: int, column: int, context: str = "",
                 code: str = "S101") -> None:
        super().__init__(message, line, column, context)
        self.code = code


def views_of_text(text: str, path: str = "<stdin>", *, double_dummy: bool = False,
                  single: Settings | None = None) -> Iterator[Json]:
    """The page's data for each game of a source's text, in turn (see
    :func:`placed_views`; each game's data whole, as :func:`game_view` gives it).

    :raises ViewError: for a game that cannot be read (placed at its line and column).
    """
    return (view.data() for _, view in placed_views(text, path, double_dummy=double_dummy,
                                                    single=single))


def placed_views(text: str, path: str = "<stdin>", *, double_dummy: bool = False,
                 single: Settings | None = None, skip_unreadable: bool = False
                 ) -> Iterator[tuple[int, GameView]]:
    """Each game of a source's text, read, replayed and checked only when it is asked for:
    its page data (made deal by deal as it is written) with the line its game begins at
    in the source (0 for a game of a JSON document or from elsewhere), as ``score`` places
    games.

    :param double_dummy: add the double-dummy review of every deal it can review (see
        :mod:`euchrelog.viewer.double_dummy`).
    :param single: with ``double_dummy``, add the single-dummy values of every decision
        the review judges, worked out with these settings.
    :param skip_unreadable: leave out a game with a syntax error instead of raising
        :class:`ViewError`.
    :raises ViewError: for a game that cannot be read, when it is reached.
    """
    return source_views(text_source(text, path), double_dummy=double_dummy, single=single,
                        skip_unreadable=skip_unreadable)


def source_views(source: Source, *, double_dummy: bool = False, single: Settings | None = None,
                 skip_unreadable: bool = False) -> Iterator[tuple[int, GameView]]:
    """:func:`placed_views` of a source read as it is needed (:mod:`euchrelog.sources`).

    :raises ViewError: for a game that cannot be read, when it is reached.
    :raises NotationError: where the source stops being readable.
    """
    for entry in source.entries():
        if entry.game is None:
            if not skip_unreadable:
                raise _unreadable(entry)
            continue
        yield entry.line, entry_view(entry, double_dummy=double_dummy, single=single)


def _unreadable(entry: Entry) -> ViewError:
    """The error of a game that cannot be read, placed as its finding."""
    assert entry.failed is not None
    finding = entry.failed.findings[0]
    where = f"game {entry.index}: {finding.where}: " if finding.where is not None else ""
    return ViewError(where + finding.message, finding.line or 1, finding.column or 1,
                     entry.failed.context, code=finding.code)


def entry_view(entry: Entry, *, double_dummy: bool = False,
               single: Settings | None = None) -> GameView:
    """One game's page data from its one replay, checked as ``check`` checks it (a finding
    that a ``# noqa`` comment on its line leaves out is left out here too), the viewer and
    the double-dummy layer riding that replay's deals as taken."""
    assert entry.game is not None
    if entry.converted is not None:
        report, _ = check_converted(entry.converted)
    else:
        result = check_game(entry.game, entry.index, None, entry.line, entry.source,
                            trace=True if double_dummy else "acts")
        if entry.line and "noqa" in entry.text.lower():
            apply_noqa(result, Chunk(entry.index, entry.line, entry.text, None))
        assert result.report is not None  # (a game read is replayed)
        report = replace(result.report, findings=result.findings)
    return GameView(entry.game, entry.source, report, game_title(entry.game, entry.index),
                    double_dummy=double_dummy, single=single)


def page_of_text(text: str, path: str = "<stdin>", title: str | None = None, *,
                 double_dummy: bool = False, single: Settings | None = None) -> str:
    """The viewer page of a source's text (see :func:`placed_views`)."""
    views = (view for _, view in placed_views(text, path, double_dummy=double_dummy,
                                              single=single))
    return render_page(views, title or path)
