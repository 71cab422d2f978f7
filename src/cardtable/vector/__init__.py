"""Batched engines for training agents: thousands of games per call (docs/envs.md).

Install with ``pip install 'cardtable[vector]'`` (NumPy and numba). The rules engine never
imports this package.

- ``make_engine(game, **options)``: the batched engine of a game, found by name (``ENGINE``
  of ``cardtable.vector.<game>``); ``game_names()`` lists the games that have one. Every engine
  is a ``VectorEngine`` (``cardtable.vector.base``: the methods, the argument checks).
- ``VectorSequence``: N games of Sequence as arrays, stepped by numba kernels, exactly the
  rules of ``cardtable.sequence`` (tests/vector play both side by side).
- ``VectorDrawBridge``: N matches of Draw Bridge, the same way (``cardtable.vector.drawbridge``).
- ``VectorThreeThirteen``: N matches of Three Thirteen, the same way, its meld solver a numba
  kernel too (``cardtable.vector.threethirteen``, ``threethirteen_melds``).
- ``SelfPlay``: pgx's shape, every seat's action from the caller.
- ``make(game_id, **options)`` (also ``env``): the registry in pgx's shape, a ``SelfPlay``
  with pgx's rules at the end of a game (no autoreset, an illegal action ends its row);
  ``available_envs()`` lists the ids; ``api_test(env)`` checks an env as ``pgx.api_test``
  does. ``normalize=True`` and ``planes=True`` shape the observations, ``observe_all`` and
  ``perfect_information`` give every seat's (``cardtable.vector.observations``).
- ``make(game_id, backend="jax", **options)``: the JAX port (``pip install
  'cardtable[jax]'``; every game: ``cardtable.vector.jax_sequence``, ``jax_drawbridge``,
  ``jax_threethirteen`` with its meld solver ``jax_threethirteen_melds``, on what they
  share in ``cardtable.vector._jax``), the same API as pure functions of pytrees for
  ``jax.jit`` and ``jax.vmap``, the numba engine's deals; ``available_envs("jax")`` lists
  the ports. Only ``make`` imports JAX.
- ``cardtable.vector.gym.GameVectorEnv``: a Gymnasium ``VectorEnv`` against an opponent,
  the vector entry point of every game's Gymnasium id (``cardtable/Sequence-v0`` ...).
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("cardtable.vector needs NumPy and numba: pip install 'cardtable[vector]'"
                      ) from exc

from cardtable.vector.apitest import api_test
from cardtable.vector.base import VectorEngine, engine_class, game_names, make_engine
from cardtable.vector.drawbridge import DrawBridgeBatch, DrawBridgeResults, VectorDrawBridge
from cardtable.vector.selfplay import SelfPlay, SelfPlayState, available_envs, env, make
from cardtable.vector.sequence import Results, SequenceBatch, SequenceResults, VectorSequence
from cardtable.vector.threethirteen import (
    ThreeThirteenBatch,
    ThreeThirteenResults,
    VectorThreeThirteen,
)

__all__ = ["DrawBridgeBatch", "DrawBridgeResults", "Results", "SelfPlay", "SelfPlayState",
           "SequenceBatch", "SequenceResults", "ThreeThirteenBatch", "ThreeThirteenResults",
           "VectorDrawBridge", "VectorEngine", "VectorSequence", "VectorThreeThirteen",
           "api_test", "available_envs", "engine_class", "env", "game_names", "make",
           "make_engine"]
