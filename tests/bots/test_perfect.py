"""The perfect bot (cardtable.bots.perfect): never a trick or a call below par."""

from __future__ import annotations

import random

import cardtable
from cardtable.bots import hint, make
from cardtable.bots.perfect import PerfectBot, known_hands
from cardtable.cards import mask_of, parse_card
from cardtable.drawbridge import DrawBridgeState
from cardtable.drawbridge.game import parse_call
from cardtable.drawbridge.solver import PlayPosition, auction_of, card_values, solve


def match(seed: int, **options: object) -> DrawBridgeState:
    state = cardtable.new_game("drawbridge", **options).deal(seed=seed)
    assert isinstance(state, DrawBridgeState)
    return state


def test_the_view_deduces_the_other_hand_from_the_auction_on() -> None:
    state = match(3)
    rng = random.Random(3)
    while state.phase == "draw":
        assert state.view(0)["deduced_hand"] is None  # the stock still hides cards
        state.apply(rng.choice(state.legal_actions()))
    for move in ["1C", "pass", None, None, None]:  # the auction, then the first cards
        for seat in (0, 1):
            view = state.view(seat, history=False)
            assert mask_of(parse_card(c) for c in view["deduced_hand"]) == \
                state.hand_masks[1 - seat]
            assert known_hands(view) == state.hand_masks
        assert state.view(None)["deduced_hand"] is None  # a spectator holds no cards
        state.apply(move or state.legal_actions()[0])


def test_two_perfect_bots_reach_par_and_take_every_trick_par_gives() -> None:
    for seed, options in ((5, {"undertricks": True}), (6, {}), (7, {"undertricks": True})):
        state = match(seed, **options)
        bots = [make("perfect", seed=seed), make("perfect", seed=seed + 1)]
        while state.phase == "draw":
            state.apply(bots[state.current_player].choose(state))  # type: ignore[index]
        par = auction_of(state).par()
        while state.deal_number == 1 and not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            if state.phase == "play":
                # every card keeps the value of the position: no trick lost against par
                position = PlayPosition.of(state)
                choice = bots[seat].choose(state)
                assert card_values(position)[choice.id] == solve(position)[seat]
                state.apply(choice)
            else:
                state.apply(bots[seat].choose(state))
        record = state.records[0]
        assert record.contract == par.contract
        assert record.points == par.points
        assert record.declarer_tricks == par.declarer_tricks


def test_every_call_of_the_perfect_bot_is_a_best_call() -> None:
    rng = random.Random(8)
    for seed in range(4):
        state = match(seed, undertricks=bool(seed % 2))
        while state.phase == "draw":
            state.apply(rng.choice(state.legal_actions()))
        auction = auction_of(state)
        bot = make("perfect", seed=seed)
        while state.phase == "auction":
            seat = state.current_player
            assert seat is not None
            calls = [parse_call(c) for _, c in state.view(seat)["auction"]]
            values = auction.call_values([c for c in calls if c is not None])
            best = max(values.values()) if seat == 0 else min(values.values())
            call = bot.choose(state)
            assert values[call.id] == best
            # and the opponent errs now and then: the bot must answer any call
            state.apply(call if rng.random() < 0.5 else rng.choice(state.legal_actions()))


def test_the_draw_search_tries_legal_cards_only() -> None:
    state = match(9)
    rng = random.Random(9)
    while state.view(0)["stock_size"] > 2:
        state.apply(rng.choice(state.legal_actions()))
    bot = PerfectBot(seed=1)
    legal = state.legal_actions()
    candidates = bot.draw_candidates(state, legal)
    assert candidates and set(candidates) <= set(legal)
    assert bot.choose(state) in candidates


def test_a_play_hint_is_exact() -> None:
    state = match(5, undertricks=True)
    bot = make("heuristic", seed=1)
    while state.phase != "play":
        state.apply(bot.choose(state))
    seat = state.current_player
    assert seat is not None
    advice = hint(state, seat)
    position = PlayPosition.of(state)
    assert advice.exact and advice.estimate_of == "match"
    assert card_values(position)[advice.action.id] == solve(position)[seat]
    assert advice.detail is not None
    assert advice.detail.startswith(f"you take {solve(position)[seat]} tricks in all; ")
