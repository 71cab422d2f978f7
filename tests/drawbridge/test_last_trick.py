"""The view's ``last_trick``: the last completed trick, its cards, winner, phase and deal,
the last one of each phase included (RULES.md 1.3 and 1.5), kept across save and load."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import cardtable
from cardtable import PositionError
from cardtable.cards import CARD_NAMES
from cardtable.drawbridge.game import DrawBridgeState, TrickResult

RANKS = "23456789TJQKA"  # low to high, for the tests' own statement of who wins


def rank(card: str) -> int:
    return RANKS.index(card[0])


def other_cards(*reserved: str) -> list[str]:
    return [c for c in CARD_NAMES if c not in reserved]


def deal_with(reserved: tuple[str, str], draw_trick_winner: str, **options: Any
              ) -> DrawBridgeState:
    """Seat 0 is dealt reserved[0], seat 1 reserved[1], each with 12 more cards; seat 1
    leads the first trick (dealer 0)."""
    rest = other_cards(*reserved)
    game = cardtable.new_game("drawbridge", draw_trick_winner=draw_trick_winner,
                              target=10_000, **options)
    state = game.setup(dealer=0, seed=5, hands=[[reserved[0], *rest[:12]],
                                                 [reserved[1], *rest[12:24]]])
    assert isinstance(state, DrawBridgeState)
    return state


def play_first_legal(state: DrawBridgeState, keep: tuple[str, ...] = ()) -> str:
    """The seat to act plays its first legal card not in ``keep`` (else its first)."""
    legal = [str(a) for a in state.legal_actions()]
    card = next((c for c in legal if c not in keep), legal[0])
    state.apply(card)
    return card


def views(state: DrawBridgeState) -> list[dict[str, Any]]:
    return [state.view(seat, history=False) for seat in (None, 0, 1)]


def check_last_trick(state: DrawBridgeState, number: int, phase: str,
                     cards: list[list[Any]], winner: int) -> None:
    want = {"deal_number": number, "phase": phase, "cards": cards, "winner": winner}
    for view in views(state):  # public: every seat and the spectator see it
        assert view["last_trick"] == want
    for seat in (None, 0, 1):
        obs = state.observation(seat)
        assert obs.last_trick == TrickResult(
            number, phase, ((cards[0][0], CARD_NAMES.index(cards[0][1])),
                            (cards[1][0], CARD_NAMES.index(cards[1][1]))), winner)
    # saved and loaded, the view is the same (the save replays the deal)
    loaded = cardtable.state_from_dict(state.to_dict())
    assert [loaded.view(s) for s in (None, 0, 1)] == [state.view(s) for s in (None, 0, 1)]


def play_draw_phase(state: DrawBridgeState, reserved: tuple[str, str]) -> list[list[Any]]:
    """Twelve tricks keeping the reserved cards, then the 13th with them: its cards."""
    while state.phase == "draw":
        if state.cards_played == 24:  # the 13th draw trick: the reserved cards
            leader = state.current_player
            assert leader is not None
            state.apply(reserved[leader])
            state.apply(reserved[1 - leader])
            return [[leader, reserved[leader]], [1 - leader, reserved[1 - leader]]]
        before = state.cards_played
        seat = state.current_player
        assert seat is not None
        lead = play_first_legal(state, reserved)
        follow = play_first_legal(state, reserved)
        assert state.cards_played == before + 2
        last = state.view(None, history=False)["last_trick"]
        assert last["cards"] == [[seat, lead], [1 - seat, follow]]
        assert last["phase"] == "draw" and last["deal_number"] == 1
    raise AssertionError("the draw phase ended before its 13th trick")


# (seat 0's card, seat 1's card, draw_trick_winner, who wins: "leader" or a seat)
DRAW_CASES = [
    # a tie of ranks: the card led wins, under both rules
    (("7S", "7H"), "highest", "leader"),
    (("7S", "7H"), "suit-led", "leader"),
    # another suit, higher: it wins by rank alone, and never when the suit led counts
    (("3C", "KD"), "highest", 1),
    (("3C", "KD"), "suit-led", "leader"),
    # the ace ranks highest
    (("AC", "KC"), "highest", 0),
    (("AC", "KC"), "suit-led", 0),
]


@pytest.mark.parametrize(("reserved", "rule", "wins"), DRAW_CASES)
def test_the_last_draw_trick_is_in_the_view_with_its_winner(
        reserved: tuple[str, str], rule: str, wins: Any) -> None:
    state = deal_with(reserved, rule)
    assert state.view(None, history=False)["last_trick"] is None  # no trick yet
    cards = play_draw_phase(state, reserved)
    assert state.phase == "auction"  # the table moved on; the trick stays told
    leader = cards[0][0]
    winner = leader if wins == "leader" else wins
    check_last_trick(state, 1, "draw", cards, winner)
    # the winner took the top card of the stock (1.3): the last draw it had
    stock = state._deal_start[3]
    assert state.view(winner)["drawn"][-1] == CARD_NAMES[stock[24]]


def play_winner(lead: str, follow: str, leader: int, trump: str | None) -> int:
    """1.5 stated again for the test: the highest trump, else the highest of the suit led."""
    if follow[1] == lead[1]:
        return 1 - leader if rank(follow) > rank(lead) else leader
    return 1 - leader if follow[1] == trump else leader


@pytest.mark.parametrize("contract", ["1NT", "1S", "2H"])
def test_the_13th_play_trick_is_in_the_view_after_the_next_deal_starts(contract: str) -> None:
    state = deal_with(("7S", "7H"), "highest")
    play_draw_phase(state, ("7S", "7H"))
    state.apply(contract)  # the dealer (seat 0) bids, seat 1 passes
    state.apply("pass")
    assert state.phase == "play"
    # the draw phase's last trick is still the last trick until a play trick is done
    assert state.view(None, history=False)["last_trick"]["phase"] == "draw"
    trump = None if contract.endswith("NT") else contract[1]
    for _ in range(13):
        leader = state.current_player
        assert leader is not None
        lead = play_first_legal(state)
        follow = play_first_legal(state)
        winner = play_winner(lead, follow, leader, trump)
        cards = [[leader, lead], [1 - leader, follow]]
        if state.phase == "play":
            assert state.current_player == winner  # the winner leads the next trick
            assert state.view(None, history=False)["last_trick"]["winner"] == winner
    # the deal is scored and the next one dealt: the view moved on, the trick stays told
    assert state.phase == "draw" and state.deal_number == 2 and not state.cards_played
    check_last_trick(state, 1, "play", cards, winner)
    # a new trick replaces it
    leader = state.current_player
    assert leader is not None
    lead, follow = play_first_legal(state), play_first_legal(state)
    assert state.view(None, history=False)["last_trick"]["deal_number"] == 2
    assert state.view(None, history=False)["last_trick"]["cards"] == [[leader, lead],
                                                                      [1 - leader, follow]]


def passed_out_state() -> tuple[DrawBridgeState, list[list[Any]], int]:
    state = deal_with(("7S", "7H"), "highest")
    cards = play_draw_phase(state, ("7S", "7H"))
    state.apply("pass")
    state.apply("pass")  # passed out: deal 2 starts
    assert state.deal_number == 2 and state.phase == "draw"
    return state, cards, cards[0][0]


def test_a_passed_out_deal_leaves_its_last_draw_trick_saved_and_checked() -> None:
    state, cards, leader = passed_out_state()
    check_last_trick(state, 1, "draw", cards, leader)
    data = state.to_dict()
    assert data["deal"]["previous_trick"]["cards"] == cards
    # the record of a passed-out deal has no trick: the save's one is checked as it can be
    for change, match in [
        (lambda t: t.__setitem__("winner", 1 - t["winner"]), "winner"),
        (lambda t: t.__setitem__("phase", "play"), "must be"),
        (lambda t: t.__setitem__("deal_number", 2), "must be"),
        (lambda t: t["cards"][1].__setitem__(0, t["cards"][0][0]), "other seat"),
        (lambda t: t["cards"][1].__setitem__(1, data["records"][0]["hands"][0][0]),
         "draw phase"),
        (lambda t: t.__setitem__("cards", "7S 7H"), "cards must be"),
    ]:
        bad = copy.deepcopy(data)
        change(bad["deal"]["previous_trick"])
        with pytest.raises(PositionError, match=match):
            cardtable.state_from_dict(bad)
    # a save from before the key existed loads, not knowing the trick
    old = copy.deepcopy(data)
    del old["deal"]["previous_trick"]
    assert cardtable.state_from_dict(old).view(None)["last_trick"] is None


def test_a_played_deal_s_last_trick_is_replayed_not_read() -> None:
    state = deal_with(("7S", "7H"), "highest")
    play_draw_phase(state, ("7S", "7H"))
    state.apply("1NT")
    state.apply("pass")
    while state.deal_number == 1:
        play_first_legal(state)
    data = state.to_dict()
    saved = data["deal"]["previous_trick"]
    assert saved == state.view(None)["last_trick"] and saved["phase"] == "play"
    bad = copy.deepcopy(data)
    bad["deal"]["previous_trick"]["winner"] = 1 - saved["winner"]
    with pytest.raises(PositionError, match="previous_trick"):
        cardtable.state_from_dict(bad)
    first = copy.deepcopy(data)
    first["records"], first["deal"]["number"] = [], 1
    with pytest.raises(PositionError, match="no deal before deal 1"):
        cardtable.state_from_dict(first)


def test_resampled_worlds_and_clones_keep_the_last_trick() -> None:
    import random

    state, _, _ = passed_out_state()
    rng = random.Random(1)
    for seat in (0, 1):
        world = state.resample(seat, rng)
        assert world.observation(seat) == state.observation(seat)
    assert state.clone().view(None) == state.view(None)
