"""What the JAX ports share: the numba engines' generator (splitmix64) in 32-bit words,
the env class (``JaxEnv``: the options, pgx's API, the checks before compiling) and the
step's skeleton (``step_rows``: illegal actions, ends, rewards, autoreset).

The numba engines draw every deal from a splitmix64 stream of uint64 words
(``cardtable.vector._kernel``). JAX without ``jax_enable_x64`` has no 64-bit integers,
so a word here is a pair ``(hi, lo)`` of uint32 arrays and the arithmetic is written
in 32-bit halves: the same numbers, bit for bit, so that the JAX ports deal the same
cards from the same seeds as the numba engines (tests/vector/test_jax_sequence.py).

Splitmix64 is counter-based: the k-th draw of a stream at ``s`` reads
``mix(s + k * GOLDEN)``, so a shuffle's draws are computed all at once and only its
swaps run in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardtable.core import InvalidActionError, OptionsError
from cardtable.envs import DEFAULT_MAX_MOVES
from cardtable.vector._kernel import GOLDEN
from cardtable.vector.base import _seeds, check_actions
from cardtable.vector.observations import ObservationFormat
from cardtable.vector.selfplay import VERSION, SelfPlayState

#: a uint64 word as (hi, lo) uint32 arrays
U64 = tuple[Any, Any]

_M16 = 0xFFFF
_MASK64 = (1 << 64) - 1


def const64(value: int) -> tuple[np.uint32, np.uint32]:
    """A Python int as a (hi, lo) pair of uint32 constants (modulo 2**64)."""
    value &= _MASK64
    return np.uint32(value >> 32), np.uint32(value & 0xFFFFFFFF)


def split_host(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """uint64 numbers (a NumPy array) as their (hi, lo) uint32 halves."""
    arr = np.asarray(values, np.uint64)
    return (arr >> np.uint64(32)).astype(np.uint32), (arr & np.uint64(0xFFFFFFFF)).astype(
        np.uint32)


def join_host(hi: Any, lo: Any) -> np.ndarray:
    """(hi, lo) halves back to uint64 numbers (a NumPy array)."""
    return (np.asarray(hi, np.uint64) << np.uint64(32)) | np.asarray(lo, np.uint64)


def _mul32(a: jax.Array, b: jax.Array) -> U64:
    """The full 64-bit product of two uint32 arrays."""
    a0, a1 = a & _M16, a >> 16
    b0, b1 = b & _M16, b >> 16
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> 16) + (p01 & _M16) + (p10 & _M16)
    lo = (mid << 16) | (p00 & _M16)
    hi = p11 + (p01 >> 16) + (p10 >> 16) + (mid >> 16)
    return hi, lo


def mul64(a: U64, b: U64) -> U64:
    """a * b modulo 2**64."""
    hi, lo = _mul32(a[1], b[1])
    return hi + a[0] * b[1] + a[1] * b[0], lo


def add64(a: U64, b: U64) -> U64:
    lo = a[1] + b[1]
    carry = (lo < a[1]).astype(jnp.uint32)
    return a[0] + b[0] + carry, lo


def xor64(a: U64, b: U64) -> U64:
    return a[0] ^ b[0], a[1] ^ b[1]


def _xorshift(z: U64, s: int) -> U64:
    """z ^ (z >> s), 0 < s < 32."""
    hi, lo = z
    return hi ^ (hi >> s), lo ^ ((lo >> s) | (hi << (32 - s)))


_C1 = const64(0xBF58476D1CE4E5B9)
_C2 = const64(0x94D049BB133111EB)
GOLDEN64 = const64(int(GOLDEN))


def mix(z: U64) -> U64:
    """splitmix64's finaliser (``_kernel.mix``)."""
    z = mul64(_xorshift(z, 30), _C1)
    z = mul64(_xorshift(z, 27), _C2)
    return _xorshift(z, 31)


