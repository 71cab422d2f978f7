"""Gymnasium single-agent environments: check_env, bots as opponents, masks, rewards."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

gymnasium = pytest.importorskip(
    "gymnasium", reason="the rl extra is not installed: pip install 'cardtable[rl]'")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import cardtable  # noqa: E402
from cardtable.bots import RandomBot  # noqa: E402
from cardtable.envs import GYM_IDS  # noqa: E402
from tests.envs.common import CONFIGS, GAMES, config_id  # noqa: E402

PARAMS = [pytest.param(name, options, id=config_id(name, options)) for name, options in CONFIGS]


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_check_env(name: str, options: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(GYM_IDS[name], **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_every_game_is_registered() -> None:
    assert set(GAMES) <= set(GYM_IDS)
    for name in cardtable.game_names():
        assert GYM_IDS[name] in gymnasium.registry


@pytest.mark.parametrize("name", GAMES)
def test_render_shows_the_table_and_the_learner_s_hand_only(name: str) -> None:
    """#36: the render shows the learner's hand, never another seat's."""
    env = gymnasium.make(GYM_IDS[name], render_mode="ansi", seat=1)
    env.reset(seed=3)
    state = env.unwrapped.game_state
    text = env.render()
    assert text.startswith(str(state)) and "seat 1 to act" in text
    assert f"seat 1 hand: {' '.join(state.view(1)['hand'])}" in text
    assert "seat 0 hand" not in text and text.count(" hand: ") == 1


def play(env: Any, seed: int) -> tuple[float, int, bool, bool]:
    """A random learner through one episode: (reward, learner steps, terminated, truncated)."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            assert not info["action_mask"].any()
            return reward, steps, terminated, truncated


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_against_bots_ends_with_the_seat_s_return(name: str) -> None:
    options = next(o for n, o in CONFIGS if n == name)
    env = gymnasium.make(GYM_IDS[name], seat=1, opponents="random", **options)
    reward, _, terminated, _ = play(env, seed=1)
    state = env.unwrapped.game_state
    assert terminated and state.is_terminal
    assert reward == state.returns()[1]


def test_opponents_per_seat_and_bot_objects() -> None:
    bot = RandomBot(seed=3)
    env = gymnasium.make(GYM_IDS["sequence"], players=3, seat=2,
                         opponents=["heuristic", bot])
    reward, steps, terminated, _ = play(env, seed=2)
    assert terminated and steps > 0
    kinds = env.unwrapped.bots
    assert kinds[1] is bot and type(kinds[0]).__name__ == "HeuristicBot"


def test_ismcts_opponent_with_a_budget() -> None:
    env = gymnasium.make(GYM_IDS["sequence"], opponents="ismcts",
                         opponent_budget={"iterations": 5}, max_moves=12)
    _, _, terminated, truncated = play(env, seed=3)
    assert truncated and not terminated


def test_same_seed_same_episode() -> None:
    a = gymnasium.make(GYM_IDS["sequence"], opponents="heuristic")
    b = gymnasium.make(GYM_IDS["sequence"], opponents="heuristic")
    assert play(a, seed=5) == play(b, seed=5)
    assert a.unwrapped.game_state.to_dict() == b.unwrapped.game_state.to_dict()


def test_an_illegal_action_ends_the_episode() -> None:
    env = gymnasium.make(GYM_IDS["sequence"], illegal_reward=-5.0)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert not info["action_mask"].any()


def test_action_masks_for_maskable_ppo() -> None:
    env = gymnasium.make(GYM_IDS["sequence"])
    _, info = env.reset(seed=1)
    masks = env.unwrapped.action_masks()
    assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(cardtable.OptionsError, match="seat"):
        gymnasium.make(GYM_IDS["sequence"], seat=2)
    with pytest.raises(cardtable.OptionsError, match="opponents"):
        gymnasium.make(GYM_IDS["sequence"], players=3, opponents=["random"])
    with pytest.raises(cardtable.OptionsError, match="unknown bot"):
        gymnasium.make(GYM_IDS["sequence"], opponents="genius")
