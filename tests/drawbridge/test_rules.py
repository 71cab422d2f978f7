"""Draw Bridge rules (RULES.md section 1) stated as data: positions, legal moves, outcomes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardtable
from cardtable import IllegalActionError, OptionsError, PositionError
from cardtable.cards import CARD_NAMES
from cardtable.drawbridge import score_deal
from tests.drawbridge.positions import (
    auction_position,
    deal,
    deal_position,
    game,
    hand,
    legal,
    play,
)

ALL_BIDS = [f"{level}{s}" for level in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
SPADES = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
HEARTS = [c[0] + "H" for c in SPADES]
DIAMONDS = [c[0] + "D" for c in SPADES]
CLUBS = [c[0] + "C" for c in SPADES]


def in_card_order(cards: list[str]) -> list[str]:
    """Cards as hands and legal moves list them: suits S H D C, ranks A 2 .. K."""
    return sorted(cards, key=CARD_NAMES.index)


# ---------------------------------------------------------------- 1.1 options


def test_default_options() -> None:
    assert game().options == {"players": 2, "target": 100, "show_stock_top": False,
                              "follow_suit_in_draw": False, "draw_trick_winner": "highest",
                              "undertricks": False}
    assert game().num_players == 2
    assert game().num_distinct_actions == 52 + 38


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 3}, "players=3"),
    ({"players": 1}, "players=1"),
    ({"players": True}, "players"),
    ({"target": 0}, "at least 1"),
    ({"target": -5}, "at least 1"),
    ({"target": True}, "target"),
    ({"target": "100"}, "target"),
    ({"target": 50.0}, "target"),
    ({"show_stock_top": 1}, "show_stock_top"),
    ({"follow_suit_in_draw": "yes"}, "follow_suit_in_draw"),
    ({"draw_trick_winner": "lowest"}, "'highest', 'suit-led'"),
    ({"draw_trick_winner": "HIGHEST"}, "draw_trick_winner"),
    ({"undertricks": None}, "undertricks"),
    ({"trumps": True}, "no option 'trumps'"),
])
def test_bad_options_are_clear_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        game(**options)


@pytest.mark.parametrize("options", [
    {"target": 1}, {"target": 500}, {"show_stock_top": True}, {"follow_suit_in_draw": True},
    {"draw_trick_winner": "suit-led"}, {"undertricks": True}, {"players": 2},
])
def test_good_options_are_kept(options: dict[str, Any]) -> None:
    g = game(**options)
    for key, value in options.items():
        assert g.options[key] == value


# ---------------------------------------------------------------- setup positions


def test_setup_gives_the_start_of_a_deal() -> None:
    s = deal_position([SPADES, HEARTS], DIAMONDS + CLUBS, dealer=1, scores=[20, 30])
    assert s.phase == "draw"
    assert s.current_player == 0  # the non-dealer leads
    assert s.view(0)["hand"] == in_card_order(SPADES)
    assert s.view(0)["stock_size"] == 26
    assert s.scores == [20, 30]
    assert s.view(None)["deal_number"] == 1
    assert s.history == []


def test_setup_omitted_keys_come_from_the_seed() -> None:
    g = game()
    a, b = g.setup(seed=11), g.setup(seed=11)
    assert a.to_dict() == b.to_dict()
    s = g.setup(hands=[SPADES, HEARTS], seed=4)
    assert sorted(s._all_cards()) == list(range(52))
    s = g.setup(stock=SPADES + HEARTS, seed=4)
    assert set(s.view(0)["hand"]) | set(s.view(1)["hand"]) == set(DIAMONDS + CLUBS)


@pytest.mark.parametrize(("position", "message"), [
    ({"hands": [SPADES, SPADES]}, "AS appears 2 times"),
    ({"hands": [SPADES, HEARTS[:12]]}, "seat 1 holds 12 cards"),
    ({"hands": [SPADES]}, "2 card lists"),
    ({"hands": [SPADES, HEARTS], "stock": DIAMONDS + CLUBS[:12]}, "stock holds 25"),
    ({"hands": [SPADES, HEARTS], "stock": DIAMONDS + CLUBS[:12] + ["AS"]}, "AS appears 2"),
    ({"hands": [SPADES, ["1X"] + HEARTS[1:]]}, "not a card"),
    ({"dealer": 2}, "dealer must be a seat"),
    ({"scores": [100, 0]}, "below the target"),
    ({"scores": [-1, 0]}, "scores"),
    ({"scores": [0]}, "scores"),
    ({"current": 0}, "no key 'current'"),
])
def test_setup_rejects_inconsistent_positions(position: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        game().setup(**position)


# ---------------------------------------------------------------- 1.2 dealing


def test_first_dealer_is_random_and_the_deal_is_thirteen_each() -> None:
    dealers = set()
    for seed in range(20):
        s = game().deal(seed=seed)
        v = s.view(None)
        dealers.add(v["dealer"])
        assert v["hand_sizes"] == [13, 13]
        assert v["stock_size"] == 26
        assert s.current_player == 1 - v["dealer"]
        assert sorted(s._all_cards()) == list(range(52))
    assert dealers == {0, 1}


def test_same_seed_same_match() -> None:
    a, b = game().deal(seed=5), game().deal(seed=5)
    rng = random.Random(1)
    for _ in range(300):
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action.id)
    assert a.to_dict() == b.to_dict()


def test_dealing_alternates_after_a_played_deal_and_after_a_passed_out_one() -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    play(s, "pass pass")  # passed out: the other player deals
    assert s.view(None)["dealer"] == 1
    assert s.view(None)["deal_number"] == 2
    assert s.phase == "draw"
    assert s.current_player == 0
    assert s.scores == [0, 0]
    rng = random.Random(2)
    while s.view(None)["deal_number"] == 2:
        s.apply(rng.choice(s.legal_actions()))
    assert s.is_terminal or s.view(None)["dealer"] == 0


# ---------------------------------------------------------------- 1.3 the draw phase


def test_non_dealer_leads_and_need_not_follow_suit() -> None:
    s = deal_position([SPADES, HEARTS], DIAMONDS + CLUBS, dealer=0)
    assert s.current_player == 1
    assert legal(s) == in_card_order(HEARTS)  # any card
    s.apply("5H")
    assert s.current_player == 0
    assert sorted(legal(s)) == sorted(SPADES)  # no obligation to follow suit


@pytest.mark.parametrize(("lead", "follow", "winner"), [
    ("5H", "9S", 0),  # higher rank wins whatever the suit
    ("9H", "5S", 1),
    ("9H", "9S", 1),  # ruling: equal ranks, the card led wins
    ("KH", "AS", 0),  # ace high
    ("AH", "KS", 1),
    ("2H", "3S", 0),  # two low
    ("5H", "6H", 0),
])
def test_draw_trick_highest_rank_wins(lead: str, follow: str, winner: int) -> None:
    s = deal_position([[follow], [lead]], ["AD", "KD"], dealer=0)  # seat 1 leads
    play(s, f"{lead} {follow}")
    # the winner takes the top stock card (AD), the loser the next one (KD); the winner leads
    assert "AD" in hand(s, winner) and "KD" in hand(s, 1 - winner)
    assert s.current_player == winner
    assert s.view(None)["stock_size"] == 24


@pytest.mark.parametrize(("lead", "follow", "winner"), [
    ("5H", "9S", 1),  # another suit never wins
    ("9H", "TH", 0),  # the highest of the suit led wins
    ("KH", "AS", 1),
    ("2H", "AH", 0),
])
def test_draw_trick_suit_led_option(lead: str, follow: str, winner: int) -> None:
    s = deal_position([[follow], [lead]], ["AD", "KD"], dealer=0, draw_trick_winner="suit-led")
    play(s, f"{lead} {follow}")
    assert "AD" in hand(s, winner) and "KD" in hand(s, 1 - winner)


def test_draws_are_automatic_and_seen_only_by_the_drawer() -> None:
    s = deal_position([SPADES, HEARTS], DIAMONDS + CLUBS, dealer=0)
    play(s, "AH 2S")  # seat 1 wins, takes AD; seat 0 takes KD
    assert s.view(1)["drawn"] == ["AD"]
    assert s.view(0)["drawn"] == ["KD"]
    assert "AD" not in json.dumps(s.view(0))
    assert "KD" not in json.dumps(s.view(1))
    assert "AD" not in json.dumps(s.view(None)) and "KD" not in json.dumps(s.view(None))
    assert s.view(0)["stock_top"] is None
    assert s.view(0)["played"] == [[1, "AH"], [0, "2S"]]
    assert s.view(0)["hand_sizes"] == [13, 13]


def test_show_stock_top_shows_the_winners_card_only() -> None:
    s = deal_position([SPADES, HEARTS], DIAMONDS + CLUBS, dealer=0, show_stock_top=True)
    assert s.view(0)["stock_top"] == "AD" and s.view(1)["stock_top"] == "AD"
    assert s.view(None)["stock_top"] == "AD"
    s.apply("AH")
    assert s.view(0)["stock_top"] == "AD"  # face up during the whole trick
    s.apply("2S")
    assert s.view(0)["stock_top"] == "QD"
    assert s.view(0)["shown_draws"] == [[1, "AD"]]
    assert "KD" not in json.dumps(s.view(1))  # the loser's card stays hidden


def test_follow_suit_in_draw_option() -> None:
    s = deal_position([["2H", "3H"] + SPADES[:11], ["AH", "KH", "QH"] + CLUBS[:10]], DIAMONDS,
                      dealer=0, follow_suit_in_draw=True)
    s.apply("AH")
    assert legal(s) == ["2H", "3H"]
    with pytest.raises(IllegalActionError, match=r"AS: must follow suit.*you hold hearts"):
        s.apply("AS")
    s.apply("3H")
    s.apply("KH")  # seat 1 won and leads again
    s.apply("2H")
    s.apply("QH")
    assert len(legal(s)) == 13  # no heart left (diamonds drawn): any card


def test_draw_phase_has_thirteen_tricks_then_the_auction_with_thirteen_cards_each() -> None:
    s = deal(9)
    rng = random.Random(9)
    for _ in range(26):
        assert s.phase == "draw"
        s.apply(rng.choice(s.legal_actions()))
    v = s.view(None)
    assert v["phase"] == "auction"
    assert v["stock_size"] == 0
    assert v["hand_sizes"] == [13, 13]
    assert v["tricks_won"] == [0, 0]  # draw-phase tricks never score
    assert len(v["played"]) == 26
    assert len(s.view(0)["drawn"]) == 13 and len(s.view(1)["drawn"]) == 13
    assert s.current_player == v["dealer"]  # 1.4: the dealer calls first


# ---------------------------------------------------------------- 1.4 the auction


def test_opening_calls_are_every_bid_and_pass() -> None:
    s = auction_position([SPADES, HEARTS], dealer=1)
    assert s.current_player == 1
    assert legal(s) == ALL_BIDS + ["pass"]


def test_strains_rank_clubs_diamonds_hearts_spades_no_trump() -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    s.apply("2H")
    assert legal(s) == ["2S", "2NT"] + ALL_BIDS[10:] + ["pass", "double"]
    with pytest.raises(IllegalActionError, match="2D: a bid must be higher than the last bid, 2H"):
        s.apply("2D")
    with pytest.raises(IllegalActionError, match="2H: a bid must be higher"):
        s.apply("2H")


def test_double_and_redouble() -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    with pytest.raises(IllegalActionError, match="double: you may double only right after"):
        s.apply("double")
    with pytest.raises(IllegalActionError, match="redouble: you may redouble only"):
        s.apply("xx")
    s.apply("1S")
    assert legal(s) == ALL_BIDS[4:] + ["pass", "double"]
    s.apply("x")
    assert legal(s) == ALL_BIDS[4:] + ["pass", "redouble"]  # only the doubled bidder redoubles
    s.apply("redouble")
    assert legal(s) == ALL_BIDS[4:] + ["pass"]
    with pytest.raises(IllegalActionError, match="double: the last bid is already doubled"):
        s.apply("double")


def test_a_new_bid_cancels_a_double_and_redouble() -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    play(s, "1S x xx 2C pass")
    assert s.view(None)["contract"] == {"level": 2, "strain": "C", "doubled": 0, "declarer": 1}


@pytest.mark.parametrize(("calls", "contract"), [
    ("1C pass", (1, "C", 0, 0)),
    ("1C x pass", (1, "C", 1, 0)),
    ("1C x xx pass", (1, "C", 2, 0)),
    ("1C 1S pass", (1, "S", 0, 1)),
    ("1C 1S 2C 2S 3NT x pass", (3, "NT", 1, 0)),
    ("pass 1H pass", (1, "H", 0, 1)),  # the dealer's opening pass does not end the auction
    ("1S 2S pass", (2, "S", 0, 1)),  # the last bid is the contract and its bidder declares
    ("7NT x xx pass", (7, "NT", 2, 0)),
])
def test_auction_ends_when_a_pass_follows_a_call(calls: str, contract: tuple[Any, ...]) -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    for call in calls.split()[:-1]:
        s.apply(call)
        assert s.phase == "auction"
    s.apply("pass")
    level, strain, doubled, declarer = contract
    v = s.view(None)
    assert v["phase"] == "play"
    assert v["contract"] == {"level": level, "strain": strain, "doubled": doubled,
                             "declarer": declarer}
    names = {"x": "double", "xx": "redouble"}
    assert v["auction"] == [[i % 2, names.get(c, c)] for i, c in enumerate(calls.split())]
    assert s.current_player == 1 - declarer  # 1.5: the declarer's opponent leads


def test_two_passes_pass_the_deal_out() -> None:
    s = auction_position([SPADES, HEARTS], dealer=1, scores=[10, 20])
    play(s, "pass pass")
    v = s.view(None)
    assert v["deal_number"] == 2 and v["dealer"] == 0 and v["phase"] == "draw"
    assert s.scores == [10, 20]
    assert v["last_deal"] == {"deal_number": 1, "contract": None, "declarer_tricks": 0,
                              "points": [0, 0]}
    assert [str(a) for _, a in s.history[-2:]] == ["pass", "pass"]


def test_calls_are_not_cards_and_cards_are_not_calls() -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    assert s.parse_action("2S").id == 52 + 5 + 3  # during the auction 2S is the bid
    with pytest.raises(IllegalActionError, match="QH: the auction is on"):
        s.apply("QH")
    play(s, "2S pass")
    assert s.parse_action("2S").id == CARD_NAMES.index("2S")  # in play it is the card
    with pytest.raises(IllegalActionError, match="pass: this is the play phase"):
        s.apply("pass")


@pytest.mark.parametrize(("text", "notation"), [
    ("p", "pass"), ("PASS", "pass"), ("x", "double"), ("Double", "double"), ("xx", "redouble"),
    ("1n", "1NT"), ("3nt", "3NT"), ("7N", "7NT"), ("2s", "2S"), ("dbl", "double"),
])
def test_call_notation_aliases(text: str, notation: str) -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    assert str(s.parse_action(text)) == notation


def test_bad_notation_is_an_illegal_action() -> None:
    s = auction_position([SPADES, HEARTS], dealer=0)
    for text in ["8NT", "0C", "1X", "", "passs"]:
        with pytest.raises(IllegalActionError, match="not Draw Bridge notation"):
            s.parse_action(text)


# ---------------------------------------------------------------- 1.5 the play phase


def test_play_follow_suit_and_trumps() -> None:
    s = auction_position([SPADES[:5] + HEARTS[:4] + DIAMONDS[:4],
                          SPADES[5:9] + HEARTS[4:9] + CLUBS[:4]], dealer=0)
    play(s, "1H pass")  # seat 0 declares in hearts; seat 1 leads
    assert s.current_player == 1
    assert len(legal(s)) == 13  # the lead is free
    s.apply("9S")
    assert legal(s) == ["AS", "TS", "JS", "QS", "KS"]
    with pytest.raises(IllegalActionError, match="AH: must follow suit: you hold spades"):
        s.apply("AH")
    with pytest.raises(IllegalActionError, match="AC: you do not hold AC"):
        s.apply("AC")
    s.apply("TS")  # the highest card of the suit led wins
    assert s.view(None)["tricks_won"] == [1, 0]
    assert s.current_player == 0  # the winner leads
    s.apply("AD")
    assert len(legal(s)) == 12  # seat 1 has no diamond: any card
    s.apply("6H")  # a trump wins
    assert s.view(None)["tricks_won"] == [1, 1]
    s.apply("AC")
    s.apply("KH")  # a trump on a club
    assert s.view(None)["tricks_won"] == [2, 1]
    s.apply("KD")
    s.apply("JC")  # a discard does not win
    assert s.view(None)["tricks_won"] == [3, 1]
    s.apply("QD")
    s.apply("7H")
    assert s.view(None)["tricks_won"] == [3, 2]
    s.apply("8H")
    assert legal(s) == ["AH", "JH", "QH"]
    s.apply("JH")  # the highest trump wins
    assert s.view(None)["tricks_won"] == [4, 2]


def test_no_trump_has_no_trumps() -> None:
    s = auction_position([SPADES[:5] + HEARTS[:4] + DIAMONDS[:4],
                          SPADES[5:9] + HEARTS[4:9] + CLUBS[:4]], dealer=0)
    play(s, "1NT pass 9S TS AD 6H")
    assert s.view(None)["tricks_won"] == [2, 0]


# ---------------------------------------------------------------- 1.6 scoring


@pytest.mark.parametrize(("args", "points"), [
    ((2, "S", 1, 9), (180, 0)),  # the rule's example
    ((3, "NT", 0, 10), (130, 0)),  # the rule's example
    ((1, "C", 0, 7), (20, 0)),
    ((1, "D", 0, 13), (140, 0)),  # every trick over six counts, bid or not
    ((1, "H", 0, 8), (60, 0)),
    ((4, "S", 0, 10), (120, 0)),
    ((1, "NT", 0, 7), (40, 0)),
    ((7, "NT", 0, 13), (220, 0)),
    ((2, "H", 2, 8), (240, 0)),
    ((1, "NT", 2, 7), (160, 0)),
    ((1, "NT", 1, 8), (140, 0)),
    ((4, "S", 0, 9), (0, 0)),  # a failed contract scores nothing
    ((7, "NT", 2, 0), (0, 0)),
])
def test_score_deal(args: tuple[Any, ...], points: tuple[int, int]) -> None:
    assert score_deal(*args) == points


@pytest.mark.parametrize(("args", "points"), [
    ((4, "S", 0, 9), (0, 50)),
    ((4, "S", 1, 9), (0, 100)),
    ((4, "S", 2, 9), (0, 200)),
    ((7, "C", 0, 3), (0, 500)),
    ((4, "S", 0, 10), (120, 0)),  # made: no undertricks
])
def test_score_deal_undertricks_option(args: tuple[int, str, int, int],
                                       points: tuple[int, int]) -> None:
    assert score_deal(*args, undertricks=True) == points


@pytest.mark.parametrize(("args", "message"), [
    ((0, "S", 0, 7), "level"), ((8, "S", 0, 7), "level"), ((True, "S", 0, 7), "level"),
    ((1, "Z", 0, 7), "strain"), ((1, 3, 0, 7), "strain"), ((1, "S", 3, 7), "doubled"),
    ((1, "S", -1, 7), "doubled"), ((1, "S", 0, 14), "tricks"), ((1, "S", 0, -1), "tricks"),
    ((1, "S", 0, 7, "no"), "undertricks"),
])
def test_score_deal_rejects_bad_input(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_deal(*args)


def test_score_deal_accepts_lower_case_and_n() -> None:
    assert score_deal(3, "nt", 0, 9) == score_deal(3, "N", 0, 9) == (100, 0)


def two_spades_doubled(**options: Any) -> cardtable.State:
    """Declarer (seat 0) holds nine top spades and four low hearts; seat 1 the top hearts."""
    s = auction_position([SPADES[:9] + ["2H", "3H", "4H", "5H"],
                          ["AH", "KH", "QH", "JH"] + DIAMONDS[:9]], dealer=0, **options)
    play(s, "2S x pass")
    play(s, "AH 2H KH 3H QH 4H JH 5H")  # four heart tricks to the defender
    play(s, "AD AS")  # a trump wins; declarer then runs the spades
    for spade, diamond in zip(SPADES[1:9], DIAMONDS[1:9], strict=True):
        play(s, f"{spade} {diamond}")
    return s


def test_a_made_contract_scores_every_trick_over_six() -> None:
    s = two_spades_doubled(target=1000)
    assert s.scores == [180, 0]  # 3 x 30 x 2
    v = s.view(None)
    assert v["last_deal"] == {"deal_number": 1, "contract": {"level": 2, "strain": "S",
                              "doubled": 1, "declarer": 0}, "declarer_tricks": 9,
                              "points": [180, 0]}
    assert v["deal_number"] == 2 and v["dealer"] == 1 and v["phase"] == "draw"
    assert v["tricks_won"] == [0, 0] and v["contract"] is None and v["auction"] == []


def test_a_failed_contract_scores_nothing_or_undertricks() -> None:
    hands = [SPADES[:9] + ["2H", "3H", "4H", "5H"], ["AH", "KH", "QH", "JH"] + DIAMONDS[:9]]
    cases: list[tuple[dict[str, Any], list[int]]] = [
        ({}, [0, 0]), ({"undertricks": True}, [0, 100])]
    for options, scores in cases:
        s = auction_position(hands, dealer=0, **options)
        play(s, "4S x pass AH 2H KH 3H QH 4H JH 5H AD AS")
        for spade, diamond in zip(SPADES[1:9], DIAMONDS[1:9], strict=True):
            play(s, f"{spade} {diamond}")
        assert s.scores == scores  # 4S doubled, 9 tricks: one down


# ---------------------------------------------------------------- 1.7 the end


def test_reaching_the_target_ends_the_match() -> None:
    s = two_spades_doubled(target=180)
    assert s.is_terminal
    assert s.current_player is None
    assert s.winners == [0]
    assert s.returns() == [1.0, -1.0]
    assert s.legal_actions() == []
    assert s.view(None)["phase"] == "over"
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply("AS")


def test_passing_the_target_from_earlier_scores_ends_the_match() -> None:
    hands = [SPADES[:9] + ["2H", "3H", "4H", "5H"], ["AH", "KH", "QH", "JH"] + DIAMONDS[:9]]
    s = auction_position(hands, dealer=0, scores=[0, 99], undertricks=True)
    play(s, "4S pass AH 2H KH 3H QH 4H JH 5H AD AS")
    for spade, diamond in zip(SPADES[1:9], DIAMONDS[1:9], strict=True):
        play(s, f"{spade} {diamond}")
    assert s.scores == [0, 149]
    assert s.winners == [1]  # the defender's undertricks reach the target


def test_below_the_target_the_match_goes_on() -> None:
    s = two_spades_doubled(target=181)
    assert not s.is_terminal
    assert s.winners == []
    assert s.returns() == [0.0, 0.0]


# ---------------------------------------------------------------- views and resampling


def test_view_keys_and_legal_actions_only_for_the_seat_to_act() -> None:
    s = deal_position([SPADES, HEARTS], DIAMONDS + CLUBS, dealer=0)
    v0, v1 = s.view(0), s.view(1)
    for key in ("hand", "hand_sizes", "stock_size", "phase", "dealer", "current_player",
                "legal", "auction", "contract", "trick", "played", "tricks_won",
                "scores", "target", "stock_top", "drawn", "deal_number"):
        assert key in v0
    assert v0["legal"] == [] and len(v1["legal"]) == 13
    assert s.view(None)["hand"] == [] and s.view(None)["legal"] == []
    s.apply("KH")
    assert s.view(0)["trick"] == [[1, "KH"]]
    with pytest.raises(OptionsError, match="seat must be"):
        s.view(2)


def test_resample_from_the_auction_on_is_the_true_deal() -> None:
    rng = random.Random(4)
    for seed in range(6):
        s = deal(seed, follow_suit_in_draw=seed % 2 == 0, show_stock_top=seed % 3 == 0)
        while s.phase == "draw":
            s.apply(rng.choice(s.legal_actions()))
        for _ in range(rng.randrange(8)):
            if s.phase == "draw":
                break
            s.apply(rng.choice(s.legal_actions()))
        for seat in (0, 1):
            other = s.resample(seat, rng)
            assert [other.view(x)["hand"] for x in (0, 1)] == [s.view(x)["hand"]
                                                              for x in (0, 1)]


def test_resample_keeps_the_suits_the_opponent_could_not_follow() -> None:
    # seat 0 leads AS and seat 1, holding no spade, plays a heart: under follow_suit_in_draw
    # seat 1 held no spade then, so any spade it holds later came from a draw
    hands = [["AS"] + DIAMONDS[:12], HEARTS]
    s = deal_position(hands, CLUBS, dealer=1, follow_suit_in_draw=True)
    play(s, "AS 2H")
    rng = random.Random(0)
    for _ in range(40):
        other = s.resample(0, rng)
        dealt = other._deal_start[2][1]  # seat 1's dealt hand, as a mask
        assert dealt & 0x1FFF == 0, "seat 1 was dealt a spade"
    # without the option the same play shows nothing
    s = deal_position(hands, CLUBS, dealer=1)
    play(s, "AS 2H")
    assert any(s.resample(0, rng)._deal_start[2][1] & 0x1FFF for _ in range(40))


def test_resample_keeps_shown_stock_tops_with_whoever_took_them() -> None:
    s = deal_position([SPADES, HEARTS], DIAMONDS + CLUBS, dealer=1, show_stock_top=True)
    play(s, "2S AH")  # seat 1 wins and takes the shown AD
    rng = random.Random(1)
    for _ in range(20):
        other = s.resample(0, rng)
        assert "AD" in hand(other, 1)
        assert other.view(0) == s.view(0)


def test_played_cards_were_in_the_players_hand_in_every_resample() -> None:
    s = deal(12, follow_suit_in_draw=True)
    rng = random.Random(12)
    for _ in range(15):
        s.apply(rng.choice(s.legal_actions()))
    for seat in (0, 1):
        for _ in range(10):
            other = s.resample(seat, rng)  # replays the deal: an impossible deal would raise
            assert other.view(seat) == s.view(seat)
