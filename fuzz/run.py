"""Long fuzz runs: the fuzz properties (``tests/support/fuzzing.py``) on a million inputs and more.

Inputs come from a seeded ``random.Random`` (``fuzz/inputs.py``), not from Hypothesis:
input ``i`` of seed ``s`` is made by its own generator, seeded with ``(s, i)``, so any
input can be made again alone (``--replay i``), and a run that stops can go on where it
stopped. Each input goes to one *target*: a generator and the property function of the
test module it feeds. The cheap library-level targets (``loads``, ``check_text`` and
``loads_json`` on small random and mutated records) take most inputs; the expensive ones
(lines of 100000 characters, games of 10000 deals, deep JSON, the CLI through Click's
runner, ``python -m euchrelog`` in a process of its own) a fixed small share each
(``--list`` shows the shares).

A worker process runs the inputs with a guard that records every escape instead of
stopping at the first: an exception other than the project's own error types, a broken
property, a CLI exit status outside 0-2 or a traceback. An input that takes longer than
``--timeout`` seconds is a hang: a watchdog (faulthandler, which runs even while a
regular expression holds the interpreter) ends the worker, this script records the input
and starts a new worker at the next input.

Escapes are grouped by kind and place. At the end each kind's smallest input is shrunk
further (pieces deleted while the same escape stays), printed, and saved under ``--out``
with its traceback, its seed and its index.

    python fuzz/run.py --examples 1000000
    python fuzz/run.py --examples 20000 --only notation json --seed 7
    python fuzz/run.py --seed 7 --replay 12345

Exit status: 0 when nothing escaped, 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import faulthandler
import hashlib
import itertools
import json
import mmap
import os
import random
import re
import resource
import subprocess
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]
import inputs  # noqa: E402
from inputs import Corpus  # noqa: E402

from support import fuzzing as props  # noqa: E402

Input = Any
"""One input of a property: a str, bytes, or (bytes, args) for the CLI."""

STOP = "STOP"
"""A file in ``--out`` that ends a run cleanly: the inputs tried so far are summarised."""

EPOCH = 10_000
"""Inputs per corpus: the generated games that mutations start from change every EPOCH
inputs (a new corpus costs about a second)."""


# ---------------------------------------------------------------- the targets


@dataclass(frozen=True)
class Target:
    """A kind of input, the property that checks it, and its share of the inputs."""

    name: str
    family: str
    """``notation``, ``json``, ``interop``, ``event``, ``record``, ``cli`` or ``module``:
    what ``--only`` selects."""
    weight: int
    """Inputs per 10000."""
    make: Callable[[random.Random, Corpus], Input]
    check: Callable[[Input], None]
    about: str


def _cli(value: tuple[bytes, tuple[str, ...]]) -> None:
    props.check_cli_input(*value)


def _cli_file(value: tuple[bytes, str, tuple[str, ...]]) -> None:
    props.check_cli_file(*value)


def _foreign(kind: str) -> Callable[[str], None]:
    def check(text: str) -> None:
        props.check_foreign_text(kind, text)
    return check


def targets(timeout: float) -> tuple[Target, ...]:
    """Every target, cheap ones first."""
    def module(value: bytes) -> None:  # a slow process fails before the watchdog fires
        props.check_module_input(value, timeout=timeout * 0.8)

    notation = props.check_notation_text
    json_text = props.check_json_text
    return (
        Target("raw", "notation", 1100, inputs.raw_text, notation,
               "random text over a mixed alphabet"),
        Target("tokens", "notation", 1100, inputs.token_text, notation,
               "notation tokens in random order"),
        Target("lines", "notation", 1100, inputs.line_text, notation,
               "lines that start with a keyword"),
        Target("grammar", "notation", 1400, inputs.grammar_text, notation,
               "records that follow the grammar, random content"),
        Target("mutated", "notation", 1600, inputs.mutated, notation,
               "samples and short generated records, 1-4 mutations"),
        Target("mutated-whole", "notation", 250, inputs.mutated_whole, notation,
               "whole generated games, 0-4 mutations"),
        Target("long-line", "notation", 40, inputs.with_long_line, notation,
               "a line of 100000 characters in a record"),
        Target("repeated-tags", "notation", 40, inputs.with_repeated_tags, notation,
               "a tag repeated up to 2000 times"),
        Target("many-deals", "notation", 2, inputs.many_deals, notation,
               "a game of 1000 or 10000 deals"),
        Target("json-value", "json", 950, inputs.json_value_text, json_text,
               "random JSON values with the schema's keys"),
        Target("json-lines", "json", 400, inputs.json_lines_text, json_text,
               "JSON Lines of random values"),
        Target("json-game", "json", 1250, inputs.mutated_game_json, json_text,
               "JSON of generated games, 1-3 values changed, cut short"),
        Target("json-nested", "json", 150, inputs.nested_json, json_text,
               "JSON nested 10-500 deep"),
        Target("json-deep", "json", 20, inputs.deep_json, json_text,
               "JSON nested 1000-100000 deep"),
        Target("json-huge", "json", 100, inputs.huge_json, json_text,
               "JSON with numbers of 4300 digits and more, JSON Lines nested 1000 deep"),
        Target("event", "event", 100, inputs.event_text, props.check_event_text,
               "sample event folders, names and places changed, scored in every format"),
        Target("egn", "interop", 500, inputs.egn_input, _foreign("egn"),
               "EGN files mutated, random values, nested deep"),
        Target("emn", "interop", 250, inputs.emn_input, _foreign("emn"),
               "EMN matches of those games mutated, random values, nested deep"),
        Target("openspiel", "interop", 400, inputs.openspiel_input, _foreign("openspiel"),
               "OpenSpiel histories, actions cut, added and changed"),
        Target("event-source", "event", 250, inputs.event_source, props.check_event_source,
               "any text to score's event reader, read whole and game by game"),
        Target("record", "record", 100, inputs.record_script, props.check_record_script,
               "euchrelog record answering a mutated script, then resumed"),
        Target("cli", "cli", 593, inputs.cli_input, _cli,
               "every command on any of the above as bytes (Click's runner)"),
        Target("cli-file", "cli", 150, inputs.cli_file, _cli_file,
               "check and convert on a file sniffed as EGN, EMN or OpenSpiel"),
        Target("module", "module", 5, inputs.module_input, module,
               "python -m euchrelog check - in a process of its own"),
    )


class Schedule:
    """Which target input ``i`` of a seed goes to, and the generator that makes it."""

    def __init__(self, seed: int, chosen: Sequence[Target]) -> None:
        self.seed = seed
        self.targets = list(chosen)
        self.cumulative = list(itertools.accumulate(t.weight for t in self.targets))

    def rng(self, index: int) -> random.Random:
        """The generator of input ``index``."""
        return random.Random((self.seed << 40) | index)

    def pick(self, rng: random.Random) -> Target:
        """The target of the input whose generator this is (its first draw)."""
        at = rng.random() * self.cumulative[-1]
        return self.targets[bisect.bisect_right(self.cumulative, at)]

    def target_of(self, index: int) -> Target:
        """The target of input ``index``, without making the input."""
        return self.pick(self.rng(index))


class Corpora:
    """The corpus of the epoch an input falls in, built once per epoch."""

    def __init__(self, seed: int, games_per_variant: int = 6) -> None:
        self.seed = seed
        self.games = games_per_variant
        self.epoch = -1
        self.corpus = Corpus()

    def of(self, index: int) -> Corpus:
        """The corpus for input ``index``."""
        epoch = index // EPOCH
        if epoch != self.epoch:
            self.corpus = Corpus.build(random.Random(f"{self.seed}/corpus/{epoch}"),
                                       self.games)
            self.epoch = epoch
        return self.corpus


def make(schedule: Schedule, corpora: Corpora, index: int) -> tuple[Target, Input]:
    """Input ``index``: its target and the input."""
    rng = schedule.rng(index)
    target = schedule.pick(rng)
    return target, target.make(rng, corpora.of(index))


def signature(exc: BaseException) -> str:
    """The kind of an escape: its type and the innermost frame of euchrelog (or of the
    property that failed), so the same bug is counted once however it was reached."""
    place = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        name = frame.filename.replace(os.sep, "/")
        if "/euchrelog/" in name or name.endswith("support/fuzzing.py"):
            place = f"{Path(name).name}:{frame.lineno} in {frame.name}"
    return f"{type(exc).__name__} at {place or 'unknown'}"


def attempt(check: Callable[[Input], None], value: Input) -> BaseException | None:
    """Checks one input; returns what escaped, if anything."""
    try:
        check(value)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # every escape is recorded, none stops the run
        return exc
    return None


def size_of(value: Input) -> int:
    """The size of an input, in characters or bytes."""
    if isinstance(value, tuple):
        return sum(size_of(v) for v in value)
    return len(value) if isinstance(value, str | bytes) else len(repr(value))


# ---------------------------------------------------------------- the worker


class CurrentInput:
    """The input being tried, its target and index, in a memory-mapped file, so that a
    hang that ends the worker leaves them on disk for the supervisor."""

    SIZE = 32 * 1024 * 1024

    def __init__(self, path: Path, create: bool) -> None:
        self.path = path
        if create:
            with path.open("wb") as fh:
                fh.truncate(self.SIZE)
        self.fh = path.open("r+b")
        self.map = mmap.mmap(self.fh.fileno(), self.SIZE)

    def set(self, target: str, index: int, value: Input) -> None:
        """Records the input about to be tried."""
        data = f"{target}\n{index}\n{value!r}".encode("utf-8", "backslashreplace")
        data = data[: self.SIZE - 8]
        self.map[:8] = len(data).to_bytes(8, "little")
        self.map[8:8 + len(data)] = data

    def get(self) -> tuple[str, int, Input]:
        """The target, index and input last recorded (index -1: none yet)."""
        size = int.from_bytes(self.map[:8], "little")
        if not size:
            return "", -1, None
        target, index, text = bytes(self.map[8:8 + size]).decode("utf-8").split("\n", 2)
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):  # cut at SIZE
            value = text
        return target, int(index), value

    def clear(self) -> None:
        """Marks that no input is being tried."""
        self.map[:8] = (0).to_bytes(8, "little")

    def close(self) -> None:
        """Unmaps the file."""
        self.map.close()
        self.fh.close()


def _rss_mb() -> float:
    """The worker's resident memory now (its peak where /proc is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text(encoding="ascii").split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Worker:
    """Runs inputs ``start`` to ``stop`` in this process, journaling as it goes."""

    def __init__(self, schedule: Schedule, corpora: Corpora, journal: TextIO,
                 current: CurrentInput, timeout: float, hang_log: TextIO,
                 progress: float, stop_file: Path | None = None) -> None:
        self.schedule = schedule
        self.stop_file = stop_file
        """A file whose appearance ends the run after the input being tried (``STOP``)."""
        self.corpora = corpora
        self.journal = journal
        self.current = current
        self.timeout = timeout
        self.hang_log = hang_log
        self.progress = progress
        self.smallest: dict[str, int] = {}
        self.counts: Counter[str] = Counter()
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def write(self, **record: Any) -> None:
        """Appends one record to the journal."""
        self.journal.write(json.dumps(record) + "\n")
        self.journal.flush()

    def run(self, start: int, stop: int, total: int) -> None:
        """Runs the inputs; prints progress every ``progress`` seconds."""
        began = last = time.monotonic()
        escapes = 0
        for index in range(start, stop):
            corpus = self.corpora.of(index)  # built once an epoch, outside the watchdog
            faulthandler.dump_traceback_later(self.timeout, exit=True, file=self.hang_log)
            try:
                rng = self.schedule.rng(index)
                target = self.schedule.pick(rng)
                self.current.set(target.name, index, None)  # a hang while making it
                clock = time.perf_counter()
                try:
                    value = target.make(rng, corpus)
                except Exception as broken:  # a bug of fuzz/inputs.py: shown, not counted
                    self.generator_error(target, index, broken)
                    continue
                self.current.set(target.name, index, value)
                exc = attempt(target.check, value)
            finally:
                faulthandler.cancel_dump_traceback_later()
            self.counts[target.name] += 1
            self.seconds[target.name] += time.perf_counter() - clock
            if exc is not None:
                escapes += 1
                self.escape(target, index, value, exc)
            if index % 100 == 99 and self.stop_file is not None and self.stop_file.exists():
                print(f"  stopped at {self.stop_file.name}: {index + 1} inputs tried", flush=True)
                stop = index + 1
                break
            now = time.monotonic()
            if now - last >= self.progress:
                last = now
                done = index + 1 - start
                rate = done / (now - began)
                eta = (stop - index - 1) / rate if rate else 0.0
                print(f"  {index + 1}/{total} inputs, {rate:.0f}/s, {escapes} escapes, "
                      f"{_rss_mb():.0f} MB, about {eta / 60:.0f} min to go", flush=True)
                self.write(kind="counts", counts=dict(self.counts),
                           seconds=dict(self.seconds), next=index + 1)
        self.current.clear()
        self.write(kind="counts", counts=dict(self.counts), seconds=dict(self.seconds),
                   next=stop)

    def generator_error(self, target: Target, index: int, exc: BaseException) -> None:
        """Journals a generator that failed (a bug of fuzz/inputs.py, not of euchrelog)."""
        sig = f"generator error: {type(exc).__name__} in {target.name}"
        print(f"  {sig} at input {index}", flush=True)
        trace = "".join(traceback.format_exception(exc, limit=-8))[-4000:]
        self.write(kind="escape", target=target.name, signature=sig, index=index,
                   input=repr(None), trace=trace)

    def escape(self, target: Target, index: int, value: Input, exc: BaseException) -> None:
        """Journals an escape; the input only when it is the smallest of its kind so far."""
        sig = signature(exc)
        size = size_of(value)
        if sig not in self.smallest:
            print(f"  new escape in {target.name} at input {index}: {sig}", flush=True)
        if size < self.smallest.get(sig, sys.maxsize):
            self.smallest[sig] = size
            trace = "".join(traceback.format_exception(exc, limit=-8))[-4000:]
            self.write(kind="escape", target=target.name, signature=sig, index=index,
                       input=repr(value), trace=trace)
        else:
            self.write(kind="hit", target=target.name, signature=sig)


