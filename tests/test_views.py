"""Views and observations: history=False, one meaning of history, observation = view."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import Observation
from cardtable.drawbridge.game import DrawBridgeObservation, DrawBridgeState
from cardtable.sequence.game import SequenceObservation
from cardtable.threethirteen.game import ThreeThirteenObservation

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("drawbridge", {"target": 20}),
    ("drawbridge", {"target": 30, "show_stock_top": True, "follow_suit_in_draw": True}),
    ("sequence", {}),
    ("sequence", {"players": 6, "teams": 3}),
    ("threethirteen", {}),
    ("threethirteen", {"players": 4, "aces": "both"}),
    ("threethirteen", {"players": 10, "decks": 3}),
]
OBSERVATIONS: dict[str, Any] = {"drawbridge": DrawBridgeObservation,
                                "sequence": SequenceObservation,
                                "threethirteen": ThreeThirteenObservation}
PARAMS = [pytest.param(n, o, id=n + "".join(f"-{k}={v}" for k, v in o.items()))
          for n, o in CONFIGS]


def playout(game: cardtable.Game, seed: int, steps: int) -> list[cardtable.State]:
    """States along a seeded random game, every few moves."""
    rng = random.Random(seed)
    state = game.deal(seed=seed)
    out = [state.clone()]
    for step in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
        if step % 7 == 0:
            out.append(state.clone())
    out.append(state)
    return out


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_view_without_history_is_the_view_minus_history(name: str,
                                                       options: dict[str, Any]) -> None:
    game = cardtable.new_game(name, **options)
    for seed in range(3):
        for state in playout(game, seed, 400):
            for seat in [None, *range(game.num_players)]:
                full = state.view(seat)
                short = state.view(seat, history=False)
                assert "history" not in short
                assert list(full)[-1] == "history"
                history = full.pop("history")
                assert full == short
                # the same meaning in every game: each action since deal(), as [seat, notation]
                assert history == [[s, a.notation] for s, a in state.history]
                json.dumps(short)


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_observation_is_frozen_typed_and_matches_the_view(name: str,
                                                         options: dict[str, Any]) -> None:
    game = cardtable.new_game(name, **options)
    cls = OBSERVATIONS[name]
    for state in playout(game, 5, 600):
        for seat in [None, *range(game.num_players)]:
            obs: Any = state.observation(seat)  # one of the three classes
            assert type(obs) is cls and issubclass(cls, Observation)
            with pytest.raises(dataclasses.FrozenInstanceError):
                obs.seat = 0
            view = state.view(seat, history=False)
            assert obs.seat == view["seat"] == seat
            assert list(obs.hand_sizes) == view["hand_sizes"]
            assert obs.stock_size == view["stock_size"]
            assert obs.current_player == view["current_player"] == state.current_player
            assert list(obs.winners) == view["winners"] == state.winners
            hand = (cardtable.cards.cards_of(obs.hand) if isinstance(obs.hand, int)
                    else list(obs.hand))
            assert sorted(cardtable.cards.card_names(hand)) == sorted(view["hand"])
            if seat is None:
                assert hand == []
            else:
                assert len(hand) == view["hand_sizes"][seat]
            # the observation holds only immutable data
            hash(dataclasses.astuple(obs))


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_observation_holds_nothing_hidden_from_the_seat(name: str,
                                                       options: dict[str, Any]) -> None:
    """A world the seat cannot tell from this one gives the seat the same observation."""
    game = cardtable.new_game(name, **options)
    rng = random.Random(7)
    for state in playout(game, 8, 300)[::3]:
        for seat in range(game.num_players):
            obs = state.observation(seat)
            world = state.resample(seat, rng)
            assert world.observation(seat) == obs


def test_observation_fields_per_game() -> None:
    state = cardtable.new_game("drawbridge").deal(seed=3)
    obs = state.observation(0)
    assert isinstance(obs, DrawBridgeObservation)
    assert obs.phase == "draw" and obs.played == () and obs.lead is None
    state.apply(state.legal_actions()[0])
    obs = state.observation(1)
    assert isinstance(obs, DrawBridgeObservation)
    assert obs.lead == state.history[0][1].id and len(obs.played) == 1
    seq = cardtable.new_game("sequence", players=4).deal(seed=3)
    sobs = seq.observation(3)
    assert isinstance(sobs, SequenceObservation)
    assert sobs.team == 1 and sobs.teams == 2 and len(sobs.board) == 100
    tt = cardtable.new_game("threethirteen").deal(seed=3)
    tobs = tt.observation(None)
    assert isinstance(tobs, ThreeThirteenObservation)
    assert tobs.hand == () and tobs.round == 1 and tobs.deal_size == 3 and tobs.phase == "draw"


def test_threethirteen_history_spans_the_match() -> None:
    """The view's history is every action since deal(), not only this round's."""
    game = cardtable.new_game("threethirteen")
    state = game.deal(seed=2)
    rng = random.Random(2)
    while state.view(None, history=False)["round"] == 1:
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.view(0)["history"]) == len(state.history)


def test_drawbridge_public_facts_for_search() -> None:
    """The whole-state facts a bot's evaluation reads, without private fields."""
    game = cardtable.new_game("drawbridge")
    state = game.setup(dealer=0, seed=4)
    assert isinstance(state, DrawBridgeState)
    rng = random.Random(4)
    while state.phase == "draw":
        assert state.last_bid is None and state.deal_number == 1
        state.apply(rng.choice(state.legal_actions()))
    assert state.cards_played == 26 and state.tricks_won == (0, 0)
    assert [m.bit_count() for m in state.hand_masks] == [13, 13]
    state.apply("1H")
    state.apply("double")
    bid = state.last_bid
    assert bid is not None and (str(bid), bid.declarer) == ("1HX", 0)
    state.apply("pass")
    assert state.phase == "play" and state.last_bid == bid


