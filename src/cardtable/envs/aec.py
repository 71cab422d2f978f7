"""PettingZoo AEC environments for every cardtable game (one module per game wraps this).

Agents are ``player_0`` .. ``player_{n-1}`` (agent i is seat i). Each observation
is ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector
encodes exactly what that seat may know (cardtable.encoders; layout in
docs/envs.md) and the mask marks the legal action ids for the agent to act
(all zeros for everyone else). Rewards come from ``state.returns()`` at the end
of the game (+1 per winner, -1 per other seat, 0 for a draw). After
``max_moves`` moves with no result every agent is truncated (reward 0).

An illegal action ends the game at once: the offender gets ``illegal_reward``
(default -1), everyone else 0 (what PettingZoo's TerminateIllegalWrapper does,
built in so that the environment stays fast); an action outside the action
space raises ValueError.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import cardtable
from cardtable.core import IllegalActionError, State
from cardtable.encoders import encoder_for
from cardtable.envs import DEFAULT_MAX_MOVES


class CardtableAECEnv(AECEnv[str, dict[str, np.ndarray], int]):
    """A cardtable game as a PettingZoo AEC environment; subclasses fix ``game_name``."""

    game_name: ClassVar[str]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "cardtable_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, max_moves: int | None = DEFAULT_MAX_MOVES,
                 illegal_reward: float = -1.0, **game_options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, not {render_mode!r}")
        if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(
                max_moves, int) or max_moves < 1):
            raise ValueError(f"max_moves must be a positive integer or None, not {max_moves!r}")
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.illegal_reward = float(illegal_reward)
        self.game = cardtable.new_game(self.game_name, **game_options)
        self.encoder = encoder_for(self.game)
        n = self.game.num_players
        num_actions = self.game.num_distinct_actions
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, self.encoder.high, (self.encoder.size,),
                                          np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions)
                              for agent in self.possible_agents}
        self._num_actions = num_actions
        self._seeds: random.Random | None = None
        self.game_state: State | None = None
        self.moves = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: from ``seed`` if given, else the next seed of the last seeded series."""
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        self.game_state = self.game.deal(seed=self._seeds.getrandbits(63))
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._over = False
        seat = self.game_state.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        assert state is not None, "call reset() first"
        seat = self._seat[agent]
        mask = np.zeros(self._num_actions, np.int8)
        if seat == state.current_player and not self._over:
            mask[[a.id for a in state.legal_actions()]] = 1
        return {"observation": self.encoder.encode(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        assert state is not None
        if action is None or not 0 <= action < self._num_actions:
            raise ValueError(f"{agent}: action must be an id in 0..{self._num_actions - 1}, "
                             f"not {action!r}")
        self._cumulative_rewards[agent] = 0.0
        seat = self._seat[agent]
        try:
            state.apply(int(action))
        except IllegalActionError:
            EnvLogger.warn_on_illegal_move()
            self._finish([self.illegal_reward if s == seat else 0.0
                          for s in range(len(self.possible_agents))], truncated=False)
            return
        self.moves += 1
        if state.is_terminal:
            self._finish(state.returns(), truncated=False)
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self._finish([0.0] * len(self.possible_agents), truncated=True)
        else:
            self.agent_selection = self.possible_agents[state.current_player]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def _finish(self, returns: list[float], truncated: bool) -> None:
        """End the episode for every agent with these rewards."""
        self._over = True
        agents = self.possible_agents
        self.rewards = {agent: float(r) for agent, r in zip(agents, returns, strict=True)}
        if truncated:
            self.truncations = dict.fromkeys(agents, True)
        else:
            self.terminations = dict.fromkeys(agents, True)
        self._accumulate_rewards()
        # the dead agents then step out in seat order, starting after the one who moved
        seat = self._seat[self.agent_selection]
        self.agent_selection = agents[(seat + 1) % len(agents)]

    def render(self) -> str | None:
        """The table, and every seat's hand: the environment holds every agent."""
        return render_output(self.render_mode, self.game_state, self.moves,
                             range(len(self.possible_agents)))

    def close(self) -> None:
        """Nothing to release."""


def render_output(render_mode: str | None, state: State | None, moves: int,
                  seats: Iterable[int] = ()) -> str | None:
    """What ``render()`` gives: the text in "ansi" mode, printed in "human" mode."""
    if render_mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any "
                              "render mode.")
        return None
    text = render_text(state, moves, seats) if state else "(not reset)"
    if render_mode == "ansi":
        return text
    print(text)
    return None


def render_text(state: State, moves: int, seats: Iterable[int] = ()) -> str:
    """The game's own text rendering (``str(state)``: the table as a spectator sees it),
    the hand of each of ``seats`` (with one seat, also the other hand where that seat has
    worked it out: Draw Bridge's ``deduced_hand``), the last move and who acts."""
    lines = [str(state)]
    seats = list(seats)
    for seat in seats:
        view = state.view(seat, history=False)
        lines.append(f"seat {seat} hand: {' '.join(view['hand']) or '-'}")
        if len(seats) == 1 and view.get("deduced_hand"):
            lines.append(f"seat {seat} knows the other hand: {' '.join(view['deduced_hand'])}")
    if state.history:
        seat, action = state.history[-1]
        lines.append(f"move {moves}: seat {seat} played {action}")
    if state.is_terminal:
        winners = state.winners
        lines.append("game over: " + (f"seats {winners} win" if winners else "a draw"))
    else:
        lines.append(f"seat {state.current_player} to act")
    return "\n".join(lines)


class _Forwarded:
    """A wrapper attribute read straight from the wrapped environment, once it is reset."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, wrapper: Any, owner: type | None = None) -> Any:
        if wrapper is None:
            return self
        if not wrapper._has_reset:
            raise AttributeError(f"{self.name} cannot be accessed before reset")
        return getattr(wrapper.env, self.name)


class FastOrderEnforcingWrapper(OrderEnforcingWrapper[str, dict[str, np.ndarray], int]):
    """PettingZoo's OrderEnforcingWrapper, with the attributes read at every step forwarded
    directly instead of through ``__getattr__`` (which costs more than a whole game step),
    and ``last`` answered by the environment itself.

    Reading them before ``reset()`` still raises AttributeError, as in the base class.
    """

    agent_selection = _Forwarded()
    agents = _Forwarded()
    terminations = _Forwarded()
    truncations = _Forwarded()
    rewards = _Forwarded()
    infos = _Forwarded()
    _cumulative_rewards = _Forwarded()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if observe and not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)
