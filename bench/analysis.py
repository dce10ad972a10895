"""Benchmark: the double-dummy review of four-hand deals beside the plain minimax of the
tests (tests/support/minimax.py), on one core, in the same run.

Not a test: nothing in the test suite depends on timing. Run it from the repository root:

    python bench/analysis.py                 # 40 deals reviewed, 3 of them by minimax too
    python bench/analysis.py --deals 200 --minimax-deals 5

The deals are random legal four-hand games (24 cards) of euchrelog's own generator, with a
fixed seed. Measured, each the best of --repeat runs:

- review: ``review_game`` of every deal, every play's every legal card and the par table
  (and without the par table);
- solve: the makers' tricks from the opening lead, by the solver and by the minimax;
- minimax review: every play's every legal card by the minimax (no par table: with one it
  would take minutes a deal; its cost is given as the number of opening solves it needs
  times the minimax's time for one).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from euchrelog.analysis import DealReview, Solver, review_game  # noqa: E402
from euchrelog.cards import Card, trick_winner  # noqa: E402
from euchrelog.generate import random_game, ruleset_for  # noqa: E402
from euchrelog.models import Game  # noqa: E402
from euchrelog.seats import Seat  # noqa: E402
from support.minimax import legal_cards, minimax  # noqa: E402


def deals(count: int, seed: int) -> list[Game]:
    """Games of one full four-hand deal each (a deal thrown in is not kept)."""
    rng = random.Random(seed)
    rules = ruleset_for("four-hand")
    out: list[Game] = []
    while len(out) < count:
        game = random_game(rng, rules, stop_after=1)
        if game.deals and game.deals[0].tricks:
            out.append(game)
    return out


def best(repeat: int, work: Callable[[], object]) -> float:
    """The best time of ``repeat`` runs of ``work``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def minimax_review(review: DealReview) -> int:
    """Every legal card of every play valued by the minimax; returns the values found."""
    makers = frozenset(review.makers)
    hands = {s: list(h) for s, h in review.hands.items()}
    leader, count = review.leader, 0
    trick: list[tuple[Seat, Card]] = []
    size = len(review.seats)
    for play in review.plays:
        turn = play.seat
        for card in legal_cards(hands[turn], trick, review.trump):
            rest = {**hands, turn: [c for c in hands[turn] if c is not card]}
            played = [*trick, (turn, card)]
            if len(played) == size:
                winner = played[trick_winner([c for _, c in played], review.trump)][0]
                minimax(review.trump, review.seats, makers, rest, winner)
            else:
                minimax(review.trump, review.seats, makers, rest, leader, played)
            count += 1
        hands[turn] = [c for c in hands[turn] if c is not play.card]
        trick.append((turn, play.card))
        if len(trick) == size:
            leader = trick[trick_winner([c for _, c in trick], review.trump)][0]
            trick = []
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--minimax-deals", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    games = deals(args.deals, args.seed)
    with_par = best(args.repeat, lambda: [list(review_game(g)) for g in games])
    no_par = best(args.repeat, lambda: [list(review_game(g, par=False)) for g in games])
    reviews = [r for g in games for r in review_game(g) if isinstance(r, DealReview)]
    n = len(reviews)
    par_entries = sum(len(r.par) for r in reviews) / n
    print(f"{n} four-hand deals (24 cards), best of {args.repeat}:")
    print(f"  review, every play and the par table: {with_par / n * 1000:7.1f} ms a deal "
          f"({par_entries:.0f} par entries)")
    print(f"  review, every play, no par table:     {no_par / n * 1000:7.1f} ms a deal")

    def solve_all() -> None:
        for r in reviews:
            Solver(r.trump, r.seats, r.makers).solve(r.hands, r.leader)
    solve = best(args.repeat, solve_all) / n
    sample = reviews[:args.minimax_deals]
    slow = []
    for r in sample:
        start = time.perf_counter()
        minimax(r.trump, r.seats, frozenset(r.makers), {s: list(h) for s, h in r.hands.items()},
                r.leader)
        slow.append(time.perf_counter() - start)
    plain = sum(slow) / len(slow)
    print(f"  solve from the opening lead: solver {solve * 1000:.2f} ms, minimax "
          f"{plain:.2f} s ({len(sample)} deals): {plain / solve:,.0f}x")
    start = time.perf_counter()
    cards = sum(minimax_review(r) for r in sample)
    review_plain = (time.perf_counter() - start) / len(sample)
    solver_review = no_par / n
    print(f"  review without par: solver {solver_review * 1000:.1f} ms, minimax "
          f"{review_plain:.2f} s ({cards / len(sample):.0f} cards valued a deal): "
          f"{review_plain / solver_review:,.0f}x")
    print(f"  review with par against one minimax solve from the opening lead: "
          f"{plain / (with_par / n):,.0f}x")
    estimate = review_plain + par_entries * plain
    print(f"  review with par: solver {with_par / n * 1000:.1f} ms, minimax at least "
          f"{estimate:.0f} s (its review, plus one opening solve a par entry): "
          f"{estimate / (with_par / n):,.0f}x")


if __name__ == "__main__":
    main()
