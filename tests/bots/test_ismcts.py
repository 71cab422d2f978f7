"""ISMCTS's "paired" root, its small trees, and the Three Thirteen playout."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.bots import ISMCTSBot, ismcts
from cardtable.bots.sequence import HEURISTIC as SEQUENCE_HEURISTIC
from cardtable.bots.threethirteen import HEURISTIC, ThreeThirteenHeuristic
from cardtable.cards import card_names
from cardtable.core import Action, State
from cardtable.threethirteen.game import ThreeThirteenGame, ThreeThirteenState

GAME = cast(ThreeThirteenGame, cardtable.new_game("threethirteen"))


def tt_setup(**position: Any) -> ThreeThirteenState:
    state = GAME.setup(**position)
    assert isinstance(state, ThreeThirteenState)
    return state


def round_one(hand: list[str], drawn: str) -> State:
    """Round 1 (threes wild), seat 0 to discard after drawing ``drawn``."""
    state = GAME.setup(round=1, dealer=1, hands=[hand, ["2C", "5D", "9H"]],
                       stock=[drawn, "4C", "6C", "8D", "JC", "QC"], discard=["TH"], seed=1)
    state.apply("draw")
    return state


class Backwards(ThreeThirteenHeuristic):
    """The Three Thirteen heuristic with its preferences turned upside down."""

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        return [(-score, action) for score, action in super().scores(state, seat)]


def test_paired_root_keeps_the_heuristic_move_without_evidence() -> None:
    # one determinization: no advantage can be significant, the heuristic's move stands
    state = round_one(["7S", "8S", "9S"], "KD")
    result = ISMCTSBot(seed=1, iterations=4).search(state)
    assert str(result.action) == "discard KD"


def test_paired_root_overrules_a_bad_favourite(monkeypatch: pytest.MonkeyPatch) -> None:
    # a heuristic that wants to break the run: the playouts show that going out is better
    monkeypatch.setattr(ismcts, "_heuristic_or_none", lambda name: Backwards())
    state = round_one(["7S", "8S", "9S"], "KD")
    assert str(Backwards().scores(state, 0)[0][1]) != "discard KD"
    result = ISMCTSBot(seed=1, iterations=200).search(state)
    assert str(result.action) == "discard KD"
    assert result.win_probability > 0.5


def test_paired_root_weighs_only_the_heuristic_best_few() -> None:
    state = GAME.setup(round=11, seed=3)
    state.apply("draw")
    result = ISMCTSBot(seed=2, iterations=60).search(state)
    assert len(result.visits) == ismcts.PAIRED_WIDTH
    assert sum(result.visits.values()) == result.iterations == 60


def test_ucb_root_can_still_be_asked_for() -> None:
    state = round_one(["7S", "8S", "9S"], "KD")
    result = ISMCTSBot(seed=1, iterations=50, root="ucb").search(state)
    assert str(result.action) == "discard KD"
    assert len(result.visits) == 4  # UCB tries every root action


def test_small_trees_add_up_their_root_visits() -> None:
    state = cardtable.new_game("sequence").deal(seed=4)
    assert len(state.legal_actions()) > 5
    # a tree first tries the root actions in the heuristic's order: three trees of five
    # iterations each try the heuristic's five favourites once
    result = ISMCTSBot(seed=1, iterations=15, tree_size=5).search(state)
    assert result.iterations == 15
    assert sorted(result.visits.values()) == [3] * 5
    scores = SEQUENCE_HEURISTIC.scores(state, 0)
    fifth = sorted((score for score, _ in scores), reverse=True)[4]
    assert all(score >= fifth for score, action in scores if str(action) in result.visits)
    one_tree = ISMCTSBot(seed=1, iterations=15, tree_size=15).search(state)
    assert len(one_tree.visits) > 5


def test_sequence_search_grows_trees_of_its_own_size(monkeypatch: pytest.MonkeyPatch) -> None:
    state = cardtable.new_game("sequence").deal(seed=4)
    assert SEQUENCE_HEURISTIC.tree_size == 1000
    grown: list[int] = []
    merged = ismcts._merged

    def spy(trees: list[ismcts.Node], seat: int) -> ismcts.Node:
        grown.extend(sum(child.visits for child in tree.children.values()) for tree in trees)
        return merged(trees, seat)

    monkeypatch.setattr(ismcts, "_merged", spy)
    result = ISMCTSBot(seed=1, iterations=2500).search(state)
    assert grown == [1000, 1000, 500]
    assert sum(result.visits.values()) == result.iterations == 2500


def test_playout_can_play_to_the_end_of_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThreeThirteenHeuristic, "PLAYOUT_TURNS", None)
    rng = random.Random(4)
    for r in (1, 6, 11):
        state = tt_setup(round=r, seed=r)
        values = HEURISTIC.playout(state, rng)
        assert state.is_terminal if r == 11 else state.round == r + 1
        assert all(-1.0 <= v <= 1.0 for v in values)
        if r == 11:
            assert values == state.returns()


def test_playout_stops_after_two_turns_a_seat() -> None:
    state = tt_setup(round=9, seed=2)
    before = len(state.history)
    values = HEURISTIC.playout(state, random.Random(1))
    discards = [a for _, a in state.history[before:] if str(a).startswith("discard")]
    assert len(discards) == 2 * 2 and state.round == 9 and state.drawing
    assert values[0] == -values[1]  # the hands scored as they stand, as if the round ended


def test_standing_favours_the_lower_total() -> None:
    state = tt_setup(round=4, scores=[10, 30], seed=1)
    mine, theirs = HEURISTIC.standing(state)
    assert mine > 0 > theirs
    later = tt_setup(round=10, scores=[10, 30], seed=1)
    assert HEURISTIC.standing(later)[0] > mine  # the same lead counts more late


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=4, max_size=14, unique=True),
       st.integers(1, 11))
def test_shedding_the_highest_deadwood_lowers_the_penalty_by_its_value(
        cards: list[int], round_: int) -> None:
    # the playout keeps a hand's penalty from its last discard without a new meld search:
    # every split of the rest is a split of the whole with the card left over, so the
    # best split of the rest costs exactly the old penalty less the card's value
    state: Any = GAME.setup(round=round_, seed=1)
    _, deadwood, penalty = state.split(cards)
    values = GAME.solver.values
    naturals = [c for c in deadwood if c % 13 != state.wild]
    if not naturals:
        return
    high = max(naturals, key=lambda c: values[c % 13])
    rest = list(cards)
    rest.remove(high)
    assert state.split(rest)[2] == penalty - values[high % 13], card_names(cards)


# ---------------------------------------------------------------- Sequence

SEQUENCE = cardtable.new_game("sequence")


def test_sequence_search_completes_a_sequence_at_once() -> None:
    # an open four the mover can fill is worth less than the sequence made: otherwise the
    # search would put it off, to a turn after the opponent's (who may block it)
    state = SEQUENCE.setup(hands=[["AH", "2D", "3D", "4D", "5D", "6D", "7D"],
                                  ["QC", "8C", "7C", "6C", "5D", "6D", "8D"]],
                           chips={"b2": 0, "c2": 0, "d2": 0, "e2": 0}, current=0, seed=1)
    made = state.clone()
    made.apply("AH f2")
    assert SEQUENCE_HEURISTIC.evaluate(state)[0] < SEQUENCE_HEURISTIC.evaluate(made)[0]
    assert str(ISMCTSBot(seed=1, iterations=300).choose(state)) == "AH f2"
