"""Gymnasium's ``VectorEnv`` on the batched Draw Bridge engine: one learner seat per match,
against an opponent (docs/envs.md).

The vector entry point of ``cardtable/DrawBridge-v0``::

    import gymnasium, cardtable.envs
    envs = gymnasium.make_vec("cardtable/DrawBridge-v0", num_envs=4096,
                              vectorization_mode="vector_entry_point", target=100)

Everything as ``cardtable.vector.gym.SequenceVectorEnv`` (which this class extends): the
observation is the learner's tensor (551 float32), the legal actions are
``info["action_mask"]`` (90 int8), the reward is +1 or -1 when the match ends, an illegal
action ends that match with ``illegal_reward``, and matches reset in the same step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from cardtable.core import OptionsError
from cardtable.envs import DEFAULT_MAX_MOVES
from cardtable.vector.drawbridge import (
    M_CURRENT,
    M_MOVES,
    M_OVER,
    DrawBridgeBatch,
    DrawBridgeResults,
    VectorDrawBridge,
)
from cardtable.vector.gym import Policy, SequenceVectorEnv


class DrawBridgeVectorEnv(SequenceVectorEnv):
    """``num_envs`` matches of Draw Bridge; the learner plays ``seat`` (0 or 1) in each.

    ``opponents`` plays the other seat: ``"random"`` (uniform legal moves, inside the
    kernels) or a batched policy ``f(observations, masks) -> actions``. Other keywords: the
    game's options (``target``, ``show_stock_top``, ``follow_suit_in_draw``,
    ``draw_trick_winner``, ``undertricks``), ``max_moves`` (default 100,000, as the scalar
    environment; None for no limit), ``illegal_reward`` (default -1), ``copy``.
    """

    engine: VectorDrawBridge
    batch: DrawBridgeBatch

    def __init__(self, num_envs: int = 1, game: str = "drawbridge", seat: int = 0,
                 opponents: str | Policy = "random",
                 max_moves: int | None = DEFAULT_MAX_MOVES, illegal_reward: float = -1.0,
                 copy: bool = True, **options: Any) -> None:
        if game != "drawbridge":
            raise OptionsError(f"DrawBridgeVectorEnv plays drawbridge, not {game!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionsError(f"num_envs must be a positive int, not {num_envs!r}")
        self.engine = VectorDrawBridge(max_moves=max_moves, **options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 2:
            raise OptionsError(f"seat must be 0..1, not {seat!r}")
        if opponents != "random" and not callable(opponents):
            raise OptionsError(f"opponents must be 'random' or a batched policy "
                               f"f(observations, masks) -> actions, not {opponents!r}")
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        encoder = self.engine.encoder
        self.single_observation_space = spaces.Box(0.0, encoder.high, (encoder.size,),
                                                   np.float32)
        self.single_action_space = spaces.Discrete(self.engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch = self.engine.init(np.zeros(num_envs, np.int64))
        self._obs = np.zeros((num_envs, encoder.size), np.float32)
        self._mask = np.zeros((num_envs, self.engine.num_actions), np.int8)

    def _play_opponents(self, rows: np.ndarray, into: Any) -> None:
        """The other seat's moves in ``rows`` until the learner is to act, each match's end
        (or cut) recorded in ``into``."""
        engine, batch = self.engine, self.batch
        if self.opponents == "random":
            _merge(into, engine.play_random(batch, self.seat, active=rows))
            return
        policy = self.opponents
        assert callable(policy)
        meta = batch.meta
        cut = engine.max_moves
        while True:
            todo = rows & (meta[:, M_CURRENT] != self.seat) & (meta[:, M_OVER] == 0)
            if cut:
                todo &= meta[:, M_MOVES] < cut
            idx = np.flatnonzero(todo)
            if not idx.size:
                break
            chosen = np.asarray(policy(engine.observe(batch, rows=idx),
                                       engine.legal_mask(batch, rows=idx)),
                                np.int64)
            acts = np.zeros(self.num_envs, np.int64)
            acts[idx] = chosen
            # a match that ends or reaches max_moves on this move is reported by step
            _merge(into, engine.step(batch, acts, active=todo, autoreset=False))

    def _observe(self) -> np.ndarray:
        n = self.num_envs
        if self.copy:
            self._obs = np.empty((n, self.engine.obs_size), np.float32)
            self._mask = np.empty((n, self.engine.num_actions), np.int8)
        self.engine.observe(self.batch, seats=self.seat, out=self._obs)
        self.engine.legal_mask(self.batch, out=self._mask)
        self._mask[self.batch.meta[:, M_CURRENT] != self.seat] = 0
        return self._obs


def _merge(into: DrawBridgeResults, more: DrawBridgeResults) -> None:
    """Add a later part of the same step: each row ends at most once in it."""
    ended = more.terminated | more.truncated
    into.rewards[ended] = more.rewards[ended]
    into.terminated[:] |= more.terminated
    into.truncated[:] |= more.truncated
    for name in ("winner", "scores", "deals", "moves"):
        getattr(into, name)[ended] = getattr(more, name)[ended]
