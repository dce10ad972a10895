"""``euchrelog record``: whole games of every variant typed on standard input, refusals,
undo, help, the end of the input, resuming, a SIGKILL in the middle of a deal, and one
deal in a real terminal (tmux)."""

from __future__ import annotations

import datetime
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog.cli import main
from euchrelog.cli.record import Console, Session
from euchrelog.generate import play_only, random_game, ruleset_for
from euchrelog.models import Game
from euchrelog.notation import loads
from euchrelog.notation.writer import dumps
from euchrelog.recorder import Recorder
from euchrelog.replay import replay
from euchrelog.rules import Ruleset, find_variant
from support.record_scripts import (
    answers,
    full_answers,
    record_options,
    ruleset_of,
    script,
)

VARIANTS = ("four-hand", "cutthroat", "three-hand", "ghost", "two-hand")

# A four-hand game to 2: deal 1 in full (EW euchre NS: 2 points), then deal 2 from the sheet.
SETUP = ["Ann", "Ben", "Cleo", "Dev", "N"]
DEAL_1 = ["full", "9C TC QS KS AD", "9S TS AS 9D TD", "JD AH KH QH 9H", "AC KC QC JC KD", "JH",
          "QD TH JS", "pass", "order", "discard KD",
          "AD", "9D", "9H", "AC", "JD", "JH", "9C", "9S", "KC", "TC", "TD", "AH",
          "KH", "QC", "QS", "TS", "QH", "JC", "KS", "AS"]
DEAL_2 = ["sheet", "H", "S", "n", "", "3"]


def record(path: Path, lines: Sequence[str], *args: str, end: str = "") -> Result:
    """Runs ``euchrelog record PATH ARGS`` in-process with ``lines`` on standard input."""
    text = "".join(f"{line}\n" for line in lines) + end
    return CliRunner().invoke(main, ["record", str(path), *args], input=text)


def check_clean(path: Path) -> None:
    """The file passes ``euchrelog check`` and ``euchrelog fmt --check``."""
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    formatted = CliRunner().invoke(main, ["fmt", "--check", str(path)])
    assert formatted.exit_code == 0, formatted.output


def refusals(output: str) -> list[str]:
    """The lines where the session refused or did not understand an answer."""
    return [line for line in output.splitlines()
            if line.startswith(("  refused", "  not ", "  say ", "  answer ", "  name "))]


def game_for(variant: str, seed: int, **options: object) -> tuple[Ruleset, Game]:
    """A random legal game, short enough for a test."""
    options.setdefault("target", 12 if variant == "ghost" else 5)
    rules = ruleset_for(variant, (), **options)
    return rules, random_game(random.Random(seed), rules)


def same_game(path: Path, game: Game) -> None:
    """The recorded file scores as ``game`` did, and is clean."""
    recorded = loads(path.read_text(encoding="utf-8")).games[0]
    mine, theirs = replay(recorded), replay(game)
    assert mine.findings == []
    assert (mine.totals, mine.winner) == (theirs.totals, theirs.winner)
    assert len(recorded.deals) == len(game.deals)
    check_clean(path)


# ---------------------------------------------------------------- whole games


MODES: dict[str, Callable[[int], str]] = {
    "full": lambda d: "full",
    "sheet": lambda d: "sheet",
    "mixed": lambda d: "sheet" if d % 2 else "full",
}


@pytest.mark.parametrize("modes", sorted(MODES))
@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_of_every_variant(variant: str, modes: str, tmp_path: Path) -> None:
    for seed in range(2):
        rules, game = game_for(variant, seed)
        path = tmp_path / f"{seed}.euchre"
        result = record(path, [*answers(game, MODES[modes]), ""], *record_options(rules))
        assert result.exit_code == 0, result.output
        assert refusals(result.output) == []
        assert "game over" in result.output
        same_game(path, game)


