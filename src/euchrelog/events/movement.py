"""Movements: the draw of an evening for N players and R rounds, made for the director
(docs/tournaments.md, "Movements").

Every round each player plays once at a table of four, with a partner (North-South,
East-West), or sits out: when the players are not a multiple of four, the players over it
have a bye that round, given in turn to those who have had the fewest (so no one sits out
twice before everyone has once). Two kinds:

- ``progressive``: a new partner every round, as progressive euchre has it: no one
  partners the same player twice while another partner is left; who faces whom is left
  as it falls.
- ``rotating``: the same partners rule, and then the fewest repeated opponents.

A round is chosen among the ways to seat the players so that it adds the fewest repeats
(by partner, then, for ``rotating``, by opponent) to the rounds before it; for up to eight
players at the tables every way is tried, beyond that a seeded sample (the draw is the
same for the same players and rounds), and the best of several starts is kept.

>>> draw = movement("rotating", 8, 3)
>>> [len(r.tables) for r in draw.rounds], draw.repeats()
([2, 2, 2], (0, 0))
>>> [len(r.byes) for r in movement("progressive", 9, 2).rounds]
[1, 1]
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["progressive", "rotating"]

KINDS: tuple[Kind, ...] = ("progressive", "rotating")

_EXACT = 8
"""Players at the tables up to which every way to seat a round is tried."""
_SAMPLE = 400
"""Ways to seat a round tried beyond that, for all the choices of byes together."""
_STARTS = 8
"""Starts of the search, of which the best draw is kept."""
_BYE_CHOICES = 12
"""Choices of who sits out a round tried, at the most."""
_PASSES = 4
"""Passes of swaps that improve a round of many players, at the most."""


@dataclass(frozen=True)
class Seating:
    """One table of a round: the players (0-based) at North, South (partners), East and
    West (partners)."""

    n: int
    s: int
    e: int
    w: int

    @property
    def partners(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two partnerships, each in order."""
        return _pair(self.n, self.s), _pair(self.e, self.w)

    @property
    def opponents(self) -> tuple[tuple[int, int], ...]:
        """The four pairs of players who face each other."""
        return tuple(_pair(a, b) for a in (self.n, self.s) for b in (self.e, self.w))

    def seats(self) -> dict[str, int]:
        """The player of each seat."""
        return {"N": self.n, "E": self.e, "S": self.s, "W": self.w}


