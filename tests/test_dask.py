# mypy: disallow-untyped-calls=False
# (Dask's cluster, client and bag carry no annotations.)
"""`check --scheduler` and euchrelog.distributed: games checked on a Dask cluster (a local
one of two worker processes) give byte for byte the output of a local run, also when a
worker dies mid-run; the core package never imports Dask."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

pytest.importorskip("distributed")

import dask.bag
import dask.config
import distributed
from distributed.diagnostics.plugin import WorkerPlugin

from euchrelog import checker
from euchrelog import distributed as on_dask
from euchrelog.check import check_text
from euchrelog.cli import main
from euchrelog.errors import EuchrelogError
from euchrelog.files import expand
from euchrelog.generate import Detail, random_game, ruleset_for
from euchrelog.notation.jsonio import game_to_json
from euchrelog.notation.writer import dumps_game
from euchrelog.rules import VARIANTS
from euchrelog.runs import Batching, ordered_map

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
INVALID = sorted((SAMPLES / "invalid").glob("*.euchre"))
DETAILS: tuple[Detail, ...] = ("full", "play-only", "score-sheet", "unknown-cards")


def _cluster(workers: int = 2) -> distributed.LocalCluster:
    """Worker processes of one thread each, on the loopback address only."""
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                    host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                    worker_dashboard_address=None)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster shared by the tests of this module."""
    with _cluster() as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated games of every variant and detail, a sample with findings between every
    few of them (so that findings fall in many batches), in notation and in JSON Lines."""
    rng = random.Random(28)
    texts: list[str] = []
    lines: list[str] = []
    for k in range(90):
        variant = VARIANTS[k % len(VARIANTS)]
        game = random_game(random.Random(rng.random()), ruleset_for(variant),
                           detail=DETAILS[k // len(VARIANTS) % len(DETAILS)])
        texts.append(dumps_game(game))
        lines.append(game_to_json(game) + "\n")
        if k % 3 == 0:
            texts.append(INVALID[k % len(INVALID)].read_text(encoding="utf-8"))
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "games.euchre").write_text("\n".join(texts), encoding="utf-8")
    lines.insert(40, '{"tags": 1}\n')
    (folder / "games.jsonl").write_text("".join(lines), encoding="utf-8")
    return folder


def _check(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", *args])


def _same(local: Result, remote: Result) -> None:
    assert remote.exception is None or isinstance(remote.exception, SystemExit)
    assert (remote.exit_code, remote.stdout, remote.stderr) == (
        local.exit_code, local.stdout, local.stderr)


def test_the_samples_through_a_cluster(scheduler: str) -> None:
    for fmt in ("text", "json"):
        local = _check("--format", fmt, "--jobs", "1", str(SAMPLES))
        assert local.exit_code == 2 and local.stdout.count("\n") > 100
        _same(local, _check("--format", fmt, "--scheduler", scheduler, str(SAMPLES)))


@pytest.mark.parametrize("size", [40, 2000])
def test_a_generated_corpus_through_a_cluster(size: int, scheduler: str, corpus: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checker, "BY_LINES", Batching(checker.lines_of, size))
    for name in ("games.euchre", "games.jsonl"):
        local = _check("--jobs", "1", str(corpus / name))
        assert local.exit_code in (1, 2) and local.stdout
        _same(local, _check("--scheduler", scheduler, str(corpus / name)))


def test_the_command_itself(scheduler: str, corpus: Path) -> None:
    """In a process of its own, the command prints what a local run prints, and nothing
    of Dask's."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "euchrelog", "check", *args],
                              capture_output=True, text=True, check=False)

    paths = [str(corpus / "games.euchre"), str(SAMPLES / "valid")]
    local, remote = run("--jobs", "1", *paths), run("--scheduler", scheduler, *paths)
    assert (remote.returncode, remote.stdout, remote.stderr) == (
        local.returncode, local.stdout, local.stderr)


class _KillOnce(WorkerPlugin):
    """Ends its worker's process as the worker starts its ``after``-th batch, once in the
    whole cluster (the first worker to create ``marker`` is the one)."""

    def __init__(self, marker: str, after: int) -> None:
        self.marker = marker
        self.after = after
        self.started = 0

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        """Counts the batches as they start executing, and dies at the chosen one."""
        if finish != "executing" or "check_one" not in str(key):
            return
        self.started += 1
        if self.started == self.after:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return
            os._exit(1)


