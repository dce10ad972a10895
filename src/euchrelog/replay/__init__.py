"""Replaying a whole game: every deal through :class:`~euchrelog.engine.DealState`, then the
points, running totals, dealer rotation, game end and winner.

The package's modules, in the order of the pipeline: :mod:`.loop` (the game loop,
:class:`GameReplay`), :mod:`.deal` (the replay of one deal), :mod:`.census` (the card census
of a deal), :mod:`.readings` (the readings of a deal, P4: one slip, one finding) and
:mod:`.results` (what a replay finds out: :class:`DealResult`, :class:`Charge`,
:class:`GameReport`); this module is the entry, :func:`replay`.

Bulk mode (the default) collects every :class:`~euchrelog.findings.Finding` and goes on;
``strict=True`` raises the first one as an :class:`~euchrelog.errors.IllegalActionError`.

>>> from euchrelog.notation import loads
>>> game = loads('''[Variant "four-hand"] [Target "1"]
... deal 1 dealer N
...   trump H maker E tricks 3
...   points EW 1
... result EW 1 NS 0 winner EW
... ''').games[0]
>>> report = replay(game)
>>> report.findings, report.winner
([], 'EW')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from ..findings import Finding
from ..imports import callable_package
from ..loci import GameText, ParsedGame, SourceMap
from .loop import GameReplay, rotation
from .results import Charge, DealResult, DealTrace, GameReport

if TYPE_CHECKING:
    from ..models import Game

__all__ = ["Charge", "DealResult", "DealTrace", "GameReplay", "GameReport", "replay",
           "rotation"]


def replay(game: Game | ParsedGame | GameText, source: SourceMap | None = None, *,
           strict: bool = False, on_finding: Callable[[Finding], None] | None = None,
           trace: bool | Literal["acts"] = False) -> GameReport:
    """Replays ``game`` and returns its report.

    ``game`` is a model, or a game as :func:`~euchrelog.notation.read_games` reads it,
    whose source map then places the findings.

    :param source: places findings at a line and column, when the game came from notation.
    :param strict: raise the first finding instead of collecting them.
    :param on_finding: called with each finding as it is found.
    :param trace: keep each deal as the replay took it (:attr:`DealResult.trace
        <euchrelog.replay.DealResult.trace>`), for what rides the one pass: the review, the
        viewer, the statistics, the server; ``"acts"``: the deal as dealt and its acts
        as taken, not the state at the opening lead (the viewer without the review).
    :raises IllegalActionError: in strict mode, at the first fault.
    :raises NotationError: for a game read with a syntax error (its ``error``).
    :raises ValueError: for a text read that holds no game, only comments.
    """
    if isinstance(game, GameText):
        if game.error is not None:
            raise game.error
        if game.parsed is None:
            raise ValueError(f"no game to replay at line {game.first_line}: only comments")
        game = game.parsed
    if isinstance(game, ParsedGame):
        return GameReplay(game.game, source or game.source, strict, on_finding, trace).run()
    return GameReplay(game, source, strict, on_finding, trace).run()


callable_package(__name__)  # euchrelog.replay(game): the package called as replay()
