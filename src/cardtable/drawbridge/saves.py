"""Saving and loading Draw Bridge matches, by replaying their actions.

A save holds the current deal as dealt (hands, stock, dealer, the match scores then)
with its actions so far, and a record of each finished deal (the hands when its auction
began, its auction and play, and its result). Loading trusts none of it: the current
deal is replayed from its cards, and each finished deal's auction and play from its
hands, through the game's own rules (``DrawBridgeState``); a save whose actions are not
legal, or whose recorded contract, tricks or points are not what the replay gives, is a
PositionError. No rule is written twice.
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.cards import CARD_NAMES, NUM_CARDS, card_names, cards_of, mask_of
from cardtable.core import (
    IllegalActionError,
    PositionError,
    check_card_supply,
    position_cards,
    position_seat,
    restore_base,
)
from cardtable.drawbridge.game import (
    ACTIONS,
    DRAW_TRICKS,
    HAND_SIZE,
    DealRecord,
    DrawBridge,
    DrawBridgeState,
    parse_call,
)

_CARD_IDS = {name: card for card, name in enumerate(CARD_NAMES)}


def save(state: DrawBridgeState) -> dict[str, Any]:
    """The current deal as dealt (with the match scores then), its actions so far, and the
    deals finished before it."""
    number, dealer, hands, stock, scores, records = state._deal_start
    return {
        "deal": {
            "number": number,
            "dealer": dealer,
            "hands": [card_names(cards_of(h)) for h in hands],
            "stock": card_names(stock),
            "scores": list(scores),
            "actions": [ACTIONS[a].notation for a in state._deal_actions()],
        },
        "records": [r.to_json() for r in state._records[:records]],
    }


def load(game: DrawBridge, data: dict[str, Any]) -> DrawBridgeState:
    """The saved match: each finished deal replayed from its hands, then the current deal
    replayed from its cards; PositionError saying what does not fit."""
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise PositionError("saved drawbridge state: 'deal' must be the current deal, a dict")
    saved_records = data.get("records")
    if not isinstance(saved_records, list):
        raise PositionError("saved drawbridge state: 'records' must be the list of finished "
                            "deals")
    records = [record_from_json(game, r) for r in saved_records]
    try:
        number = deal["number"]
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise PositionError(f"deal number must be a positive integer, not {number!r}")
        actions = deal["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise PositionError("deal actions must be a list of notations")
        state = game.setup(dealer=deal["dealer"], hands=deal["hands"], stock=deal["stock"],
                           scores=deal["scores"])
    except KeyError as exc:
        raise PositionError(f"saved drawbridge state lacks {exc.args[0]!r}") from None
    _check_match(game, number, state._deal_start[1], state._deal_start[4], records)
    restore_base(state, game, data)
    state._records = records
    _, dealer, hands, stock, scores, _ = state._deal_start
    state._deal_start = (number, dealer, hands, stock, scores, len(records))
    state._restart_deal()
    played: list[tuple[int, int]] = []
    for text in actions:
        seat = state._to_act
        try:
            aid = state._parse(text)
        except IllegalActionError as exc:
            raise PositionError(f"deal actions: {exc}") from None
        state._replay([aid])
        if state._deal_number != number:
            raise PositionError("deal actions run past the end of the deal")
        assert seat is not None
        played.append((seat, aid))
    history = [(seat, a.id) for seat, a in state.history]
    if played and history[-len(played):] != played:
        raise PositionError("history does not end with the current deal's actions, played by "
                            "the seats whose turn it was")
    return state


def _check_match(game: DrawBridge, number: int, dealer: int, scores: tuple[int, ...],
                 records: list[DealRecord]) -> None:
    """1.2 / 1.7: the deals are numbered from 1, alternate dealers and score below target."""
    for k, record in enumerate(records, 1):
        if record.number != k:
            raise PositionError(f"records: deal {record.number} stands where deal {k} belongs")
        if k > 1 and record.dealer == records[k - 2].dealer:
            raise PositionError(f"records: deal {k} has the dealer of deal {k - 1}; the deal "
                                "alternates")
    if number != len(records) + 1:
        raise PositionError(f"deal number {number} needs the records of the {number - 1} deals "
                            f"before it, not {len(records)}")
    if records and dealer == records[-1].dealer:
        raise PositionError(f"deal {number} has the dealer of deal {number - 1}; the deal "
                            "alternates")
    for seat in (0, 1):
        earned = sum(r.points[seat] for r in records)
        if scores[seat] < earned:
            raise PositionError(f"deal scores: seat {seat} has {scores[seat]} points, less than "
                                f"the {earned} its finished deals earned")


def record_from_json(game: DrawBridge, data: Any) -> DealRecord:
    """A finished deal from a save: its auction and play replayed from its hands by the
    rules; PositionError if they are not legal or do not give the saved result."""
    if not isinstance(data, dict):
        raise PositionError(f"a deal record is a dict, not {data!r}")
    try:
        number = data["deal_number"]
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise PositionError(f"record deal_number must be a positive integer, not {number!r}")
        dealer = position_seat("record dealer", data["dealer"], 2)
        saved_hands = data["hands"]
        if not isinstance(saved_hands, list) or len(saved_hands) != 2:
            raise PositionError(f"record of deal {number}: hands must be 2 hands of 13 cards")
        hands = [_cards("record hands", h) for h in saved_hands]
        if any(len(h) != HAND_SIZE for h in hands):
            raise PositionError(f"record of deal {number}: hands must be 2 hands of 13 cards")
        check_card_supply(hands[0] + hands[1], 1)
        auction = data["auction"]
        if not isinstance(auction, list):
            raise PositionError(f"record of deal {number}: auction must be a list of calls")
        calls = []
        for text in auction:
            aid = parse_call(text) if isinstance(text, str) else None
            if aid is None:
                raise PositionError(f"record of deal {number}: auction: {text!r} is not a call")
            calls.append(aid)
        cards = _cards("record play", data["play"])
        saved = {key: data[key] for key in ("contract", "declarer_tricks", "points")}
    except KeyError as exc:
        raise PositionError(f"a deal record lacks {exc.args[0]!r}") from None
    replayed = _replay_record(game, number, dealer, (mask_of(hands[0]), mask_of(hands[1])),
                              calls + cards)
    got = replayed.to_json()
    for key, value in saved.items():
        if value != got[key]:
            raise PositionError(f"record of deal {number}: {key} {value!r} does not follow "
                                f"from its auction and play, which give {got[key]!r}")
    return replayed


def _replay_record(game: DrawBridge, number: int, dealer: int, hands: tuple[int, int],
                   actions: list[int]) -> DealRecord:
    """The record the rules make of a deal's auction and play from the hands held when
    the auction began (the draw phase is not recorded: the 26 cards not in those hands
    stand for it, in card order)."""
    state = DrawBridgeState(game, random.Random(0), [0, 0])
    state._deal_start = (number, dealer, hands, (), (0, 0), 0)
    state._restart_deal()
    held = hands[0] | hands[1]
    state._played = [c for c in range(NUM_CARDS) if not held >> c & 1]
    state._winners = [1 - dealer] * DRAW_TRICKS
    state._start_auction()
    where = f"record of deal {number}"
    for aid in actions:
        if state._records:
            raise PositionError(f"{where}: {ACTIONS[aid]} comes after the end of the deal")
        if aid not in state._legal_action_ids():
            raise PositionError(f"{where}: {state._why_illegal(ACTIONS[aid])}")
        state._apply(ACTIONS[aid])
    if not state._records:
        raise PositionError(f"{where}: its auction and play do not finish the deal")
    return state._records[0]


def _cards(what: str, value: Any) -> list[int]:
    """``position_cards``, quick for a list of cards in exact notation (as saved)."""
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        cards = [_CARD_IDS.get(name) for name in value]
        if None not in cards:
            return cards  # type: ignore[return-value]
    return position_cards(what, value)