def _golden_times(k: int) -> tuple[np.ndarray, np.ndarray]:
    """k * GOLDEN for k = 0 .. k-1 as (hi, lo) uint32 tables."""
    values = [(j * int(GOLDEN)) & _MASK64 for j in range(k)]
    return (np.array([v >> 32 for v in values], np.uint32),
            np.array([v & 0xFFFFFFFF for v in values], np.uint32))


#: k * GOLDEN, k = 0 .. 255: the stream's position after k draws
GOLDEN_TIMES = _golden_times(256)


def advance(state: U64, k: jax.Array | int) -> U64:
    """The stream ``state`` after k draws (k < 256)."""
    return add64(state, (jnp.asarray(GOLDEN_TIMES[0])[k], jnp.asarray(GOLDEN_TIMES[1])[k]))


def below_at(state: U64, k: jax.Array | int, n: jax.Array | int) -> jax.Array:
    """The (k+1)-th draw of the stream at ``state``: a uniform int32 in 0..n-1 (n < 2**16),
    as ``_kernel.below`` (multiply-shift on the top 32 bits of the mixed word)."""
    h = mix(advance(state, jnp.asarray(k) + 1))[0]
    n32 = jnp.asarray(n).astype(jnp.uint32)
    r = ((h >> 16) * n32 + (((h & _M16) * n32) >> 16)) >> 16
    return r.astype(jnp.int32)


def shuffle(pile: jax.Array, n: jax.Array | int, state: U64) -> tuple[jax.Array, U64]:
    """Fisher-Yates on the first n entries of ``pile`` (one row) from the stream at
    ``state``, as ``_kernel.shuffle``: the same permutation, and the stream after its
    n - 1 draws. The draws are computed at once; the swaps run in a loop."""
    size = pile.shape[0]
    i = jnp.arange(size - 1)
    n = jnp.asarray(n, jnp.int32)
    k = n - 1 - i  # the slot swapped at draw i; draws stop at k == 0
    live = k >= 1
    r = below_at(state, i, jnp.where(live, k + 1, 1))
    k = jnp.where(live, k, 0)

    def swap(j: jax.Array, p: jax.Array) -> jax.Array:
        a, b = k[j], r[j]
        pa, pb = p[a], p[b]
        return p.at[a].set(pb).at[b].set(pa)

    pile = jax.lax.fori_loop(0, size - 1, swap, pile)
    return pile, advance(state, jnp.maximum(n - 1, 0))


# ------------------------------------------------------------------ rows of a batch


def where_rows(on: jax.Array, new: Any, old: Any) -> Any:
    """The state (a NamedTuple of arrays, row first) of ``new`` where ``on``, else ``old``."""
    def pick(a: jax.Array, b: jax.Array) -> jax.Array:
        return jnp.where(on.reshape(on.shape + (1,) * (a.ndim - 1)), a, b)
    return type(new)(*(pick(a, b) for a, b in zip(new, old, strict=True)))