HOUSE_RULES: list[tuple[str, dict[str, object]]] = [
    ("four-hand", {"deck": 32, "stick_the_dealer": True, "lone_lead": "dealer-left"}),
    ("four-hand", {"deck": 25, "dealer_pickup": "required", "lone_defender": False}),
    ("four-hand", {"deals": 3, "lone_defender_euchre": 4}),
    ("cutthroat", {"dummy": "required", "deck": 25}),
    ("cutthroat", {"dummy": "off", "lone_defender": False}),
    ("three-hand", {"lone_defender": True, "stick_the_dealer": True}),
    ("ghost", {"failed_moon": -24, "deals": 4}),
    ("two-hand", {"deck": 32, "stick_the_dealer": True}),
    ("four-hand", {"euchre_scoring": "set", "euchred_loner": 3, "pass_out": "same-dealer"}),
    ("cutthroat", {"euchre_scoring": "set", "pass_out": "same-dealer"}),
    ("two-hand", {"pass_out": "same-dealer", "deals": 6}),
]


@pytest.mark.parametrize(("variant", "options"), HOUSE_RULES,
                         ids=[f"{v}-{'-'.join(o)}" for v, o in HOUSE_RULES])
def test_house_rules_and_seats(variant: str, options: dict[str, object],
                               tmp_path: Path) -> None:
    seats = {"four-hand": "", "ghost": "E S W", "two-hand": "E W"}.get(variant, "N E W")
    options = {"target": 12 if variant == "ghost" else 5, **options}
    rules = ruleset_for(variant, seats, **options)
    game = random_game(random.Random(11), rules)
    path = tmp_path / "g.euchre"
    result = record(path, [*answers(game, MODES["mixed"]), ""], *record_options(rules))
    assert result.exit_code == 0, result.output
    assert refusals(result.output) == []
    same_game(path, game)


def test_play_only_deals_without_the_hands(tmp_path: Path) -> None:
    rules, game = game_for("four-hand", 5)
    bare = play_only(game)
    path = tmp_path / "g.euchre"
    result = record(path, [*answers(bare), ""], *record_options(rules))
    assert result.exit_code == 0, result.output
    assert refusals(result.output) == []
    same_game(path, game)
    assert "hands" not in path.read_text(encoding="utf-8")


def test_the_documented_example_game(tmp_path: Path) -> None:
    path = tmp_path / "club.euchre"
    result = record(path, [*SETUP, *DEAL_1, *DEAL_2, ""], "--target", "3")
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert "  5. W: QH  N: JC  E: KS  S: AS\n  points EW 2  total NS 0 EW 2\n" in text
    assert "  trump H maker S tricks 3\n  points NS 1  total NS 1 EW 2\n" in text
    assert text.endswith("\nunfinished\n")
    check_clean(path)


def test_a_penalty_is_charged_at_any_prompt(tmp_path: Path) -> None:
    """``penalty`` charges a player or side in the open deal, or between deals in the last
    one (H6); a bad one is explained, and undo takes it back."""
    path = tmp_path / "g.euchre"
    lines = [*SETUP, *DEAL_1[:9], "penalty W 1 table talk", "penalty X 1 table talk",
             "penalty EW one", *DEAL_1[9:], 'penalty NS 2 "false renege claim"',
             "penalty N 1 oops", "undo", *DEAL_2, ""]
    result = record(path, lines, "--target", "3")
    assert result.exit_code == 0, result.output
    assert "  deal 1: penalty W 1 table talk; score NS 0 EW -1" in result.output
    assert "  refused: S101 not a side: 'X'" in result.output
    assert "  write a penalty as: penalty, the player or side" in result.output
    assert "  deal 1: penalty NS 2 false renege claim; score NS -2 EW 1" in result.output
    assert "  undone: penalty N 1 oops" in result.output
    text = path.read_text(encoding="utf-8")
    assert ("  penalty W 1 table talk\n  penalty NS 2 false renege claim\n"
            "  points EW 2  total NS -2 EW 1\n") in text
    assert "  points NS 1  total NS -1 EW 1\n" in text
    check_clean(path)


