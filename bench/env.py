"""Benchmark: random play through the PettingZoo environment, beside the bare engine and,
where pyspiel is installed, OpenSpiel's C++ euchre (issue 43: the environment at 1/4 of
OpenSpiel's random play or better).

Not a test: nothing in the test suite depends on timing. Every side plays random legal
acts in deals of the same game, and the measure is acts a second:

- ``bare``: ``random.choice(state.legal_action_ids())`` then ``state.do_id(number)`` on a
  :class:`~euchrelog.engine.DealState` from :func:`~euchrelog.generate.new_deal`
  (``bench/bot.py``'s ids player);
- ``env``: :class:`euchrelog.env.EuchreEnv` as a learning loop drives it: for each agent
  selected, ``last()`` (its observation vector and action mask), a random number the mask
  allows, ``step()``; games of ``deals`` deals (``pip install '.[env]'``);
- ``pyspiel``: OpenSpiel's ``euchre`` through pyspiel, chance nodes dealt at random, no
  observation asked (``bench/bot.py``'s pyspiel player);
- ``pyspiel-env``: OpenSpiel's own environment (``open_spiel.python.rl_environment``),
  which hands each step its information state tensor and legal actions, as ``env`` does.

The pyspiel sides are left out when ``pyspiel`` does not import (``pip install
'.[openspiel]'``; a throwaway venv with ``open_spiel`` and euchrelog's dependencies, run
with ``PYTHONPATH=src``, will do). In four-hand, euchrelog plays under OpenSpiel's defaults
(stick-the-dealer, no lone defender), so that every side plays the same game.

The runs are interleaved ``--repeat`` times and the best counts, in the process's CPU
time (the machine may be shared: the time waited for a core is not counted)::

    python bench/env.py                    # 2000 deals, best of 3
    python bench/env.py --variant cutthroat --deals 500
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable

import numpy as np
from bot import ids_player, pyspiel_player  # (bench/, the script's own folder)

from euchrelog.env import EuchreEnv

GAME = 10
"""Deals a game (an episode) of the environment."""
MATCHED = "stick-the-dealer no-lone-defender"
"""The house rules that make four-hand OpenSpiel's game."""

Side = Callable[[int], int]
"""Plays ``deals`` random deals; returns the acts made."""


def bare(variant: str, rules: str) -> Side:
    """Random play on the engine alone (``bench/bot.py``'s ids player)."""
    ruleset = EuchreEnv(variant, rules).ruleset
    return lambda deals: ids_player(ruleset)(deals, 1)


def through_env(variant: str, rules: str) -> Side:
    """Random play through the environment."""

    def play(deals: int) -> int:
        env = EuchreEnv(variant, rules, deals=GAME)
        rng = random.Random(1)
        steps = 0
        for game in range(deals // GAME):
            env.reset(seed=game)
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps

    return play


def spiel_env() -> Side | None:
    """Random play through OpenSpiel's ``rl_environment``, or ``None`` without it."""
    try:
        from open_spiel.python import rl_environment  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None

    def play(deals: int) -> int:
        env = rl_environment.Environment("euchre")
        rng = random.Random(1)
        steps = 0
        for _ in range(deals):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                legal = step.observations["legal_actions"][player]
                step = env.step([legal[rng.randrange(len(legal))]])
                steps += 1
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--variant", default="four-hand")
    args = parser.parse_args()
    rules = MATCHED if args.variant == "four-hand" else ""
    sides: dict[str, Side] = {"bare": bare(args.variant, rules),
                              "env": through_env(args.variant, rules)}
    spiel = pyspiel_player() if args.variant == "four-hand" else None
    if spiel is not None:
        sides["pyspiel"] = lambda deals: spiel(deals, 1)
        other = spiel_env()
        if other is not None:
            sides["pyspiel-env"] = other
    best = dict.fromkeys(sides, 0.0)
    for _ in range(args.repeat):
        for name, play in sides.items():
            gc.collect()
            start = time.process_time()
            acts = play(args.deals)
            best[name] = max(best[name], acts / (time.process_time() - start))
    print(f"{args.variant} {rules}, {args.deals} random deals a run, best of {args.repeat}")
    for name, rate in best.items():
        line = f"  {name:12} {rate:9.0f} acts/s  1/{best['bare'] / rate:.2f} of bare"
        if "pyspiel" in best:
            line += f"  1/{best['pyspiel'] / rate:.2f} of pyspiel"
        print(line)
    if "pyspiel" not in best:
        print("  (pyspiel is not installed, or the variant is not four-hand: pip install "
              "'.[openspiel]')")


if __name__ == "__main__":
    main()
