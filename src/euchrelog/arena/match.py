"""Playing a match: boards (one shuffle each), each played as one game of one deal per
seating of the players (duplicate: every player holds every side's cards once), every act
made by the engine's ``do_id`` (which verifies it) at a :class:`~euchrelog.players.Table`,
and the game's record kept, when asked for, once the deal is over
(:meth:`~euchrelog.recorder.RecordedGame.add_played`).

A player's fault (it raises, answers late or answers a number not offered) does not stop
the match: the act is chosen at random among those offered instead, and the fault is kept
with the board, the game, the seat and the act (:class:`Fault`).
"""

from __future__ import annotations

import atexit
import functools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..generate.deal import shuffle_deal
from ..models import Game, Tag
from ..players import (
    STAND,
    Decision,
    Player,
    PlayerError,
    ProgramPlayer,
    Table,
    act_words,
    load_player,
)
from ..recorder import DealCards, RecordedGame, Recorder
from ..rules import Ruleset
from ..runs import tally
from ..seats import SEATS, Seat


@dataclass(frozen=True)
class Setup:
    """What every board of a match shares: the players (by their specs on the command
    line), the variant and its house rules, the seed, the time an answer may take and
    whether the match is duplicate."""

    players: tuple[str, ...]
    variant: str = "four-hand"
    rules: str = ""
    seed: int = 0
    timeout: float | None = None
    duplicate: bool = True
    record: bool = True
    """Whether the boards keep the record of their games (:attr:`BoardResult.games`)."""

    @property
    def names(self) -> list[str]:
        """The players' names: their specs, a spec given again numbered (``random#2``)."""
        names = []
        for place, spec in enumerate(self.players):
            before = self.players[:place].count(spec)
            names.append(f"{spec}#{before + 1}" if before else spec)
        return names

    def recorder(self, names: dict[str, str] | None = None, tags: dict[str, str] | None = None
                 ) -> Recorder:
        """A recorder of a game of one deal of the match (its ``ruleset`` is the match's).

        :raises IllegalActionError: for rules that make no game (T202-T205).
        """
        return Recorder(self.variant, rules=f"{self.rules} deals=1".strip(), players=names,
                        tags=tags)


@dataclass(frozen=True)
class Fault:
    """A player that failed to answer, and what was played instead."""

    player: int
    """The player's place among the match's players."""
    board: int
    game: int
    """The game of the board, from 1 (its seating)."""
    seat: Seat
    kind: str
    """``crash``, ``timeout`` or ``illegal``."""
    detail: str
    asked: str
    """What the seat was asked: the phase and the acts offered, in words."""
    instead: str
    """The act played in its place (chosen at random among those offered)."""


@dataclass
class BoardResult:
    """A board as played: its games and the points of each player in each."""

    board: int
    games: list[Game] = field(default_factory=list)
    """The record of each game, when the match keeps them (:attr:`Setup.record`)."""
    points: list[list[int]] = field(default_factory=list)
    """By game, the points each player's side scored (players in the match's order)."""
    net: list[list[float]] = field(default_factory=list)
    """By game, each player's points less the mean of the other sides' points."""
    faults: list[Fault] = field(default_factory=list)


_PLAYERS: dict[tuple[int, Seat, str, float | None], Player] = {}
"""The players of this process, one for each seat a player of the match holds, made once
(a program is started once a seat, and a Python player built once a seat, whichever
process the board is played in): no one of them sees two hands of a board."""


def _player(place: int, seat: Seat, spec: str, timeout: float | None) -> Player:
    key = (place, seat, spec, timeout)
    player = _PLAYERS.get(key)
    if player is None:
        player = _PLAYERS[key] = load_player(spec, timeout=timeout)
    return player


@atexit.register
def close_players() -> None:
    """Closes every player of this process (the programs end)."""
    while _PLAYERS:
        _, player = _PLAYERS.popitem()
        close = getattr(player, "close", None)
        if callable(close):
            close()


def seatings(setup: Setup, board: int, sides: int) -> list[tuple[int, ...]]:
    """The seatings a board is played in: for each game, the player of each side (by its
    place in the match). Duplicate: every rotation of the players over the sides; else
    one, rotating from board to board."""
    count = len(setup.players)
    shifts = range(count) if setup.duplicate else ((board - 1) % count,)
    return [tuple((side + shift) % count for side in range(sides)) for shift in shifts]


@functools.lru_cache(maxsize=8)
def _template(variant: str, rules: str) -> tuple[Ruleset, tuple[Tag, ...]]:
    """The ruleset of a match and the tags every game of it has (``Variant``, ``Rules``)."""
    recorder = Setup((), variant, rules).recorder()
    return recorder.ruleset, recorder.tags


_EVENT = Tag(name="Event", value="Arena")


