"""The table behind the screen: seats, bots, resuming and saving; the engine stays UI-free."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable import OptionsError, records
from cardtable.records import Seat
from cardtable.tui.table import Table


def test_a_new_table_seats_people_and_bots(tmp_path: Path) -> None:
    game = cardtable.new_game("sequence", players=4)
    table = Table.new(game, [0, 2], "random", seed=3, save_path=tmp_path / "g.json")
    assert table.seats == [Seat("human", "Player 0"), Seat("bot", "random"),
                           Seat("human", "Player 2"), Seat("bot", "random")]
    assert table.humans == [0, 2] and sorted(table.bots) == [1, 3]
    assert table.state.seed == 3 and table.label(1) == "Bot 1"
    with pytest.raises(OptionsError, match="seat 4 does not exist"):
        Table.new(game, [4], "random")
    with pytest.raises(OptionsError, match="no bot 'clever'"):
        Table.new(game, [0], "clever")


def test_a_saved_game_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    table = Table.new(cardtable.new_game("sequence"), [0], "random", seed=8, save_path=path)
    rng = random.Random(1)
    for _ in range(9):
        if table.is_human(table.state.current_player):
            table.play(rng.choice(table.state.legal_actions()))
        else:
            table.play(table.bot_choice())
    again = Table.resume(records.load(path), path)
    assert again.state.to_dict() == table.state.to_dict()
    assert again.seats == table.seats and again.created == table.created
    again.play(again.state.legal_actions()[0])
    assert len(records.load(path).actions) == 10


def test_a_setup_position_resumes_from_its_start(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    start = cardtable.new_game("sequence").setup(chips={"e5": 1}, seed=2)
    table = Table(start.clone(), [Seat("human", "Ann"), Seat("human", "Bob")], save_path=path)
    table.play(table.state.legal_actions()[0])
    table.play(table.state.legal_actions()[0])
    again = Table.resume(records.load(path), path)
    assert again.state.to_dict() == table.state.to_dict()
    assert again.record().start == start.to_dict()


def test_a_file_that_cannot_be_written_does_not_stop_the_game(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    table = Table.new(cardtable.new_game("sequence"), [0], "random", seed=1,
                      save_path=tmp_path / "file" / "g.json")
    table.play(table.state.legal_actions()[0] if table.is_human(table.state.current_player)
               else table.bot_choice())
    assert table.save_path is None and "not saved" in table.save_problem


def test_the_engine_and_the_command_line_load_no_ui() -> None:
    code = ("import sys, cardtable, cardtable.cli, cardtable.records\n"
            "[cardtable.new_game(n) for n in cardtable.game_names()]\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
