"""The generic conformance checks every registered game goes through.

``check_playout`` plays one seeded random game and checks the invariants of
API.md after every move; the per-game option sets live in ``test_conformance.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable import IllegalActionError, State
from cardtable.cards import CARD_NAMES, deck

CARDS = frozenset(CARD_NAMES)


def full_deck_counts(state: State) -> Counter[int]:
    return Counter(deck(state.game.decks))


def roundtrip(state: State) -> State:
    return cardtable.state_from_dict(json.loads(json.dumps(state.to_dict())))


def snapshot(state: State) -> tuple[Any, ...]:
    """What ``state.to_dict()`` says, made and compared in a time that does not grow with
    the game: the history as its (seat, action) pairs, which give each entry's notation
    and id, and the rest written out. A long match's checks compare thousands of them."""
    history = state.history
    state.history = []
    try:
        rest = state.to_dict()
    finally:
        state.history = history
    return tuple(history), rest


def check_views(state: State, rng: random.Random, resamples: int = 2) -> None:
    """Views are JSON-able and unchanged by resampling what the seat cannot see.

    The history, the same public list in every view, is checked once; the per-seat views
    are compared without it, so that a check costs the same however long the game ran."""
    n = state.game.num_players
    spectator = state.view(None)
    assert json.loads(json.dumps(spectator)) == spectator
    assert spectator["hand"] == []
    assert spectator["history"] == [[s, a.notation] for s, a in state.history]
    assert state.view(n - 1)["history"] == spectator["history"]
    del spectator["history"]
    assert state.view(None, history=False) == spectator
    for seat in range(n):
        view = state.view(seat, history=False)
        assert json.loads(json.dumps(view)) == view
        assert len(view["hand_sizes"]) == n
        assert len(view["hand"]) == view["hand_sizes"][seat]
        assert isinstance(view["stock_size"], int)
        # resample depends only on what the seat knows: from a state the seat cannot tell
        # apart from this one, the same generator gives the very same state (bots rely on
        # this to prove they never read a hidden card); sort hidden pools before shuffling
        twin_seed = rng.getrandbits(32)
        alike = state.resample(seat, random.Random(twin_seed))
        again = state.resample(seat, rng).resample(seat, random.Random(twin_seed))
        assert snapshot(alike) == snapshot(again), "resample reads more than the seat knows"
        for _ in range(resamples):
            other = state.resample(seat, rng)
            assert other.view(seat, history=False) == view, (
                f"resample changed what seat {seat} sees")
            assert other.history == state.history, "resample changed the history"
            assert other.view(None, history=False) == spectator
            assert Counter(other._all_cards()) == Counter(state._all_cards())
            assert other.current_player == state.current_player
            if state.current_player == seat:
                assert [a.id for a in other.legal_actions()] == [
                    a.id for a in state.legal_actions()
                ]


def cards_named(data: Any) -> Counter[str]:
    """Every card a JSON-able value names (in lists, dicts and move notation such as
    "7H c4"), counted where it is named."""
    found: Counter[str] = Counter()
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            for token in value.split():
                if token in CARDS:
                    found[token] += 1
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return found


def public_cards(state: State) -> Counter[str]:
    """The cards the spectator's view names, its history left out but for the last round
    of moves (a move's event may name a card of the trick or the turn it ends): the whole
    history would make each check as long as the game so far."""
    recent = [action.notation for _, action in state.history[-2 * state.game.num_players:]]
    return cards_named(state.view(None, history=False)) + cards_named(recent)


def hands_of(state: State) -> list[Counter[str]]:
    return [Counter(state.view(s, history=False)["hand"]) for s in range(state.game.num_players)]


