"""Perft-style regression counts for Sequence, kept in tests/data/perft_sequence.json.

The counts change only when a rule (or the deal) changes. After a deliberate rule
change, regenerate them with ``python -m tests.sequence.test_perft --regenerate``
and say why in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import cardtable
from tests.conformance import legal_counts_along_a_line

DATA = Path(__file__).parent.parent / "data" / "perft_sequence.json"
LINES = [(2, 1), (2, 2), (3, 3), (4, 4), (6, 5), (12, 6)]  # (players, seed)
STEPS = 60


def compute() -> dict[str, list[int]]:
    return {
        f"players={players},seed={seed}": legal_counts_along_a_line(
            cardtable.new_game("sequence", players=players), seed, STEPS)
        for players, seed in LINES
    }


@pytest.mark.parametrize("key", [f"players={p},seed={s}" for p, s in LINES])
def test_legal_move_counts_match_the_record(key: str) -> None:
    expected = json.loads(DATA.read_text())[key]
    assert compute()[key] == expected


if __name__ == "__main__" and "--regenerate" in sys.argv:
    rows = [f"  {json.dumps(key)}: {json.dumps(counts)}" for key, counts in compute().items()]
    DATA.write_text("{\n" + ",\n".join(rows) + "\n}\n")
    print(f"wrote {DATA}")
