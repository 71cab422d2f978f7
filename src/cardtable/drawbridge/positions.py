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
    missing_cards,
    new_rng,
    position_cards,
    position_seat,
    restore_base,
    unknown_keys,
)
from cardtable.drawbridge.game import (
    ACTIONS,
    BEATS_DRAW,
    DRAW,
    DRAW_TRICKS,
    HAND_SIZE,
    DealRecord,
    DrawBridgeGame,
    DrawBridgeState,
    _Trick,
    parse_call,
    trick_result,
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
            # the last trick of the deal before (the view's last_trick until one is done)
            "previous_trick": _trick_json(state._trick_before_deal),
        },
        "records": [r.to_json() for r in state._records[:records]],
    }


def load(game: DrawBridgeGame, data: dict[str, Any]) -> DrawBridgeState:
    """The saved match: each finished deal replayed from its hands, then the current deal
    replayed from its cards; PositionError saying what does not fit."""
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise PositionError("saved drawbridge state: 'deal' must be the current deal, a dict")
    saved_records = data.get("records")
    if not isinstance(saved_records, list):
        raise PositionError("saved drawbridge state: 'records' must be the list of finished "
                            "deals")
    replayed = [_read_record(game, r) for r in saved_records]
    records = [record for record, _ in replayed]
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
    state._trick_before_deal = _previous_trick(game, deal.get("previous_trick"), replayed)
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


def _check_match(game: DrawBridgeGame, number: int, dealer: int, scores: tuple[int, ...],
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


def _trick_json(trick: _Trick | None) -> dict[str, Any] | None:
    result = trick_result(trick)
    return None if result is None else result.to_json()


def _previous_trick(game: DrawBridgeGame, saved: Any,
                    replayed: list[tuple[DealRecord, _Trick | None]]) -> _Trick | None:
    """The last trick of the deal before the current one: the replay of its record gives
    it when the deal was played; a passed-out deal's record holds no trick (its draw phase
    is not recorded), so the save's ``previous_trick`` is read and checked as far as the
    record allows. A save without the key (older saves) leaves it unknown."""
    if not replayed:
        if saved is not None:
            raise PositionError("previous_trick: there is no deal before deal 1")
        return None
    record, played = replayed[-1]
    if played is not None:
        if saved is not None and saved != _trick_json(played):
            raise PositionError(f"previous_trick {saved!r} is not the last trick of deal "
                                f"{record.number}, which its play gives as "
                                f"{_trick_json(played)!r}")
        return played
    if saved is None:
        return None
    where = f"previous_trick (the last draw trick of the passed-out deal {record.number})"
    if (not isinstance(saved, dict)
            or set(saved) != {"deal_number", "phase", "cards", "winner"}
            or saved["deal_number"] != record.number or saved["phase"] != "draw"):
        raise PositionError(f"{where} must be {{'deal_number': {record.number}, 'phase': "
                            f"'draw', 'cards': [[seat, card], [seat, card]], 'winner': "
                            f"seat}}, not {saved!r}")
    cards = saved["cards"]
    if (not isinstance(cards, list) or len(cards) != 2
            or not all(isinstance(c, list) and len(c) == 2 for c in cards)):
        raise PositionError(f"{where}: cards must be [[seat, card], [seat, card]]")
    leader = position_seat(f"{where}: leader", cards[0][0], 2)
    if cards[1][0] != 1 - leader:
        raise PositionError(f"{where}: the card that follows is the other seat's")
    lead, follow = _cards(f"{where}: cards", [cards[0][1], cards[1][1]])
    held = record.hands[0] | record.hands[1]
    if lead == follow or held >> lead & 1 or held >> follow & 1:
        raise PositionError(f"{where}: its two cards must be cards of the draw phase, not "
                            "held when the auction began")
    winner = 1 - leader if BEATS_DRAW[game.draw_trick_winner][lead * NUM_CARDS + follow] \
        else leader
    if saved["winner"] != winner:
        raise PositionError(f"{where}: the winner is seat {winner} by the rules, not "
                            f"{saved['winner']!r}")
    return (record.number, DRAW, leader, lead, follow, winner)


def record_from_json(game: DrawBridgeGame, data: Any) -> DealRecord:
    """A finished deal from a save: its auction and play replayed from its hands by the
    rules; PositionError if they are not legal or do not give the saved result."""
    return _read_record(game, data)[0]


def _read_record(game: DrawBridgeGame, data: Any) -> tuple[DealRecord, _Trick | None]:
    """``record_from_json`` with the deal's last trick, which its replay gives (None for
    a passed-out deal, whose draw phase is not recorded)."""
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
    replayed, last_trick = _replay_record(game, number, dealer,
                                          (mask_of(hands[0]), mask_of(hands[1])), calls + cards)
    got = replayed.to_json()
    for key, value in saved.items():
        if value != got[key]:
            raise PositionError(f"record of deal {number}: {key} {value!r} does not follow "
                                f"from its auction and play, which give {got[key]!r}")
    return replayed, last_trick


def _replay_record(game: DrawBridgeGame, number: int, dealer: int, hands: tuple[int, int],
                   actions: list[int]) -> tuple[DealRecord, _Trick | None]:
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
    return state._records[0], state._last_trick


def _cards(what: str, value: Any) -> list[int]:
    """``position_cards``, quick for a list of cards in exact notation (as saved)."""
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        cards = [_CARD_IDS.get(name) for name in value]
        if None not in cards:
            return cards  # type: ignore[return-value]
    return position_cards(what, value)


def setup(game: DrawBridgeGame, position: dict[str, Any]) -> DrawBridgeState:
    """The start of a deal, before the first trick (API.md, Positions)."""
    unknown_keys(game.name, position, ("dealer", "hands", "stock", "scores", "seed"))
    rng = new_rng(position.get("seed"))
    hands = position.get("hands")
    if hands is not None:
        if isinstance(hands, str) or not isinstance(hands, list | tuple) or len(hands) != 2:
            raise PositionError("hands must be a list of 2 card lists, one per seat")
        hands = [position_cards(f"hands[{seat}]", h) for seat, h in enumerate(hands)]
        for seat, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                raise PositionError(
                    f"hands: seat {seat} holds {len(hand)} cards; a hand holds 13")
    stock = position.get("stock")
    if stock is not None:
        stock = position_cards("stock", stock)
        if len(stock) != 2 * DRAW_TRICKS:
            raise PositionError(f"stock holds {len(stock)} cards; it must hold 26")
    check_card_supply([c for h in hands or [] for c in h] + (stock or []), 1)
    if hands is None:
        pool = missing_cards(stock or [], 1)
        rng.shuffle(pool)
        hands = [pool[:HAND_SIZE], pool[HAND_SIZE:2 * HAND_SIZE]]
    if stock is None:
        stock = missing_cards([c for h in hands for c in h], 1)
        rng.shuffle(stock)
    dealer = (position_seat("dealer", position["dealer"], 2) if "dealer" in position
              else rng.randrange(2))
    scores = position.get("scores", [0, 0])
    if (not isinstance(scores, list | tuple) or len(scores) != 2
            or any(isinstance(x, bool) or not isinstance(x, int)
                   or not 0 <= x < game.target for x in scores)):
        raise PositionError(
            f"scores must be 2 integers from 0 to {game.target - 1} (below the target "
            f"{game.target}), not {scores!r}")
    state = DrawBridgeState(game, rng, list(scores))
    state._begin_deal(1, dealer, (mask_of(hands[0]), mask_of(hands[1])), tuple(stock))
    return state
