"""What a seat sees of a Three Thirteen match: its typed observation and its view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cardtable.threethirteen.game as rules
from cardtable.cards import RANKS, card_name, card_names, sort_key
from cardtable.core import check_seat
from cardtable.threethirteen.game import RoundResult, ShownHand, ThreeThirteenObservation

if TYPE_CHECKING:
    from cardtable.threethirteen.game import ThreeThirteenState


def observe(state: ThreeThirteenState, seat: int | None) -> ThreeThirteenObservation:
    """What ``seat`` may know (None: a spectator): own hand and everything public; its
    size is bounded by one round."""
    n = state.game.num_players
    if seat is not None:
        check_seat(seat, n)
    out_melds = state._out_melds
    return ThreeThirteenObservation(
        seat=seat,
        round=state._round,
        deal_size=rules.deal_size(state._round),
        decks=state.game.decks,
        wild=state._wild,
        dealer=state._dealer,
        current_player=None if state._over else state._current,
        phase="over" if state._over else "draw" if state._drawing else "discard",
        hand=() if seat is None else tuple(sorted(state._hands[seat], key=sort_key)),
        hand_sizes=tuple(map(len, state._hands)),
        stock_size=len(state._stock),
        discard=tuple(reversed(state._discard)),
        reshuffled=state._reshuffled,
        taken=tuple(map(tuple, state._taken)),
        went_out=state._went_out,
        out_melds=None if out_melds is None else tuple(tuple(m) for m in out_melds),
        last_round=_round_result(state),
        scores=tuple(state._totals),
        round_scores=tuple(state._round_scores),
        winners=tuple(state.winners),
    )


def _round_result(state: ThreeThirteenState) -> RoundResult | None:
    """The last round's summary as an observation's typed value, made once per round: the
    state replaces ``_last_round`` whole, never in place, so it is the cache's key."""
    last = state._last_round
    if last is None:
        return None
    cached = state._round_result_of
    if cached is not None and cached[0] is last:
        return cached[1]
    result = RoundResult(
        last["round"], last["went_out"],
        tuple(ShownHand(tuple(tuple(m) for m in h["melds"]), tuple(h["deadwood"]),
                        h["penalty"]) for h in last["melds_shown"]),
        tuple(last["scores"]))
    state._round_result_of = (last, result)
    return result


def seat_view(state: ThreeThirteenState, seat: int | None) -> dict[str, Any]:
    """The view from ``observation(seat)``; ``taken`` lists, per seat, the cards taken
    from the discard pile and not discarded since, which the whole table knows are in
    that hand."""
    obs = observe(state, seat)
    shown: list[dict[str, Any] | None] = [None] * len(obs.hand_sizes)
    if obs.went_out is not None and obs.out_melds is not None:
        shown[obs.went_out] = {"melds": [card_names(m) for m in obs.out_melds],
                               "deadwood": []}
    to_act = seat is not None and seat == obs.current_player
    last = obs.last_round
    going_out: list[str] = []
    if to_act and obs.phase == "discard" and obs.went_out is None:
        # 3.6: the discards that leave a hand of melds only go out
        hand = list(obs.hand)
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            if state.melds_fully(rest):
                going_out.append(card_name(card))
    return {
        "game": "threethirteen",
        "seat": seat,
        "hand": card_names(obs.hand),
        "hand_sizes": list(obs.hand_sizes),
        "stock_size": obs.stock_size,
        "discard": card_names(obs.discard),
        "top_discard": card_name(obs.discard[0]) if obs.discard else None,
        "round": obs.round,
        "deal_size": obs.deal_size,
        "decks": obs.decks,
        "wild_rank": RANKS[obs.wild],
        "dealer": obs.dealer,
        "current_player": obs.current_player,
        "phase": obs.phase,
        "legal": state.legal_notations(seat),
        "going_out": going_out,
        "reshuffled": obs.reshuffled,
        "taken": [card_names(t) for t in obs.taken],
        "went_out": obs.went_out,
        "melds_shown": shown,
        "last_round": None if last is None else {
            "round": last.round, "went_out": last.went_out,
            "melds_shown": [{"melds": [list(m) for m in h.melds],
                             "deadwood": list(h.deadwood), "penalty": h.penalty}
                            for h in last.hands],
            "scores": list(last.scores)},
        "scores": list(obs.scores),
        "round_scores": [list(r) for r in obs.round_scores],
        "is_terminal": obs.current_player is None,
        "winners": list(obs.winners),
    }
