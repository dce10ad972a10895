"""One pass: every command that reads a game replays it once, and what it needs beyond the
findings (the review's states, the viewer's acts, the statistics' figures, the server's
totals) rides that replay (:class:`~euchrelog.replay.DealTrace`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from euchrelog.cli import main
from euchrelog.engine import DealState
from euchrelog.notation import loads
from euchrelog.replay import GameReplay, replay
from euchrelog.replay.deal import DealReplay
from support.builds import PURE_ONLY

ROOT = Path(__file__).resolve().parents[1]
VALID = ROOT / "samples" / "valid"
CLUB = VALID / "four-hand-24-club-night.euchre"


class Replays:
    """Counts the replays of games (by their first deal's number and dealer, and their tags)
    and of deals."""

    def __init__(self) -> None:
        self.games: Counter[tuple[Any, ...]] = Counter()
        self.deals = 0
        self.bids = 0
        """Bids applied to a deal's state, by the replay or anything else."""
        self.dealt = 0
        """Deal states made from a record's cards (a copy of a state is not)."""


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[Replays]:
    counts = Replays()
    game_run, deal_run, apply_bid = GameReplay.run, DealReplay.run, DealState.apply_bid

    def run_game(self: GameReplay) -> Any:
        counts.games[tuple(self.game.tags), len(self.game.deals)] += 1
        return game_run(self)

    def run_deal(self: DealReplay, d: int) -> Any:
        counts.deals += 1
        return deal_run(self, d)

    def bid(self: DealState, act: Any) -> None:
        counts.bids += 1
        apply_bid(self, act)

    def deal(self: DealState, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("hands") or kwargs.get("upcard"):
            counts.dealt += 1
        made(self, *args, **kwargs)

    made = DealState.__init__
    monkeypatch.setattr(DealState, "__init__", deal)
    monkeypatch.setattr(DealState, "apply_bid", bid)
    monkeypatch.setattr(GameReplay, "run", run_game)
    monkeypatch.setattr(DealReplay, "run", run_deal)
    yield counts


def _counts(path: Path) -> tuple[int, int]:
    """The deals and bids of a record."""
    games = loads(path.read_text(encoding="utf-8")).games
    return (sum(len(g.deals) for g in games),
            sum(len(d.bids) for g in games for d in g.deals))


@PURE_ONLY
@pytest.mark.parametrize("command", [["analyze", "--no-par"], ["analyze", "--no-par",
                                     "--format", "json"], ["stats"], ["stats", "--dd"]])
def test_each_command_replays_each_game_once(command: list[str], replays: Replays) -> None:
    """Before, ``analyze`` played each reviewed deal's bids and acts again after the replay,
    and ``stats --double-dummy`` replayed each game twice."""
    result = CliRunner().invoke(main, [*command, str(CLUB)])
    assert result.exit_code == 0, result.stderr
    assert list(replays.games.values()) == [1]
    deals, bids = _counts(CLUB)
    assert replays.deals == replays.dealt == deals
    if "--dd" not in command:  # (its par tables try other biddings)
        assert replays.bids == bids


@PURE_ONLY
@pytest.mark.parametrize("dd", ["--dd", "--no-dd"])
def test_view_replays_each_game_once(dd: str, replays: Replays, tmp_path: Path) -> None:
    """Before, ``view`` replayed each game to check it, walked each deal again for its
    frames from the record, and (with the double-dummy layer) replayed it a third time
    for the review; the frames are now made on the deals as the replay took them."""
    result = CliRunner().invoke(main, ["view", dd, "-o", str(tmp_path / "p.html"), str(CLUB)])
    assert result.exit_code == 0, result.stderr
    assert list(replays.games.values()) == [1]
    assert replays.deals == replays.dealt == _counts(CLUB)[0]


@PURE_ONLY
def test_the_review_rides_a_given_replay(replays: Replays) -> None:
    from euchrelog.analysis import review_game

    game = loads(CLUB.read_text(encoding="utf-8")).games[0]
    report = replay(game, trace=True)
    plain = list(review_game(game))
    assert list(review_game(game, report=report)) == plain
    assert sum(replays.games.values()) == 2  # the one given, and review_game's own