def chosen_targets(only: Sequence[str] | None, timeout: float) -> list[Target]:
    """The targets ``--only`` names (families or targets), or all."""
    every = targets(timeout)
    if not only:
        return list(every)
    return [t for t in every if t.name in only or t.family in only]


def work(options: argparse.Namespace) -> None:
    """The worker: runs its share of the inputs, journaling as it goes."""
    schedule = Schedule(options.seed, chosen_targets(options.only, options.timeout))
    out: Path = options.out
    current = CurrentInput(out / "current-input", create=False)
    with (out / "journal.jsonl").open("a", encoding="utf-8") as journal, \
            (out / "hang-traceback.txt").open("w", encoding="utf-8") as hang_log:
        worker = Worker(schedule, Corpora(options.seed), journal, current, options.timeout,
                        hang_log, options.progress, out / STOP)
        worker.run(options.start, options.examples, options.examples)
    current.close()


def shrink(check: Callable[[Input], None], value: Input, sig: str, budget: int = 800
           ) -> Input:
    """Deletes pieces of the input (lines, then ever smaller runs of characters) while the
    same escape stays: greedy delta debugging, ``budget`` tries at most."""
    rest: tuple[Any, ...] | None = None  # what goes with the bytes of a command's input
    if isinstance(value, tuple):
        value, *more = value
        rest = tuple(more)

    def wrap(piece: Any) -> Input:
        return piece if rest is None else (piece, *rest)

    def same(candidate: Any) -> bool:
        nonlocal budget
        budget -= 1
        exc = attempt(check, wrap(candidate))
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
    index: int = -1
    trace: str = ""


