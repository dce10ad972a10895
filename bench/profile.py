"""Where the time of `euchrelog check` goes, stage by stage, in microseconds a deal.

Not a test. Run it from a checkout (`pip install -e .`):

    python bench/profile.py                 # 0.5 MB of four-hand records, best of 5
    python bench/profile.py --megabytes 2

It times each stage of both paths on the same games: the fast path (coarse grammar and
table-driven replay, :mod:`euchrelog.fast`) from notation and from JSON Lines, and the
full path (fine grammar, pydantic models, :class:`~euchrelog.engine.DealState`) that
every game the fast path declines goes through.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from euchrelog.check import Chunk, check_chunk
from euchrelog.fast import _parser, read_canonical, replay_game
from euchrelog.jsonio import parse_game_json
from euchrelog.notation import parse_game, split_games
from euchrelog.replay import replay

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import euchre_corpus


def best(work: Callable[[], object], repeat: int) -> float:
    """The best wall time of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
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
    chunks = [t for _, t in split_games(io.StringIO(text))]
    rows = lines.splitlines()
    games = [json.loads(r) for r in rows]
    canonical = [read_canonical(c) for c in chunks]
    lark = _parser()
    parsed = [parse_game(c) for c in chunks]
    models = [p.game for p in parsed if not isinstance(p, list)]
    stages: list[tuple[str, Callable[[], object]]] = [
        ("split the text into games", lambda: list(split_games(io.StringIO(text)))),
        ("fast: Lark, coarse grammar", lambda: [lark.parse(c) for c in chunks]),
        ("fast: Lark and reading the deals", lambda: [read_canonical(c) for c in chunks]),
        ("fast: replay", lambda: [replay_game(g) for g in canonical]),
        ("fast: whole check, notation",
         lambda: [check_chunk(Chunk(1, 1, c, None)) for c in chunks]),
        ("JSON: json.loads", lambda: [json.loads(r) for r in rows]),
        ("JSON: replay", lambda: [replay_game(g) for g in games]),
        ("JSON: whole check, JSON Lines",
         lambda: [check_chunk(Chunk(1, 1, r, None, json=True)) for r in rows]),
        ("full: Lark, fine grammar, builder, models", lambda: [parse_game(c) for c in chunks]),
        ("full: JSON through pydantic", lambda: [parse_game_json(r) for r in rows]),
        ("full: replay (DealState)", lambda: [replay(g) for g in models]),
        ("full: whole check, notation",
         lambda: [check_chunk(Chunk(1, 1, c, None), fast=False) for c in chunks]),
    ]
    print(f"{len(text) / 1e6:.2f} MB, {len(chunks)} games, {deals} deals; "
          f"best of {args.repeat} runs")
    print(f"{'stage':44} {'us/deal':>8}")
    for name, work in stages:
        print(f"{name:44} {best(work, args.repeat) / deals * 1e6:8.1f}")


if __name__ == "__main__":
    main()
