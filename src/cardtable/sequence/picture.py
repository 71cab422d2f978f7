"""A picture of a Sequence state (``state.to_svg()``, ``engine.to_svg``): the board with
its printed cards, the chips by team (the page's colours and shapes, a ring on the chips of
completed sequences), each seat's hand (face down where the viewer may not see it), the
discard piles' top cards and the draw pile."""

from __future__ import annotations

from typing import Any

from cardtable import picture as p
from cardtable.sequence.board import BOARD, parse_cell
from cardtable.sequence.game import SequenceGame, SequenceState

CELL = 34
LEFT, TOP = 24, 44
HAND_W = 36


def scene_of_state(state: SequenceState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` sees (None: everything), from the state's views alone."""
    game = state.game
    n = game.num_players
    view = state.view(viewer, history=False)
    if viewer is None:
        hands: list[list[str] | int] = [list(state.view(s, history=False)["hand"])
                                        for s in range(n)]
    else:
        hands = [list(view["hand"]) if s == viewer else view["hand_sizes"][s]
                 for s in range(n)]
    locked = {parse_cell(name) for _, cells in view["sequences"] for name in cells}
    counts = [0] * game.num_teams
    for owner, _ in view["sequences"]:
        counts[owner] += 1
    return {"board": [[v for v in row] for row in view["board"]], "locked": locked,
            "hands": hands, "tops": [pile[-1] if pile else None for pile in view["discards"]],
            "discarded": sum(len(pile) for pile in view["discards"]),
            "stock": view["stock_size"], "sequences": counts,
            "needed": view["sequences_needed"],
            "to_act": None if view["is_terminal"] else view["current_player"],
            "winners": view["winners"], "viewer": viewer}


def scene_of_tensors(game: SequenceGame, parts: dict[int, dict[str, Any]],
                     viewer: int | None, to_act: int | None) -> dict[str, Any]:
    """The same scene from observation tensors (``encoder.split``) of the seats in
    ``parts`` (the viewer's, or every seat's when ``viewer`` is None): a batched row."""
    n, teams = game.num_players, game.num_teams
    seat = viewer if viewer is not None else 0
    own = parts[seat]
    team = game.team_of(seat)
    board: list[list[Any]] = [[None] * 10 for _ in range(10)]
    for r in range(10):
        for c in range(10):
            if BOARD[r][c] == "XX":
                board[r][c] = "XX"
                continue
            for k in range(teams):
                if own["chips"][k][r][c]:
                    board[r][c] = (team + k) % teams
    locked = {r * 10 + c for r in range(10) for c in range(10) if own["locked"][r][c]}
    hands = p.row_hands(parts, seat, n)
    counts = [int(own["sequences"][(t - team) % teams]) for t in range(teams)]
    return {"board": board, "locked": locked, "hands": hands, "tops": [None] * n,
            "discarded": int(sum(own["discards"])), "stock": int(own["stock_size"][0]),
            "sequences": counts, "needed": int(own["sequences_needed"][0]),
            "to_act": to_act, "winners": [], "viewer": viewer}


def draw(game: SequenceGame, scene: dict[str, Any]) -> str:
    n = game.num_players
    viewer, to_act = scene["viewer"], scene["to_act"]
    out = []
    who = "everything" if viewer is None else f"seen by seat {viewer}"
    out.append(p.text(LEFT, 26, f"Sequence, {n} players ({who})", 16, weight="700"))
    for c in range(10):
        out.append(p.text(LEFT + c * CELL + CELL / 2, TOP - 4, "abcdefghij"[c], 10, p.MUTED,
                          "middle"))
    for r in range(10):
        out.append(p.text(LEFT - 6, TOP + r * CELL + CELL / 2 + 4, str(r + 1), 10, p.MUTED,
                          "end"))
        for c in range(10):
            x, y = LEFT + c * CELL, TOP + r * CELL
            value = scene["board"][r][c]
            name = BOARD[r][c]
            if name == "XX":
                out.append(p.corner(x, y, CELL))
                continue
            out.append(p.mini(x, y, name, CELL, covered=value is not None))
            if value is not None:
                out.append(p.chip(x, y + 3, CELL - 3, int(value),
                                  r * 10 + c in scene["locked"]))
    bottom = TOP + 10 * CELL + 22
    seqs = ", ".join(f"{p.TEAM_NAMES[t % 3]} {k}" for t, k in enumerate(scene["sequences"]))
    out.append(p.text(LEFT, bottom, f"sequences: {seqs} (of {scene['needed']})", 13))
    out.append(p.text(LEFT, bottom + 18, f"draw pile {scene['stock']}, discards "
                      f"{scene['discarded']}", 13, p.MUTED))
    if scene["winners"]:
        won = ", ".join(str(s) for s in scene["winners"])
        out.append(p.text(LEFT, bottom + 36, f"over: seats {won} won", 13, p.LEGAL, "start",
                          "700"))
    x0 = LEFT + 10 * CELL + 28
    y = TOP
    step = 86 if n <= 4 else 74
    for s in range(n):
        team = game.team_of(s)
        label = p.seat_label(s, viewer, to_act) + f" · {p.TEAM_NAMES[team % 3]}"
        out.append(p.chip(x0, y - 14, 16, team))
        out.append(p.text(x0 + 20, y - 2, label, 12,
                          p.LEGAL if s == to_act else "#fff"))
        cards, end = p.row_of_cards(x0, y + 4, scene["hands"][s], f"hand-{s}", HAND_W,
                                    HAND_W * 0.7)
        out.append(cards)
        top = scene["tops"][s]
        if top is not None:
            out.append(p.text(end + 12, y + 16, "discard", 10, p.MUTED))
            out.append(p.card(end + 12, y + 20, top, "discard", HAND_W * 0.8))
        y += step
    width = x0 + 7 * HAND_W * 0.7 + HAND_W + 80
    height = max(bottom + 50, y + 10)
    title = f"Sequence: {who}"
    return p.document(width, height, "".join(out), title)
