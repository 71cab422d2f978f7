"""Pictures of a batched row (issue 36): ``engine.to_svg(batch, i, seat)`` and
``SelfPlay.to_svg(state, i, seat)``, as pgx's ``save_svg``: well-formed, every hand where
everything is shown, the seat's own hand and the others face down from a seat's view, and
the same hands as the scalar state's picture for a loaded position."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
from cardtable.vector import make, make_engine  # noqa: E402
from tests.configs import FEW, params  # noqa: E402
from tests.test_pictures import drawn, parse  # noqa: E402


@pytest.mark.parametrize(("game", "options"), params(FEW))
def test_a_row_is_drawn_with_what_each_seat_sees(game: str, options: dict[str, Any]) -> None:
    env = make(game, max_moves=400, **options)
    engine = env.engine
    state = env.init(np.arange(6))
    rng = np.random.default_rng(0)
    for step in range(60):
        mask = state.legal_action_mask
        state = env.step(state, (rng.random(mask.shape) * mask).argmax(axis=1))
        if step % 20:
            continue
        for i in range(6):
            hands, _ = engine.hidden_cards(state.batch, i)
            cards = drawn(parse(env.to_svg(state, i)))
            for s, hand in enumerate(hands):
                assert Counter(c for w, c in cards if w == f"hand-{s}") == Counter(hand)
            for seat in range(env.num_players):
                cards = drawn(parse(engine.to_svg(state.batch, i, seat)))
                assert Counter(c for w, c in cards if w == f"hand-{seat}") == Counter(
                    hands[seat])
                for other, hand in enumerate(hands):
                    if other != seat:
                        theirs = [c for w, c in cards if w == f"hand-{other}"]
                        assert theirs == [None] * len(hand), (game, i, seat, other)


def test_a_loaded_position_is_drawn_as_the_scalar_state_is() -> None:
    """The scene from the row's tensors holds the scalar picture's cards where the tensors
    keep them (the hands, the discard's top, the trick, the chips)."""
    rng = random.Random(4)
    for game, options in (("sequence", {"players": 3}), ("threethirteen", {}),
                          ("drawbridge", {"show_stock_top": True})):
        engine = make_engine(game, **options)
        state = cardtable.new_game(game, **options).deal(seed=9)
        for _ in range(25):
            state.apply(rng.choice(state.legal_actions()))
        batch = engine.from_states([state])
        for seat in (None, *range(engine.num_players)):
            row = Counter(drawn(parse(engine.to_svg(batch, 0, seat))))
            scalar = Counter(drawn(parse(state.to_svg(seat))))
            # the row draws no discard pile tops in Sequence (the tensor counts the cards)
            scalar = Counter({k: v for k, v in scalar.items()
                              if not (game == "sequence" and k[0] == "discard")})
            if game == "drawbridge" and seat is not None:
                # the scalar view may know the other hand (deduced); the tensor does not
                scalar = Counter({k: v for k, v in scalar.items()
                                  if k[0] != f"hand-{1 - seat}"})
                row = Counter({k: v for k, v in row.items() if k[0] != f"hand-{1 - seat}"})
            assert row == scalar, (game, seat)
        chips = engine.to_svg(batch, 0).count('class="chip"')
        assert chips == state.to_svg().count('class="chip"')


def test_bad_rows_and_seats_are_refused() -> None:
    engine = make_engine("sequence")
    batch = engine.init(np.arange(2))
    with pytest.raises(IndexError):
        engine.to_svg(batch, 2)
    with pytest.raises(ValueError, match="seat must be None"):
        engine.to_svg(batch, 0, seat=2)