@dataclass(frozen=True)
class Round:
    """One round: its tables (table 1 first) and the players who sit out."""

    tables: tuple[Seating, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Movement:
    """The draw of an evening: ``players`` players (0-based) over its rounds."""

    kind: Kind
    players: int
    rounds: tuple[Round, ...] = field(default_factory=tuple)

    def partnered(self) -> Counter[tuple[int, int]]:
        """How often each pair of players were partners."""
        return Counter(p for r in self.rounds for t in r.tables for p in t.partners)

    def opposed(self) -> Counter[tuple[int, int]]:
        """How often each pair of players faced each other."""
        return Counter(p for r in self.rounds for t in r.tables for p in t.opponents)

    def repeats(self) -> tuple[int, int]:
        """The repeated partners and repeated opponents: each meeting of a pair beyond its
        first, counted."""
        return _repeats(self.partnered()), _repeats(self.opposed())

    def draw(self, names: Sequence[str | int]) -> list[dict[str, object]]:
        """The draw as ``euchrelog serve`` takes it (``{round, table, seats}`` each), the
        players by their names or numbers in ``names`` (one a player)."""
        if len(names) != self.players:
            raise ValueError(f"the movement is for {self.players} players, not {len(names)}")
        return [{"round": r, "table": t, "seats": {s: names[p] for s, p in seat.seats().items()}}
                for r, one in enumerate(self.rounds, 1)
                for t, seat in enumerate(one.tables, 1)]


def movement(kind: Kind, players: int, rounds: int, seed: int = 0) -> Movement:
    """The draw of ``kind`` for ``players`` players (4 to 400) and ``rounds`` rounds (1 to
    50); the same for the same arguments.

    :raises ValueError: for a kind, count of players or of rounds out of range.
    """
    if kind not in KINDS:
        raise ValueError(f"a movement is {' or '.join(KINDS)}, not {kind!r}")
    if not 4 <= players <= 400:
        raise ValueError(f"a movement needs 4 to 400 players, not {players}")
    if not 1 <= rounds <= 50:
        raise ValueError(f"a movement has 1 to 50 rounds, not {rounds}")
    best: tuple[tuple[int, int], Movement] | None = None
    for start in range(_STARTS if players <= 2 * _EXACT else 2):
        rng = random.Random(f"{kind}:{players}:{rounds}:{seed}:{start}")
        made = _search(kind, players, rounds, rng)
        score = _score(kind, made.repeats())
        if best is None or score < best[0]:
            best = (score, made)
        if score == (0, 0):
            break
    assert best is not None
    return best[1]


def _score(kind: Kind, repeats: tuple[int, int]) -> tuple[int, int]:
    """What a kind minimises: partners, then (rotating) opponents."""
    return (repeats[0], repeats[1] if kind == "rotating" else 0)


def _search(kind: Kind, players: int, rounds: int, rng: random.Random) -> Movement:
    partnered: Counter[tuple[int, int]] = Counter()
    opposed: Counter[tuple[int, int]] = Counter()
    sat_out: Counter[int] = Counter()
    made = []
    for _ in range(rounds):
        best: tuple[tuple[int, int, float], Round] | None = None
        choices = list(_byes(players, sat_out, rng))
        for byes in choices:
            playing = [p for p in range(players) if p not in byes]
            for tables in _seatings(playing, rng, max(20, _SAMPLE // len(choices))):
                added_partners = sum(partnered[p] for t in tables for p in t.partners)
                added_opponents = sum(opposed[p] for t in tables for p in t.opponents)
                score = (added_partners, added_opponents if kind == "rotating" else 0,
                         rng.random())
                if best is None or score < best[0]:
                    best = (score, Round(tables, byes))
        assert best is not None
        one = best[1]
        if len(one.tables) * 4 > _EXACT:
            one = _improve(kind, one, partnered, opposed)
        sat_out.update(one.byes)
        partnered.update(p for t in one.tables for p in t.partners)
        opposed.update(p for t in one.tables for p in t.opponents)
        made.append(one)
    return Movement(kind, players, tuple(made))


def _improve(kind: Kind, one: Round, partnered: Counter[tuple[int, int]],
             opposed: Counter[tuple[int, int]]) -> Round:
    """The round with two players swapped wherever that adds fewer repeats, until no swap
    does (or a few passes)."""
    seats = [p for t in one.tables for p in (t.n, t.s, t.e, t.w)]

    def cost(table: int) -> tuple[int, int]:
        t = Seating(*seats[4 * table:4 * table + 4])
        return (sum(partnered[p] for p in t.partners),
                sum(opposed[p] for p in t.opponents) if kind == "rotating" else 0)

    for _ in range(_PASSES):
        better = False
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = i // 4, j // 4
                if a == b and (i % 4) // 2 == (j % 4) // 2:
                    continue  # (partners trading seats change nothing)
                tables = {a, b}
                before = [cost(t) for t in tables]
                seats[i], seats[j] = seats[j], seats[i]
                after = [cost(t) for t in tables]
                if _total(after) < _total(before):
                    better = True
                else:
                    seats[i], seats[j] = seats[j], seats[i]
        if not better:
            break
    return Round(tuple(Seating(*seats[i:i + 4]) for i in range(0, len(seats), 4)), one.byes)


def _total(costs: list[tuple[int, int]]) -> tuple[int, int]:
    return sum(c[0] for c in costs), sum(c[1] for c in costs)


def _byes(players: int, sat_out: Counter[int], rng: random.Random
          ) -> Iterator[tuple[int, ...]]:
    """The choices of who sits out the next round: as many players as are over a multiple
    of four, among those with the fewest byes so far (every choice for a few players, else
    a sample)."""
    count = players % 4
    if not count:
        yield ()
        return
    fewest = min(sat_out[p] for p in range(players))
    due = [p for p in range(players) if sat_out[p] == fewest]
    later = [p for p in range(players) if sat_out[p] > fewest]
    if len(due) < count:  # (all of them, and the rest from the next fewest)
        fewest_later = min(sat_out[p] for p in later)
        due, rest = due, [p for p in later if sat_out[p] == fewest_later]
        for more in itertools.combinations(rest, count - len(due)):
            yield tuple(sorted([*due, *more]))
        return
    choices = list(itertools.combinations(due, count))
    if len(choices) > _BYE_CHOICES:
        choices = rng.sample(choices, _BYE_CHOICES)
    for chosen in choices:
        yield tuple(sorted(chosen))


def _seatings(playing: list[int], rng: random.Random, samples: int = _SAMPLE
              ) -> Iterator[tuple[Seating, ...]]:
    """Ways to seat ``playing`` (a multiple of four) at tables: all of them for a few
    players, else ``samples`` of them."""
    if len(playing) <= _EXACT:
        for pairs in _matchings(playing):
            for grouped in _matchings(list(range(len(pairs)))):
                yield tuple(Seating(*pairs[a], *pairs[b]) for a, b in grouped)
        return
    for _ in range(samples):
        order = list(playing)
        rng.shuffle(order)
        yield tuple(Seating(*order[i:i + 4]) for i in range(0, len(order), 4))


def _matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to split ``items`` (an even number) into pairs."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for more in _matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *more]


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _repeats(meetings: Counter[tuple[int, int]]) -> int:
    return sum(n - 1 for n in meetings.values() if n > 1)


def all_rounds(playing: Sequence[int]) -> Iterator[tuple[Seating, ...]]:
    """Every way to seat ``playing`` for a round (for checking a movement by brute force:
    small counts only)."""
    yield from _seatings(list(playing), random.Random(0)) if len(playing) <= _EXACT else ()


__all__ = ["KINDS", "Kind", "Movement", "Round", "Seating", "all_rounds", "movement"]
