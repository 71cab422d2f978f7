"""Every registered game, under several option sets, through the generic checks."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from tests.conformance import check_playout, options_id

# (game name, options, number of seeded playouts); each game adds its option sets here.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("sequence", {}, 100),
    ("sequence", {"players": 3}, 30),
    ("sequence", {"players": 4}, 30),
    ("sequence", {"players": 6, "teams": 3}, 20),
    ("sequence", {"players": 8}, 10),
    ("sequence", {"players": 9}, 10),
    ("sequence", {"players": 10}, 10),
    ("sequence", {"players": 12, "teams": 3}, 10),
    ("sequence", {"players": 12, "teams": 2, "max_turns": 120}, 10),
    ("sequence", {"max_turns": 30}, 20),
    # Draw Bridge: random matches to 100 run long (random contracts fail), so the default
    # options get one 5000-step playout; undertricks end matches sooner, many deals each
    ("drawbridge", {}, 1),
    ("drawbridge", {"undertricks": True, "target": 5000}, 4),
    ("drawbridge", {"undertricks": True, "follow_suit_in_draw": True, "show_stock_top": True,
                    "target": 4000}, 4),
    ("drawbridge", {"undertricks": True, "follow_suit_in_draw": True,
                    "draw_trick_winner": "suit-led", "target": 3000}, 3),
    ("drawbridge", {"undertricks": True, "show_stock_top": True, "draw_trick_winner": "suit-led",
                    "target": 100}, 6),
    # Three Thirteen: a random match of 11 rounds runs 2,000 to 5,000 steps (rounds end on
    # the second empty stock), so a few whole matches per option set
    ("threethirteen", {}, 3),
    ("threethirteen", {"players": 3, "aces": "both"}, 1),
    ("threethirteen", {"players": 4, "face_values": "counting", "all_wild_melds": False}, 1),
    ("threethirteen", {"players": 7, "aces": "both", "all_wild_melds": False}, 1),
    # 3.1: 9 to 12 players play with four decks by default; option decks sets the count
    ("threethirteen", {"players": 9}, 1),
    ("threethirteen", {"players": 12}, 1),
    ("threethirteen", {"players": 8, "decks": 4}, 1),
    ("threethirteen", {"players": 3, "decks": 1}, 1),
]


@pytest.mark.parametrize(
    ("name", "options", "seed"),
    [
        pytest.param(name, options, seed, id=f"{options_id(name, options)}-{seed}")
        for name, options, count in CONFIGS
        for seed in range(count)
    ],
)
def test_random_playout_keeps_invariants(name: str, options: dict[str, Any], seed: int) -> None:
    check_playout(cardtable.new_game(name, **options), seed)


def test_every_game_has_a_conformance_config() -> None:
    assert {name for name, _, _ in CONFIGS} == set(cardtable.game_names())
