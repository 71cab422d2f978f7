"""Move events (``state.last_event``): what each kind of move tells, as data.

The conformance playouts check every event of every configuration (hands add up, nothing
hidden is told); these cases pin the public part of the rarer moves.
"""

from __future__ import annotations

import random

import cardtable
from cardtable import State


def play_until(state: State, phase: str, rng: random.Random) -> None:
    while state.view(None)["phase"] != phase:
        state.apply(rng.choice(state.legal_actions()))


def test_a_passed_out_deal_is_told_and_the_new_hands_go_to_their_seats() -> None:
    state = cardtable.new_game("drawbridge").deal(seed=4)
    rng = random.Random(1)
    play_until(state, "auction", rng)
    dealer = state.current_player
    assert dealer is not None
    state.apply("pass")
    first = state.last_event
    assert first is not None and first.phase == "auction" and first.public == {"call": "pass"}
    state.apply("pass")
    event = state.last_event
    assert event is not None and event.seat == 1 - dealer
    assert event.public["passed_out"] is True
    assert event.public["deal"]["contract"] is None and event.public["deal"]["points"] == [0, 0]
    assert event.public["new_deal"] == {"deal_number": 2, "dealer": 1 - dealer}
    for seat in (0, 1):
        assert event.private[seat]["dealt"] == state.view(seat)["hand"]
        assert "dealt" not in event.for_seat(1 - seat) or (
            event.for_seat(1 - seat)["dealt"] != event.private[seat]["dealt"])
    assert "dealt" not in event.for_seat(None)


def test_the_auction_ends_in_a_contract_and_draw_tricks_tell_who_drew() -> None:
    game = cardtable.new_game("drawbridge", show_stock_top=True)
    state = game.deal(seed=2)
    top = state.view(None)["stock_top"]
    state.apply(state.legal_actions()[0])
    lead = state.last_event
    assert lead is not None and lead.phase == "draw" and set(lead.public) == {"card"}
    state.apply(state.legal_actions()[0])
    trick = state.last_event
    assert trick is not None
    winner = trick.public["trick"]["winner"]
    assert trick.public["drew"] == [winner, 1 - winner]
    assert trick.public["took"] == [winner, top]  # it lay face up (1.3)
    assert trick.private[winner] == {"drawn": [top]}
    assert len(trick.private[1 - winner]["drawn"]) == 1
    play_until(state, "auction", random.Random(3))
    state.apply("1NT")
    state.apply("double")
    state.apply("pass")
    event = state.last_event
    assert event is not None and event.public["contract"]["strain"] == "NT"
    assert event.public["contract"]["doubled"] == 1


def test_sequence_events_name_the_chip_the_removal_and_the_sequence() -> None:
    game = cardtable.new_game("sequence")
    state = game.setup(hands=[["JS", "2H", "3H", "4H", "5H", "6H", "7S"],
                              ["JH", "2D", "3D", "4D", "5D", "6D", "7D"]],
                       chips={"c1": 0, "d1": 0, "e1": 0, "f1": 0, "b2": 0, "a2": 1},
                       current=0, seed=1)
    state.apply("7S g1")
    event = state.last_event
    assert event is not None
    assert event.public["card"] == "7S" and event.public["cell"] == "g1"
    assert event.public["chip"] == 0
    assert event.public["sequences"] == [[0, ["c1", "d1", "e1", "f1", "g1"]]]
    assert event.public["drew"] == 1 and len(event.private[0]["drawn"]) == 1
    assert "over" not in event.public
    state.apply("JH b2")
    removal = state.last_event
    assert removal is not None and removal.public["removed"] == 0
    assert "chip" not in removal.public


def test_going_out_shows_the_melds_and_the_round_end_every_hand() -> None:
    game = cardtable.new_game("threethirteen")
    state = game.setup(round=1, dealer=1, hands=[["3S", "3H", "4C"], ["5S", "9H", "KD"]],
                       stock=["3D", "2C", "2D"], discard=["QC"], seed=3)
    state.apply("draw")
    drew = state.last_event
    assert drew is not None and drew.public == {"drew": True}
    assert drew.private == {0: {"drawn": ["3D"]}}
    state.apply("discard 4C")
    out = state.last_event
    assert out is not None and out.public["went_out"] == 0
    assert sorted(out.public["melds"][0]) == ["3D", "3H", "3S"]
    state.apply("take")
    took = state.last_event
    assert took is not None and took.public == {"took": "4C"}
    state.apply("discard KD")
    end = state.last_event
    assert end is not None and end.public["round_over"]["round"] == 1
    assert end.public["scores"] == state.view(None)["scores"]
    assert end.public["new_round"]["round"] == 2
    assert {s: p["dealt"] for s, p in end.private.items()} == {
        s: state.view(s)["hand"] for s in (0, 1)}


def test_a_state_read_back_or_resampled_has_no_last_event() -> None:
    state = cardtable.new_game("sequence").deal(seed=5)
    assert state.last_event is None
    state.apply(state.legal_actions()[0])
    assert state.last_event is not None
    assert cardtable.state_from_dict(state.to_dict()).last_event is None
    assert state.resample(1, random.Random(0)).last_event is None
    assert state.clone().last_event == state.last_event


def test_describe_gives_a_front_end_the_board_the_teams_and_the_phases() -> None:
    from cardtable.sequence import BOARD

    info = cardtable.new_game("sequence", players=6, teams=3).describe()
    assert info["board"] == [list(row) for row in BOARD]
    assert info["teams"] == [0, 1, 2, 0, 1, 2] and info["num_teams"] == 3
    assert info["phases"] == ["play"]
    bridge = cardtable.new_game("drawbridge").describe()
    assert bridge["phases"] == ["draw", "auction", "play"] and bridge["board"] is None
    assert bridge["exports"] == ["pbn"] and info["exports"] == []
    rummy = cardtable.new_game("threethirteen").describe()
    assert rummy["wild_ranks"] == list("3456789TJQK")  # 3.2: threes wild in round 1
    # the page's house rule: Draw Bridge's tables start with undertricks, the engine not
    assert bridge["house_rules"] == {"undertricks": True}
    assert bridge["options"]["undertricks"] is False
    assert info["house_rules"] == {} == rummy["house_rules"]


def test_views_say_which_cards_are_dead_and_which_discards_go_out() -> None:
    seq = cardtable.new_game("sequence").setup(
        hands=[["2S", "3S", "4H", "5H", "6H", "7H", "8H"],
               ["2D", "3D", "4D", "5D", "6D", "7D", "8D"]],
        chips={"b1": 0, "g9": 1, "c1": 1}, current=1, seed=2)
    # 2S's two cells (b1, g9) are covered, one of 3S's (c1) only; not only on one's turn
    assert seq.view(0)["dead_cards"] == ["2S"] and seq.view(1)["dead_cards"] == []
    assert seq.view(None)["dead_cards"] == []
    rummy = cardtable.new_game("threethirteen").setup(
        round=1, dealer=1, hands=[["3S", "3H", "4C"], ["5S", "9H", "KD"]],
        stock=["3D", "2C", "2D"], discard=["QC"], seed=3)
    assert rummy.view(0)["going_out"] == []  # to draw first
    rummy.apply("draw")
    # threes wild in round 1: any discard leaves a meld of three (4C with two wilds)
    assert sorted(rummy.view(0)["going_out"]) == ["3D", "3H", "3S", "4C"]
    assert rummy.view(1)["going_out"] == []
    rummy.apply("discard 4C")
    assert rummy.view(1)["going_out"] == []  # someone went out: nobody else can
