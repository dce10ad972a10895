"""Benchmark: `euchrelog view` on generated records, its CPU time and its peak memory.

Not a test: nothing in the test suite depends on timing. Run it as

    python bench/view.py                      # every record below
    python bench/view.py --only games --deals 2000

The records (generated here, reproducibly):

- ``games``: ``--deals`` deals (10,000) in four-hand games of the generator;
- ``one game``: one game of ``--deals`` deals;
- ``findings``: one game of ``--findings`` deals (625 and 5,000), each with a points slip
  (one C901 a deal): the time must grow with the deals, not with their square;
- ``dd``: ``--dd-deals`` deals (1,000) in games, with the double-dummy layer.

The command runs in a process of its own, start-up included (``--no-dd`` but for ``dd``),
and writes its page to a file; the figures are its CPU seconds and peak RSS.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from growth import deal_pool, faulty_deals, one_game, points_slip
from stats import PEAK_RUN

from euchrelog.generate import random_game, ruleset_for
from euchrelog.notation.writer import dumps_game


def games(deals: int, seed: int = 25) -> str:
    """Four-hand games of the generator, at least ``deals`` deals in all."""
    rng = random.Random(seed)
    texts: list[str] = []
    count = 0
    while count < deals:
        game = random_game(rng, ruleset_for("four-hand"))
        count += len(game.deals)
        texts.append(dumps_game(game))
    return "\n".join(texts) + "\n"


def measure(path: Path, *args: str) -> tuple[float, float, int, int]:
    """Seconds (wall-clock and CPU), peak RSS (KB) and the page's size (bytes) of
    ``euchrelog view PATH``."""
    page = path.with_suffix(".html")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK_RUN, "view", "-q", "-o", str(page),
                           *args, str(path)], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    rss, cpu = done.stderr.rsplit("maxrss", 1)[1].split()[:2]
    return seconds, float(cpu), int(rss), page.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--findings", type=int, nargs="*", default=[625, 5_000])
    parser.add_argument("--dd-deals", type=int, default=1_000)
    parser.add_argument("--only", choices=["games", "one game", "findings", "dd"],
                        action="append")
    args = parser.parse_args()
    wanted = set(args.only or ["games", "one game", "findings", "dd"])
    pool = deal_pool(400)
    records: list[tuple[str, int, str, tuple[str, ...]]] = []
    if "games" in wanted:
        records.append(("games", args.deals, games(args.deals), ("--no-dd",)))
    if "one game" in wanted:
        records.append(("one game", args.deals,
                        one_game(faulty_deals(pool, args.deals, lambda b: b)), ("--no-dd",)))
    if "findings" in wanted:
        records += [("findings", n, one_game(faulty_deals(pool, n, points_slip)), ("--no-dd",))
                    for n in args.findings]
    if "dd" in wanted:
        records.append(("dd", args.dd_deals, games(args.dd_deals), ("--dd",)))
    print("| record | deals | MB | seconds | CPU seconds | peak RSS | page |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name, deals, text, flags in records:
            path = Path(folder) / f"{name.replace(' ', '-')}-{deals}.euchre"
            path.write_text(text, encoding="utf-8")
            seconds, cpu, rss, size = measure(path, *flags)
            print(f"| {name} | {deals:,} | {len(text) / 1e6:.1f} | {seconds:.1f} | {cpu:.1f} | "
                  f"{rss / 1024:.0f} MB | {size / 1e6:.0f} MB |", flush=True)


if __name__ == "__main__":
    main()
