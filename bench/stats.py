"""Benchmark: `euchrelog stats` on a generated corpus, its time and its peak memory.

Not a test: nothing in the test suite depends on timing. Run it as

    python bench/stats.py                  # 10,000 deals, then the same games 10 times over
    python bench/stats.py --deals 2000 --times 5

The corpus is generated here, reproducibly (a fixed seed): games of every variant in turn,
dated and in three events. The command runs in a process of its own, start-up included,
once per output format on the corpus and once on the corpus written ``--times`` times over
(the same games again, so the counts grow and the figures do not): peak RSS staying flat
shows that the statistics are kept as counts, game by game.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from euchrelog.generate import random_game, ruleset_for
from euchrelog.notation.writer import dumps_game
from euchrelog.rules import VARIANTS

PEAK_RUN = ("import resource, sys\n"
            "from euchrelog.cli import run\n"
            "sys.argv = ['euchrelog', *sys.argv[1:]]\n"
            "try:\n"
            "    run()\n"
            "finally:\n"
            "    use = resource.getrusage(resource.RUSAGE_SELF)\n"
            "    peak = next(int(line.split()[1]) for line in open('/proc/self/status')\n"
            "                if line.startswith('VmHWM:'))\n"
            "    print('maxrss', peak, use.ru_utime + use.ru_stime, file=sys.stderr)\n")
"""Runs the command line given as arguments, then prints its peak RSS (KB) and CPU seconds
on standard error (also for bench/view.py). The peak is its memory's high-water mark
(``VmHWM``): ``ru_maxrss`` of a child counts its parent's peak too, on Linux."""


def corpus(deals: int, seed: int = 25) -> tuple[str, int]:
    """Notation of generated games of every variant, at least ``deals`` deals."""
    rng = random.Random(seed)
    texts: list[str] = []
    count = k = 0
    while count < deals:
        variant = VARIANTS[k % len(VARIANTS)]
        k += 1
        game = random_game(rng, ruleset_for(variant), tags={
            "Event": f"Night {k % 3}", "Date": f"2026-{1 + k % 12:02d}-{1 + k % 28:02d}"})
        count += len(game.deals)
        texts.append(dumps_game(game))
    return "\n".join(texts) + "\n", count


def measure(path: Path, fmt: str) -> tuple[float, float, int]:
    """Seconds (wall-clock and CPU) and peak RSS (KB) of ``euchrelog stats --format FMT
    PATH``; on a shared machine the CPU seconds are the steadier figure."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK_RUN, "stats", "-q", "--format", fmt,
                           "-o", str(path.with_suffix(f".{fmt}")), str(path)],
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    rss, cpu = done.stderr.rsplit("maxrss", 1)[1].split()[:2]
    return seconds, float(cpu), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--times", type=int, default=10)
    args = parser.parse_args()
    start = time.perf_counter()
    text, deals = corpus(args.deals)
    print(f"generated {deals} deals ({len(text) / 1e6:.1f} MB) in "
          f"{time.perf_counter() - start:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "corpus.euchre"
        one.write_text(text, encoding="utf-8")
        many = Path(folder) / "many.euchre"
        with many.open("w", encoding="utf-8") as out:
            for _ in range(args.times):
                out.write(text)
        print("| corpus | format | deals | seconds | CPU seconds | deals/s (CPU) | peak RSS |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for path, n in ((one, deals), (many, deals * args.times)):
            for fmt in ("text", "json", "csv", "html") if path is one else ("json",):
                seconds, cpu, rss = measure(path, fmt)
                print(f"| {path.name} | {fmt} | {n} | {seconds:.2f} | {cpu:.2f} | "
                      f"{n / cpu:.0f} | {rss / 1024:.0f} MB |")


if __name__ == "__main__":
    main()
