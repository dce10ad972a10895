"""Benchmark: random play through the PettingZoo environment, beside the bare engine.

Not a test: nothing in the test suite depends on timing. Both play random legal acts in
deals of the same variant (``pip install '.[env]'``), and the measure is acts a second:

- ``bare``: ``random.choice(state.legal_action_ids())`` then ``state.do_id(number)`` on a
  :class:`~euchrelog.engine.DealState` from :func:`~euchrelog.generate.new_deal`;
- ``env``: :class:`euchrelog.env.EuchreEnv` as a learning loop drives it: for each agent
  selected, ``last()`` (its observation vector and action mask), a random number the mask
  allows, ``step()``; games of ``deals`` deals.

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

import numpy as np
from bot import ids_player  # (bench/, the script's own folder)

from euchrelog.env import EuchreEnv
from euchrelog.generate import ruleset_for

GAME = 10
"""Deals a game (an episode) of the environment."""


def bare(variant: str, deals: int) -> int:
    """Random play of ``deals`` deals on the engine alone (``bench/bot.py``'s ids player);
    returns the acts made."""
    return ids_player(ruleset_for(variant))(deals, 1)


def through_env(variant: str, deals: int) -> int:
    """Random play of ``deals`` deals through the environment; returns the steps."""
    env = EuchreEnv(variant, deals=GAME)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--variant", default="four-hand")
    args = parser.parse_args()
    best = {"bare": 0.0, "env": 0.0}
    for _ in range(args.repeat):
        for name, way in (("bare", bare), ("env", through_env)):
            gc.collect()
            start = time.process_time()
            acts = way(args.variant, args.deals)
            best[name] = max(best[name], acts / (time.process_time() - start))
    for name, rate in best.items():
        print(f"{name:5} {rate:9.0f} acts/s  1/{best['bare'] / rate:.2f} of bare")


if __name__ == "__main__":
    main()
