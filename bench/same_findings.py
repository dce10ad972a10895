"""Whether a change keeps every finding: the findings, places and messages of ``check`` on
the samples and the slip corpus, with this checkout's code and with an earlier commit's.

Not a test: a gate to run around a restructuring (issue 27: "every test, every sample, and
the slip corpora give the same findings, places and messages before and after").

    python bench/same_findings.py --base a367b44            # every 8th slip
    python bench/same_findings.py --base a367b44 --every 1  # every slip (slower)

The records are every ``.euchre`` file of samples/ and tests/data, and the slips that
tests/support/slips.py makes of each valid sample (every ``--every``-th of them). Both
codes check the same records, each in its own process (the base from a git worktree of
``--base``, removed afterwards); the findings are compared by record, code, line, column
and message, and the differences printed, counted by code.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from worktree import source_of  # noqa: E402


def corpus(path: Path, every: int) -> int:
    """Writes the records as JSON Lines (``name``, ``text``) to ``path``; their number."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support.slips import slips

    count = 0
    with path.open("w", encoding="utf-8") as out:
        files = sorted([*ROOT.glob("samples/**/*.euchre"), *ROOT.glob("tests/data/**/*.euchre")])
        for file in files:
            text = file.read_text("utf-8", errors="replace")
            out.write(json.dumps({"name": str(file.relative_to(ROOT)), "text": text}) + "\n")
            count += 1
        for file in sorted(ROOT.glob("samples/valid/*.euchre")):
            for k, slip in enumerate(slips(file.read_text("utf-8"))):
                if k % every == 0:
                    name = f"{file.name}#{slip.kind}#{k}"
                    out.write(json.dumps({"name": name, "text": slip.text}) + "\n")
                    count += 1
    return count


def findings(records: Path, out: Path) -> None:
    """Checks every record and writes its findings, one a line: record, code, place,
    message (run in the process of the code being compared)."""
    from euchrelog.check import check_text

    with records.open(encoding="utf-8") as lines, out.open("w", encoding="utf-8") as found:
        for line in lines:
            record = json.loads(line)
            for game in check_text(record["text"], record["name"]):
                for f in game.findings:
                    found.write(f"{record['name']}\t{f.code}\t{f.line}:{f.column}\t"
                                f"{f.message}\n")


def _findings_of(src: Path, records: Path, out: Path) -> None:
    subprocess.run([sys.executable, __file__, "--findings", str(records), str(out)],
                   env={**os.environ, "PYTHONPATH": str(src)}, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the commit to compare with")
    parser.add_argument("--every", type=int, default=8, help="check every Nth slip")
    parser.add_argument("--findings", nargs=2, metavar=("RECORDS", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.findings:
        findings(Path(args.findings[0]), Path(args.findings[1]))
        return
    if not args.base:
        parser.error("--base REV is needed")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print(f"{corpus(work / 'records.jsonl', args.every)} records", flush=True)
        with source_of(args.base, work) as base:
            _findings_of(base, work / "records.jsonl", work / "before.tsv")
        _findings_of(ROOT / "src", work / "records.jsonl", work / "after.tsv")
        before = (work / "before.tsv").read_text("utf-8").splitlines()
        after = (work / "after.tsv").read_text("utf-8").splitlines()
    was, now = collections.Counter(before), collections.Counter(after)
    gone, new = sorted((was - now).elements()), sorted((now - was).elements())
    for sign, rows in (("-", gone), ("+", new)):
        for row in rows:
            print(sign, row)
    counts = collections.Counter(row.split("\t")[1] for row in (*gone, *new))
    print(f"{len(before)} findings before, {len(after)} after; "
          + (", ".join(f"{code} {n}" for code, n in sorted(counts.items())) or "the same"))


if __name__ == "__main__":
    main()
