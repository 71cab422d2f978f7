"""A whole Draw Bridge match played through the UI: cards and calls by keys, mouse and typing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import RichLog

from cardtable import records
from cardtable.tui.app import GameOver, PlayApp
from cardtable.tui.drawbridge import BOX, BOX_CELL, OTHER_CELL, DrawBridgePane
from tests.tui.driver import SIZE, message, new_app, screen_text, settle, type_move


def choose_move(app: PlayApp, rng: random.Random) -> str:
    """A person's move: low bids, so that the contracts are short."""
    legal = [str(a) for a in app.state.legal_actions()]
    if app.pane.view["phase"] == "auction":
        bids = [m for m in legal if m[0].isdigit() and m[0] in "12"]
        return bids[0] if bids and not app.pane.view["auction"] else "pass"
    return rng.choice(legal)


async def with_keys(pilot: Pilot[Any], pane: DrawBridgePane, move: str) -> None:
    if pane.bidding:
        row = next(r for r, calls in enumerate(BOX) if move in calls)
        while pane.box_row != row:
            await pilot.press("down" if pane.box_row < row else "up")
        while BOX[pane.box_row][pane.box_col] != move:
            await pilot.press("right")
    else:
        while pane.hand[pane.card_index] != move:
            await pilot.press("right")
    await pilot.press("enter")


async def with_mouse(pilot: Pilot[Any], pane: DrawBridgePane, move: str) -> None:
    left, top = pane.content_region.x - pane.region.x, pane.content_region.y - pane.region.y
    if pane.bidding:
        row = next(r for r, calls in enumerate(BOX) if move in calls)
        width = BOX_CELL if row < 7 else OTHER_CELL
        x, y = 2 + width * BOX[row].index(move) + 1, pane.box_y + row
    else:
        x0, _, _, _ = next(s for s in pane.hand_spans if pane.hand[s[3]] == move)
        x, y = x0 + 1, pane.hand_y
    await pilot.click(pane, offset=(left + x, top + y))


async def play_match(tmp_path: Path) -> PlayApp:
    # every deal that is not passed out scores for someone, so the match is one deal long
    app = new_app(tmp_path, "drawbridge", seed=7, target=1, undertricks=True)
    rng = random.Random(7)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.pane
        assert isinstance(pane, DrawBridgePane)
        await settle(app, pilot)
        turn = 0
        while not app.state.is_terminal:
            assert app.human_to_move() == 0
            move = choose_move(app, rng)
            before = len(app.state.history)
            driver = (with_keys, with_mouse, None)[turn % 3]
            if driver is None:
                await type_move(pilot, move)
            else:
                await driver(pilot, pane, move)
            await settle(app, pilot)
            assert str(app.state.history[before][1]) == move, (move, message(app))
            turn += 1
        assert isinstance(app.screen, GameOver)
        await pilot.press("q")
    return app


@pytest.mark.slow  # a whole game through the screen
def test_a_person_plays_a_whole_match(tmp_path: Path) -> None:
    app = asyncio.run(play_match(tmp_path))
    record = records.load(tmp_path / "drawbridge.json")
    assert record.finished and records.replay(record).to_dict() == app.state.to_dict()


def test_a_call_out_of_turn_is_explained(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "drawbridge", seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert app.pane.view["phase"] == "draw"
            await type_move(pilot, "1NT")
            assert message(app).startswith("✗ ") and "1NT" in message(app)
    asyncio.run(run())


def trick_notes(app: PlayApp) -> list[str]:
    lines = [line.text for line in app.query_one("#log", RichLog).lines]
    return [line.strip() for line in lines if "won the trick" in line]


@pytest.mark.slow
def test_the_winner_of_every_trick_is_said_the_last_of_each_phase_too(tmp_path: Path) -> None:
    """The 13th draw trick (the auction follows) and the 13th play trick (the next deal
    follows) are announced like the others, from the view's last_trick; from the auction
    on the opponent's hand is shown, marked deduced."""
    async def run() -> None:
        app = new_app(tmp_path, "drawbridge", seed=3, target=10_000)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            pane = app.pane
            assert isinstance(pane, DrawBridgePane)

            async def until(done: Any) -> None:
                while not done():
                    assert app.human_to_move() == 0
                    legal = [str(a) for a in app.state.legal_actions()]
                    if app.state.view(0, history=False)["phase"] == "auction":
                        # one low bid, then passes: a contract, played by someone
                        move = "1C" if "1C" in legal and not app.state.view(0)["auction"] \
                            else "pass"
                    else:
                        move = legal[0]
                    await type_move(pilot, move)
                    await settle(app, pilot)

            assert "deduced:" not in screen_text(app)  # the stock hides the other hand
            await until(lambda: app.state.view(0, history=False)["phase"] != "draw")
            # from the auction on the other hand is known: shown, marked deduced (1.3)
            deduced = app.state.view(0, history=False)["deduced_hand"]
            assert "deduced:" in screen_text(app) and len(deduced) == 13
            # and a hint is exact: what the call is worth, not a sampled estimate
            await pilot.press("h")
            await settle(app, pilot)
            assert "(exact: " in message(app) and "% chance to win the match)" in message(app)
            last = app.state.view(0, history=False)["last_trick"]
            assert last["phase"] == "draw" and app.state.view(0)["phase"] == "auction"
            notes = trick_notes(app)
            assert len(notes) == 13, notes  # one per draw trick, the 13th included
            assert notes[-1] == f"{pane.player(last['winner'])} won the trick"
            assert "won by" not in screen_text(app)  # the auction shows no trick
            await until(lambda: app.state.view(0, history=False)["deal_number"] == 2)
            last = app.state.view(0, history=False)["last_trick"]
            assert last["deal_number"] == 1
            notes = trick_notes(app)
            assert last["phase"] == "play"  # seed 3: the deal is played, 13 more tricks
            assert len(notes) == 26, notes
            assert notes[-1] == f"{pane.player(last['winner'])} won the trick"
    asyncio.run(run())
