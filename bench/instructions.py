"""How many instructions `euchrelog check` spends a deal, counted by valgrind: a measure of a
change of 1% where timings on a shared machine vary by 5 to 10% from run to run.

Not a test. Needs valgrind (Debian's package `valgrind`); run it from a checkout:

    python bench/instructions.py                  # this checkout, four kinds of record
    python bench/instructions.py --base 6764547   # and a commit's, side by side

Each kind of record (the corpora of bench/run.py, about 100 KB of canonical records and
60 KB of each other kind) is checked by ``check_lines`` in a process of its own under
``valgrind --tool=callgrind``, once and then three times more in another process: the
difference, halved, is one run's instructions, with the imports and the first run's
warming (what is kept by line text, the rulesets' tables) left out. PYTHONHASHSEED is fixed,
so the same code counts the same within about 0.1%. Instructions are not time (a call into
C that allocates counts as it runs, not as it waits on memory), but for the same
interpreter they move together: use time (bench/run.py) for the figures, instructions for
whether a change pays.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from worktree import source_of  # noqa: E402

CHILD = """
import gc, io, sys
sys.path.insert(0, sys.argv[1])
from euchrelog.check import check_lines
text = open(sys.argv[3], encoding="utf-8").read()
deals = sum(r.deals for r in check_lines(io.StringIO(text)))
gc.collect()
gc.freeze()
for _ in range(int(sys.argv[2])):
    sum(r.deals for r in check_lines(io.StringIO(text)))
print(deals)
"""
"""The process counted: checks the corpus once, then ``argv[2]`` times more."""

KINDS = (("canonical", 100_000), ("hand-typed", 60_000), ("one slip", 60_000),
         ("score-sheet", 60_000))
"""The kinds of record counted, and about how many bytes of each."""


def corpora(folder: Path) -> list[tuple[str, Path]]:
    """Writes the corpora (as bench/run.py makes them, cut at a game) to ``folder``."""
    from run import euchre_corpus, kind_corpus

    written = []
    for kind, size in KINDS:
        text = euchre_corpus(size)[0] if kind == "canonical" else kind_corpus(size, kind)[0]
        path = folder / f"{kind.replace(' ', '-')}.euchre"
        path.write_text(text, encoding="utf-8")
        written.append((kind, path))
    return written


def _count(src: Path, runs: int, corpus: Path) -> tuple[int, int]:
    """The instructions of a process that checks ``corpus`` 1 + ``runs`` times with the
    euchrelog of ``src``, and the deals of one run."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", CHILD, str(src), str(runs), str(corpus)],
        capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind said no count:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def per_run(src: Path, corpus: Path) -> tuple[int, int]:
    """One run's instructions of ``check_lines`` on ``corpus``, and its deals."""
    with ThreadPoolExecutor(2) as pool:
        once, thrice = pool.map(lambda runs: _count(src, runs, corpus), (1, 3))
    return (thrice[0] - once[0]) // 2, once[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="also count this commit's code (a git worktree)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        sources = [("this checkout", ROOT / "src")]
        if args.base:
            sources.insert(0, (args.base, stack.enter_context(source_of(args.base, folder))))
        kinds = corpora(folder)
        print(f"{'kind':12} {'deals':>6}" + "".join(f"{name[:16]:>18}" for name, _ in sources)
              + ("     change" if args.base else ""))
        for kind, corpus in kinds:
            counts = [per_run(src, corpus) for _, src in sources]
            deals = counts[0][1]
            row = f"{kind:12} {deals:6}" + "".join(f"{n / deals:14,.0f}/deal"
                                                   for n, _ in counts)
            if args.base:
                row += f" {counts[1][0] / counts[0][0] - 1:+10.1%}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
