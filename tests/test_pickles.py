"""What crosses processes (``--jobs``, Dask) comes back equal: a game's replay report, its
double-dummy and single-dummy reviews and its rules, in the build the tests run on (a
frozen dataclass compiled by mypyc is not unpickled attribute by attribute:
:class:`euchrelog.frozen.Frozen`)."""

from __future__ import annotations

import pickle
from pathlib import Path

from euchrelog import loads, replay
from euchrelog.analysis import review_game

SAMPLE = Path(__file__).parent.parent / "samples" / "valid" / "four-hand-24-club-night.euchre"


def test_a_report_and_its_reviews_survive_a_pickle() -> None:
    game = loads(SAMPLE.read_text(encoding="utf-8")).games[0]
    report = replay(game, trace=True)
    reviews = list(review_game(game, report=report))
    for result in report.deals:
        result.trace = None
    back = pickle.loads(pickle.dumps((report, reviews)))
    assert back[0].ruleset == report.ruleset and back[0].totals == report.totals
    assert back[1] == reviews and len(reviews) == len(game.deals)
