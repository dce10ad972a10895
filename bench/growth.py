"""How the time of ``check`` grows with the faults of a record (issue 23): one game of N
deals that each carry a fault, for N = 1,000, 4,000 and 10,000 (a points slip: one finding
a deal), and records under 100 KB built to make the one-card-slip search work hardest
(every deal with several faults, in one game and in games of one deal each).

    python bench/growth.py            # the growth table and the worst records
    python bench/growth.py --quick    # N = 250, 1,000 only

Each record is checked in process through :func:`euchrelog.check.check_lines` (what the
command runs); the best of three runs counts. Nothing here is a test: the figures go to
docs/performance.md.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import time
from collections.abc import Callable

from euchrelog.check import check_lines
from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Log
from euchrelog.notation.writer import dumps

_DEAL = re.compile(r"^deal \d+ dealer ([NESW])$", re.MULTILINE)
_TOTAL = re.compile(r"  total NS -?\d+ EW -?\d+")


def deal_pool(count: int, seed: int = 7) -> dict[str, list[str]]:
    """Deal blocks of random four-hand games, by dealer, without running totals."""
    rng = random.Random(seed)
    pool: dict[str, list[str]] = {s: [] for s in "NESW"}
    while sum(len(v) for v in pool.values()) < count:
        text = dumps(Log(games=(random_game(rng, ruleset_for("four-hand")),)))
        body = text.split("\n\ndeal ", 1)[1].rsplit("\n\nresult", 1)[0]
        for block in ("deal " + body).split("\n\n"):
            match = _DEAL.match(block)
            if match and "points" in block:
                pool[match.group(1)].append(_TOTAL.sub("", block))
    return pool


def one_game(deals: list[str], tags: str = '[Variant "four-hand"]\n[Target "1000000"]\n'
             ) -> str:
    """One unfinished game of these deal blocks, numbered from 1."""
    body = "\n\n".join(_DEAL.sub(f"deal {n} dealer \\1", d, count=1)
                       for n, d in enumerate(deals, 1))
    return f"{tags}\n{body}\n\nunfinished\n"


def faulty_deals(pool: dict[str, list[str]], n: int, fault: Callable[[str], str]) -> list[str]:
    """``n`` deal blocks in dealing order, each changed by ``fault``."""
    order = "NESW"
    return [fault(pool[order[k % 4]][k // 4 % len(pool[order[k % 4]])]) for k in range(n)]


def points_slip(block: str) -> str:
    """The points written for the other side: one C901."""
    return block.replace("points NS", "points XX").replace("points EW", "points NS").replace(
        "points XX", "points EW")


def many_faults(block: str) -> str:
    """Two cards of the first trick and the points changed: a deal with several faults,
    which the one-card-slip search reads card by card."""
    lines = block.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("  1. "):
            cards = re.findall(r"[NESW]: (\S\S)", line)
            if len(cards) >= 2:
                line = line.replace(cards[0], "QQ").replace(cards[1], cards[0]).replace(
                    "QQ", cards[1])
                lines[i] = line.replace(cards[-1], cards[-1][0] + "SHDC"[
                    ("CDHS".index(cards[-1][1]))])
    return points_slip("\n".join(lines))


def timed(text: str, repeat: int = 3) -> tuple[float, int]:
    """The best time of checking ``text``, and its findings."""
    lines = text.splitlines(keepends=True)
    best, found = float("inf"), 0
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        found = sum(len(r.findings) for r in check_lines(lines, "bench.euchre"))
        best = min(best, time.process_time() - start)
    return best, found


def main() -> None:
    """Prints the growth table and the worst records under 100 KB."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="N = 250 and 1,000 only")
    args = parser.parse_args()
    sizes = (250, 1000) if args.quick else (1000, 4000, 10000)
    pool = deal_pool(400)
    print("| faulty deals in one game | KB | findings | s | s per 1,000 deals |")
    print("|---:|---:|---:|---:|---:|")
    for n in sizes:
        text = one_game(faulty_deals(pool, n, points_slip))
        seconds, found = timed(text, repeat=1 if n > 4000 else 3)
        print(f"| {n:,} | {len(text) / 1000:.0f} | {found:,} | {seconds:.2f} | "
              f"{seconds / n * 1000:.2f} |")
    print()
    print("| record under 100 KB | KB | deals | findings | s |")
    print("|---|---:|---:|---:|---:|")
    block = len(many_faults(pool["N"][0])) + 2
    n = 96_000 // block
    worst = {
        "one game, every deal with several faults": one_game(faulty_deals(pool, n,
                                                                         many_faults)),
        "games of one deal, each with several faults": "\n".join(
            one_game([d]) for d in faulty_deals(pool, 96_000 // (block + 50), many_faults)),
    }
    for name, text in worst.items():
        seconds, found = timed(text)
        print(f"| {name} | {len(text) / 1000:.0f} | {text.count(chr(10) + 'deal ')} | "
              f"{found:,} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
