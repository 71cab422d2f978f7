"""Observation tensors: the fast path equals the view-based reference, nothing hidden leaks,
values stay in their declared bounds, and docs/envs.md shows the real layouts."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed: pip install 'cardtable[rl]'")

import cardtable  # noqa: E402
from cardtable.encoders import encoder_for  # noqa: E402
from tests.configs import FEW  # noqa: E402
from tests.envs.common import CONFIGS, GAMES, config_id, random_states  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
DIGESTS = Path(__file__).resolve().parents[1] / "data" / "encoder_digests.json"
# the fast loop checks the few configurations (tests/configs.py FEW); the full run, all
_FEW = {(c.game, config_id(c.game, c.options)) for c in FEW}
PARAMS = [pytest.param(name, options, id=config_id(name, options),
                       marks=[] if (name, config_id(name, options)) in _FEW else [pytest.mark.slow])
          for name, options in CONFIGS]


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_fast_encoding_equals_the_view_encoding(name: str, options: dict[str, Any]) -> None:
    game = cardtable.new_game(name, **options)
    enc = encoder_for(game)
    for state in random_states(game, 150, seed=1):
        for seat in range(game.num_players):
            fast = enc.encode(state, seat)
            reference = enc.encode_view(state.view(seat), seat)
            assert fast.dtype == np.float32 and fast.shape == (enc.size,)
            assert np.array_equal(fast, reference), (
                f"seat {seat}: sections differ at {np.flatnonzero(fast != reference)}")


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_tensors_hold_nothing_hidden_from_the_seat(name: str, options: dict[str, Any]) -> None:
    """Dealing afresh every card a seat cannot see never changes that seat's tensor, while
    it does change what the other seats hold (so the check has teeth)."""
    game = cardtable.new_game(name, **options)
    enc = encoder_for(game)
    rng = random.Random(2)
    others_changed = 0
    for state in random_states(game, 60, seed=3):
        for seat in range(game.num_players):
            tensor = enc.encode(state, seat)
            for _ in range(3):
                world = state.resample(seat, rng)
                assert np.array_equal(enc.encode(world, seat), tensor)
                assert np.array_equal(enc.encode_view(world.view(seat), seat), tensor)
                other = (seat + 1) % game.num_players
                others_changed += not np.array_equal(enc.encode(world, other),
                                                      enc.encode(state, other))
    assert others_changed > 0


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_values_lie_within_the_declared_bounds(name: str, options: dict[str, Any]) -> None:
    game = cardtable.new_game(name, **options)
    enc = encoder_for(game)
    for state in random_states(game, 150, seed=4):
        for seat in range(game.num_players):
            tensor = enc.encode(state, seat)
            assert (tensor >= 0).all() and (tensor <= enc.high).all(), (
                f"out of bounds at {np.flatnonzero((tensor < 0) | (tensor > enc.high))}")


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_the_hand_section_is_the_seat_s_hand(name: str, options: dict[str, Any]) -> None:
    game = cardtable.new_game(name, **options)
    enc = encoder_for(game)
    for state in random_states(game, 10, seed=5):
        for seat in range(game.num_players):
            hand = enc.split(enc.encode(state, seat))["hand"]
            names = [cardtable.cards.card_name(c) for c in range(52) for _ in range(int(hand[c]))]
            assert sorted(names) == sorted(state.view(seat)["hand"])


@pytest.mark.parametrize("name", GAMES)
def test_docs_show_the_layout_of_each_game(name: str) -> None:
    """docs/envs.md holds the table ``Encoder.layout_table`` prints for the default options."""
    table = encoder_for(cardtable.new_game(name)).layout_table()
    assert table in DOCS.read_text(encoding="utf-8"), (
        f"update the {name} layout in docs/envs.md:\n{table}")


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_encodings_unchanged_on_seeded_positions(name: str, options: dict[str, Any]) -> None:
    """The tensors of seeded random positions hash as they did when the encoders read the
    states' private fields (data/encoder_digests.json, written by that code); a deliberate
    layout change rewrites the file."""
    digests = json.loads(DIGESTS.read_text(encoding="utf-8"))
    game = cardtable.new_game(name, **options)
    enc = encoder_for(game)
    h = hashlib.sha256()
    for state in random_states(game, 40, seed=11):
        for seat in range(game.num_players):
            h.update(enc.encode(state, seat).tobytes())
    assert h.hexdigest() == digests[config_id(name, options)]
