"""What the JAX ports' tests share (test_jax_sequence.py, test_jax_drawbridge.py,
test_jax_threethirteen.py): the numba env and the JAX env of each option set, and a
numba ``SelfPlay`` state around a batch loaded from scalar positions. Import it after
``pytest.importorskip("jax")``."""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

from cardtable.vector import SelfPlay, SelfPlayState

Env = TypeVar("Env")


def env_pairs(game: str, env_type: type[Env], options: dict[str, dict[str, Any]]
              ) -> dict[str, tuple[SelfPlay, Env]]:
    """The numba env and the JAX env of each option set (``autoreset`` among the options,
    default False), pgx's rules at the end: an illegal action ends its row with -1."""
    pairs = {}
    for name, given in options.items():
        opts = dict(given)
        autoreset = opts.pop("autoreset", False)
        pairs[name] = (SelfPlay(game, autoreset=autoreset, illegal_reward=-1.0, **opts),
                       env_type(autoreset=autoreset, **opts))  # type: ignore[call-arg]
    return pairs


def selfplay_state(ref: SelfPlay, batch: Any) -> SelfPlayState:
    """The numba env's state of the matches in ``batch`` (``engine.from_states``): live
    rows, zero rewards, as ``ref.init`` gives its own deals."""
    n = batch.size
    state = ref.init(np.arange(n, dtype=np.uint64))
    state.batch = batch
    state.current_player = batch.current_player
    ref._refresh(state)
    return state
