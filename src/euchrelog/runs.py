"""One ordered map over games: in this process, in ``--jobs`` processes, or on the workers
of a Dask scheduler (``--scheduler``), every command's work comes back in input order,
with a bounded number of items in flight, so that memory stays flat however large the
input and the output is the same whichever way the work ran.

Items are sent in batches (:class:`Batching`: about so many lines of text a batch, so
that a process gets enough work to pay for sending it); a function mapped elsewhere and
its items must pickle (a function defined at the top of a module).

>>> [r for _, r in ordered_map(abs, [-3, 1, -2])]
[3, 1, 2]
"""

from __future__ import annotations

import collections
import signal
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:  # (a run in process imports no multiprocessing)
    import multiprocessing.pool

if TYPE_CHECKING:
    from distributed import Client

    from .distributed import Cluster

T = TypeVar("T")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

WINDOW = 2
"""Batches in flight a worker process (or a Dask worker thread)."""
BATCH_LINES = 2000
"""About how many lines of record a batch holds by default (some 170 full deals)."""
DASK_BATCH_FACTOR = 4
"""How many times larger the batches sent to a Dask cluster are than those of ``--jobs``:
each task costs some milliseconds of Dask's own work, which larger batches spread over
more games (about 40% less CPU time on the reading side, docs/scaling.md)."""


@dataclass(frozen=True)
class Batching:
    """How items are grouped for another process: a batch is full once the ``weight`` of its
    items (say, their lines) reaches ``size``."""

    weight: Callable[[object], int] = lambda item: 1
    size: int = 1


class _Pending(Protocol[R_co]):  # (a pool's AsyncResult, or a Dask task)
    def get(self) -> R_co: ...


class _Apply(Generic[T, R]):
    """A function applied to each item of a batch (what a worker runs), named as the
    function (Dask names its tasks so)."""

    def __init__(self, function: Callable[[T], R]) -> None:
        self.function = function
        self.__name__ = getattr(function, "__name__", "work")

    def __call__(self, batch: list[T]) -> list[R]:
        return [self.function(item) for item in batch]


def batches(items: Iterable[T], batching: Batching) -> Iterator[list[T]]:
    """The items in batches; where reading them fails, the items read before the fault
    still come as a batch before the error is raised."""
    batch: list[T] = []
    weight = 0
    try:
        for item in items:
            batch.append(item)
            weight += batching.weight(item)
            if weight >= batching.size:
                yield batch
                batch, weight = [], 0
    except Exception:
        if batch:
            yield batch
        raise
    if batch:
        yield batch


_TALLY: list[Callable[[int], object]] = []
"""Where :func:`tally` counts in this process: the hook of the runner running here, or, in
a worker process, the adding to its runner's shared counter."""

POLL = 0.2
"""Seconds between two looks at the shared counter while a batch is waited for."""


def tally(n: int = 1) -> None:
    """Counts ``n`` more units of a command's work done (a deal reviewed, say) for the
    progress line of the runner that runs it, wherever it runs: here, or in one of its
    processes (work on a Dask cluster is counted as its batches come back)."""
    for hook in _TALLY[-1:]:
        hook(n)


