"""Long fuzz runs: the properties of ``tests/test_fuzz.py`` on many more random inputs.

The property functions of the test module are called through Hypothesis (randomized, no
database) in a worker process, with a guard that records every escape instead of stopping
at the first: an exception other than the project's own error types, a broken property,
a CLI exit status outside 0-2 or a traceback. An input that takes longer than
``--timeout`` seconds is a hang: a watchdog (faulthandler, which runs even while a
regular expression holds the interpreter) ends the worker, this script records the
input and starts a new worker for the examples that are left.

Escapes are grouped by kind and place. At the end each kind's smallest input is shrunk
further (pieces deleted while the same escape stays), printed, and saved under ``--out``.

    python fuzz/run.py --examples 1000000
    python fuzz/run.py --examples 20000 --only notation json --seed 7

Exit status: 0 when nothing escaped, 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import faulthandler
import hashlib
import json
import mmap
import os
import random
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as seed_with
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
import test_fuzz as props  # noqa: E402

Input = Any
"""One input of a property: a str, bytes, or (bytes, args) for the CLI."""

NAMES = ("notation", "json", "cli", "module")
SHARES = {"notation": 0.45, "json": 0.30, "cli": 0.25}
"""How ``--examples`` is shared; the module target has ``--module-examples``."""


# ---------------------------------------------------------------- the targets


@dataclass
class Target:
    """A property to fuzz: its name, its strategy and the function that checks one input."""

    name: str
    strategy: st.SearchStrategy[Input]
    check: Callable[[Input], None]


def _cli(value: tuple[bytes, tuple[str, ...]]) -> None:
    props.check_cli_input(*value)


def targets(timeout: float) -> dict[str, Target]:
    """Every property by name."""
    def module(value: bytes) -> None:
        props.check_module_input(value, timeout=timeout)

    cli = st.tuples(props.cli_inputs(deep=True), st.sampled_from(props.CLI_COMMANDS))
    return {t.name: t for t in (
        Target("notation", props.notation_texts(), props.check_notation_text),
        Target("json", props.json_texts(deep=True), props.check_json_text),
        Target("cli", cli, _cli),
        Target("module", st.one_of(st.binary(max_size=400), props.cli_inputs(deep=True)),
               module),
    )}


def signature(exc: BaseException) -> str:
    """The kind of an escape: its type and the innermost frame of euchrelog (or of the
    property that failed), so the same bug is counted once however it was reached."""
    place = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        name = frame.filename.replace(os.sep, "/")
        if "/euchrelog/" in name or name.endswith("test_fuzz.py"):
            place = f"{Path(name).name}:{frame.lineno} in {frame.name}"
    return f"{type(exc).__name__} at {place or 'unknown'}"


def attempt(target: Target, value: Input) -> BaseException | None:
    """Checks one input; returns what escaped, if anything."""
    try:
        target.check(value)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # every escape is recorded, none stops the run
        return exc
    return None


def _size(value: Input) -> int:
    if isinstance(value, tuple):
        return sum(_size(v) for v in value)
    return len(value) if isinstance(value, str | bytes) else len(repr(value))


# ---------------------------------------------------------------- the worker


class CurrentInput:
    """The input being tried and the count so far, in a memory-mapped file, so that a
    hang that ends the worker leaves them on disk for the supervisor."""

    SIZE = 32 * 1024 * 1024

    def __init__(self, path: Path, create: bool) -> None:
        self.path = path
        if create:
            with path.open("wb") as fh:
                fh.truncate(self.SIZE)
        self.fh = path.open("r+b")
        self.map = mmap.mmap(self.fh.fileno(), self.SIZE)

    def set(self, target: str, tried: int, value: Input) -> None:
        """Records the input about to be tried, and how many were tried before it."""
        data = f"{target}\n{tried}\n{value!r}".encode("utf-8", "backslashreplace")
        data = data[: self.SIZE - 8]
        self.map[:8] = len(data).to_bytes(8, "little")
        self.map[8:8 + len(data)] = data

    def get(self) -> tuple[str, int, Input]:
        """The target, count and input last recorded."""
        size = int.from_bytes(self.map[:8], "little")
        target, tried, text = bytes(self.map[8:8 + size]).decode("utf-8").split("\n", 2)
        return target, int(tried), ast.literal_eval(text)

    def close(self) -> None:
        """Unmaps the file."""
        self.map.close()
        self.fh.close()


class Worker:
    """Runs the targets in this process, writing every escape to a journal at once."""

    def __init__(self, journal: TextIO, current: CurrentInput, timeout: float,
                 hang_log: TextIO) -> None:
        self.journal = journal
        self.current = current
        self.timeout = timeout
        self.hang_log = hang_log
        self.smallest: dict[str, int] = {}
        self.last = time.monotonic()

    def write(self, **record: Any) -> None:
        """Appends one record to the journal."""
        self.journal.write(json.dumps(record) + "\n")
        self.journal.flush()

    def run(self, target: Target, examples: int, seed: int | None) -> None:
        """Runs one target for ``examples`` inputs."""
        tried = 0

        def guarded(value: Input) -> None:
            nonlocal tried
            self.current.set(target.name, tried, value)
            faulthandler.dump_traceback_later(self.timeout, exit=True, file=self.hang_log)
            try:
                exc = attempt(target, value)
            finally:
                faulthandler.cancel_dump_traceback_later()
            tried += 1
            if exc is not None:
                self.escape(target, value, exc)
            now = time.monotonic()
            if now - self.last > 30:
                self.last = now
                print(f"  {target.name}: {tried} inputs", flush=True)

        test = settings(max_examples=examples, database=None, deadline=None,
                        derandomize=False, phases=(Phase.generate,),
                        suppress_health_check=list(HealthCheck))(given(target.strategy)(guarded))
        if seed is not None:
            test = seed_with(seed)(test)
        print(f"{target.name}: {examples} examples", flush=True)
        test()
        self.write(kind="done", target=target.name, tried=tried)

    def escape(self, target: Target, value: Input, exc: BaseException) -> None:
        """Journals an escape; the input only when it is the smallest of its kind so far."""
        sig = signature(exc)
        size = _size(value)
        if sig not in self.smallest:
            print(f"  new escape in {target.name}: {sig}", flush=True)
        if size < self.smallest.get(sig, sys.maxsize):
            self.smallest[sig] = size
            trace = "".join(traceback.format_exception(exc, limit=-8))[-4000:]
            self.write(kind="escape", target=target.name, signature=sig, input=repr(value),
                       trace=trace)
        else:
            self.write(kind="hit", target=target.name, signature=sig)


def work(plan: dict[str, int], seed: int | None, out: Path, timeout: float) -> None:
    """The worker: runs the plan (examples per target), journaling as it goes."""
    table = targets(timeout)
    current = CurrentInput(out / "current-input", create=False)
    with (out / "journal.jsonl").open("a", encoding="utf-8") as journal, \
            (out / "hang-traceback.txt").open("w", encoding="utf-8") as hang_log:
        worker = Worker(journal, current, timeout, hang_log)
        for name in NAMES:
            if plan.get(name, 0) > 0:
                worker.run(table[name], plan[name], seed)
    current.close()


def shrink(target: Target, value: Input, sig: str, budget: int = 800) -> Input:
    """Deletes pieces of the input (lines, then ever smaller runs of characters) while the
    same escape stays: greedy delta debugging, ``budget`` tries at most."""
    args: tuple[str, ...] | None = None
    if isinstance(value, tuple):
        value, args = value

    def wrap(piece: Any) -> Input:
        return piece if args is None else (piece, args)

    def same(candidate: Any) -> bool:
        nonlocal budget
        budget -= 1
        exc = attempt(target, wrap(candidate))
        return exc is not None and signature(exc) == sig

    best: Any = value
    newline = b"\n" if isinstance(best, bytes) else "\n"
    lines = best.split(newline)
    i = 0
    while i < len(lines) and budget > 0 and len(lines) > 1:
        candidate = lines[:i] + lines[i + 1:]
        if same(newline.join(candidate)):
            lines = candidate
        else:
            i += 1
    best = newline.join(lines)
    chunk = max(len(best) // 2, 1)
    while chunk >= 1 and budget > 0:
        i = 0
        while i < len(best) and budget > 0:
            candidate = best[:i] + best[i + chunk:]
            if same(candidate):
                best = candidate
            else:
                i += chunk
        chunk //= 2
    return wrap(best)


# ---------------------------------------------------------------- the supervisor


@dataclass
class Escape:
    """One kind of escape: its signature, how often it was hit, the smallest input."""

    signature: str
    target: str
    count: int = 0
    example: Input = None
    trace: str = ""


@dataclass
class Tally:
    """What a run tried and what escaped."""

    tried: dict[str, int] = field(default_factory=dict)
    escapes: dict[str, Escape] = field(default_factory=dict)

    def add(self, sig: str, target: str, example: Input = None, trace: str = "") -> None:
        """Counts one escape, keeping the smallest input of its kind."""
        escape = self.escapes.setdefault(sig, Escape(sig, target))
        escape.count += 1
        if example is not None and (escape.example is None
                                    or _size(example) < _size(escape.example)):
            escape.example, escape.trace = example, trace

    def read(self, journal: Path) -> None:
        """Adds the records of a worker's journal."""
        if not journal.exists():
            return
        for line in journal.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["kind"] == "done":
                name = record["target"]
                self.tried[name] = self.tried.get(name, 0) + record["tried"]
            elif record["kind"] == "escape":
                self.add(record["signature"], record["target"],
                         ast.literal_eval(record["input"]), record["trace"])
            else:
                self.add(record["signature"], record["target"])


