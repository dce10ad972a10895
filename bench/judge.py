"""What `euchrelog serve`'s judge spends to accept deal k of a table game: the deal replays
it runs and its CPU time, at deals 1, 10, 20, 30 and 40 of a 40-deal game, entered in order
as a table enters them (score-sheet lines, as the phones send, and deals in full).

Not a test (tests/test_serve_one_pass.py holds the replay counts). Run it from a checkout:

    python bench/judge.py                  # this checkout
    python bench/judge.py --base a32241f   # and a commit's, side by side

Each figure is the least of five runs of the whole game (CPU time of the process, so other
jobs on the machine count little); the judge of a commit without a ``Judge`` (before the
game was kept between entries) judges each entry with the game read whole.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from worktree import source_of  # noqa: E402

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from support.serving import deal_texts
from euchrelog.serve import judge as J
from euchrelog.replay.deal import DealReplay

header = J.game_header("four-hand", "progressive deals=40", None, "Club", 1, 1,
                       {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Dee"})
count = [0]
run = DealReplay.run
def counted(self, d):
    count[0] += 1
    return run(self, d)
DealReplay.run = counted
out = {}
for detail in ("score-sheet", "full"):
    texts = deal_texts(7, 40, detail)
    cpu, replays = {}, {}
    for _ in range(5):
        kept = J.Judge() if hasattr(J, "Judge") else None
        for k, text in enumerate(texts):
            count[0] = 0
            start = time.process_time()
            verdict = (kept.judge(header, texts[:k], text, game=1) if kept is not None
                       else J.judge(header, texts[:k], text))
            took = time.process_time() - start
            assert verdict.accepted, verdict.body()
            cpu[k + 1] = min(cpu.get(k + 1, took), took)
            replays[k + 1] = count[0]
    out[detail] = {k: (cpu[k], replays[k]) for k in (1, 10, 20, 30, 40)}
print(json.dumps(out))
"""


def measure(src: Path) -> dict[str, dict[str, list[float]]]:
    """The figures of the judge of ``src``, by detail and deal."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(src), str(ROOT / "tests")],
                          capture_output=True, text=True, check=True)
    figures: dict[str, dict[str, list[float]]] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="also measure this commit's judge (a git worktree)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        sources = [("this checkout", ROOT / "src")]
        if args.base:
            sources.insert(0, (args.base, stack.enter_context(source_of(args.base, Path(tmp)))))
        results = [(name, measure(src)) for name, src in sources]
    print(f"{'entries':12} {'deal':>4}" + "".join(f"{name[:13]:>28}" for name, _ in results))
    for detail in ("score-sheet", "full"):
        for deal in ("1", "10", "20", "30", "40"):
            row = f"{detail:12} {deal:>4}"
            for _, figures in results:
                cpu, replays = figures[detail][deal]
                row += f"{cpu * 1000:12.2f} ms {int(replays):5} replays"
            print(row)


if __name__ == "__main__":
    main()