@dataclass
class Tally:
    """What a run tried and what escaped."""

    tried: Counter[str] = field(default_factory=Counter)
    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    """Time spent making and checking the inputs of each target."""
    escapes: dict[str, Escape] = field(default_factory=dict)

    def add(self, sig: str, target: str, example: Input = None, index: int = -1,
            trace: str = "") -> None:
        """Counts one escape, keeping the smallest input of its kind."""
        escape = self.escapes.setdefault(sig, Escape(sig, target))
        escape.count += 1
        if escape.index < 0 or (example is not None and (
                escape.example is None or size_of(example) < size_of(escape.example))):
            escape.example, escape.index, escape.trace = example, index, trace

    def read(self, journal: Path) -> int:
        """Adds the records of a worker's journal; returns the next input it had not
        counted (-1 if it counted none)."""
        upto = -1
        counts: dict[str, int] = {}
        seconds: dict[str, float] = {}
        if not journal.exists():
            return upto
        for line in journal.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["kind"] == "counts":
                counts, seconds, upto = record["counts"], record["seconds"], record["next"]
            elif record["kind"] == "escape":
                self.add(record["signature"], record["target"],
                         ast.literal_eval(record["input"]), record["index"], record["trace"])
            else:
                self.add(record["signature"], record["target"])
        self.tried.update(counts)
        for name, spent in seconds.items():
            self.seconds[name] += spent
        return upto


