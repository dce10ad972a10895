"""A match's results: each player's points per deal with 95% confidence intervals, boards
won against the field, and a rating (:class:`Standing`, :func:`standings`), gathered board
by board (:class:`Tally`, which keeps a few sums, not the boards).

The unit of the statistics is the board: under duplicate a player's value on a board is
the mean, over the board's games, of its side's points less the mean of the other sides'
points (``net``); the boards are independent, and the interval is the mean's, by the
normal approximation (1.96 standard errors).

>>> tally = Tally(2)
>>> for values in ([1.0, -1.0], [0.0, 0.0], [2.0, -2.0], [-1.0, 1.0]):
...     tally.add(values, [max(v, 0.0) for v in values])
>>> [round(s.net, 2) for s in standings(tally, ["a", "b"])]
[0.5, -0.5]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""
ELO_SCALE = 400.0
"""The Elo scale: a rating 400 higher expects ten times the score."""
BASE_RATING = 1500.0


@dataclass
class Sums:
    """The running sums of one series (count, sum, sum of squares)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        """Counts one more value."""
        self.n += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        """The mean (0 for no value)."""
        return self.total / self.n if self.n else 0.0

    @property
    def half_width(self) -> float:
        """Half the width of the mean's 95% interval (0 below two values)."""
        if self.n < 2:
            return 0.0
        variance = max(self.squares - self.total * self.total / self.n, 0.0) / (self.n - 1)
        return Z95 * math.sqrt(variance / self.n)


@dataclass
class Tally:
    """What the boards of a match add up to, board by board, for ``players`` players."""

    players: int
    net: list[Sums] = field(default_factory=list)
    points: list[Sums] = field(default_factory=list)
    wins: list[list[float]] = field(default_factory=list)
    """``wins[a][b]``: the boards ``a`` did better on than ``b`` (a tie counts a half)."""
    boards: int = 0

    def __post_init__(self) -> None:
        self.net = [Sums() for _ in range(self.players)]
        self.points = [Sums() for _ in range(self.players)]
        self.wins = [[0.0] * self.players for _ in range(self.players)]

    def add(self, net: Sequence[float], points: Sequence[float]) -> None:
        """Counts a board: each player's net points and points on it."""
        self.boards += 1
        for a in range(self.players):
            self.net[a].add(net[a])
            self.points[a].add(points[a])
            for b in range(self.players):
                if a != b:
                    self.wins[a][b] += 1.0 if net[a] > net[b] else 0.5 if net[a] == net[b] \
                        else 0.0


@dataclass(frozen=True)
class Standing:
    """One player's line of the rating table."""

    name: str
    net: float
    """Points per deal less the other sides' (the mean over boards)."""
    net_ci: float
    """Half the width of its 95% interval."""
    points: float
    """The side's points per deal."""
    points_ci: float
    won: float
    """The share of the boards it did better on than the others (ties a half)."""
    rating: float
    """An Elo rating from the boards won and lost against each other player."""


def standings(tally: Tally, names: Sequence[str]) -> list[Standing]:
    """The rating table, best first (by net points per deal)."""
    rows = []
    count = tally.players
    for a in range(count):
        scores = [tally.wins[a][b] / tally.boards for b in range(count)
                  if b != a and tally.boards]
        rating = BASE_RATING + (sum(map(elo, scores)) / len(scores) if scores else 0.0)
        won = sum(scores) / len(scores) if scores else 0.0
        rows.append(Standing(names[a], tally.net[a].mean, tally.net[a].half_width,
                             tally.points[a].mean, tally.points[a].half_width, won, rating))
    return sorted(rows, key=lambda row: -row.net)


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (0 to 1), held within +-800.

    >>> round(elo(0.75))
    191
    """
    score = min(max(score, 0.01), 0.99)
    return ELO_SCALE * math.log10(score / (1 - score))
