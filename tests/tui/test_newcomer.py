"""What a newcomer tripped over at the terminal table (issue 20), each driven through
Textual's pilot as a person would: focus, chips without colour, 12 players at 80x24,
Three Thirteen's rounds, Draw Bridge's keys and tricks, typing moves, hints, quitting."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Footer, RichLog

import cardtable
from cardtable import records
from cardtable.tui.app import Banner, MoveInput, PlayApp, ReplayApp
from cardtable.tui.drawbridge import DrawBridgePane
from cardtable.tui.look import spell
from cardtable.tui.sequence import SequencePane, chip_mark
from cardtable.tui.threethirteen import ThreeThirteenPane
from tests.tui.driver import SIZE, message, new_app, screen_text, settle, type_move


def log_lines(app: PlayApp) -> list[str]:
    return [line.text for line in app.query_one("#log", RichLog).lines]


def box(app: PlayApp) -> MoveInput:
    return app.query_one("#move", MoveInput)


# -- focus -------------------------------------------------------------------


def test_tab_keeps_the_focus_visible_and_never_traps_the_keys(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            pane = app.pane
            assert isinstance(pane, SequencePane)
            assert app.focused is pane
            assert screen_text(app).splitlines()[1].startswith("▌")  # the table's gold bar
            for _ in range(6):
                await pilot.press("tab")
                # the focus is on the table or in the move box, never on the log
                assert app.focused in (pane, box(app))
                if app.focused is box(app):
                    assert not screen_text(app).splitlines()[1].startswith("▌")
            await pilot.press("tab")  # into the box; Escape always leads back
            assert app.focused is box(app)
            await pilot.press("escape")
            assert app.focused is pane
            row = pane.row
            await pilot.press("down")
            assert pane.row == (row + 1) % 10, "the arrows do nothing after Tab"
            assert not app.query_one("#log", RichLog).can_focus
    asyncio.run(run())


# -- Sequence chips, the side panel -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("size, no_color", [((80, 24), False), ((160, 50), False),
                                             ((80, 24), True)])
def test_sequence_teams_differ_by_letter_and_glyph_not_only_colour(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int],
        no_color: bool) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")

    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=4, players=3)  # three teams
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            for _ in range(4):
                await type_move(pilot, str(app.state.legal_actions()[0]))
                await settle(app, pilot)
            board = app.pane.view["board"]
            text = screen_text(app)
            for team in range(3):
                chips = sum(row.count(team) for row in board)
                assert chips > 0
                marks = text.count(chip_mark(team)) + text.count("◆" + "BGR"[team])
                # every chip on the board shows its team's mark (the seats panel and the
                # log show it too)
                assert marks >= chips + 1, (team, chips, marks)
            assert chip_mark(0) != chip_mark(1) != chip_mark(2)
    asyncio.run(run())


def test_twelve_players_at_80x24_keep_the_whole_side_panel_in_view(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=3, players=12)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            for seat in range(1, 12):
                assert f"Bot {seat} " in text, f"Bot {seat} is cut off"
            assert "Draw pile" in text and "Turn " in text
            last = log_lines(app)[-1]
            assert last.strip() and last in text, "the log is off screen"
            # the news since the person's last turn stays on one line, "your move" under it
            assert "your move" in text
    asyncio.run(run())


def test_twelve_players_of_three_thirteen_at_80x24_keep_the_hand_in_view(
        tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "threethirteen", seed=3, players=12)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            for seat in range(1, 12):
                assert f"Bot {seat} " in text
            hand = app.pane.view["hand"]
            assert "Your hand" in text and all(spell(card) in text for card in hand)
            assert "d: draw from the stock" in text and "your move" in text
    asyncio.run(run())


# -- Three Thirteen ---------------------------------------------------------


@pytest.mark.slow
def test_three_thirteen_shows_every_hand_at_a_rounds_end_and_marks_no_dealt_card_new(
        tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "threethirteen", seed=11, players=3, aces="both")
        async with app.run_test(size=SIZE) as pilot:
            pane = app.pane
            assert isinstance(pane, ThreeThirteenPane)
            await settle(app, pilot)
            for _ in range(60):
                if isinstance(app.screen, Banner):
                    break
                await pilot.press("d")
                await settle(app, pilot)
                if isinstance(app.screen, Banner):
                    break
                await pilot.press("1", "enter")
                await settle(app, pilot)
            assert isinstance(app.screen, Banner), "no word of the round's end"
            last = app.state.view(0)["last_round"]
            assert last["round"] == 1
            report = str(app.screen.text)
            for seat in range(3):
                assert app.seat_name(seat) in report
                assert f"+{last['scores'][seat]}" in report
                for card in last["melds_shown"][seat]["deadwood"]:
                    assert spell(card) in report
            await pilot.press("enter")
            await settle(app, pilot)
            assert app.state.view(0)["round"] == 2
            assert app.human_to_move() == 0
            assert pane.fresh is None and " new" not in screen_text(app)
    asyncio.run(run())


def test_three_thirteen_enter_plays_a_draw_hint(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "threethirteen", seed=2, players=2)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert app.pane.view["phase"] == "draw"
            await pilot.press("h")
            await settle(app, pilot)
            hinted = app.pane.hinted
            assert hinted in ("draw", "take") and "Enter plays it" in message(app)
            before = len(app.state.history)
            await pilot.press("enter")
            await settle(app, pilot)
            assert str(app.state.history[before][1]) == hinted
    asyncio.run(run())


@pytest.mark.parametrize("game", ["sequence", "drawbridge", "threethirteen"])
def test_a_hint_leaves_the_status_line_once_a_move_is_made(tmp_path: Path, game: str) -> None:
    async def run() -> None:
        app = new_app(tmp_path, game, seed=6)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("h")
            await settle(app, pilot)
            assert "hint:" in screen_text(app)
            # the estimate says what it is the chance of: Draw Bridge's match, else the game
            of = "match" if game == "drawbridge" else "game"
            assert f"% chance to win the {of})" in message(app)
            before = len(app.state.history)
            await pilot.press("enter")  # plays the hint
            await settle(app, pilot)
            assert len(app.state.history) > before
            assert app.pane.note == "" and app.pane.hinted is None
            assert "hint:" not in screen_text(app) and "Hint:" not in message(app)
    asyncio.run(run())


# -- Draw Bridge ------------------------------------------------------------


def test_draw_bridge_number_keys_choose_cards_and_are_shown(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "drawbridge", seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            pane = app.pane
            assert isinstance(pane, DrawBridgePane) and app.human_to_move() == 0
            numbers = screen_text(app).splitlines()
            assert any(line.strip("▌ ").split()[:9] == [str(k) for k in range(1, 10)]
                       for line in numbers if line.strip()), "no numbers under the hand"
            legal = [i for i, c in enumerate(pane.hand[:9]) if c in pane.legal]
            index = legal[-1]
            await pilot.press(str(index + 1))
            assert pane.card_index == index
            card = pane.hand[index]
            before = len(app.state.history)
            await pilot.press("enter")
            await settle(app, pilot)
            assert str(app.state.history[before][1]) == card
    asyncio.run(run())


@pytest.mark.slow
def test_draw_bridge_says_who_won_a_trick_and_starts_the_play_with_no_old_trick(
        tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "drawbridge", seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            # the person plays the draw phase and the auction through the move box
            rng = random.Random(3)
            seen_winner = False
            while app.state.view(0)["phase"] != "play":
                legal = [str(a) for a in app.state.legal_actions()]
                move = "pass" if "pass" in legal else rng.choice(legal)
                await type_move(pilot, move)
                await settle(app, pilot)
                if any("won the trick" in line for line in log_lines(app)):
                    seen_winner = True
            assert seen_winner, "the log never said who won a trick"
            view = app.pane.view
            assert view["phase"] == "play" and not sum(view["tricks_won"])
            if not view["trick"]:  # the person leads the first trick of the play
                last = next(line for line in screen_text(app).splitlines()
                            if "last trick:" in line)
                assert "won by" not in last and not set("♠♥♦♣") & set(last), last
    asyncio.run(run())


# -- typing moves -------------------------------------------------------------


@pytest.mark.slow
def test_the_log_and_the_board_spell_cards_alike(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            for _ in range(3):
                await type_move(pilot, str(app.state.legal_actions()[0]))
                await settle(app, pilot)
            for line, (_seat, action) in zip(reversed(log_lines(app)),
                                            reversed(app.state.history), strict=False):
                assert line.endswith(spell(str(action)))
            assert not any(w[:1] == "T" and w[1:] in ("S", "H", "D", "C")
                           for line in log_lines(app) for w in line.split())
    asyncio.run(run())


@pytest.mark.slow
def test_typed_moves_complete_cycle_and_clear(tmp_path: Path) -> None:
    async def run() -> None:
        app = new_app(tmp_path, "sequence", seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            legal = [str(a) for a in app.state.legal_actions()]
            assert "4D e3" in legal and "4D j8" in legal
            await pilot.press("colon", "4", "D", "space", "tab")
            assert box(app).value == "4D e3"
            await pilot.press("tab")
            assert box(app).value == "4D j8", "Tab does not go on to the next cell"
            await pilot.press("tab")
            assert box(app).value == "4D e3"
            await pilot.press("escape")
            # a card the player does not hold: said first
            hand = app.pane.view["hand"]
            other = next(c for c in ("KH", "KS", "QC", "2D") if c not in hand)
            await type_move(pilot, f"{other} a1")
            assert f"you do not hold {spell(other)}" in message(app)
            assert box(app).value == "" and app.focused is app.pane
            # a refused move leaves an empty box: the next ':' starts afresh
            await type_move(pilot, "4d z9")
            assert message(app).startswith("✗ ") and box(app).value == ""
            await pilot.press("colon")
            assert box(app).value == ""
            before = len(app.state.history)
            await pilot.press("4", "d", "space", "tab", "enter")
            await settle(app, pilot)
            assert str(app.state.history[before][1]) == "4D e3"
    asyncio.run(run())


# -- quitting, replay ---------------------------------------------------------


def test_ctrl_q_says_where_the_game_is_saved(tmp_path: Path) -> None:
    async def run() -> str | None:
        app = new_app(tmp_path, "sequence", seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+q")
        return app.return_value
    said = asyncio.run(run())
    assert said and said.startswith(f"The game is saved in {tmp_path / 'sequence.json'}")


def test_the_replay_footer_offers_only_its_own_keys() -> None:
    rng = random.Random(1)
    state = cardtable.new_game("sequence").deal(seed=1)
    for _ in range(10):
        state.apply(rng.choice(state.legal_actions()))
    record = records.record_of(state)

    async def run() -> None:
        app = ReplayApp(record)
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            keys = {b.binding.description for b in app.screen.active_bindings.values()
                    if b.binding.show}
            assert {"next", "back", "start", "end", "quit", "rules"} <= keys
            assert not keys & {"play card", "dead card", "pass", "hint", "type a move"}
            footer = screen_text(app).splitlines()[-1]
            assert "end" in footer and "play card" not in footer
            assert app.query_one(Footer)
            await pilot.press("end")
            assert app.index == len(app.states) - 1
    asyncio.run(run())




def test_a_server_tables_hint_is_played_by_enter_and_leaves_after_a_move() -> None:
    from cardtable.table import Seat as TableSeat
    from cardtable.table import Table as GameTable
    from cardtable.tui.remote import RemoteApp

    table = GameTable.new(cardtable.new_game("sequence"),
                          [TableSeat("person", "Tess", {}), TableSeat("bot", "random", {})],
                          seed=5)
    summary = {"game": "sequence", "options": dict(table.state.game.options),
               "seats": [{"seat": 0, "kind": "person", "name": "Tess", "bot": None},
                         {"seat": 1, "kind": "bot", "name": None, "bot": "random"}]}
    sent: list[dict[str, Any]] = []

    async def run() -> None:
        app = RemoteApp("http://127.0.0.1:9", "T", 0, "token", summary)  # messages by hand

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        async def offline() -> None:
            return None

        app.send = send  # type: ignore[method-assign]
        app.connection = offline  # type: ignore[method-assign]
        async with app.run_test(size=SIZE) as pilot:
            app.receive({"type": "welcome", "version": 0, "view": table.view(0)})
            move = table.view(0)["legal"][-1]
            app.receive({"type": "hint", "move": move, "win_probability": 0.5,
                         "estimate_of": "game"})
            await pilot.pause()
            assert "Enter plays it" in message(app)
            assert "(a 50% chance to win the game)" in message(app)  # as at a local table
            await pilot.press("enter")
            await pilot.pause()
            assert sent[-1]["type"] == "move" and sent[-1]["move"] == move
            table.play(0, move)
            app.receive({"type": "event", "version": 1, "seat": 0, "move": move,
                         "view": table.view(0)})
            await pilot.pause()
            assert app.pane.hinted is None and "hint:" not in screen_text(app)
    asyncio.run(run())
