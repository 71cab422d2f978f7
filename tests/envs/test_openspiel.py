"""OpenSpiel: random_sim_test, reloading by name, resampling, playthrough golden files, and
OpenSpiel's Python ISMCTS and MCTS bots playing whole games.

Regenerate the golden files with ``python -m tests.envs.test_openspiel --regenerate``.
"""

from __future__ import annotations

import json
import pickle
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed: pip install 'cardtable[openspiel]'")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts  # noqa: E402

import cardtable  # noqa: E402
import cardtable.envs.openspiel  # noqa: E402, F401  (registers the games)
from tests.envs.common import GAMES  # noqa: E402

PLAYTHROUGHS = Path(__file__).resolve().parents[1] / "data" / "playthroughs"

# (game string, sims): Draw Bridge matches between random players run to thousands of moves
# and Three Thirteen always does, and OpenSpiel's checks read every player's information
# state (which holds the history) at every move: one whole game of each, the others capped
SIMS = [
    ("python_cardtable_sequence", 6),
    ("python_cardtable_sequence(players=4)", 3),
    ("python_cardtable_sequence(players=6,teams=3,max_turns=40)", 2),
    ("python_cardtable_drawbridge(target=20)", 1),  # a whole match, a short one
    ("python_cardtable_drawbridge(max_moves=600)", 2),
    ("python_cardtable_drawbridge(target=30,show_stock_top=True,follow_suit_in_draw=True,"
     "draw_trick_winner=suit-led,undertricks=True,max_moves=400)", 2),
    ("python_cardtable_threethirteen", 1),
    ("python_cardtable_threethirteen(players=4,aces=both,max_moves=500)", 1),
    ("python_cardtable_threethirteen(players=12,max_moves=300)", 1),
    ("python_cardtable_threethirteen(players=5,decks=4,max_moves=300)", 1),
]
# (file, game string, playthrough seed): seeds that give short whole games of Sequence and
# Draw Bridge; a game of Three Thirteen has thousands of moves, so it is cut after 60
GOLDEN = [
    ("sequence.txt", "python_cardtable_sequence", 14),
    ("drawbridge.txt", "python_cardtable_drawbridge", 75),
    ("threethirteen.txt", "python_cardtable_threethirteen(max_moves=60)", 1),
]


def known(game_string: str) -> bool:
    return game_string.removeprefix("python_cardtable_").split("(")[0] in GAMES


@pytest.mark.parametrize(("game_string", "sims"), [
    # a whole match with no max_moves is a long playout: slow
    pytest.param(g, n, id=g, marks=[] if "max_moves" in g else [pytest.mark.slow])
    for g, n in SIMS if known(g)])
def test_random_sim_test_with_serialization(game_string: str, sims: int) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(game_string), num_sims=sims, serialize=True,
                            verbose=False)


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for name in cardtable.game_names():
        assert f"python_cardtable_{name}" in names


def test_parameters_survive_reloading_by_name() -> None:
    game = pyspiel.load_game("python_cardtable_sequence(players=4)")
    assert game.num_players() == 4 and game.get_parameters()["players"] == 4
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.num_players() == 4
    assert pickle.loads(pickle.dumps(game)).num_players() == 4
    nine = pyspiel.load_game("python_cardtable_sequence(players=9)")
    assert nine.cardtable_game.options["teams"] == 3  # teams=0: the game's default
    state = nine.new_initial_state()
    while state.is_chance_node():
        state.apply_action(7)
    state.apply_action(state.legal_actions()[0])
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(nine, state))
    assert copy[0].num_players() == 9 and str(copy[1]) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="players=5 is not allowed"):
        pyspiel.load_game("python_cardtable_sequence(players=5)")
    with pytest.raises(ValueError, match="max_moves"):
        pyspiel.load_game("python_cardtable_sequence(max_moves=0)")


@pytest.mark.parametrize(("game_string", "zero_sum"), [
    ("python_cardtable_sequence", True),
    ("python_cardtable_sequence(players=4)", True),
    ("python_cardtable_sequence(players=6)", True),
    ("python_cardtable_sequence(players=3)", False),
    ("python_cardtable_sequence(players=6,teams=3)", False),
    ("python_cardtable_drawbridge", True),
    ("python_cardtable_threethirteen", True),
    ("python_cardtable_threethirteen(players=3)", False),
])
def test_two_sided_games_are_zero_sum(game_string: str, zero_sum: bool) -> None:
    """#36: two-player Sequence and Three Thirteen said GENERAL_SUM, which keeps
    OpenSpiel's zero-sum algorithms (CFR's exploitability, minimax) off them."""
    if not known(game_string):
        pytest.skip("game not registered")
    game = pyspiel.load_game(game_string)
    kind = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().utility == kind
    assert pyspiel.load_game(str(game)).get_type().utility == kind
    assert pickle.loads(pickle.dumps(game)).get_type().utility == kind
    if zero_sum:
        assert game.utility_sum() == 0.0


class _Tie:
    """A finished game every seat won (a Three Thirteen tie on the lowest total)."""

    is_terminal = True
    winners = (0, 1)

    def returns(self) -> list[float]:
        return [1.0, 1.0]