MAX_RESTARTS = 100
"""Workers started again after a hang, at most (the run stops then)."""

_FRAME_RE = re.compile(r'File "([^"]+)", line (\d+) in (\S+)')


def hang_signature(report: str) -> str:
    """A hang's kind, from the watchdog's stack dump (most recent call first)."""
    frames = _FRAME_RE.findall(report)
    inner = next(iter(frames), None)
    ours = next((f for f in frames if "/euchrelog/" in f[0].replace(os.sep, "/")
                 or f[0].endswith("test_fuzz.py")), None)

    def where(f: tuple[str, str, str] | None) -> str:
        return f"{Path(f[0]).name}:{f[1]} in {f[2]}" if f else "unknown"
    return f"Hang at {where(ours)} (innermost {where(inner)})"


def supervise(options: argparse.Namespace, schedule: Schedule) -> Tally:
    """Runs workers until every input is tried, recording the input of each hang."""
    tally = Tally()
    out: Path = options.out
    start = 0
    restart = 0
    while start < options.examples:
        journal = out / "journal.jsonl"
        journal.unlink(missing_ok=True)
        current = CurrentInput(out / "current-input", create=True)
        args = [sys.executable, __file__, "--worker", "--start", str(start),
                "--examples", str(options.examples), "--seed", str(options.seed),
                "--out", str(out), "--timeout", str(options.timeout),
                "--progress", str(options.progress)]
        if options.only:
            args += ["--only", *options.only]
        proc = subprocess.run(args, check=False)
        upto = tally.read(journal)
        if proc.returncode == 0:
            current.close()
            break
        name, index, value = current.get()
        current.close()
        counted = max(upto, start)
        if index < 0:  # died outside an input: count what it got through and go on
            index = counted
        for k in range(counted, index + 1):  # tried after the last count, and this one
            tally.tried[schedule.target_of(k).name] += 1
        hang_report = (out / "hang-traceback.txt").read_text(encoding="utf-8", errors="replace")
        name = name or schedule.target_of(index).name
        if "Timeout" in hang_report:
            sig = hang_signature(hang_report) + (" while making the input" if value is None
                                                 else "")
            print(f"  hang in {name} at input {index}: {sig}", flush=True)
        else:
            sig = f"worker died (exit {proc.returncode})"
            print(f"  {sig} in {name} at input {index}", flush=True)
        tally.add(sig, name, value, index, hang_report[-4000:])
        start = index + 1
        restart += 1
        if restart >= MAX_RESTARTS:
            print(f"  stopping after {restart} restarts", flush=True)
            break
    return tally


