"""Pictures of a state as SVG, drawn with the web page's card art (docs/envs.md, "Pictures").

Plain strings, no dependency: the card faces, backs, board cells and chips are those of
the page (``cardtable/web/static/js/cards.js``: its colours, suit symbols, jack eyes and
chip shapes), laid out by each game's ``picture`` module (``cardtable.<game>.picture``,
found by ``cardtable.core.part``) from a *scene*: a small dict of what is to be drawn,
made from a state's views (``scene_of_state``) or from a batched row's observation
tensors (``cardtable.vector``).

Every card drawn is a ``<g class="card">`` with ``data-card`` (its notation) and
``data-where`` (``hand-0``, ``discard``, ``trick``, ...); a card face down is a
``<g class="card back">`` with ``data-where`` and no ``data-card``: the tests read them.
"""

from __future__ import annotations

import operator
from typing import Any
from xml.sax.saxutils import escape

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED, BLACK = "#c62828", "#1b1b1b"
FELT, FELT_DARK, MUTED, LEGAL = "#1f6b45", "#17553a", "#d7e8dc", "#ffd600"
#: the teams' chips: colour (Okabe-Ito, as the page) and shape
TEAM_COLOURS = ("#0072B2", "#009E73", "#D55E00")
TEAM_NAMES = ("blue", "green", "red")
#: a card's size on the table (the faces are drawn in a 60 x 90 box, scaled)
CARD_W, CARD_H = 45, 68


def rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def card_text(card: str) -> str:
    """``TH`` -> ``10♥``."""
    return rank_text(card[:-1]) + SUIT_SYMBOL[card[-1]]


def _colour(card: str) -> str:
    return RED if card[-1] in "HD" else BLACK


def _pip(suit: str, x: float, y: float, size: float, fill: str) -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle" '
            f'dominant-baseline="central" fill="{fill}">{SUIT_SYMBOL[suit]}</text>')


def _face(card: str) -> str:
    """The page's card face (cards.js ``cardSVG``) in a 60 x 90 box."""
    rank, suit, fill = card[:-1], card[-1], _colour(card)
    r = rank_text(rank)
    if rank in "JQK":
        def eye(x: int) -> str:
            return (f'<ellipse cx="{x}" cy="76" rx="4" ry="2.6" fill="none" stroke="{fill}"/>'
                    f'<circle cx="{x}" cy="76" r="1.3" fill="{fill}"/>')
        eyes = (eye(24) + eye(36) if suit in "DC" else eye(30)) if rank == "J" else ""
        middle = (f'<rect x="17" y="25" width="26" height="40" rx="3" fill="none" '
                  f'stroke="{fill}" stroke-width="1.5"/>'
                  f'<text x="30" y="42" font-size="20" font-weight="700" text-anchor="middle" '
                  f'dominant-baseline="central" fill="{fill}">{rank}</text>'
                  + _pip(suit, 30, 58, 12, fill) + eyes)
    else:
        middle = _pip(suit, 30, 48, 34 if rank == "A" else 26, fill)
    corner = (f'<text x="6" y="15" font-size="15" font-weight="700" fill="{fill}">{r}</text>'
              + _pip(suit, 11, 27, 12, fill))
    return ('<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#888" '
            'stroke-width="1.2"/>' + corner + middle
            + f'<g transform="rotate(180 30 45)">{corner}</g>')


_BACK = ('<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#888"/>'
         '<rect x="5" y="5" width="50" height="80" rx="4" fill="#1e4d8c"/>'
         '<rect x="10" y="10" width="40" height="70" rx="3" fill="none" stroke="#9fc1ef" '
         'stroke-width="1.5"/>'
         '<path d="M30 22 L42 45 L30 68 L18 45 Z" fill="#2f6fc4" stroke="#9fc1ef"/>')


def card(x: float, y: float, name: str, where: str, width: float = CARD_W,
         mark: str | None = None) -> str:
    """A card face at (x, y), ``width`` wide; ``mark`` a colour to outline it with."""
    s = width / 60
    outline = (f'<rect x="-1" y="-1" width="62" height="92" rx="7" fill="none" '
               f'stroke="{mark}" stroke-width="4"/>' if mark else "")
    return (f'<g class="card" data-card="{escape(name)}" data-where="{escape(where)}" '
            f'transform="translate({x:g} {y:g}) scale({s:g})"><title>{card_text(name)}</title>'
            f'{_face(name)}{outline}</g>')


def back(x: float, y: float, where: str, width: float = CARD_W) -> str:
    """A card face down."""
    s = width / 60
    return (f'<g class="card back" data-where="{escape(where)}" '
            f'transform="translate({x:g} {y:g}) scale({s:g})">{_BACK}</g>')


