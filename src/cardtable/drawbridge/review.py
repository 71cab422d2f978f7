"""A review of every deal of a Draw Bridge match: par, the contract reached, and each
player's losses against perfect play.

From the auction on both hands are known (RULES 1.3), so every call and card can be
judged exactly (``cardtable.drawbridge.solver``):

- a call loses the difference between the caller's match chance after the best call and
  after the call made (``Auction.call_values``: both playing perfectly after it);
- a card loses the tricks the player would have taken more with the best card
  (``card_values``). The tricks lost add up: a player who loses none takes what the
  contract reached is worth double dummy.

``review(states)`` walks the positions of a match (e.g. ``records.positions(record)``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import CARD_NAMES
from cardtable.core import State
from cardtable.drawbridge.game import ACTIONS, DrawBridgeState
from cardtable.drawbridge.solver import Auction, Par, PlayPosition, auction_of, card_values


@dataclass(frozen=True)
class Mistake:
    """A call or card below the best: who, which, the best instead, and what it cost
    (tricks for a card; the player's match chance for a call)."""

    seat: int
    phase: str
    #: the trick (1..13) of a card, the call's place in the auction (1..) for a call
    number: int
    played: str
    best: str
    loss: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.phase, "number": self.number,
                "played": self.played, "best": self.best, "loss": round(self.loss, 4)}


@dataclass
class DealReview:
    """One deal: par, what happened, and each seat's losses against perfect play."""

    number: int
    dealer: int
    scores_before: tuple[int, int]
    par: Par
    #: whether the deal was played to its end in the positions reviewed
    finished: bool = False
    #: the contract reached (None: passed out or not yet known), declarer's tricks, the
    #: deal's points
    contract: str | None = None
    declarer: int | None = None
    declarer_tricks: int = 0
    points: tuple[int, int] = (0, 0)
    #: what the contract reached was worth double dummy: declarer's tricks at its lead
    double_dummy_tricks: int | None = None
    tricks_lost: list[int] = field(default_factory=lambda: [0, 0])
    chance_lost: list[float] = field(default_factory=lambda: [0.0, 0.0])
    mistakes: list[Mistake] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.number, "dealer": self.dealer,
            "scores_before": list(self.scores_before), "par": self.par.to_json(),
            "finished": self.finished, "contract": self.contract, "declarer": self.declarer,
            "declarer_tricks": self.declarer_tricks, "points": list(self.points),
            "double_dummy_tricks": self.double_dummy_tricks,
            "tricks_lost": list(self.tricks_lost),
            "chance_lost": [round(x, 4) for x in self.chance_lost],
            "mistakes": [m.to_json() for m in self.mistakes],
        }


def deals(final: State) -> int:
    """The deals of the finished match ``final`` a review goes through (each costs the
    solver's fraction of a second)."""
    assert isinstance(final, DrawBridgeState)
    return final.deal_number


def review(states: Iterable[State], engine: str | None = None) -> list[DealReview]:
    """The review of each deal that reached its auction, from a match's positions in
    order (the start, then after each action; independent states)."""
    out: list[DealReview] = []
    current: DealReview | None = None
    auction: Auction | None = None
    calls: list[int] = []
    before: DrawBridgeState | None = None
    for state in states:
        assert isinstance(state, DrawBridgeState)
        if before is not None:
            _judge(before, state, current, auction, calls, engine)
        if state.phase == "auction" and (current is None or current.number != state.deal_number):
            if current is not None:
                _finish(current, before)
            auction = auction_of(state, engine)
            calls = []
            view = state.view(None, history=False)
            current = DealReview(state.deal_number, view["dealer"],
                                 (view["scores"][0], view["scores"][1]), auction.par())
            out.append(current)
        before = state
    if current is not None and before is not None:
        _finish(current, before)
    return out


def _judge(before: DrawBridgeState, after: DrawBridgeState, current: DealReview | None,
           auction: Auction | None, calls: list[int], engine: str | None) -> None:
    """The action that led from ``before`` to ``after``, judged."""
    seat = before.current_player
    if seat is None or current is None or before.deal_number != current.number:
        return
    action = _last_action(before, after)
    if before.phase == "auction":
        assert auction is not None
        chances = auction.call_values(calls)
        sign = 1 if seat == 0 else -1
        best_call, best_chance = max(chances.items(), key=lambda cv: sign * cv[1])
        loss = sign * (best_chance - chances[action])
        if loss > 1e-12:
            current.chance_lost[seat] += loss
            current.mistakes.append(Mistake(seat, "auction", len(calls) + 1,
                                            ACTIONS[action].notation,
                                            ACTIONS[best_call].notation, loss))
        calls.append(action)
    elif before.phase == "play":
        position = PlayPosition.of(before)
        values = card_values(position, engine)
        if current.double_dummy_tricks is None:
            contract = before.last_bid
            assert contract is not None
            # the opening lead: what the contract reached is worth double dummy
            declarer = contract.declarer
            tricks = max(values.values())
            current.double_dummy_tricks = tricks if seat == declarer else 13 - tricks
        best = max(values.values())
        if values[action] < best:
            top = min((c for c, v in values.items() if v == best))
            trick = 1 + sum(before.tricks_won)
            current.tricks_lost[seat] += best - values[action]
            current.mistakes.append(Mistake(seat, "play", trick, CARD_NAMES[action],
                                            CARD_NAMES[top], best - values[action]))


def _last_action(before: DrawBridgeState, after: DrawBridgeState) -> int:
    """The id of the action between two consecutive positions."""
    return after.history[len(before.history)][1].id


def _finish(current: DealReview, last: DrawBridgeState | None) -> None:
    """The deal's result, from the record the match keeps of it."""
    if last is None:
        return
    record = next((r for r in last.records if r.number == current.number), None)
    if record is None:
        return  # the deal was not finished
    current.finished = True
    if record.contract is not None:
        current.contract = str(record.contract)
        current.declarer = record.contract.declarer
    current.declarer_tricks = record.declarer_tricks
    current.points = record.points
