"""A long record replays at once: the first screen does not wait for every position."""

from __future__ import annotations

import asyncio
import random

import pytest

import cardtable
from cardtable import records
from cardtable.core import Action, State
from cardtable.tui.app import ReplayApp
from tests.tui.driver import SIZE, message


def random_record(name: str = "drawbridge", **options: object) -> records.Record:
    state = cardtable.new_game(name, **options).deal(seed=1)
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return records.record_of(state)


def moves_before_first_screen(record: records.Record, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many moves the replay applies before its first screen (a count, not a time, so
    that a loaded machine cannot fail it); then it still reaches the record's last move."""
    applied = 0
    apply = State.apply

    def counting_apply(self: State, action: Action | str | int) -> None:
        nonlocal applied
        applied += 1
        apply(self, action)

    monkeypatch.setattr(State, "apply", counting_apply)

    async def run() -> int:
        app = ReplayApp(record, pace=0.05)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            before = applied
            assert "Move 0/" in message(app)
            await pilot.press("end", "left")
            assert app.index == len(record.actions) - 1
            await pilot.press("q")
        return before

    return asyncio.run(run())


def test_a_long_record_shows_its_first_screen_without_replaying_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    long = random_record(target=300)
    assert len(long.actions) > 20_000
    # it used to copy the position after every one of the 30,000 moves first (over a minute)
    assert moves_before_first_screen(long, monkeypatch) < 1_000


def test_positions_are_worked_out_from_the_nearest_copy() -> None:
    record = random_record("sequence")
    expected = [s.to_dict() for s in records.positions(record)]
    positions = records.Positions(record, every=7)
    rng = random.Random(2)
    for index in [0, 1, 2, 30, 29, 7, 8, len(expected) - 1, 3] + [
            rng.randrange(len(expected)) for _ in range(30)]:
        assert positions[index].to_dict() == expected[index]
    assert len(positions) == len(expected)