def _start_worker(counter: Any) -> None:
    """In a worker process: leaves Ctrl-C to the main process, which ends the workers, and
    counts :func:`tally` in the runner's shared ``counter``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def add(n: int) -> None:
        with counter.get_lock():
            counter.value += n

    _TALLY[:] = [add]


class Runner:
    """Runs functions over items in input order: here, in ``jobs`` processes (forked where
    the system allows, so that they start with what this one has imported), or on the
    workers of the Dask scheduler at ``scheduler`` (``euchrelog[dask]``); a context manager
    that holds its processes or its cluster for every :meth:`map` of a command.

    :param prepare: called here before the processes start (say, to build the parser
        once for all of them).
    :param counted: told what the work counts as done with :func:`tally`, here as it is
        done, from other processes every :data:`POLL` seconds while their results are
        waited for.
    """

    def __init__(self, jobs: int = 1, scheduler: str | Client | None = None,
                 prepare: Callable[[], object] | None = None,
                 counted: Callable[[int], object] | None = None) -> None:
        self.jobs = jobs
        self.scheduler = scheduler
        self.prepare = prepare
        self.counted = counted
        self.pool: multiprocessing.pool.Pool | None = None
        self.cluster: Cluster | None = None
        self.counter: Any = None
        """The count of the work the processes tally (a shared integer)."""
        self.seen = 0
        """What of :attr:`counter` was passed on to :attr:`counted`."""

    def __enter__(self) -> Runner:
        if self.scheduler is not None:
            from .distributed import Cluster

            self.cluster = Cluster(self.scheduler).__enter__()
        elif self.jobs > 1:
            if self.prepare is not None:
                self.prepare()
            import multiprocessing

            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            self.counter = context.Value("q", 0)
            self.pool = context.Pool(self.jobs, _start_worker, (self.counter,))
        _TALLY.append(self.counted or (lambda n: None))
        return self

    def __exit__(self, *exc: object) -> None:
        _TALLY.pop()
        if self.pool is not None:
            self.pool.terminate()
            self.pool = None
        if self.cluster is not None:
            self.cluster.__exit__()
            self.cluster = None

    def map(self, function: Callable[[T], R], items: Iterable[T], *,
            batching: Batching | None = None,
            what: Callable[[list[T]], str] = lambda batch: "some games"
            ) -> Iterator[tuple[T, R]]:
        """Each item with ``function`` of it, in the order of ``items``, at most
        :data:`WINDOW` batches a worker in flight.

        :param batching: how items are grouped for other processes (one item a batch by
            default).
        :param what: names a batch in the messages of a cluster that loses it.
        :raises EuchrelogError: if the Dask cluster loses a batch.
        """
        if self.pool is None and self.cluster is None:
            for item in items:
                yield item, function(item)
            return
        batching = batching or Batching()
        if self.cluster is not None:
            cluster = self.cluster
            larger = Batching(batching.weight, batching.size * DASK_BATCH_FACTOR)
            yield from _in_order(batches(items, larger), _Apply(function),
                                 lambda apply, batch: cluster.submit(apply, batch, what(batch)),
                                 WINDOW * max(1, cluster.threads))
            return
        pool = self.pool
        assert pool is not None
        yield from _in_order(batches(items, batching), _Apply(function),
                             lambda apply, batch: _Polled(pool.apply_async(apply, (batch,)),
                                                          self.poll),
                             WINDOW * self.jobs)

    def poll(self) -> None:
        """Passes on what the processes have tallied since the last look."""
        if self.counter is None or self.counted is None:
            return
        value = int(self.counter.value)
        if value != self.seen:
            self.counted(value - self.seen)
            self.seen = value


class _Polled(Generic[R]):
    """A pool's pending result, waited for :data:`POLL` seconds at a time, ``poll`` called
    between."""

    def __init__(self, pending: multiprocessing.pool.AsyncResult[R],
                 poll: Callable[[], None]) -> None:
        self.pending = pending
        self.poll = poll

    def get(self) -> R:
        while not self.pending.ready():
            self.pending.wait(POLL)
            self.poll()
        self.poll()
        return self.pending.get()


def ordered_map(function: Callable[[T], R], items: Iterable[T], *, jobs: int = 1,
                scheduler: str | Client | None = None, batching: Batching | None = None,
                what: Callable[[list[T]], str] = lambda batch: "some games",
                prepare: Callable[[], object] | None = None,
                counted: Callable[[int], object] | None = None) -> Iterator[tuple[T, R]]:
    """:meth:`Runner.map` with a runner of its own (see :class:`Runner`)."""
    with Runner(jobs, scheduler, prepare, counted) as runner:
        yield from runner.map(function, items, batching=batching, what=what)


def _in_order(batches: Iterator[list[T]], apply: _Apply[T, R],
              submit: Callable[[_Apply[T, R], list[T]], _Pending[list[R]]], window: int
              ) -> Iterator[tuple[T, R]]:
    """The results of the batches, sent with ``submit``, at most ``window`` in flight;
    where reading the batches fails, the results of those read before come first, then the
    error is raised."""
    flight: collections.deque[tuple[list[T], _Pending[list[R]]]] = collections.deque()
    stop: Exception | None = None
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            break
        except Exception as exc:  # (a source that stops being readable, say)
            stop = exc
            break
        flight.append((batch, submit(apply, batch)))
        while len(flight) > window:
            done, pending = flight.popleft()
            yield from zip(done, pending.get(), strict=True)
    while flight:
        done, pending = flight.popleft()
        yield from zip(done, pending.get(), strict=True)
    if stop is not None:
        raise stop