def _save(out: Path, escape: Escape, seed: int) -> Path:
    name = hashlib.sha1(escape.signature.encode()).hexdigest()[:10]
    path = out / f"escape-{escape.target}-{name}.txt"
    path.write_text(f"{escape.signature}\n{escape.target} input {escape.index} of seed {seed} "
                    f"(make it again: python fuzz/run.py --seed {seed} --replay "
                    f"{escape.index}), smallest found, shrunk (repr):\n{escape.example!r}\n\n"
                    f"{escape.trace}", encoding="utf-8", errors="backslashreplace")
    return path


def _shrunk(escape: Escape, options: argparse.Namespace) -> Input:
    """The escape's input shrunk in a worker of its own (a hang cannot stop the report)."""
    if escape.signature.startswith(("Hang", "worker", "generator")):
        return escape.example
    job = options.out / "shrink.json"
    job.write_text(json.dumps({"target": escape.target, "signature": escape.signature,
                               "input": repr(escape.example)}), encoding="utf-8")
    try:
        subprocess.run([sys.executable, __file__, "--shrink", str(job), "--out",
                        str(options.out), "--timeout", str(options.timeout)],
                       check=True, timeout=max(options.timeout * 20, 600))
        result = json.loads(job.read_text(encoding="utf-8"))["input"]
        return ast.literal_eval(result)
    except (subprocess.SubprocessError, OSError, ValueError):
        return escape.example
    finally:
        job.unlink(missing_ok=True)


def _by_name(timeout: float) -> dict[str, Target]:
    return {t.name: t for t in targets(timeout)}


def replay(options: argparse.Namespace) -> int:
    """Makes input ``--replay`` of the seed again, shows it and checks it."""
    schedule = Schedule(options.seed, chosen_targets(options.only, options.timeout))
    target, value = make(schedule, Corpora(options.seed), options.replay)
    shown = repr(value)
    print(f"input {options.replay} of seed {options.seed}: {target.name} "
          f"({size_of(value)} chars)\n{shown[:4000]}{' ...' if len(shown) > 4000 else ''}")
    exc = attempt(target.check, value)
    if exc is None:
        print("no escape")
        return 0
    traceback.print_exception(exc)
    return 1


