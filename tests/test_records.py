"""Game records: every conformance game saved, loaded and replayed; bad records explained."""

from __future__ import annotations

import importlib
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


def test_export_asks_the_game_for_its_formats() -> None:
    from cardtable.drawbridge.game import DrawBridgeState
    from cardtable.drawbridge.pbn import to_pbn

    for declaration in cardtable.declarations():     # every declared format has its exporter
        package = type(cardtable.new_game(declaration.name)).__module__.rpartition(".")[0]
        for fmt in declaration.exports:
            assert callable(getattr(importlib.import_module(f"{package}.{fmt}"), f"to_{fmt}"))
    state = random_game(cardtable.new_game("drawbridge", target=1), seed=3, moves=10_000)
    assert isinstance(state, DrawBridgeState) and state.is_terminal
    record = records.record_of(state)
    assert records.export(record, "pbn") == to_pbn(state) and '[Contract "' in to_pbn(state)
    with pytest.raises(RecordError, match="exported as json, pbn, not 'xml'"):
        records.export(record, "xml")
    sequence = records.record_of(cardtable.new_game("sequence").deal(seed=1))
    with pytest.raises(RecordError, match="Sequence records are exported as json, not 'pbn'"):
        records.export(sequence, "pbn")


def test_a_record_of_a_resigned_game_with_a_takeback_saves_loads_and_replays(
        tmp_path: Path) -> None:
    """docs/records.md, Endings and takebacks: "ending" and "undos" in the file, the
    result they give, and the replay's words ("Ann resigned")."""
    from cardtable.table import Seat, Table
    from cardtable.tui.app import ending_words

    table = Table.new(cardtable.new_game("sequence"), [Seat("person", "Ann"),
                                                       Seat("bot", "random")], seed=3)
    table.advance_bots()
    for _ in range(2):
        table.play(0, table.view(0)["legal"][0])
        table.advance_bots()
    taken = table.undo(0)
    table.end("resign", 0)
    path = records.save(table.record(), tmp_path / "resigned.json")
    data = json.loads(path.read_text())
    assert data["ending"] == {"kind": "resign", "seat": 0}
    assert data["undos"] == [{"seat": 0, "at": len(data["actions"]), "undone": taken}]
    assert taken == 2
    assert data["result"] == {"winners": [1], "scores": [0, 0], "ended": "resign", "by": 0,
                              "undos": 1}
    loaded = records.load(path)
    assert loaded.log == table.log() and not records.replay(loaded).is_terminal
    names = ["Ann", "Bot"]
    assert loaded.log.ending is not None
    assert ending_words(loaded.log.ending, names.__getitem__) == "Ann resigned"
    assert ending_words({"kind": "abort", "seat": 1}, names.__getitem__) == (
        "Bot aborted the game")
    # a record without them reads as before
    data.pop("ending"), data.pop("undos")
    data["result"] = None
    assert records.from_json(data).log.ending is None
