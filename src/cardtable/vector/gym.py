"""Gymnasium's ``VectorEnv`` on the batched engines: one learner seat per game, against an
opponent (docs/envs.md).

``GameVectorEnv(game=...)`` is the vector entry point of every game's Gymnasium id
(``cardtable/Sequence-v0``, ...), the game's engine found by name::

    import gymnasium, cardtable.envs
    envs = gymnasium.make_vec("cardtable/Sequence-v0", num_envs=4096,
                              vectorization_mode="vector_entry_point")
    obs, info = envs.reset(seed=1)
    obs, rewards, terminated, truncated, info = envs.step(actions)

As the scalar environment: the observation is the learner's tensor, the legal
actions are ``info["action_mask"]`` (int8; also ``envs.action_masks()``), the
reward is ``state.returns()[seat]`` at the end and 0 before, and an illegal
action ends that game with ``illegal_reward``. What is no action id (a float, an id
outside the action space) refuses the whole step with the engine's
``InvalidActionError``, the same message as ``engine.step``. Games reset in the same step
(``AutoresetMode.SAME_STEP``): ``info["final_obs"]`` holds the learner's last
observation of each game that ended, where ``info["_final_obs"]`` is True.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cardtable.core import OptionsError
from cardtable.envs import DEFAULT_MAX_MOVES
from cardtable.vector.base import VectorEngine, check_actions, make_engine
from cardtable.vector.heuristics import batched_kinds, heuristic_actions
from cardtable.vector.observations import ObservationFormat

#: a batched policy: observations (k, obs_size) and legal masks (k, num_actions) -> k ids
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


class GameVectorEnv(gymnasium.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``game`` (default Sequence) on its batched engine; the learner
    plays ``seat`` in each.

    ``opponents`` plays every other seat (teammates too): ``"random"`` (uniform legal
    moves, inside the kernels), ``"heuristic"`` or ``"heuristic-v1"`` (the game's
    heuristic as a kernel, ``cardtable.vector.heuristics``) or a batched policy
    ``f(observations, masks) -> actions`` called with the rows where another seat is to
    act. Other keywords: the game's options
    (Sequence: ``players``, ``teams``, ``max_turns``), ``max_moves`` (default 100,000, as
    the scalar environment; None for no limit), ``illegal_reward`` (default -1), ``copy``
    (default True: fresh arrays every step; False: the environment's own observation and
    mask arrays, overwritten by the next step). Where a row is a whole match (Draw Bridge,
    Three Thirteen), the reward comes at the end of the match.

    ``normalize`` and ``planes`` shape the observations as ``SelfPlay``'s do
    (``cardtable.vector.observations``): every entry divided by its maximum, into [0, 1];
    Sequence's (33, 10, 10) board planes. The observation space, ``final_obs`` and what a
    batched opponent policy is given take the same shape.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}
    #: the game played when ``game`` is not given
    game_name = "sequence"

    def __init__(self, num_envs: int = 1, game: str | None = None, seat: int = 0,
                 opponents: str | Policy = "random",
                 max_moves: int | None = DEFAULT_MAX_MOVES, illegal_reward: float = -1.0,
                 copy: bool = True, normalize: bool = False, planes: bool = False,
                 **options: Any) -> None:
        if game is not None and type(self) is not GameVectorEnv and game != self.game_name:
            raise OptionsError(f"{type(self).__name__} plays {self.game_name}, not {game!r}; "
                               f"GameVectorEnv(game=...) plays any game")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionsError(f"num_envs must be a positive int, not {num_envs!r}")
        self.engine: VectorEngine[Any, Any] = make_engine(game or self.game_name,
                                                   max_moves=max_moves, **options)
        n = self.engine.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise OptionsError(f"seat must be 0..{n - 1}, not {seat!r}")
        kinds = ("random", *batched_kinds(self.engine.game.name))
        if opponents not in kinds and not callable(opponents):
            raise OptionsError(f"opponents must be {' or '.join(map(repr, kinds))} or a "
                               f"batched policy f(observations, masks) -> actions, not "
                               f"{opponents!r}")
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        #: what the engine's flat observations become (``normalize``, ``planes``)
        self.format = ObservationFormat(self.engine, normalize, planes)
        encoder = self.engine.encoder
        self.single_observation_space = spaces.Box(
            0.0, self.format.convert(self.format.high), self.format.shape, np.float32)
        self.single_action_space = spaces.Discrete(self.engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch = self.engine.init(np.zeros(num_envs, np.int64))
        self._flat = np.zeros((num_envs, encoder.size), np.float32)
        self._obs = np.zeros((num_envs, *self.format.shape), np.float32)
        self._mask = np.zeros((num_envs, self.engine.num_actions), np.int8)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Fresh deals everywhere (seeded from ``seed``); the opponents play until the
        learner is to act."""
        super().reset(seed=seed)
        seeds = self.np_random.integers(2**63, size=self.num_envs, dtype=np.int64)
        self.batch = self.engine.init(seeds)
        self._start(np.ones(self.num_envs, np.bool_))
        return self._observe(), {"action_mask": self._mask}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        engine, batch, n = self.engine, self.batch, self.num_envs
        acts = check_actions(np.reshape(actions, -1), n, engine.num_actions)
        legal = self._mask[np.arange(n), acts].astype(np.bool_)
        res = engine.step(batch, acts, active=legal, autoreset=False)
        illegal = ~legal
        going = legal & ~res.terminated & ~res.truncated
        self._play_opponents(going, res)
        rewards = res.rewards[:, self.seat].copy()
        rewards[illegal] = self.illegal_reward
        terminated = res.terminated | illegal
        truncated = res.truncated.copy()
        ended = terminated | truncated
        info: dict[str, Any] = {}
        if ended.any():
            rows = np.flatnonzero(ended)
            final = np.full(n, None, object)  # as Gymnasium's own vector environments
            final[rows] = list(self.format.convert(
                engine.observe(batch, seats=self.seat, rows=rows)))
            info["final_obs"], info["_final_obs"] = final, ended
            engine.reset_rows(batch, rows)
            self._start(ended)
        obs = self._observe()
        info["action_mask"] = self._mask
        return obs, rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """(num_envs, num_actions) bool: the learner's legal actions now (for MaskablePPO)."""
        return self._mask.astype(np.bool_)

    def _start(self, rows: np.ndarray) -> None:
        """The opponents' opening moves in the fresh deals of ``rows``; a game that ends
        before the learner's first move is dealt again."""
        while rows.any():
            fresh = self.engine.empty_results(self.num_envs)
            self._play_opponents(rows, fresh)
            rows = fresh.terminated | fresh.truncated
            self.engine.reset_rows(self.batch, rows)

    def _play_opponents(self, rows: np.ndarray, into: Any) -> None:
        """The other seats' moves in ``rows`` until the learner is to act, each game's end
        (or cut) recorded in ``into``."""
        engine, batch = self.engine, self.batch
        if self.opponents == "random":
            _merge(into, engine.play_random(batch, self.seat, active=rows))
            return
        policy = self.opponents
        cut = engine.max_moves
        while True:
            todo = rows & (batch.current_player != self.seat) & (batch.over == 0)
            if cut:
                todo &= batch.moves < cut
            idx = np.flatnonzero(todo)
            if not idx.size:
                break
            acts = np.zeros(self.num_envs, np.int64)
            if isinstance(policy, str):  # a batched heuristic
                acts[idx] = heuristic_actions(engine, batch, policy)[idx]
            else:
                assert callable(policy)
                # checked as the learner's actions are: a float is refused, not truncated
                observations = self.format.convert(engine.observe(batch, rows=idx))
                acts[idx] = check_actions(policy(observations,
                                                 engine.legal_mask(batch, rows=idx)),
                                          len(idx), engine.num_actions,
                                          "the opponents' actions", unplayed=False)
            # a game that ends or reaches max_moves on this move is reported by step
            _merge(into, engine.step(batch, acts, active=todo, autoreset=False))

    def _observe(self) -> np.ndarray:
        """The learner's observations and legal masks, in fresh arrays (unless ``copy`` is
        False)."""
        n = self.num_envs
        if self.copy:
            self._obs = np.empty((n, *self.format.shape), np.float32)
            self._mask = np.empty((n, self.engine.num_actions), np.int8)
        if self.format.normalize or self.format.planes:
            self.engine.observe(self.batch, seats=self.seat, out=self._flat)
            self._obs[...] = self.format.convert(self._flat)
        else:
            self.engine.observe(self.batch, seats=self.seat, out=self._obs)
        self.engine.legal_mask(self.batch, out=self._mask)
        self._mask[self.batch.current_player != self.seat] = 0
        return self._obs


class SequenceVectorEnv(GameVectorEnv):
    """The old name of ``GameVectorEnv`` for Sequence (``game`` may only be "sequence")."""

    game_name = "sequence"


class ThreeThirteenVectorEnv(GameVectorEnv):
    """``GameVectorEnv(game="threethirteen")`` under its old name."""

    game_name = "threethirteen"


class DrawBridgeVectorEnv(GameVectorEnv):
    """``GameVectorEnv(game="drawbridge")`` under its old name."""

    game_name = "drawbridge"


def _merge(into: Any, more: Any) -> None:
    """Add a later part of the same step: each row ends at most once in it."""
    ended = more.terminated | more.truncated
    into.rewards[ended] = more.rewards[ended]
    into.terminated[:] |= more.terminated
    into.truncated[:] |= more.truncated
    for name in into._fields[3:]:        # what each game reports of an ended game
        getattr(into, name)[ended] = getattr(more, name)[ended]

