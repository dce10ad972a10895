"""A recorded game as it stands: :class:`RecordedGame` holds its header and its deals, says
where the game stands (the open deal, the dealer, the totals, the end, the acts that may
come next) and writes its record; :class:`~euchrelog.recorder.Recorder` is the recorded
game that takes entries."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from ..acts import Play
from ..cards import Card, make_deck
from ..engine import Action, DealState, Phase
from ..files import write_atomic
from ..findings import CODES
from ..models import Deal, End, Game, Log, Score, Tag
from ..notation.writer import deal_lines, dumps, game_lines
from ..rules import Ruleset, Variant, ruleset_from_tags
from ..seats import Seat
from .deal import DealRecord, kept_model, playable
from .entries import DealCards, Entry, IllegalEntryError, RecorderError


class RecordedGame:
    """A game as recorded so far, to read: its deals, where it stands and its record.
    :class:`~euchrelog.recorder.Recorder` enters into it."""

    def __init__(self, tags: tuple[Tag, ...]) -> None:
        """A game of no deal yet, with its header.

        :param tags: the header of the record (the ``Variant``, ``Rules``, ``Seats`` and
            ``Target`` tags make its ruleset).
        :raises IllegalActionError: (an :class:`IllegalEntryError`) with the code ``check``
            gives for a tag that makes no game.
        """
        values: dict[str, str] = {}
        for tag in tags:
            values.setdefault(tag.name, tag.value)
        ruleset, problems = ruleset_from_tags(values)
        errors = [p for p in problems if CODES[p.code].severity == "error"]
        if errors:
            raise IllegalEntryError(errors[0].code, errors[0].message)
        self.ruleset: Ruleset = ruleset
        """The variant, house rules and seats of the game."""
        self.tags: tuple[Tag, ...] = tags
        """The header of the record."""
        self._deals: list[DealRecord] = []

    def add_played(self, deal: DealRecord) -> None:
        """Adds a deal played to its end on its own engine state, outside the recorder: every
        act made with the state's ``do`` (which verifies it) and kept in ``deal.entries``
        (each bid's round in ``deal.rounds``, the exchange as :func:`~.deal.written_exchange`
        writes it). It is scored by the engine (:meth:`DealState.points
        <euchrelog.engine.DealState.points>`), not replayed: the arena's games come this way
        (:mod:`euchrelog.arena`), and its tests prove them clean by ``check``'s replay.

        :raises RecorderError: while a deal is open, or for a deal not played to its end.
        """
        state = deal.state
        if self.deal_open or state.phase not in (Phase.DONE, Phase.THROWN):
            raise RecorderError("a played deal is added after the last deal ended, and played "
                                "to its end")
        deal.points = state.points() or {}
        deal.thrown = state.phase is Phase.THROWN
        self._deals.append(deal)

    # ------------------------------------------------------------ where the game stands

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self.ruleset.variant

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats that hold players, clockwise from North."""
        return self.ruleset.seats

    @property
    def deal_open(self) -> bool:
        """Whether a deal has been started and is not finished."""
        return bool(self._deals) and not self._deals[-1].over

    @property
    def state(self) -> DealState | None:
        """The engine state of the open deal (read it, do not change it), or ``None``."""
        return self._deals[-1].state if self.deal_open else None

    @property
    def deal_number(self) -> int:
        """The number of the open deal, or of the next one."""
        if self.deal_open or not self._deals:
            return len(self._deals) or 1
        return len(self._deals) + 1

    @property
    def dealer(self) -> Seat | None:
        """The dealer of the open deal, or of the next one (``None`` before the first)."""
        if not self._deals:
            return None
        last = self._deals[-1]
        if not last.over:
            return last.cards.dealer
        return self.ruleset.next_dealer(last.cards.dealer, last.thrown)

    @property
    def entries(self) -> list[Entry]:
        """What was entered in the open deal (or the last one), in order."""
        return list(self._deals[-1].entries) if self._deals else []

    @property
    def deal_cards(self) -> DealCards | None:
        """How the open deal (or the last one) started."""
        return self._deals[-1].cards if self._deals else None

    @property
    def deals(self) -> int:
        """The number of deals recorded, the open one included."""
        return len(self._deals)

    def points(self, index: int = -1) -> dict[str, int] | None:
        """The points a deal scored (by default the last), or ``None`` while it is open."""
        if not self._deals:
            return None
        points = self._deals[index].points
        return dict(points) if points is not None else None

    def alone(self, index: int = -1) -> Seat | None:
        """The seat that went alone for the makers in a deal (by default the last), as the
        record writes it: its ``alone`` line, else the maker of a score-sheet line that says
        ``alone``; ``None`` if no one did."""
        if not self._deals:
            return None
        deal = self._deals[index]
        model = deal.kept or deal.model()
        lone = [d.seat for d in model.declarations if d.act == "alone"]
        if lone:
            return lone[0]
        sheet = model.sheet
        return sheet.maker if sheet is not None and sheet.alone else None

    @property
    def totals(self) -> dict[str, int]:
        """The score of each side after the finished deals."""
        deals = self._deals
        start = len(deals)
        while start and _after(deals[start - 1]) is None:
            start -= 1
        kept = _after(deals[start - 1]) if start else None
        totals = dict(kept) if kept is not None else dict.fromkeys(self.ruleset.side_names, 0)
        for deal in deals[start:]:
            self._add(totals, deal)
        return totals

    def _add(self, totals: dict[str, int], deal: DealRecord) -> None:
        """Adds a deal's points to running totals, less its penalties (H6)."""
        for side, n in (deal.points or {}).items():
            totals[side] = totals.get(side, 0) + n
        for penalty in deal.penalties:
            side = self.ruleset.side_of(penalty.who)
            totals[side] = totals.get(side, 0) - penalty.points

    @property
    def over(self) -> bool:
        """Whether the game has ended (C9, X9, G7)."""
        finished = [d for d in self._deals if d.over]
        if not finished or self.deal_open:
            return False
        counted = sum(self.ruleset.counts(d.thrown) for d in finished)
        return self.ruleset.outcome(self.totals, counted) is not None

    @property
    def winner(self) -> str | None:
        """The winning side once the game is over (``None`` for a tie after ``deals=N``)."""
        if not self.over:
            return None
        totals = self.totals
        best = max(totals.values())
        leaders = [s for s, v in totals.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def exchange_pending(self) -> bool:
        """Whether the dealer may still take the upcard (or decline it) in the open deal:
        the engine's :attr:`DealState.exchange_due <euchrelog.engine.DealState.exchange_due>`."""
        return self.state is not None and self.state.exchange_due

    def turn(self) -> Seat | None:
        """The seat to act in the open deal: the bidder, the dealer while the exchange is
        open, else the seat to play; ``None`` when no deal is open."""
        state = self.state
        if state is None:
            return None
        if state.phase is Phase.BIDDING:
            return next((b.seat for b in state.legal_actions()), None)
        if self.exchange_pending:
            return state.dealer
        return state.to_play()

    def legal_actions(self, *, any_card: bool = False) -> list[Action]:
        """What may be entered next in the open deal.

        These are the engine's legal acts (:meth:`DealState.legal_actions`), except that
        while the dealer's exchange is open the plays wait for it, and plays that would
        prove an earlier renege (R802) are left out. With ``any_card``, the plays include
        every card of the deck the seat may hold, not only the cards known to be in its
        hand (for a hand that was not recorded).
        """
        state = self.state
        if state is None:
            return []
        acts: list[Action] = [a for a in state.legal_actions() if not isinstance(a, Play)]
        return acts + list(self.plays(any_card=any_card))

    def plays(self, *, any_card: bool = False) -> list[Play]:
        """The plays among :meth:`legal_actions`: none while the bidding or the dealer's
        exchange is open, else the cards the seat to play may play (with ``any_card``, every
        card of the deck it may hold, not only those known to be in its hand)."""
        state = self.state
        if state is None or state.phase is Phase.BIDDING or self.exchange_pending:
            return []
        seat = state.to_play()
        if seat is None:
            return []
        pool: Iterable[Card] = make_deck(self.ruleset.options.deck) if any_card else sorted(
            state.hands[seat].cards, key=str)
        return [Play(seat=seat, card=c) for c in pool if playable(state, seat, c)]

    # ------------------------------------------------------------ the record

    def model(self) -> Game:
        """The record of the game so far: the finished deals with their points and running
        totals, the open deal as far as it went, and ``result`` or ``unfinished``."""
        deals: list[Deal] = []
        totals = dict.fromkeys(self.ruleset.side_names, 0)
        for deal in self._deals:
            kept = _after(deal)
            if kept is not None:
                assert deal.written is not None
                deals.append(deal.written)
                totals = dict(kept)
                continue
            score = None
            self._add(totals, deal)
            if deal.kept is not None:
                deals.append(kept_model(deal.kept, deal.penalties, totals))
                continue
            if deal.points:
                points = {s: deal.points[s] for s in self.ruleset.side_names if s in deal.points}
                score = Score(points=points, total=dict(totals))
            elif deal.over and deal.penalties:
                score = Score(total=dict(totals))
            written = deal.model(score)
            if deal.over:
                deal.written, deal.after = written, dict(totals)
            deals.append(written)
        if self.over:
            end = End(act="result", scores=dict(totals), winner=self.winner)
        else:
            end = End(act="unfinished")
        return Game(tags=self.tags, deals=tuple(deals), end=end)

    def dumps(self) -> str:
        """The record of the game so far in canonical notation (the text of a finished deal
        is written once and kept: the writer's lines of its tags, each deal and the end)."""
        game = self.model()
        end = game.end
        assert end is not None
        lines = game_lines(game.model_copy(update={"deals": ()}))
        parts = ["\n".join(lines[:-2]) + "\n"]  # (the tags; then a blank line, the end)
        for record, deal in zip(self._deals, game.deals, strict=True):
            kept = record.text
            if kept is None or kept[0] is not deal:
                kept = record.text = (deal, "\n".join(["", *deal_lines(deal)]) + "\n")
            parts.append(kept[1])
        parts.append("\n".join(lines[-2:]) + "\n")
        return "".join(parts)

    def save(self, path: str | os.PathLike[str], before: Sequence[Game] = (), *,
             force: bool = False) -> None:
        """Writes the record to ``path`` atomically (see :func:`write_atomic`), after the
        games in ``before``; a read-only file only when ``force``.

        :raises OSError: when it cannot be written; the file is then unchanged.
        """
        write_atomic(path, dumps(Log(games=(*before, self.model()))), force=force)

    def _score_text(self) -> str:
        """The totals in one line, e.g. ``NS 7 EW 4``."""
        return " ".join(f"{s} {n}" for s, n in self.totals.items())


def _after(deal: DealRecord) -> dict[str, int] | None:
    """The running totals after a finished deal, when its record is kept."""
    return deal.after if deal.written is not None and deal.over else None
