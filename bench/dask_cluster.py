# mypy: disallow-untyped-calls=False
# (Dask's cluster and client carry no annotations.)
"""Benchmark: `euchrelog check --scheduler` on a local Dask cluster beside `--jobs 2` and
`--jobs 1` (docs/scaling.md). Not a test: nothing in the test suite depends on timing.

Needs the dask extra (`pip install '.[dask]'`). The file is not named dask.py: run as a
script, its folder comes first on the import path and it would stand in for Dask itself.

    python bench/dask_cluster.py                  # 20 MB in one file, best of 3 runs
    python bench/dask_cluster.py --megabytes 40 --repeat 5
    python bench/dask_cluster.py --files 200      # also: the same bytes as 200 files
    python bench/dask_cluster.py --workers 4      # a cluster of 4 one-thread workers

The corpus is random legal four-hand games of euchrelog's own generator (fixed seed),
repeated to the size asked. The cluster (a `LocalCluster` of one-thread worker processes,
on 127.0.0.1 only) is started once, before the runs; every run is the `euchrelog` command
in a process of its own, start-up and connecting to the scheduler included, and the runs
of the three ways are interleaved. Beside the wall-clock time, each run's CPU seconds are
counted (the command's process tree, and for --scheduler the workers' processes too), which
a machine shared with other work does not upset as it does the wall clock. Also measured,
in this process: how fast the reading side alone cuts the file into batches and pickles
them, which bounds what one `euchrelog check --scheduler` can feed however many workers it
has.
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import Client, LocalCluster
from run import euchre_corpus, write_repeated

from euchrelog.checker import BY_LINES
from euchrelog.files import Limits
from euchrelog.runs import DASK_BATCH_FACTOR, Batching, batches
from euchrelog.sources import open_source


def cut_rate(path: Path) -> tuple[float, int]:
    """Megabytes a second at which the reading side cuts ``path`` into the batches of
    ``--scheduler`` and pickles them, and the number of batches."""
    start = time.perf_counter()
    count = 0
    larger = Batching(BY_LINES.weight, DASK_BATCH_FACTOR * BY_LINES.size)
    for batch in batches(open_source(str(path), Limits()).chunks(), larger):
        pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)
        count += 1
    return path.stat().st_size / 1e6 / (time.perf_counter() - start), count


def split(path: Path, folder: Path, files: int) -> None:
    """Writes the games of ``path`` into ``files`` files of about the same size."""
    games = path.read_text(encoding="utf-8").split("\n\n[")
    folder.mkdir()
    per = -(-len(games) // files)
    for k in range(files):
        part = games[k * per:(k + 1) * per]
        if part:
            text = "\n\n[".join(part)
            (folder / f"part-{k:04}.euchre").write_text(
                text if text.startswith("[") else "[" + text, encoding="utf-8")


def workers_cpu(client: Client) -> float:
    """CPU seconds the cluster's worker processes have used."""
    seconds: dict[str, float] = client.run(time.process_time)
    return sum(seconds.values())


def timed(args: list[str], client: Client) -> tuple[float, float, float, float]:
    """Wall seconds of one `euchrelog` run, the CPU seconds of its own process tree (the
    command and its --jobs processes), and those of the cluster's workers and of its
    scheduler (in this process) meanwhile."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = workers_cpu(client)
    here = time.process_time()
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "euchrelog", *args], stdout=subprocess.DEVNULL,
                   check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    here = time.process_time() - here
    return wall, own, workers_cpu(client) - busy, here


def main() -> None:
    """Runs the benchmark and prints its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=20, help="size of the input")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each way; best counts")
    parser.add_argument("--workers", type=int, default=2, help="one-thread workers")
    parser.add_argument("--files", type=int, default=0,
                        help="also check the same games cut into this many files")
    args = parser.parse_args()
    text, _, _ = euchre_corpus(2_000_000)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "corpus.euchre"
        size = write_repeated(big, text, args.megabytes) / 1e6
        sources = {"one file": str(big)}
        if args.files:
            split(big, Path(tmp) / "parts", args.files)
            sources[f"{args.files} files"] = str(Path(tmp) / "parts")
        rate, count = cut_rate(big)
        print(f"{size:.1f} MB, {count} batches; the reading side cuts and pickles "
              f"{rate:.0f} MB/s", flush=True)
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster, \
                Client(cluster) as client:
            ways = {"--jobs 1": ["-j", "1"], "--jobs 2": ["-j", "2"],
                    f"--scheduler ({args.workers} workers)":
                        ["--scheduler", cluster.scheduler_address]}
            for what, source in sources.items():
                runs: dict[str, list[tuple[float, float, float, float]]] = {
                    way: [] for way in ways}
                for _ in range(args.repeat):
                    for way, flags in ways.items():
                        runs[way].append(timed(["check", "-q", *flags, source], client))
                one = min(runs["--jobs 1"])[0]
                for way, timings in runs.items():
                    wall, own, remote, scheduler = min(timings)
                    if "--scheduler" not in way:
                        remote = scheduler = 0.0  # the idle cluster's heartbeats
                    listed = ", ".join(f"{t[0]:.2f}" for t in timings)
                    print(f"{what}: {way}: {wall:.2f} s, {size / wall:.2f} MB/s, "
                          f"{one / wall:.2f}x --jobs 1 (runs {listed}); CPU of the command "
                          f"{own:.2f} s, of the workers {remote:.2f} s, of the scheduler "
                          f"{scheduler:.2f} s: "
                          f"{size / (own + remote + scheduler):.2f} MB per CPU second",
                          flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