MAX_RESTARTS = 100
"""Workers started again after a hang, at most (the run stops then)."""

_FRAME_RE = re.compile(r'File "([^"]+)", line (\d+) in (\S+)')


def hang_signature(report: str) -> str:
    """A hang's kind, from the watchdog's stack dump (most recent call first)."""
    frames = _FRAME_RE.findall(report)
    inner = next((f for f in frames), None)
    ours = next((f for f in frames if "/euchrelog/" in f[0].replace(os.sep, "/")
                 or f[0].endswith("test_fuzz.py")), None)
    def where(f: tuple[str, str, str] | None) -> str:
        return f"{Path(f[0]).name}:{f[1]} in {f[2]}" if f else "unknown"
    return f"Hang at {where(ours)} (innermost {where(inner)})"


def supervise(plan: dict[str, int], seed: int | None, out: Path, timeout: float) -> Tally:
    """Runs workers until the plan is done, recording the input of each hang."""
    tally = Tally()
    left = dict(plan)
    restart = 0
    while any(v > 0 for v in left.values()):
        journal = out / "journal.jsonl"
        journal.unlink(missing_ok=True)
        current = CurrentInput(out / "current-input", create=True)
        run_seed = None if seed is None else seed + 7919 * restart
        args = [sys.executable, __file__, "--worker", "--plan", json.dumps(left),
                "--out", str(out), "--timeout", str(timeout)]
        if run_seed is not None:
            args += ["--seed", str(run_seed)]
        proc = subprocess.run(args, check=False)
        before = dict(tally.tried)
        tally.read(journal)
        done = {k: tally.tried.get(k, 0) - before.get(k, 0) for k in left}
        for name in left:
            left[name] -= done[name]
        if proc.returncode == 0:
            current.close()
            break
        hang_report = (out / "hang-traceback.txt").read_text(encoding="utf-8", errors="replace")
        name, tried, value = current.get()
        current.close()
        tally.tried[name] = tally.tried.get(name, 0) + tried + 1
        left[name] -= tried + 1
        if "Timeout" in hang_report:
            sig = hang_signature(hang_report)
            print(f"  hang in {name} after {tried} inputs: {sig}", flush=True)
            tally.add(sig, name, value, hang_report[-4000:])
        else:
            sig = f"worker died (exit {proc.returncode})"
            print(f"  {sig} in {name} after {tried} inputs", flush=True)
            tally.add(sig, name, value, hang_report[-4000:])
        restart += 1
        if restart >= MAX_RESTARTS:
            print(f"  stopping after {restart} restarts", flush=True)
            break
    return tally


