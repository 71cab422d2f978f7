"""cardtable's bots as policies for the environments: baselines for an agent to beat.

``bot_policy(kind, **settings)`` makes a bot (``cardtable.bots.make``) and returns a
callable: ``policy(env)`` is the action id the bot plays for the agent to act, in a
PettingZoo AEC environment (``cardtable.envs.sequence_v0.env()``, ...: the agent of
``env.agent_selection``) or the Gymnasium single-agent one (``gymnasium.make(
"cardtable/Sequence-v0")``: the learner's seat), wrapped or not. The bot reads the
environment's game as a bot does at a table: only what the acting seat may know
(``state.view(seat)``, its legal moves, deals resampled from its view).

>>> import cardtable.envs.sequence_v0
>>> from cardtable.envs.policy import bot_policy
>>> env = cardtable.envs.sequence_v0.env()
>>> env.reset(seed=1)
>>> trained, heuristic = bot_policy("trained", seed=1), bot_policy("heuristic")
>>> final = {}
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     final[agent] = reward
...     action = None if termination or truncation else (
...         trained(env) if agent == "player_0" else heuristic(env))
...     env.step(action)
>>> sorted(final.values())
[-1.0, 1.0]
"""

from __future__ import annotations

from typing import Any

from cardtable.bots import make
from cardtable.core import IllegalActionError, OptionsError, State

__all__ = ["BotPolicy", "bot_policy"]


class BotPolicy:
    """A bot as a policy: ``policy(env)`` is its action id for the agent to act."""

    def __init__(self, kind: str, seed: int | None = None, **settings: Any) -> None:
        self.kind = kind
        self.bot = make(kind, seed=seed, **settings)

    def __call__(self, env: Any) -> int:
        state = game_state(env)
        if state.is_terminal:
            raise IllegalActionError("the game is over: there is no move to choose "
                                     "(step the finished agents with None)")
        return self.bot.choose(state).id

    def reset(self) -> None:
        """Restart the bot's random numbers from its seed (and forget what it learnt)."""
        self.bot.reset()

    def __repr__(self) -> str:
        return f"bot_policy({self.kind!r})"


def bot_policy(kind: str, seed: int | None = None, **settings: Any) -> BotPolicy:
    """The bot ``kind`` ("random", "heuristic", "trained", "ismcts", ...: the kinds of
    ``cardtable.bots.make``, with its settings, e.g. ``iterations=200``) as a policy."""
    return BotPolicy(kind, seed, **settings)


def game_state(env: Any) -> State:
    """The game of a cardtable environment, through its wrappers (PettingZoo's and
    Gymnasium's ``unwrapped``)."""
    state = getattr(getattr(env, "unwrapped", env), "game_state", None)
    if not isinstance(state, State):
        raise OptionsError("a bot policy plays a cardtable environment (PettingZoo's or "
                           f"Gymnasium's) after its reset(), not {type(env).__name__}")
    return state
