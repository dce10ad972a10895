"""The PettingZoo AEC environment: a game of any variant, one decision at a time.

The agents are the seats (``"N"``, ``"E"``, ...); an action is a number of the table of
acts (docs/api.md, 0 to 337), among those the action mask allows (between the bidding and
the lead a seat may also answer 67, :data:`~euchrelog.players.STAND`, to make no act). An
episode is a game: deal after deal (the dealer turning as the rules say) until it is won,
or for ``deals`` deals. At the end of each deal every seat is rewarded its side's points
less the mean of the other sides' points.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import ACTION_COUNT
from ..engine import Phase
from ..generate.deal import shuffle_deal
from ..models import Game
from ..players import STAND, Decision, Table
from ..recorder import DealCards, RecordedGame, Recorder
from ..rules import Ruleset
from ..seats import Seat
from .observation import PERM, SIZE, Observer, mask_of

Observation = dict[str, npt.NDArray[Any]]


class EuchreEnv(AECEnv):  # type: ignore[misc]  # (PettingZoo is not typed)
    """A game of euchre as a PettingZoo AEC environment.

    :param variant: the variant, by name.
    :param rules: house rules, as a ``Rules`` tag writes them.
    :param deals: end the episode after this many deals (default: play to the target).
    :param render_mode: ``ansi`` (``render()`` returns the deal in words) or ``human``
        (prints it).
    :raises IllegalActionError: for a variant or rules that make no game.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "euchre_v0",
                                          "is_parallelizable": False}

    def __init__(self, variant: str = "four-hand", rules: str = "", deals: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.header = Recorder(variant, rules=rules).tags
        self.ruleset: Ruleset = RecordedGame(self.header).ruleset
        self.deals = deals
        self.render_mode = render_mode
        self.possible_agents = [seat.value for seat in self.ruleset.seats]
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}
        self.rng = random.Random()
        self.game = RecordedGame(self.header)
        self.totals = self.game.totals
        """The game's running totals, by side (kept: a deal changes them)."""
        self.table: Table | None = None
        self.observer: Observer | None = None
        """Every seat's observation of the deal, kept up to date act by act."""
        self.seat_of = {a: Seat(a) for a in self.possible_agents}
        self.agent_of = {seat: a for a, seat in self.seat_of.items()}
        self.side_of = {a: self.ruleset.side(seat) for a, seat in self.seat_of.items()}
        self._paid = False  # (whether the last step rewarded the agents)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of an agent's observations: the vector and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The numbers of the table of acts (all of them; the mask says which are legal)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (``seed`` seeds its shuffles)."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False
        self.game = RecordedGame(self.header)
        self.totals = self.game.totals
        self._deal()

    def _deal(self) -> None:
        ruleset = self.ruleset
        dealer = self.game.dealer or ruleset.seats[0]
        dealt = shuffle_deal(self.rng, ruleset, dealer)
        cards = DealCards(self.game.deals + 1, dealer,
                          {s: tuple(h) for s, h in dealt.hands.items()}, dealt.upcard,
                          tuple(dealt.kitty) if dealt.kitty is not None else None,
                          tuple(dealt.extra) if dealt.extra is not None else None)
        self.table = table = Table(ruleset, cards)
        self.observer = Observer(table, self.totals, ruleset.options.target)
        self._select()

    def _select(self) -> None:
        assert self.table is not None
        turn = self.table.turn()
        if turn is not None:
            self.agent_selection = self.agent_of[turn.seat]

    def observe(self, agent: str) -> Observation:
        """What the seat ``agent`` may know now, and the numbers it may answer."""
        table, observer = self.table, self.observer
        assert table is not None and observer is not None
        seat = self.seat_of[agent]
        turn = table.turn()
        return {"observation": observer.vector.take(PERM[seat]),
                "action_mask": mask_of(turn.actions if turn is not None and turn.seat is seat
                                       else ())}

    def decision(self) -> Decision | None:
        """The question to the agent selected, for a player (:mod:`euchrelog.players`)."""
        return self.table.decision() if self.table is not None else None

    def step(self, action: int | None) -> None:
        """Makes the selected agent's answer ``action``.

        :raises ValueError: for a number the action mask does not allow.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table, observer = self.table, self.observer
        assert table is not None and observer is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # (PettingZoo's _clear_rewards: only the end of a deal pays)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        number = int(action)
        state = table.state
        phase, round_ = state.phase, state.round
        turn = table.turn()
        table.make(number)
        if turn is not None and not (number == STAND and phase is Phase.DECLARING):
            observer.made(turn.seat, number, phase, round_)
        if table.over:
            self._score(table)
            self._accumulate_rewards()
        else:
            self._select()
        if self.render_mode == "human":
            print(self.render())

    def _score(self, table: Table) -> None:
        """Rewards the seats for a finished deal, and deals the next or ends the game."""
        game = self.game
        game.add_played(table.deal)
        self.totals = game.totals
        points = table.deal.points or {}
        sides = self.ruleset.side_names
        total = sum(points.get(s, 0) for s in sides)
        for agent in self.agents:
            own = points.get(self.side_of[agent], 0)
            self.rewards[agent] = float(own - (total - own) / (len(sides) - 1))
        self._paid = True
        if game.over or (self.deals is not None and game.deals >= self.deals):
            self.terminations = dict.fromkeys(self.agents, True)
            winner = game.winner
            for agent in self.agents:
                self.infos[agent] = {"totals": self.totals, "winner": winner}
        else:
            self._deal()

    def render(self) -> str | None:
        """The deal in words (``ansi``), or ``None`` without a render mode."""
        if self.render_mode is None or self.table is None:
            return None
        state = self.table.state
        trick = "  ".join(f"{s}: {c}" for s, c in state.current)
        totals = " ".join(f"{s} {n}" for s, n in self.totals.items())
        return (f"deal {self.table.deal.cards.number} dealer {state.dealer}, "
                f"{state.phase.value}, trump {state.trump or '-'}, maker {state.maker or '-'}"
                f"; trick {len(state.tricks) + 1}: {trick or '-'}; score {totals}")

    def record(self) -> Game:
        """The record of the deals finished so far."""
        return self.game.model()

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> EuchreEnv:
    """An :class:`EuchreEnv` (PettingZoo's name for the maker of an environment)."""
    return EuchreEnv(**kwargs)
