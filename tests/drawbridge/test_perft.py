"""Perft-style regression counts for Draw Bridge, kept in tests/data/perft_drawbridge.json.

Each line is the number of legal actions at every step of a seeded random line of
play (through the draw phase, the auction, the play and into later deals). The
counts change only when a rule (or the deal) changes. After a deliberate rule
change, regenerate them with ``python -m tests.drawbridge.test_perft --regenerate``
and say why in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import cardtable
from tests.conformance import legal_counts_along_a_line

DATA = Path(__file__).parent.parent / "data" / "perft_drawbridge.json"
LINES: list[tuple[dict[str, Any], int]] = [  # (options, seed)
    ({}, 1),
    ({}, 2),
    ({"follow_suit_in_draw": True}, 3),
    ({"draw_trick_winner": "suit-led", "show_stock_top": True}, 4),
    ({"undertricks": True, "target": 300}, 5),
]
STEPS = 240


def key(options: dict[str, Any], seed: int) -> str:
    return ",".join([*(f"{k}={v}" for k, v in options.items()), f"seed={seed}"])


def compute() -> dict[str, list[int]]:
    return {
        key(options, seed): legal_counts_along_a_line(
            cardtable.new_game("drawbridge", **options), seed, STEPS)
        for options, seed in LINES
    }


@pytest.mark.parametrize(("options", "seed"), LINES)
def test_legal_move_counts_match_the_record(options: dict[str, Any], seed: int) -> None:
    expected = json.loads(DATA.read_text())[key(options, seed)]
    assert legal_counts_along_a_line(
        cardtable.new_game("drawbridge", **options), seed, STEPS) == expected


if __name__ == "__main__" and "--regenerate" in sys.argv:
    rows = [f"  {json.dumps(k)}: {json.dumps(counts)}" for k, counts in compute().items()]
    DATA.write_text("{\n" + ",\n".join(rows) + "\n}\n")
    print(f"wrote {DATA}")