def on_rows(fn: Callable[[Any], Any], need: jax.Array, s: Any) -> Any:
    """``fn`` (a function of one row) applied to the rows where ``need``. A shuffle is a
    loop of swaps: where few rows need it (a deal ends in one row in tens each step),
    only those rows are gathered and shuffled, up to a sixteenth of the batch."""
    n = need.shape[0]
    cap = max(1, n // 16)

    def every(x: Any) -> Any:
        return where_rows(need, jax.vmap(fn)(x), x)

    def some(x: Any) -> Any:
        idx = jnp.nonzero(need, size=cap, fill_value=n)[0]
        rows = jax.tree.map(lambda a: a[jnp.minimum(idx, n - 1)], x)
        new = jax.vmap(fn)(rows)
        return jax.tree.map(lambda a, b: a.at[idx].set(b, mode="drop"), x, new)

    count = need.sum()
    branch = jnp.where(count == 0, 0, jnp.where(count <= cap, 1, 2))
    return jax.lax.switch(branch, [lambda x: x, some, every], s)


def random_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A uniformly random True index of each row of ``mask`` (N, A): the k-th, k uniform
    below the row's count, found in two levels of b = ceil(sqrt(A)) (running sums over b
    entries, not A: cheap everywhere)."""
    n, size = mask.shape
    b = int(np.ceil(np.sqrt(size)))
    padded = jnp.pad(mask, ((0, 0), (0, b * b - size))) if b * b > size else mask
    blocks = padded.reshape(n, b, b).astype(jnp.int32)
    per_block = blocks.sum(axis=2)
    upto = jnp.cumsum(per_block, axis=1)
    count = upto[:, -1]
    k = jnp.floor(jax.random.uniform(key, (n,)) * count).astype(jnp.int32)
    k = jnp.minimum(k, count - 1)  # (u * count rounds up to count for u near 1)
    block = jnp.argmax(upto > k[:, None], axis=1)
    before = jnp.take_along_axis(upto - per_block, block[:, None], axis=1)[:, 0]
    inside = jnp.take_along_axis(blocks, block[:, None, None], axis=1)[:, 0]
    pos = jnp.argmax(jnp.cumsum(inside, axis=1) > (k - before)[:, None], axis=1)
    return (block * b + pos).astype(jnp.int32)


_random_legal = jax.jit(random_legal)


def step_rows(s: Any, actions: jax.Array, *, num_actions: int, teams: np.ndarray,
              max_moves: int, autoreset: bool, penalty: float, zero_sum: bool,
              play: Callable[[Any, jax.Array, jax.Array], Any],
              new_episode: Callable[[Any], Any],
              refresh: Callable[[Any, jax.Array | None], Any],
              outcome: Callable[[Any], jax.Array] | None = None) -> Any:
    """A step of every port, pgx's rules around the game's ``play(state, actions, legal)``
    (the legal rows played, the others as they were; a row's ``over``, ``winner`` and
    ``moves`` after it): an illegal action (or an id outside the action space) ends its
    row with ``penalty``, a finished row stays as it is (without autoreset), a row whose
    episode ended or was cut at ``max_moves`` reports it, and with autoreset holds
    ``new_episode`` (a function of one row). A row whose episode ended gets +1 for each
    seat of the winner's team and -1 for the others, or ``outcome(state)`` (N, seats)
    where a game has other rewards (Three Thirteen's shared wins)."""
    n = actions.shape[0]
    finished = jnp.zeros(n, bool) if autoreset else s.terminated | s.truncated
    live = ~finished
    inside = (actions >= 0) & (actions < num_actions)
    a = jnp.clip(actions, 0, num_actions - 1)
    legal = live & inside & jnp.take_along_axis(s.legal_action_mask, a[:, None], axis=1)[:, 0]
    illegal = live & ~legal
    team_of = jnp.asarray(teams)
    offender = team_of[jnp.maximum(s.current_player, 0)]
    g = play(s, a, legal)
    ended = legal & (g.over != 0)
    cut = legal & ~ended & (max_moves > 0) & (g.moves >= max_moves)
    if outcome is None:
        won = ended & (g.winner >= 0)
        rewards = jnp.where(won[:, None],
                            jnp.where(team_of[None, :] == g.winner[:, None], 1.0, -1.0), 0.0)
    else:
        rewards = jnp.where(ended[:, None], outcome(g), 0.0)
    ours = team_of[None, :] == offender[:, None]
    other = -penalty if zero_sum else 0.0
    rewards = jnp.where(illegal[:, None], jnp.where(ours, penalty, other), rewards)
    terminated = ended | illegal
    truncated = cut
    if autoreset:
        g = on_rows(new_episode, terminated | truncated, g)
        done = None
    else:
        terminated = terminated | s.terminated
        truncated = truncated | s.truncated
        done = terminated | truncated
    g = g._replace(rewards=rewards.astype(jnp.float32), terminated=terminated,
                   truncated=truncated)
    return refresh(g, done)


# ------------------------------------------------------------------ the env


class JaxEnv:
    """What every JAX port shares: its options (``max_moves``, ``autoreset``,
    ``illegal_reward``: pgx's rules at the end of a game, as ``make``), pgx's attributes
    and API (``init``, ``step``, ``observe``, ``observe_all``, ``random_actions``) with the
    checks made before anything is compiled. A port names its numba engine, its state
    type and its compiled functions (``_compile``), and converts its states to the numba
    engine's batches and back (``to_batch``, ``from_batch``)."""

    backend = "jax"
    #: the numba engine class of the game, the port's state (a NamedTuple), its action ids
    engine_type: Any
    state_type: Any
    num_actions: int

    def __init__(self, max_moves: int | None = DEFAULT_MAX_MOVES, autoreset: bool = False,
                 illegal_reward: float | None = -1.0, normalize: bool = False,
                 planes: bool = False, **options: Any) -> None:
        if not isinstance(autoreset, bool):
            raise OptionsError(f"autoreset must be True or False, not {autoreset!r}")
        if illegal_reward is None:
            raise OptionsError("the jax backend cannot refuse a step (a compiled step does "
                               "not raise): illegal_reward must be a number, the penalty "
                               "that ends the offending row")
        if isinstance(illegal_reward, bool) or not isinstance(
                illegal_reward, int | float) or not np.isfinite(illegal_reward):
            raise OptionsError(f"illegal_reward must be a finite number, not "
                               f"{illegal_reward!r}")
        if normalize or planes:
            raise OptionsError("the jax backend gives the flat observation only "
                               "(normalize and planes are the numba backend's)")
        #: the numba engine of the same options: ``to_batch`` gives it this env's states
        self.engine = self.engine_type(max_moves=max_moves, **options)
        engine = self.engine
        self.game = engine.game
        self.id: str = engine.game_name
        self.version = VERSION
        self.num_players = engine.num_players
        self.format = ObservationFormat(engine, False, False)
        self.observation_shape: tuple[int, ...] = (engine.obs_size,)
        self.observation_size = engine.obs_size
        self.autoreset = autoreset
        self.illegal_reward = float(illegal_reward)
        self.teams = np.array([self.game.team_of(s) for s in range(self.num_players)],
                              np.int64)
        sizes = np.bincount(self.teams)
        self.zero_sum = bool(len(sizes) == 2 and sizes[0] == sizes[1])
        self._init, self._step, self._observe, self._refresh = self._compile()

    def _compile(self) -> tuple[Any, Any, Any, Any]:
        """``init(seed_hi, seed_lo)``, ``step(state, actions)``, ``observe(state, seats)``
        and ``refresh(state)`` (the views of the seat to act), compiled."""
        raise NotImplementedError

    # -- pgx's API ---------------------------------------------------------------

    def init(self, seeds: Any) -> Any:
        """One deal per seed: non-negative ints below 2**64 (NumPy, a list), or a JAX
        integer array (inside ``jax.jit``: seeds below 2**32), the numba engine's deal
        from the same seed."""
        if isinstance(seeds, jax.Array):
            if seeds.ndim != 1 or not jnp.issubdtype(seeds.dtype, jnp.integer):
                raise ValueError("seeds must be a 1-d array of non-negative ints")
            lo = seeds.astype(jnp.uint32)
            hi = (seeds >> 32).astype(jnp.uint32) if seeds.dtype.itemsize == 8 \
                else jnp.zeros_like(lo)
        else:
            hi_np, lo_np = split_host(_seeds(seeds))
            hi, lo = jnp.asarray(hi_np), jnp.asarray(lo_np)
        return self._init(hi, lo)

    def step(self, state: Any, actions: Any) -> Any:
        """Play each row's action for its seat to act; a new state (``state`` is left as it
        was). An illegal action, or an id outside the action space, ends its row with
        ``illegal_reward``; a finished row (without autoreset) takes any action and stays
        as it is. Refuses a float or misshapen ``actions`` with ``InvalidActionError`` /
        ``ValueError``."""
        self._check_state(state)
        n = state.terminated.shape[0]
        if isinstance(actions, jax.Array):
            if actions.shape != (n,):
                raise ValueError(f"actions must have shape ({n},), not {actions.shape}")
            if not jnp.issubdtype(actions.dtype, jnp.integer):
                raise InvalidActionError(f"actions must be integer action ids, not "
                                         f"{actions.dtype}")
            acts = actions.astype(jnp.int32)
        else:
            acts = jnp.asarray(np.clip(check_actions(actions, n), -1, self.num_actions),
                               jnp.int32)
        return self._step(state, acts)

    def observe(self, state: Any, seats: Any = None) -> jax.Array:
        """(N, obs_size) float32: each row seen by ``seats`` (one seat or one per row;
        default the seat to act, as ``state.observation``)."""
        self._check_state(state)
        n = state.terminated.shape[0]
        if seats is None:
            seat_arr = jnp.maximum(state.current_player, 0)
        else:
            if isinstance(seats, jax.Array):
                arr = seats
            else:
                arr_np = np.asarray(seats)
                if arr_np.size and (arr_np.dtype.kind not in "iu" or arr_np.min() < 0
                                    or arr_np.max() >= self.num_players):
                    raise ValueError(f"seats must be 0..{self.num_players - 1}")
                arr = jnp.asarray(arr_np)
            try:
                seat_arr = jnp.broadcast_to(arr, (n,)).astype(jnp.int32)
            except ValueError:
                raise ValueError(f"seats must be one seat or one per row (shape ({n},)), "
                                 f"not an array of shape {arr.shape}") from None
        return self._observe(state, seat_arr)

    def observe_all(self, state: Any) -> jax.Array:
        """(N, players, obs_size) float32: every row seen by every seat (``[:, s]`` is seat
        s's view)."""
        n = state.terminated.shape[0]
        return jnp.stack([self.observe(state, jnp.full((n,), s, jnp.int32))
                          for s in range(self.num_players)], axis=1)

    def random_actions(self, key: jax.Array, state: Any) -> jax.Array:
        """(N,) int32: a uniformly random legal action per row from ``key`` (any action in
        a finished row; ``random_legal``)."""
        return _random_legal(key, state.legal_action_mask)

    def numpy_view(self) -> Any:
        """This env seen as a ``SelfPlay`` (NumPy states with the numba batch of each), for
        ``api_test``."""
        return NumpyView(self)

    def to_batch(self, state: Any) -> Any:
        raise NotImplementedError

    def _check_state(self, state: Any) -> None:
        if not isinstance(state, self.state_type):
            raise ValueError(f"state must be the {self.state_type.__name__} of init or step, "
                             f"not {type(state).__name__}")


# ------------------------------------------------------------------ for api_test


@dataclass
class ViewState(SelfPlayState):
    """A JAX env's state as NumPy arrays, with its numba batch (``to_batch``) and the JAX
    state it came from."""

    jax_state: Any = None


class NumpyView:
    """A JAX env (``backend="jax"``) seen as a ``SelfPlay``: its states as NumPy arrays and
    the numba engine's batch of the same games, so that ``api_test`` checks it as it
    checks the numba envs, and against the numba engine (masks, observations)."""

    def __init__(self, env: Any) -> None:
        self.jax_env = env
        for name in ("id", "version", "num_players", "num_actions", "observation_shape",
                     "observation_size", "format", "teams", "zero_sum", "autoreset",
                     "illegal_reward", "engine"):
            setattr(self, name, getattr(env, name))

    def _wrap(self, state: Any) -> ViewState:
        host = jax.device_get(state)
        return ViewState(
            current_player=np.array(host.current_player), observation=np.array(host.observation),
            legal_action_mask=np.array(host.legal_action_mask), rewards=np.array(host.rewards),
            terminated=np.array(host.terminated), truncated=np.array(host.truncated),
            results=None, batch=self.jax_env.to_batch(state), jax_state=state)

    def init(self, seeds: Any) -> ViewState:
        return self._wrap(self.jax_env.init(seeds))

    def step(self, state: ViewState, actions: Any) -> ViewState:
        return self._wrap(self.jax_env.step(state.jax_state, actions))

    def observe(self, state: ViewState, seats: Any = None) -> np.ndarray:
        return np.asarray(self.jax_env.observe(state.jax_state, seats))

    def observe_all(self, state: ViewState) -> np.ndarray:
        return np.asarray(self.jax_env.observe_all(state.jax_state))
