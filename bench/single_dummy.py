"""Benchmark: the single-dummy review of four-hand deals beside their double-dummy review,
side by side in one run, on one core (issue 41, "Speed").

Not a test: nothing in the test suite depends on timing. Run it from the repository root:

    python bench/single_dummy.py                       # 20 deals, 64 samples, exact to 64
    python bench/single_dummy.py --deals 40 --samples 128 --repeat 3

The deals are random legal four-hand games (24 cards) of euchrelog's own generator, with
the fixed seed of bench/analysis.py. Measured in CPU time (the process's, so that other
work on a shared machine counts less), each the best of --repeat runs, the runs of the
two reviews taking turns so that a change in the machine's load falls on both:

- double dummy: ``review_game`` of every deal, every play's every legal card, without the
  par table (the part of the review that single dummy multiplies) and with it;
- single dummy: the same with ``single=Settings(samples, exact_limit)``: every play's
  every legal card, and the dealer's discard, also over the layouts of the cards its seat
  cannot see.

The ratios are the measure (the machine is shared); the gate of issue 41 is single dummy
at most 32x double dummy in the pure build.

The last line is a floor: less than any review costs that solves each layout on its own.
Each play's layouts (the same draws) are solved for the card played only (not every legal
card), and each discard's for the card discarded only (not the six), each decision by a
solver of its own whose table its layouts share; the bids are left out. Its time is given
against the double-dummy play review, by the cards left in the longest hand (5: the first
trick and the discards).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis import deals

import euchrelog.analysis.review as review_module
from euchrelog.analysis import DealReview, Settings, review_game
from euchrelog.analysis.single import discard_dummy, single_dummy
from euchrelog.analysis.solver import Solver
from euchrelog.models import Game


def review_all(games: list[Game], par: bool, single: Settings | None) -> tuple[float, int]:
    """The time to review every deal of ``games``, and the plays reviewed."""
    start = time.process_time()
    plays = 0
    for game in games:
        for review in review_game(game, par=par, single=single):
            if isinstance(review, DealReview):
                plays += len(review.plays)
    return time.process_time() - start, plays


def classes(games: list[Game], single: Settings) -> dict[str, int]:
    """How many plays and discards fall in each single-dummy class."""
    out: dict[str, int] = {}
    for game in games:
        for review in review_game(game, par=False, single=single):
            if isinstance(review, DealReview):
                graded = [p.sd for p in review.plays]
                if review.exchange is not None:
                    graded.append(review.exchange.sd)
                for sd in graded:
                    if sd is not None:
                        out[sd.grade] = out.get(sd.grade, 0) + 1
    return out


def floor(games: list[Game], single: Settings) -> dict[int, float]:
    """The time to solve each play's and discard's layouts for the card played or discarded
    only (see the module's docstring), by the cards left in the longest hand."""
    plays: list[tuple[Any, ...]] = []

    def kept(solver: Solver, layouts: Any, position: Any, won: int, played: Any,
             *given: Any, **named: Any) -> Any:
        plays.append((solver, layouts, position, played))
        return single_dummy(solver, layouts, position, won, played, *given, **named)

    def discarded(solver: Solver, layouts: Any, leader: Any, discard: Any,
                  *given: Any, **named: Any) -> Any:
        plays.append((solver, layouts, (None, solver.seats.index(leader), ()), None))
        return discard_dummy(solver, layouts, leader, discard, *given, **named)

    names = review_module.__dict__  # (the review's own names for them)
    names["single_dummy"], names["discard_dummy"] = kept, discarded
    try:
        for game in games:
            for _ in review_game(game, par=False, single=single):
                pass
    finally:
        names["single_dummy"], names["discard_dummy"] = single_dummy, discard_dummy
    spent: dict[int, float] = {}
    for solver, layouts, (hands, leader, trick), played in plays:
        start = time.process_time()
        fresh = Solver(solver.trump, solver.seats,
                       [s for s, m in zip(solver.seats, solver.maker, strict=True) if m])
        if layouts.count <= single.exact_limit:
            draws = [deal for deal, _ in layouts.deals()]
        else:
            draws = layouts.sample(random.Random(0), single.samples)
        for drawn in draws:
            key = tuple(drawn[s] for s in fresh.seats)
            if played is None:  # a discard: the deal from the opening lead
                fresh.value((key, leader, ()))
            else:
                fresh.value(fresh.after((key, leader, trick), played.index))
        left = 5 if hands is None else max(h.bit_count() for h in hands)
        spent[left] = spent.get(left, 0.0) + time.process_time() - start
    return spent


def main() -> None:
    """Runs the benchmark and prints its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--exact-limit", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    games = deals(args.deals, args.seed)
    single = Settings(args.samples, args.exact_limit)
    best: dict[str, float] = {}
    plays = 0
    for _ in range(args.repeat):
        for name, par, sd in (("dd", False, None), ("sd", False, single),
                              ("dd+par", True, None), ("sd+par", True, single)):
            took, plays = review_all(games, par, sd)
            best[name] = min(best.get(name, took), took)
    module = sys.modules[review_game.__module__].__file__ or ""
    compiled = "pure" if module.endswith(".py") else "compiled"
    print(f"{args.deals} four-hand deals, {plays} plays, --samples {args.samples} "
          f"--exact-limit {args.exact_limit}, best of {args.repeat}, {compiled} build")
    print("| review | double dummy | single dummy | ratio |")
    print("|---|---:|---:|---:|")
    for label, double, single_ in (("every play, no par table", "dd", "sd"),
                                   ("every play and the par table", "dd+par", "sd+par")):
        print(f"| {label} | {best[double] * 1000 / args.deals:.1f} ms a deal | "
              f"{best[single_] * 1000 / args.deals:.1f} ms a deal | "
              f"{best[single_] / best[double]:.1f}x |")
    print("classes (plays and discards):", classes(games, single))
    spent = floor(games, single)
    by = ", ".join(f"{left} cards {took / best['dd']:.1f}x" for left, took in
                   sorted(spent.items(), reverse=True))
    print(f"floor (one solve a layout, the card played or discarded only, no bids): "
          f"{sum(spent.values()) * 1000 / args.deals:.1f} ms a deal, "
          f"{sum(spent.values()) / best['dd']:.1f}x double dummy ({by})")


if __name__ == "__main__":
    main()
