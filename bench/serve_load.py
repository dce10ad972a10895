"""The load gate of issue 42: `euchrelog serve` on loopback, 100 tables x 30 deals entered at
once, deal by deal, with acceptance on, duplicate sends and retries; then nothing lost,
nothing doubled, and the standings equal to `euchrelog score` on the export. Prints the
latency (p50, p99) and the server's CPU per entry at deal 1 and deal 30 (the gate: at most
1.5 times).

Not a test (tests/test_serve_load.py runs a small one). Bounded: it stops by itself after
--minutes. Run it from a checkout, with PostgreSQL where EUCHRELOG_TEST_POSTGRES says
(.ci/postgres starts one):

    python bench/serve_load.py                       # SQLite
    python bench/serve_load.py --backend postgresql
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.loading import check_load, run_load  # noqa: E402
from support.serving import running  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=30.0,
                        help="stop (and fail) after this long")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, running(args.backend, Path(tmp)) as server:
        load = run_load(server, args.tables, args.deals, args.minutes * 60)
        check_load(server, load, Path(tmp))
        print(f"{args.backend}: {load.summary()}")
        print("per deal, ms of server CPU per entry: " + " ".join(
            f"{k}:{1000 * load.cpu_per_entry(k):.1f}" for k in sorted(load.cpu)))
        ratio = load.cpu_per_entry(args.deals) / load.cpu_per_entry(1)
        print(f"gate (deal {args.deals} at most 1.5x deal 1): "
              f"{'met' if ratio <= 1.5 else 'NOT met'} ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
