"""Three Thirteen rules (RULES.md section 3) stated as data: positions, legal moves, outcomes."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable import IllegalActionError, OptionsError, PositionError
from cardtable.cards import CARD_NAMES, RANKS
from cardtable.threethirteen import ThreeThirteenState


def game(players: int = 2, **options: Any) -> cardtable.Game:
    return cardtable.new_game("threethirteen", players=players, **options)


def tt(state: cardtable.State) -> ThreeThirteenState:
    """``state``, typed as the Three Thirteen state it is."""
    assert isinstance(state, ThreeThirteenState)
    return state


def position(hands: list[str], players: int = 2, options: dict[str, Any] | None = None,
             **kwargs: Any) -> ThreeThirteenState:
    """A round's start with seat 0 to play (the last seat deals) unless told otherwise.

    ``hands`` are space-separated card lists, one per seat.
    """
    kwargs.setdefault("dealer", players - 1)
    kwargs.setdefault("seed", 1)
    state = game(players, **(options or {})).setup(hands=[h.split() for h in hands], **kwargs)
    assert isinstance(state, ThreeThirteenState)
    return state


def deal(players: int, seed: int) -> ThreeThirteenState:
    state = game(players).deal(seed=seed)
    assert isinstance(state, ThreeThirteenState)
    return state


def legal(state: cardtable.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: cardtable.State, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def draw_and_discard_it(state: ThreeThirteenState) -> None:
    """Draw from the stock and discard the card drawn: the hand stays as it was."""
    seat = state.current
    before = Counter(state.hands[seat])
    state.apply("draw")
    (card,) = (Counter(state.hands[seat]) - before).elements()
    state.apply(f"discard {CARD_NAMES[card]}")


# ---------------------------------------------------------------- options


def test_default_options() -> None:
    # options["decks"] holds the value given: None, the default of 3.1 (the count in use
    # is game.decks)
    assert game().options == {"players": 2, "aces": "low", "face_values": "ten",
                              "all_wild_melds": True, "decks": None}


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 13}, {"players": True}, {"players": "2"}, {"aces": "high"},
    {"aces": True}, {"face_values": "eleven"}, {"all_wild_melds": 1},
    {"all_wild_melds": "yes"}, {"jokers": True}])
def test_bad_options_say_what_is_allowed(options: dict[str, Any]) -> None:
    with pytest.raises(OptionsError) as err:
        cardtable.new_game("threethirteen", **options)
    assert any(word in str(err.value) for word in ("allowed", "must", "choose", "options are"))


# ---------------------------------------------------------------- 3.1 decks


@pytest.mark.parametrize(("players", "decks"), [
    (2, 1), (3, 2), (4, 2), (5, 2), (6, 3), (7, 3), (8, 3), (9, 4), (10, 4), (11, 4), (12, 4)])
def test_decks_per_player_count(players: int, decks: int) -> None:
    state = game(players).deal(seed=players)
    assert state.game.decks == decks
    assert state.game.options["decks"] is None
    assert Counter(state._all_cards()) == Counter({c: decks for c in range(52)})
    view = state.view(0)
    assert view["hand_sizes"] == [3] * players
    assert view["decks"] == decks
    assert view["stock_size"] == 52 * decks - 3 * players - 1


# 3.1: option decks, from the fewest decks with 52 x decks >= 13 x players + 1 up to 4
DECKS_ALLOWED = {2: [1, 2, 3, 4], 3: [1, 2, 3, 4], 4: [2, 3, 4], 5: [2, 3, 4], 6: [2, 3, 4],
                 7: [2, 3, 4], 8: [3, 4], 9: [3, 4], 10: [3, 4], 11: [3, 4], 12: [4]}


@pytest.mark.parametrize(("players", "decks"), [
    (p, d) for p, allowed in DECKS_ALLOWED.items() for d in allowed])
def test_option_decks_sets_the_count(players: int, decks: int) -> None:
    g = game(players, decks=decks)
    assert g.decks == decks and g.options["decks"] == decks
    state = g.deal(seed=decks)
    assert Counter(state._all_cards()) == Counter({c: decks for c in range(52)})
    assert state.view(None)["stock_size"] == 52 * decks - 3 * players - 1
    # round 11 deals 13 cards each and turns one up, whatever the count
    eleven = g.setup(round=11, seed=players)
    view = eleven.view(None)
    assert view["hand_sizes"] == [13] * players
    assert view["top_discard"] is not None
    assert view["stock_size"] == 52 * decks - 13 * players - 1


@pytest.mark.parametrize(("players", "decks"), [
    (p, d) for p, allowed in DECKS_ALLOWED.items() for d in (0, 5, -1, 1, 2, 3)
    if d not in allowed])
def test_option_decks_refused_outside_its_range(players: int, decks: int) -> None:
    with pytest.raises(OptionsError) as err:
        game(players, decks=decks)
    message = str(err.value)
    assert f"decks={decks}" in message
    low = DECKS_ALLOWED[players][0]
    assert (f"choose {low} to 4" in message or f"choose {low} or 4" in message
            or "choose 4," in message)


@pytest.mark.parametrize("value", [True, False, 2.0, "2", [2]])
def test_option_decks_is_an_integer_or_none(value: Any) -> None:
    with pytest.raises(OptionsError, match="decks must be an integer"):
        game(4, decks=value)


def test_twelve_players_need_four_decks_and_say_why() -> None:
    with pytest.raises(OptionsError) as err:
        game(12, decks=3)
    assert str(err.value) == (
        "option decks=3 is not allowed: 12 players need at least 4 decks for round 11's deal "
        "of 13 cards each and the first discard; with 12 players choose 4, or None for the "
        "default (4)")


@pytest.mark.parametrize("players", [9, 12])
def test_a_whole_match_with_many_players(players: int) -> None:
    state = tt(game(players).deal(seed=players))
    rng = random.Random(players)
    rounds_seen = {}
    while not state.is_terminal:
        if state.round not in rounds_seen:
            rounds_seen[state.round] = state.view(None)
        state.apply(rng.choice(state.legal_actions()))
    assert sorted(rounds_seen) == list(range(1, 12))
    eleven = rounds_seen[11]
    assert eleven["hand_sizes"] == [13] * players
    assert eleven["stock_size"] == 52 * 4 - 13 * players - 1
    assert len(state.winners) >= 1 and len(state.scores) == players
    again = cardtable.state_from_dict(state.to_dict())
    assert again.game.decks == 4 and again.scores == state.scores


def test_a_saved_state_keeps_the_deck_count() -> None:
    state = game(3, decks=4).deal(seed=3)
    state.apply("draw")
    data = state.to_dict()
    assert data["options"]["decks"] == 4
    again = cardtable.state_from_dict(data)
    assert again.game.decks == 4
    assert Counter(again._all_cards()) == Counter({c: 4 for c in range(52)})
    # the same cards under the default count (two decks) are refused
    data["options"]["decks"] = None
    with pytest.raises(PositionError, match="appears 4 times"):
        cardtable.state_from_dict(data)


def test_a_setup_position_may_use_a_card_as_often_as_the_decks_hold_it() -> None:
    hands = ["7C 7C 7C 9H", "2S 4S 8D 8D", "2H 4H 8C 8C"]
    state = tt(game(3, decks=3).setup(round=2, dealer=2, hands=[h.split() for h in hands],
                                      seed=1))
    assert state.hands[0].count(CARD_NAMES.index("7C")) == 3
    with pytest.raises(PositionError, match="7C"):
        game(3, decks=2).setup(round=2, dealer=2, hands=[h.split() for h in hands], seed=1)


def test_resample_keeps_every_deck() -> None:
    state = tt(game(10).deal(seed=5))
    rng = random.Random(2)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    other = tt(state.resample(state.current, rng))
    assert Counter(other._all_cards()) == Counter({c: 4 for c in range(52)})
    assert other.hands[state.current] == state.hands[state.current]


def test_identical_cards_meld_in_one_set() -> None:
    # six players, three decks: the third 7C completes a set of three identical cards
    others = ["2S 4S 8D", "2H 4H 8C", "2D 4D 8S", "2C 4C 8H", "5S 9S JD"]
    state = position(["7C 7C 9H", *others], players=6, discard=["7C"])
    play(state, "take", "discard 9H")
    assert state.went_out == 0


def test_a_card_more_often_than_the_decks_hold_is_a_position_error() -> None:
    with pytest.raises(PositionError, match="7C"):
        position(["7C 7C 9H", "2S 4S 8D"])


# ---------------------------------------------------------------- 3.2 rounds and wild cards


@pytest.mark.parametrize(("round_", "wild"), [
    (1, "3"), (2, "4"), (3, "5"), (4, "6"), (5, "7"), (6, "8"), (7, "9"), (8, "T"), (9, "J"),
    (10, "Q"), (11, "K")])
def test_each_round_deals_its_number_and_that_rank_is_wild(round_: int, wild: str) -> None:
    view = game(3).setup(round=round_, seed=round_).view(0)
    assert view["round"] == round_
    assert view["hand_sizes"] == [round_ + 2] * 3
    assert view["wild_rank"] == wild


def test_the_match_starts_with_round_one() -> None:
    view = game().deal(seed=4).view(None)
    assert (view["round"], view["wild_rank"], view["hand_sizes"]) == (1, "3", [3, 3])


def test_the_first_dealer_is_random_and_left_of_the_dealer_plays_first() -> None:
    dealers = set()
    for seed in range(40):
        view = game(4).deal(seed=seed).view(None)
        assert view["current_player"] == (view["dealer"] + 1) % 4
        dealers.add(view["dealer"])
    assert dealers == {0, 1, 2, 3}


def test_the_deal_passes_left_each_round() -> None:
    state = deal(3, 8)
    rng = random.Random(8)
    dealers = [state.dealer]
    while not state.is_terminal:
        before = state.round
        state.apply(rng.choice(state.legal_actions()))
        if state.round != before:
            dealers.append(state.dealer)
            view = state.view(None)
            assert view["hand_sizes"] == [state.round + 2] * 3
            assert view["current_player"] == (state.dealer + 1) % 3
    assert dealers == [(dealers[0] + k) % 3 for k in range(11)]


# ---------------------------------------------------------------- 3.3 the stock and discard pile


def test_after_the_deal_one_card_of_the_stock_is_turned_up() -> None:
    state = game().deal(seed=2)
    view = state.view(0)
    assert view["stock_size"] == 52 - 6 - 1
    assert len(view["discard"]) == 1 and view["top_discard"] == view["discard"][0]


def test_an_omitted_discard_pile_is_the_given_stocks_top_card() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C", "JD", "7S"])
    assert state.view(0)["discard"] == ["2C"]
    assert state.view(0)["stock_size"] == 2
    play(state, "draw")
    assert "JD" in state.view(0)["hand"]


# ---------------------------------------------------------------- 3.4 a turn


def test_draw_or_take_then_discard_any_card_even_the_one_taken() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C", "JD"], discard=["TD", "7S"])
    assert legal(state) == ["draw", "take"]
    play(state, "take")
    assert state.view(0)["hand"] == ["4H", "5H", "TD", "9C"]
    assert legal(state) == ["discard 4H", "discard 5H", "discard TD", "discard 9C"]
    play(state, "discard TD")
    assert state.view(0)["hand"] == ["4H", "5H", "9C"]
    assert state.view(0)["discard"] == ["TD", "7S"]
    assert state.current_player == 1


def test_draw_takes_the_top_of_the_stock_and_play_goes_left() -> None:
    state = position(["4H 5H 9C", "KC QD 8S", "2H 2D 6C"], players=3,
                     stock=["2C", "JD", "7S", "5S"], discard=["TD"])
    play(state, "draw", "discard 2C", "draw")
    assert state.current_player == 1
    assert state.view(1)["hand"] == ["8S", "JD", "QD", "KC"]
    play(state, "discard KC", "draw", "discard 2H")
    assert state.current_player == 0
    assert state.view(None)["discard"] == ["2H", "KC", "2C", "TD"]


def test_illegal_moves_say_why() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C"], discard=["TD"])
    with pytest.raises(IllegalActionError, match="first draw"):
        state.apply("discard 4H")
    play(state, "draw")
    with pytest.raises(IllegalActionError, match="now discard"):
        state.apply("take")
    with pytest.raises(IllegalActionError, match="do not hold 7S"):
        state.apply("discard 7S")


def test_notation_reads_lower_case_and_ten() -> None:
    state = position(["4H 5H TC", "KC QD 8S"], discard=["TD"])
    assert str(state.parse_action("DRAW")) == "draw"
    assert str(state.parse_action("discard 10c")) == "discard TC"
    assert state.parse_action("discard tc").id == state.parse_action("TC").id


def test_nothing_but_draw_take_and_discard_players_never_add_to_others_melds() -> None:
    names = {str(a).split()[0] for a in game().actions}
    assert names == {"draw", "take", "discard"}
    assert game().num_distinct_actions == 54


def test_an_empty_stock_is_remade_once_from_the_discard_pile_but_its_top_card() -> None:
    state = position(["4H 9S KD", "5C JC 2D"], stock=["7S"], discard=["TH", "8D", "AC"])
    play(state, "draw", "discard 7S")
    view = state.view(1)
    assert view["reshuffled"] is True
    assert view["discard"] == ["7S"]
    assert view["stock_size"] == 3
    assert sorted(state.stock) == sorted(CARD_NAMES.index(c) for c in ("TH", "8D", "AC"))
    assert state.round == 1 and legal(state) == ["draw", "take"]


def test_the_second_empty_stock_ends_the_round_at_once_and_scores_every_hand() -> None:
    state = position(["4H 9S KD", "5C JC 2D"], stock=["7S"], discard=["TH", "8D", "AC"],
                     scores=[3, 4])
    play(state, "draw", "discard 7S")
    for _ in range(3):  # the remade stock of three cards
        draw_and_discard_it(state)
    assert state.round == 2  # seat 0's turn found the stock empty again
    assert state.scores == [3 + 4 + 9 + 10, 4 + 5 + 10 + 2]
    last = state.view(0)["last_round"]
    assert last["round"] == 1 and last["went_out"] is None
    assert last["scores"] == [23, 17]
    assert last["melds_shown"][0] == {"melds": [], "deadwood": ["9S", "4H", "KD"],
                                      "penalty": 23}


def test_a_remade_stock_can_be_empty_then_only_take_is_legal() -> None:
    state = position(["4H 9S KD", "5C JC 2D"], stock=[], discard=["TH"])
    view = state.view(0)
    assert (view["reshuffled"], view["stock_size"], legal(state)) == (True, 0, ["take"])
    play(state, "take", "discard TH")
    assert state.round == 2  # the stock was empty a second time


def test_an_explicitly_empty_discard_pile_leaves_only_draw() -> None:
    state = position(["4H 9S KD", "5C JC 2D"], stock=["7S", "8S"], discard=[])
    assert legal(state) == ["draw"]


def test_an_empty_stock_and_an_empty_discard_pile_are_a_position_error() -> None:
    with pytest.raises(PositionError, match="empty"):
        position(["4H 9S KD", "5C JC 2D"], stock=[], discard=[])


# ---------------------------------------------------------------- 3.6 going out


def test_a_discard_leaving_melds_goes_out_and_shows_them() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C", "JD", "7S"], discard=["6H"])
    play(state, "take", "discard 9C")
    view = state.view(1)
    assert view["went_out"] == 0
    assert view["melds_shown"] == [{"melds": [["4H", "5H", "6H"]], "deadwood": []}, None]
    assert state.current_player == 1 and state.round == 1


def test_every_other_player_has_one_more_turn_then_the_round_is_scored() -> None:
    state = position(["4H 5H 9C", "KC QD 8S", "2H 2D 6C"], players=3,
                     stock=["2C", "JD", "7S", "5S"], discard=["6H"], scores=[5, 6, 7])
    play(state, "take", "discard 9C")
    assert state.current_player == 1
    play(state, "draw", "discard 2C")
    assert state.current_player == 2 and state.round == 1
    play(state, "draw", "discard 6C")
    assert state.round == 2
    assert state.scores == [5 + 0, 6 + 28, 7 + 2 + 2 + 10]
    last = state.view(0)["last_round"]
    assert last["went_out"] == 0 and last["scores"] == [0, 28, 14]
    assert last["melds_shown"][0] == {"melds": [["4H", "5H", "6H"]], "deadwood": [],
                                      "penalty": 0}
    assert last["melds_shown"][2] == {"melds": [], "deadwood": ["2H", "2D", "JD"],
                                      "penalty": 14}
    # 3.2: the next round: four cards, fours wild, the deal passed left
    view = state.view(0)
    assert (view["round"], view["wild_rank"], view["dealer"], view["current_player"]) == (
        2, "4", 0, 1)
    assert view["hand_sizes"] == [4, 4, 4]
    assert view["went_out"] is None and view["melds_shown"] == [None, None, None]


@pytest.mark.parametrize("discard", ["discard 4H", "discard 7H"])
def test_every_discard_that_allows_going_out_goes_out(discard: str) -> None:
    state = position(["4H 5H 6H", "KC QD 8S"], discard=["7H"])
    play(state, "take", discard)
    assert state.went_out == 0


def test_a_discard_that_leaves_no_full_split_does_not_go_out() -> None:
    state = position(["4H 5H 6H", "KC QD 8S"], discard=["7H"])
    play(state, "take", "discard 5H")
    assert state.went_out is None and state.current_player == 1


def test_going_out_comes_only_after_a_draw_and_discard() -> None:
    state = position(["4H 5H 6H", "KC QD 8S"], discard=["9C"])
    assert state.went_out is None
    play(state, "take")
    assert state.went_out is None
    play(state, "discard 9C")
    assert state.went_out == 0


def test_wild_cards_help_to_go_out() -> None:
    # round 1: threes are wild
    state = position(["3S 9C 9D", "KC QD 8S"], discard=["JH"])
    play(state, "take", "discard JH")
    assert state.went_out == 0
    state = position(["3S 3H 5C", "KC QD 8S"], discard=["3D"])
    play(state, "take", "discard 5C")  # three wild cards alone (all_wild_melds)
    assert state.went_out == 0
    state = position(["3S 3H 5C", "KC QD 8S"], discard=["3D"],
                     options={"all_wild_melds": False})
    play(state, "take", "discard 5C")
    assert state.went_out is None


def test_a_player_whose_last_turn_melds_fully_scores_zero_too() -> None:
    state = position(["4H 5H JC", "QC KC 8S"], discard=["6H"])
    play(state, "take", "discard JC", "take", "discard 8S")
    assert state.round == 2
    last = state.view(0)["last_round"]
    assert (last["went_out"], last["scores"]) == (0, [0, 0])
    assert last["melds_shown"][1]["melds"] == [["JC", "QC", "KC"]]


def test_the_player_who_went_out_plays_no_more_turns() -> None:
    state = position(["4H 5H 9C", "KC QD 8S", "2H 2D 6C", "AS AH 7D"], players=4,
                     stock=["2C", "JD", "7S", "5S"], discard=["6H"])
    play(state, "take", "discard 9C")
    seats = []
    while state.round == 1:
        seats.append(state.current_player)
        draw_and_discard_it(state)
    assert seats == [1, 2, 3]


def test_the_stock_is_remade_during_the_last_turns() -> None:
    state = position(["4H 5H 9C", "KC QD 8S", "2H 2D 6C"], players=3, stock=["7S"],
                     discard=["6H", "AD"])
    play(state, "take", "discard 9C")  # seat 0 goes out; the stock holds one card
    play(state, "draw", "discard 7S")  # seat 1's turn empties it
    assert state.reshuffled and state.view(2)["stock_size"] == 2
    draw_and_discard_it(state)  # seat 2 plays its last turn
    assert state.round == 2


def test_the_stock_ruling_cuts_the_last_turns_short() -> None:
    # the setup position starts with an empty stock: the round's one reshuffle is used
    state = position(["4H 5H 9C", "KC QD 8S", "2H 2D 6C"], players=3, stock=[],
                     discard=["6H", "AD"])
    assert state.reshuffled and state.view(0)["stock_size"] == 1
    play(state, "take", "discard 9C")  # seat 0 goes out
    play(state, "draw", "discard AD")  # seat 1 empties the stock
    assert state.round == 2  # seat 2's turn never comes
    assert state.view(0)["last_round"]["scores"] == [0, 28, 10]


# ---------------------------------------------------------------- 3.7 scoring


def test_each_hand_scores_its_best_split_and_totals_carry_over() -> None:
    # round 3, fives wild: seat 0 keeps 2-3-4 of spades, 9D 9H left (18); seat 1 melds
    # 7C 8C with the wild 5D, KH QS left (20)
    state = position(["2S 3S 4S 9D 9H", "7C 8C 5D KH QS"], round=3, stock=["AC", "6D"],
                     discard=["JS"], scores=[40, 50])
    play(state, "draw", "discard AC", "draw", "discard 6D")
    assert state.reshuffled and state.went_out is None  # the stock: AC and JS again
    draw_and_discard_it(state)
    assert state.view(0)["scores"] == [40, 50]  # 3.9: totals of completed rounds only
    draw_and_discard_it(state)
    assert state.round == 4
    assert state.scores == [40 + 18, 50 + 20]
    shown = state.view(0)["last_round"]["melds_shown"]
    assert shown[0] == {"melds": [["2S", "3S", "4S"]], "deadwood": ["9H", "9D"], "penalty": 18}
    assert shown[1] == {"melds": [["7C", "8C", "5D"]], "deadwood": ["QS", "KH"], "penalty": 20}


def test_an_unmelded_wild_card_counts_its_ordinary_value() -> None:
    state = position(["4H 5H 9C", "KC 3D 8S"], stock=["2C"], discard=["6H"])
    play(state, "take", "discard 9C", "draw", "discard 2C")
    # seat 1: K, 3 (wild), 8: the wild card makes no meld with K and 8 (a set needs two
    # natural cards of a rank with one wild card, a run two within reach): 10 + 3 + 8
    assert state.view(0)["last_round"]["scores"] == [0, 21]


def test_face_values_counting() -> None:
    state = position(["4H 5H 9C", "KC QD JS"], stock=["2C"], discard=["6H"],
                     options={"face_values": "counting"})
    play(state, "take", "discard 9C", "draw", "discard 2C")
    assert state.view(0)["last_round"]["scores"] == [0, 13 + 12 + 11]


@pytest.mark.parametrize(("aces", "penalty"), [("low", 1 + 9 + 8), ("both", 15 + 9 + 8)])
def test_an_unmelded_ace_costs_fifteen_when_aces_may_be_high(aces: str, penalty: int) -> None:
    state = position(["4H 5H 9C", "AC 9S 8D"], stock=["2C"], discard=["6H"],
                     options={"aces": aces})
    play(state, "take", "discard 9C", "draw", "discard 2C")
    assert state.view(0)["last_round"]["scores"] == [0, penalty]


def test_aces_both_lets_q_k_a_go_out() -> None:
    state = position(["QS KS 9C", "KC QD 8S"], discard=["AS"], options={"aces": "both"})
    play(state, "take", "discard 9C")
    assert state.went_out == 0
    state = position(["QS KS 9C", "KC QD 8S"], discard=["AS"])
    play(state, "take", "discard 9C")
    assert state.went_out is None


# ---------------------------------------------------------------- 3.9 the end

# round 11, kings wild: seat 0 holds a full run (AS..QS and a king) and goes out at once;
# seat 1's hand has no meld: hearts A 3 5 7 9 J (35), diamonds 2 4 6 8 T Q (40) and 2C
RUN = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH"
NO_MELD = "AH 3H 5H 7H 9H JH 2D 4D 6D 8D TD QD 2C"


@pytest.mark.parametrize(("scores", "totals", "winners"), [
    ([50, 40], [50, 117], [0]),
    ([100, 23], [100, 100], [0, 1]),
    ([200, 23], [200, 100], [1]),
])
def test_after_round_eleven_the_lowest_total_wins(scores: list[int], totals: list[int],
                                                  winners: list[int]) -> None:
    state = position([RUN, NO_MELD], round=11, stock=["3C"], discard=["5C"], scores=scores)
    play(state, "take", "discard 5C")
    assert state.went_out == 0
    play(state, "draw", "discard 3C")
    assert state.is_terminal and state.current_player is None
    assert state.scores == totals
    assert state.winners == winners
    assert state.returns() == [1.0 if s in winners else -1.0 for s in range(2)]
    assert state.legal_actions() == []
    assert state.view(0)["last_round"]["scores"] == [0, 77]


def test_when_all_totals_are_equal_everyone_wins() -> None:
    state = position([RUN, NO_MELD], round=11, stock=["3C"], discard=["5C"], scores=[77, 0])
    play(state, "take", "discard 5C", "draw", "discard 3C")
    assert state.winners == [0, 1] and state.returns() == [1.0, 1.0]


def test_a_whole_match_is_eleven_rounds() -> None:
    state = deal(2, 3)
    rng = random.Random(3)
    rounds = {state.round}
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        rounds.add(state.round)
    assert rounds == set(range(1, 12))
    assert state.view(None)["last_round"]["round"] == 11
    assert sum(state.view(None)["last_round"]["scores"]) >= 0


# ---------------------------------------------------------------- positions


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"hands": [["4H", "5H"], ["KC", "QD", "8S"]]}, "holds 2 cards"),
    ({"hands": [["4H", "5H", "6H"]]}, "2 card lists"),
    ({"hands": [["4H", "5H", "6H"], ["KC", "QD", "ZZ"]]}, "ZZ"),
    ({"round": 0}, "round"), ({"round": 12}, "round"), ({"round": True}, "round"),
    ({"dealer": 2}, "dealer"), ({"scores": [1]}, "scores"), ({"scores": [-1, 0]}, "scores"),
    ({"stock": "AS"}, "stock"), ({"deck": []}, "keys are"),
    ({"stock": [], "discard": []}, "empty"),
])
def test_bad_positions(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(PositionError, match=match):
        game().setup(**kwargs)


def test_omitted_keys_come_from_the_seed() -> None:
    one, two = game(3).setup(round=4, seed=9), game(3).setup(round=4, seed=9)
    assert one.to_dict() == two.to_dict()
    assert Counter(one._all_cards()) == Counter({c: 2 for c in range(52)})
    view = one.view(0)
    assert view["stock_size"] == 104 - 3 * 6 - 1 and len(view["discard"]) == 1


def test_cards_no_key_names_are_out_of_play_until_the_next_deal() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C"], discard=["6H"])
    assert state.view(0)["stock_size"] == 1
    assert len(state.out_of_play) == 52 - 8
    play(state, "take", "discard 9C", "draw", "discard 2C")
    assert state.round == 2
    assert state.view(0)["stock_size"] == 52 - 8 - 1
    assert Counter(state._all_cards()) == Counter(range(52))


def test_a_setup_position_plays_on_after_a_round_trip() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C", "JD"], discard=["6H"])
    saved = cardtable.state_from_dict(state.to_dict())
    for action in ("draw", "discard 2C", "take"):
        state.apply(action)
        saved.apply(action)
    assert saved.to_dict() == state.to_dict()


def test_a_tampered_save_is_a_position_error() -> None:
    data = game().deal(seed=1).to_dict()
    data["stock"] = data["stock"][1:]
    with pytest.raises(PositionError, match="cards"):
        cardtable.state_from_dict(data)
    data = game().deal(seed=1).to_dict()
    data["hands"][0].append(data["stock"].pop())
    with pytest.raises(PositionError, match="holds 4"):
        cardtable.state_from_dict(data)


# ---------------------------------------------------------------- views and resampling


def test_the_view_shows_what_a_seat_may_know() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C", "JD"], discard=["6H", "7S"])
    play(state, "take")
    view = state.view(0)
    assert view["hand"] == ["4H", "5H", "6H", "9C"]
    assert view["legal"] == ["discard 4H", "discard 5H", "discard 6H", "discard 9C"]
    assert view["phase"] == "discard"
    assert view["taken"] == [["6H"], []]
    assert view["discard"] == ["7S"] and view["top_discard"] == "7S"
    assert view["history"] == [[0, "take"]]
    other = state.view(1)
    assert other["hand"] == ["8S", "QD", "KC"] and other["legal"] == []
    assert other["taken"] == [["6H"], []]
    spectator = state.view(None)
    assert spectator["hand"] == [] and spectator["hand_sizes"] == [4, 3]
    assert "KC" not in str(spectator) and "JD" not in str(view)
    with pytest.raises(ValueError):
        state.view(2)


def test_a_taken_card_stays_public_until_discarded() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C", "JD"], discard=["6H", "7S"])
    play(state, "take", "discard 4H", "take", "discard 8S", "draw")
    assert state.view(1)["taken"] == [["6H"], ["4H"]]
    play(state, "discard 6H")
    assert state.view(1)["taken"] == [[], ["4H"]]


def test_resample_keeps_taken_cards_and_the_hand_shown_by_going_out() -> None:
    state = position(["4H 5H 9C", "KC QD 8S", "2H 2D 6C"], players=3,
                     stock=["2C", "JD", "7S", "5S"], discard=["6H", "AS"])
    play(state, "take", "discard 9C")  # seat 0 goes out, showing 4H 5H 6H
    play(state, "take", "discard KC")  # seat 1 takes 9C
    rng = random.Random(5)
    for _ in range(20):
        other = state.resample(2, rng)
        assert sorted(other.hands[0]) == sorted(state.hands[0])
        assert CARD_NAMES.index("9C") in other.hands[1]
        assert other.hands[2] == state.hands[2]
        assert other.view(2) == state.view(2)


def test_after_the_reshuffle_resample_keeps_the_stock_to_the_old_discard_pile() -> None:
    state = position(["4H 9S KD", "5C JC 2D"], stock=["7S"],
                     discard=["TH", "8D", "AC", "6S", "QC"])
    play(state, "draw", "discard 7S")  # the remade stock: TH 8D AC 6S QC
    draw_and_discard_it(state)
    pile = Counter(CARD_NAMES.index(c) for c in ("TH", "8D", "AC", "6S", "QC"))
    rng = random.Random(1)
    for _ in range(30):
        other = state.resample(0, rng)
        assert not Counter(other.stock) - pile
        assert other.view(0) == state.view(0)


# ---------------------------------------------------------------- wild ranks by round


def test_wild_rank_letters_follow_the_ranks() -> None:
    assert [RANKS[r + 1] for r in range(1, 12)] == list("3456789TJQK")


def test_views_and_saves_do_not_share_the_last_round() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C"], discard=["6H"])
    play(state, "take", "discard 9C", "draw", "discard 2C")
    view = state.view(0)
    view["last_round"]["scores"].append(99)
    view["last_round"]["melds_shown"][0]["melds"].clear()
    assert state.view(0)["last_round"]["scores"] == [0, 28]
    assert state.view(0)["last_round"]["melds_shown"][0]["melds"] == [["4H", "5H", "6H"]]
    data = state.to_dict()
    data["last_round"]["melds_shown"] = "nothing"
    with pytest.raises(PositionError, match="last_round"):
        cardtable.state_from_dict(data)


def test_round_scores_are_the_arrange_penalties_of_the_hands_shown() -> None:
    from cardtable.threethirteen import arrange

    state = deal(3, 11)
    rng = random.Random(11)
    while state.round == 1:
        state.apply(rng.choice(state.legal_actions()))
    last = state.view(0)["last_round"]
    for shown, penalty in zip(last["melds_shown"], last["scores"], strict=True):
        hand = [c for meld in shown["melds"] for c in meld] + shown["deadwood"]
        assert len(hand) == 3 and shown["penalty"] == penalty
        assert arrange(hand, 1)[2] == penalty


# ---------------------------------------------------------------- the score sheet


def test_the_score_sheet_lists_each_completed_round_s_penalties() -> None:
    state = deal(3, 4)
    rng = random.Random(4)
    assert state.view(None)["round_scores"] == []
    rows: list[list[int]] = []
    while state.round < 4:
        before = state.round
        state.apply(rng.choice(state.legal_actions()))
        if state.round != before:  # a round was scored
            rows.append(state.view(None)["last_round"]["scores"])
            for seat in (None, 0, 1, 2):
                assert state.view(seat)["round_scores"] == rows
            assert state.observation(1).round_scores == tuple(tuple(r) for r in rows)
    assert [sum(col) for col in zip(*rows, strict=True)] == state.scores
    # views and saves do not share it; a save keeps it
    view = state.view(0)
    view["round_scores"][0].append(99)
    view["round_scores"].clear()
    assert state.view(0)["round_scores"] == rows
    assert tt(cardtable.state_from_dict(state.to_dict())).view(0)["round_scores"] == rows
    # a clone keeps its own sheet
    clone = tt(state.clone())
    while clone.round == state.round:
        clone.apply(rng.choice(clone.legal_actions()))
    assert len(clone.view(0)["round_scores"]) == 4 and state.view(0)["round_scores"] == rows


def test_the_score_sheet_at_the_end_of_a_round() -> None:
    # the totals carry 40 and 50 from rounds the setup position did not play
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C"], discard=["6H"], scores=[40, 50])
    play(state, "take", "discard 9C", "draw", "discard 2C")
    assert state.view(1)["round_scores"] == [[0, 28]]
    assert state.view(1)["scores"] == [40, 78]
    full = state.view(None)
    full.pop("history")
    assert full == state.view(None, history=False)


def test_the_match_s_score_sheet_has_eleven_rounds() -> None:
    state = position([RUN, NO_MELD], round=11, stock=["3C"], discard=["5C"], scores=[50, 40])
    play(state, "take", "discard 5C", "draw", "discard 3C")
    assert state.is_terminal and state.view(0)["round_scores"] == [[0, 77]]


def test_a_saved_score_sheet_must_agree_with_the_scores() -> None:
    state = position(["4H 5H 9C", "KC QD 8S"], stock=["2C"], discard=["6H"])
    play(state, "take", "discard 9C", "draw", "discard 2C")
    good = state.to_dict()
    assert good["round_scores"] == [[0, 28]]
    for bad, message in [([[0, 29]], "last round is not last_round"),
                         ([[0, 0], [0, 28]], "only 1 were completed"),
                         ([[0, -1]], "round_scores must be"),
                         ([[0]], "round_scores must be"),
                         ("[[0, 28]]", "round_scores must be"),
                         ([], None)]:
        data = state.to_dict()
        data["round_scores"] = bad
        if message is None:  # a setup position's rounds are in the totals only
            assert tt(cardtable.state_from_dict(data)).observation(0).round_scores == ()
            continue
        with pytest.raises(PositionError, match=message):
            cardtable.state_from_dict(data)
    data = state.to_dict()
    data["scores"] = [0, 27]
    data["last_round"]["melds_shown"][1]["penalty"] = 27
    data["last_round"]["scores"] = [0, 27]
    data["round_scores"] = [[0, 27]]
    cardtable.state_from_dict(data)  # consistent
    data["scores"] = [0, 26]
    with pytest.raises(PositionError, match="last_round|add up to more"):
        cardtable.state_from_dict(data)


def test_a_save_from_before_the_score_sheet_loads() -> None:
    state = deal(2, 6)
    rng = random.Random(6)
    data = state.to_dict()
    del data["round_scores"]
    assert tt(cardtable.state_from_dict(data)).view(0)["round_scores"] == []
    while state.round < 3:
        state.apply(rng.choice(state.legal_actions()))
    data = state.to_dict()
    del data["round_scores"]
    # only the last round is known: the earlier ones stay in the totals
    loaded = tt(cardtable.state_from_dict(data))
    assert loaded.view(0)["round_scores"] == [state.view(0)["last_round"]["scores"]]
    assert loaded.view(0)["scores"] == state.scores
