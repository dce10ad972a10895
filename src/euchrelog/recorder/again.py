"""A record entered again on one replay of its game: :class:`Reentry` replays the game's
deals once (:meth:`~euchrelog.replay.GameReplay.step`) and enters each into a
:class:`~euchrelog.recorder.Recorder` with that replay's result, so no deal is replayed
twice; it then takes further deals one at a time, each replayed alone against the state
the game's last deal left (the server's judge keeps one per table game)."""

from __future__ import annotations

from dataclasses import dataclass

from ..findings import Finding
from ..loci import SourceMap
from ..models import Deal, Game
from ..replay import GameReplay, GameReport
from ..replay.loop import LoopMark
from .checks import resume_fault
from .entries import IllegalEntryError
from .game import Recorder


@dataclass(frozen=True)
class ReentryMark:
    """Where a :class:`Reentry` stands after a deal (:meth:`Reentry.mark`)."""

    loop: LoopMark
    deals: int


class Reentry:
    """A game's record entered again: its replay and its recorder, deal by deal.

    :param game: the record; its deals are replayed once, on creation (their findings
        placed by ``source``), and entered by :meth:`enter`.
    :raises IllegalActionError: for a header that makes no game.
    """

    def __init__(self, game: Game, source: SourceMap | None = None) -> None:
        self.game = game
        self.replay = GameReplay(game, source, False, None)
        self.recorder = Recorder.resumed(game.tags)
        self.count = 0
        """The deals replayed."""
        self._spans: list[tuple[int, int]] = []
        """Where each deal's findings are in the report."""
        self.playable = self.replay.begin()
        if self.playable:
            for d, deal in enumerate(game.deals):
                if self._step(d, deal) is None:
                    break

    @property
    def report(self) -> GameReport:
        """The replay's report so far."""
        return self.replay.report

    def _step(self, d: int, deal: Deal) -> list[Finding] | None:
        """Replays deal ``d``; its findings, or ``None`` when the game had ended (D307)."""
        findings = self.replay.report.findings
        first = len(findings)
        if not self.replay.step(d, deal):
            return None
        self._spans.append((first, len(findings)))
        self.count = d + 1
        return findings[first:]

    def enter(self, *, more: bool = False, check: bool = True) -> Recorder:
        """Enters the deals replayed into the recorder and returns it, as
        :meth:`Recorder.from_game <euchrelog.recorder.Recorder.from_game>` does.

        :param more: more deals follow, so every deal given is finished (the last one too).
        :param check: refuse first what a record to go on with may not have (see
            :func:`~.checks.resume_fault`); off for deals already accepted.
        :raises IllegalActionError: at the first entry the recorder refuses.
        """
        game, report = self.game, self.replay.report
        if check:
            stopped = game.end is None or game.end.act == "unfinished"
            fault = resume_fault(report.findings, game.deals[-1] if game.deals else None,
                                 stopped)
            if fault is not None:
                raise fault
        rec = self.recorder
        for index, deal in enumerate(game.deals):
            result = report.deals[index] if index < len(report.deals) else None
            first, last = self._spans[index] if index < len(self._spans) else (0, 0)
            rec.enter_again(deal, result, report.deals[index - 1].totals if index else {},
                            finished=more or index < len(game.deals) - 1
                            or deal.score is not None,
                            clean=not any(f.is_fault for f in report.findings[first:last]))
        end = game.end
        if check and end is not None and end.act == "result" and not rec.over:
            raise IllegalEntryError("G955", "a result is recorded, but the game had not ended")
        return rec

    def add(self, deal: Deal, source: SourceMap | None = None) -> list[Finding]:
        """Takes ``deal`` as the game's next and last deal (the record has no end line):
        the replay steps it alone, its findings placed by ``source``, and the recorder
        enters it as :meth:`enter` would the record ending with it. Returns its findings.
        After a refusal, :meth:`rewind` to the :meth:`mark` taken before.

        :raises IllegalActionError: at the first entry the recorder refuses.
        """
        replay = self.replay
        replay.source = source
        try:
            findings = self._step(self.count, deal)
        finally:
            replay.source = None
        if findings is None:  # (a deal after the end: D307 is the last finding)
            findings = replay.report.findings[-1:]
        fault = resume_fault(findings, deal, True)
        if fault is not None:
            raise fault
        deals = replay.report.deals
        self.recorder.enter_again(deal, deals[-1], deals[-2].totals if len(deals) > 1 else {},
                                  finished=deal.score is not None,
                                  clean=not any(f.is_fault for f in findings))
        return findings

    def mark(self) -> ReentryMark:
        """Where the replay and the recorder stand, to :meth:`rewind` to."""
        return ReentryMark(self.replay.mark(), self.recorder.deals)

    def rewind(self, mark: ReentryMark) -> None:
        """Takes the replay and the recorder back to ``mark``: the deals taken since are
        forgotten."""
        self.replay.rewind(mark.loop)
        self.recorder.truncate(mark.deals)
        del self._spans[mark.loop.deals:]
        self.count = len(self._spans)
