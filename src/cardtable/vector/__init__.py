"""Batched engines for training agents: thousands of games per call (docs/envs.md).

Install with ``pip install 'cardtable[vector]'`` (NumPy and numba). The rules engine never
imports this package.

- ``VectorSequence``: N games of Sequence as arrays, stepped by numba kernels, exactly the
  rules of ``cardtable.sequence`` (tests/vector play both side by side).
- ``VectorDrawBridge``: N matches of Draw Bridge, the same way (``cardtable.vector.drawbridge``).
- ``VectorThreeThirteen``: N matches of Three Thirteen, the same way, its meld solver a numba
  kernel too (``cardtable.vector.threethirteen``, ``threethirteen_melds``).
- ``SelfPlay``: pgx's shape, every seat's action from the caller.
- ``cardtable.vector.gym.SequenceVectorEnv``: a Gymnasium ``VectorEnv`` against an opponent,
  the vector entry point of ``cardtable/Sequence-v0``; ``ThreeThirteenVectorEnv`` and
  ``DrawBridgeVectorEnv`` (the same module) those of ``cardtable/ThreeThirteen-v0`` and
  ``cardtable/DrawBridge-v0``.
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("cardtable.vector needs NumPy and numba: pip install 'cardtable[vector]'"
                      ) from exc

from cardtable.vector.drawbridge import DrawBridgeBatch, DrawBridgeResults, VectorDrawBridge
from cardtable.vector.selfplay import SelfPlay, SelfPlayState
from cardtable.vector.sequence import Results, SequenceBatch, VectorSequence
from cardtable.vector.threethirteen import ThreeThirteenBatch, VectorThreeThirteen

__all__ = ["DrawBridgeBatch", "DrawBridgeResults", "Results", "SelfPlay", "SelfPlayState",
           "SequenceBatch", "ThreeThirteenBatch", "VectorDrawBridge", "VectorSequence",
           "VectorThreeThirteen"]
