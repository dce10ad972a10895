"""Where the time of `euchrelog check` goes, stage by stage, in microseconds a deal.

Not a test. Run it from a checkout (`pip install -e .`):

    python bench/profile.py                 # 0.5 MB of four-hand records, best of 5
    python bench/profile.py --megabytes 2

It times each stage of both paths on the same games, as written by the generator and as a
person types them (tests/support/records.py `respell`): reading the notation into the JSON form
(:func:`~euchrelog.notation.read_game`), the fast path's replay of that form
(:mod:`euchrelog.fast`: the game loop and :class:`~euchrelog.engine.DealState`'s bulk
entry), from notation and from JSON Lines, and the full path (the pydantic models of every
line, replayed with their source map) that every game the fast path declines goes
through.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from euchrelog.check import Chunk, check_chunk
from euchrelog.fast import replay_form, replay_game
from euchrelog.notation import GameForm, read_game, split_games, validate_form
from euchrelog.notation.jsonio import parse_game_json
from euchrelog.replay import replay

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import euchre_corpus, kind_corpus


def best(work: Callable[[], object], repeat: int) -> float:
    """The best wall time of ``repeat`` runs, in seconds, each after a full garbage
    collection (so that one stage does not pay for the garbage of the one before)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=0.5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    text, lines, deals = euchre_corpus(int(args.megabytes * 1_000_000))
    typed, typed_deals = kind_corpus(int(args.megabytes * 1_000_000), "hand-typed")
    rows = lines.splitlines()
    games = [json.loads(r) for r in rows]
    stages: list[tuple[str, Callable[[], object], int]] = [
        ("split the text into games", lambda: list(split_games(io.StringIO(text))), deals),
        ("JSON: json.loads", lambda: [json.loads(r) for r in rows], deals),
        ("JSON: fast replay", lambda: [replay_game(g) for g in games], deals),
        ("JSON: whole check, JSON Lines",
         lambda: [check_chunk(Chunk(1, 1, r, None, json=True)) for r in rows], deals),
        ("full: JSON through pydantic", lambda: [parse_game_json(r) for r in rows], deals),
    ]
    for name, corpus, count in (("canonical", text, deals), ("hand-typed", typed, typed_deals)):
        chunks = [t for _, t in split_games(io.StringIO(corpus))]
        forms = [f for f in (read_game(c) for c in chunks) if isinstance(f, GameForm)]
        models = [validate_form(f.form) for f in forms]
        stages += [
            (f"{name}: read into the JSON form", lambda c=chunks: [read_game(x) for x in c],
             count),
            (f"{name}: fast replay", lambda f=forms: [replay_form(x) for x in f], count),
            (f"{name}: whole check", lambda c=chunks: [check_chunk(Chunk(1, 1, x, None))
                                                      for x in c], count),
            (f"{name}: models from the form", lambda f=forms: [validate_form(x.form)
                                                              for x in f], count),
            (f"{name}: full replay (DealState)", lambda m=models: [replay(g) for g in m],
             count),
            (f"{name}: whole check, full path", lambda c=chunks: [
                check_chunk(Chunk(1, 1, x, None), fast=False) for x in c], count),
        ]
    # The inputs above stay alive through every stage: out of the collector's sight, as a
    # check that reads game by game holds no such heap.
    gc.freeze()
    print(f"{len(text) / 1e6:.2f} MB, {deals} deals; "
          f"best of {args.repeat} runs")
    print(f"{'stage':44} {'us/deal':>8}")
    for name, work, count in stages:
        print(f"{name:44} {best(work, args.repeat) / count * 1e6:8.1f}")


if __name__ == "__main__":
    main()