def test_a_worker_killed_midway(corpus: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker dies as it starts a batch; the batch is checked again on another worker and
    the output is still whole, in order, and nothing in it twice."""
    # batches of some 200 lines on the cluster
    monkeypatch.setattr(checker, "BY_LINES", Batching(checker.lines_of, 50))
    marker = tmp_path / "killed"
    source = str(corpus / "games.euchre")
    local = _check("--jobs", "1", source)
    with _cluster() as cluster, distributed.Client(cluster, set_as_default=False) as client:
        client.register_plugin(_KillOnce(str(marker), after=4), name="kill-once")
        remote = _check("--scheduler", cluster.scheduler_address, source)
        assert marker.exists()
    _same(local, remote)


def test_the_python_api(scheduler: str, corpus: Path) -> None:
    paths = [str(corpus / "games.euchre"), str(corpus / "games.jsonl"), str(SAMPLES / "valid")]
    local = [(path, r.index, r.findings) for path in expand(tuple(paths))
             for r in check_text(Path(path).read_text(encoding="utf-8"), path)]
    remote = [(path, r.index, r.findings) for path, r in on_dask.check_paths(paths, scheduler)]
    assert remote == local and any(f for _, _, f in local)
    texts = [p.read_text(encoding="utf-8") for p in (corpus / "games.euchre", *INVALID[:5])]
    with distributed.Client(scheduler, set_as_default=False) as client:
        bag = on_dask.check_bag(dask.bag.from_sequence(texts, npartitions=2), "x")
        checked = client.compute(bag).result()
        files = client.compute(on_dask.check_files(paths)).result()
    assert [(path, r.index, r.findings) for path, results in files for r in results] == local
    assert [[(r.index, r.findings) for r in results] for results in checked] == [
        [(r.index, r.findings) for r in check_text(text, "x")] for text in texts]
    assert all(r.report is None for results in checked for r in results)


class _KillScheduler(WorkerPlugin):
    """Ends the scheduler's process as its worker starts its ``after``-th batch."""

    def __init__(self, pid: int, after: int) -> None:
        self.pid = pid
        self.after = after
        self.started = 0

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        """Counts the batches as they start executing, and ends the scheduler at one."""
        if finish == "executing" and "check_one" in str(key):
            self.started += 1
            if self.started == self.after:
                os.kill(self.pid, signal.SIGKILL)


def test_a_lost_scheduler_is_a_message(corpus: Path, tmp_path: Path) -> None:
    """A scheduler that stops mid-run ends the command with a message and status 2, none
    of Dask's own log or tracebacks."""
    file = tmp_path / "scheduler.json"
    big = tmp_path / "big.euchre"
    big.write_text("\n".join([(corpus / "games.euchre").read_text(encoding="utf-8")] * 4),
                   encoding="utf-8")
    def start(*args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)

    scheduler = start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                      "--no-dashboard", "--scheduler-file", str(file))
    worker = start("distributed.cli.dask_worker", "--scheduler-file", str(file), "--nworkers",
                   "1", "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard")
    try:
        for _ in range(600):  # the scheduler writes its address once it listens
            if file.exists() or scheduler.poll() is not None:
                break
            time.sleep(0.1)
        assert file.exists(), "the scheduler did not start"
        with distributed.Client(scheduler_file=str(file), timeout=60,
                                set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)
            client.register_plugin(_KillScheduler(scheduler.pid, after=2), name="kill")
        result = subprocess.run(
            [sys.executable, "-m", "euchrelog", "check", "--scheduler", str(file), str(big)],
            capture_output=True, text=True, check=False, timeout=300,
            env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "5s"})
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("euchrelog: lost the Dask scheduler at tcp://127.0.0.1:")
    assert "Traceback" not in result.stderr and result.stderr.count("\n") <= 2


def test_analyze_through_a_cluster(scheduler: str) -> None:
    """`analyze --scheduler` reviews the games on the workers, in the order of a local run,
    with the par tables and without, in text and JSON, and single dummy with one seed."""
    valid = SAMPLES / "valid"
    for args in (["--no-par", "--format", "json", str(valid / "several-games.euchre"),
                  str(valid / "ghost-club-night.euchre")],
                 [str(valid / "four-hand-euchred-loner.euchre")],
                 ["--no-par", "--format", "json", "--single-dummy", "--samples", "8",
                  "--seed", "3", str(valid / "two-hand-club-night.euchre")]):
        local = CliRunner().invoke(main, ["analyze", *args])
        assert local.exit_code == 0 and local.stdout.count("\n") > 10
        _same(local, CliRunner().invoke(main, ["analyze", "--scheduler", scheduler, *args]))


def test_stats_through_a_cluster(scheduler: str) -> None:
    """`stats --scheduler` replays the games (and with --double-dummy makes the reviews on
    that replay) on the workers: the same figures, in every format."""
    valid = SAMPLES / "valid"
    sources = [str(valid / "several-games.euchre"), str(valid / "four-hand-euchred-loner.euchre"),
               str(SAMPLES / "invalid" / "C901-points-differ.euchre")]
    for fmt in ("text", "json"):
        local = CliRunner().invoke(main, ["stats", "--double-dummy", "--format", fmt, *sources])
        assert local.exit_code == 1 and "tricks lost" in local.stdout.replace("_", " ")
        _same(local, CliRunner().invoke(main, ["stats", "--double-dummy", "--format", fmt,
                                               "--scheduler", scheduler, *sources]))
    local = CliRunner().invoke(main, ["stats", *sources])
    _same(local, CliRunner().invoke(main, ["stats", "--scheduler", scheduler, *sources]))


