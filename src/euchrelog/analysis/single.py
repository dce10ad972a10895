"""Single-dummy values of a play: what each legal card is worth on average over the layouts
of the cards the seat cannot see (:mod:`.sampler`), each layout played out double dummy
by the review's own :class:`~.solver.Solver` (docs/analysis.md, "Single dummy").

:func:`single_dummy` values one decision; the review (:func:`~.review.review_game` with
``single_dummy=Settings(...)``) calls it at every play. When the layouts number at most
:attr:`Settings.exact_limit` every one is valued (each deal of the hands that play once,
weighed by its layouts); else :attr:`Settings.samples` layouts are drawn uniformly, and a
deal of the hands drawn twice is solved once. The solver's transposition table is shared
by every layout and every play of a deal.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import Card, cards_of, sort_hand
from ..engine import DealState
from ..frozen import Frozen
from ..seats import Seat
from .sampler import Layouts
from .solver import Position, Solver

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes of a play, best first."""
THRESHOLDS = (0.1, 0.25, 0.5)
"""The least loss (in points, less :data:`MARGIN` standard errors) of an ``inaccuracy``,
a ``mistake`` and a ``blunder``; a card not among the best that loses less is ``good``."""
MARGIN = 2.0
"""Standard errors taken off a sampled loss before it is classed: a loss within sampling
error of none is ``good``, not worse."""
TIE = 1e-9
"""Means closer than this are equal (a tie for the best card)."""


@dataclass(frozen=True)
class Settings(Frozen):
    """How the single-dummy values are worked out."""

    samples: int = 64
    """Layouts drawn when there are more than :attr:`exact_limit`."""
    exact_limit: int = 64
    """Layouts up to which every layout is valued."""
    seed: int = 0
    """The seed of the draws (each play draws from its own stream, so the values do not
    depend on the order deals are reviewed in)."""


@dataclass(frozen=True)
class SingleDummy(Frozen):
    """The single-dummy values of one play (see docs/analysis.md)."""

    exact: bool
    """Whether every layout was valued."""
    layouts: int
    """The number of layouts."""
    samples: int
    """Layouts valued: the draws when sampled; when exact, the deals of the hands that
    play (each weighed by its layouts)."""
    values: dict[Card, float]
    """Every legal card, with the mean of the makers' total tricks if it is played."""
    points: dict[Card, float]
    """Every legal card, with the mean points of the deciding side if it is played, under
    the game's scoring (:func:`side_points`)."""
    best: tuple[Card, ...]
    """The cards of the most :attr:`net` points, sorted as a hand."""
    loss: float
    """The best card's :attr:`net` points less the played card's."""
    grade: str
    """One of :data:`CLASSES` (``class`` in JSON)."""
    se: float | None
    """The standard error of :attr:`loss` when sampled (``None``: exact)."""
    net: dict[Card, float] | None = None
    """Every legal card, with the mean of the deciding side's points less the most any
    side of the other camp scores (:func:`net_points`), the basis of :attr:`best` and
    :attr:`loss` (``None``: the same as :attr:`points`)."""


def grade(loss: float, se: float | None, best: bool) -> str:
    """The class of a play that loses ``loss`` points (``se``: its standard error, when
    sampled; ``best``: the card is among the best)."""
    if best:
        return CLASSES[0]
    margin = loss - MARGIN * (se or 0.0)
    found = CLASSES[1]
    for threshold, name in zip(THRESHOLDS, CLASSES[2:], strict=True):
        if margin >= threshold:
            found = name
    return found


def _scored(state: DealState, tricks: int) -> dict[str, int]:
    """Each side's points when the makers take ``tricks``, under the deal's scoring."""
    if state.ruleset.variant.scoring:
        return state.points(made=tricks) or {}
    assert state.maker is not None
    return state.points(taken={state.maker: tricks}) or {}


def net_points(state: DealState, seat: Seat, tricks: int) -> float:
    """The points of ``seat``'s side when the makers take ``tricks`` (under the deal's
    scoring), less the most any side of the other camp (makers or defenders) scores."""
    rules = state.ruleset
    points = _scored(state, tricks)
    makers = set(state.makers)
    mine = seat in makers
    others = {rules.side(s) for s in rules.seats if (s in makers) is not mine}
    return points.get(rules.side(seat), 0) - max((points.get(o, 0) for o in others),
                                                  default=0)


def side_points(state: DealState, seat: Seat, tricks: int) -> float:
    """The points of ``seat``'s side when the makers take ``tricks`` (under the deal's
    scoring)."""
    return _scored(state, tricks).get(state.ruleset.side(seat), 0)


