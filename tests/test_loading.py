"""Loading refuses what it cannot trust: every bad or self-contradicting save is a
PositionError, and whatever loads plays on by the rules.

The fuzz test mutates saved states field by field (type swaps, nulls, numbers out of
range, lists cut short or lengthened, values taken from other fields) for every game at
several points of a game. Each refusal's own message is asserted by a row of
tests/test_refusals.py, which also fails when a refusal has no row.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalActionError, PositionError, State, records
from tests.configs import SHORT
from tests.conformance import check_illegal_inputs, check_views, roundtrip

# ---------------------------------------------------------------- saves to mutate

# the configurations whose random games end soon (tests/configs.py), so that saves of
# finished games are among those mutated
CONFIGS: list[tuple[str, dict[str, Any]]] = [(c.game, c.options) for c in SHORT]
# the points of a game to save at: moves made from the deal (-1: the end of the game)
POINTS = (0, 9, 120, 1500, -1)


def play_to(game: cardtable.Game, seed: int, moves: int) -> State:
    state = game.deal(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal and (moves < 0 or len(state.history) < moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def interesting(state: State) -> bool:
    """A moment the fuzz should see at least once: someone out, a reshuffle, an auction."""
    d = state.to_dict()
    return bool(d.get("went_out") is not None or d.get("reshuffled")
                or (d.get("deal") and d["deal"]["actions"][26:27]))


@cache
def saves() -> list[dict[str, Any]]:
    out = []
    for name, options in CONFIGS:
        game = cardtable.new_game(name, **options)
        for k, moves in enumerate(POINTS):
            out.append(play_to(game, 100 + k, moves).to_dict())
        # states just after something interesting happened
        state = game.deal(seed=7)
        rng = random.Random(7)
        found = 0
        while not state.is_terminal and found < 2:
            state.apply(rng.choice(state.legal_actions()))
            if interesting(state) and rng.random() < 0.05:
                out.append(state.to_dict())
                found += 1
    return [json.loads(json.dumps(d)) for d in out]


# ---------------------------------------------------------------- playing on by the rules


def plays_on_by_the_rules(state: State, max_steps: int = 300, heavy_every: int = 50) -> None:
    """A random playout from a loaded state, checking the conformance invariants."""
    rng = random.Random(len(state.history))
    n = state.game.num_players
    cards = Counter(state._all_cards())
    assert all(k <= state.game.decks for k in cards.values()), "a card more often than the decks"
    assert roundtrip(state).to_dict() == state.to_dict(), "the loaded state does not save alike"
    steps = 0
    while not state.is_terminal and steps < max_steps:
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert len({a.id for a in legal}) == len(legal)
        seat = state.current_player
        assert seat is not None and 0 <= seat < n
        assert Counter(state._all_cards()) == cards, "a card is lost or duplicated"
        assert len(state.scores) == n and state.winners == []
        if steps % heavy_every == 0:
            check_views(state, rng, resamples=1)
            check_illegal_inputs(state, rng)
            saved = roundtrip(state)
            assert saved.to_dict() == state.to_dict()
        state.apply(rng.choice(legal))
        steps += 1
    if state.is_terminal:
        assert state.legal_actions() == [] and state.current_player is None
        winners = state.winners
        assert all(0 <= s < n for s in winners)
        assert state.returns() == [
            (1.0 if s in winners else -1.0) if winners else 0.0 for s in range(n)]
        check_views(state, rng, resamples=1)
        with pytest.raises(IllegalActionError):
            state.apply(0)
    assert Counter(state._all_cards()) == cards


def load_or_refuse(data: Any) -> State | None:
    """The loaded state, or None when refused with a PositionError (anything else fails)."""
    try:
        return cardtable.state_from_dict(data)
    except PositionError as exc:
        assert str(exc), "a PositionError must say what is wrong"
        return None


# ---------------------------------------------------------------- mutations

Path = tuple[Any, ...]


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Every place in a saved state, the root excluded."""
    out: list[Path] = []
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return out
    for key, item in items:
        out.append((*prefix, key))
        out += paths(item, (*prefix, key))
    return out


