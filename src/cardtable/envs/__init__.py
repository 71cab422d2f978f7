"""Environments for AI research: PettingZoo, Gymnasium and OpenSpiel (docs/envs.md).

Install with ``pip install 'cardtable[rl]'`` (PettingZoo, Gymnasium) and
``'cardtable[openspiel]'``. The rules engine never imports any of these.

- ``cardtable.envs.sequence_v0``, ``drawbridge_v0``, ``threethirteen_v0``:
  PettingZoo AEC environments (``env(**game_options)``, ``raw_env``).
- ``cardtable/Sequence-v0``, ``cardtable/DrawBridge-v0``,
  ``cardtable/ThreeThirteen-v0``: Gymnasium single-agent environments against
  bots, registered when this package is imported (so
  ``gymnasium.make("cardtable.envs:cardtable/Sequence-v0")`` works too); for a game with
  a batched engine (every game now), ``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")`` is ``cardtable.vector.gym.GameVectorEnv``.
- ``import cardtable.envs.openspiel`` registers ``python_cardtable_<game>``
  with OpenSpiel.
- ``cardtable.envs.policy.bot_policy(kind)``: a cardtable bot as a policy for the
  PettingZoo and Gymnasium environments (``policy(env)`` is its action id), a baseline to
  train and measure against.
- ``cardtable.encoders``: the observation tensors all of them share.
"""

from __future__ import annotations

from importlib import resources

import cardtable

#: moves after which an unfinished game is truncated (all three APIs), unless ``max_moves``
#: says otherwise: random Draw Bridge matches run to 20,000 moves, and nothing in
#: Sequence's rules stops one-eyed jacks from undoing chips forever
DEFAULT_MAX_MOVES = 100_000

#: Gymnasium id of each game, from its declared title: "cardtable/DrawBridge-v0"
GYM_IDS = {d.name: f"cardtable/{d.title.replace(' ', '')}-v0" for d in cardtable.declarations()}
#: the Gymnasium VectorEnv of the batched engines (cardtable.vector, the vector extra):
#: ``gymnasium.make_vec(id, num_envs, vectorization_mode="vector_entry_point")``
VECTOR_ENTRY_POINT = "cardtable.vector.gym:GameVectorEnv"


def has_vector_engine(name: str) -> bool:
    """Whether game ``name`` has a batched engine, ``cardtable.vector.<name>`` (looked up
    without importing it: that needs NumPy and numba)."""
    return resources.files(cardtable).joinpath("vector", f"{name}.py").is_file()


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register
        return
    for name in cardtable.game_names():
        env_id = GYM_IDS.get(name)
        if env_id is not None and env_id not in gymnasium.registry:
            gymnasium.register(id=env_id,
                               entry_point="cardtable.envs.single_agent:CardtableGymEnv",
                               vector_entry_point=(VECTOR_ENTRY_POINT if has_vector_engine(name)
                                                   else None),
                               kwargs={"game": name})


_register_gymnasium()
