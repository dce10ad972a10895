"""A game of notation read straight into the bulk entry's parts (issue 24): the same game as
the JSON form the notation reader builds, deal by deal.

:func:`euchrelog.bulk.read_parts` reads a game with the line reader into what the game loop
reads, each deal's :class:`~euchrelog.bulk.Parts` and the game's source map, and makes the
JSON form of a deal only when asked for; ``check`` replays from that alone. On every record
(generated, hand-typed, messy, every sample), the parts must be those of the form
(:func:`~euchrelog.bulk.form_parts`), the loop's keys and the form of each deal those of
:func:`~euchrelog.notation.read_game`, and the source map must place every part the same.
"""

from __future__ import annotations

import io
import random
from dataclasses import fields, replace
from typing import Any

import pytest

from euchrelog.bulk import LOOP_KEYS, DeclineError, form_parts, read_parts
from euchrelog.check import check_chunk
from euchrelog.errors import NotationError
from euchrelog.fast import _SHEETS, check_form, check_notation
from euchrelog.generate import random_game
from euchrelog.head import ScoreHead
from euchrelog.models import Score, Sheet
from euchrelog.notation import GameForm, read_game, split_games
from euchrelog.notation.writer import dumps_game
from euchrelog.replay import Charge, DealResult
from euchrelog.seats import Seat
from euchrelog.sources import Chunk
from strategies import VARIANT_NAMES
from support.records import random_ruleset, respell
from support.slips import slips
from test_reader import _records

_NOTES = ("before", "note")


def _uncommented(value: Any) -> Any:
    """``value`` without its comments, which the parts pass over."""
    if isinstance(value, dict):
        return {k: _uncommented(v) for k, v in value.items() if k not in _NOTES}
    if isinstance(value, list):
        return [_uncommented(v) for v in value]
    return value


def _as_form(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal of the loop's keys as the parts read it, its points and score-sheet lines
    (models, validated once by the line's text) in the JSON form."""
    return {key: value.model_dump(mode="json", exclude_defaults=True)
            if isinstance(value, Score | Sheet) else _score_form(value)
            for key, value in deal.items()}


def _score_form(value: Any) -> Any:
    """A points line the parts read plainly (:class:`ScoreHead`) in the JSON form."""
    if not isinstance(value, ScoreHead):
        return value
    return {k: v for k, v in (("points", value.points), ("total", value.total)) if v is not None}


def _games(text: str) -> list[tuple[int, str, GameForm]]:
    games = []
    for first, game in split_games(io.StringIO(text)):
        try:
            read = read_game(game, first)
        except NotationError:
            continue
        if isinstance(read, GameForm):
            games.append((first, game, read))
    return games


@pytest.mark.parametrize(("name", "text"), list(_records()), ids=lambda v: str(v)[:40])
def test_the_parts_read_from_the_text_are_those_of_its_form(name: str, text: str) -> None:
    taken = 0
    for first, game, read in _games(text):
        try:
            parts = read_parts(game, first)
        except (DeclineError, KeyError, NotationError):
            continue  # a line the parts leave to the form (a merge, a claim)
        if parts is None:
            continue
        taken += 1
        deals = read.form["deals"]
        assert parts.parts == [form_parts(_uncommented(deal)) for deal in deals], name
        loop = parts.game.form
        assert _uncommented(loop["tags"]) == _uncommented(read.form["tags"])
        assert [_uncommented(_as_form(d)) for d in loop["deals"]] == [
            {k: _uncommented(d[k]) for k in LOOP_KEYS if k in d} for d in deals]
        for key in ("start", "end"):
            assert _uncommented(loop.get(key)) == _uncommented(read.form.get(key))
        for d, deal in enumerate(deals):
            assert parts.form_of(d) == _uncommented(deal)
        assert parts.game.source.places == read.source.places
    if "/" not in name and "cutthroat" not in name:
        assert taken, name  # (a generated record, with none of the lines left to the form)


def test_a_game_with_a_finding_is_placed_from_the_parts() -> None:
    # Everyone passes twice (thrown in), yet the sheet writes a point: the deal's replay
    # finds it from the parts, and the place is the source map's.
    text = ('[Variant "four-hand"]\n\ndeal 1 dealer N\n  hands N: 9C TC JC QC KC  '
            'E: AC 9D TD JD QD  S: KD AD 9H TH JH  W: QH KH AH 9S TS\n  up JS\n'
            '  bid E pass, S pass, W pass, N pass\n  bid E pass, S pass, W pass, N pass\n'
            '  points NS 1\n')
    done = check_notation(text)
    assert done is not None and done[1] == 1
    chunk = Chunk(1, 1, text, None)
    full = check_chunk(chunk, fast=False)
    assert check_chunk(chunk) == full
    assert "C901" in [f.code for f in full.findings]


def test_games_with_a_slip_are_replayed_from_their_parts() -> None:
    """A game with one slip is replayed from its parts (and from its form), findings and
    all, in both builds: the fast path declining it would still be right, but slow."""
    rng = random.Random(24)
    taken = 0
    for _ in range(4):
        game = random_game(random.Random(rng.randrange(2**32)), stop_after=3)
        for slip in slips(dumps_game(game)):
            try:
                read = read_game(slip.text)
                parts = read_parts(slip.text)
            except (DeclineError, KeyError, NotationError):
                continue
            if parts is None or not isinstance(read, GameForm):
                continue
            done = check_notation(slip.text)
            assert done is not None, slip.text
            assert check_form(read) is not None, slip.text
            taken += bool(done[0].findings)
    assert taken >= 20


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_score_sheet_games_are_replayed_from_their_parts(variant: str) -> None:
    """A score-sheet game is read once, into parts (its deals' models are those of the
    loop's keys), and a clean sheet deal's result is kept by its dealer and line and
    reused: clean, or with a slip in a sheet line, each game gives the full path's
    findings, places and report, checked cold and again with every result kept."""
    _SHEETS.clear()  # (cold: no result kept by an earlier test)
    rng = random.Random(variant)
    texts = []
    for _ in range(3):
        game = random_game(random.Random(rng.randrange(2**32)), random_ruleset(rng, variant),
                           detail="score-sheet")
        text = dumps_game(game)
        texts += [text, respell(text, rng)]
        texts += [slip.text for slip in rng.sample(list(slips(text)), 4)]
    for _ in range(2):
        for text in texts:
            if _games(text):  # (a slip that breaks the syntax is the reader's finding)
                assert check_notation(text) is not None, text
            chunk = Chunk(1, 1, text, None)
            assert check_chunk(chunk) == check_chunk(chunk, fast=False), text


def test_a_kept_sheet_result_is_given_again_whole() -> None:
    """:meth:`DealResult.again`, which gives a kept score-sheet result to another deal,
    copies every field but the number, the totals and the penalties (as
    :func:`dataclasses.replace` would): a field added to the result and not to ``again``
    fails here."""
    kept = DealResult(3, Seat.E, {"NS": 2}, {"NS": 5, "EW": 1}, maker=Seat.N, trump="H",
                      lone=Seat.N, defender_alone=True, maker_tricks=5, bid_round=2,
                      defender=Seat.W, thrown=True,
                      penalties=[Charge(3, Seat.E, "EW", 2, "renege")])
    assert {f.name for f in fields(DealResult)} == {
        "number", "dealer", "points", "totals", "maker", "trump", "lone", "defender_alone",
        "maker_tricks", "bid_round", "defender", "thrown", "penalties", "trace"}
    given = kept.again(7)
    assert given == replace(kept, number=7, totals={}, penalties=[])
    assert given.points is not kept.points  # (the loop adds to a deal's own points)
