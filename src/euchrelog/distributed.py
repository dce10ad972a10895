# mypy: disallow-untyped-calls=False
# (Dask's client and bag methods carry no annotations.)
"""Checking records on a Dask cluster (the ``dask`` extra: ``pip install 'euchrelog[dask]'``).

``euchrelog check --scheduler ADDRESS`` and :func:`check_paths` read each source here, cut
it into batches of whole games (as ``check --jobs`` does, four times larger), and check
each batch on a worker of a Dask distributed scheduler; the results come back in input order,
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

:class:`Cluster` is what the one runner (:class:`euchrelog.runs.Runner`) sends work to
under every command's ``--scheduler``. The core package never imports this module: only
``--scheduler`` does.
"""

from __future__ import annotations

import asyncio
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

from . import __version__
from .check import GameCheck, check_text
from .checker import BY_LINES, check_one
from .errors import EuchrelogError, NotationError
from .files import Limits, expand
from .findings import Finding
from .notation import prepare
from .runs import Runner
from .sources import open_source, source_name


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
    path, in input order (folders give their ``*.euchre`` files; a source from elsewhere,
    EGN, EMN or OpenSpiel, is checked too).

    A source that stops being readable (bytes that are not UTF-8, a size limit) gives, after
    the games before that place, one result with index 0 holding its S101 finding.

    :raises EuchrelogError: if the cluster cannot be reached or loses every try of a batch.
    """
    with Runner(scheduler=scheduler) as runner:
        for path in expand(tuple(paths)):
            for result in _results(runner, path, limits or Limits()):
                yield path, result


def _results(runner: Runner, path: str, limits: Limits) -> Iterator[GameCheck]:
    """The results of the games of one source (see :func:`check_paths`)."""
    name = source_name(path)
    try:
        for _, result in runner.map(check_one, open_source(path, limits).chunks(),
                                    batching=BY_LINES):
            if not result.comments_only:
                yield result
    except NotationError as exc:
        finding = Finding(exc.code, exc.message, exc.line, exc.column, path=name)
        yield GameCheck(0, exc.line, [finding], syntax_error=True)


def check_file(path: str, limits: Limits | None = None) -> tuple[str, list[GameCheck]]:
    """A file and the results of its games, checked in this process (on a worker, when
    mapped by :func:`check_files`) as :func:`check_paths` checks it, replay reports left
    out."""
    with Runner() as runner:
        return path, list(_results(runner, path, limits or Limits()))


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
