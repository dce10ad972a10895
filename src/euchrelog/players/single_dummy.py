"""The single-dummy player: at each card it plays, it draws layouts of the cards it cannot
see (the review's sampler, :class:`~euchrelog.analysis.sampler.Layouts`), plays each out
under perfect play (the review's solver) and plays the card of best mean; its bids, its
discard and its declarations are the rule-based player's (docs/players.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..acts import Play
from ..analysis.sampler import Layouts, UnsupportedError
from ..analysis.solver import Solver
from ..cards import Card, Trump, cards_of
from ..engine import DealState, Phase, lineup
from ..seats import Seat
from .rules import RuleBasedPlayer
from .view import Decision

SAMPLES = 16
"""Layouts drawn for each card the player chooses (all of them when there are fewer)."""


class SingleDummyPlayer:
    """Plays the card whose mean over the layouts it cannot see is best for its side, each
    layout played out double dummy; every other decision is the rule-based player's."""

    def __init__(self, samples: int = SAMPLES, seed: int = 0) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples
        self.rng = random.Random(seed)
        self.rules = RuleBasedPlayer()
        self.solvers: dict[tuple[Trump, tuple[Seat, ...], tuple[Seat, ...]], Solver] = {}

    def reset(self, seed: int) -> None:
        """Seeds the layouts drawn in the next game."""
        self.rng.seed(seed)

    def choose(self, decision: Decision) -> int:
        """The number of the card of best mean, or the rule-based player's choice for a
        decision that is not a choice of card."""
        plays: dict[Card, int] = {}
        for number in decision.actions:
            act = decision.act(number)
            if not isinstance(act, Play) or act.card is None:
                return self.rules.choose(decision)
            plays[act.card] = number
        if len(plays) == 1:
            return next(iter(plays.values()))
        means = self.means(decision.state, decision.seat)
        if means is None:
            return self.rules.choose(decision)
        best = max(plays, key=lambda card: (means.get(card, float("-inf")), -card.index))
        return plays[best]

    def means(self, state: DealState, seat: Seat) -> dict[Card, float] | None:
        """Each card ``seat`` may play, with the mean over the drawn layouts of the tricks
        its side takes from here (``None`` where the sampler cannot say: a merge, a swap,
        a card the state does not know)."""
        trump = state.trump
        if trump is None or state.maker is None or state.phase not in (Phase.DECLARING,
                                                                       Phase.PLAYING):
            return None
        seats, opening = lineup(state.ruleset, state.dealer, state.maker, state.alone,
                                state.defender)
        trick: list[Card] = []
        for _, played in state.current:
            if played is None:  # (a card the state does not know)
                return None
            trick.append(played)
        leader = state.current[0][0] if state.current else state.leader or opening
        try:
            layouts = Layouts(state, seat)
        except UnsupportedError:
            return None
        solver = self._solver(trump, tuple(seats), tuple(state.makers))
        drawn = layouts.sample(self.rng, self.samples)
        totals: dict[Card, float] = {}
        for hands in drawn:
            position = solver.position({s: cards_of(hands.get(s, 0)) for s in seats}, leader,
                                       trick)
            for card, tricks in solver.values(position).items():
                totals[card] = totals.get(card, 0.0) + tricks
        makers = seat in state.makers
        return {card: (total if makers else -total) / len(drawn)
                for card, total in totals.items()}

    def _solver(self, trump: Trump, seats: Sequence[Seat], makers: Sequence[Seat]) -> Solver:
        key = (trump, tuple(seats), tuple(makers))
        solver = self.solvers.get(key)
        if solver is None:
            solver = self.solvers[key] = Solver(trump, seats, makers)
        return solver
