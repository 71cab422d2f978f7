"""Gymnasium single-agent environments: the learner plays one seat, bots play the others.

Registered as ``cardtable/Sequence-v0``, ``cardtable/DrawBridge-v0`` and
``cardtable/ThreeThirteen-v0`` when ``cardtable.envs`` is imported::

    import gymnasium, cardtable.envs
    env = gymnasium.make("cardtable/Sequence-v0", opponents="heuristic", players=2)
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The observation is the seat's tensor (cardtable.encoders); the legal
actions are ``info["action_mask"]`` (also ``env.action_masks()``, as
sb3-contrib's MaskablePPO expects). The reward is 0 until the game ends, then
``state.returns()[seat]``. An illegal action ends the episode with
``illegal_reward``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import cardtable
from cardtable.bots import Bot, bot_kind, make
from cardtable.core import IllegalActionError, NotYourTurnError, OptionsError, State
from cardtable.encoders import encoder_for
from cardtable.envs import DEFAULT_MAX_MOVES
from cardtable.envs.aec import render_output
from cardtable.table import Seat, Table


class CardtableGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a cardtable game against bots from ``cardtable.bots``.

    ``opponents`` is a bot kind for every other seat ("random", "heuristic",
    "ismcts"), or one entry per other seat in seat order, each a kind or a Bot;
    ``opponent_budget`` is the ISMCTS budget (e.g. ``{"iterations": 200}``).
    Teammates in team games are bots too. Other keywords are game options.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game: str = "sequence", seat: int = 0,
                 opponents: str | Sequence[str | Bot] = "random",
                 opponent_budget: dict[str, Any] | None = None,
                 render_mode: str | None = None, max_moves: int | None = DEFAULT_MAX_MOVES,
                 illegal_reward: float = -1.0, **options: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, not {render_mode!r}")
        self.game = cardtable.new_game(game, **options)
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise OptionsError(f"seat must be 0..{n - 1}, not {seat!r}")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        if isinstance(opponents, str):
            opponents = [opponents] * len(others)
        if len(opponents) != len(others):
            raise OptionsError(f"opponents: give one bot kind, or {len(others)} (one per other "
                               f"seat), not {len(opponents)}")
        self._opponents = dict(zip(others, opponents, strict=True))
        self._budget = dict(opponent_budget or {})
        for kind in self._opponents.values():
            if isinstance(kind, str):
                make(kind, **(self._budget if bot_kind(kind).takes_budget else {}))
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.illegal_reward = float(illegal_reward)
        self.encoder = encoder_for(self.game)
        self.observation_space = spaces.Box(0.0, self.encoder.high, (self.encoder.size,),
                                            np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.seats = [Seat("person", "learner")] * n
        for other, kind in self._opponents.items():
            name = kind if isinstance(kind, str) else type(kind).__name__
            self.seats[other] = Seat("bot", name, self._budget if isinstance(kind, str)
                                   and bot_kind(kind).takes_budget else {})
        self.table: Table | None = None
        self.bots: dict[int, Bot] = {}
        self.moves = 0

    @property
    def game_state(self) -> State | None:
        """The game being played (None before the first reset)."""
        return None if self.table is None else self.table.state

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        deal_seed = int(rng.integers(2**63))
        self.bots = {}
        for other, kind in self._opponents.items():
            if isinstance(kind, str):
                budget = self._budget if bot_kind(kind).takes_budget else {}
                self.bots[other] = make(kind, seed=int(rng.integers(2**63)), **budget)
            else:
                kind.reset()
                self.bots[other] = kind
        self.table = Table.new(self.game, self.seats, seed=deal_seed, bots=self.bots)
        self.moves = 0
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.table
        assert table is not None, "call reset() first"
        state = table.state
        try:
            table.play(self.seat, int(action))
        except (IllegalActionError, NotYourTurnError):
            return self._observe(), self.illegal_reward, True, False, self._info(over=True)
        self.moves += 1
        self._play_bots()
        terminated = state.is_terminal
        truncated = not terminated and self._out_of_moves()
        reward = state.returns()[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, self._info(over=truncated)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (for MaskablePPO)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The table, and the learner's hand only (what the learner may know)."""
        return render_output(self.render_mode, self.game_state, self.moves, [self.seat])

    def _play_bots(self) -> None:
        assert self.table is not None
        left = None if self.max_moves is None else max(self.max_moves - self.moves, 0)
        self.moves += len(self.table.advance_bots(max_moves=left))

    def _out_of_moves(self) -> bool:
        return self.max_moves is not None and self.moves >= self.max_moves

    def _observe(self) -> np.ndarray:
        assert self.game_state is not None
        return self.encoder.encode(self.game_state, self.seat)

    def _mask(self, over: bool = False) -> np.ndarray:
        state = self.game_state
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if state is not None and not over and state.current_player == self.seat:
            mask[[a.id for a in state.legal_actions()]] = 1
        return mask

    def _info(self, over: bool = False) -> dict[str, Any]:
        return {"action_mask": self._mask(over)}
