"""A one-line progress display on standard error for long runs: the share of the input's
bytes whose work is done (checked, formatted, written: a command advances it as it finishes
each game, not as it reads ahead), the deals or games done, and the time left, drawn only
on a terminal and cleared before anything else is printed. Every command that reads records
shows its progress through this one class.

(A small one of our own: the well-kept libraries, tqdm and rich, add more to the start-up
time of every command than this whole module takes to run.)

>>> progress = Progress(total=4_000_000, enabled=False)
>>> progress.advance(1_000_000)
>>> progress.line(elapsed=3.0)
'checking  25%  1.0 of 4.0 MB, about 9 s left'
>>> progress.line(elapsed=0.1)
'checking  25%  1.0 of 4.0 MB, under 1 s left'
>>> progress.count(120, "deal")
>>> progress.line(elapsed=3.0)
'checking  25%  1.0 of 4.0 MB, 120 deals, about 9 s left'
>>> boards = Progress(total=1000, verb="playing", unit="boards", enabled=False)
>>> boards.advance(250)
>>> boards.line(elapsed=3.0)
'playing  25%  250 of 1000 boards, about 9 s left'
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO, TypeVar

from .files import is_regular

T = TypeVar("T")

DELAY = 0.5
"""Seconds before the line is first drawn: a short run shows nothing."""
INTERVAL = 0.2
"""Seconds between two redraws."""


def total_size(paths: Iterable[str]) -> int | None:
    """The bytes of every source, or ``None`` when one is not a regular file (standard
    input, a pipe, a device), whose size is not known before it is read."""
    paths = list(paths)
    if not all(is_regular(p) for p in paths):
        return None
    return sum(Path(p).stat().st_size for p in paths)


def remaining(seconds: float) -> str:
    """A rough duration for people: ``under 1 s``, ``about 9 s``, ``about 3 min``.

    >>> [remaining(s) for s in (0.2, 9.4, 185, 7500)]
    ['under 1 s', 'about 9 s', 'about 3 min', 'about 2 h 5 min']
    """
    if seconds < 1:
        return "under 1 s"
    if seconds < 100:
        return f"about {seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"about {minutes} min" if minutes < 60 else (
        f"about {minutes // 60} h {minutes % 60} min")


class Progress:
    """How much of the input has been read, shown on ``stream`` when it is a terminal."""

    def __init__(self, total: int | None, *, verb: str = "checking", enabled: bool = True,
                 stream: TextIO | None = None, unit: str | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.total = total
        """The bytes of every input, or ``None`` when unknown (standard input)."""
        self.verb = verb
        self.read = 0
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.items = 0
        """The deals (or games) done so far, shown beside the bytes."""
        self.noun = "deal"
        self.unit = unit
        """What :meth:`advance` counts when not bytes (``boards``): the line then shows
        them, not megabytes."""

    def count(self, n: int, noun: str = "deal") -> None:
        """Counts ``n`` more deals (or games: ``noun``) done, and redraws now and then (so
        that the line moves while one long game is worked on)."""
        self.items += n
        self.noun = noun
        self.draw()

    def games(self, items: Iterable[T]) -> Iterator[T]:
        """The items, each counted as a game done."""
        for item in items:
            self.count(1, "game")
            yield item

    def lines(self, lines: Iterable[str]) -> Iterator[str]:
        """The lines, each counted as done (its bytes) when the next one is asked for."""
        for line in lines:
            yield line
            self.advance(len(line.encode("utf-8")) + 1)

    def advance(self, n: int) -> None:
        """Counts ``n`` more bytes done, and redraws now and then."""
        self.read += n
        self.draw()

    def draw(self) -> None:
        """Redraws the line, at most every :data:`INTERVAL` seconds, from :data:`DELAY`
        seconds on."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < DELAY or now - self.last < INTERVAL:
            return
        self.last = now
        self.stream.write("\r\033[K" + self.line(now - self.start))
        self.stream.flush()
        self.shown = True

    def line(self, elapsed: float) -> str:
        """The text of the display after ``elapsed`` seconds."""
        mb = self.read / 1e6
        items = f", {self.items} {self.noun}{'' if self.items == 1 else 's'}" if self.items else ""
        if not self.total:
            return f"{self.verb}  {mb:.1f} MB{items}"
        share = min(self.read / self.total, 1.0)
        done = (f"{self.read} of {self.total} {self.unit}" if self.unit is not None
                else f"{mb:.1f} of {self.total / 1e6:.1f} MB")
        head = f"{self.verb} {share:4.0%}  {done}{items}"
        if not share:  # (nothing done yet to tell the time left by)
            return head
        return f"{head}, {remaining(elapsed * (1 - share) / share)} left"

    def clear(self) -> None:
        """Removes the line, before a finding or a summary is printed."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
