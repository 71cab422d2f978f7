"""Whole Sequence games played through the UI with keys, clicks and typed notation."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from cardtable import bots, records
from cardtable.tui.app import Curtain, GameOver, PlayApp
from cardtable.tui.look import spell
from cardtable.tui.sequence import LABEL, SequencePane, cell_of
from tests.tui.driver import SIZE, message, new_app, settle, type_move


async def play_with_keys(pilot: Pilot[Any], pane: SequencePane, move: str) -> None:
    """A number key picks the card, arrows walk the cursor to its cell, Enter plays."""
    words = move.split()
    if move == "pass":
        await pilot.press("p")
        return
    if words[0] == "dead":
        await pilot.press(str(pane.hand.index(words[1]) + 1), "x")
        return
    key = str(pane.hand.index(words[0]) + 1)
    await pilot.press(key)
    row, col = cell_of(words[1]) or (0, 0)
    for _ in range(2):  # the card's key again walks through its cells
        if (pane.row, pane.col) != (row, col):
            await pilot.press(key)
    while pane.row != row:
        await pilot.press("down" if pane.row < row else "up")
    while pane.col != col:
        await pilot.press("right" if pane.col < col else "left")
    await pilot.press("enter")


async def play_with_mouse(pilot: Pilot[Any], pane: SequencePane, move: str) -> None:
    """Click the card in the hand, then click its cell on the board."""
    words = move.split()
    if len(words) != 2 or words[0] == "dead":
        await type_move(pilot, move)
        return
    index = pane.hand.index(words[0])
    x0, _, _, _ = next(span for span in pane.hand_spans if span[3] == index)
    width, tall = pane.geometry()
    left, top = pane.content_region.x - pane.region.x, pane.content_region.y - pane.region.y
    await pilot.click(pane, offset=(left + x0 + 1, top + 10 * tall + 2))
    assert pane.picked == words[0]
    row, col = cell_of(words[1]) or (0, 0)
    await pilot.click(pane, offset=(left + LABEL + width * col + 2, top + 1 + row * tall))


async def play_a_game(tmp_path: Path, players: int, seed: int) -> PlayApp:
    app = new_app(tmp_path, "sequence", seed=seed, players=players)
    advisor = bots.make("heuristic", seed=seed)  # the person plays well: shorter games
    async with app.run_test(size=SIZE) as pilot:
        pane = app.pane
        assert isinstance(pane, SequencePane)
        await settle(app, pilot)
        turn = 0
        while not app.state.is_terminal:
            assert app.human_to_move() == 0, "the app waits for someone else"
            legal = [str(a) for a in app.state.legal_actions()]
            assert sorted(pane.legal) == sorted(legal)
            before = len(app.state.history)
            move = str(advisor.choose(app.state))
            driver = (play_with_keys, play_with_mouse, None)[turn % 3]
            if driver is None:
                await type_move(pilot, move)
            else:
                await driver(pilot, pane, move)
            await settle(app, pilot)
            assert app.state.history[before] == (0, app.state.game.actions[
                app.state.parse_action(move).id]), f"{move} was not played"
            turn += 1
        assert isinstance(app.screen, GameOver)
        await pilot.press("q")
    assert app.return_value and "cardtable replay" in app.return_value
    return app


@pytest.mark.slow  # a whole game through the screen
def test_a_person_plays_whole_games_against_bots(tmp_path: Path) -> None:
    for players, seed in ((2, 3),):
        app = asyncio.run(play_a_game(tmp_path, players, seed))
        record = records.load(tmp_path / "sequence.json")
        assert record.finished and record.seats[0] == records.Seat("human", "You")
        assert records.replay(record).to_dict() == app.state.to_dict()


def test_illegal_moves_are_explained_in_the_games_words(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=11)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            before = app.state.to_dict()
            await pilot.press("p")
            assert "pass: you may pass only when you have no legal play" in message(app)
            await type_move(pilot, "7H z9")
            assert "not a cell" in message(app)
            await pilot.press("escape")
            pane = app.pane
            assert isinstance(pane, SequencePane)
            card = pane.hand[0]
            await pilot.press("1")
            free = next(f"{'abcdefghij'[c]}{r + 1}" for r in range(10) for c in range(10)
                        if f"{'abcdefghij'[c]}{r + 1}" not in pane.targets(card)
                        and (r, c) not in ((0, 0), (0, 9), (9, 0), (9, 9)))
            await type_move(pilot, f"{card} {free}")
            assert message(app).startswith("✗ ")
            assert app.state.to_dict() == before
    asyncio.run(run())


def test_the_hint_key_points_at_a_legal_move(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("h")
            await settle(app, pilot)
            text = message(app)
            assert text.startswith("Hint: ")
            shown = text.split("Hint: ")[1].split(" (")[0]
            assert shown in [spell(str(a)) for a in app.state.legal_actions()]
            move = str(app.state.parse_action(shown))  # the screen's spelling is notation too
            if len(move.split()) == 2 and cell_of(move.split()[1]):
                before = len(app.state.history)
                await pilot.press("enter")  # the hint's card and cell are ready to play
                await settle(app, pilot)
                assert str(app.state.history[before][1]) == move
    asyncio.run(run())


@pytest.mark.slow
def test_hot_seat_hides_hands_between_people(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", humans=[0, 1], seed=2, players=2)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            for _ in range(4):
                seat = app.state.current_player
                assert isinstance(app.screen, Curtain), "no curtain between two people"
                assert app.pane.view["hand"] == [], "a hand shows behind the curtain"
                await pilot.press("enter")
                await settle(app, pilot)
                assert app.viewer == seat and len(app.pane.view["hand"]) == 7
                await type_move(pilot, str(app.state.legal_actions()[0]))
                await settle(app, pilot)
                assert app.state.current_player != seat
    asyncio.run(run())
