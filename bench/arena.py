"""Benchmark: the arena's overhead over the bare engine loop of the same deals (issue 43:
at most 2x).

Not a test: nothing in the test suite depends on timing. Both sides play the same boards
(the arena's shuffles, every board once per seating: two games a board in four-hand) with
random players:

- ``bare``: the engine alone, ``random.choice(state.legal_action_ids())`` then
  ``state.do_id(number)`` on a :class:`~euchrelog.engine.DealState` of the board's cards;
- ``arena``: :func:`euchrelog.arena.run` with ``random`` players (turns, decisions, every
  act made by the engine's ``do_id``, the points and the rating table), as the command runs
  without ``--games``;
- ``games``: the same, the record of every game kept
  (:meth:`~euchrelog.recorder.RecordedGame.add_played`) and written as notation
  (:func:`~euchrelog.notation.writer.dumps_game`), as with ``--games``.

The runs are interleaved ``--repeat`` times and the best counts, in the process's CPU
time (the machine may be shared: the time waited for a core is not counted)::

    python bench/arena.py                    # 1000 boards, best of 5
    python bench/arena.py --boards 300 --variant cutthroat
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import time
from dataclasses import replace

from euchrelog.arena import BoardResult, Setup, run
from euchrelog.engine import DealState, Phase
from euchrelog.generate.deal import shuffle_deal
from euchrelog.notation.writer import dumps_game

OVER = (Phase.DONE, Phase.THROWN)


def bare(setup: Setup, boards: int) -> int:
    """Plays the boards' games through the engine alone; returns the acts made."""
    ruleset = setup.recorder().ruleset
    seats = ruleset.seats
    games = len(setup.players) if setup.duplicate else 1
    acts = 0
    for board in range(1, boards + 1):
        dealer = seats[(board - 1) % len(seats)]
        dealt = shuffle_deal(random.Random(setup.seed * 1_000_003 + board), ruleset, dealer)
        for game in range(games):
            rng = random.Random(board * 8 + game)
            state = DealState(ruleset, dealer, hands=dealt.hands, upcard=dealt.upcard,
                              kitty=dealt.kitty, extra=dealt.extra)
            while state.phase not in OVER:
                state.do_id(rng.choice(state.legal_action_ids()))
                acts += 1
    return acts


def arena(setup: Setup, boards: int) -> int:
    """Plays the match through the arena; returns the games."""
    return run(replace(setup, record=False), boards).games


def games(setup: Setup, boards: int) -> int:
    """Plays the match through the arena, every game written; returns the games."""
    out = io.StringIO()

    def write(result: BoardResult) -> None:
        for game in result.games:
            out.write(dumps_game(game))

    return run(replace(setup, record=True), boards, each=write).games


def timed(work: object, *args: object) -> float:
    gc.collect()
    start = time.process_time()
    work(*args)  # type: ignore[operator]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variant", default="four-hand")
    args = parser.parse_args()
    sides = 2 if args.variant in ("four-hand", "two-hand") else 3
    setup = Setup(("random",) * sides, args.variant, seed=1)
    ways = {"bare": bare, "arena": arena, "games": games}
    best = dict.fromkeys(ways, float("inf"))
    for _ in range(args.repeat):
        for name, way in ways.items():
            best[name] = min(best[name], timed(way, setup, args.boards))
    played = args.boards * sides
    for name, seconds in best.items():
        print(f"{name:6} {seconds:7.3f} s  {played / seconds:8.0f} games/s  "
              f"{seconds / best['bare']:.2f}x bare")
    print("target: the arena at most 2x the bare loop")


if __name__ == "__main__":
    main()
