"""Self-play in pgx's shape: every seat's action comes from the caller (docs/envs.md).

::

    env = SelfPlay(num_envs=4096, players=2)
    state = env.init(seeds=range(4096))
    while training:
        actions = policy(state.observation, state.legal_action_mask)  # for state.current_player
        state = env.step(state, actions)
        learn(state.rewards, state.terminated | state.truncated)

As pgx's ``auto_reset``: when a game ends, ``rewards`` and ``terminated`` (or
``truncated``) report it in that step, and the row already holds the next deal
(``observation``, ``legal_action_mask``, ``current_player`` are the new game's).
The arrays are reused from step to step: copy what you keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardtable.envs import DEFAULT_MAX_MOVES
from cardtable.vector.base import VectorEngine, make


@dataclass
class SelfPlayState:
    """The batch after ``init`` or ``step``: N games, every array indexed by row first."""

    #: (N,) the seat to act in each row
    current_player: np.ndarray
    #: (N, observation_size) float32, what the seat to act knows
    observation: np.ndarray
    #: (N, num_actions) bool, the legal actions of the seat to act
    legal_action_mask: np.ndarray
    #: (N, players) float32: +1 each winner, -1 each other seat of a game that ended this
    #: step, 0 otherwise
    rewards: np.ndarray
    #: (N,) a game ended this step by the rules / was cut at ``max_moves``
    terminated: np.ndarray
    truncated: np.ndarray
    #: the full result of this step, the engine's (``SequenceResults``,
    #: ``DrawBridgeResults``, ``ThreeThirteenResults``: the winner, moves ... of each game
    #: that ended)
    results: Any
    #: the engine's arrays (hands and deck included: never show them to a player)
    batch: Any


class SelfPlay:
    """Batched self-play of any game with a batched engine (``game``, found by name);
    keywords: the game's options and ``max_moves`` (default 100,000, as cardtable.envs;
    None for no limit)."""

    def __init__(self, game: str = "sequence", max_moves: int | None = DEFAULT_MAX_MOVES,
                 **options: Any) -> None:
        self.engine: VectorEngine[Any, Any] = make(game, max_moves=max_moves, **options)
        self.num_players = self.engine.num_players
        self.num_actions = self.engine.num_actions
        self.observation_size = self.engine.obs_size

    def init(self, seeds: Any) -> SelfPlayState:
        """One deal per seed (the row's later deals come from the same seed)."""
        engine = self.engine
        batch = engine.init(np.asarray(seeds))
        n = batch.size
        state = SelfPlayState(
            current_player=batch.current_player,
            observation=np.empty((n, engine.obs_size), np.float32),
            legal_action_mask=np.empty((n, engine.num_actions), np.bool_),
            rewards=np.zeros((n, self.num_players), np.float32),
            terminated=np.zeros(n, np.bool_), truncated=np.zeros(n, np.bool_),
            results=engine.empty_results(n), batch=batch)
        self._refresh(state)
        return state

    def step(self, state: SelfPlayState, actions: Any) -> SelfPlayState:
        """Play each row's action for its seat to act. One illegal action refuses the whole
        step with ``IllegalMoveError`` naming the row, one that is no action id (a float,
        an id outside the action space) with ``InvalidActionError``, as ``engine.step``;
        then no row is played and ``state`` is as it was."""
        if not isinstance(state, SelfPlayState):
            raise ValueError(f"state must be the SelfPlayState of init or step, not "
                             f"{type(state).__name__}")
        res = self.engine.step(state.batch, actions)
        state.results = res
        state.rewards, state.terminated, state.truncated = res.rewards, res.terminated, \
            res.truncated
        self._refresh(state)
        return state

    def _refresh(self, state: SelfPlayState) -> None:
        self.engine.observe(state.batch, out=state.observation)
        self.engine.legal_mask(state.batch, out=state.legal_action_mask)
