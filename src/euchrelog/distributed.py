# mypy: disallow-untyped-calls=False
# (Dask's client and bag methods carry no annotations.)
"""Checking records on a Dask cluster (the ``dask`` extra: ``pip install 'euchrelog[dask]'``).

``euchrelog check --scheduler ADDRESS`` and :func:`check_paths` read each source here, cut
it into the batches of whole games that ``check --jobs`` makes, and check each batch on a
worker of a Dask distributed scheduler; the results come back renumbered in input order,
exactly as one process gives them. A worker that dies has its batch run again elsewhere
(Dask's own retry of the tasks of a lost worker), and each batch's results are taken once.

Where every worker sees the corpus under the same paths (a shared file system),
:func:`check_files` is a ``dask.bag`` of ``(path, results)`` whose files are read by the
workers themselves, so that the reading is spread too. For those who already hold their
records in Dask, :func:`check_bag` maps the check over a bag of record texts, and
:func:`check_record` is the function it maps::

    import dask.bag as db
    from euchrelog.distributed import check_bag, check_files

    texts = db.from_sequence(paths, npartitions=len(paths)).map(read_text)
    findings = check_bag(texts).flatten().map(lambda game: game.findings).flatten()
    per_file = check_files(["archive/"]).map(lambda item: (item[0], len(item[1])))

:func:`map_in_order` is the ordered, bounded map under ``analyze --scheduler`` and
``stats --double-dummy --scheduler``. The core package never imports this module: only
``--scheduler`` does.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Generic, TypeVar

import dask.bag
import dask.config
import dask.utils
import distributed

from . import __version__, checker
from .check import GameCheck, check_text
from .checker import Batch, Checker, Pending, check_batch, foreign_kind
from .errors import EuchrelogError, NotationError
from .files import Limits, expand
from .findings import Finding
from .notation import prepare
from .progress import Progress


def _connect_seconds() -> float:
    """How long to wait for the scheduler to answer, and then for a first worker: Dask's
    ``distributed.comm.timeouts.connect`` (``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``)."""
    seconds: float = dask.utils.parse_timedelta(
        dask.config.get("distributed.comm.timeouts.connect"), default="seconds")
    return seconds


def _worker_version() -> str:
    """Builds the parser on a worker (before its first batch) and says which euchrelog the
    worker runs."""
    prepare()
    return __version__


R = TypeVar("R")
T = TypeVar("T")


class _Task(Generic[R]):
    """A piece of work on the cluster; :meth:`get` turns Dask's failures into messages."""

    def __init__(self, future: distributed.Future[R], what: str, address: str) -> None:
        self.future = future
        self.what = what
        self.address = address

    def get(self) -> R:
        """Waits for the result.

        :raises EuchrelogError: if the work stopped several workers in turn (it is not
            tried again) or the scheduler was lost.
        """
        try:
            return self.future.result()
        except distributed.KilledWorker:
            raise EuchrelogError(f"{self.what} stopped every Dask worker that took it "
                                 f"on") from None
        except (asyncio.CancelledError, concurrent.futures.CancelledError, OSError) as exc:
            if self.future.status == "error":  # the work's own error, raised on the worker
                raise
            raise EuchrelogError(f"lost the Dask scheduler at {self.address}: {exc}") from None


class Cluster:
    """A client of a Dask scheduler whose workers run this euchrelog, opened and closed
    as a context manager.

    ``scheduler`` is an address (``tcp://host:8786``) or a scheduler file (``.json``), for
    which a client is opened and closed with the cluster, or a client already open.
    """

    def __init__(self, scheduler: str | distributed.Client) -> None:
        self.scheduler = scheduler
        self.client: distributed.Client | None = None
        self.address = scheduler if isinstance(scheduler, str) else str(
            scheduler.scheduler.address if scheduler.scheduler else scheduler)
        self.threads = 0
        """The worker threads of the cluster when it was opened."""

    def __enter__(self) -> Cluster:
        if isinstance(self.scheduler, distributed.Client):
            self.client = self.scheduler
        else:
            self.address = _address(self.scheduler)
            self.client = _connect(self.address)
        try:
            self.threads = _ready_threads(self.client, self.address)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None and self.client is not self.scheduler:
            self.client.close()
        self.client = None

    def submit(self, function: Callable[[T], R], item: T, what: str) -> _Task[R]:
        """Starts ``function(item)`` on a worker; ``what`` names the work in messages."""
        assert self.client is not None
        future: distributed.Future[R] = self.client.submit(function, item, pure=False)
        return _Task(future, what, self.address)


