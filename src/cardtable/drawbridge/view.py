"""What a seat sees of a Draw Bridge match: its typed observation and its view.

Every card played is public; a seat sees its own hand and draws, the stock's top card
under ``show_stock_top``, and from the auction on the other hand as it works it out
(RULES 1.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cardtable.drawbridge.game as rules
from cardtable.cards import CARD_NAMES, card_names, cards_of, mask_of
from cardtable.core import check_seat
from cardtable.drawbridge.game import DealResult, DrawBridgeObservation

if TYPE_CHECKING:
    from cardtable.drawbridge.game import DrawBridgeState


def observe(state: DrawBridgeState, seat: int | None) -> DrawBridgeObservation:
    """What ``seat`` may know (None: a spectator): own hand and draws, all play, the
    auction, the match scores; its size is bounded by one deal."""
    if seat is not None:
        check_seat(seat, 2)
    show_top = state.game.show_stock_top
    phase = state._phase
    stock = state._stock
    dealer = state._dealer
    last = state._records[-1] if state._records else None
    hands = state._hands
    if show_top:
        stock_start = state._deal_start[3]
        shown = tuple((w, stock_start[2 * k])
                      for k, w in enumerate(state._winners[:rules.DRAW_TRICKS]))
    else:
        shown = ()
    other = 1 - dealer
    return DrawBridgeObservation(
        seat=seat,
        phase=rules.PHASES[phase],
        deal_number=state._deal_number,
        dealer=dealer,
        current_player=state._to_act,
        winners=() if state._winner is None else (state._winner,),
        hand=0 if seat is None else hands[seat],
        hand_sizes=(hands[0].bit_count(), hands[1].bit_count()),
        stock_size=len(stock),
        # 1.3 show_stock_top: the top card lies face up before each draw trick
        stock_top=stock[-1] if show_top and phase == rules.DRAW and stock else None,
        shown_draws=shown,
        drawn=() if seat is None else tuple(state._drawn(seat)),
        played=tuple(state._played_by()),
        lead=state._lead if state._lead >= 0 else None,
        auction=tuple((other if i % 2 else dealer, c) for i, c in enumerate(state._calls)),
        contract=state._contract,
        tricks_won=(state._tricks_won[0], state._tricks_won[1]),
        scores=(state._scores[0], state._scores[1]),
        target=state.game.target,
        last_deal=None if last is None else DealResult(
            last.number, last.contract, last.declarer_tricks, last.points),
        last_trick=rules.trick_result(state._last_trick),
    )


def seat_view(state: DrawBridgeState, seat: int | None) -> dict[str, Any]:
    """The view from ``observation(seat)``: own hand and draws, all play, the auction;
    from the auction on, the opponent's hand as the seat works it out (1.3)."""
    obs = observe(state, seat)
    played = obs.played
    last = obs.last_deal
    deduced = None
    if seat is not None and obs.phase in ("auction", "play"):
        # 1.3: every card played is public, so once the stock is empty the opponent
        # holds every card that is neither the seat's nor played this deal
        seen = obs.hand | mask_of(c for _, c in played)
        deduced = card_names(cards_of(rules.ALL_CARDS & ~seen))
    return {
        "game": state.game.name,
        "seat": seat,
        "phase": obs.phase,
        "deal_number": obs.deal_number,
        "dealer": obs.dealer,
        "current_player": obs.current_player,
        "is_terminal": obs.current_player is None,
        "winners": list(obs.winners),
        "legal": state.legal_notations(seat),
        "hand": card_names(cards_of(obs.hand)),
        "deduced_hand": deduced,
        "hand_sizes": list(obs.hand_sizes),
        "stock_size": obs.stock_size,
        "stock_top": None if obs.stock_top is None else CARD_NAMES[obs.stock_top],
        "shown_draws": [[w, CARD_NAMES[c]] for w, c in obs.shown_draws],
        "drawn": card_names(obs.drawn),
        "trick": [[played[-1][0], CARD_NAMES[played[-1][1]]]] if obs.lead is not None
        else [],
        "played": [[s, CARD_NAMES[c]] for s, c in played],
        "auction": [[s, rules.ACTIONS[c].notation] for s, c in obs.auction],
        "contract": None if obs.contract is None else obs.contract.to_json(),
        "tricks_won": list(obs.tricks_won),
        "scores": list(obs.scores),
        "target": obs.target,
        "last_deal": None if last is None else {
            "deal_number": last.number,
            "contract": None if last.contract is None else last.contract.to_json(),
            "declarer_tricks": last.declarer_tricks,
            "points": list(last.points),
        },
        "last_trick": None if obs.last_trick is None else obs.last_trick.to_json(),
    }


def render(state: DrawBridgeState) -> str:
    """The table as text, as a spectator sees it (no hand shows): the deal and its phase,
    the match scores, the stock, the auction and the contract, the tricks won, the trick
    on the table and the last one, the hands' sizes (``>`` marks the seat to act)."""
    v = seat_view(state, None)
    scores = v["scores"]
    lines = [f"Draw Bridge, deal {v['deal_number']} (dealer seat {v['dealer']}), "
             f"{v['phase']} phase; match scores {scores[0]}-{scores[1]} "
             f"(target {v['target']})"]
    if v["phase"] == "draw":
        top = v["stock_top"] or "face down"
        lines.append(f"stock: {v['stock_size']} cards, top {top}")
    if v["auction"]:
        lines.append("auction: " + ", ".join(f"seat {s} {call}" for s, call in v["auction"]))
    contract = v["contract"]
    if contract is not None:
        doubled = ("", "X", "XX")[contract["doubled"]]
        won = v["tricks_won"]
        lines.append(f"contract: {contract['level']}{contract['strain']}{doubled} by seat "
                     f"{contract['declarer']}; tricks won {won[0]}-{won[1]}")
    lines.append("trick: " + (", ".join(f"seat {s} {c}" for s, c in v["trick"]) or "-"))
    last = v["last_trick"]
    if last is not None and last["deal_number"] == v["deal_number"]:
        lines.append(f"last trick ({last['phase']}): "
                     + ", ".join(f"seat {s} {c}" for s, c in last["cards"])
                     + f", won by seat {last['winner']}")
    deal = v["last_deal"]
    if deal is not None:
        what = "passed out" if deal["contract"] is None else (
            f"{deal['contract']['level']}{deal['contract']['strain']}"
            f"{('', 'X', 'XX')[deal['contract']['doubled']]} by seat "
            f"{deal['contract']['declarer']}, {deal['declarer_tricks']} tricks")
        lines.append(f"deal {deal['deal_number']}: {what}, points "
                     f"{deal['points'][0]}-{deal['points'][1]}")
    for seat, size in enumerate(v["hand_sizes"]):
        mark = ">" if seat == v["current_player"] else " "
        lines.append(f"{mark} seat {seat}: {size} cards")
    return "\n".join(lines)