def sequence_view_from_observation(state: Any, seat: int | None) -> dict[str, Any]:
    """The Sequence view as its observation says it, field by field (the view reads the
    state directly, for speed): the oracle of the test below."""
    from cardtable.sequence.board import CORNER, cell_name

    obs = state.observation(seat)
    board = obs.board
    team_of = state.game.team_of
    return {
        "game": "sequence", "seat": seat, "team": obs.team, "teams": obs.teams,
        "hand": sorted(cardtable.cards.card_names(obs.hand)),
        "hand_sizes": list(obs.hand_sizes), "stock_size": obs.stock_size,
        "board": [["XX" if v == CORNER else v - 1 if v else None
                   for v in board[r * 10:r * 10 + 10]] for r in range(10)],
        "chips": {cell_name(c): v - 1 for c, v in enumerate(board) if v and v != CORNER},
        "discards": [cardtable.cards.card_names(p) for p in obs.discards],
        "sequences": [[t, [cell_name(c) for c in cells]] for t, cells in obs.sequences],
        "scores": [obs.sequence_counts[team_of(s)] for s in range(len(obs.hand_sizes))],
        "sequences_needed": obs.sequences_needed, "dealer": obs.dealer,
        "current_player": obs.current_player,
        "exchanged_dead_card": obs.exchanged_dead_card, "turns": obs.turns,
        "is_terminal": obs.current_player is None, "winners": list(obs.winners),
        "legal": [str(a) for a in state.legal_actions()]
        if seat is not None and seat == obs.current_player else [],
        "dead_cards": [] if seat is None else cardtable.cards.card_names(
            state.dead_cards(seat)),
    }


@pytest.mark.parametrize(("players", "teams"), [(2, 2), (3, 3), (4, 2), (6, 3), (12, 3)])
def test_sequence_view_is_its_observation_key_by_key(players: int, teams: int) -> None:
    """The view (made from the state's fields, its board from rows kept between views)
    says what the observation holds, key by key and in the same order, for every seat
    and a spectator; a view's lists are its own."""
    game = cardtable.new_game("sequence", players=players, teams=teams)
    for seed in (7, 8):
        for state in playout(game, seed, 400):
            for seat in [None, *range(players)]:
                view = state.view(seat, history=False)
                want = sequence_view_from_observation(state, seat)
                assert list(view) == list(want)
                for key in want:
                    assert view[key] == want[key], key
                assert list(view["chips"]) == list(want["chips"])   # cell order
    view = state.view(None, history=False)
    view["board"][0][0] = "changed"
    view["chips"].clear()
    view["discards"][0].append("changed")
    again = state.view(None, history=False)
    assert again == sequence_view_from_observation(state, None)
