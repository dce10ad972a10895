"""The player protocol (:class:`Player`), the fault a player is charged with
(:class:`PlayerError`), and the random player."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .view import Decision


@runtime_checkable
class Player(Protocol):
    """Anything that answers a :class:`~.view.Decision` with one of its numbers.

    A player may also have ``reset(seed: int)``, called before every game (to seed its
    randomness, so that a match gives the same games however it is split into processes),
    and ``close()``, called once at the end of the match."""

    def choose(self, decision: Decision) -> int:
        """One of ``decision.actions``."""
        ...


class PlayerError(Exception):
    """A player that failed to answer: ``kind`` is ``crash``, ``timeout`` or ``illegal``
    (an answer not among the numbers offered, or not a number)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class RandomPlayer:
    """Chooses among the numbers offered at random, evenly (seeded: the same seed, the same
    choices)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        """Seeds the choices of the next game."""
        self.rng.seed(seed)

    def choose(self, decision: Decision) -> int:
        """A number of ``decision.actions``, at random."""
        return self.rng.choice(decision.actions)
