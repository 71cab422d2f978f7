"""Replaying a record in the UI, the rules command, and the rule book the package carries."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardtable
from cardtable import CardtableError, records
from cardtable.cli import main
from cardtable.rulebook import rule_book, rules_of
from cardtable.tui.app import ReplayApp, TextScreen
from tests.tui.driver import SIZE, message


def a_record(name: str, seed: int = 1, **options: object) -> records.Record:
    rng = random.Random(seed)
    state = cardtable.new_game(name, **options).deal(seed=seed)
    start = state.clone()
    while not state.is_terminal and len(state.history) < 60:
        state.apply(rng.choice(state.legal_actions()))
    return records.record_of(state, start=start if state.seed is None else None)


def shown(app: ReplayApp) -> dict[str, Any]:
    """The view the pane shows, without the last move the app adds for it."""
    view = dict(app.pane.view)
    del view["last_move"]
    return view


@pytest.mark.slow
@pytest.mark.parametrize("name", cardtable.game_names())
def test_replay_steps_through_the_positions(name: str) -> None:
    record = a_record(name)
    expected = list(records.positions(record))

    async def run() -> None:
        app = ReplayApp(record, pace=0.05)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.index == 0 and "Move 0/" in message(app)
            await pilot.press("right", "right", "right", "left")
            assert app.index == 2
            assert shown(app) == expected[2].view(app.viewer, history=False)
            await pilot.press("v")
            assert app.viewer == 1 and shown(app) == expected[2].view(1, history=False)
            await pilot.press("end")
            assert app.index == len(expected) - 1
            assert shown(app) == expected[-1].view(1, history=False)
            await pilot.press("home", "space")
            await pilot.pause(0.3)
            await pilot.press("space")
            assert 0 < app.index < len(expected) - 1
            await pilot.press("r")
            assert isinstance(app.screen, TextScreen)
            await pilot.press("escape", "q")
    asyncio.run(run())


#: a rule's number at the start of a line: "## 1." (a game) or "1.4" (one of its rules)
RULE = re.compile(r"^(#+ \d+\.|\d+(?:\.\d+)+\.?)\s", re.M)


def numbered_rules(book: str) -> dict[str, tuple[set[str], set[str]]]:
    """Each numbered rule of a rule book: the numbers it states and its `terms` (options,
    values, notation), which a translation keeps as they are (a number it repeats, as
    "2 players or 2 teams" for "2 players or teams", counts once)."""
    parts = RULE.split(book)
    return {key.strip("# ."): (set(re.findall(r"(?<![\w.])\d+(?:[.,]\d+)*", body)),
                               set(re.findall(r"`([^`]+)`", body)))
            for key, body in zip(parts[1::2], parts[2::2], strict=True)}


def test_the_english_and_khmer_rule_books_state_the_same_rules() -> None:
    english, khmer = numbered_rules(rule_book("en")), numbered_rules(rule_book("km"))
    assert list(english) == list(khmer), "the two books number their rules differently"
    assert len(english) > 20 and {"1", "2", "3", "2.4"} <= set(english)
    for number, (numbers, terms) in english.items():
        assert khmer[number] == (numbers, terms), f"rule {number} differs in the Khmer book"


@pytest.mark.parametrize(("name", "number"), [("drawbridge", "1"), ("sequence", "2"),
                                              ("threethirteen", "3")])
def test_the_rule_book_names_every_option_of_each_game(name: str, number: str) -> None:
    rules = numbered_rules(rule_book("en"))
    terms = set().union(*(t for key, (_, t) in rules.items() if key.split(".")[0] == number))
    # (the number of players is in each game's heading)
    assert set(cardtable.new_game(name).options) - {"players"} <= terms


@pytest.mark.parametrize(("name", "section"), [
    ("drawbridge", "## 1. Draw Bridge"), ("sequence", "## 2. Sequence"),
    ("threethirteen", "## 3. Three Thirteen"),
])
def test_rules_prints_the_common_terms_and_the_games_section(name: str, section: str) -> None:
    text = rules_of(name)
    assert text.startswith("## Common terms") and section in text
    assert text.count("\n## ") == 1  # no other game's section
    result = CliRunner().invoke(main, ["rules", name])
    assert result.exit_code == 0 and section in result.output


def test_rules_of_an_unknown_game_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["rules", "chess"])
    assert result.exit_code == 2 and "'chess' is not one of" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["play"], "which game?"),
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "sequence", "--players", "5"], "choose one of 2, 3, 4, 6, 8, 9, 10, 12"),
    (["play", "sequence", "--teams", "3", "-p", "4"], "teams=3 is not allowed with 4 players"),
    (["play", "sequence", "--seat", "2"], "--seat 2: with 2 players the seats are 0 to 1"),
    (["play", "sequence", "--seat", "north"], "give a seat number"),
    (["play", "sequence", "--bots", "clever"], "'clever' is not one of"),
    (["play", "sequence", "-o", "colour=red"], "no option 'colour'"),
    (["play", "sequence", "--resume", "x.json"], "--resume takes the game"),
    (["play", "--resume", "x.json", "--level", "hard"], "--bots and --level out"),
    (["play", "sequence", "--level", "hard", "--bots", "ismcts"], "not both"),
    (["play", "sequence", "--level", "master"], "'master' is not one of"),
    (["replay", "missing.json"], "missing.json: cannot read it"),
])
def test_play_mistakes_are_explained(args: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, args + ["--no-save"] if args[0] == "play" else args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_level_a_game_lacks_is_refused_in_words(monkeypatch: Any) -> None:
    import cardtable.bots.levels as levels_module

    three = levels_module.LEVELS["threethirteen"][:3]
    monkeypatch.setitem(levels_module.LEVELS, "threethirteen", three)
    result = CliRunner().invoke(main, ["play", "threethirteen", "--level", "expert",
                                       "--no-save"])
    assert result.exit_code == 2
    assert "threethirteen has no expert level; its levels are easy, medium, hard" \
        in result.output


def test_play_picks_the_bots_by_level_as_the_web_page_does(monkeypatch: Any) -> None:
    import cardtable.cli.play as play
    from cardtable.bots.levels import levels

    picked: list[str] = []

    def table(game: Any, humans: list[int], bot_kind: str, **_: Any) -> Any:
        picked.append(bot_kind)
        raise CardtableError("stop here")

    monkeypatch.setattr(play, "new_table", table)
    for game in ("sequence", "drawbridge", "threethirteen"):
        for level in levels(game):
            CliRunner().invoke(main, ["play", game, "--level", level.name, "--no-save"])
            assert picked[-1] == level.bot
    CliRunner().invoke(main, ["play", "sequence", "--no-save"])
    assert picked[-1] == "heuristic"   # no --bots, no --level: the medium bot
    # the help says which bot each level is, game by game
    help_text = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    assert "sequence: easy (random), medium (heuristic), hard (learned), expert (blend)" \
        in help_text
    assert "threethirteen: easy (random), medium (heuristic), hard (ismcts), expert " \
        "(lookahead)" in help_text


def test_play_needs_a_terminal() -> None:
    result = CliRunner().invoke(main, ["play", "sequence", "--no-save"])
    assert result.exit_code == 2 and "run it in a terminal" in result.output
