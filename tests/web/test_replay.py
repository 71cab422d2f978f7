"""The replay of a finished game (cardtable.web.replay): every position of each game, as the
engine replays the record, with every hand open and the move event that led to it."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable import records
from cardtable.web.replay import replay_json

GAMES = [("sequence", {}), ("drawbridge", {"target": 1}), ("threethirteen", {})]


def finished_record(name: str, options: dict[str, object], seed: int) -> records.Record:
    state = cardtable.new_game(name, **options).deal(seed)
    start = state.clone()
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return records.record_of(state, start=start)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_replay_is_the_record_position_by_position(name: str,
                                                       options: dict[str, object]) -> None:
    record = finished_record(name, options, seed=7)
    got = replay_json(record)
    positions = got["positions"]
    assert len(positions) == len(record.actions) + 1
    assert got["result"] == record.result and got["game"] == name
    assert positions[0]["event"] is None
    for (number, state), shown in zip(enumerate(records.positions(record)), positions,
                                      strict=True):
        assert shown["number"] == number
        assert shown["view"] == state.view(None, history=False)
        assert shown["hands"] == [state.view(s, history=False).get("hand")
                                  for s in range(len(record.seats))]
        if number:
            seat, move = record.actions[number - 1]
            assert (shown["event"]["seat"], shown["event"]["move"]) == (seat, move)
            assert set(shown["event"]) == {"seat", "move", "phase", "public"}   # nobody's own
    assert positions[-1]["view"]["is_terminal"]
    # every hand is open: a seat's cards are there even where the spectator sees none
    assert any(hand for p in positions for hand in p["hands"])


def test_a_game_in_play_is_not_replayed() -> None:
    state = cardtable.new_game("sequence").deal(3)
    start = state.clone()
    state.apply(state.legal_actions()[0])
    with pytest.raises(records.RecordError, match="finished"):
        replay_json(records.record_of(state, start=start))


def test_a_finished_draw_bridge_game_is_reviewed_deal_by_deal() -> None:
    from cardtable.web.replay import review_json

    record = finished_record("drawbridge", {"target": 1}, seed=3)
    got = review_json(record)
    assert got["game"] == "drawbridge" and got["deals"]
    for deal in got["deals"]:
        assert {"deal_number", "par", "contract", "tricks_lost", "chance_lost",
                "mistakes"} <= set(deal)
        assert len(deal["tricks_lost"]) == 2 and min(deal["tricks_lost"]) >= 0
    # the review the terminal prints (cardtable review --json) is the same
    from cardtable.drawbridge.review import review

    assert got["deals"] == [d.to_json() for d in review(records.positions(record))]
    assert review_json(finished_record("sequence", {"players": 3}, seed=3)) == {
        "game": "sequence", "deals": []}   # no network for three players
