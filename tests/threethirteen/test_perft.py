"""Perft-style regression counts for Three Thirteen, kept in tests/data/perft_threethirteen.json.

For a few seeded random lines of play: the number of legal actions at each of the first
steps, and the final totals of whole matches. They change only when a rule (or the deal)
changes; after a deliberate rule change, regenerate them with
``python -m tests.threethirteen.test_perft --regenerate`` and say why in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import cardtable
from tests.conformance import legal_counts_along_a_line

DATA = Path(__file__).parent.parent / "data" / "perft_threethirteen.json"
LINES: list[tuple[int, dict[str, Any], int]] = [  # (players, options, seed)
    (2, {}, 1),
    (3, {"aces": "both"}, 2),
    (4, {"face_values": "counting", "all_wild_melds": False}, 3),
    (8, {}, 4),
]
STEPS = 400


def key(players: int, options: dict[str, Any], seed: int) -> str:
    return ",".join([f"players={players}", *(f"{k}={v}" for k, v in options.items()),
                     f"seed={seed}"])


def final_totals(game: cardtable.Game, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = game.deal(seed=seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state.scores


def compute() -> dict[str, dict[str, list[int]]]:
    out = {}
    for players, options, seed in LINES:
        game = cardtable.new_game("threethirteen", players=players, **options)
        out[key(players, options, seed)] = {
            "legal_counts": legal_counts_along_a_line(game, seed, STEPS),
            "final_totals": final_totals(game, seed),
        }
    return out


@pytest.mark.parametrize(("players", "options", "seed"), LINES)
def test_counts_and_totals_match_the_record(players: int, options: dict[str, Any],
                                            seed: int) -> None:
    expected = json.loads(DATA.read_text())[key(players, options, seed)]
    game = cardtable.new_game("threethirteen", players=players, **options)
    assert legal_counts_along_a_line(game, seed, STEPS) == expected["legal_counts"]
    assert final_totals(game, seed) == expected["final_totals"]


if __name__ == "__main__" and "--regenerate" in sys.argv:
    rows = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in compute().items()]
    DATA.write_text("{\n" + ",\n".join(rows) + "\n}\n")
    print(f"wrote {DATA}")