def get(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def put(data: Any, path: Path, value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 2, 7, 1.5, 10**6, 2**32, -(2**40), "",
                         "x", "AS", "pass", [], [None], {}, {"x": 1}]


@st.composite
def mutated_save(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(draw(st.sampled_from(saves())))
    for _ in range(draw(st.integers(1, 2))):
        mutate(draw, data, saves())
    return data


#: every place of each save or record of the pools (they never change), by ``id``
_DONOR_PATHS: dict[int, list[Path]] = {}


def donor_paths(donor: dict[str, Any]) -> list[Path]:
    if id(donor) not in _DONOR_PATHS:
        _DONOR_PATHS[id(donor)] = paths(donor)
    return _DONOR_PATHS[id(donor)]


def mutate(draw: st.DrawFn, data: dict[str, Any], pool: list[dict[str, Any]]) -> None:
    """Change one place of ``data``; ``pool`` holds other saves to take well-formed values
    from (the same field of another game: typed right, but contradicting the rest)."""
    everywhere = paths(data)
    if draw(st.integers(0, 3)) == 0:
        donors = [d for d in pool if d.get("game") == data.get("game")
                  and d.get("options") == data.get("options")]
        if donors:
            donor = draw(st.sampled_from(donors))
            here = set(everywhere)
            shared = [p for p in donor_paths(donor) if p in here]
            path = draw(st.sampled_from(shared))
            put(data, path, copy.deepcopy(get(donor, path)))
            return
    # pick a top-level field first, so that the many words of the generator state and the
    # long history do not crowd out the small fields
    top = draw(st.sampled_from(sorted(data)))
    inside = [p for p in everywhere if p[0] == top]
    path = draw(st.sampled_from(inside))
    old = get(data, path)
    kind = draw(st.sampled_from(["odd", "number", "shorter", "longer", "other", "swap",
                                 "delete"]))
    if kind == "odd":
        put(data, path, copy.deepcopy(draw(st.sampled_from(ODD_VALUES))))
    elif kind == "number" and isinstance(old, int) and not isinstance(old, bool):
        put(data, path, old + draw(st.sampled_from([-2, -1, 1, 2, 13, -old - 1])))
    elif kind == "shorter" and isinstance(old, list) and old:
        del old[draw(st.integers(0, len(old) - 1))]
    elif kind == "longer" and isinstance(old, list) and old:
        old.insert(draw(st.integers(0, len(old))), copy.deepcopy(draw(st.sampled_from(old))))
    elif kind == "other":
        put(data, path, copy.deepcopy(get(data, draw(st.sampled_from(everywhere)))))
    elif kind == "swap" and isinstance(old, list) and len(old) > 1:
        i = draw(st.integers(0, len(old) - 1))
        j = draw(st.integers(0, len(old) - 1))
        old[i], old[j] = old[j], old[i]
    elif kind == "delete" and isinstance(get(data, path[:-1]), dict):
        del get(data, path[:-1])[path[-1]]
    else:
        put(data, path, copy.deepcopy(draw(st.sampled_from(ODD_VALUES))))


def refused_or_plays_on(data: dict[str, Any]) -> None:
    state = load_or_refuse(data)
    if state is not None:
        plays_on_by_the_rules(state)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_save())
def test_a_mutated_save_is_refused_or_plays_on_by_the_rules(data: dict[str, Any]) -> None:
    refused_or_plays_on(data)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_save())
def test_many_mutated_saves_are_refused_or_play_on(data: dict[str, Any]) -> None:
    refused_or_plays_on(data)


@pytest.mark.parametrize("index", range(len(saves())))
def test_every_unmutated_save_loads_and_plays_on(index: int) -> None:
    state = load_or_refuse(copy.deepcopy(saves()[index]))
    assert state is not None
    plays_on_by_the_rules(state)


# ---------------------------------------------------------------- game records


@cache
def saved_records() -> list[dict[str, Any]]:
    """Records of every game: finished, unfinished, and one from a setup position."""
    out = []
    for name, options in CONFIGS:
        game = cardtable.new_game(name, **options)
        out.append(records.record_of(play_to(game, 21, 40)).to_json())
        if name != "drawbridge" or options.get("target", 100) < 100:
            out.append(records.record_of(play_to(game, 22, -1)).to_json())
        start = game.setup(seed=5)
        state = start.clone()
        rng = random.Random(5)
        for _ in range(12):
            state.apply(rng.choice(state.legal_actions()))
        out.append(records.record_of(state, start=start).to_json())
    return [json.loads(json.dumps(r)) for r in out]


@st.composite
def mutated_record(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(draw(st.sampled_from(saved_records())))
    for _ in range(draw(st.integers(1, 2))):
        mutate(draw, data, saved_records())
    return data


def refused_or_replays(data: dict[str, Any]) -> None:
    try:
        record = records.from_json(data)
        final = records.replay(record)
    except records.RecordError as exc:
        assert str(exc)
        return
    # a record that loads starts from one place: its seed or its start, never both
    assert (record.seed is None) != (record.start is None)
    assert records.result_of(final) == record.result
    assert len(list(records.positions(record))) == len(record.actions) + 1


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_record())
def test_a_mutated_record_is_refused_with_a_record_error_or_replays(data: dict[str, Any]) -> None:
    refused_or_replays(data)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_record())
def test_many_mutated_records_are_refused_or_replay(data: dict[str, Any]) -> None:
    refused_or_replays(data)


def test_records_with_odd_option_names_are_record_errors() -> None:
    data = copy.deepcopy(saved_records()[0])
    data["options"] = {1: 2}
    with pytest.raises(records.RecordError, match="option"):
        records.from_json(data)
    save = copy.deepcopy(saves()[0])
    save["options"] = {(1, 2): 3}
    with pytest.raises(PositionError, match="option"):
        cardtable.state_from_dict(save)
