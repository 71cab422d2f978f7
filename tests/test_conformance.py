"""Every registered game, under every option set of tests/configs.py, through the generic checks."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from tests.configs import CONFIGS, FEW, SHORT, playout_params
from tests.conformance import check_playout


@pytest.mark.parametrize(("name", "options", "seed", "moves"), playout_params())
def test_random_playout_keeps_invariants(name: str, options: dict[str, Any], seed: int,
                                         moves: int) -> None:
    check_playout(cardtable.new_game(name, **options), seed, max_steps=moves)


@pytest.mark.parametrize("configs", [CONFIGS, SHORT, FEW], ids=["all", "short", "few"])
def test_every_game_has_configurations(configs: list[Any]) -> None:
    assert sorted({c.game for c in configs}) == cardtable.game_names()
