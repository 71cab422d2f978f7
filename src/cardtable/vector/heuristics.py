"""Every game's heuristic as a batched kernel, found by the engine's game (docs/envs.md,
"Batched opponents: the heuristics as kernels").

::

    from cardtable.vector import make_engine
    from cardtable.vector.heuristics import heuristic_actions

    engine = make_engine("threethirteen", players=3)
    batch = engine.init(np.arange(4096))
    engine.step(batch, heuristic_actions(engine, batch))   # the heuristic in every row

Each kernel module's differential test checks it move for move against the scalar bots
``cardtable.bots.make("heuristic")`` and ``make("heuristic-v1")`` (the yardstick of 1
December 2026). In Sequence and Three Thirteen the two are the same bot today, and one
kernel plays both names (``SAME_AS_V1``); Draw Bridge's ``heuristic`` has moved on (it calls
by expected points at the table's rules; the old one is frozen in
``cardtable.bots.drawbridge_v1``), and its kernel module plays each kind itself
(``OWN_KINDS``: its functions take ``kind``). A test says when another game's
``heuristic`` moves on.
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
#: the games whose kernel module plays both kinds itself: ``heuristic_actions(engine,
#: batch, kind)`` and ``heuristic_scores(engine, batch, kind)``
OWN_KINDS = frozenset({"drawbridge"})


def batched_kinds(game_name: str) -> tuple[str, ...]:
    """The bot kinds of ``game_name`` a batched kernel plays exactly: ``heuristic-v1`` where
    the game has a kernel, and ``heuristic`` where its kernel plays it too (``OWN_KINDS``)
    or it is still the same bot (``SAME_AS_V1``)."""
    if game_name not in KERNELS:
        return ()
    return KINDS if game_name in SAME_AS_V1 | OWN_KINDS else ("heuristic-v1",)


def _module(engine: Any, kind: str) -> tuple[Any, tuple[str, ...]]:
    """The kernel module of ``engine``'s game, and the arguments after the batch."""
    name = getattr(getattr(engine, "game", None), "name", None)
    if not isinstance(name, str) or kind not in batched_kinds(name):
        offered = batched_kinds(name) if isinstance(name, str) else ()
        raise OptionsError(f"no batched {kind!r} for {name or type(engine).__name__}; "
                           f"the batched bots of this engine are "
                           f"{', '.join(offered) or 'none'}")
    return importlib.import_module(KERNELS[name]), (kind,) if name in OWN_KINDS else ()


def heuristic_actions(engine: Any, batch: Any, kind: str = "heuristic") -> np.ndarray:
    """(N,) int64: bot ``kind``'s move in every row of ``batch`` (-1 in a finished row),
    from the kernel of ``engine``'s game."""
    module, args = _module(engine, kind)
    actions: np.ndarray = module.heuristic_actions(engine, batch, *args)
    return actions


def heuristic_scores(engine: Any, batch: Any, kind: str = "heuristic") -> np.ndarray:
    """(N, num_actions) float64: bot ``kind``'s score of every legal action of each row's
    seat to act, ``-inf`` elsewhere."""
    module, args = _module(engine, kind)
    scores: np.ndarray = module.heuristic_scores(engine, batch, *args)
    return scores
