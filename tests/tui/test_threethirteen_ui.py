"""Three Thirteen through the UI: the last round from a setup position, played to the end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

import cardtable
from cardtable import records
from cardtable.table import Seat, Table
from cardtable.threethirteen import arrange
from cardtable.tui.app import GameOver, PlayApp
from cardtable.tui.table import RecordFile
from cardtable.tui.threethirteen import ThreeThirteenPane
from tests.tui.driver import SIZE, message, settle, type_move


def choose_move(state: cardtable.State, rng: random.Random) -> str:
    """Draw or take at random; discard the card that leaves the least deadwood."""
    legal = [str(a) for a in state.legal_actions()]
    if "draw" in legal:
        return rng.choice(legal)
    view = state.view(0)

    def penalty(move: str) -> int:
        rest = list(view["hand"])
        rest.remove(move.split()[1])
        return arrange(rest, view["round"])[2]

    return min(legal, key=penalty)


async def with_keys(pilot: Pilot[Any], pane: ThreeThirteenPane, move: str) -> None:
    if move in ("draw", "take"):
        await pilot.press(move[0])
        return
    index = pane.order.index(move.split()[1])
    if index < 9:
        await pilot.press(str(index + 1))
    else:
        while pane.index != index:
            await pilot.press("right")
    await pilot.press("enter")


async def with_mouse(pilot: Pilot[Any], pane: ThreeThirteenPane, move: str) -> None:
    left, top = pane.content_region.x - pane.region.x, pane.content_region.y - pane.region.y
    if move in ("draw", "take"):
        x0, _, _ = next(s for s in pane.pile_spans if s[2] == move)
        await pilot.click(pane, offset=(left + x0 + 1, top + pane.pile_y))
        return
    x0, _, row, _ = next(s for s in pane.hand_spans if pane.order[s[3]] == move.split()[1])
    await pilot.click(pane, offset=(left + x0 + 1, top + pane.hand_y + row))


async def play_last_round(tmp_path: Path, players: int, seed: int) -> PlayApp:
    game = cardtable.new_game("threethirteen", players=players)
    start = game.setup(round=11, scores=[10 * s for s in range(players)], seed=seed)
    table = Table(start, [Seat("person", "You")] + [Seat("bot", "random")] * (players - 1),
                  on_move=RecordFile(tmp_path / "tt.json"), bot_seed=seed)
    app = PlayApp(table, pace=0)
    rng = random.Random(seed)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.pane
        assert isinstance(pane, ThreeThirteenPane)
        await settle(app, pilot)
        turn = 0
        while not app.state.is_terminal:
            assert app.human_to_move() == 0
            assert sorted(pane.order) == sorted(pane.view["hand"])
            move = choose_move(app.state, rng)
            before = len(app.state.history)
            driver = (with_keys, with_mouse, None)[turn % 3]
            if driver is None:
                await type_move(pilot, move)
            else:
                await driver(pilot, pane, move)
            await settle(app, pilot)
            assert len(app.state.history) > before, (move, turn, message(app))
            assert str(app.state.history[before][1]) == move
            turn += 1
        assert isinstance(app.screen, GameOver)
        await pilot.press("q")
    return app


@pytest.mark.slow  # a whole game through the screen
def test_a_person_plays_the_last_round_to_the_end(tmp_path: Path) -> None:
    app = asyncio.run(play_last_round(tmp_path, 3, 5))
    record = records.load(tmp_path / "tt.json")
    assert record.seed is None and record.start is not None  # a setup position
    assert record.finished and records.replay(record).to_dict() == app.state.to_dict()
