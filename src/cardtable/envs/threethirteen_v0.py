"""Three Thirteen as a PettingZoo AEC environment (see cardtable.envs.aec and docs/envs.md)."""

from __future__ import annotations

from typing import Any

from cardtable.envs.aec import CardtableAECEnv, FastOrderEnforcingWrapper


class raw_env(CardtableAECEnv):  # noqa: N801 - PettingZoo's naming
    """Three Thirteen (options as ``cardtable.new_game("threethirteen", ...)``) without wrappers."""

    game_name = "threethirteen"
    metadata = {**CardtableAECEnv.metadata, "name": "threethirteen_v0"}


def env(**kwargs: Any) -> FastOrderEnforcingWrapper:
    """The environment as users should make it: ``raw_env`` behind an OrderEnforcingWrapper."""
    return FastOrderEnforcingWrapper(raw_env(**kwargs))