def map_in_order(function: Callable[[T], R], items: Iterable[T],
                 scheduler: str | distributed.Client, *,
                 what: Callable[[T], str] = lambda item: "an item",
                 per_thread: int = 2) -> Iterator[tuple[T, R]]:
    """Each item with ``function`` of it, computed on the workers of a Dask scheduler with
    at most ``per_thread`` items a worker thread in flight, in the order of ``items``
    (``function`` and the items must pickle; ``what`` names an item in messages).

    :raises EuchrelogError: if the cluster cannot be reached or loses every try of an item.
    """
    with Cluster(scheduler) as cluster:
        flight: collections.deque[tuple[T, _Task[R]]] = collections.deque()
        for item in items:
            flight.append((item, cluster.submit(function, item, what(item))))
            if len(flight) >= per_thread * cluster.threads:
                done, task = flight.popleft()
                yield done, task.get()
        while flight:
            done, task = flight.popleft()
            yield done, task.get()


BATCH_FACTOR = 4
"""How many times larger than those of ``--jobs`` the batches sent to a cluster are: each
task costs the command some milliseconds of Dask's own work, which 8000-line batches
spread over four times the games (measured: about 40% less CPU time on the reading side
than with 2000 lines, docs/scaling.md)."""


class DaskChecker(Checker):
    """A :class:`~euchrelog.checker.Checker` whose batches go to the workers of a Dask
    scheduler (see :class:`Cluster`): the source is read and cut here, and the results
    come back in input order."""

    def __init__(self, scheduler: str | distributed.Client,
                 progress: Progress | None = None) -> None:
        super().__init__(0, progress)
        self.cluster = Cluster(scheduler)

    def __enter__(self) -> DaskChecker:
        self.window = 2 * self.cluster.__enter__().threads
        return self

    def __exit__(self, *exc: object) -> None:
        self.cluster.__exit__()

    def run(self, path: str, name: str, limits: Limits) -> Iterator[GameCheck]:
        """The results of the games of a source, in order, in batches of
        :data:`BATCH_FACTOR` times the lines of ``--jobs``, two a worker thread in flight
        (counted as the source is opened: workers that join are used from the next source
        on).

        :raises NotationError: where the source stops being readable, after the results of
            the games before it.
        """
        assert self.cluster.client is not None
        threads: dict[str, int] = self.cluster.client.nthreads()
        self.window = 2 * max(1, sum(threads.values()))
        self.batch_lines = BATCH_FACTOR * checker.BATCH_LINES
        return super().run(path, name, limits)

    def submit(self, batch: Batch) -> Pending:
        """Starts checking a batch on a worker."""
        where = f"the games of {batch.path or '<stdin>'} from line {batch.first_line}"
        return self.cluster.submit(check_batch, batch, where)


