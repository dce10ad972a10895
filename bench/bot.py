"""Benchmark: random legal play through the per-act API, beside OpenSpiel's C++ euchre.

Not a test: nothing in the test suite depends on timing. Each player plays random legal
deals to the end, choosing uniformly among the legal acts, and the measure is player acts
a second (bids, exchanges, declarations and plays; the deal itself is not counted, but
its time is):

- ``models``: ``random.choice(state.legal_actions())``, then ``state.do(act)``;
- ``ids``: ``random.choice(state.legal_action_ids())``, then ``state.do_id(number)``;
- ``pyspiel``: OpenSpiel's ``euchre`` (C++) through pyspiel, chance nodes dealt at random
  (``pip install '.[openspiel]'``; left out when it is not installed).

euchrelog plays four-hand under OpenSpiel's defaults (stick-the-dealer, no lone
defender), so the two play the same game. The players run ``--repeat`` times,
interleaved, and the best run counts (the machine may be shared)::

    python bench/bot.py                   # 2000 deals each, best of 5
    python bench/bot.py --deals 500 --repeat 3 --variants
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable

from euchrelog.engine import Phase
from euchrelog.generate import new_deal, ruleset_for
from euchrelog.rules import VARIANTS, Ruleset

OVER = (Phase.DONE, Phase.THROWN)
"""The phases a deal ends in."""

Player = Callable[[int, int], int]
"""Plays ``deals`` random deals from a seed; returns the player acts made."""


def models_player(ruleset: Ruleset) -> Player:
    """Random legal play through ``legal_actions()`` and ``do()``."""

    def play(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        acts = 0
        seats = ruleset.seats
        for k in range(deals):
            state = new_deal(rng, ruleset, seats[k % len(seats)])
            while state.phase not in OVER:
                state.do(rng.choice(state.legal_actions()))
                acts += 1
        return acts

    return play


def ids_player(ruleset: Ruleset) -> Player:
    """Random legal play through ``legal_action_ids()`` and ``do_id()``."""

    def play(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        acts = 0
        seats = ruleset.seats
        for k in range(deals):
            state = new_deal(rng, ruleset, seats[k % len(seats)])
            while state.phase not in OVER:
                state.do_id(rng.choice(state.legal_action_ids()))
                acts += 1
        return acts

    return play


def pyspiel_player() -> Player | None:
    """Random legal play of OpenSpiel's C++ euchre, or ``None`` without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")

    def play(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        acts = 0
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    acts += 1
        return acts

    return play


def measure(players: dict[str, Player], deals: int, repeat: int) -> dict[str, float]:
    """The best acts a second of each player over ``repeat`` interleaved runs.

    As ``bench/run.py`` does (and the CLI), what was made before the runs is frozen out of
    the garbage collector's sight first (:func:`gc.freeze`), for every player alike.
    """
    gc.collect()
    gc.freeze()
    best = dict.fromkeys(players, 0.0)
    for run in range(repeat):
        for name, play in players.items():
            start = time.process_time()
            acts = play(deals, run + 1)
            best[name] = max(best[name], acts / (time.process_time() - start))
    return best


def main() -> None:
    """Runs the benchmark and prints acts a second, and the ratio to pyspiel."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals a run (2000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each player (5)")
    parser.add_argument("--variants", action="store_true",
                        help="also every variant under its default rules, euchrelog alone")
    args = parser.parse_args()
    matched = ruleset_for(stick_the_dealer=True, lone_defender=False)
    players: dict[str, Player] = {"models": models_player(matched),
                                  "ids": ids_player(matched)}
    spiel = pyspiel_player()
    if spiel is not None:
        players["pyspiel"] = spiel
    best = measure(players, args.deals, args.repeat)
    print(f"four-hand, {args.deals} random deals a run, best of {args.repeat}")
    for name, rate in best.items():
        ratio = ""
        if spiel is not None and name != "pyspiel":
            ratio = f"  1/{best['pyspiel'] / rate:.1f} of pyspiel"
        print(f"  {name:8} {rate:>10,.0f} acts/s{ratio}")
    if spiel is None:
        print("  (pyspiel is not installed: pip install '.[openspiel]')")
    if args.variants:
        for variant in VARIANTS:
            ruleset = ruleset_for(variant)
            rates = measure({"models": models_player(ruleset), "ids": ids_player(ruleset)},
                            args.deals, args.repeat)
            print(f"  {variant.name:10} models {rates['models']:>9,.0f}  ids {rates['ids']:>9,.0f}"
                  " acts/s")


if __name__ == "__main__":
    main()