def single_dummy(solver: Solver, layouts: Layouts, position: Position, won: int,
                 played: Card, worth: Sequence[float], settings: Settings,
                 rng: random.Random, renege: float | None = None,
                 own: Sequence[float] | None = None) -> SingleDummy:
    """The single-dummy values of playing ``played`` at ``position`` (its trick and leader;
    the hands are the layouts'), the seat's view being ``layouts``; ``won``: the makers'
    tricks so far; ``worth``: the deciding side's net points by the makers' total tricks
    (:func:`net_points`); ``renege``: the card played is a renege, which scores the side
    these net points (the penalty) whatever the layout; ``own``: the side's own points by
    the makers' tricks (:func:`side_points`), for :attr:`SingleDummy.points` (``None``:
    the net points)."""
    _, leader, trick = position

    def value(key: tuple[int, ...]) -> dict[Card, int]:
        found = solver.values((key, leader, trick))
        return {card: won + tricks for card, tricks in found.items()}

    return _mean(solver, layouts, value, played, worth, settings, rng, renege, own)


def discard_dummy(solver: Solver, layouts: Layouts, leader: Seat, discard: Card,
                  worth: Sequence[float], settings: Settings,
                  rng: random.Random, own: Sequence[float] | None = None) -> SingleDummy:
    """The single-dummy values of the dealer's discard: ``layouts`` is the dealer's view
    at the opening lead (its hand after the exchange, the discard seen), ``discard`` the
    card it discarded; each card of the six it held is valued as the discard, the makers'
    tricks from the opening lead (``leader``) under perfect play. Discards worth the same
    to the hand in a layout (equivalent cards) are solved once."""
    dealer = layouts.seat
    place = solver.seats.index(dealer)
    six = cards_of(layouts.own | discard.bit)

    def value(key: tuple[int, ...]) -> dict[Card, int]:
        live = cards_of(functools.reduce(operator.or_, key, discard.bit))
        out: dict[Card, int] = {}
        tricks: int | None = None
        for group in solver.equivalent(six, live):
            hands = list(key)
            hands[place] = (layouts.own | discard.bit) & ~group[0].bit
            tricks = solver.value((tuple(hands), solver.seats.index(leader), ()), guess=tricks)
            out.update(dict.fromkeys(group, tricks))
        return out

    return _mean(solver, layouts, value, discard, worth, settings, rng, None, own)


def _mean(solver: Solver, layouts: Layouts,
          value: Callable[[tuple[int, ...]], dict[Card, int]], played: Card,
          worth: Sequence[float], settings: Settings, rng: random.Random,
          renege: float | None, own: Sequence[float] | None = None) -> SingleDummy:
    """The single-dummy values of a decision whose options ``value`` gives in each deal of
    the playing hands (by place in the solver's line-up), the makers' total tricks of each
    option: every layout of ``layouts`` or a draw of them (see :func:`single_dummy`)."""
    solved: dict[tuple[int, ...], dict[Card, int]] = {}

    def once(hands: dict[Seat, int]) -> dict[Card, int]:
        key = tuple(hands[s] for s in solver.seats)
        found = solved.get(key)
        if found is None:
            found = solved[key] = value(key)
        return found

    exact = layouts.count <= settings.exact_limit
    weighed: list[tuple[dict[Card, int], int]]
    if exact:
        weighed = [(once(hands), weight) for hands, weight in layouts.deals()]
    else:
        weighed = [(once(hands), 1) for hands in layouts.sample(rng, settings.samples)]
    total = sum(weight for _, weight in weighed)
    cards = sort_hand(weighed[0][0])
    values = {c: sum(v[c] * w for v, w in weighed) / total for c in cards}
    net = {c: sum(worth[v[c]] * w for v, w in weighed) / total for c in cards}
    points = net if own is None else {
        c: sum(own[v[c]] * w for v, w in weighed) / total for c in cards}
    top = max(net.values())
    best = tuple(c for c in cards if net[c] >= top - TIE)
    if renege is not None:
        loss = max(top - renege, 0.0)
        return SingleDummy(exact, layouts.count, len(weighed), values, points, best, loss,
                           grade(loss, None, False), None if exact else 0.0, net)
    loss = max(top - net[played], 0.0)
    se: float | None = None
    if not exact:
        first = best[0]
        se = standard_error([worth[v[first]] - worth[v[played]] for v, _ in weighed])
    return SingleDummy(exact, layouts.count, len(weighed), values, points, best, loss,
                       grade(loss, se, played in best), se, net)


def standard_error(sample: Sequence[float]) -> float:
    """The standard error of the mean of ``sample``."""
    n = len(sample)
    if n < 2:
        return 0.0
    mean = sum(sample) / n
    return math.sqrt(sum((x - mean) ** 2 for x in sample) / (n - 1) / n)
