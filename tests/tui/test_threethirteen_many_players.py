"""Three Thirteen with 12 players (RULES.md 3.1) fits the terminal table at 80x24: in round
11 every card of the hand, 14 after drawing, is on screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import cardtable
from cardtable.tui import table as tui_table
from cardtable.tui.app import PlayApp
from cardtable.tui.threethirteen import ThreeThirteenPane
from tests.tui.driver import SIZE, settle


def test_twelve_players_round_eleven_shows_the_whole_hand(tmp_path: Path) -> None:
    game = cardtable.new_game("threethirteen", players=12)
    assert game.decks == 4  # type: ignore[attr-defined]
    state = game.setup(round=11, seed=3, dealer=11)
    seats = [tui_table.Seat("person", "You")] + [
        tui_table.bot_seat("random", 0.05) for _ in range(11)]
    table = tui_table.Table(state, seats, bot_seed=1)
    app = PlayApp(table, pace=0)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            await settle(app, pilot)
            pane = app.pane
            assert isinstance(pane, ThreeThirteenPane)
            assert len(pane.view["hand"]) == 14
            assert sorted(index for *_, index in pane.hand_spans) == list(range(14))
            bottom = pane.hand_y + max(row for _, _, row, _ in pane.hand_spans)
            assert bottom < pane.content_region.height, "the hand runs off the screen"
            await pilot.press("q")

    asyncio.run(run())
