"""The terminal screenshots of docs/terminal.md: each game at 80x24, as SVG and as text.

Run from the repository: ``python -m tests.tui.screenshots`` (writes docs/screenshots/).
The games are seeded and the bots random, so the same code draws the same screens.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

from cardtable.tui.app import PlayApp
from tests.tui.driver import new_app, screen_text, settle

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZE = (80, 24)

# game -> (options, seed, moves the person makes first (chosen by a seeded random pick))
SHOTS: dict[str, tuple[dict[str, Any], int, int]] = {
    "sequence": ({"players": 2}, 3, 6),
    "drawbridge": ({}, 3, 5),
    "threethirteen": ({"players": 3}, 11, 4),
}


async def shoot(game: str, folder: Path) -> tuple[str, str]:
    options, seed, moves = SHOTS[game]
    app: PlayApp = new_app(folder, game, seed=seed, **options)
    rng = random.Random(seed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _ in range(moves):
            legal = [str(a) for a in app.state.legal_actions()]
            app.play(rng.choice(legal))
            await settle(app, pilot)
        await pilot.press("h")  # a hint, as a newcomer would ask
        await settle(app, pilot)
        await pilot.pause(0.1)
        return app.export_screenshot(title=f"cardtable play {game}"), screen_text(app)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for game in SHOTS:
            svg, text = asyncio.run(shoot(game, Path(folder)))
            (OUT / f"{game}-80x24.svg").write_text(svg, encoding="utf-8")
            lines = [line.rstrip() for line in text.splitlines()]
            (OUT / f"{game}-80x24.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"{OUT / game}-80x24.svg and .txt")


if __name__ == "__main__":
    main()