def test_map_in_order(scheduler: str) -> None:
    words = [f"w{k}" for k in range(40)]
    assert list(ordered_map(str.upper, words, scheduler=scheduler)) == [
        (w, w.upper()) for w in words]
    assert list(ordered_map(str.upper, words, scheduler=scheduler,
                            batching=Batching(lambda word: 1, 7))) == [
        (w, w.upper()) for w in words]


def test_an_error_of_the_work_is_its_own(scheduler: str, tmp_path: Path) -> None:
    """An error that the mapped function raises on a worker comes back as it is, not as a
    lost scheduler."""
    with pytest.raises(FileNotFoundError):
        list(ordered_map(on_dask.check_file, [str(tmp_path / "none.euchre")],
                         scheduler=scheduler))


def test_work_that_stops_every_worker_is_a_message() -> None:
    """Work that ends the process of each worker that takes it is given up (after Dask's
    ``allowed-failures``, here 0), with a message naming it."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), _cluster(1) as cluster:
        work = ordered_map(os._exit, [3], scheduler=cluster.scheduler_address,
                           what=lambda batch: f"exit {batch[0]}")
        with pytest.raises(EuchrelogError, match=r"^exit 3 stopped every Dask worker"):
            list(work)


def test_an_unreadable_rest_is_a_finding(scheduler: str, tmp_path: Path) -> None:
    good = (SAMPLES / "invalid" / "C901-points-differ.euchre").read_bytes()
    path = tmp_path / "mixed.euchre"
    path.write_bytes(good + b"\n[Event \"x\"]\ndeal 1 dealer N\n  thrown \xff in\n" + good)
    local = _check("--jobs", "1", str(path))
    _same(local, _check("--scheduler", scheduler, str(path)))
    results = list(on_dask.check_paths([str(path)], scheduler))
    assert [(r.index, [f.code for f in r.findings]) for _, r in results] == [
        (1, ["C901"]), (0, ["S101"])]


def test_no_scheduler_is_a_message() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    result = subprocess.run(
        [sys.executable, "-m", "euchrelog", "check", "--scheduler", f"tcp://127.0.0.1:{port}",
         str(SAMPLES / "valid")], capture_output=True, text=True, check=False,
        env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "0.5s"})
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(
        f"euchrelog: cannot reach a Dask scheduler at tcp://127.0.0.1:{port}: ")
    assert "Traceback" not in result.stderr


def test_a_scheduler_file(scheduler: str, tmp_path: Path) -> None:
    """A scheduler file (as ``dask scheduler --scheduler-file`` writes) names the scheduler;
    a file without an address is a message."""
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps({"type": "Scheduler", "address": scheduler}), encoding="utf-8")
    local = _check("--jobs", "1", str(SAMPLES / "invalid"))
    _same(local, _check("--scheduler", str(path), str(SAMPLES / "invalid")))
    path.write_text("{}", encoding="utf-8")
    result = _check("--scheduler", str(path), str(SAMPLES / "invalid"))
    assert isinstance(result.exception, EuchrelogError)
    assert str(result.exception) == f"{path}: not a Dask scheduler file ('address')"


def test_workers_of_another_version(scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers that run another euchrelog than the command are named, and nothing is sent."""
    monkeypatch.setattr(on_dask, "__version__", "0.0.1")
    with pytest.raises(EuchrelogError, match=r"^the Dask worker tcp://127\.0\.0\.1:\d+ runs "
                                             r"euchrelog \S+, not 0\.0\.1: its findings could"):
        list(on_dask.check_paths([str(SAMPLES / "valid")], scheduler))


def test_usage_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    both = _check("--jobs", "2", "--scheduler", "tcp://127.0.0.1:1", str(SAMPLES / "valid"))
    assert both.exit_code == 2 and "--jobs and --scheduler do not go together" in both.stderr
    monkeypatch.setitem(sys.modules, "distributed", None)
    missing = _check("--scheduler", "tcp://127.0.0.1:1", str(SAMPLES / "valid"))
    assert missing.exit_code == 2 and "pip install 'euchrelog[dask]'" in missing.stderr


def test_the_core_does_not_import_dask() -> None:
    code = ("import sys\nimport euchrelog, euchrelog.cli\n"
            "from euchrelog.cli import main\n"
            f"try:\n    main(['check', '-q', {str(SAMPLES / 'valid')!r}])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m == 'euchrelog.distributed' "
            "or m.partition('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
