"""What the numba kernels of every batched engine share: each row's generators.

A row's ``rngs`` hold four uint64 words (columns ``R_*``): its seed, how many episodes
(games or matches) it has begun, the generator of the deal in play and the random
policy's own. The generator is splitmix64 (``below``), so that an episode's deals depend
only on the row's seed and the episode's number, never on the moves played.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

# columns of every batch's ``rngs``
R_SEED, R_EPISODE, R_DEAL, R_POLICY = range(4)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: the random policy's stream is the seed's, salted
POLICY_SALT = np.uint64(0x5DEECE66D)


@njit(inline="always", cache=True)
def mix(z: Any) -> Any:
    """splitmix64's finaliser."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(inline="always", cache=True)
def below(rngs: np.ndarray, i: int, col: int, n: int) -> int:
    """A uniform int in 0..n-1 from generator ``col`` of row i (splitmix64, multiply-shift)."""
    z = rngs[i, col] + GOLDEN
    rngs[i, col] = z
    return int(((mix(z) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(inline="always", cache=True)
def shuffle(pile: np.ndarray, i: int, n: int, rngs: np.ndarray) -> None:
    """Fisher-Yates on the first n cards of row i's pile, from its deal generator."""
    for k in range(n - 1, 0, -1):
        r = below(rngs, i, R_DEAL, k + 1)
        t = pile[i, k]
        pile[i, k] = pile[i, r]
        pile[i, r] = t


def seed_rows(rngs: np.ndarray, seeds: np.ndarray) -> None:
    """Each row's seed, and its random policy's stream seeded from it."""
    rngs[:, R_SEED] = seeds
    rngs[:, R_POLICY] = seeds ^ POLICY_SALT
