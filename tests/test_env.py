"""The environments (issue 43 item 3): PettingZoo's api_test for every variant, the
observation's layout as docs/api.md gives it, what a seat may and may not see, seeded
games, a game's record that checks clean, and the Gymnasium wrapper with players at the
other seats."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from euchrelog import VARIANTS, replay  # noqa: E402
from euchrelog.actions import ACTION_COUNT  # noqa: E402
from euchrelog.acts import Exchange  # noqa: E402
from euchrelog.engine import Phase  # noqa: E402
from euchrelog.env import LAYOUT, SIZE, EuchreEnv, EuchreGymEnv  # noqa: E402
from euchrelog.env.observation import ABSOLUTE, OFFSET, PERM, fill, observe  # noqa: E402
from euchrelog.generate import ruleset_for  # noqa: E402
from euchrelog.players import RuleBasedPlayer  # noqa: E402
from euchrelog.seats import Seat  # noqa: E402

API_MD = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def play_randomly(env: EuchreEnv, seed: int) -> int:
    """Plays a game of ``env`` by random legal numbers; returns the steps."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert observation["observation"].shape == (SIZE,)
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0, agent
        env.step(int(rng.choice(list(legal))))
        steps += 1
    return steps


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_api_test_passes_for_every_variant(variant: str) -> None:
    api_test(EuchreEnv(variant), num_cycles=400)


@pytest.mark.parametrize(("variant", "rules"), [
    ("four-hand", "stick-the-dealer lone-defender partner-alone"),
    ("four-hand", "canadian-loner no-trump"),
    ("four-hand", "deck=32 dealer-pickup=required natural-pickup"),
    ("cutthroat", "dummy=optional"),
    ("ghost", "target=12"),
])
def test_api_test_passes_under_house_rules(variant: str, rules: str) -> None:
    api_test(EuchreEnv(variant, rules), num_cycles=300)


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_a_game_ends_and_its_record_checks_clean(variant: str) -> None:
    env = EuchreEnv(variant)
    assert play_randomly(env, 3) > 0
    assert not env.agents  # (each stepped out once done)
    game = env.record()
    assert game.deals and not replay(game).findings
    assert env.game.over and env.game.totals == replay(game).totals


@pytest.mark.parametrize(("variant", "rules"), [
    *((v.name, "") for v in VARIANTS),
    ("four-hand", "stick-the-dealer lone-defender partner-alone canadian-loner"),
    ("four-hand", "no-trump deck=32 dealer-pickup=required natural-pickup"),
    ("cutthroat", "dummy=optional"),
])
def test_the_observation_kept_act_by_act_is_the_one_worked_out_from_the_start(
        variant: str, rules: str) -> None:
    env = EuchreEnv(variant, rules, deals=3)
    rng = random.Random(7)
    steps = 0
    for seed in range(4):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            table, observer = env.table, env.observer
            assert table is not None and observer is not None
            whole = np.zeros(ABSOLUTE, dtype=np.float32)
            fill(whole, table, env.totals, env.ruleset.options.target)
            assert np.array_equal(observer.vector, whole), (agent, steps)
            seat = env.seat_of[agent]
            assert np.array_equal(observation["observation"], whole.take(PERM[seat]))
            assert np.array_equal(observation["observation"],
                                  observe(table, seat, env.totals, env.ruleset.options.target))
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    assert steps > 0


def test_an_observation_is_a_new_array_each_time() -> None:
    env = EuchreEnv("four-hand")
    env.reset(seed=2)
    first = env.observe(env.agent_selection)
    first["observation"][:] = 7
    first["action_mask"][:] = 7
    again = env.observe(env.agent_selection)
    assert again["observation"].max() <= 1 and again["action_mask"].max() == 1


def test_seeded_games_are_the_same() -> None:
    one, two = EuchreEnv("cutthroat", deals=3), EuchreEnv("cutthroat", deals=3)
    play_randomly(one, 8)
    play_randomly(two, 8)
    assert one.record() == two.record()


def test_the_layout_is_the_table_of_the_docs() -> None:
    text = API_MD.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+)-(\d+) \| ([a-z -]+) \| ", text, re.MULTILINE)
    assert [(int(a), int(b), name) for a, b, name in rows] == [
        (OFFSET[name], OFFSET[name] + size - 1, name) for name, size, _ in LAYOUT]
    assert f"{SIZE} numbers" in text


def test_a_seat_sees_its_hand_and_the_upcard_and_no_other_hand() -> None:
    env = EuchreEnv("four-hand")
    env.reset(seed=5)
    table = env.table
    assert table is not None
    for agent in env.agents:
        seen = env.observe(agent)["observation"]
        hand = seen[OFFSET["hand"]:OFFSET["hand"] + 33]
        assert hand.sum() == 5
        assert seen[OFFSET["upcard"]:OFFSET["upcard"] + 33].sum() == 1
        mask = env.observe(agent)["action_mask"]
        assert mask.shape == (ACTION_COUNT,)
        assert mask.any() == (agent == env.agent_selection)


def test_only_the_dealer_sees_its_discard() -> None:
    env = EuchreEnv("four-hand")
    player = RuleBasedPlayer()
    for seed in range(40):
        env.reset(seed=seed)
        while (table := env.table) is not None and table.state.phase in (Phase.BIDDING,
                                                                         Phase.DECLARING):
            decision = table.decision()
            assert decision is not None
            env.step(player.choose(decision))
        assert table is not None
        if not any(isinstance(e, Exchange) and e.discard for e in table.deal.entries):
            continue
        dealer = table.state.dealer.value
        discard = slice(OFFSET["discard"], OFFSET["discard"] + 33)
        assert env.observe(dealer)["observation"][discard].sum() == 1
        assert all(env.observe(a)["observation"][discard].sum() == 0
                   for a in env.agents if a != dealer)
        return
    pytest.fail("no dealer took the upcard")


def test_an_illegal_action_is_refused() -> None:
    env = EuchreEnv("four-hand")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not an act offered"):
        env.step(0)


@pytest.mark.parametrize("variant", ["four-hand", "cutthroat", "ghost"])
def test_the_gym_wrapper_plays_one_seat_against_players(variant: str) -> None:
    gym_env = EuchreGymEnv(variant, players=RuleBasedPlayer(), deals=6)
    observation, _ = gym_env.reset(seed=4)
    rng = random.Random(4)
    total = 0.0
    for _ in range(10_000):
        assert gym_env.observation_space.contains(observation)
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = gym_env.step(
            int(rng.choice(list(legal))))
        total += reward
        if terminated:
            break
    else:
        pytest.fail("the game did not end")
    assert not truncated and info["totals"]
    game = gym_env.game.record()
    assert len(game.deals) == 6 and not replay(game).findings
    ruleset = ruleset_for(variant)
    side, sides = ruleset.side(Seat(gym_env.seat)), ruleset.side_names
    net = 0.0
    for deal in game.deals:
        points = deal.score.points if deal.score is not None and deal.score.points else {}
        own = points.get(side, 0)
        net += own - (sum(points.values()) - own) / (len(sides) - 1)
    assert total == pytest.approx(net)


def test_the_gym_wrapper_checks_its_seat() -> None:
    with pytest.raises(ValueError, match="has no seat"):
        EuchreGymEnv("two-hand", seat="E")
