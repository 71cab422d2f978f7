"""Three Thirteen's lookahead bot: legal under every option, blind to hidden cards, and its
discard checked against a plain oracle built on ``arrange``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable.bots import make
from cardtable.bots.lookahead import LookaheadBot
from cardtable.bots.threethirteen_lookahead import GOING_OUT, unseen
from cardtable.cards import card_name
from cardtable.threethirteen import arrange
from cardtable.threethirteen.game import DISCARD, ThreeThirteenState

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"aces": "both", "face_values": "counting"},
    {"all_wild_melds": False},
    {"players": 3},
    {"players": 5, "decks": 3},
]


def _named(options: dict[str, Any]) -> str:
    return ",".join(f"{key}={value}" for key, value in options.items()) or "defaults"


def positions(count: int, seed: int, **options: Any) -> list[ThreeThirteenState]:
    """Positions along random play from the start of random rounds."""
    rng = random.Random(seed)
    game = cardtable.new_game("threethirteen", **options)
    out: list[ThreeThirteenState] = []
    while len(out) < count:
        state = game.setup(round=rng.randrange(1, 12), seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 80)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            assert isinstance(state, ThreeThirteenState)
            out.append(state)
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=_named)
def test_it_plays_whole_rounds_against_random_play_under_every_option(
        options: dict[str, Any]) -> None:
    game = cardtable.new_game("threethirteen", **options)
    players = game.num_players
    for seed in range(2):
        state = game.setup(round=4 + 3 * seed, seed=seed)
        assert isinstance(state, ThreeThirteenState)
        bots = [make("lookahead", seed=1)] + [make("random", seed=s) for s in range(1, players)]
        start = state.round
        for _ in range(2000):
            if state.is_terminal or state.round != start:
                break
            seat = state.current_player
            assert seat is not None
            action = bots[seat].choose(state)
            assert action in state.legal_actions()
            state.apply(action)
        assert state.is_terminal or state.round != start


@pytest.mark.parametrize("options", OPTION_SETS[:3], ids=_named)
def test_it_reads_only_what_its_seat_may_know(options: dict[str, Any]) -> None:
    rng = random.Random(3)
    bot = make("lookahead", seed=1)
    for state in positions(25, seed=21, **options):
        seat = state.current
        assert bot.choose(state) == bot.choose(state.resample(seat, rng))


def test_the_unseen_cards_are_the_decks_less_what_the_seat_saw() -> None:
    for state in positions(40, seed=5, players=3):
        seat = state.current
        seen = Counter(state.hands[seat]) + Counter(state.discard)
        for other in range(3):
            if other != seat:
                seen.update(state._taken[other])
        expected = Counter({c: state.game.decks for c in range(52)}) - seen
        if state.reshuffled:
            assert unseen(state, seat) <= expected
        else:
            assert unseen(state, seat) == expected
        # the stock and the others' unknown cards are all among them
        hidden = Counter(state.stock)
        for other in range(3):
            if other != seat:
                hidden += Counter(state.hands[other]) - Counter(state._taken[other])
        assert Counter(state.stock) <= unseen(state, seat)
        assert hidden <= expected


def test_after_the_reshuffle_the_unseen_cards_are_the_old_pile_s_not_drawn_since() -> None:
    game = cardtable.new_game("threethirteen")
    state = game.setup(round=3, hands=[["AS", "2S", "9D", "KH", "QC"],
                                       ["7H", "8C", "JD", "3S", "4D"]],
                       stock=["6C", "5H"], discard=["TS", "9C", "2D", "KD"])
    assert isinstance(state, ThreeThirteenState)
    rng = random.Random(1)
    while not state.reshuffled:
        assert state.round == 3   # the two cards of the stock are gone within two turns
        state.apply(rng.choice(state.legal_actions()))
    checked = 0
    for _ in range(4):
        if state.is_terminal or state.round != 3:
            break
        checked += 1
        seat = state.current
        old_pile = Counter(state._reshuffle_pile) - Counter(state._drawn[seat])
        got = unseen(state, seat)
        assert got <= old_pile and Counter(state.stock) <= got
        assert not got & (Counter(state.hands[seat]) + Counter(state.discard))
        state.apply(rng.choice(state.legal_actions()))
    assert checked


def _penalty(cards: list[int], state: ThreeThirteenState) -> int:
    options = state.game.options
    return arrange([card_name(c) for c in cards], state.round, aces=options["aces"],
                   all_wild_melds=options["all_wild_melds"],
                   face_values=options["face_values"])[2]


def _after_draw(cards: list[int], pool: Counter[int], state: ThreeThirteenState,
                going_out: float) -> float:
    total = sum(pool.values())
    worth = 0.0
    for card, count in pool.items():
        held = cards + [card]
        least = min(_penalty(held[:i] + held[i + 1:], state) for i in range(len(held)))
        # going out: minus going_out a card dealt (3 cards in round 1)
        worth += count * (least if least else -going_out * (state.round + 2))
    return worth / total


def _worths(state: ThreeThirteenState, going_out: float) -> dict[int, float]:
    """The oracle: each discard's expected worth after the next draw, by ``arrange`` (every
    unseen card, every second discard)."""
    cards = list(state.hands[state.current])
    pool = unseen(state, state.current)
    worth = {}
    for card in set(cards):
        rest = list(cards)
        rest.remove(card)
        worth[card] = _after_draw(rest, pool, state, going_out)
    return worth


@pytest.mark.parametrize("going_out", [GOING_OUT, 0.0])
def test_its_discard_leaves_the_least_expected_worth_after_the_next_draw(
        going_out: float) -> None:
    # going_out 0 is the first lookahead, which counted going out as no penalty
    checked = 0
    for state in positions(200, seed=8):
        if state.drawing or state.went_out is not None or state.round > 4:
            continue
        worth = _worths(state, going_out)
        card = LookaheadBot(1, going_out=going_out).choose(state).id - DISCARD
        assert worth[card] == pytest.approx(min(worth.values()))
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_going_out_counts_below_a_hand_that_melds_by_luck() -> None:
    # a round-4 discard where going out's worth changes the card thrown: each weight's
    # card is the oracle's best for it
    state = positions(367, seed=8)[366]
    assert state.round == 4 and not state.drawing and state.went_out is None
    thrown = set()
    for going_out in (GOING_OUT, 0.0):
        worth = _worths(state, going_out)
        card = LookaheadBot(1, going_out=going_out).choose(state).id - DISCARD
        assert worth[card] == pytest.approx(min(worth.values()))
        thrown.add(card)
    assert len(thrown) == 2


def test_it_goes_out_and_on_its_last_turn_leaves_the_least_penalty() -> None:
    game = cardtable.new_game("threethirteen")   # round 1: threes are wild
    state = game.setup(round=1, dealer=1, hands=[["4S", "5S", "9D"], ["KD", "2C", "9H"]],
                       stock=["3H", "JC", "QD", "8C"], discard=["6S"])
    assert isinstance(state, ThreeThirteenState)
    bot = make("lookahead", seed=1)
    moves = []
    for _ in range(4):
        action = bot.choose(state)
        moves.append(str(action))
        state.apply(action)
    # seat 0 takes the 6S for a run and goes out; seat 1, on its last turn, leaves the
    # 9D (a pair is no meld), draws the 3H (wild, unmelded: 3 points) and throws the
    # king: 2 + 9 + 3
    assert moves == ["take", "discard 9D", "draw", "discard KD"]
    assert state.round == 2 and state.totals == (0, 14)


def test_it_takes_a_wild_card_from_the_discard_pile() -> None:
    state = cardtable.new_game("threethirteen").setup(
        round=1, hands=[["4S", "5S", "9D"], ["KD", "2C", "9H"]], stock=["JC", "QD", "8C"],
        discard=["3D"])
    assert str(make("lookahead", seed=1).choose(state)) == "take"