def show_targets(timeout: float) -> None:
    """Prints the targets and their shares."""
    every = targets(timeout)
    total = sum(t.weight for t in every)
    print(f"{'target':<14} {'family':<9} {'share':>7}  input")
    for t in every:
        print(f"{t.name:<14} {t.family:<9} {100 * t.weight / total:6.2f}%  {t.about}")


def main(argv: Sequence[str] | None = None) -> int:
    """Parses the options, runs the fuzzers and prints the figures."""
    parser = argparse.ArgumentParser(description="Long fuzz runs of euchrelog's properties.")
    parser.add_argument("--examples", type=int, default=100_000,
                        help="inputs in all, shared among the targets (default 100000)")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="run only these families (notation, json, interop, event, "
                             "record, cli, module) or targets (see --list)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed (random if not given; the run prints it)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds one input may take before it counts as a hang "
                             "(default 30)")
    parser.add_argument("--out", type=Path, default=HERE / "out",
                        help="folder for the reproductions (default fuzz/out)")
    parser.add_argument("--progress", type=float, default=60.0,
                        help="seconds between progress lines (default 60)")
    parser.add_argument("--replay", type=int, metavar="INDEX",
                        help="make input INDEX of --seed (and --only) again and check it")
    parser.add_argument("--list", action="store_true", help="list the targets and shares")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--shrink", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    names = {n for t in targets(options.timeout) for n in (t.name, t.family)}
    if options.only and not set(options.only) <= names:
        parser.error(f"--only takes {', '.join(sorted(names))}")
    if options.list:
        show_targets(options.timeout)
        return 0
    if options.seed is None:
        if options.replay is not None:
            parser.error("--replay needs the --seed of the run")
        options.seed = random.randrange(2**32)
    if options.replay is not None:
        return replay(options)
    out: Path = options.out
    out.mkdir(parents=True, exist_ok=True)
    if options.worker:
        work(options)
        return 0
    if options.shrink:
        job = json.loads(options.shrink.read_text(encoding="utf-8"))
        check = _by_name(options.timeout)[job["target"]].check
        small = shrink(check, ast.literal_eval(job["input"]), job["signature"])
        options.shrink.write_text(json.dumps({**job, "input": repr(small)}), encoding="utf-8")
        return 0

    for stale in out.glob("escape-*.txt"):  # the folder holds the last run's escapes
        stale.unlink()
    (out / STOP).unlink(missing_ok=True)
    schedule = Schedule(options.seed, chosen_targets(options.only, options.timeout))
    print(f"fuzzing euchrelog: {options.examples} inputs, seed {options.seed}, targets "
          f"{', '.join(t.name for t in schedule.targets)}, timeout {options.timeout:g} s",
          flush=True)
    start = time.monotonic()
    tally = supervise(options, schedule)
    elapsed = time.monotonic() - start

    found = sorted(tally.escapes.values(), key=lambda e: -e.count)
    for escape in found:
        escape.example = _shrunk(escape, options)
    for leftover in ("current-input", "journal.jsonl", "hang-traceback.txt"):
        (out / leftover).unlink(missing_ok=True)

    total = sum(tally.tried.values())
    hits = Counter[str]()
    for escape in found:
        hits[escape.target] += escape.count
    print(f"\ninputs tried: {total} in {elapsed:.0f} s ({total / max(elapsed, 1e-9):.0f} "
          f"inputs/s), seed {options.seed}")
    print(f"  {'target':<14} {'inputs':>9} {'escapes':>8} {'seconds':>8} {'ms/input':>9}")
    for t in schedule.targets:
        tried, spent = tally.tried[t.name], tally.seconds[t.name]
        print(f"  {t.name:<14} {tried:>9} {hits[t.name]:>8} {spent:>8.0f} "
              f"{1000 * spent / max(tried, 1):>9.2f}")
    print(f"escapes found: {len(found)} kinds, {sum(e.count for e in found)} inputs")
    summary = {"seed": options.seed, "inputs": total, "seconds": round(elapsed),
               "tried": dict(tally.tried),
               "seconds_per_target": {k: round(v, 1) for k, v in tally.seconds.items()},
               "escapes": {e.signature: e.count for e in found}}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    for escape in found:
        path = _save(out, escape, options.seed)
        shown = repr(escape.example)
        print(f"\n- {escape.signature} ({escape.target}, {escape.count} inputs, first "
              f"smallest at input {escape.index})")
        print(f"  smallest input ({size_of(escape.example)} chars): {shown[:300]}"
              f"{' ...' if len(shown) > 300 else ''}")
        print(f"  saved: {path}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
