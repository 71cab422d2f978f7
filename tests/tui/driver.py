"""Drive the table app through Textual's pilot as a person would: keys, clicks, typing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

import cardtable
from cardtable.tui.app import PlayApp, TableApp
from cardtable.tui.table import new_table

SIZE = (80, 24)


def new_app(tmp_path: Path, game: str, humans: list[int] | None = None, seed: int = 1,
            bots: str = "random", **options: Any) -> PlayApp:
    """A game against random bots, bots moving without delay, saved into ``tmp_path``."""
    table = new_table(cardtable.new_game(game, **options), humans or [0], bots, seed=seed,
                      save_path=tmp_path / f"{game}.json", think=0.05)
    return PlayApp(table, pace=0)


async def settle(app: PlayApp, pilot: Pilot[Any], timeout: float = 20.0) -> None:
    """Wait until the bots have moved (or a hint came) and the screen is drawn."""
    waited = 0.0
    await pilot.pause()
    while app.busy:
        assert waited < timeout, "the app stays busy"
        await pilot.pause(0.01)
        waited += 0.01
    await pilot.pause()


async def type_move(pilot: Pilot[Any], notation: str) -> None:
    """Open the move box with ':' and type the notation in lower case, then Enter."""
    await pilot.press("colon")
    await pilot.press(*["space" if ch == " " else ch for ch in notation.lower()])
    await pilot.press("enter")


def message(app: TableApp) -> str:
    return str(app.query_one("#message").render())


def screen_text(app: PlayApp | Any) -> str:
    """The screen as plain text, line by line (what a player reads, colours aside)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)
