"""A picture of a Draw Bridge state (``state.to_svg()``, ``engine.to_svg``): both hands
(face down where the viewer may not know them), the stock, the trick on the table, the
auction or contract, the tricks won and the match scores."""

from __future__ import annotations

from typing import Any

from cardtable import picture as p
from cardtable.cards import CARD_NAMES
from cardtable.drawbridge.game import PHASES, DrawBridgeGame, DrawBridgeState
from cardtable.drawbridge.scoring import STRAINS

SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
DOUBLING = ("", " doubled", " redoubled")


def _call(call: str) -> str:
    """``6C`` -> ``6♣``; pass, double, redouble as they are."""
    if call[:1].isdigit():
        return call[0] + SYMBOL[call[1:]]
    return call


def _sorted(cards: list[str]) -> list[str]:
    order = {name: i for i, name in enumerate(CARD_NAMES)}
    return sorted(cards, key=order.__getitem__)


def scene_of_state(state: DrawBridgeState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` sees (None: everything), from the state's views alone."""
    view = state.view(viewer, history=False)
    hands: list[list[str] | int] = []
    for s in range(2):
        if viewer is None:
            hands.append(_sorted(state.view(s, history=False)["hand"]))
        elif s == viewer:
            hands.append(_sorted(view["hand"]))
        elif view["deduced_hand"] is not None:  # every card of the other hand is known
            hands.append(_sorted(view["deduced_hand"]))
        else:
            hands.append(view["hand_sizes"][s])
    contract = view["contract"]
    words = None
    if contract:
        words = (f"{contract['level']}{SYMBOL[contract['strain']]} by seat "
                 f"{contract['declarer']}{DOUBLING[contract['doubled']]}")
    return {"hands": hands, "phase": view["phase"], "stock": view["stock_size"],
            "stock_top": view["stock_top"], "trick": [tuple(t) for t in view["trick"]],
            "auction": [f"{s}: {_call(c)}" for s, c in view["auction"]],
            "contract": words, "tricks_won": view["tricks_won"], "scores": view["scores"],
            "target": view["target"], "dealer": view["dealer"], "deal": view["deal_number"],
            "to_act": None if view["is_terminal"] else view["current_player"],
            "winners": view["winners"], "viewer": viewer}


def scene_of_tensors(game: DrawBridgeGame, parts: dict[int, dict[str, Any]],
                     viewer: int | None, to_act: int | None) -> dict[str, Any]:
    """The same scene from observation tensors (``encoder.split``) of the seats in
    ``parts``: a batched row (the tensor keeps no auction's order nor the deal's number)."""
    seat = viewer if viewer is not None else 0
    own = parts[seat]
    phase = PHASES[max(range(4), key=lambda k: float(own["phase"][k]))]
    stock = int(own["stock_size"][0])
    draws = (26 - stock) // 2 if phase == "draw" else 13
    hands: list[list[str] | int] = []
    for s in range(2):
        if s in parts:
            hands.append([CARD_NAMES[c] for c in range(52) if parts[s]["hand"][c]])
        else:  # 13 dealt, one drawn per draw trick, less what it played
            played = int(sum(own["played"][(s - seat) % 2]))
            hands.append(0 if phase == "over" else max(13 + draws - played, 0))
    led = [CARD_NAMES[c] for c in range(52) if own["trick"][c]]
    trick = [(1 - to_act if to_act is not None else seat, led[0])] if led else []
    top = [CARD_NAMES[c] for c in range(52) if own["stock_top"][c]]
    words = None
    bids = [k for k in range(35) if own["last_bid"][k]]
    if bids and phase in ("auction", "play"):
        level, strain = bids[0] // 5 + 1, STRAINS[bids[0] % 5]
        by = seat if own["last_bidder"][0] else 1 - seat
        doubled = 2 if own["doubled"][1] else 1 if own["doubled"][0] else 0
        what = "contract" if phase == "play" else "last bid"
        words = f"{what} {level}{SYMBOL[strain]} by seat {by}{DOUBLING[doubled]}"
    rel = [int(own["tricks_won"][k]) for k in range(2)]
    score = [int(own["scores"][k]) for k in range(2)]
    dealer = seat if own["dealer"][0] else 1 - seat
    return {"hands": hands, "phase": phase, "stock": stock,
            "stock_top": top[0] if top else None, "trick": trick, "auction": [],
            "contract": words, "tricks_won": [rel[(s - seat) % 2] for s in range(2)],
            "scores": [score[(s - seat) % 2] for s in range(2)],
            "target": int(own["target"][0]), "dealer": dealer, "deal": None,
            "to_act": to_act, "winners": [], "viewer": viewer}


def draw(game: DrawBridgeGame, scene: dict[str, Any]) -> str:
    viewer, to_act = scene["viewer"], scene["to_act"]
    who = "everything" if viewer is None else f"seen by seat {viewer}"
    width, left = 640, 20
    out = [p.text(left, 26, f"Draw Bridge ({who})", 16, weight="700")]
    deal = f"deal {scene['deal']}, " if scene["deal"] else ""
    out.append(p.text(left, 46, f"{deal}{scene['phase']} phase, dealer seat "
                      f"{scene['dealer']}, match to {scene['target']}", 12, p.MUTED))
    # seat 1 at the top, seat 0 at the bottom (as across a table)
    for s, y in ((1, 74), (0, 330)):
        label = (f"{p.seat_label(s, viewer, to_act)} · {scene['scores'][s]} points, "
                 f"{scene['tricks_won'][s]} tricks")
        out.append(p.text(left, y - 6, label, 13, p.LEGAL if s == to_act else "#fff"))
        cards, _ = p.row_of_cards(left, y, scene["hands"][s], f"hand-{s}", 44, 30)
        out.append(cards)
    mid = 174
    out.append(p.text(left, mid, "stock", 11, p.MUTED))
    if scene["stock"]:
        if scene["stock_top"]:
            out.append(p.card(left, mid + 6, scene["stock_top"], "stock", 44))
        else:
            out.append(p.back(left, mid + 6, "stock", 44))
    out.append(p.text(left, mid + 86, f"{scene['stock']} cards", 11, p.MUTED))
    out.append(p.text(150, mid, "trick", 11, p.MUTED))
    for k, (s, name) in enumerate(scene["trick"]):
        out.append(p.card(150 + k * 54, mid + 6, name, "trick", 44))
        out.append(p.text(150 + k * 54 + 22, mid + 86, f"seat {s}", 10, p.MUTED, "middle"))
    x = 290
    if scene["contract"]:
        out.append(p.text(x, mid + 10, scene["contract"], 13, weight="700"))
    if scene["auction"]:
        out.append(p.text(x, mid + 30, "auction: " + ", ".join(scene["auction"][-6:]), 11,
                          p.MUTED))
    if scene["winners"]:
        won = ", ".join(str(s) for s in scene["winners"])
        out.append(p.text(x, mid + 50, f"over: seat {won} won the match", 13, p.LEGAL,
                          "start", "700"))
    return p.document(width, 420, "".join(out), f"Draw Bridge: {who}")
