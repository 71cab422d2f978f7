"""Bots: legal, deterministic for a seed, blind to hidden cards; hints."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable import IllegalActionError, OptionsError
from cardtable.bots import KINDS, hint, make
from cardtable.bots.base import Heuristic, heuristic_for
from cardtable.bots.ismcts import ISMCTSBot
from cardtable.bots.sequence import HEURISTIC

BUDGET = {"iterations": 30}


def positions(name: str, count: int, seed: int) -> list[cardtable.State]:
    """Random positions along random games of ``name``."""
    rng = random.Random(seed)
    game = cardtable.new_game(name)
    out: list[cardtable.State] = []
    while len(out) < count:
        state = game.deal(seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 120)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            out.append(state)
    return out


def bot(kind: str, seed: int) -> cardtable.bots.Bot:
    return make(kind, seed=seed, **(BUDGET if kind == "ismcts" else {}))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", cardtable.game_names())
def test_bots_choose_legal_moves(name: str, kind: str) -> None:
    count = 15 if kind in ("ismcts", "lookahead") else 300
    player = bot(kind, seed=1)
    for state in positions(name, count, seed=7):
        assert player.choose(state) in state.legal_actions()


def whole_game(name: str, kind: str) -> cardtable.State:
    """The start of a game ``kind`` plays to its end here: for ISMCTS, whose moves cost
    milliseconds, a Draw Bridge match of one deal (target 1) and Three Thirteen's last round."""
    if kind == "ismcts" and name == "drawbridge":
        return cardtable.new_game(name, target=1).deal(seed=3)
    if kind == "ismcts" and name == "threethirteen":
        return cardtable.new_game(name).setup(round=11, seed=3)
    return cardtable.new_game(name).deal(seed=3)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", cardtable.game_names())
def test_bots_play_whole_games(name: str, kind: str) -> None:
    state = whole_game(name, kind)
    players = [bot(kind, seed=1), make("random", seed=2)]
    for _ in range(5000):
        if state.is_terminal:
            break
        state.apply(players[state.current_player].choose(state))  # type: ignore[index]
    assert state.is_terminal


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", cardtable.game_names())
def test_bots_are_deterministic_for_a_seed(name: str, kind: str) -> None:
    for state in positions(name, 5, seed=11):
        assert bot(kind, seed=4).choose(state) == bot(kind, seed=4).choose(state)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", cardtable.game_names())
def test_bots_never_read_a_hidden_card(name: str, kind: str) -> None:
    # the same bot, handed a state whose hidden cards were dealt afresh, chooses the same
    rng = random.Random(5)
    for state in positions(name, 6, seed=13):
        seat = state.current_player
        assert seat is not None
        shuffled = state.resample(seat, rng)
        assert bot(kind, seed=9).choose(state) == bot(kind, seed=9).choose(shuffled)


def test_reset_restarts_the_bot() -> None:
    state = positions("sequence", 1, seed=2)[0]
    player = bot("ismcts", seed=3)
    first = player.choose(state)
    player.choose(state)
    player.reset()
    assert player.choose(state) == first


