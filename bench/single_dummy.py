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
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis import deals

from euchrelog.analysis import DealReview, Settings, review_game
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


if __name__ == "__main__":
    main()
