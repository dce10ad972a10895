"""The players and the arena (issue 43): every game of a match written as notation that
checks clean, duplicate seatings, a program in another language (a shell script) playing
a full match over JSON lines, a player's fault reported and the match going on, and the
report as text, JSON and HTML."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from euchrelog import VARIANTS, loads, replay
from euchrelog.arena import Setup, play_board, run, seatings
from euchrelog.cli import main
from euchrelog.engine import Phase
from euchrelog.generate import new_deal, ruleset_for
from euchrelog.players import (
    STAND,
    Decision,
    Made,
    ProgramPlayer,
    RandomPlayer,
    RuleBasedPlayer,
    act_words,
    load_player,
    next_turn,
    seat_view,
)
from euchrelog.seats import Seat

PLAYERS = Path(__file__).parent / "players"
FIRST = f"exec:sh {PLAYERS / 'first.sh'}"


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, ["arena", *args], catch_exceptions=False)


def findings(path: Path) -> int:
    log = loads(path.read_text(encoding="utf-8"))
    return sum(len(replay(game).findings) for game in log.games)


# ------------------------------------------------------------------ players and turns


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_turns_play_every_variant_to_its_end(variant: str) -> None:
    """Each player answers one of the numbers of its turn; STAND is offered only before
    the lead, and a deal played by turns ends played out or thrown in."""
    rng = random.Random(variant)
    for player in (RandomPlayer(3), RuleBasedPlayer()):
        for _ in range(60):
            state = new_deal(rng, ruleset_for(variant), Seat.N)
            stood: set[Seat] = set()
            while (turn := next_turn(state, stood)) is not None:
                number = player.choose(Decision(state, turn.seat, turn.actions))
                assert number in turn.actions
                if number == STAND and state.phase is Phase.DECLARING:
                    stood.add(turn.seat)
                else:
                    assert state.action_of(number).seat == turn.seat
                    state.do_id(number)
            assert state.phase in (Phase.DONE, Phase.THROWN)


def test_the_maker_may_stand_before_the_lead() -> None:
    """After the exchange, the maker is asked about going alone with STAND beside it."""
    rng = random.Random(11)
    for _ in range(200):
        state = new_deal(rng, ruleset_for("four-hand"), Seat.N)
        while state.phase is Phase.BIDDING:
            state.do_id(rng.choice(state.legal_action_ids()))
        if state.phase is not Phase.DECLARING:
            continue
        turn = next_turn(state)
        assert turn is not None
        if state.exchange_due:
            assert turn.seat == state.dealer and STAND not in turn.actions
            state.do_id(turn.actions[0])
            turn = next_turn(state)
            assert turn is not None
        assert turn.seat == state.maker and STAND in turn.actions
        return
    pytest.fail("no deal reached the declaring phase")


def test_a_seat_view_names_no_other_seats_discard() -> None:
    rng = random.Random(4)
    for _ in range(200):
        state = new_deal(rng, ruleset_for("four-hand"), Seat.N)
        history: list[Made] = []
        stood: set[Seat] = set()
        while (turn := next_turn(state, stood)) is not None and not state.tricks:
            decision = Decision(state, turn.seat, turn.actions)
            number = RuleBasedPlayer().choose(decision)
            history.append(Made(turn.seat, number, decision.act(number)))
            if number == STAND and state.phase is Phase.DECLARING:
                stood.add(turn.seat)
            else:
                state.do_id(number)
        if any("discards" in act_words(m.act)[0] for m in history):
            dealer = seat_view(state, Seat.N, tuple(history))
            other = seat_view(state, Seat.E, tuple(history))
            assert any("discards" in words for _, words in dealer["history"])
            assert not any("discards" in words for _, words in other["history"])
            assert len(other["hand"]) <= 5
            return
    pytest.fail("no exchange")


def test_the_random_player_is_seeded() -> None:
    state = new_deal(random.Random(1), ruleset_for(), Seat.N)
    decision = Decision(state, Seat.E, tuple(range(40)))
    a, b = RandomPlayer(7), RandomPlayer(7)
    assert [a.choose(decision) for _ in range(20)] == [b.choose(decision) for _ in range(20)]
    b.reset(8)
    a.reset(8)
    assert a.choose(decision) == b.choose(decision)


def test_load_player_names() -> None:
    assert isinstance(load_player("rule-based"), RuleBasedPlayer)
    assert isinstance(load_player("exec:sh x.sh"), ProgramPlayer)
    for bad in ("nobody", "support.bots:Missing", "no.such.module:X", "support.bots:NoChoose",
                "exec:", "exec:no-such-program-here", "exec:sh 'x"):
        with pytest.raises(ValueError, match="no player"):
            load_player(bad)


# ------------------------------------------------------------------ matches


def test_duplicate_seats_every_player_on_every_side() -> None:
    setup = Setup(("a", "b", "c"))
    assert seatings(setup, 1, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    single = Setup(("a", "b"), duplicate=False)
    assert seatings(single, 1, 2) == [(0, 1)] and seatings(single, 2, 2) == [(1, 0)]


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_every_game_of_every_variant_checks_clean(variant: str, tmp_path: Path) -> None:
    sides = len(ruleset_for(variant).side_names)
    players = ["rule-based", "random", "random"][:sides]
    out = tmp_path / "games.euchre"
    result = arena(*players, "--variant", variant, "-n", "12", "--seed", "5",
                   "--games", str(out), "-j", "1")
    assert result.exit_code == 0, result.output
    log = loads(out.read_text(encoding="utf-8"))
    assert len(log.games) == 12 * sides
    assert sum(len(replay(game).findings) for game in log.games) == 0
    first = log.games[0]
    assert first.tag("Round") == "1.1" and first.tag("Event") == "Arena"


def test_duplicate_games_of_a_board_hold_the_same_cards() -> None:
    result = play_board((Setup(("random", "rule-based"), seed=2), 3))
    one, two = (game.deals[0] for game in result.games)
    assert one.hands == two.hands and one.up == two.up and one.dealer == two.dealer
    assert result.games[0].tag("N") == "random" and result.games[1].tag("N") == "rule-based"


def test_a_shell_script_plays_a_full_match(tmp_path: Path) -> None:
    """A JSON-lines player in another language: the shell script answers the first act it
    is offered, for two boards of every seating, and every game checks clean."""
    out = tmp_path / "games.euchre"
    result = arena(FIRST, "rule-based", "-n", "6", "--timeout", "10", "--games", str(out),
                   "-j", "1")
    assert result.exit_code == 0, result.output
    assert "faults: none" in result.output
    assert findings(out) == 0
    assert f"[N \"{FIRST}\"]" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("how", "kind"), [("crash", "crash"), ("slow", "timeout"),
                                           ("junk", "illegal"), ("illegal", "illegal")])
def test_a_program_that_fails_is_reported_and_the_match_goes_on(
        how: str, kind: str, tmp_path: Path) -> None:
    out = tmp_path / "games.euchre"
    spec = f"exec:sh {PLAYERS / 'faulty.sh'} {how} {tmp_path / 'slept'}"
    result = arena(spec, "random", "-n", "3", "--timeout", "0.5", "--games", str(out),
                   "--format", "json", "-j", "1")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["boards"] == 3 and report["games"] == 6
    faults = report["faults"]
    assert faults and {f["kind"] for f in faults} == {kind}
    first = faults[0]
    assert first["player"] == spec and first["board"] >= 1 and first["asked"]
    assert first["instead"]
    assert findings(out) == 0


@pytest.mark.parametrize(("bot", "kind"), [("Broken", "crash"), ("Slow", "timeout"),
                                           ("Wild", "illegal")])
def test_a_python_player_that_fails_is_reported(bot: str, kind: str) -> None:
    result = arena(f"support.bots:{bot}", "rule-based", "-n", "1", "--timeout", "0.05",
                   "-j", "1")
    assert result.exit_code == 1
    assert f": {kind}: " in result.output
    assert "instead" in result.output


def test_a_module_class_player_plays() -> None:
    result = arena("support.bots:Last", "random", "-n", "4", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "support.bots:Last" in result.output


def test_jobs_give_the_same_report() -> None:
    one = arena("random", "rule-based", "-n", "30", "--seed", "3", "-j", "1", "--format",
                "json")
    two = arena("random", "rule-based", "-n", "30", "--seed", "3", "-j", "2", "--format",
                "json")
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output


def test_the_report_rates_the_stronger_player_first() -> None:
    match = run(Setup(("random", "rule-based"), seed=9), 60)
    best, worst = match.standings
    assert best.name == "rule-based" and best.net > 0 > worst.net
    assert best.net - best.net_ci > 0  # clear of random within 95% on 60 boards
    assert best.rating > 1500 > worst.rating
    assert abs(best.net + worst.net) < 1e-9


def test_text_and_html_reports(tmp_path: Path) -> None:
    text = arena("rule-based", "random", "random", "--variant",
                 "three-hand", "-n", "5", "-j", "1")
    assert text.exit_code == 0
    lines = text.output.splitlines()
    assert lines[0].startswith("arena: three-hand, 5 boards (duplicate, 3 games a board")
    assert "random#2" in text.output and "rating" in lines[1]
    page = tmp_path / "r.html"
    result = arena("rule-based", "random", "-n", "3", "--format", "html", "-o", str(page),
                   "-j", "1")
    assert result.exit_code == 0 and result.output == ""
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "rule-based" in html and "Faults" in html


@pytest.mark.parametrize(("args", "said"), [
    (["random"], "four-hand has 2 sides: name 2 players"),
    (["random", "nobody"], "no player 'nobody'"),
    (["random", "random", "--rules", "deck=99"], "--rules"),
    (["random", "random", "--jobs", "2", "--scheduler", "tcp://x:1"], "do not go together"),
])
def test_usage_errors(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, ["arena", *args])
    assert result.exit_code == 2
    assert said in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_a_thousand_duplicate_boards_finish_clean(tmp_path: Path) -> None:
    """The gate of issue 43: 1,000 duplicate deals of random against rule-based finish,
    and every game checks clean."""
    out = tmp_path / "games.euchre"
    result = arena("random", "rule-based", "-n", "1000", "--seed", "43", "--games",
                   str(out), "--format", "json", "-j", "1")
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["games"] == 2000 and not report["faults"]
    best = report["players"][0]
    assert best["name"] == "rule-based" and best["net"] - best["net_ci"] > 0
    assert findings(out) == 0


def test_a_dask_cluster_gives_the_same_report(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    args = ["random", "rule-based", "-n", "12", "--seed", "4", "--format", "json"]
    local = arena(*args, "-j", "1", "--games", str(tmp_path / "local.euchre"))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  worker_dashboard_address=None) as cluster:
        remote = arena(*args, "--scheduler", cluster.scheduler_address, "--games",
                       str(tmp_path / "remote.euchre"))
    assert local.exit_code == remote.exit_code == 0
    assert local.output == remote.output
    assert (tmp_path / "local.euchre").read_text() == (tmp_path / "remote.euchre").read_text()


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_the_single_dummy_player_plays_every_variant_clean(variant: str,
                                                           tmp_path: Path) -> None:
    """The single-dummy player (issue 43 item 5) plays a legal card in every variant, as the
    rule-based player where the sampler cannot say (a merge, a swap)."""
    sides = len(ruleset_for(variant).side_names)
    players = ["single-dummy", "rule-based", "random"][:sides]
    out = tmp_path / "games.euchre"
    result = arena(*players, "--variant", variant, "-n", "4", "--seed", "3",
                   "--games", str(out), "-j", "1")
    assert result.exit_code == 0, result.output
    assert findings(out) == 0


def test_the_single_dummy_player_is_seeded_and_legal() -> None:
    """Two single-dummy players of one seed answer every decision of a deal alike, with a
    number they were offered."""
    from euchrelog.players import SingleDummyPlayer

    rng = random.Random(8)
    state = new_deal(rng, ruleset_for("four-hand"), Seat.N)
    first, second = SingleDummyPlayer(seed=4), SingleDummyPlayer(seed=4)
    stood: set[Seat] = set()
    while (turn := next_turn(state, stood)) is not None:
        decision = Decision(state, turn.seat, turn.actions)
        number = first.choose(decision)
        assert number == second.choose(decision) and number in turn.actions
        if number == STAND and state.phase is Phase.DECLARING:
            stood.add(turn.seat)
        else:
            state.do_id(number)
    assert state.phase is Phase.DONE
