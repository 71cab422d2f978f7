"""cardtable's bots as policies for the environments (cardtable.envs.policy): legal moves
for the agent to act in PettingZoo's and Gymnasium's environments of every game, and a
clear refusal where there is no game to play."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
import gymnasium  # noqa: E402

import cardtable.envs  # noqa: E402,F401  (registers the Gymnasium ids)
from cardtable.core import IllegalActionError, OptionsError  # noqa: E402
from cardtable.envs.policy import bot_policy  # noqa: E402

SHORT = {"sequence": {}, "drawbridge": {"target": 1}, "threethirteen": {}}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_two_bots_play_a_pettingzoo_game_to_its_end(game: str) -> None:
    env = importlib.import_module(f"cardtable.envs.{game}_v0").env(**SHORT[game])
    env.reset(seed=3)
    policies = {"player_0": bot_policy("trained", seed=1), "player_1": bot_policy("heuristic")}
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        final[agent] = reward
        if termination or truncation:
            env.step(None)
            continue
        action = policies[agent](env)
        assert observation["action_mask"][action] == 1     # legal, for this agent
        env.step(action)
    assert sorted(final) == ["player_0", "player_1"] and sum(final.values()) <= 0


def test_a_policy_plays_the_learner_s_seat_in_gymnasium() -> None:
    env = gymnasium.make("cardtable/Sequence-v0", opponents="random")
    policy = bot_policy("heuristic")
    wins = 0
    for seed in range(3):
        _, info = env.reset(seed=seed)
        over = False
        while not over:
            action = policy(env)
            assert info["action_mask"][action] == 1
            _, reward, terminated, truncated, info = env.step(action)
            over = terminated or truncated
        wins += float(reward) > 0
    assert wins >= 2                                    # the heuristic against random play


def test_no_game_no_move() -> None:
    policy = bot_policy("random", seed=0)
    with pytest.raises(OptionsError, match="cardtable environment"):
        policy(object())
    env: Any = importlib.import_module("cardtable.envs.sequence_v0").env()
    with pytest.raises(OptionsError, match="after its reset"):
        policy(env)
    env.reset(seed=0)
    while not env.unwrapped.game_state.is_terminal:
        env.step(policy(env))
    with pytest.raises(IllegalActionError, match="game is over"):
        policy(env)
    assert repr(policy) == "bot_policy('random')"


def test_the_docs_example_runs_as_written() -> None:
    """docs/envs.md's example of ``bot_policy``, as it is written there."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text("utf-8")
    section = docs.split("## cardtable's bots as policies", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code.group(1), "docs/envs.md", "exec"), scope)
    assert scope["env"].unwrapped.game_state.is_terminal