def _save(out: Path, escape: Escape) -> Path:
    name = hashlib.sha1(escape.signature.encode()).hexdigest()[:10]
    path = out / f"escape-{escape.target}-{name}.txt"
    path.write_text(f"{escape.signature}\n{escape.target} input (repr):\n{escape.example!r}\n\n"
                    f"{escape.trace}", encoding="utf-8", errors="backslashreplace")
    return path


def _shrunk(escape: Escape, out: Path, timeout: float) -> Input:
    """The escape's input shrunk in a worker of its own (a hang cannot stop the report)."""
    if escape.signature.startswith(("Hang", "worker")):
        return escape.example
    job = out / "shrink.json"
    job.write_text(json.dumps({"target": escape.target, "signature": escape.signature,
                               "input": repr(escape.example)}), encoding="utf-8")
    try:
        subprocess.run([sys.executable, __file__, "--shrink", str(job), "--out", str(out),
                        "--timeout", str(timeout)], check=True, timeout=max(timeout * 20, 600))
        result = json.loads(job.read_text(encoding="utf-8"))["input"]
        return ast.literal_eval(result)
    except (subprocess.SubprocessError, OSError, ValueError):
        return escape.example
    finally:
        job.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Parses the options, runs the fuzzers and prints the figures."""
    parser = argparse.ArgumentParser(description="Long fuzz runs of euchrelog's properties.")
    parser.add_argument("--examples", type=int, default=100_000,
                        help="inputs in all, shared among notation, json and cli "
                             "(default 100000)")
    parser.add_argument("--module-examples", type=int, default=None,
                        help="inputs run through 'python -m euchrelog check -', a process "
                             "each (default: examples / 2000, at least 5)")
    parser.add_argument("--only", nargs="+", choices=NAMES, help="run only these properties")
    parser.add_argument("--seed", type=int, default=None,
                        help="Hypothesis seed (random if not given)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds one input may take before it counts as a hang "
                             "(default 30)")
    parser.add_argument("--out", type=Path, default=HERE / "out",
                        help="folder for the reproductions (default fuzz/out)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--plan", help=argparse.SUPPRESS)
    parser.add_argument("--shrink", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    out: Path = options.out
    out.mkdir(parents=True, exist_ok=True)

    if options.worker:
        work(json.loads(options.plan), options.seed, out, options.timeout)
        return 0
    if options.shrink:
        job = json.loads(options.shrink.read_text(encoding="utf-8"))
        target = targets(options.timeout)[job["target"]]
        small = shrink(target, ast.literal_eval(job["input"]), job["signature"])
        options.shrink.write_text(json.dumps({**job, "input": repr(small)}), encoding="utf-8")
        return 0

    seed = options.seed if options.seed is not None else random.randrange(2**32)
    module = (options.module_examples if options.module_examples is not None
              else max(options.examples // 2000, 5))
    plan = {name: round(options.examples * share) for name, share in SHARES.items()}
    plan["module"] = module
    if options.only:
        plan = {k: v for k, v in plan.items() if k in options.only}
    print(f"fuzzing euchrelog: {plan}, seed {seed}, timeout {options.timeout:g} s", flush=True)
    start = time.monotonic()
    tally = supervise(plan, seed, out, options.timeout)
    elapsed = time.monotonic() - start

    found = sorted(tally.escapes.values(), key=lambda e: -e.count)
    for escape in found:
        escape.example = _shrunk(escape, out, options.timeout)
    for leftover in ("current-input", "journal.jsonl", "hang-traceback.txt"):
        (out / leftover).unlink(missing_ok=True)

    total = sum(tally.tried.values())
    print(f"\ninputs tried: {total} in {elapsed:.0f} s "
          f"({', '.join(f'{k} {v}' for k, v in tally.tried.items())}), seed {seed}")
    print(f"escapes found: {len(found)} kinds, {sum(e.count for e in found)} inputs")
    for escape in found:
        path = _save(out, escape)
        shown = repr(escape.example)
        print(f"\n- {escape.signature} ({escape.target}, {escape.count} inputs)")
        print(f"  smallest input ({_size(escape.example)} chars): {shown[:300]}"
              f"{' ...' if len(shown) > 300 else ''}")
        print(f"  saved: {path}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
