"""One deal played turn by turn: :class:`Table` asks :func:`~.turns.next_turn` whose
decision comes next, makes each answer through the engine (``do_id``, which verifies it)
and keeps the deal as the recorder keeps one (a :class:`~euchrelog.recorder.deal.DealRecord`
for :meth:`~euchrelog.recorder.RecordedGame.add_played`). The arena and the environment
both play through it."""

from __future__ import annotations

from ..actions import CARDS_BY_NUMBER, DISCARD_ID, play_table
from ..acts import Exchange
from ..engine import DealState, Phase
from ..recorder import DealCards
from ..recorder.deal import DealRecord, deal_state, written_exchange
from ..rules import Ruleset
from ..seats import Seat
from .turns import STAND, Turn, next_turn
from .view import Decision, Made

_OVER = (Phase.DONE, Phase.THROWN)
_PLAYS = play_table()
"""Every play by its seat and card index (the models the engine offers)."""


class Table:
    """A deal being played from ``cards`` under ``ruleset``, one decision at a time."""

    def __init__(self, ruleset: Ruleset, cards: DealCards) -> None:
        self.deal = DealRecord(cards, deal_state(ruleset, cards))
        self.state: DealState = self.deal.state
        """The engine's state of the deal (read it; :meth:`make` changes it)."""
        self.history: list[Made] = []
        """Every answer so far, stands included."""
        self.bids: list[tuple[Seat, int, int]] = []
        """Each bid: its seat, its bidding round and its number."""
        self.stood: set[Seat] = set()
        self._legal: list[int] | None = None
        self._turn: Turn | None = None

    def turn(self) -> Turn | None:
        """The decision due now, or ``None`` once the deal is over."""
        turn = self._turn
        if turn is None:
            legal = self._legal
            if legal is None:
                legal = self._legal = self.state.legal_action_ids()
            turn = self._turn = next_turn(self.state, self.stood, legal)
        return turn

    def decision(self) -> Decision | None:
        """The question due now, for the seat whose turn it is."""
        turn = self._turn or self.turn()
        return None if turn is None else Decision(self.state, turn.seat, turn.actions,
                                                   self.history)

    def make(self, number: int) -> None:
        """Makes the answer ``number`` to the decision due now.

        :raises ValueError: for a number not among those the turn offers.
        """
        turn = self._turn or self.turn()
        if turn is None or number not in turn.actions:
            offered = " ".join(map(str, turn.actions)) if turn is not None else "none"
            raise ValueError(f"{number} is not an act offered now (offered: {offered})")
        state = self.state
        phase = state.phase
        self._turn = None
        if number == STAND and phase is Phase.DECLARING:
            self.history.append(Made(turn.seat, number, None))
            self.stood.add(turn.seat)  # (the state is unchanged: so are its legal acts)
            return
        seat = turn.seat
        # (a play is of the seat to play, the turn's: the table of acts has it at hand)
        act = _PLAYS[seat][CARDS_BY_NUMBER[number].index] if number < DISCARD_ID else (
            state.action_of(number))
        self.history.append(Made(seat, number, act))
        if phase is Phase.BIDDING:
            self.deal.rounds.append(state.round)
            self.bids.append((seat, state.round, number))
        elif isinstance(act, Exchange):
            act = written_exchange(state, act)
        state.do_id(number)
        self.deal.entries.append(act)
        self._legal = None

    @property
    def over(self) -> bool:
        """Whether the deal has ended (played out, or thrown in)."""
        return self.state.phase in _OVER
