"""What the JAX ports share: the numba engines' generator (splitmix64) in 32-bit words.

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

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardtable.vector._kernel import GOLDEN
from cardtable.vector.selfplay import SelfPlayState

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
