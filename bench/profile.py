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
through. Last, the canonical fast replay part by part: the models the game loop reads,
its set-up, each deal's state, the bulk entry, the rest of a deal (the form's strings into
cards and acts, the points and the result) and the rest of the loop.
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

from euchrelog import fast
from euchrelog.check import Chunk, check_chunk
from euchrelog.engine import DealState
from euchrelog.fast import replay_form, replay_game
from euchrelog.models import Game
from euchrelog.notation import GameForm, read_game, split_games, validate_form
from euchrelog.notation.jsonio import parse_game_json
from euchrelog.replay import GameReplay, replay

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
    canonical = [f for f in (read_game(c) for _, c in split_games(io.StringIO(text)))
                 if isinstance(f, GameForm)]
    print("\nthe canonical fast replay, part by part (each part with what it calls; every "
          "timed call\ncosts about 0.3 us more):")
    spent = dict(parts(lambda: [replay_form(x) for x in canonical], args.repeat))
    rows = [
        ("a game, all of it", spent["game"]),
        ("  the models of what the loop reads", spent["models"]),
        ("  the game loop's set-up", spent["set-up"]),
        ("  a deal from the form", spent["deal"]),
        ("    the state of the deal", spent["state"]),
        ("    the bulk entry: acts and tricks", spent["run"]),
        ("    the rest: cards and acts, points, result",
         spent["deal"] - spent["state"] - spent["run"]),
        ("  the rest: the game loop",
         spent["game"] - spent["models"] - spent["set-up"] - spent["deal"]),
    ]
    for name, seconds in rows:
        print(f"  {name:46} {seconds / deals * 1e6:8.1f}")


PARTS: tuple[tuple[str, object, str], ...] = (
    ("game", fast, "_game"),
    ("set-up", GameReplay, "__init__"),
    ("deal", fast, "_deal"),
    ("state", DealState, "__init__"),
    ("run", DealState, "run"),
    ("models", Game, "model_validate"),
)
"""What :func:`parts` times: a name, and where the timed callable is."""


def parts(work: Callable[[], object], repeat: int) -> list[tuple[str, float]]:
    """The seconds spent in each of :data:`PARTS` during the best of ``repeat`` runs of
    ``work``, each part with what it calls; the callables are wrapped while ``work`` runs,
    and put back."""
    spent: dict[str, float] = {}

    def timed(name: str, call: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object, **kwargs: object) -> object:
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - start
        return wrapper

    own = [(owner, attr, vars(owner).get(attr)) for _, owner, attr in PARTS]
    best_run: dict[str, float] = {}
    try:
        for name, owner, attr in PARTS:
            # A method of the class, or one it inherits (model_validate, bound to the class).
            setattr(owner, attr, timed(name, vars(owner).get(attr) or getattr(owner, attr)))
        total = float("inf")
        for _ in range(repeat):
            spent.clear()
            gc.collect()
            start = time.perf_counter()
            work()
            if time.perf_counter() - start < total:
                total, best_run = time.perf_counter() - start, dict(spent)
    finally:
        for owner, attr, original in own:
            if original is None:
                delattr(owner, attr)
            else:
                setattr(owner, attr, original)
    return [(name, best_run.get(name, 0.0)) for name, _, _ in PARTS]


if __name__ == "__main__":
    main()