@pytest.mark.parametrize(("kind", "budget", "message"), [
    ("minimax", {}, "unknown bot"),
    ("random", {"iterations": 5}, "takes no budget"),
    ("ismcts", {"iterations": 0}, "positive integer"),
    ("ismcts", {"seconds": -1}, "positive number"),
    ("ismcts", {"depth": 3}, "unknown bot setting"),
    ("ismcts", {"rollout": "smart"}, "rollout must be"),
    ("ismcts", {"root": "wide"}, "root must be"),
    ("ismcts", {"tree_size": 0}, "tree_size must be"),
])
def test_bad_bot_settings(kind: str, budget: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        make(kind, **budget)


@pytest.mark.parametrize("name", cardtable.game_names())
def test_hint_recommends_a_legal_move(name: str) -> None:
    state = positions(name, 1, seed=17)[0]
    advice = hint(state, state.current_player, {"iterations": 40}, seed=1)
    assert advice.action in state.legal_actions()
    assert 0.0 <= advice.win_probability <= 1.0
    with pytest.raises(IllegalActionError, match="not the seat to act"):
        hint(state, (state.current_player + 1) % state.game.num_players)  # type: ignore[operator]


@pytest.mark.parametrize(("name", "kind"), [("sequence", "blend"),
                                          ("threethirteen", "lookahead")])
def test_a_hint_gives_the_expert_bots_move_with_the_searchs_estimate(name: str,
                                                                    kind: str) -> None:
    """The expert level's bot is measured stronger than a hint's search in Sequence (the
    blend) and Three Thirteen (the lookahead): the hint is its move wherever the search
    tried that move, valued by the search."""
    given = 0
    for state in positions(name, 6, seed=23):
        seat = state.current_player
        advice = hint(state, seat, {"iterations": 200}, seed=4)
        expert = make(kind, seed=4).choose(state)
        searched = ISMCTSBot(4, iterations=200).search(state)
        if str(expert) in searched.values:
            assert advice.action == expert
            assert advice.win_probability == searched.values[str(expert)]
            given += 1
        else:
            assert advice.action == searched.action
    assert given >= 4


def test_heuristic_completes_a_sequence_when_it_can() -> None:
    game = cardtable.new_game("sequence")
    state = game.setup(hands=[["AH", "2D", "3D", "4D", "5D", "6D", "7D"],
                              ["QC", "8C", "7C", "6C", "5D", "6D", "8D"]],
                       chips={"b2": 0, "c2": 0, "d2": 0, "e2": 0}, current=0, seed=1)
    assert str(make("heuristic", seed=1).choose(state)) == "AH f2"


def test_heuristic_blocks_a_four() -> None:
    game = cardtable.new_game("sequence")
    state = game.setup(hands=[["AH", "2D", "3D", "4D", "5D", "6D", "7D"],
                              ["QC", "8C", "7C", "6C", "5D", "6D", "8D"]],
                       chips={"b2": 1, "c2": 1, "d2": 1, "e2": 1}, current=0, seed=1)
    assert str(make("heuristic", seed=1).choose(state)) == "AH f2"


def test_heuristic_knows_a_line_cannot_reuse_a_sequence() -> None:
    # b2-f2 is a sequence: g2 would make c2-g2 five in a row, but sharing four cells with
    # it, never a second sequence (RULES 2.5)
    game = cardtable.new_game("sequence")
    cells = ["b2", "c2", "d2", "e2", "f2"]
    state = game.setup(hands=[["KH", "2D", "3D", "4D", "5D", "6D", "7D"],
                              ["QC", "8C", "7C", "6C", "5D", "6D", "8D"]],
                       chips=dict.fromkeys(cells, 0), sequences=[[0, cells]], current=0, seed=1)
    scores = {str(a): v for v, a in HEURISTIC.scores(state, 0)}
    assert scores["KH g2"] < 100
    assert str(make("heuristic", seed=1).choose(state)) != "KH g2"


def test_every_game_heuristic_is_a_heuristic_and_the_defaults_change_nothing() -> None:
    state = cardtable.new_game("sequence").deal(seed=1)
    plain = Heuristic()
    assert plain.root_for(state) == "ucb" and plain.tree_size is None
    assert plain.estimate_of == "game" and plain.rollout_horizon == 10_000
    before = state.to_dict()
    rng = random.Random(1)
    assert plain.playout(state, rng) is None  # no playout of its own: ISMCTS plays randomly
    assert state.to_dict() == before and rng.random() == random.Random(1).random()
    with pytest.raises(NotImplementedError):
        plain.scores(state, 0)
    tuned = {name: heuristic_for(name) for name in cardtable.game_names()}
    assert all(isinstance(h, Heuristic) for h in tuned.values())
    assert (tuned["drawbridge"].estimate_of, tuned["threethirteen"].root,
            tuned["sequence"].tree_size) == ("match", "paired", 1000)
