"""Game records: every conformance game saved, loaded and replayed; bad records explained."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardtable
from cardtable import records
from cardtable.cli import main
from cardtable.records import Record, RecordError, Seat
from tests.configs import PLAYOUT, playout_params


def random_game(game: cardtable.Game, seed: int, moves: int = PLAYOUT) -> cardtable.State:
    """The line of play check_playout follows for ``seed``."""
    rng = random.Random(seed)
    state = game.deal(seed=seed)
    while not state.is_terminal and len(state.history) < moves:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "options", "seed", "moves"), playout_params())
def test_every_conformance_game_round_trips(tmp_path: Path, name: str, options: dict[str, Any],
                                             seed: int, moves: int) -> None:
    game = cardtable.new_game(name, **options)
    state = random_game(game, seed, moves)
    seats = [Seat("bot", "random")] * game.num_players
    path = records.save(records.record_of(state, seats), tmp_path / f"{seed}.json")
    record = records.load(path)
    assert record.seed == seed and record.seats == seats
    assert len(record.actions) == len(state.history)
    assert record.finished == state.is_terminal
    assert records.replay(record).to_dict() == state.to_dict()


def test_a_record_steps_through_every_position() -> None:
    state = random_game(cardtable.new_game("sequence", players=3), 4)
    record = records.record_of(state)
    steps = list(records.positions(record))
    assert len(steps) == len(state.history) + 1
    assert steps[0].history == [] and steps[-1].to_dict() == state.to_dict()
    for before, after in zip(steps, steps[1:], strict=False):
        assert after.history[:-1] == before.history


def test_a_setup_position_is_recorded_from_its_start(tmp_path: Path) -> None:
    game = cardtable.new_game("sequence")
    start = game.setup(chips={"c4": 0, "d5": 1}, current=1, seed=3)
    assert start.seed is None
    state = start.clone()
    rng = random.Random(1)
    for _ in range(10):
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(RecordError, match="needs start="):
        records.record_of(state)
    record = records.record_of(state, start=start)
    assert record.seed is None and record.start == start.to_dict()
    loaded = records.load(records.save(record, tmp_path / "setup.json"))
    assert records.replay(loaded).to_dict() == state.to_dict()
    assert not loaded.finished


def test_the_json_format_is_the_documented_one(tmp_path: Path) -> None:
    state = random_game(cardtable.new_game("sequence"), 2)
    seats = [Seat("human", "Ann"), Seat("bot", "heuristic")]
    records.save(records.record_of(state, seats), tmp_path / "g.json")
    data = json.loads((tmp_path / "g.json").read_text())
    assert list(data) == ["format", "version", "cardtable", "game", "options", "seed", "start",
                          "seats", "actions", "result", "created", "saved"]
    assert data["format"] == "cardtable-record" and data["version"] == 1
    assert data["seats"] == [{"kind": "human", "name": "Ann"},
                             {"kind": "bot", "name": "heuristic"}]
    assert data["actions"][0] == [state.history[0][0], str(state.history[0][1])]
    assert data["result"] == {"winners": state.winners, "scores": state.scores}
    assert data["created"].endswith("Z") and data["start"] is None


def good_record() -> dict[str, Any]:
    state = random_game(cardtable.new_game("sequence"), 9)
    return records.record_of(state).to_json()


# every refusal of a bad record, with its message: tests/test_refusals.py


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read it"),
    ("{not json", "not a JSON file"),
    ("[1, 2]", "a record is a JSON object, not list"),
])
def test_unreadable_files_are_explained(tmp_path: Path, content: str | None,
                                        message: str) -> None:
    file = tmp_path / "x.json"
    if content is not None:
        file.write_text(content)
    with pytest.raises(RecordError, match=re.escape(message)):
        records.load(file)
    result = CliRunner().invoke(main, ["play", "--resume", str(file)])
    assert result.exit_code == 2 and message in result.output


def test_a_finished_game_cannot_be_resumed(tmp_path: Path) -> None:
    file = tmp_path / "done.json"
    file.write_text(json.dumps(good_record()))
    result = CliRunner().invoke(main, ["play", "--resume", str(file)])
    assert result.exit_code == 2 and "that game is over" in result.output


def test_simulate_saves_records_that_replay(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", "sequence", "-n", "3", "--seed", "4",
                                       "--save-records", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("sequence-*.json"))
    assert [f.name for f in files] == [f"sequence-0000{k}.json" for k in (1, 2, 3)]
    for file in files:
        record: Record = records.load(file)
        assert record.finished and records.replay(record).is_terminal
