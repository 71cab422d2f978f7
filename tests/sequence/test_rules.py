"""Sequence rules (RULES.md section 2) stated as data: positions, legal moves, outcomes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalActionError, OptionsError, PositionError
from cardtable.cards import CARD_NAMES, RANKS
from cardtable.sequence import BOARD
from cardtable.sequence.game import SequenceState

# cards that fill the hands a test leaves short: live, and named by no test
FILLER = ["QC", "8C", "7C", "6C", "5D", "6D", "8D", "KH", "3D", "4D", "7D", "QD", "5H", "6H", "8H",
          "2H"] * 2


def position(hands: list[list[str]] | None = None, players: int = 2, **kwargs: Any
             ) -> SequenceState:
    """A position with seat 0 to play unless told otherwise; short hands are filled up."""
    game = cardtable.new_game("sequence", players=players, **kwargs.pop("options", {}))
    kwargs.setdefault("current", 0)
    kwargs.setdefault("seed", 5)
    if hands is not None:
        size = game.hand_size  # type: ignore[attr-defined]
        hands = hands + [[]] * (players - len(hands))
        named = Counter(c for h in hands for c in h) + Counter(kwargs.get("deck", []))
        filler = [c for c in FILLER if named.get(c, 0) == 0]
        hands = [h + [filler.pop() for _ in range(size - len(h))] for h in hands]
    state = game.setup(hands=hands, **kwargs) if hands is not None else game.setup(**kwargs)
    assert isinstance(state, SequenceState)
    return state


def legal(state: cardtable.State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def cells(text: str) -> list[str]:
    return text.split()


# ---------------------------------------------------------------- 2.1 the board


def test_board_is_the_published_layout() -> None:
    assert BOARD[0] == ("XX", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "XX")
    assert BOARD[4] == ("9C", "QS", "7C", "6H", "5H", "4H", "AH", "9D", "7H", "AS")
    assert BOARD[9] == ("XX", "AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", "XX")
    assert [row[0] for row in BOARD] == ["XX", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC",
                                         "XX"]


def test_every_card_but_jacks_is_on_exactly_two_cells_and_corners_are_free() -> None:
    counts = Counter(name for row in BOARD for name in row)
    assert counts.pop("XX") == 4
    assert all(n == 2 for n in counts.values())
    assert set(counts) == {n for n in CARD_NAMES if n[0] != "J"}
    assert BOARD[0][0] == BOARD[0][9] == BOARD[9][0] == BOARD[9][9] == "XX"


# ---------------------------------------------------------------- 2.2 players and teams


@pytest.mark.parametrize(("players", "teams"), [
    (2, 2), (3, 3), (4, 2), (6, 2), (8, 2), (9, 3), (10, 2), (12, 2)])
def test_default_teams(players: int, teams: int) -> None:
    game = cardtable.new_game("sequence", players=players)
    assert game.options == {"players": players, "teams": teams, "max_turns": None}


@pytest.mark.parametrize(("players", "teams"), [(6, 3), (12, 3)])
def test_six_and_twelve_may_play_three_teams(players: int, teams: int) -> None:
    assert cardtable.new_game("sequence", players=players, teams=teams).options["teams"] == 3


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 5}, {"players": 7}, {"players": 11}, {"players": 13},
    {"players": 2, "teams": 1}, {"players": 3, "teams": 1}, {"players": 4, "teams": 4},
    {"players": 4, "teams": 3}, {"players": 8, "teams": 4}, {"players": 9, "teams": 2},
    {"players": 10, "teams": 5}, {"players": True}, {"players": "4"}, {"max_turns": 0},
    {"max_turns": True}, {"colour": "blue"}])
def test_bad_options_say_what_is_allowed(options: dict[str, Any]) -> None:
    with pytest.raises(OptionsError) as err:
        cardtable.new_game("sequence", **options)
    assert any(word in str(err.value) for word in ("allowed", "must", "choose", "options are"))


def test_seats_alternate_teams() -> None:
    state = cardtable.new_game("sequence", players=6, teams=3).deal(seed=1)
    assert [state.view(s)["team"] for s in range(6)] == [0, 1, 2, 0, 1, 2]


def test_team_sequence_scores_every_teammate() -> None:
    # seats 0 and 2 are team 0 in a four-player game
    state = position(players=4, chips={"b2": 0, "c2": 0, "d2": 0, "e2": 0}, hands=[["AH"]])
    state.apply("AH f2")
    assert state.scores == [1, 0, 1, 0]


# ---------------------------------------------------------------- 2.3 the deal


@pytest.mark.parametrize(("players", "size"), [
    (2, 7), (3, 6), (4, 6), (6, 5), (8, 4), (9, 4), (10, 3), (12, 3)])
def test_cards_per_player(players: int, size: int) -> None:
    state = cardtable.new_game("sequence", players=players).deal(seed=3)
    view = state.view(0)
    assert view["hand_sizes"] == [size] * players
    assert view["stock_size"] == 104 - size * players


def test_left_of_dealer_plays_first_and_dealer_comes_from_the_seed() -> None:
    dealers = set()
    for seed in range(30):
        view = cardtable.new_game("sequence", players=4).deal(seed=seed).view(None)
        assert view["current_player"] == (view["dealer"] + 1) % 4
        dealers.add(view["dealer"])
    assert dealers == {0, 1, 2, 3}


def test_play_goes_left() -> None:
    state = cardtable.new_game("sequence", players=3).deal(seed=2)
    first = state.current_player
    assert first is not None
    for k in range(1, 6):
        state.apply(next(a for a in state.legal_actions() if not str(a).startswith("dead")))
        assert state.current_player == (first + k) % 3


# ---------------------------------------------------------------- 2.4.1 dead cards

# 4H is on f5 and i8; 2S on b1 and g9
DEAD_4H = {"f5": 1, "i8": 0}


def test_a_card_with_both_cells_covered_is_dead_and_may_be_exchanged() -> None:
    state = position(hands=[["4H", "5C"]], chips=DEAD_4H, deck=["9H", "KD"])
    assert "dead 4H" in legal(state)
    assert "4H f5" not in legal(state) and "4H i8" not in legal(state)
    state.apply("dead 4H")
    assert state.current_player == 0, "the exchange is not the turn's play"
    view = state.view(0)
    assert "4H" not in view["hand"] and "9H" in view["hand"] and len(view["hand"]) == 7
    assert view["discards"][0] == ["4H"], "the dead card is discarded face up"
    assert view["exchanged_dead_card"]


def test_only_one_exchange_per_turn_and_a_dead_replacement_waits() -> None:
    # the replacement 2S is dead too (b1 and g9 covered): it waits for the next turn
    chips = {**DEAD_4H, "b1": 0, "g9": 1}
    state = position(hands=[["4H", "5C"]], chips=chips, deck=["2S", "9H", "KD", "KC"])
    state.apply("dead 4H")
    assert not any(a.startswith("dead") for a in legal(state))
    with pytest.raises(IllegalActionError, match="already exchanged"):
        state.apply("dead 2S")
    state.apply("5C b2")
    state.apply(next(a for a in state.legal_actions() if not str(a).startswith("dead")))
    assert "dead 2S" in legal(state), "a new turn brings a new exchange"


def test_a_live_card_cannot_be_exchanged() -> None:
    state = position(hands=[["4H"]], chips={"f5": 1})
    assert "dead 4H" not in legal(state)
    with pytest.raises(IllegalActionError, match="not dead"):
        state.apply("dead 4H")


def test_jacks_are_never_dead() -> None:
    state = position(hands=[["JD"]])
    with pytest.raises(IllegalActionError, match="never a dead card"):
        state.apply("dead JD")


# ---------------------------------------------------------------- 2.4.2 playing a card


def test_a_card_goes_on_either_of_its_empty_cells() -> None:
    state = position(hands=[["7H", "2D"], ["5D"]], chips={"h5": 1})
    # 7H is on d6 and i5, 2D on c3 and j6
    moves = legal(state)
    assert {"7H d6", "7H i5", "2D c3", "2D j6"} <= moves
    state.apply("7H i5")
    assert state.view(1)["chips"]["i5"] == 0


def test_a_covered_cell_is_refused_with_a_reason() -> None:
    state = position(hands=[["7H"]], chips={"d6": 1})
    assert "7H d6" not in legal(state)
    with pytest.raises(IllegalActionError, match="d6 is already covered"):
        state.apply("7H d6")
    with pytest.raises(IllegalActionError, match="is on i5 and d6, not a1"):
        state.apply("7H a1")


def test_two_eyed_jack_goes_on_any_empty_cell_but_never_a_corner() -> None:
    state = position(hands=[["JD", "JC"]], chips={"b2": 1, "c3": 0})
    moves = legal(state)
    jd = {m for m in moves if m.startswith("JD ")}
    assert len(jd) == 96 - 2 and "JD b2" not in jd and "JD c3" not in jd
    assert len({m for m in moves if m.startswith("JC ")}) == 94
    with pytest.raises(IllegalActionError, match="corner"):
        state.apply("JD a1")
    state.apply("JD e5")
    assert state.view(0)["chips"]["e5"] == 0


def test_one_eyed_jack_removes_an_opponents_chip_outside_sequences() -> None:
    seq = ["b10", "c10", "d10", "e10", "f10"]
    chips = {c: 1 for c in seq} | {"e5": 1, "c4": 0}
    state = position(hands=[["JS", "JH"]], chips=chips, sequences=[[1, seq]])
    moves = legal(state)
    assert {m for m in moves if m.startswith("JS ")} == {"JS e5"}
    assert {m for m in moves if m.startswith("JH ")} == {"JH e5"}
    with pytest.raises(IllegalActionError, match="completed sequence"):
        state.apply("JS c10")
    with pytest.raises(IllegalActionError, match="your own team"):
        state.apply("JS c4")
    with pytest.raises(IllegalActionError, match="no chip"):
        state.apply("JS d4")
    state.apply("JS e5")
    view = state.view(0)
    assert "e5" not in view["chips"], "the chip is removed and no chip is placed"
    assert view["current_player"] == 1, "the turn ends"
    assert view["hand_sizes"][0] == 7, "the player still draws after a one-eyed jack"


def test_cards_not_held_are_refused() -> None:
    state = position(hands=[["7H"]])
    with pytest.raises(IllegalActionError, match="you do not hold 2D"):
        state.apply("2D c3")


# ---------------------------------------------------------------- 2.4.3 drawing


def test_draw_after_play_takes_the_top_card() -> None:
    state = position(hands=[["7H"]], deck=["KD", "KC", "KH"])
    state.apply("7H d6")
    view = state.view(0)
    assert "KD" in view["hand"] and view["stock_size"] == 2


def test_empty_draw_pile_reshuffles_every_discard_pile_including_the_card_played() -> None:
    state = position(hands=[["7H"], ["5D"]], deck=[], discards=[["AS", "2S"], ["3S"]])
    state.apply("7H d6")
    view = state.view(0)
    assert view["discards"] == [[], []]
    assert view["stock_size"] == 3, "four discards reshuffled, one drawn"
    assert view["hand_sizes"][0] == 7
    assert Counter(state._all_cards()) == Counter(
        state.hands[0] + state.hands[1] + state.deck)


def test_the_winning_play_draws_no_card() -> None:
    seq = ["b2", "c2", "d2", "e2", "f2"]
    chips = {c: 0 for c in seq} | {"b3": 0, "c4": 0, "d5": 0, "e6": 0}
    # TH on f7 completes the diagonal b3-f7
    state = position(hands=[["TH"]], chips=chips, sequences=[[0, seq]])
    state.apply("TH f7")
    assert state.is_terminal and state.winners == [0]
    assert state.view(0)["hand_sizes"][0] == 6


# ---------------------------------------------------------------- ruling: passing, max_turns


DEAD_HAND = ["4H", "2S", "3S", "4S", "5S", "6S", "7S"]
# both cells of every card of DEAD_HAND, and of 8S and 9S, covered with no five in a row
ALL_COVERED = {"f5": 0, "i8": 1, "b1": 0, "c1": 1, "d1": 0, "e1": 1, "f1": 0, "g1": 1, "h1": 0,
               "i1": 1, "b9": 1, "c9": 0, "d9": 1, "e9": 0, "f9": 1, "g9": 0, "b8": 0, "b7": 1}


def all_dead_position(second: list[str] = DEAD_HAND) -> SequenceState:
    return position(hands=[DEAD_HAND, second], chips=ALL_COVERED, deck=["8S", "9S", "8S", "9S"])


def test_pass_only_when_no_play_and_no_exchange_left() -> None:
    state = all_dead_position()
    moves = legal(state)
    assert "pass" not in moves and "dead 4H" in moves
    with pytest.raises(IllegalActionError, match="only when you have no legal play"):
        state.apply("pass")
    state.apply("dead 4H")  # the replacement 4H is dead too
    assert legal(state) == {"pass"}
    state.apply("pass")
    assert state.view(0)["hand_sizes"][0] == 7, "a pass draws nothing"


def test_exchange_then_pass_by_every_player_is_no_draw() -> None:
    # ruling 2.4 (revised): a turn that exchanged a dead card and then passed breaks the run
    # of passes, since the replacement came from the draw pile, whose jacks can reopen the
    # board; so every player exchanging and passing, round after round, goes on
    state = all_dead_position()
    for move in ["dead 4H", "pass", "dead 2S", "pass", "dead 3S", "pass", "dead 4S", "pass"]:
        assert move in legal(state)
        state.apply(move)
        assert not state.is_terminal, move
    assert state.to_dict()["passes"] == 0
    assert state.winners == [] and state.returns() == [0.0, 0.0]


def one_eyed_jacks_only(players: int = 10, teams: int = 2, **kwargs: Any) -> SequenceState:
    """Seat 0 holds one-eyed jacks only and no opponent chip is on the board: it can only pass,
    without a dead-card exchange (it holds no dead card)."""
    return position(hands=[["JS", "JS", "JH"]], players=players,
                    options={"teams": teams}, chips={"e5": 0, "f6": 0}, **kwargs)


def test_a_plain_pass_counts_toward_the_draw() -> None:
    state = one_eyed_jacks_only()
    assert legal(state) == {"pass"}
    state.apply("pass")
    assert not state.is_terminal and state.to_dict()["passes"] == 1
    assert state.view(0)["hand_sizes"][0] == 3, "a pass draws nothing"


def test_every_player_passing_in_turn_without_an_exchange_is_a_draw() -> None:
    # the nine players before seat 0 passed in turn without exchanging (as a save records
    # it); seat 0's plain pass completes the run: a draw
    data = one_eyed_jacks_only().to_dict()
    data["passes"] = 9
    state = cardtable.state_from_dict(data)
    state.apply("pass")
    assert state.is_terminal and state.winners == []
    assert state.returns() == [0.0] * 10


def test_exchange_then_pass_after_plain_passes_breaks_the_run() -> None:
    # seat 1 passed in turn without exchanging; seat 0 exchanges a dead card, the
    # replacement is dead too, and passes: no draw, and the run starts again from zero
    data = all_dead_position().to_dict()
    data["passes"] = 1
    state = cardtable.state_from_dict(data)
    state.apply("dead 4H")
    state.apply("pass")
    assert not state.is_terminal
    assert state.to_dict()["passes"] == 0
    again = cardtable.state_from_dict(state.to_dict())
    again.apply("dead 2S")
    again.apply("pass")
    assert not again.is_terminal


def test_a_save_with_a_finished_run_of_passes_is_refused() -> None:
    data = one_eyed_jacks_only().to_dict()
    data["passes"] = 10
    with pytest.raises(PositionError, match="passes"):
        cardtable.state_from_dict(data)


def test_a_play_between_passes_resets_the_count() -> None:
    data = all_dead_position(second=["AC", *DEAD_HAND[1:]]).to_dict()
    data["passes"] = 1
    state = cardtable.state_from_dict(data)
    state.apply("dead 4H")
    state.apply("pass")
    state.apply("AC a9")
    assert not state.is_terminal and state.to_dict()["passes"] == 0


def test_max_turns_ends_in_a_draw() -> None:
    game = cardtable.new_game("sequence", max_turns=3)
    state = game.deal(seed=1)
    turns = 0
    while not state.is_terminal:
        action = next(a for a in state.legal_actions() if not str(a).startswith("dead"))
        state.apply(action)
        turns += 1
    assert turns == 3 and state.winners == [] and state.returns() == [0.0, 0.0]


# ---------------------------------------------------------------- 2.5 sequences


@pytest.mark.parametrize(("line", "card", "cell"), [
    ("b2 c2 d2 e2", "AH", "f2"),  # a row
    ("d2 d3 d4 d5", "7H", "d6"),  # a column
    ("c3 d4 e5 f6", "QH", "g7"),  # down-right
    ("c9 d8 e7 f6", "AH", "g5"),  # up-right
])
def test_five_in_a_line_is_a_sequence(line: str, card: str, cell: str) -> None:
    state = position(hands=[[card]], chips={c: 0 for c in cells(line)})
    state.apply(f"{card} {cell}")
    assert state.scores == [1, 0]
    assert sorted(state.view(0)["sequences"][0][1]) == sorted(cells(line) + [cell])


def test_a_corner_counts_for_every_team() -> None:
    # b1..f1 after a1: the window a1-e1 (corner included) is claimed first
    state = position(hands=[["5S"]], chips={"b1": 0, "c1": 0, "d1": 0})
    state.apply("5S e1")
    assert state.scores == [1, 0]
    assert state.view(1)["sequences"] == [[0, ["a1", "b1", "c1", "d1", "e1"]]]


def test_corner_sequence_for_the_second_team_too() -> None:
    state = position(hands=[["5C"], ["9C"]], chips={"a2": 1, "a3": 1, "a4": 1})
    state.apply("5C b2")
    state.apply("9C a5")
    assert state.view(None)["sequences"] == [[1, ["a1", "a2", "a3", "a4", "a5"]]]
    assert state.scores == [0, 1]


def test_a_line_of_nine_holds_two_sequences() -> None:
    row = cells("a2 b2 c2 d2 e2 f2 g2 h2")
    state = position(hands=[["TH"]], chips={c: 0 for c in row}, sequences=[[0, row[:5]]])
    state.apply("TH i2")
    assert state.scores == [2, 0] and state.winners == [0]
    assert state.view(None)["sequences"][1] == [0, cells("e2 f2 g2 h2 i2")]


def test_a_line_of_eight_holds_only_one() -> None:
    row = cells("a2 b2 c2 d2 e2 f2 g2")
    state = position(hands=[["QH"]], chips={c: 0 for c in row}, sequences=[[0, row[:5]]])
    state.apply("QH h2")
    assert state.scores == [1, 0] and not state.is_terminal


def test_ruling_a_line_of_nine_built_from_the_middle_counts_once() -> None:
    middle = cells("c2 d2 e2 f2 g2")
    chips = {c: 0 for c in middle + cells("a2 b2 h2")}
    state = position(hands=[["TH"]], chips=chips, sequences=[[0, middle]])
    state.apply("TH i2")
    assert state.scores == [1, 0], "e2-i2 shares three cells with c2-g2"


def test_ruling_windows_are_claimed_from_the_left_end() -> None:
    # a2 b2 c2 d2 _ f2 g2 h2 i2: the chip on e2 completes a2-e2 first, then e2-i2 shares one cell
    chips = {c: 0 for c in cells("a2 b2 c2 d2 f2 g2 h2 i2")}
    state = position(hands=[["2C"]], chips=chips)
    state.apply("2C e2")
    assert state.view(None)["sequences"] == [
        [0, cells("a2 b2 c2 d2 e2")], [0, cells("e2 f2 g2 h2 i2")]]


def test_ruling_row_before_column_and_one_chip_completing_two_lines() -> None:
    # f2 completes the row b2..f2 and the column f2..f6 at once: both count, sharing f2
    chips = {c: 0 for c in cells("b2 c2 d2 e2 f3 f4 f5 f6")}
    state = position(hands=[["AH"]], chips=chips)
    state.apply("AH f2")
    assert state.view(None)["sequences"] == [
        [0, cells("b2 c2 d2 e2 f2")], [0, cells("f2 f3 f4 f5 f6")]]
    assert state.winners == [0]


def test_completed_sequence_chips_are_locked() -> None:
    state = position(hands=[["AH"], ["JS"]], chips={c: 0 for c in cells("b2 c2 d2 e2")})
    state.apply("AH f2")
    assert {m for m in legal(state) if m.startswith("JS")} == set()
    with pytest.raises(IllegalActionError, match="completed sequence"):
        state.apply("JS c2")


# ---------------------------------------------------------------- 2.6 winning


def test_three_teams_need_one_sequence() -> None:
    state = position(players=3, hands=[["AH"]], chips={c: 0 for c in cells("b2 c2 d2 e2")})
    state.apply("AH f2")
    assert state.is_terminal and state.winners == [0]
    assert state.returns() == [1.0, -1.0, -1.0]


def test_two_teams_need_two_sequences_and_teammates_share_the_win() -> None:
    seq = cells("b2 c2 d2 e2 f2")
    chips = {c: 0 for c in seq + cells("b4 b5 b6 b7")}
    state = position(players=4, hands=[[], [], ["8S"]], chips=chips, sequences=[[0, seq]],
                     current=2)
    state.apply("8S b8")
    assert state.winners == [0, 2]
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]


# ---------------------------------------------------------------- positions


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"chips": {"a1": 0}}, "corner"),
    ({"chips": {"k4": 0}}, "not a cell"),
    ({"chips": {"c4": 2}}, "teams are 0..1"),
    ({"chips": {c: 0 for c in cells("b2 c2 d2 e2 g2")},
      "sequences": [[0, cells("b2 c2 d2 e2 g2")]]},
     "straight line"),
    ({"chips": {c: 0 for c in cells("b2 c2 d2 e2 f2")}}, "not listed"),
    ({"chips": {c: 0 for c in cells("b2 c2 d2 e2 f2 g2")},
      "sequences": [[0, cells("b2 c2 d2 e2 f2")], [0, cells("c2 d2 e2 f2 g2")]]},
     "share more than one cell"),
    ({"chips": {c: 0 for c in cells("a2 b2 c2 d2 e2 f2 g2 h2 i2")},
      "sequences": [[0, cells("a2 b2 c2 d2 e2")], [0, cells("e2 f2 g2 h2 i2")]]},
     "enough sequences to win"),
    ({"chips": {c: 1 for c in cells("b2 c2 d2 e2")}, "sequences": [[1, cells("b2 c2 d2 e2 f2")]]},
     "holds no chip of team 1"),
    ({"hands": [["7H"] * 7, ["2D"] * 7]}, "appears 7 times"),
    ({"hands": [["7H"] * 2, FILLER[:7]]}, "holds 2 cards"),
    ({"hands": [["7H"] * 2]}, "one per seat"),
    ({"deck": ["ZZ"]}, "not a card"),
    ({"current": 2}, "seat from 0 to 1"),
    ({"colour": 1}, "no key 'colour'"),
])
def test_inconsistent_positions_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        cardtable.new_game("sequence").setup(**kwargs)


def test_setup_fills_omitted_keys_consistently() -> None:
    state = cardtable.new_game("sequence").setup(seed=4, chips={"c4": 0})
    assert Counter(state._all_cards()) == Counter(list(range(52)) * 2)
    assert state.view(None)["current_player"] == (state.view(None)["dealer"] + 1) % 2


def test_setup_deck_order_is_top_first() -> None:
    state = position(hands=[["7H"]], deck=["KD", "2C"])
    state.apply("7H d6")
    assert "KD" in state.view(0)["hand"]


# ---------------------------------------------------------------- views and notation


def test_view_hides_other_hands_and_the_deck() -> None:
    state = cardtable.new_game("sequence").deal(seed=9)
    view = state.view(0)
    assert set(view) >= {"hand", "hand_sizes", "stock_size", "board", "discards", "sequences",
                         "scores", "current_player", "legal"}
    assert "deck" not in view and "hands" not in view
    assert state.view(None)["hand"] == []
    seat = state.current_player
    assert state.view(seat)["legal"] == [str(a) for a in state.legal_actions()]
    assert state.view(1 - seat)["legal"] == []  # type: ignore[operator]


def test_notation_accepts_case_ten_and_aliases() -> None:
    state = position(hands=[["TC", "JD"]])
    assert state.parse_action("10c a6") == state.parse_action("TC a6")
    assert str(state.parse_action("jd E5")) == "JD e5"
    assert str(state.parse_action("P")) == "pass"
    for bad in ["7H", "7H c4 d5", "dead", "XX a1", "pass now"]:
        with pytest.raises(IllegalActionError):
            state.parse_action(bad)


def test_action_ids_are_stable_and_cover_the_space() -> None:
    game = cardtable.new_game("sequence")
    assert game.num_distinct_actions == 529
    assert [a.id for a in game.actions] == list(range(529))
    assert len({str(a) for a in game.actions}) == 529
    assert set(RANKS) >= {str(a)[0] for a in game.actions if str(a) != "pass"
                          and not str(a).startswith("dead")}


@given(st.integers(min_value=0, max_value=528), st.booleans())
def test_every_action_notation_round_trips(aid: int, lower: bool) -> None:
    state = cardtable.new_game("sequence").deal(seed=0)
    action = state.game.actions[aid]
    text = str(action).lower() if lower else str(action)
    assert state.parse_action(text) == action
    assert state.parse_action(text.replace("T", "10").replace("t", "10")) == action
