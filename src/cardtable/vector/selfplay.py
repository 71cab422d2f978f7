"""Self-play in pgx's shape: every seat's action comes from the caller (docs/envs.md).

::

    env = SelfPlay(players=2)
    state = env.init(seeds=np.arange(4096))
    while training:
        actions = policy(state.observation, state.legal_action_mask)  # for state.current_player
        state = env.step(state, actions)
        learn(state.rewards, state.terminated | state.truncated)

As pgx's ``auto_reset``: when a game ends, ``rewards`` and ``terminated`` (or
``truncated``) report it in that step, and the row already holds the next deal
(``observation``, ``legal_action_mask``, ``current_player`` are the new game's).
The arrays are reused from step to step: copy what you keep.

The registry in pgx's shape is here too: ``make(game_id, **options)`` (also named
``env``) is a ``SelfPlay``
with pgx's rules at the end of a game (``autoreset=False``: a finished row stays
finished, with zero rewards and an all-True mask; ``illegal_reward=-1``: an illegal
action ends only its row), and ``available_envs()`` lists the ids::

    env = cardtable.vector.make("drawbridge", target=50)
    state = env.init(np.arange(1024))
    while not (state.terminated | state.truncated).all():
        state = env.step(state, policy(state.observation, state.legal_action_mask))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np

from cardtable.core import OptionsError
from cardtable.envs import DEFAULT_MAX_MOVES
from cardtable.vector.base import VectorEngine, check_actions, game_names, make_engine
from cardtable.vector.observations import ObservationFormat, perfect_information_size

#: the version of every env (as the Gymnasium ids, ``cardtable/Sequence-v0``): it changes
#: when what an env returns for the same seeds and actions changes
VERSION = "v0"


@dataclass
class SelfPlayState:
    """The batch after ``init`` or ``step``: N games, every array indexed by row first."""

    #: (N,) the seat to act in each row (int32; not a seat once a game is over without
    #: autoreset)
    current_player: np.ndarray
    #: (N, *observation_shape) float32, what the seat to act knows (the engine's flat
    #: tensor, or normalised, or as board planes: ``SelfPlay``'s ``normalize``, ``planes``)
    observation: np.ndarray
    #: (N, num_actions) bool, the legal actions of the seat to act (all True in a row
    #: that has finished, without autoreset)
    legal_action_mask: np.ndarray
    #: (N, players) float32: +1 each winner, -1 each other seat of a game that ended this
    #: step, 0 otherwise (an illegal action: ``illegal_reward``, see ``SelfPlay``)
    rewards: np.ndarray
    #: (N,) a game ended by the rules (or by an illegal action) / was cut at
    #: ``max_moves``: in this step with autoreset, at this step or before without
    terminated: np.ndarray
    truncated: np.ndarray
    #: the full result of this step, the engine's (``SequenceResults``,
    #: ``DrawBridgeResults``, ``ThreeThirteenResults``: the winner, moves ... of each game
    #: that ended by a move played; a row ended by an illegal action is not in it)
    results: Any
    #: the engine's arrays (hands and deck included: never show them to a player)
    batch: Any


class SelfPlay:
    """Batched self-play of any game with a batched engine (``game``, found by name);
    keywords: the game's options and ``max_moves`` (default 100,000, as cardtable.envs;
    None for no limit).

    Two keywords choose what happens at the end of a game and on an illegal action:

    - ``autoreset`` (default True): a row that ends holds its next deal at once (the step
      still reports the end); False: pgx's terminal state, the row stays finished, its
      ``terminated``/``truncated`` stay True, further steps give it zero rewards, an
      all-True ``legal_action_mask`` and leave it as it is (any action id is accepted).
    - ``illegal_reward`` (default None): None refuses the whole step on one illegal
      action (``IllegalMoveError``, nothing played); a number ends only that row, as pgx:
      each seat of the offender's team gets ``illegal_reward``, and where two teams of
      equal size play (``zero_sum``: every two-player game) each seat of the other team
      gets ``-illegal_reward``, so that rows stay zero-sum; with more teams the others
      get 0.

    Two keywords shape the observations (``cardtable.vector.observations``):
    ``normalize`` (default False) divides every entry by its maximum, so that each lies in
    [0, 1]; ``planes`` (Sequence only, default False) lays them out as (33, 10, 10) board
    planes. ``observe_all`` gives every seat's at once, ``perfect_information`` every
    seat's and the draw pile together, for a centralised critic only.

    pgx's attributes: ``id`` (the game's name), ``version``, ``num_players``,
    ``num_actions``, ``observation_shape``.
    """

    def __init__(self, game: str = "sequence", max_moves: int | None = DEFAULT_MAX_MOVES,
                 autoreset: bool = True, illegal_reward: float | None = None,
                 normalize: bool = False, planes: bool = False, **options: Any) -> None:
        if not isinstance(autoreset, bool):
            raise OptionsError(f"autoreset must be True or False, not {autoreset!r}")
        if illegal_reward is not None and (isinstance(illegal_reward, bool) or not isinstance(
                illegal_reward, int | float) or not np.isfinite(illegal_reward)):
            raise OptionsError(f"illegal_reward must be a finite number or None, not "
                               f"{illegal_reward!r}")
        self.engine: VectorEngine[Any, Any] = make_engine(game, max_moves=max_moves, **options)
        self.id: str = self.engine.game.name
        self.version = VERSION
        self.num_players = self.engine.num_players
        self.num_actions = self.engine.num_actions
        #: what ``state.observation`` and ``observe`` make of the engine's flat tensor
        self.format = ObservationFormat(self.engine, normalize, planes)
        self.observation_shape: tuple[int, ...] = self.format.shape
        self.observation_size = int(np.prod(self.observation_shape))
        #: the length of a row of ``perfect_information``
        self.perfect_information_size = perfect_information_size(self.num_players,
                                                                 self.engine.obs_size)
        self.autoreset = autoreset
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        game_ = self.engine.game
        #: each seat's team, and whether the rewards of a row always sum to 0 (two teams of
        #: equal size: +1 each of one, -1 each of the other, or 0 to all)
        self.teams = np.array([game_.team_of(s) for s in range(self.num_players)], np.int64)
        sizes = np.bincount(self.teams)
        self.zero_sum = len(sizes) == 2 and sizes[0] == sizes[1]

    def init(self, seeds: Any) -> SelfPlayState:
        """One deal per seed (the row's later deals come from the same seed)."""
        engine = self.engine
        batch = engine.init(np.asarray(seeds))
        n = batch.size
        state = SelfPlayState(
            current_player=batch.current_player,
            observation=np.empty((n, *self.observation_shape), np.float32),
            legal_action_mask=np.empty((n, engine.num_actions), np.bool_),
            rewards=np.zeros((n, self.num_players), np.float32),
            terminated=np.zeros(n, np.bool_), truncated=np.zeros(n, np.bool_),
            results=engine.empty_results(n), batch=batch)
        self._refresh(state)
        return state

    def step(self, state: SelfPlayState, actions: Any) -> SelfPlayState:
        """Play each row's action for its seat to act. One that is no action id (a float, an
        id outside the action space) refuses the whole step with ``InvalidActionError``,
        as ``engine.step``; an illegal one too, with ``IllegalMoveError`` naming the row,
        unless ``illegal_reward`` is set (then it ends that row only). A refused step plays
        no row and leaves ``state`` as it was."""
        _check_state(state)
        if self.autoreset and self.illegal_reward is None:
            res = self.engine.step(state.batch, actions)
            state.results = res
            state.rewards, state.terminated, state.truncated = res.rewards, res.terminated, \
                res.truncated
        else:
            self._step_rows(state, actions)
        self._refresh(state)
        return state

    def observe(self, state: SelfPlayState, seats: Any = None) -> np.ndarray:
        """(N, *observation_shape) float32: each row seen by ``seats`` (one seat, or one per
        row; default the seat to act, as ``state.observation``), a fresh array."""
        _check_state(state)
        return self.format.convert(self.engine.observe(state.batch, seats=seats))

    def observe_all(self, state: SelfPlayState) -> np.ndarray:
        """(N, num_players, *observation_shape) float32: every row seen by every seat at
        once (index 1 the seat, absolute: ``[:, s]`` is ``observe(state, s)``)."""
        _check_state(state)
        return self.format.convert(self._flat_all(state))

    def perfect_information(self, state: SelfPlayState) -> np.ndarray:
        """(N, perfect_information_size) float32, for a centralised critic only (RLCard's
        ``get_perfect_information``): a one-hot of the seat to act (all 0 in a finished row
        without autoreset), every seat's flat observation in seat order (seat 0 first, each
        from its own view: its hand included), then the copies of each card in the stock or
        draw pile, which no seat sees. Normalised as ``normalize`` says (the stock by the
        copies of a card in the deck); flat even with ``planes``. It holds every hidden
        card: never give it to a policy that acts for a seat."""
        _check_state(state)
        engine = self.engine
        to_act = np.array(state.current_player, np.int64)
        if not self.autoreset:
            to_act[state.terminated | state.truncated] = -1
        return self.format.perfect_information(
            self._flat_all(state), to_act, engine.stock_counts(state.batch), self.num_players)

    def to_svg(self, state: SelfPlayState, i: int, seat: int | None = None) -> str:
        """A picture of row i (``engine.to_svg``): ``seat`` None every hand, a seat what it
        sees."""
        _check_state(state)
        return self.engine.to_svg(state.batch, i, seat)

    def _flat_all(self, state: SelfPlayState) -> np.ndarray:
        engine, batch = self.engine, state.batch
        n = batch.size
        out = np.empty((n, self.num_players, engine.obs_size), np.float32)
        for seat in range(self.num_players):
            out[:, seat] = engine.observe(batch, seats=seat)
        return out

    def _step_rows(self, state: SelfPlayState, actions: Any) -> None:
        """A step where a row may end alone: by an illegal action (``illegal_reward``), or
        one that stays finished (no autoreset)."""
        engine, batch = self.engine, state.batch
        n = len(state.terminated)
        acts = check_actions(actions, n, self.num_actions)
        live = np.ones(n, np.bool_) if self.autoreset else ~(state.terminated
                                                             | state.truncated)
        if self.illegal_reward is None:
            legal = live
        else:
            legal = live & state.legal_action_mask[np.arange(n), acts]
        illegal = live & ~legal
        offender = self.teams[state.current_player[illegal]]  # before the step moves on
        # with illegal_reward None, an illegal action in a live row refuses the whole step
        # here, before anything is played: the engine checks every active row first
        res = engine.step(batch, acts, active=legal, autoreset=False)
        rewards = res.rewards
        if illegal.any():
            rewards = rewards.copy()  # the results keep what was played only
            penalty = np.float32(self.illegal_reward)
            ours = self.teams[None, :] == offender[:, None]
            other = -penalty if self.zero_sum else np.float32(0.0)
            rewards[illegal] = np.where(ours, penalty, other)
        terminated = res.terminated | illegal
        if self.autoreset:
            truncated = res.truncated
            ended = terminated | truncated
            if ended.any():
                engine.reset_rows(batch, ended)
        else:
            terminated |= state.terminated
            truncated = res.truncated | state.truncated
        state.results = res
        state.rewards, state.terminated, state.truncated = rewards, terminated, truncated

    def _refresh(self, state: SelfPlayState) -> None:
        if self.format.normalize or self.format.planes:
            state.observation[...] = self.format.convert(self.engine.observe(state.batch))
        else:
            self.engine.observe(state.batch, out=state.observation)
        self.engine.legal_mask(state.batch, out=state.legal_action_mask)
        if not self.autoreset:
            # pgx: every action is "legal" in a finished row (it changes nothing), so that
            # a policy's masked probabilities never divide by zero
            state.legal_action_mask[state.terminated | state.truncated] = True


def _check_state(state: Any) -> None:
    if not isinstance(state, SelfPlayState):
        raise ValueError(f"state must be the SelfPlayState of init or step, not "
                         f"{type(state).__name__}")


#: the backends ``make`` takes, and the games each has (the JAX ports: module, class)
BACKENDS = ("numba", "jax")
JAX_PORTS = {"sequence": ("cardtable.vector.jax_sequence", "JaxSequence"),
             "drawbridge": ("cardtable.vector.jax_drawbridge", "JaxDrawBridge"),
             "threethirteen": ("cardtable.vector.jax_threethirteen", "JaxThreeThirteen")}


def available_envs(backend: str = "numba") -> tuple[str, ...]:
    """The ids ``make`` takes, as ``pgx.available_envs()``: every game with a batched
    engine; ``backend="jax"``: the games ported to JAX."""
    if backend == "jax":
        return tuple(name for name in game_names() if name in JAX_PORTS)
    if backend != "numba":
        raise OptionsError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    return tuple(game_names())


@overload
def make(game_id: str, backend: Literal["numba"] = "numba", **options: Any) -> SelfPlay: ...


@overload
def make(game_id: str, backend: str, **options: Any) -> Any: ...


def make(game_id: str, backend: str = "numba", **options: Any) -> Any:
    """The env of ``game_id`` in pgx's shape, as ``pgx.make`` (``env`` is the same
    function): a ``SelfPlay`` with pgx's rules at the end of a game (``autoreset=False``,
    ``illegal_reward=-1.0`` unless given); other keywords: the game's options,
    ``max_moves``, ``normalize`` and ``planes``.

    ``backend="jax"`` gives the JAX port instead (``pip install 'cardtable[jax]'``:
    ``cardtable.vector.jax_sequence.JaxSequence``, ``jax_drawbridge.JaxDrawBridge``,
    ``jax_threethirteen.JaxThreeThirteen``), the same API as pure functions of pytrees,
    for ``jax.jit`` and ``jax.vmap``."""
    ids = available_envs(backend)
    if game_id not in ids:
        if backend == "jax" and game_id in available_envs():
            raise OptionsError(f"no JAX port of {game_id!r} yet; the jax backend has "
                               f"{', '.join(ids)}")
        raise OptionsError(f"unknown env id {game_id!r}; cardtable.vector.available_envs() "
                           f"has {', '.join(available_envs())}")
    options.setdefault("autoreset", False)
    options.setdefault("illegal_reward", -1.0)
    if backend == "jax":
        import importlib

        module_name, class_name = JAX_PORTS[game_id]
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise OptionsError(f"backend='jax' needs JAX: pip install 'cardtable[jax]' "
                               f"({exc})") from None
        return getattr(module, class_name)(**options)
    return SelfPlay(game_id, **options)


#: ``make``'s first name (issue 36's registry); the same function
env = make
