"""Sequence's afterstate value network and the learned bot's feature scores, blended:
the "blend" bot (``cardtable.bots.make("blend")``), Sequence's expert level (docs/bots.md,
"The network and the learned scores blended"). With another weight of the learned
scores, an outside bot of the arena::

    cardtable arena sequence --bots cardtable.bots.blend:make:w=0.5,learned --games 1000

Each legal move's score is its afterstate value's z-score over the legal moves plus ``w``
times its learned score's z-score (a dead-card exchange first, as both bots play it).
Where the network has no weights (Sequence with other options) it plays as ``learned``;
in the other games, as the heuristic.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.bots import sequence_learned, sequence_value
from cardtable.bots.base import HeuristicBot, ScoringBot
from cardtable.core import Action, OptionsError, State

__all__ = ["BlendBot", "make"]


def zscores(values: np.ndarray) -> np.ndarray:
    """``values`` less their mean, over their standard deviation (all 0 when equal)."""
    spread = float(values.std())
    return (values - values.mean()) / spread if spread > 1e-12 else np.zeros_like(values)


class BlendBot(ScoringBot):
    """The legal move of highest z(network's afterstate value) + w z(learned score)."""

    def __init__(self, seed: int | None = None, w: float = 1.0) -> None:
        super().__init__(seed)
        self.w = w
        self.net = sequence_value.shipped()
        self.weights = sequence_learned.load_weights()
        self.fallback = HeuristicBot(seed)
        self._encoders: dict[Any, Any] = {}

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        if state.game.name != "sequence":
            return self.fallback.scores(state, seat)
        scored = sequence_learned.move_scores(state, seat, self.weights)
        if (self.net is None or not self.net.fits(state.game) or len(scored) == 1
                or any(score >= 1e8 for score, _ in scored)):   # a dead-card exchange
            return scored
        from cardtable.encoders import encoder_for

        encoder = self._encoders.get(state.game)
        if encoder is None:
            encoder = self._encoders[state.game] = encoder_for(state.game)
        _, values = sequence_value.best_action(self.net, encoder.encode(state, seat),
                                               [a.id for _, a in scored])
        learned = np.array([score for score, _ in scored])
        total = zscores(np.asarray(values, float)) + self.w * zscores(learned)
        return [(float(t), a) for t, (_, a) in zip(total, scored, strict=True)]

    def reset(self) -> None:
        super().reset()
        self.fallback.reset()


def make(seed: int | None = None, w: float | str = 1.0) -> BlendBot:
    """The arena's outside bot: ``cardtable.bots.blend:make:w=0.5``."""
    try:
        weight = float(w)
    except ValueError:
        raise OptionsError(f"w is the learned scores' weight, a number >= 0, not {w!r}") \
            from None
    if not weight >= 0:
        raise OptionsError(f"w is the learned scores' weight, a number >= 0, not {w!r}")
    return BlendBot(seed, weight)
