"""Sequence as a PettingZoo AEC environment (see cardtable.envs.aec and docs/envs.md).

Examples:
    >>> from cardtable.envs import sequence_v0
    >>> env = sequence_v0.env(players=4, render_mode="ansi")
    >>> env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> obs["observation"].shape, obs["action_mask"].shape
    ((523,), (529,))
"""

from __future__ import annotations

from typing import Any

from cardtable.envs.aec import CardtableAECEnv, FastOrderEnforcingWrapper


class raw_env(CardtableAECEnv):  # noqa: N801 - PettingZoo's naming
    """Sequence (options as ``cardtable.new_game("sequence", ...)``) without wrappers."""

    game_name = "sequence"
    metadata = {**CardtableAECEnv.metadata, "name": "sequence_v0"}


def env(**kwargs: Any) -> FastOrderEnforcingWrapper:
    """The environment as users should make it: ``raw_env`` behind an OrderEnforcingWrapper."""
    return FastOrderEnforcingWrapper(raw_env(**kwargs))
