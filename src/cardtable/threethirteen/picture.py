"""A picture of a Three Thirteen state (``state.to_svg()``, ``engine.to_svg``): every
seat's hand (face down where the viewer may not see it; the wild rank's cards outlined),
the stock, the discard pile's top card, the round, the wild rank, the melds shown by the
seat that went out and the penalty totals."""

from __future__ import annotations

from typing import Any

from cardtable import picture as p
from cardtable.cards import CARD_NAMES
from cardtable.threethirteen.game import ThreeThirteenGame, ThreeThirteenState

RANKS = "A23456789TJQK"
PHASES = ("draw", "discard", "over")


def scene_of_state(state: ThreeThirteenState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` sees (None: everything), from the state's views alone."""
    n = state.game.num_players
    view = state.view(viewer, history=False)
    if viewer is None:
        hands: list[list[str] | int] = [list(state.view(s, history=False)["hand"])
                                        for s in range(n)]
    else:
        hands = [list(view["hand"]) if s == viewer else view["hand_sizes"][s]
                 for s in range(n)]
    melds = None
    out = view["went_out"]
    if out is not None and view["melds_shown"][out]:
        melds = [" ".join(p.card_text(c) for c in m) for m in view["melds_shown"][out]["melds"]]
    return {"hands": hands, "stock": view["stock_size"], "top": view["top_discard"],
            "discarded": len(view["discard"]), "round": view["round"],
            "wild": view["wild_rank"], "phase": view["phase"], "dealer": view["dealer"],
            "scores": view["scores"], "went_out": out, "melds": melds,
            "to_act": None if view["is_terminal"] else view["current_player"],
            "winners": view["winners"], "viewer": viewer}


def scene_of_tensors(game: ThreeThirteenGame, parts: dict[int, dict[str, Any]],
                     viewer: int | None, to_act: int | None) -> dict[str, Any]:
    """The same scene from observation tensors (``encoder.split``) of the seats in
    ``parts``: a batched row."""
    n = game.num_players
    seat = viewer if viewer is not None else 0
    own = parts[seat]

    def first(section: str) -> int:
        found = [k for k, v in enumerate(own[section]) if v]
        return found[0] if found else -1

    hands = p.row_hands(parts, seat, n)
    top = first("top_discard")
    out = first("went_out")
    shown = [CARD_NAMES[c] for c in range(52) for _ in range(int(own["shown_melds"][c]))]
    return {"hands": hands, "stock": int(own["stock_size"][0]),
            "top": CARD_NAMES[top] if top >= 0 else None,
            "discarded": int(sum(own["discard_pile"])), "round": first("round") + 1,
            "wild": RANKS[first("wild_rank")], "phase": PHASES[first("phase")],
            "dealer": (first("dealer") + seat) % n,
            "scores": [int(own["scores"][(s - seat) % n]) for s in range(n)],
            "went_out": (out + seat) % n if out >= 0 else None,
            "melds": [" ".join(p.card_text(c) for c in shown)] if shown else None,
            "to_act": to_act, "winners": [], "viewer": viewer}


def draw(game: ThreeThirteenGame, scene: dict[str, Any]) -> str:
    n = game.num_players
    viewer, to_act = scene["viewer"], scene["to_act"]
    who = "everything" if viewer is None else f"seen by seat {viewer}"
    left = 20
    wild = scene["wild"]
    out = [p.text(left, 26, f"Three Thirteen, {n} players ({who})", 16, weight="700"),
           p.text(left, 46, f"round {scene['round']} of 11, wild {p.rank_text(wild)}s, "
                  f"{scene['phase']} phase, dealer seat {scene['dealer']}", 12, p.MUTED)]
    y = 64
    out.append(p.text(left, y + 8, "stock", 11, p.MUTED))
    if scene["stock"]:
        out.append(p.back(left, y + 14, "stock", 44))
    out.append(p.text(left, y + 96, f"{scene['stock']} cards", 11, p.MUTED))
    out.append(p.text(90, y + 8, "discard", 11, p.MUTED))
    if scene["top"]:
        out.append(p.card(90, y + 14, scene["top"], "discard", 44))
    out.append(p.text(90, y + 96, f"{scene['discarded']} cards", 11, p.MUTED))
    if scene["went_out"] is not None:
        out.append(p.text(160, y + 30, f"seat {scene['went_out']} went out", 13, p.LEGAL,
                          "start", "700"))
        for k, meld in enumerate(scene["melds"] or []):
            out.append(p.text(160, y + 50 + 18 * k, meld, 13))
    if scene["winners"]:
        won = ", ".join(str(s) for s in scene["winners"])
        out.append(p.text(160, y + 100, f"over: seats {won} won", 13, p.LEGAL, "start",
                          "700"))
    y += 130
    for s in range(n):
        label = f"{p.seat_label(s, viewer, to_act)} · penalty {scene['scores'][s]}"
        out.append(p.text(left, y, label, 13, p.LEGAL if s == to_act else "#fff"))
        hand = scene["hands"][s]
        marks = {c: p.LEGAL for c in hand if c[:-1] == wild} if isinstance(hand, list) else {}
        cards, _ = p.row_of_cards(left, y + 6, hand, f"hand-{s}", 44, 30, marks)
        out.append(cards)
        y += 90
    return p.document(20 + 14 * 30 + 44 + 40, y, "".join(out), f"Three Thirteen: {who}")