def row_of_cards(x: float, y: float, cards: list[str] | int, where: str,
                 width: float = CARD_W, step: float | None = None,
                 marks: dict[str, str] | None = None) -> tuple[str, float]:
    """A fanned row of cards (``cards``: names face up, or a count face down); returns the
    SVG and the x just past the row."""
    step = step if step is not None else width * 0.62
    out = []
    items: list[str | None] = list(cards) if isinstance(cards, list) else [None] * cards
    for k, name in enumerate(items):
        cx = x + k * step
        out.append(back(cx, y, where, width) if name is None
                   else card(cx, y, name, where, width, (marks or {}).get(name)))
    end = x + (len(items) - 1) * step + width if items else x
    return "".join(out), end


def mini(x: float, y: float, name: str, size: float, covered: bool = False) -> str:
    """A board cell's small face (cards.js ``miniCardSVG``)."""
    s = size / 40
    fill = _colour(name)
    if covered:
        face = (f'<text x="20" y="8" font-size="10" font-weight="700" text-anchor="middle" '
                f'dominant-baseline="central" fill="{fill}">{card_text(name)}</text>')
    else:
        face = (f'<text x="20" y="13" font-size="13" font-weight="700" text-anchor="middle" '
                f'dominant-baseline="central" fill="{fill}">{rank_text(name[:-1])}</text>'
                + _pip(name[-1], 20, 29, 16, fill))
    return (f'<g class="cell" data-cell-card="{name}" transform="translate({x:g} {y:g}) '
            f'scale({s:g})"><rect x="1" y="1" width="38" height="38" rx="4" fill="#fff" '
            f'stroke="#aaa"/>{face}</g>')


def corner(x: float, y: float, size: float) -> str:
    s = size / 40
    return (f'<g class="cell corner" transform="translate({x:g} {y:g}) scale({s:g})">'
            '<rect x="1" y="1" width="38" height="38" rx="4" fill="#333"/>'
            '<text x="20" y="21" font-size="22" text-anchor="middle" '
            'dominant-baseline="central" fill="#ffd54f">★</text></g>')


def chip(x: float, y: float, size: float, team: int, locked: bool = False) -> str:
    """A team's chip (cards.js ``chipSVG``): circle, square, triangle; a ring when part of a
    completed sequence."""
    s = size / 40
    c = TEAM_COLOURS[team % 3]
    ring = ('<circle cx="20" cy="20" r="19" fill="none" stroke="#ffd600" stroke-width="3"/>'
            if locked else "")
    if team % 3 == 0:
        shape = f'<circle cx="20" cy="22" r="12" fill="{c}" stroke="#fff" stroke-width="2"/>'
    elif team % 3 == 1:
        shape = (f'<rect x="9" y="11" width="22" height="22" rx="2" fill="{c}" stroke="#fff" '
                 f'stroke-width="2"/>')
    else:
        shape = f'<polygon points="20,9 34,35 6,35" fill="{c}" stroke="#fff" stroke-width="2"/>'
    return (f'<g class="chip" data-team="{team}" transform="translate({x:g} {y:g}) '
            f'scale({s:g})">{ring}{shape}</g>')


def text(x: float, y: float, words: str, size: float = 13, fill: str = "#fff",
         anchor: str = "start", weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}" font-family="sans-serif">'
            f'{escape(words)}</text>')


def document(width: float, height: float, body: str, title: str) -> str:
    """A whole SVG document on the page's felt."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="cardtable-state" '
            f'width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} {height:g}" '
            f'font-family="sans-serif"><title>{escape(title)}</title>'
            f'<rect width="100%" height="100%" rx="10" fill="{FELT}"/>{body}</svg>')


def seat_label(seat: int, viewer: int | None, to_act: int | None) -> str:
    """"seat 1 (you) ▶": a seat's name in a picture."""
    words = f"seat {seat}"
    if viewer is not None and seat == viewer:
        words += " (you)"
    if to_act is not None and seat == to_act:
        words += " ▶ to act"
    return words


def check_seat(seat: Any, players: int) -> int | None:
    """``seat`` of ``to_svg``: None (every card face up) or a seat ``0..players-1``."""
    if seat is None:
        return None
    try:
        index = None if isinstance(seat, bool) else operator.index(seat)  # NumPy ints too
    except TypeError:
        index = None
    if index is None or not 0 <= index < players:
        raise ValueError(f"seat must be None (everything) or a seat 0..{players - 1}, "
                         f"not {seat!r}")
    return index


def row_hands(parts: dict[int, Any], seat: int, players: int) -> list[list[str] | int]:
    """A batched row's hands, drawn from the observations ``parts`` (seat -> sections) of
    the seats shown: a shown seat's cards by name, another's count from ``seat``'s
    ``hand_sizes`` (ordered from ``seat``)."""
    from cardtable.cards import CARD_NAMES

    sizes = [int(parts[seat]["hand_sizes"][(s - seat) % players]) for s in range(players)]
    return [[name for c, name in enumerate(CARD_NAMES) for _ in range(int(parts[s]["hand"][c]))]
            if s in parts else sizes[s] for s in range(players)]


def html(svg: str) -> str:
    """A picture for a notebook's HTML output."""
    return f'<div class="cardtable-picture" style="display:inline-block">{svg}</div>'
