"""The command line, run as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardtable
from cardtable.cli import main

CARDTABLE = str(Path(sys.executable).parent / "cardtable")


@pytest.mark.parametrize("name", cardtable.game_names())
def test_simulate_json_counts_every_game(name: str) -> None:
    result = CliRunner().invoke(main, ["simulate", name, "--games", "6", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 6
    assert sum(report.get("wins_by_team", report["wins_by_seat"])) + report["draws"] >= 6
    assert report["average_actions"] > 0


def test_simulate_is_reproducible_for_a_seed() -> None:
    args = ["simulate", "sequence", "--players", "4", "--games", "20", "--seed", "3", "--json"]
    runs = [json.loads(CliRunner().invoke(main, args).stdout) for _ in range(2)]
    for run in runs:
        del run["games_per_second"], run["actions_per_second"]
    assert runs[0] == runs[1]


def test_simulate_reports_teams() -> None:
    result = CliRunner().invoke(main, ["simulate", "sequence", "-p", "6", "-o", "teams=3",
                                       "-n", "5", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "team 2 wins" in result.stdout and "draws" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "sequence", "--players", "5"], "choose one of 2, 3, 4, 6, 8, 9, 10, 12"),
    (["simulate", "sequence", "-o", "colour=red"], "no option 'colour'"),
    (["simulate", "sequence", "-o", "teams"], "key=value"),
    (["simulate", "chess"], "Invalid value for 'GAME': 'chess' is not"),
    (["simulate", "sequence", "--games", "0"], "0 is not in the range"),
])
def test_user_mistakes_are_explained_without_a_traceback(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_the_installed_command_runs() -> None:
    env = {**os.environ, "COLUMNS": "100"}
    out = subprocess.run([CARDTABLE, "simulate", "sequence", "--games", "3", "--seed", "1"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "3 games of sequence" in out.stdout
    help_text = subprocess.run([CARDTABLE, "--help"], capture_output=True, text=True,
                               timeout=60).stdout
    assert "simulate" in help_text and "games" in help_text


def test_games_lists_player_counts_and_options() -> None:
    out = CliRunner().invoke(main, ["games"]).output
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert "players 2-12 (default 2)" in lines["threethirteen"]
    assert "decks=None" in lines["threethirteen"]
    assert "players 2-4, 6, 8-10, 12 (default 2)" in lines["sequence"]


def test_simulate_takes_the_decks_option_and_refuses_a_bad_count() -> None:
    ok = CliRunner().invoke(main, ["simulate", "threethirteen", "-p", "12", "-o", "decks=4",
                                   "--games", "1", "--seed", "2", "--json"])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(main, ["simulate", "threethirteen", "-p", "12", "-o", "decks=3"])
    assert bad.exit_code != 0
    assert "12 players need at least 4 decks" in bad.output


@pytest.mark.parametrize("module", ["cardtable", "cardtable.cli"])
def test_python_dash_m_runs_every_command(module: str) -> None:
    out = subprocess.run([sys.executable, "-m", module, "arena", "sequence", "--games", "2",
                          "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["games"] == 2


def test_each_command_is_a_module_of_its_own() -> None:
    import importlib

    from cardtable.cli import COMMANDS

    assert list(COMMANDS) == sorted(COMMANDS) == sorted(main.commands)
    for name in COMMANDS:
        assert importlib.import_module(f"cardtable.cli.{name}").__dict__[name] is \
            main.commands[name]


def test_simulate_prints_nothing_on_stderr_when_it_is_not_a_terminal() -> None:
    for extra in ([], ["--json"]):
        result = subprocess.run([CARDTABLE, "simulate", "sequence", "--games", "3", "--seed",
                                 "1", *extra], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stderr == "", f"stray output on stderr: {result.stderr!r}"


def test_play_save_keeps_an_existing_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text("{}", encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "sequence", "--save", str(record)])
    assert result.exit_code == 2
    assert "already exists" in result.output and f"--resume {record}" in result.output
    assert "--overwrite" in result.output
    assert record.read_text(encoding="utf-8") == "{}"
    # told to overwrite, it goes on (and stops only because this is not a terminal)
    result = CliRunner().invoke(main, ["play", "sequence", "--save", str(record),
                                       "--overwrite"])
    assert "already exists" not in result.output and "terminal" in result.output
