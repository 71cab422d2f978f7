"""Perft-style regression counts for every game, kept in tests/data/perft_GAME.json.

Each file lists seeded random lines of play: the game's options, the seed, how many
steps to count, the number of legal actions at each of those steps and, where given,
the scores at the end of the line played out. The counts change only when a rule (or
the deal) changes. To add a line, add it to the file with empty ``legal_counts`` (and
``"final_scores": []`` to check the end too); after a deliberate rule change, or to fill
in new lines, run ``python -m tests.test_perft --regenerate`` and say why in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import cardtable

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("perft_*.json"))


def line_counts(game: cardtable.Game, seed: int, steps: int,
                play_out: bool = False) -> tuple[list[int], list[int] | None]:
    """The legal action counts of the first ``steps`` steps of a seeded random line and,
    with ``play_out``, the scores at its end."""
    rng = random.Random(seed)
    state = game.deal(seed=seed)
    counts: list[int] = []
    while not state.is_terminal and (play_out or len(counts) < steps):
        legal = state.legal_actions()
        if len(counts) < steps:
            counts.append(len(legal))
        state.apply(legal[rng.randrange(len(legal))])
    return counts, list(state.scores) if play_out else None


def computed(game_name: str, line: dict[str, Any]) -> dict[str, Any]:
    game = cardtable.new_game(game_name, **line["options"])
    counts, scores = line_counts(game, line["seed"], line["steps"], "final_scores" in line)
    out = {**line, "legal_counts": counts}
    if scores is not None:
        out["final_scores"] = scores
    return out


def lines() -> list[Any]:
    params = []
    for path in FILES:
        data = json.loads(path.read_text())
        for line in data["lines"]:
            label = ",".join([*(f"{k}={v}" for k, v in line["options"].items()),
                              f"seed={line['seed']}"])
            params.append(pytest.param(data["game"], line, id=f"{data['game']}({label})"))
    return params


def test_every_game_has_perft_lines() -> None:
    assert sorted(json.loads(p.read_text())["game"] for p in FILES) == cardtable.game_names()


@pytest.mark.parametrize(("game_name", "line"), lines())
def test_legal_move_counts_match_the_record(game_name: str, line: dict[str, Any]) -> None:
    assert line["legal_counts"], "an empty line: fill it in with --regenerate"
    assert computed(game_name, line) == line


def write(path: Path, data: dict[str, Any]) -> None:
    """One line of the file per line of play, for readable diffs."""
    rows = [f"  {json.dumps(line)}" for line in data["lines"]]
    path.write_text(f'{{"game": {json.dumps(data["game"])}, "lines": [\n'
                    + ",\n".join(rows) + "\n]}\n")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    for path in FILES:
        data = json.loads(path.read_text())
        data["lines"] = [computed(data["game"], line) for line in data["lines"]]
        write(path, data)
        print(f"wrote {path}")