def test_a_game_every_seat_wins_is_a_draw() -> None:
    """Zero-sum holds in Three Thirteen's ties too: both seats lowest is all returns 0."""
    game = pyspiel.load_game("python_cardtable_threethirteen")
    state = game.new_initial_state()
    state.held = cardtable.envs.openspiel._Held(_Tie())  # type: ignore[arg-type]
    assert state.returns() == [0.0, 0.0]


def test_the_seed_bytes_deal_the_game() -> None:
    game = pyspiel.load_game("python_cardtable_sequence")
    state = game.new_initial_state()
    for byte in (1, 2, 3, 4):
        assert state.is_chance_node()
        assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
        state.apply_action(byte)
    expected = cardtable.new_game("sequence").deal(seed=0x01020304)
    assert state.cardtable_state.to_dict() == expected.to_dict()
    assert state.legal_actions() == sorted(a.id for a in expected.legal_actions())


def dealt(game_string: str, seed: int) -> list:
    """States along a seeded random game, after the chance nodes."""
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    out: list[Any] = []
    while not state.is_terminal() and len(out) < 60:
        if state.is_chance_node():
            state.apply_action(int(rng.randint(256)))
            continue
        out.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_what_the_player_knows(name: str) -> None:
    """OpenSpiel's ResampleInfostateTest, and the hidden cards really are dealt afresh."""
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    changed = 0
    for state in dealt(f"python_cardtable_{name}", seed=1)[::3]:
        for player in range(state.num_players()):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(
                player)
            assert other.information_state_tensor(player) == state.information_state_tensor(
                player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.current_player() == state.current_player()
            assert other.history() == state.history()
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            changed += str(other) != str(state)
    assert changed > 0


def test_resampling_is_reproducible_with_a_seeded_sampler() -> None:
    state = dealt("python_cardtable_sequence", seed=2)[5]
    a = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    b = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert str(a) == str(b)


@pytest.mark.parametrize("name", GAMES)
def test_tensors_and_strings_are_the_player_s_view(name: str) -> None:
    """Tensors are the seat's encoder tensor; strings are its view (the information state
    with the view's history, the observation without), public and private parts apart."""
    state = dealt(f"python_cardtable_{name}", seed=3)[10]
    inner = state.cardtable_state
    encoder = state.get_game().encoder
    public = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    private = pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    public_obs = state.get_game().make_py_observer(public)
    private_obs = state.get_game().make_py_observer(private)
    for player in range(state.num_players()):
        tensor = encoder.encode(inner, player)
        assert np.array_equal(np.array(state.observation_tensor(player), np.float32), tensor)
        assert state.information_state_tensor(player) == state.observation_tensor(player)
        view = {k: v for k, v in inner.view(player).items() if k != "legal"}
        assert json.loads(state.information_state_string(player)) == view
        del view["history"]
        assert json.loads(state.observation_string(player)) == view
        public_obs.set_from(state, player)
        private_obs.set_from(state, player)
        assert np.array_equal(public_obs.tensor + private_obs.tensor, tensor)
        assert not public_obs.tensor[encoder.private].any()
        assert "hand" not in json.loads(public_obs.string_from(state, player)) or json.loads(
            public_obs.string_from(state, player))["hand"] == []
        assert json.loads(private_obs.string_from(state, player))["hand"] == view["hand"]


def bot_game(game_string: str, seed: int) -> tuple[int, list[float]]:
    """A plain game loop: chance by its probabilities, ISMCTS for seat 0, MCTS for the others."""
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)]
    bots += [mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator,
                          random_state=rng) for _ in range(game.num_players() - 1)]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    return moves, state.returns()


@pytest.mark.slow
@pytest.mark.parametrize("game_string", [
    g for g in ("python_cardtable_sequence", "python_cardtable_sequence(players=3,max_moves=150)",
                "python_cardtable_drawbridge(max_moves=150)",
                "python_cardtable_threethirteen(max_moves=150)") if known(g)])
def test_ismcts_and_mcts_bots_play_whole_games(game_string: str) -> None:
    moves, returns = bot_game(game_string, seed=1)
    assert moves > 0 and all(r in (-1.0, 0.0, 1.0) for r in returns)


def playthrough_text(game_string: str, seed: int, actions: list[int] | None = None) -> str:
    return str(generate_playthrough.playthrough(game_string, actions, seed=seed))


@pytest.mark.parametrize(("filename", "game_string"),
                         [pytest.param(f, g, id=f) for f, g, _ in GOLDEN if known(g)])
def test_playthrough_matches_the_golden_file(filename: str, game_string: str) -> None:
    golden = (PLAYTHROUGHS / filename).read_text(encoding="utf-8")
    assert golden.startswith(f"game: {game_string}\n")
    actions = [int(a) for a in re.findall(r"^action: (\d+)$", golden, flags=re.M)]
    assert playthrough_text(game_string, 0, actions) == golden, (
        f"regenerate with: python -m tests.envs.test_openspiel --regenerate ({filename})")


def regenerate() -> None:
    PLAYTHROUGHS.mkdir(parents=True, exist_ok=True)
    for filename, game_string, seed in GOLDEN:
        if known(game_string):
            (PLAYTHROUGHS / filename).write_text(playthrough_text(game_string, seed),
                                                 encoding="utf-8")
            print("wrote", PLAYTHROUGHS / filename)


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python -m tests.envs.test_openspiel --regenerate")
    regenerate()
