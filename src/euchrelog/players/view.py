"""What a player is asked: :class:`Decision` (the state, the seat, the numbers it may
answer and the acts so far), and :func:`seat_view`, what the seat may know of the deal as
plain data (the JSON-lines protocol sends it, docs/players.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..acts import Call, Declaration, Exchange, Merge, Number, Play
from ..cards import sort_hand
from ..engine import Action, DealState, Phase
from ..seats import Seat
from .turns import STAND


@dataclass(frozen=True, slots=True)
class Made:
    """An act made in the deal (``None`` for a seat that stood, :data:`~.turns.STAND`)."""

    seat: Seat
    number: int
    """Its number (docs/api.md)."""
    act: Action | None


@dataclass(frozen=True, slots=True)
class Decision:
    """One question to a player: ``seat`` chooses one of ``actions`` in ``state``.

    The state is the engine's, holding every card: a player is trusted to read only what
    its seat may know (:meth:`view`), and to carry nothing of one game into the next."""

    state: DealState
    seat: Seat
    actions: tuple[int, ...]
    """The numbers the seat may answer, ascending (with :data:`~.turns.STAND` where it
    may make no act)."""
    history: Sequence[Made] = ()
    """The acts made in the deal so far, in order (the arena's own list, which grows as the
    deal goes on: copy it to keep it)."""

    def act(self, number: int) -> Action | None:
        """The act of ``number`` now (``None`` for a stand, :data:`~.turns.STAND` between
        the bidding and the lead)."""
        if number == STAND and self.state.phase is Phase.DECLARING:
            return None
        return self.state.action_of(number)

    def view(self) -> dict[str, Any]:
        """What the seat may know now (:func:`seat_view`), with the numbers it may
        answer and each in words."""
        words = [act_words(self.act(n))[0] for n in self.actions]
        return {"actions": list(self.actions), "words": words,
                **seat_view(self.state, self.seat, self.history)}


def act_words(act: Action | None) -> tuple[str, str]:
    """An act in words, as its seat knows it and as the other seats see it (the dealer's
    discard and the cards a merge keeps are the seat's own)."""
    if act is None:
        return "stand", "stand"
    if isinstance(act, Play):
        text = str(act.card)
        return text, text
    if isinstance(act, Exchange):
        if act.act == "declines":
            return "declines", "declines"
        up = f"takes {act.upcard}" if act.upcard is not None else "takes"
        return f"{up} discards {act.discard}", up
    if isinstance(act, Merge):
        keeps = " ".join(str(c) for c in act.keeps or ())
        return (f"merge keeps {keeps}" if keeps else "merge"), "merge"
    if isinstance(act, Declaration):
        return act.act, act.act
    if isinstance(act, Call):
        return f"call {act.suit}", f"call {act.suit}"
    if isinstance(act, Number):
        return f"bid {act.tricks}", f"bid {act.tricks}"
    return act.act, act.act


def seat_view(state: DealState, seat: Seat, history: Sequence[Made] = ()) -> dict[str, Any]:
    """What ``seat`` may know of the deal: its hand, the upcard, the dealer, trump, the
    makers and lone hands, the acts so far (another seat's discard and merge not named)
    and the cards played, trick by trick."""
    hand = sort_hand(state.hands[seat].cards) if seat in state.hands else []
    return {
        "seat": seat.value,
        "variant": state.variant.name,
        "dealer": state.dealer.value,
        "phase": state.phase.value,
        "hand": [str(c) for c in hand],
        "upcard": str(state.upcard) if state.upcard is not None else None,
        "trump": str(state.trump) if state.trump is not None else None,
        "maker": state.maker.value if state.maker is not None else None,
        "alone": state.alone.value if state.alone is not None else None,
        "defender": state.defender.value if state.defender is not None else None,
        "history": [[m.seat.value, act_words(m.act)[0 if m.seat == seat else 1]]
                    for m in history],
        "tricks": [[[s.value, str(c)] for s, c in trick] for trick in state.tricks],
        "trick": [[s.value, str(c)] for s, c in state.current],
    }
