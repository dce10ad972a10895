"""Long work shows that it goes on and keeps what it finished (issue 44): the progress line
counts the work that takes the time (a deal reviewed, not a line read), and Ctrl-C writes
every game finished before it."""

from __future__ import annotations

import contextlib
import io
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from euchrelog import progress
from euchrelog.cli import main
from euchrelog.generate import random_game, ruleset_for
from euchrelog.notation.writer import dumps_game


class _Screen(io.StringIO):
    """A terminal that keeps what was drawn on it."""

    def isatty(self) -> bool:
        return True


def _games(tmp_path: Path, games: int, target: int) -> Path:
    rng = random.Random(44)
    rules = ruleset_for("four-hand", target=target)
    path = tmp_path / "long.euchre"
    path.write_text("\n".join(dumps_game(random_game(rng, rules, unknown_rate=0.0))
                              for _ in range(games)), encoding="utf-8")
    return path


def _screen(monkeypatch: pytest.MonkeyPatch) -> _Screen:
    """A terminal as standard error, the progress line drawn at once (set in the test
    itself: pytest's capture sets standard error after the fixtures)."""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    shown = _Screen()
    monkeypatch.setattr(sys, "stderr", shown)
    return shown


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_progress_of_analyze_moves_within_one_long_game(
        jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the line was drawn only while lines were read: one long game showed nothing
    while it was reviewed; here, or in a worker process, each deal is counted as it is
    reviewed."""
    path = _games(tmp_path, 1, 40)
    screen = _screen(monkeypatch)
    monkeypatch.setattr("euchrelog.runs.POLL", 0.01)
    with contextlib.suppress(SystemExit):
        main(["analyze", "-j", jobs, "-o", str(tmp_path / "out.txt"), str(path)],
             standalone_mode=False)
    counts = [int(n) for n in re.findall(r"(\d+) deals?\b", screen.getvalue())]
    assert len(set(counts)) >= 10, screen.getvalue()[-300:]
    shares = [int(s) for s in re.findall(r"analyzing +(\d+)%", screen.getvalue())]
    assert shares == sorted(shares) and shares[0] < 50 < shares[-1]


def test_ctrl_c_keeps_the_games_finished(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, Ctrl-C threw away every finished game of ``analyze -o``."""
    from euchrelog.analysis import review_game as review

    path = _games(tmp_path, 5, 10)
    screen = _screen(monkeypatch)
    seen: list[int] = []

    def stopping(game: Any, index: int = 1, **kwargs: Any) -> Any:
        seen.append(index)
        if index == 3:
            raise KeyboardInterrupt
        return review(game, index, **kwargs)

    monkeypatch.setattr("euchrelog.cli.analyze.review_game", stopping)
    out = tmp_path / "out.jsonl"
    code = 0
    try:
        main(["analyze", "--no-par", "-j", "1", "--format", "json", "-o", str(out), str(path)],
             standalone_mode=False)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 130
    games = {line.split('"game": ')[1].split(",")[0] for line in out.read_text().splitlines()}
    assert games == {"1", "2"}
    assert "interrupted: the 2 games finished before are written to" in screen.getvalue()


def test_the_progress_of_stats_double_dummy_counts_the_reviews(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, ``stats --double-dummy`` showed the share of its input read, which ran ahead
    of the reviews, and no deal count."""
    path = _games(tmp_path, 6, 10)
    screen = _screen(monkeypatch)
    with contextlib.suppress(SystemExit):
        main(["stats", "--dd", "-o", str(tmp_path / "out.txt"), str(path)],
             standalone_mode=False)
    counts = [int(n) for n in re.findall(r"(\d+) deals?\b", screen.getvalue())]
    assert len(set(counts)) >= 4, screen.getvalue()[-300:]
    shares = [int(s) for s in re.findall(r"counting +(\d+)%", screen.getvalue())]
    assert shares == sorted(shares) and shares[0] < 50


def test_view_shows_its_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, ``view`` showed no progress at all."""
    path = _games(tmp_path, 4, 10)
    screen = _screen(monkeypatch)
    with contextlib.suppress(SystemExit):
        main(["view", "--no-dd", "-o", str(tmp_path / "out.html"), str(path)],
             standalone_mode=False)
    counts = [int(n) for n in re.findall(r"viewing .*?(\d+) deals?\b", screen.getvalue())]
    assert len(set(counts)) >= 10 and counts == sorted(counts), screen.getvalue()[-300:]


def test_ctrl_c_in_view_ends_the_page_with_what_was_finished(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, Ctrl-C in ``view`` left no page (or half a page's text): now the page ends
    with the games and deals finished before it, and the exit status is 130."""
    import json

    from euchrelog.viewer import frames

    path = _games(tmp_path, 4, 10)
    screen = _screen(monkeypatch)
    made = 0
    real = frames._deal_frames

    def stopping(*args: Any, **kwargs: Any) -> Any:
        nonlocal made
        made += 1
        if made == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(frames, "_deal_frames", stopping)
    page = tmp_path / "out.html"
    code = 0
    try:
        main(["view", "--no-dd", "-o", str(page), str(path)],
             standalone_mode=False)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 130
    assert "interrupted in game 1:" in screen.getvalue()
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split('class="euchrelog-game"', 1)[1].split(">", 1)[1].split(
        "</script>", 1)[0])
    assert len(data["deals"]) == 2 and text.rstrip().endswith("</html>")


def test_ctrl_c_in_stats_writes_the_statistics_of_the_games_counted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, Ctrl-C in ``stats`` wrote nothing."""
    from euchrelog.replay import replay as real

    path = _games(tmp_path, 5, 10)
    screen = _screen(monkeypatch)
    calls = 0

    def stopping(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr("euchrelog.cli.stats.replay", stopping)
    out = tmp_path / "out.json"
    code = 0
    try:
        main(["stats", "-j", "1", "--format", "json", "-o", str(out), str(path)],
             standalone_mode=False)
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 130
    assert out.exists()
    assert "interrupted: counted 2 games" in screen.getvalue()
