"""The viewer page: one self-contained HTML file (inline CSS, SVG cards drawn by a small
inline script, each game's frames as JSON data), with no network access and no external
asset, from the template ``viewer.html`` of :mod:`euchrelog.present`.

The page is written as it is made, game by game and deal by deal
(:func:`write_page`), so a record of any length is drawn in memory bounded by one deal's
frames. Each game's data sits in a ``<script type="application/json">`` element of its
own, with every string's control and bidirectional characters written as escapes and
``<``, ``>`` and ``&`` written as ``\\u003c``, ``\\u003e`` and ``\\u0026``
(:func:`~euchrelog.present.script_json`), so no name, tag or comment of a record can close
the element or turn its text around; the script writes every text with ``textContent``.

>>> page = render_page([], "a <b> & c")
>>> "<title>a &lt;b&gt; &amp; c</title>" in page
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from io import StringIO
from typing import TextIO

from ..present import Markup, script_json, write
from .frames import GameView, Json


@cache
def _asset(name: str) -> Markup:
    return Markup(files(__package__).joinpath(name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class PageGame:
    """One game as the page's template writes it: its title and its JSON, in parts."""

    title: str
    parts: Iterator[Markup]


@dataclass
class Stop:
    """Whether Ctrl-C stopped a page being written (:func:`write_page`): the page then
    ends with the deals finished before it, and the games before them."""

    stopped: bool = False
    games: int = 0
    """Games begun on the page (the last one possibly cut short)."""


def json_parts(view: GameView | Json, stop: Stop | None = None) -> Iterator[Markup]:
    """The JSON of one game's page data, a deal's frames at a time: the game's head, its
    frames, then its list of deals and its findings (known once every frame is made).
    With ``stop``, Ctrl-C ends the game at its last finished deal (the findings of the
    deals not made are listed without a frame)."""
    if not isinstance(view, GameView):
        yield script_json(view)
        return
    yield Markup(str(script_json(view.head))[:-1] + ',"frames":[')
    deals: list[Json] = []
    try:
        for k, (entry, frames) in enumerate(view.deals()):
            deals.append(entry)
            if frames:
                yield Markup(("," if k else "") + str(script_json(frames))[1:-1])
    except KeyboardInterrupt:
        if stop is None:
            raise
        stop.stopped = True
    yield Markup(f'],"deals":{script_json(deals)},"findings":{script_json(view.findings)}}}')


def _page_games(views: Iterable[GameView | Json], stop: Stop | None) -> Iterator[PageGame]:
    games = iter(views)
    while stop is None or not stop.stopped:
        try:
            view = next(games, None)
        except KeyboardInterrupt:
            if stop is None:
                raise
            stop.stopped = True
            return
        if view is None:
            return
        if stop is not None:
            stop.games += 1
        title = view.title if isinstance(view, GameView) else str(view["title"])
        yield PageGame(title, json_parts(view, stop))


def write_page(out: TextIO, views: Iterable[GameView | Json], title: str,
               stop: Stop | None = None) -> None:
    """Writes the page of the games ``views`` (each a :class:`GameView`, or its whole data
    as :meth:`GameView.data` gives it) to ``out``, as each game and deal is made. With
    ``stop``, Ctrl-C ends the page with what was finished and sets ``stop.stopped``."""
    write(out, "viewer.html", title=title, games=_page_games(views, stop),
          css=_asset("viewer.css"), script=_asset("viewer.js"))


def render_page(views: Iterable[GameView | Json], title: str) -> str:
    """The whole page of the games ``views`` as one text (see :func:`write_page`)."""
    out = StringIO()
    write_page(out, views, title)
    return out.getvalue()
