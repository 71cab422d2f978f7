"""Draw Bridge's trained draw policy (cardtable.bots.drawbridge_draw): which card it gives
up, checked against a plain reading of its formula, and where the bots play it."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

import cardtable
from cardtable.bots import make
from cardtable.bots.drawbridge_draw import HIGH_CARD_POINTS, DrawWeights, draw_card, shipped
from cardtable.bots.perfect import PerfectBot
from cardtable.cards import mask_of, parse_card
from cardtable.drawbridge import DrawBridgeState
from cardtable.drawbridge.game import POWER


def deal(seed: int, **options: object) -> DrawBridgeState:
    state = cardtable.new_game("drawbridge", **options).deal(seed=seed)
    assert isinstance(state, DrawBridgeState)
    return state


def plain_keep(weights: DrawWeights, hand: int, card: int) -> float:
    """The formula of the module's docstring, read card by card."""
    suit = card // 13
    held = [c for c in range(52) if hand >> c & 1 and c // 13 == suit]
    points = sum(HIGH_CARD_POINTS[POWER[c]] for c in held)
    return (weights.rank[POWER[card]] + weights.length[len(held)]
            + weights.suit_points * points + (weights.major if suit < 2 else 0.0))


def test_the_weights_round_trip_and_bad_sizes_are_refused() -> None:
    w = shipped()
    assert DrawWeights.from_vector(w.vector()) == w
    assert DrawWeights.from_json(json.loads(json.dumps(w.to_json()))) == w
    with pytest.raises(ValueError, match="29 values"):
        DrawWeights.from_vector([0.0] * 5)
    with pytest.raises(ValueError, match="13 rank and 14 length"):
        DrawWeights((0.0,), (0.0,) * 14, 0.0, 0.0)


def test_the_shipped_weights_name_the_run_that_made_them() -> None:
    data = json.loads((resources.files("cardtable.bots") / "data" /
                       "drawbridge_draw.json").read_text(encoding="utf-8"))
    assert data["trained_with"]["command"] == "python -m cardtable.train drawbridge"
    assert data["generations"] >= 1


def test_keep_values_follow_the_formula_and_the_least_is_given_up() -> None:
    rng = random.Random(1)
    for weights in (shipped(), DrawWeights.start(),
                    DrawWeights.from_vector([rng.uniform(-3, 3) for _ in range(29)])):
        for _ in range(50):
            hand = mask_of(rng.sample(range(52), 13))
            values = weights.keep_values(hand)
            for card in range(52):
                assert values[card] == pytest.approx(plain_keep(weights, hand, card))
            state = deal(rng.randrange(1000))
            legal = state.legal_actions()
            hand = state.hand_masks[state.current_player]  # type: ignore[index]
            chosen = weights.shed(hand, legal)
            assert chosen in legal
            assert all(plain_keep(weights, hand, chosen.id) <= plain_keep(weights, hand, a.id)
                       + 1e-9 for a in legal)


def test_a_long_suit_s_low_card_is_kept_over_a_higher_singleton() -> None:
    # the heuristic gives up the 2 of spades, the lowest; the trained weights keep the
    # five spades headed by the ace and give up the lone 3 of clubs
    cards = ["AS", "KS", "QS", "JS", "2S", "3C", "5H", "6H", "9H", "4D", "7D", "8D", "TD"]
    hand = mask_of(parse_card(c) for c in cards)
    game = cardtable.new_game("drawbridge")
    legal = [a for a in game.actions if a.id < 52 and hand >> a.id & 1]
    for weights in (DrawWeights.start(), shipped()):
        assert str(weights.shed(hand, legal)) == "3C"


def test_draw_card_is_only_for_the_draw_phase() -> None:
    state = deal(2)
    bot = make("heuristic", seed=1)
    while state.phase == "draw":
        state.apply(draw_card(state))
    with pytest.raises(ValueError, match="draw phase"):
        draw_card(state)
    assert state.phase == "auction" and bot.choose(state) in state.legal_actions()


@pytest.mark.parametrize("winner", ["highest", "suit-led"])
def test_with_the_stock_top_shown_it_plays_for_it_as_the_heuristic_or_loses_the_trick(
        winner: str) -> None:
    # the heuristic decides whether to play for the card shown; when it does not, an
    # answer gives up the card worth least kept among those that lose the trick
    rng = random.Random(3)
    heuristic = make("heuristic", seed=1)
    seen = {"for it": 0, "leads": 0, "loses": 0}
    for seed in range(30):
        state = deal(seed, show_stock_top=True, draw_trick_winner=winner)
        while state.phase == "draw":
            legal = state.legal_actions()
            theirs, mine = heuristic.choose(state), draw_card(state)
            lead = state.observation(state.current_player).lead
            if POWER[theirs.id] > min(POWER[a.id] for a in legal) or lead is None:
                assert mine == theirs
                seen["for it" if lead is not None else "leads"] += 1
            else:
                losing = []
                for a in legal:
                    after = state.clone()
                    after.apply(a)
                    trick = after.observation(None).last_trick
                    assert trick is not None
                    if trick.winner != state.current_player:
                        losing.append(a)
                if not losing:  # every card wins: the heuristic's lowest
                    assert mine == theirs
                else:
                    hand = state.hand_masks[state.current_player]  # type: ignore[index]
                    values = shipped().keep_values(hand)
                    assert mine in losing
                    assert values[mine.id] == min(values[a.id] for a in losing)
                    seen["loses"] += 1
            state.apply(rng.choice(legal))
    assert all(seen.values()), seen


def test_the_perfect_bot_draws_by_the_policy_and_perfect_v1_by_the_heuristic() -> None:
    rng = random.Random(4)
    heuristic = make("heuristic", seed=1)
    differ = 0
    for seed in range(10):
        state = deal(seed, undertricks=True)
        while state.view(0)["stock_size"] > 2:  # before the last draw trick's search
            assert make("perfect", seed=1).choose(state) == draw_card(state)
            assert make("trained", seed=1).choose(state) == draw_card(state)
            assert make("perfect-v1", seed=1).choose(state) == heuristic.choose(state)
            differ += draw_card(state) != heuristic.choose(state)
            state.apply(rng.choice(state.legal_actions()))
        # the last trick: both search, over their own draw policy's candidates
        for draw in ("trained", "heuristic"):
            bot = PerfectBot(seed=1, draw=draw)
            legal = state.legal_actions()
            assert bot.choose(state) in bot.draw_candidates(state, legal)
    assert differ  # the two policies are not the same
    with pytest.raises(ValueError, match="draw is"):
        PerfectBot(draw="random")


@pytest.mark.parametrize("options", [{}, {"follow_suit_in_draw": True},
                                     {"draw_trick_winner": "suit-led"},
                                     {"show_stock_top": True, "undertricks": True}])
def test_the_draw_policy_is_legal_and_blind_to_hidden_cards(options: dict[str, object]) -> None:
    rng = random.Random(5)
    for seed in range(6):
        state = deal(seed, **options)
        while state.phase == "draw":
            seat = state.current_player
            assert seat is not None
            card = draw_card(state)
            assert card in state.legal_actions()
            # the same card from a state that differs only in what the seat cannot see
            assert draw_card(state.resample(seat, rng)) == card
            state.apply(card if rng.random() < 0.5 else rng.choice(state.legal_actions()))


def test_a_draw_phase_hint_gives_the_perfect_bot_s_card_with_the_search_s_estimate() -> None:
    from cardtable.bots import ISMCTSBot, hint

    rng = random.Random(6)
    given = 0
    for seed in range(4):
        state = deal(seed, undertricks=True)
        for _ in range(rng.randrange(0, 20)):
            state.apply(rng.choice(state.legal_actions()))
        advice = hint(state, state.current_player, {"iterations": 100}, seed=4)
        card = make("perfect", seed=4).choose(state)
        searched = ISMCTSBot(4, iterations=100).search(state)
        if str(card) in searched.values:
            assert advice.action == card
            assert advice.win_probability == searched.values[str(card)]
            given += 1
        else:
            assert advice.action == searched.action
    assert given >= 2