def _connect(address: str) -> distributed.Client:
    """A client of the scheduler at ``address``.

    :raises EuchrelogError: if it does not answer.
    """
    try:
        return distributed.Client(address, timeout=_connect_seconds(), set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise EuchrelogError(f"cannot reach a Dask scheduler at {address}: {exc}") from None


def _address(scheduler: str) -> str:
    """``scheduler`` itself, or, for a ``.json`` file, the address in it (the file that
    ``dask scheduler --scheduler-file`` writes).

    :raises EuchrelogError: for a file without an address, or no address at all.
    """
    if not scheduler.strip():
        raise EuchrelogError("--scheduler needs an address, like tcp://10.0.0.5:8786")
    if not scheduler.endswith(".json"):
        return scheduler
    try:
        address = json.loads(Path(scheduler).read_text(encoding="utf-8"))["address"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise EuchrelogError(f"{scheduler}: not a Dask scheduler file ({exc})") from None
    if not isinstance(address, str):
        raise EuchrelogError(f"{scheduler}: not a Dask scheduler file (no address)")
    return address


def _ready_threads(client: distributed.Client, address: str) -> int:
    """The worker threads of the cluster, once it has a worker and every worker runs this
    euchrelog.

    :raises EuchrelogError: if no worker comes, or one cannot check the games as here.
    """
    seconds = _connect_seconds()
    try:
        client.wait_for_workers(1, timeout=seconds)
    except TimeoutError:
        raise EuchrelogError(
            f"the Dask scheduler at {address} has no worker (waited {seconds:g} s)") from None
    try:
        versions: dict[str, str] = client.run(_worker_version)
    except ModuleNotFoundError as exc:
        raise EuchrelogError(f"a Dask worker of {address} cannot import {exc.name}: install "
                             f"euchrelog[dask] on every worker") from None
    for worker, version in sorted(versions.items()):
        if version != __version__:
            raise EuchrelogError(f"the Dask worker {worker} runs euchrelog {version}, not "
                                 f"{__version__}: its findings could differ")
    threads: dict[str, int] = client.nthreads()
    return sum(threads.values())


def check_paths(paths: Iterable[str], scheduler: str | distributed.Client, *,
                limits: Limits | None = None) -> Iterator[tuple[str, GameCheck]]:
    """Checks sources on a Dask cluster, as ``euchrelog check --scheduler`` does: each
    source is read and cut into batches here, and every game's result is yielded with its
    path, in input order (folders give their ``*.euchre`` files).

    A source that stops being readable (bytes that are not UTF-8, a size limit) gives, after
    the games before that place, one result with index 0 holding its S101 finding.

    :raises ValueError: for a source from elsewhere (EGN, EMN, OpenSpiel): convert it first.
    :raises EuchrelogError: if the cluster cannot be reached or loses every try of a batch.
    """
    limits = limits or Limits()
    with DaskChecker(scheduler) as checker:
        for path in expand(tuple(paths)):
            for result in _results(checker, path, limits):
                yield path, result


def _results(checker: Checker, path: str, limits: Limits) -> Iterator[GameCheck]:
    """The results of the games of one source (see :func:`check_paths`)."""
    kind = foreign_kind(path, limits)
    if kind:
        raise ValueError(f"{path} is {kind}: convert it to notation or JSON first")
    name = "<stdin>" if path == "-" else path
    try:
        yield from checker.run(path, name, limits)
    except NotationError as exc:
        finding = Finding(exc.code, exc.message, exc.line, exc.column, path=name)
        yield GameCheck(0, exc.line, [finding], syntax_error=True)


def check_file(path: str, limits: Limits | None = None) -> tuple[str, list[GameCheck]]:
    """A file and the results of its games, checked in this process (on a worker, when
    mapped by :func:`check_files`) as :func:`check_paths` checks it, replay reports left
    out."""
    with Checker(1) as checker:
        return path, [replace(result, report=None)
                      for result in _results(checker, path, limits or Limits())]


def check_files(paths: Iterable[str], limits: Limits | None = None) -> dask.bag.Bag:
    """A bag of ``(path, results)``, one item a file, each file read and checked whole by
    the worker that takes it: for corpora on storage that every worker sees under the same
    paths, where the reading is spread too (folders are searched here)."""
    files = list(expand(tuple(paths)))
    bag: dask.bag.Bag = dask.bag.from_sequence(files, npartitions=max(1, len(files)))
    checked: dask.bag.Bag = bag.map(check_file, limits)
    return checked


def check_record(text: str, name: str | None = None) -> list[GameCheck]:
    """The results of the games of one record text (notation, JSON Lines or a JSON
    document), numbered within it; findings name ``name`` as their path. The replay
    reports are left out, so that a result is small to send."""
    return [replace(result, report=None) for result in check_text(text, name)]


def check_bag(records: dask.bag.Bag, name: str | None = None) -> dask.bag.Bag:
    """Maps :func:`check_record` over a bag of record texts: a bag of the same length whose
    items are the lists of results of each text (games numbered within their text)."""
    checked: dask.bag.Bag = records.map(check_record, name)
    return checked