def check_event(state: State, action: cardtable.Action, mover: int,
                before: list[Counter[str]], seen: Counter[str] | None) -> list[Counter[str]]:
    """The move event of ``action`` (just applied by ``mover``): it names the move, its
    phase is one of the game's, and the cards each seat received add up to its hand's
    change. ``seen``: the cards the spectator's views before and after the move name; the
    event's public part names no other (it tells nothing a seat's view hides). Returns
    the hands after the move."""
    event = state.last_event
    assert event is not None and event.seat == mover and event.move == str(action)
    assert event.phase in state.game.declaration.phases
    json.dumps(event.for_seat(mover))
    after = hands_of(state)
    for seat in range(state.game.num_players):
        got = event.private.get(seat, {})
        assert set(got) <= {"drawn", "dealt"} and len(got) <= 1
        if "dealt" in got:
            assert after[seat] == Counter(got["dealt"]), f"seat {seat}: {event}"
            continue
        expected = before[seat].copy()
        if seat == mover and "card" in event.public:
            assert expected[event.public["card"]] > 0, f"{event}: the mover lacked its card"
            expected[event.public["card"]] -= 1
        expected.update(got.get("drawn", []))
        assert +expected == after[seat], f"seat {seat}'s hand does not follow {event}"
    if seen is not None:
        told = cards_named(event.public)
        assert not told - seen, f"{event} tells {told - seen}, which no view shows"
    assert event.for_seat(None) == {"seat": mover, "move": event.move, "phase": event.phase,
                                    "public": event.public}
    return after


def check_illegal_inputs(state: State, rng: random.Random) -> None:
    before = snapshot(state)
    legal_ids = {a.id for a in state.legal_actions()}
    illegal = [i for i in range(state.game.num_distinct_actions) if i not in legal_ids]
    for aid in rng.sample(illegal, min(5, len(illegal))):
        with pytest.raises(IllegalActionError):
            state.apply(aid)
        with pytest.raises(IllegalActionError):
            state.apply(state.game.actions[aid])
    for junk in ["", "zz9", "discard", "7H k11", -1, state.game.num_distinct_actions, None, 2.5]:
        with pytest.raises(IllegalActionError):
            state.apply(junk)  # type: ignore[arg-type]
    assert snapshot(state) == before, "a refused action changed the state"


def check_playout(
    game: cardtable.Game, seed: int, max_steps: int = 5000, heavy_every: int = 7
) -> State:
    """Play random legal moves from ``deal(seed)``, checking invariants as it goes.

    The heavy checks (views, saves, clones: each as long as the history) run every
    ``heavy_every`` steps at first, then after a twentieth of the game so far (about 14
    times each time the game's length doubles), so that a long match costs about linear
    time, not quadratic."""
    rng = random.Random(seed)
    state = game.deal(seed=seed)
    twin = game.deal(seed=seed)
    full = full_deck_counts(state)
    n = game.num_players
    steps = next_heavy = 0
    hands = hands_of(state)
    while not state.is_terminal and steps < max_steps:
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert len({a.id for a in legal}) == len(legal), "an action listed twice"
        assert state.current_player is not None and 0 <= state.current_player < n
        assert Counter(state._all_cards()) == full, "a card is lost or duplicated"
        assert len(state.scores) == n
        for a in legal:
            assert state.parse_action(str(a)) == a, f"{a} does not round-trip"
        heavy = steps >= next_heavy
        if heavy:
            next_heavy = steps + max(heavy_every, steps // 20)
        if heavy:
            check_views(state, rng)
            check_illegal_inputs(state, rng)
            copy, saved = state.clone(), roundtrip(state)
            assert saved.to_dict() == state.to_dict()
        action = rng.choice(legal)
        if heavy:
            before = snapshot(state)
            child = state.after(action)
            assert snapshot(state) == before, "after() changed the original"
            seen = public_cards(state)
        mover = state.current_player
        state.apply(action)
        hands = check_event(state, action, mover, hands,
                    seen + public_cards(state) if heavy else None)
        twin.apply(action.id)
        if heavy:
            assert snapshot(child) == snapshot(state)
            copy.apply(action)
            saved.apply(str(action))
            now = snapshot(state)
            assert snapshot(copy) == now, "clone() plays on differently"
            assert snapshot(saved) == now, "state_from_dict plays on differently"
        steps += 1
    assert len(state.history) == steps
    assert twin.to_dict() == state.to_dict(), "same seed and actions gave another game"
    if state.is_terminal:
        assert state.legal_actions() == []
        assert state.current_player is None
        returns = state.returns()
        winners = state.winners
        assert returns == [(1.0 if s in winners else -1.0) if winners else 0.0 for s in range(n)]
        check_views(state, rng)
        with pytest.raises(IllegalActionError):
            state.apply(0)
    else:
        assert state.returns() == [0.0] * n
        assert state.winners == []
    assert Counter(state._all_cards()) == full
    return state


def options_id(name: str, options: dict[str, Any]) -> str:
    return name + "(" + ",".join(f"{k}={v}" for k, v in options.items()) + ")"