@functools.lru_cache(maxsize=64)
def _seat_tags(names: tuple[str, ...], by_seat: tuple[tuple[Seat, int], ...]
               ) -> tuple[Tag, ...]:
    """The tags naming the player of each seat (a seating recurs from board to board)."""
    return tuple(Tag(name=s.value, value=names[place]) for s, place in by_seat)


def play_board(job: tuple[Setup, int]) -> BoardResult:
    """Plays one board of a match (in a worker process, or here)."""
    setup, board = job
    ruleset, header = _template(setup.variant, setup.rules)
    seats = ruleset.seats
    dealer = seats[(board - 1) % len(seats)]
    dealt = shuffle_deal(random.Random(setup.seed * 1_000_003 + board), ruleset, dealer)
    cards = DealCards(1, dealer, {s: tuple(h) for s, h in dealt.hands.items()}, dealt.upcard,
                      tuple(dealt.kitty) if dealt.kitty is not None else None,
                      tuple(dealt.extra) if dealt.extra is not None else None)
    sides = ruleset.side_names
    side_of = {seat: sides.index(ruleset.side(seat)) for seat in seats}
    result = BoardResult(board)
    for game, seating in enumerate(seatings(setup, board, len(sides)), 1):
        by_seat = {seat: seating[side_of[seat]] for seat in seats}
        base = (setup.seed * 1_000_003 + board) * 64 + game * 8
        for seat, place in by_seat.items():
            reset = getattr(_player(place, seat, setup.players[place], setup.timeout),
                            "reset", None)
            if callable(reset):
                reset(base + SEATS.index(seat))
        table = Table(ruleset, cards)
        _play(setup, table, by_seat, base, board, game, result.faults)
        scored = table.state.points() or {}
        if setup.record:
            recorded = RecordedGame((
                _EVENT, Tag(name="Round", value=f"{board}.{game}"), *header,
                *_seat_tags(tuple(setup.names), tuple(by_seat.items()))))
            recorded.add_played(table.deal)
            result.games.append(recorded.model())
        points = [0] * len(setup.players)
        for side, place in zip(sides, seating, strict=True):
            points[place] += scored.get(side, 0)
        result.points.append(points)
        result.net.append(_net(points, seating))
        tally(1)
    return result


def _net(points: Sequence[int], seating: Sequence[int]) -> list[float]:
    """Each seated player's points less the mean of the other sides' points."""
    total = sum(points)
    others = len(seating) - 1
    return [points[p] - (total - points[p]) / others if p in seating else 0.0
            for p in range(len(points))]


def _play(setup: Setup, table: Table, by_seat: dict[Seat, int], fallback: int, board: int,
          game: int, faults: list[Fault]) -> None:
    """Plays the deal of ``table`` to its end, each seat's player asked in turn; a fault's
    act is chosen by a random generator seeded with ``fallback``."""
    players = {seat: _player(place, seat, setup.players[place], setup.timeout)
               for seat, place in by_seat.items()}
    chooser: random.Random | None = None
    while (decision := table.decision()) is not None:
        number, fault = _ask(players[decision.seat], decision, setup.timeout)
        if fault is not None:
            chooser = chooser or random.Random(fallback)
            number = chooser.choice(decision.actions)
            offered = ", ".join(act_words(decision.act(n))[0] for n in decision.actions)
            faults.append(Fault(by_seat[decision.seat], board, game, decision.seat,
                                fault.kind, fault.detail,
                                f"{decision.state.phase.value}: {offered}",
                                act_words(decision.act(number))[0]))
        table.make(number)


def _ask(player: Player, decision: Decision, timeout: float | None
         ) -> tuple[int, PlayerError | None]:
    """The player's answer, or the fault it made."""
    start = time.monotonic() if timeout is not None else 0.0
    try:
        number = player.choose(decision)
    except PlayerError as fault:
        return STAND, fault
    except Exception as exc:  # (a player's own error, whatever it is)
        return STAND, PlayerError("crash", f"{type(exc).__name__}: {exc}")
    if timeout is not None and not isinstance(player, ProgramPlayer):
        spent = time.monotonic() - start
        if spent > timeout:
            return STAND, PlayerError("timeout",
                                      f"answered in {spent:.2f} s, over {timeout:g} s")
    if number not in decision.actions:
        offered = " ".join(map(str, decision.actions))
        return STAND, PlayerError("illegal", f"answered {number!r}, not one of {offered}")
    return number, None


def board_means(result: BoardResult, players: int) -> tuple[list[float], list[float]]:
    """Each player's net points and points on a board: the means over its games."""
    games = len(result.net) or 1
    net = [sum(g[p] for g in result.net) / games for p in range(players)]
    points = [sum(g[p] for g in result.points) / games for p in range(players)]
    return net, points
