"""Draw Bridge states: saving and loading, notation round-trips, scoring properties."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable import PositionError
from cardtable.drawbridge import DrawBridgeState, score_deal, to_pbn
from cardtable.drawbridge.scoring import STRAINS
from tests.drawbridge.positions import deal


def played(seed: int, steps: int, **options: Any) -> DrawBridgeState:
    s = deal(seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def reload(s: cardtable.State) -> cardtable.State:
    return cardtable.state_from_dict(json.loads(json.dumps(s.to_dict())))


@pytest.mark.parametrize("steps", [0, 1, 26, 27, 30, 60, 200, 5000])
def test_saved_states_play_on_identically(steps: int) -> None:
    s = played(7, steps, undertricks=True, target=400, show_stock_top=True)
    t = reload(s)
    assert t.to_dict() == s.to_dict()
    assert t.view(0) == s.view(0) and t.view(None) == s.view(None)
    assert to_pbn(t) == to_pbn(s)  # type: ignore[arg-type]
    rng = random.Random(1)
    for _ in range(100):
        if s.is_terminal:
            break
        a = rng.choice(s.legal_actions())
        s.apply(a)
        t.apply(a)
    assert t.to_dict() == s.to_dict()


def test_a_finished_match_saves_and_loads() -> None:
    s = played(2, 20_000, undertricks=True)
    assert s.is_terminal
    t = reload(s)
    assert t.is_terminal and t.winners == s.winners and t.scores == s.scores


def tamper(s: cardtable.State, change: Any) -> dict[str, Any]:
    d = copy.deepcopy(s.to_dict())
    change(d)
    return d


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["deal"]["actions"].append("2C"), "not legal"),
    (lambda d: d["deal"]["actions"].__setitem__(0, "zz"), "not Draw Bridge notation"),
    (lambda d: d["deal"]["hands"][0].pop(), "holds 12 cards"),
    (lambda d: d["deal"]["stock"].__setitem__(0, d["deal"]["hands"][0][0]), "appears 2 times"),
    (lambda d: d["deal"].pop("dealer"), "lacks 'dealer'"),
    (lambda d: d["deal"].__setitem__("number", 0), "deal number"),
    (lambda d: d["records"][0].__setitem__("points", [999, 0]), "points .* does not follow"),
    (lambda d: d["records"][0]["hands"][0].pop(), "2 hands of 13"),
    (lambda d: d["records"][0]["auction"].append("9Z"), "not a call"),
    (lambda d: d["records"][0].__setitem__("contract", {"level": 9}),
     "contract .* does not follow"),
    (lambda d: d["history"].append([0, "2C", 0]), "history"),
])
def test_inconsistent_saved_states_are_position_errors(change: Any, message: str) -> None:
    s = played(7, 300, target=10_000)
    assert s.records and s.phase == "draw" and s.to_dict()["deal"]["actions"]
    with pytest.raises(PositionError, match=message):
        cardtable.state_from_dict(tamper(s, change))


def test_deal_actions_may_not_run_into_the_next_deal() -> None:
    s = played(7, 0)
    d = s.to_dict()
    t = played(7, 0)
    rng = random.Random(3)
    while t.view(None)["deal_number"] == 1:
        t.apply(rng.choice(t.legal_actions()))
    d["deal"]["actions"] = [str(a) for _, a in t.history]
    with pytest.raises(PositionError, match="past the end of the deal"):
        cardtable.state_from_dict(d)


@given(st.integers(0, 10_000), st.integers(0, 120))
def test_every_legal_action_round_trips_through_its_notation(seed: int, steps: int) -> None:
    s = played(seed, steps, follow_suit_in_draw=seed % 2 == 0)
    for a in s.legal_actions():
        assert s.parse_action(str(a)) == a
        assert s.parse_action(str(a).lower()) == a
        if str(a)[0] == "T":
            assert s.parse_action("10" + str(a)[1]) == a


@given(st.integers(1, 7), st.sampled_from(STRAINS), st.integers(0, 2), st.integers(0, 13),
       st.booleans())
def test_score_deal_properties(level: int, strain: str, doubled: int, tricks: int,
                               undertricks: bool) -> None:
    declarer, defender = score_deal(level, strain, doubled, tricks, undertricks)
    made = tricks >= 6 + level
    assert (declarer > 0) == made
    assert (defender > 0) == (not made and undertricks)
    if made:
        per_trick = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[strain]
        bonus = 10 if strain == "NT" else 0
        assert declarer == (per_trick * (tricks - 6) + bonus) * (1, 2, 4)[doubled]
        if tricks < 13:
            assert score_deal(level, strain, doubled, tricks + 1, undertricks)[0] > declarer
    elif undertricks:
        assert defender == (6 + level - tricks) * (50, 100, 200)[doubled]
