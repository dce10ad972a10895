"""The arena: players matched on the same deals, duplicate (docs/players.md).

:func:`run` plays a match's boards (here, in ``jobs`` processes or on a Dask cluster,
through :class:`~euchrelog.runs.Runner`), hands each board's games to ``each`` as they come
back in order, and returns the :class:`~.output.Match` with its rating table.

>>> match = run(Setup(("random", "rule-based"), seed=1), 4)
>>> match.games, [row.name for row in match.standings]
(8, ['rule-based', 'random'])
"""

from __future__ import annotations

from collections.abc import Callable

from ..runs import Batching, Runner
from .match import BoardResult, Fault, Setup, board_means, play_board, seatings
from .output import Match, as_json, html, json_text, text
from .results import Standing, Tally, standings

BATCH = 10
"""Boards a batch sent to another process (a board takes some milliseconds)."""


def run(setup: Setup, boards: int, *, jobs: int = 1, scheduler: str | None = None,
        each: Callable[[BoardResult], object] | None = None,
        counted: Callable[[int], object] | None = None) -> Match:
    """Plays boards 1 to ``boards`` of the match; ``each`` is given every board as played,
    in order, ``counted`` the games as they are played. Ctrl-C stops it after the boards
    finished, which the match holds (``interrupted``)."""
    count = len(setup.players)
    tally = Tally(count)
    faults: list[Fault] = []
    games = 0
    interrupted = False
    try:
        with Runner(jobs, scheduler, counted=counted) as runner:
            for _, result in runner.map(play_board, ((setup, b) for b in range(1, boards + 1)),
                                        batching=Batching(size=BATCH),
                                        what=lambda batch: f"board {batch[0][1]}"):
                net, points = board_means(result, count)
                tally.add(net, points)
                faults += result.faults
                games += len(result.points)
                if each is not None:
                    each(result)
    except KeyboardInterrupt:
        interrupted = True
    return Match(setup, tally.boards, games, standings(tally, setup.names), faults,
                 interrupted)


__all__ = [
    "BoardResult", "Fault", "Match", "Setup", "Standing", "Tally", "as_json", "html",
    "json_text", "play_board", "run", "seatings", "standings", "text",
]
