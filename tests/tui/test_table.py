"""The terminal's table: seats for `cardtable play`, resuming, saving; no UI in the engine."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable import OptionsError, records
from cardtable.table import Seat, Table
from cardtable.tui.table import RecordFile, new_table, record_file, resumed_table


def play_on(table: Table, rng: random.Random) -> None:
    """One move: a person's at random, or the bot's."""
    seat = table.to_act
    assert seat is not None
    if table.is_person(seat):
        table.play(seat, rng.choice(table.state.legal_actions()))
    else:
        table.play(seat, table.bot_move())


def test_a_new_table_seats_people_and_bots(tmp_path: Path) -> None:
    game = cardtable.new_game("sequence", players=4)
    table = new_table(game, [0, 2], "ismcts", seed=3, save_path=tmp_path / "g.json", think=0.5)
    assert table.seats == [Seat("person", "Player 0"), Seat("bot", "ismcts", {"seconds": 0.5}),
                           Seat("person", "Player 2"), Seat("bot", "ismcts", {"seconds": 0.5})]
    assert table.persons == [0, 2] and table.state.seed == 3
    assert table.hint_budget == {"seconds": 0.5}
    with pytest.raises(OptionsError, match="seat 4 does not exist"):
        new_table(game, [4], "random")
    with pytest.raises(OptionsError, match="unknown bot 'clever'"):
        new_table(game, [0], "clever")


def test_a_saved_game_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    table = new_table(cardtable.new_game("sequence"), [0], "random", seed=8, save_path=path)
    rng = random.Random(1)
    for _ in range(9):
        play_on(table, rng)
    again = resumed_table(records.load(path), path)
    assert again.state.to_dict() == table.state.to_dict()
    assert again.seats == table.seats and again.created == table.created
    assert list(records.load(path).actions) == table.moves  # resuming does not write
    play_on(again, rng)
    assert len(records.load(path).actions) == 10


def test_a_setup_position_resumes_from_its_start(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    start = cardtable.new_game("sequence").setup(chips={"e5": 1}, seed=2)
    table = Table(start.clone(), [Seat("person", "Ann"), Seat("person", "Bob")],
                  on_move=RecordFile(path))
    rng = random.Random(2)
    play_on(table, rng)
    play_on(table, rng)
    again = resumed_table(records.load(path), path)
    assert again.state.to_dict() == table.state.to_dict()
    assert again.record().start == start.to_dict()


def test_a_file_that_cannot_be_written_does_not_stop_the_game(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    table = new_table(cardtable.new_game("sequence"), [0], "random", seed=1,
                      save_path=tmp_path / "file" / "g.json")
    play_on(table, random.Random(1))
    saver = record_file(table)
    assert saver is not None and saver.path is None and "not saved" in saver.problem


def test_the_engine_and_the_command_line_load_no_ui() -> None:
    code = ("import sys, cardtable, cardtable.cli, cardtable.records, cardtable.table\n"
            "[cardtable.new_game(n) for n in cardtable.game_names()]\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
