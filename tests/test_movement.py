"""The movement generator (issue 42 item 3): every player plays or sits out once a round,
byes go round, and the draw's repeated partners (and, rotating, opponents) are the fewest
possible, checked against every possible draw for small counts of players."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchrelog.events.movement import KINDS, Kind, Movement, Round, all_rounds, movement


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(kind=st.sampled_from(KINDS), players=st.integers(4, 40), rounds=st.integers(1, 8))
def test_every_player_plays_or_sits_out_once_a_round(kind: Kind, players: int,
                                                     rounds: int) -> None:
    made = movement(kind, players, rounds)
    assert len(made.rounds) == rounds
    for one in made.rounds:
        seated = [p for t in one.tables for p in (t.n, t.s, t.e, t.w)] + list(one.byes)
        assert sorted(seated) == list(range(players))
        assert len(one.byes) == players % 4
    byes = Counter(p for one in made.rounds for p in one.byes)
    counts = [byes[p] for p in range(players)]
    assert max(counts) - min(counts) <= 1  # byes go round
    assert movement(kind, players, rounds) == made  # the same draw for the same arguments


def _draws(players: int, rounds: int) -> Iterator[list[Round]]:
    """Every draw of ``rounds`` rounds whose byes follow the rule (the fewest byes so far
    sit out), the first round fixed (before it, the players are all alike)."""
    first = next(iter(_rounds(players, Counter())))

    def more(made: list[Round], sat_out: Counter[int]) -> Iterator[list[Round]]:
        if len(made) == rounds:
            yield made
            return
        for one in _rounds(players, sat_out):
            yield from more([*made, one], sat_out + Counter(one.byes))

    yield from more([first], Counter(first.byes))


def _rounds(players: int, sat_out: Counter[int]) -> Iterator[Round]:
    count = players % 4
    fewest = min(sat_out[p] for p in range(players))
    due = [p for p in range(players) if sat_out[p] == fewest]
    if len(due) >= count:
        choices = list(combinations(due, count))
    else:
        nearest = min(sat_out[p] for p in range(players) if p not in due)
        rest = [p for p in range(players) if sat_out[p] == nearest]
        choices = [tuple(due) + c for c in combinations(rest, count - len(due))]
    for byes in choices:
        playing = [p for p in range(players) if p not in byes]
        for tables in all_rounds(playing):
            yield Round(tables, tuple(sorted(byes)))


def _best(kind: Kind, players: int, rounds: int) -> tuple[int, int]:
    best = None
    for made in _draws(players, rounds):
        repeats = Movement(kind, players, tuple(made)).repeats()
        score = (repeats[0], repeats[1] if kind == "rotating" else 0)
        best = score if best is None or score < best else best
    assert best is not None
    return best


@pytest.mark.parametrize(("players", "rounds"), [
    (4, 1), (4, 2), (4, 3), (4, 4), (5, 2), (5, 3), (5, 4), (6, 2), (6, 3), (7, 2),
    (7, 3), (7, 4), (8, 2), (8, 3)])
@pytest.mark.parametrize("kind", KINDS)
def test_repeats_are_the_fewest_possible(kind: Kind, players: int, rounds: int) -> None:
    made = movement(kind, players, rounds).repeats()
    mine = (made[0], made[1] if kind == "rotating" else 0)
    assert mine == _best(kind, players, rounds)


def test_a_movement_is_a_draw_for_the_server() -> None:
    made = movement("progressive", 9, 2)
    names: list[str | int] = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gil", "Hal", 12]
    draw = made.draw(names)
    assert len(draw) == 4
    assert draw[0]["round"] == 1 and draw[0]["table"] == 1
    seats = draw[0]["seats"]
    assert isinstance(seats, dict) and set(seats) == {"N", "E", "S", "W"}
    with pytest.raises(ValueError, match="for 9 players"):
        made.draw(names[:8])
    for wrong in (("swiss", 8, 2), ("rotating", 3, 2), ("rotating", 8, 0)):
        with pytest.raises(ValueError):
            movement(*wrong)  # type: ignore[arg-type]