def test_a_penalty_after_a_deal_read_as_its_points(tmp_path: Path) -> None:
    """Resumed after a deal written as its points only, ``penalty`` charges it in that
    deal, as after any other (H6)."""
    path = tmp_path / "g.euchre"
    path.write_text('[Variant "four-hand"]\n\ndeal 1 dealer N\n  points NS 1  total NS 1 EW 0'
                    "\n\nunfinished\n", encoding="utf-8")
    result = record(path, ["penalty EW 2 table talk", *DEAL_2, ""], "--resume")
    assert result.exit_code == 0, result.output
    assert refusals(result.output) == []
    assert "  deal 1: penalty EW 2 table talk; score NS 1 EW -2" in result.output
    assert ("deal 1 dealer N\n  penalty EW 2 table talk\n  points NS 1  total NS 1 EW -2\n"
            ) in path.read_text(encoding="utf-8")
    check_clean(path)


# ---------------------------------------------------------------- refusals and input


def test_an_illegal_entry_is_refused_and_not_written(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    first = record(path, [*SETUP, *DEAL_1[:8]])
    before = path.read_text(encoding="utf-8")
    path.unlink()
    result = record(path, [*SETUP, *DEAL_1[:8], "W order"])
    assert "  refused: B401 W bids out of turn in round 1: it is S's turn" in result.output
    assert path.read_text(encoding="utf-8") == before
    assert first.exit_code == result.exit_code == 0


@pytest.mark.parametrize(("lines", "message"), [
    (["W: 9H"], "refused: P701 W plays out of turn in trick 1: it is S's turn"),
    (["TD", "9S"], "refused: P702 W plays 9S in trick 1, but it was dealt to S"),
    (["TD", "KD"], "refused: P708 W plays KD in trick 1, but it was discarded"),
    (["9S"], "refused: R801 renege: S plays 9S on the AD lead (diamonds) in trick 1 holding "
             "9D TD"),
    (["??"], "refused: C905 S plays ??"),
    (["XX"], "not a card: 'xx'"),
    (["alone W"], "refused: A601 W declares alone after the first lead"),
])
def test_refusals_in_the_play(lines: list[str], message: str, tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, *DEAL_1[:11], *lines])
    assert result.exit_code == 0, result.output
    assert f"\n  {message}" in result.output, result.output


@pytest.mark.parametrize(("lines", "message"), [
    (["AD AD AD AD AD"], "  refused: D304"),
    (["9C TC QS KS"], "  refused: D303 E has 4 cards, not 5"),
    (["7C TC QS KS AD"], "  refused: D305"),
])
def test_refused_cards(lines: list[str], message: str, tmp_path: Path) -> None:
    result = record(tmp_path / "g.euchre", [*SETUP, "full", *lines])
    assert any(line.startswith(message) for line in result.output.splitlines()), result.output


def test_refused_score_sheet_lines(tmp_path: Path) -> None:
    result = record(tmp_path / "g.euchre", [*SETUP, "sheet", "H", "S", "n", "N", "", "9",
                                            "3"], "--variant", "four-hand")
    out = result.output
    assert "  refused: A602 N defends alone, but N is on the maker's side" in out
    assert "  answer a number of tricks, 0 to 5" in out
    assert "deal 1: NS 1; score NS 1 EW 0" in out
    three = record(tmp_path / "t.euchre", ["", "", "", "", "", "sheet", "H", "S", "1"],
                   "--variant", "three-hand")
    assert "alone" not in three.output.split("maker [N E S] > S", 1)[1].split("\n", 2)[1]


