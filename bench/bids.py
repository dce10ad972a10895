"""Benchmark: what the single-dummy review of the bids adds to the single-dummy review of a
game (issue 41, item 2), on one core.

Not a test: nothing in the test suite depends on timing. Run it from the repository root:

    python bench/bids.py                        # one 20-deal four-hand game, 64 samples
    python bench/bids.py --deals 20 --samples 64 --repeat 2

The game is a random legal four-hand game (24 cards, the target raised so that it lasts
--deals deals) of euchrelog's own generator, with a fixed seed. Measured in CPU time (the
process's), each the best of --repeat runs: the double-dummy review without the par
table, the single-dummy review with the bids (``review_game(..., single=...)``), and the
time of its bid review alone (:func:`euchrelog.analysis.bidding.review_bids`, timed by a
wrapper), so that the review without the bids is the difference.
"""

from __future__ import annotations

import argparse
import random
import time

import euchrelog.analysis.review as review_module
from euchrelog.analysis import Settings, review_game
from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Game


def one_game(deals: int, seed: int) -> Game:
    """A four-hand game of ``deals`` deals (thrown-in deals among them)."""
    rng = random.Random(seed)
    rules = ruleset_for("four-hand")
    while True:
        game = random_game(rng, rules, stop_after=deals, tags={"Target": "100"})
        if len(game.deals) == deals:
            return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--exact-limit", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    game = one_game(args.deals, args.seed)
    settings = Settings(args.samples, args.exact_limit)
    spent = [0.0]
    bids = [0]
    real = review_module.review_bids

    def timed(*given, **named):  # type: ignore[no-untyped-def]
        start = time.process_time()
        found = real(*given, **named)
        spent[0] += time.process_time() - start
        bids[0] += len(found[0])
        return found

    review_module.review_bids = timed  # type: ignore[assignment]
    dd = sd = bid = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        list(review_game(game, par=False))
        dd = min(dd, time.process_time() - start)
        spent[0], bids[0] = 0.0, 0
        start = time.process_time()
        list(review_game(game, par=False, single=settings))
        total = time.process_time() - start
        if total < sd:
            sd, bid = total, spent[0]
    n = len(game.deals)
    print(f"{n} deals, {bids[0]} bids, --samples {args.samples} (a bid draws "
          f"{max(args.samples // 4, min(4, args.samples))})")
    print(f"double dummy (no par):          {dd:7.2f} s  {1000 * dd / n:8.1f} ms/deal")
    print(f"single dummy without the bids:  {sd - bid:7.2f} s  {1000 * (sd - bid) / n:8.1f} "
          "ms/deal")
    print(f"single dummy with the bids:     {sd:7.2f} s  {1000 * sd / n:8.1f} ms/deal")
    print(f"the bids alone:                 {bid:7.2f} s  {1000 * bid / n:8.1f} ms/deal  "
          f"{1000 * bid / max(bids[0], 1):6.1f} ms/bid")


if __name__ == "__main__":
    main()
