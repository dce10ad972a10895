"""A Gymnasium single-agent environment: one seat is the agent, the other seats are played
by given players (:mod:`euchrelog.players`; random by default)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium

from ..players import Player, RandomPlayer
from .aec import EuchreEnv, Observation


class EuchreGymEnv(gymnasium.Env[Observation, int]):
    """A game of euchre from one seat, the others played by ``players``.

    :param seat: the agent's seat (default: the first seat of the variant).
    :param players: the player of each other seat, by its letter, or one player for them
        all (default: a :class:`~euchrelog.players.RandomPlayer` each).
    :param variant, rules, deals, render_mode: as :class:`~.aec.EuchreEnv`.

    An action is a number the observation's ``action_mask`` allows; the reward of a step
    is what the agent's seat was rewarded since its last decision (its side's points less
    the other sides' mean at the end of each deal).
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(self, variant: str = "four-hand", rules: str = "", *,
                 seat: str | None = None,
                 players: Mapping[str, Player] | Player | None = None,
                 deals: int | None = None, render_mode: str | None = None) -> None:
        self.game = EuchreEnv(variant, rules, deals, render_mode)
        self.seat = seat or self.game.possible_agents[0]
        if self.seat not in self.game.possible_agents:
            raise ValueError(f"{self.seat} has no seat in {variant} "
                             f"(the seats are {' '.join(self.game.possible_agents)})")
        others = [a for a in self.game.possible_agents if a != self.seat]
        if players is None:
            self.players: dict[str, Player] = {a: RandomPlayer(k) for k, a in enumerate(others)}
        elif isinstance(players, Mapping):
            self.players = {a: players[a] for a in others}
        else:
            self.players = dict.fromkeys(others, players)
        self.observation_space = self.game.observation_space(self.seat)
        self.action_space = self.game.action_space(self.seat)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """Starts a game and plays the other seats up to the agent's first decision."""
        super().reset(seed=seed)
        self.game.reset(seed=seed)
        if seed is not None:
            for k, player in enumerate(self.players.values()):
                reset = getattr(player, "reset", None)
                if callable(reset):
                    reset(seed + k + 1)
        self._others()
        return self.game.observe(self.seat), {}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Makes the agent's answer, then the other seats' up to its next decision.

        :raises ValueError: for a number the action mask does not allow.
        """
        reward = self._make(int(action)) + self._others()
        over = self.game.terminations[self.seat]
        info = self.game.infos[self.seat] if over else {}
        return self.game.observe(self.seat), reward, over, False, info

    def _make(self, number: int) -> float:
        self.game.step(number)
        return float(self.game.rewards[self.seat])

    def _others(self) -> float:
        """Plays the other seats until the agent is to decide or the game is over."""
        reward = 0.0
        game = self.game
        while not game.terminations[self.seat] and game.agent_selection != self.seat:
            decision = game.decision()
            assert decision is not None
            reward += self._make(self.players[decision.seat.value].choose(decision))
        return reward

    def render(self) -> str | None:
        """As :meth:`EuchreEnv.render <.aec.EuchreEnv.render>`."""
        return self.game.render()


__all__ = ["EuchreGymEnv"]