@pytest.mark.parametrize("garbage", [
    "", "   ", "hello world", "undo undo", "?? ?? ??", "call", "swap swap", "E", "order up now",
    "discard", "merge keeps", "defend", "x" * 5000, "\t", "a\x00b", "9H 9H", "sheet please",
])
def test_garbage_never_crashes(garbage: str, tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    for stop in (0, 5, 12, 14):
        lines = [*SETUP, *DEAL_1][:stop] + [garbage] * 2
        result = record(path, lines)
        assert result.exit_code == 0, result.output
        assert result.exception is None
        path.unlink(missing_ok=True)


def test_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    data = ("\n".join(SETUP) + "\n").encode() + b"\xff\xfe order\n\x80\n"
    result = CliRunner().invoke(main, ["record", str(tmp_path / "g.euchre")], input=data)
    assert result.exit_code == 0
    assert result.exception is None


def test_end_of_input_saves_and_says_how_to_go_on(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = record(path, [*SETUP, *DEAL_1[:15]])
    assert result.exit_code == 0
    assert f"saved {path}: deal 1 is unfinished; go on with: euchrelog record --resume {path}" \
        in result.output
    text = path.read_text(encoding="utf-8")
    assert text.endswith("  1. E: AD  S: 9D  W: 9H  N: AC\n  2. W: JD\n\nunfinished\n")


def test_quit(tmp_path: Path) -> None:
    result = record(tmp_path / "g.euchre", [*SETUP, *DEAL_1[:9], "quit", "order"])
    assert result.exit_code == 0
    assert "saved" in result.output.splitlines()[-1]


def test_stopping_before_the_setup_saves_nothing(tmp_path: Path) -> None:
    result = record(tmp_path / "g.euchre", ["Ann"])
    assert result.exit_code == 0
    assert "nothing saved" in result.output
    assert not (tmp_path / "g.euchre").exists()


def test_help(tmp_path: Path) -> None:
    result = record(tmp_path / "g.euchre", ["?", *SETUP, "?", *DEAL_1[:8], "?", "order", "?"])
    out = result.output
    assert out.count("  commands: undo") == 4
    assert "  here: the player's name, or Enter to leave it out" in out
    assert "  here: full: enter every card" in out
    assert "  here: pass, order" in out
    assert "  here: a card (AD, 10h); while the dealer's exchange is open" in out


# ---------------------------------------------------------------- undo


def test_undo_steps_back_one_entry_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    straight = record(path, [*SETUP, *DEAL_1, *DEAL_2])
    want = path.read_text(encoding="utf-8")
    path.unlink()
    # undo a card, a trick's last card, the last card of a deal (it reopens), the sheet
    # (its last question is asked again), the cards of a deal and a bid.
    lines = [*SETUP, *DEAL_1[:7], "undo", DEAL_1[6], "pass", "undo", "undo", DEAL_1[6],
             "pass", "order", "discard KD", "undo", "discard KD", *DEAL_1[10:14], "undo", "AC",
             *DEAL_1[14:], "undo", "AS", *DEAL_2, "undo", "3"]
    result = record(path, lines)
    assert result.exit_code == straight.exit_code == 0
    assert refusals(result.output) == []
    assert path.read_text(encoding="utf-8") == want
    assert "  undone: the start of deal 1" in result.output
    assert "  undone: E pass" in result.output
    assert "  undone: N takes JH discards KD" in result.output
    assert "  undone: N: AC" in result.output
    assert "  undone: S: AS" in result.output
    assert "  undone: trump H maker S tricks 3" in result.output


def test_undo_answers_before_a_deal_starts(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    lines = [*SETUP[:4], "undo", "Dev", "undo", "undo", "S", "full", "undo", "undo", "undo",
             "undo", "N", *DEAL_1]
    result = record(path, lines)
    assert "  nothing to undo (the players are set" in result.output
    assert "  undone: the answer to 'mode'" in result.output
    text = path.read_text(encoding="utf-8")
    assert "deal 1 dealer N\n" in text
    assert "points EW 2" in text


def test_switching_a_deal_to_the_score_sheet(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    lines = [*SETUP, *DEAL_1[:9], "sheet", "4"]
    result = record(path, lines, "--target", "3")
    assert "hearts by S: tricks the makers took [0-5] > 4" in result.output
    text = path.read_text(encoding="utf-8")
    assert "  bid E pass, S order\n  trump H maker S tricks 4\n  points NS 1" in text
    check_clean(path)
    again = record(tmp_path / "h.euchre", [*SETUP, *DEAL_1[:11], "sheet"])
    assert "  cards have been played in this deal" in again.output


# ---------------------------------------------------------------- files and resuming


def test_resume_goes_on_where_it_stopped(tmp_path: Path) -> None:
    rules, game = game_for("cutthroat", 3)
    plan = script(game, MODES["mixed"])
    lines = [*plan.lines, ""]
    whole = tmp_path / "whole.euchre"
    assert record(whole, lines, *record_options(rules)).exit_code == 0
    rng = random.Random(5)
    cuts = sorted({len(plan.setup), len(plan.setup) + 3, len(plan.lines),
                   *(rng.randrange(len(plan.setup), len(plan.lines)) for _ in range(6))})
    for cut in cuts:
        path = tmp_path / f"cut{cut}.euchre"
        first = record(path, lines[:cut], *record_options(rules))
        assert first.exit_code == 0
        second = record(path, [*plan.rest(cut), ""], "--resume")
        assert second.exit_code == 0, second.output
        assert refusals(second.output) == []
        assert path.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8"), cut


def test_resume_a_finished_game_offers_undo(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    record(path, [*SETUP, *DEAL_1], "--target", "2")
    assert "result NS 0 EW 2 winner EW" in path.read_text(encoding="utf-8")
    result = record(path, ["undo"], "--resume")
    assert "resuming" in result.output and "the game is over" in result.output
    assert path.read_text(encoding="utf-8").endswith("  5. W: QH  N: JC  E: KS\n\nunfinished\n")


@pytest.mark.parametrize(("args", "setup", "message"), [
    (["--resume"], None, "does not exist"),
    (["--resume", "--target", "5"], "", "come from FILE"),
    ([], "[Variant \"four-hand\"]\n\nunfinished\n", "exists: --resume goes on with it"),
    (["--variant", "bridge"], None, "unknown variant 'bridge'"),
    (["--rules", "dummy=required"], None, "option dummy does not apply to four-hand"),
    (["--resume"], "[Variant \"four-hand\"]\ndeal 1 dealer N\n  1. N: 1C\n", "S101"),
    (["--resume"], "# nothing\n", "holds no game"),
    (["--resume"], "[Variant \"four-hand\"]\n\ndeal 1 dealer N\n  up JH\n  bid S pass\n\n"
                   "unfinished\n", "cannot resume"),
    (["--resume"], "[Variant \"four-hand\"]\n\ndeal 1 dealer N\n  trump H maker S tricks 3\n"
                   "\nresult NS 1 winner NS\n", "G955"),
])
def test_usage_errors(args: list[str], setup: str | None, message: str, tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    if setup is not None:
        path.write_text(setup, encoding="utf-8")
    result = record(path, [], *args)
    assert result.exit_code == 2
    assert message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_the_other_games_of_the_file_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    record(path, [*SETUP, *DEAL_1], "--target", "2")
    first = path.read_text(encoding="utf-8")
    other = first.replace("result NS 0 EW 2 winner EW", "unfinished").replace(
        "  S: AS\n  points EW 2  total NS 0 EW 2\n", "\n")
    path.write_text(first + "\n" + other, encoding="utf-8")
    result = record(path, ["AS", ""], "--resume")
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == first + "\n" + first
    check_clean(path)


def test_the_file_is_written_atomically(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    replaced: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        assert Path(src).parent == Path(dst).parent
        assert Path(src).read_text(encoding="utf-8").endswith(("unfinished\n", "winner EW\n"))
        replaced.append((str(src), str(dst)))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    path = tmp_path / "g.euchre"
    record(path, [*SETUP, *DEAL_1[:12]])
    assert len(replaced) == 7  # the setup, the cards, two bids, the exchange, two cards
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.euchre"]


# ---------------------------------------------------------------- a real process


def _wait_for(path: Path, text: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            return
        assert proc.poll() is None, "the session ended early"
        time.sleep(0.02)
    raise AssertionError(f"the file never became:\n{text}")  # pragma: no cover


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
@pytest.mark.parametrize("cut", [12, 19])  # in the bidding; in the middle of trick 2
def test_sigkill_in_the_middle_of_a_deal(cut: int, tmp_path: Path) -> None:
    lines = [*SETUP, *DEAL_1, *DEAL_2, ""]
    whole = tmp_path / "whole.euchre"
    record(whole, lines, "--target", "3")
    partial = tmp_path / "partial.euchre"
    record(partial, lines[:cut], "--target", "3")
    expected = partial.read_text(encoding="utf-8")

    path = tmp_path / "g.euchre"
    proc = subprocess.Popen([sys.executable, "-m", "euchrelog", "record", str(path),
                             "--target", "3"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    try:
        proc.stdin.write("".join(f"{line}\n" for line in lines[:cut]).encode())
        proc.stdin.flush()
        _wait_for(path, expected, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:  # pragma: no cover
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    text = path.read_text(encoding="utf-8")
    assert text == expected
    # Only the lock file stays, unlocked: the next session takes it over.
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [".g.euchre.lock"]
    # Intact: it reads, and check finds nothing but what an unfinished deal leaves open.
    game = loads(text).games[0]
    assert dumps(loads(text)) == text
    assert game.end is not None and game.end.act == "unfinished"
    assert [f.code for f in replay(game).findings] == []
    # Resumable: the rest of the answers finish the same game.
    result = record(path, lines[cut:], "--resume")
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    check_clean(path)


TMUX = shutil.which("tmux")


class Tmux:
    """A detached tmux session running one command."""

    def __init__(self, command: Sequence[str], cwd: Path) -> None:
        assert TMUX is not None
        self.name = f"euchrelog-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "TERM": "xterm", "PYTHONPATH": os.pathsep.join(sys.path)}
        # The pane stays when the command ends, so that its last words can still be read
        # (a command that prints and exits at once would otherwise take them with it).
        subprocess.run([TMUX, "-L", self.name, "new-session", "-d", "-s", self.name,
                        "-x", "160", "-y", "50", *command, ";", "set-option", "-w", "-t",
                        self.name, "remain-on-exit", "on"], cwd=cwd, env=env, check=True,
                       timeout=30)

    def send(self, *keys: str) -> None:
        assert TMUX is not None
        subprocess.run([TMUX, "-L", self.name, "send-keys", "-t", self.name, *keys],
                       check=True, timeout=30)

    def screen(self) -> str:
        assert TMUX is not None
        result = subprocess.run([TMUX, "-L", self.name, "capture-pane", "-p", "-S", "-200",
                                 "-t", self.name], capture_output=True, text=True, timeout=30,
                                check=False)
        return result.stdout

    def wait(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"never saw {text!r} on:\n{self.screen()}")  # pragma: no cover

    def close(self) -> None:
        assert TMUX is not None
        subprocess.run([TMUX, "-L", self.name, "kill-server"], capture_output=True,
                       timeout=30, check=False)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Callable[[Sequence[str]], Tmux]]:
    if TMUX is None:
        pytest.skip("tmux is not installed: the real-terminal test needs it")
    made: list[Tmux] = []

    def start(command: Sequence[str]) -> Tmux:
        made.append(Tmux(command, tmp_path))
        return made[-1]

    yield start
    for session in made:
        session.close()


def test_a_full_deal_in_a_real_terminal(tmux: Callable[[Sequence[str]], Tmux],
                                        tmp_path: Path) -> None:
    path = tmp_path / "club.euchre"
    term = tmux([sys.executable, "-m", "euchrelog", "record", str(path), "--target", "2"])
    term.wait("N player's name")
    prompts = ["E player's name", "S player's name", "W player's name", "first dealer",
               "full play or score sheet?", "E's hand", "S's hand", "W's hand", "N's hand",
               "upcard", "kitty", "E bids [pass, order]"]
    for answer, prompt in zip([*SETUP[:-1], "N", "full", *DEAL_1[1:7]], prompts, strict=True):
        term.send(answer, "Enter")
        term.wait(prompt)
    # Tab completes the words that fit: "pa" becomes "pass".
    term.send("pa", "Tab")
    term.wait("E bids [pass, order] > pass")
    term.send("Enter")
    term.wait("S bids [pass, order] >")
    term.send("W order", "Enter")
    term.wait("refused: B401 W bids out of turn in round 1: it is S's turn")
    term.send("order", "Enter")
    term.wait("N takes JH and discards [JC QC KC AC KD JH], or declines >")
    term.send("discard KD", "Enter")
    term.wait("E leads [9C TC AD QS KS] >")
    for card in DEAL_1[10:-1]:
        term.send(card, "Enter")
        time.sleep(0.02)
    term.wait("W: QH  N: JC  E: KS; S plays [AS] (Enter for AS) >")
    term.send("Enter")  # (a seat's only legal card)
    screen = term.wait("game over: press Enter to finish, or undo >")
    assert "game over: EW wins, score NS 0 EW 2" in screen
    term.send("Enter")
    term.wait(f"saved {path}")
    text = path.read_text(encoding="utf-8")
    assert text.endswith("  points EW 2  total NS 0 EW 2\n\nresult NS 0 EW 2 winner EW\n")
    check_clean(path)


def test_full_answers_cover_every_entry() -> None:
    _, game = game_for("four-hand", 2)
    rules = ruleset_of(game)
    for deal in game.deals:
        plays = sum(len(t.plays) for t in deal.tricks)
        assert len(full_answers(deal, rules)) >= plays + len(deal.bids) + 6


def test_ctrl_c_saves_and_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given = iter([*SETUP, *DEAL_1[:9]])

    def ask(self: Console, prompt: str, words: Sequence[str]) -> str | None:
        for answer in given:
            return answer
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "ask", ask)
    path = tmp_path / "g.euchre"
    result = CliRunner().invoke(main, ["record", str(path)])
    assert result.exit_code == 130
    assert "saved" in result.output.splitlines()[-1]
    assert "  bid E pass, S order\n" in path.read_text(encoding="utf-8")


class Monkey(Console):
    """Answers each prompt at random: mostly one of the words that complete there (a
    legal or illegal choice), sometimes two, a command, nothing or nonsense."""

    def __init__(self, rng: random.Random, steps: int) -> None:
        self.tty = False
        self.words = []
        self.rng = rng
        self.steps = steps
        self.said: list[str] = []

    def ask(self, prompt: str, words: Sequence[str]) -> str | None:
        self.said.append(prompt)
        self.steps -= 1
        if self.steps < 0:
            return None
        rng = self.rng
        roll = rng.random()
        if "(Enter if not" in prompt and roll < 0.85:
            return ""  # a hand not known: the play then goes on with any card
        if "full play or score sheet" in prompt and roll < 0.7:
            return "full"
        if words and roll < 0.75:
            answer = rng.choice(list(words))
            if roll < 0.1:
                answer += " " + rng.choice(list(words))
            return answer
        return rng.choice(["undo", "undo", "?", "", "sheet", "zz", "E: ??", "9 9", "alone",
                           "defend E", "merge", "swap 4", "call X", "5", "y", "N", "thrown"])

    def say(self, text: str = "") -> None:
        self.said.append(text)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_answers_never_break_the_record(variant: str, tmp_path: Path) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        path = tmp_path / f"{seed}.euchre"
        monkey = Monkey(rng, 400)
        session = Session(path, monkey, variant=find_variant(variant), target=4)
        assert session.run() == 0
        assert not [line for line in monkey.said if "internal error" in line]
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        assert dumps(loads(text)) == text
        game = loads(text).games[0]
        codes = {f.code for f in replay(game).findings}
        assert codes <= {"R801", "R802"}, replay(game).findings  # reneges entered as such
        again = Session(path, Monkey(rng, 200), recorder=Recorder.loads(text))
        assert again.run() == 0


# ---------------------------------------------------------------- a club night


def test_a_club_night_is_recorded_then_scored(tmp_path: Path) -> None:
    """Two tables of one round, recorded with their event tags, score final at once: at
    table 1 South reneges and East-West claim it (a note, P2), table 2 is scored from the
    sheets."""
    deal = ["sheet", "H", "S", "n", "", "3"]  # NS make hearts: 1 point
    renege = [*DEAL_1[:11], "9S", "y", "y", "9H", "AC"]  # claimed: EW 2
    tables = {"1": (["Ann", "Ben", "Cleo", "Dev"], renege),
              "2": (["Eve", "Finn", "Gus", "Hal"], [*deal, *deal])}
    for table, (players, deals) in tables.items():
        result = record(tmp_path / f"t{table}.euchre", [*players, "N", *deals, ""],
                        "--target", "2", "--event", "Club night", "--round", "1", "--table",
                        table, "--date", "2026-12-01", "--site", "Legion Hall")
        assert result.exit_code == 0, result.output
        assert refusals(result.output) == ([] if table == "2" else [
            "  refused: R801 renege: S plays 9S on the AD lead (diamonds) in trick 1 holding "
            "9D TD"])
        checked = CliRunner().invoke(main, ["check", str(tmp_path / f"t{table}.euchre")])
        assert checked.exit_code == 0, checked.output
    text = (tmp_path / "t2.euchre").read_text(encoding="utf-8")
    assert text.startswith('[Event "Club night"]\n[Site "Legion Hall"]\n[Date "2026-12-01"]\n'
                           '[Round "1"]\n[Table "2"]\n[Variant "four-hand"]\n')
    scored = CliRunner().invoke(main, ["score", str(tmp_path)])
    assert scored.exit_code == 0, scored.output
    assert "R801 note: deal 1: renege: S plays 9S" in scored.stderr
    lines = scored.stdout.splitlines()
    assert lines[0] == "Club night" and lines[2].startswith("final")
    assert [line.split()[:2] for line in lines if "&" in line and "table" not in line][:4] == [
        ["1=", "Ben"], ["1=", "Eve"], ["3=", "Ann"], ["3=", "Finn"]]
    assert "  most euchres taken   none" in lines  # a renege penalty is no euchre
    page = CliRunner().invoke(main, ["score", "-q", "--format", "html", str(tmp_path)]).stdout
    assert "Date: 2026-12-01; Site: Legion Hall" in page


def test_the_event_tags_not_given_are_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "t.euchre"
    result = record(path, ["", "3", "", "2", "", "", *SETUP], "--event", "Club night")
    assert result.exit_code == 0, result.output
    prompts = [line.split(" > ")[0] for line in result.output.splitlines() if " > " in line]
    assert prompts[:6] == ["round of the event", "round of the event", "table", "table",
                           "date (YYYY-MM-DD, Enter for today)", "site (Enter for none)"]
    game = loads(path.read_text(encoding="utf-8")).games[0]
    assert [(t.name, t.value) for t in game.tags[:5]] == [
        ("Event", "Club night"), ("Date", datetime.date.today().isoformat()), ("Round", "3"),
        ("Table", "2"), ("Variant", "four-hand")]
    assert record(path, [], "--resume", "--table", "2").exit_code == 2


def test_a_renege_that_happened_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    start = [*SETUP, *DEAL_1[:11], "9S"]
    result = record(path, [*start, "n", "9D"], "--target", "2")
    assert "was 9S played all the same (a renege)? [y/n, or the card played] > n" in (
        result.output)
    assert "  1. E: AD  S: 9D\n" in path.read_text(encoding="utf-8")
    path.unlink()
    result = record(path, [*start, "maybe", "y", "y", "9H", "AC", ""], "--target", "2")
    assert "  answer y or n" in result.output
    assert "deal 1: EW 2; score NS 0 EW 2\ngame over: EW wins" in result.output
    text = path.read_text(encoding="utf-8")
    assert "  1. E: AD  S: 9S  W: 9H  N: AC\n  renege S trick 1\n  points EW 2" in text
    findings = replay(loads(text).games[0]).findings
    assert [(f.code, f.message.endswith("claimed: EW 2")) for f in findings] == [("R801", True)]
    path.unlink()
    result = record(path, [*start, "y", "n", "9H", "AC"], "--target", "2")
    assert "  trick 1 to W; tricks NS 0 EW 1" in result.output
    text = path.read_text(encoding="utf-8")
    assert "  1. E: AD  S: 9S  W: 9H  N: AC\n\nunfinished\n" in text
    findings = replay(loads(text).games[0]).findings
    assert [(f.code, f.message.endswith("not claimed (the penalty would have been EW 2)"))
            for f in findings] == [("R801", True)]
    path.unlink()
    result = record(path, [*start, "y", "undo", "9D"], "--target", "2")
    assert "  undone: the refused card is not entered" in result.output
    assert "  1. E: AD  S: 9D\n" in path.read_text(encoding="utf-8")
