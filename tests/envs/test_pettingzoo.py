"""PettingZoo conformance (api_test, seed_test, render_test) and the environment's own rules.

Not run: PettingZoo's bombardment_test, broken for dict observations in the current release,
and max_cycles_test, which targets parallel environments (these are AEC only).
"""

from __future__ import annotations

import importlib
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo",
                    reason="the rl extra is not installed: pip install 'cardtable[rl]'")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import cardtable  # noqa: E402
from tests.envs.common import CONFIGS, GAMES, config_id  # noqa: E402

PARAMS = [pytest.param(name, options, id=config_id(name, options)) for name, options in CONFIGS]
# what api_test says of every dict observation, PettingZoo's own classic games included
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


def module(name: str) -> Any:
    return importlib.import_module(f"cardtable.envs.{name}_v0")


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_api_test(name: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(module(name).env(**options), num_cycles=200)
    unexpected = [str(w.message) for w in caught
                  if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert not unexpected


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_seed_test(name: str, options: dict[str, Any]) -> None:
    seed_test(lambda: module(name).env(**options), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_render_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(module(name).env)
    assert "to act" in capsys.readouterr().out  # "human" prints the table


def test_draw_bridge_renders_the_table_and_every_hand() -> None:
    """#36: Draw Bridge's "ansi" render was the state's repr, with no card in it."""
    if "drawbridge" not in GAMES:
        pytest.skip("Draw Bridge is not registered")
    env = module("drawbridge").env(render_mode="ansi")
    env.reset(seed=1)
    rng = random.Random(1)
    state = env.unwrapped.game_state
    while state.phase != "play" or not state.cards_played % 2:  # a card on the table
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    text = env.render()
    assert text.startswith("Draw Bridge, deal 1")
    for seat in (0, 1):  # the environment holds every agent: every hand shows
        assert f"seat {seat} hand: {' '.join(state.view(seat)['hand'])}" in text
    contract = state.view(None)["contract"]
    assert f"contract: {contract['level']}{contract['strain']}" in text
    assert "auction: seat" in text and "trick: seat" in text and "match scores 0-0" in text


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_the_returns_of_the_game(name: str) -> None:
    env = module(name).env(max_moves=None, **next(o for n, o in CONFIGS if n == name))
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            action = None if terminated or truncated else int(
                rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        state = env.unwrapped.game_state
        assert state.is_terminal
        assert [total[a] for a in env.possible_agents] == state.returns()


@pytest.mark.parametrize("name", GAMES)
def test_a_game_replays_from_its_seed(name: str) -> None:
    """reset(seed) deals game.deal(seed) for a seed drawn from random.Random(seed)."""
    env = module(name).env()
    env.reset(seed=11)
    deal_seed = random.Random(11).getrandbits(63)
    assert env.unwrapped.game_state.to_dict() == cardtable.new_game(name).deal(
        seed=deal_seed).to_dict()


def test_truncation_after_max_moves() -> None:
    env = module("sequence").env(max_moves=5)
    env.reset(seed=1)
    moves = 0
    for _ in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if truncated:
            assert reward == 0 and not obs["action_mask"].any()
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        moves += 1
    assert moves == 5 and env.agents == []


def test_an_illegal_action_ends_the_game_against_the_offender(
        caplog: pytest.LogCaptureFixture) -> None:
    env = module("sequence").env(players=4)
    env.reset(seed=2)
    obs, *_ = env.last()
    offender = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}


def test_actions_outside_the_space_are_refused() -> None:
    env = module("sequence").env()
    env.reset(seed=3)
    for bad in (-1, 529, None):
        with pytest.raises(ValueError, match="action must be an id"):
            env.step(bad)


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = module("sequence").env(players=3)
    env.reset(seed=4)
    acting = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == acting)


def test_options_are_checked() -> None:
    with pytest.raises(cardtable.OptionsError):
        module("sequence").env(players=5)
    with pytest.raises(ValueError, match="max_moves"):
        module("sequence").env(max_moves=0)
    with pytest.raises(ValueError, match="render_mode"):
        module("sequence").env(render_mode="rgb_array")
