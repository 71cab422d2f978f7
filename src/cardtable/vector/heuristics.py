"""Every game's heuristic as a batched kernel, found by the engine's game (docs/envs.md,
"Batched opponents: the heuristics as kernels").

::

    from cardtable.vector import make_engine
    from cardtable.vector.heuristics import heuristic_actions

    engine = make_engine("threethirteen", players=3)
    batch = engine.init(np.arange(4096))
    engine.step(batch, heuristic_actions(engine, batch))   # the heuristic in every row

A kernel plays the heuristic of 1 December 2026, the frozen yardstick ``heuristic-v1``:
each kernel module's differential test checks it against ``cardtable.bots.make(
"heuristic-v1")``. In Sequence and Three Thirteen the bot kind ``heuristic`` is the same
bot today, so ``batched_kinds`` offers both names (``SAME_AS_V1``). Draw Bridge's
``heuristic`` has moved on (it calls by expected points at the table's rules; the old one
is frozen in ``cardtable.bots.drawbridge_v1``: ``cardtable.bots.base._FROZEN_V1``), so only
``heuristic-v1`` is offered for it until its kernel is written anew; a test says when
another game's ``heuristic`` moves on.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from cardtable.core import OptionsError

#: the module of each game's batched heuristic (``heuristic_actions``, ``heuristic_scores``)
KERNELS = {
    "sequence": "cardtable.vector.sequence_heuristic",
    "threethirteen": "cardtable.vector.threethirteen_heuristic",
    "drawbridge": "cardtable.vector.drawbridge_heuristic",
}
#: the bot kinds a kernel can play
KINDS = ("heuristic", "heuristic-v1")


#: the games whose ``heuristic`` is still their ``heuristic-v1`` (no frozen copy, so the
#: kernel plays both); tests/vector/test_heuristic_opponents.py checks this against
#: ``cardtable.bots`` (which the batched engines do not import)
SAME_AS_V1 = frozenset({"sequence", "threethirteen"})


def batched_kinds(game_name: str) -> tuple[str, ...]:
    """The bot kinds of ``game_name`` a batched kernel plays exactly: ``heuristic-v1`` where
    the game has a kernel, and ``heuristic`` while it is still the same bot."""
    if game_name not in KERNELS:
        return ()
    return KINDS if game_name in SAME_AS_V1 else ("heuristic-v1",)


def _module(engine: Any, kind: str) -> Any:
    name = getattr(getattr(engine, "game", None), "name", None)
    if not isinstance(name, str) or kind not in batched_kinds(name):
        offered = batched_kinds(name) if isinstance(name, str) else ()
        raise OptionsError(f"no batched {kind!r} for {name or type(engine).__name__}; "
                           f"the batched bots of this engine are "
                           f"{', '.join(offered) or 'none'}")
    return importlib.import_module(KERNELS[name])


def heuristic_actions(engine: Any, batch: Any, kind: str = "heuristic") -> np.ndarray:
    """(N,) int64: bot ``kind``'s move in every row of ``batch`` (-1 in a finished row),
    from the kernel of ``engine``'s game."""
    actions: np.ndarray = _module(engine, kind).heuristic_actions(engine, batch)
    return actions


def heuristic_scores(engine: Any, batch: Any, kind: str = "heuristic") -> np.ndarray:
    """(N, num_actions) float64: bot ``kind``'s score of every legal action of each row's
    seat to act, ``-inf`` elsewhere."""
    scores: np.ndarray = _module(engine, kind).heuristic_scores(engine, batch)
    return scores
