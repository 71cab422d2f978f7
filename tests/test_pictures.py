"""Pictures of a state (issue 36): ``state.to_svg(seat)``, ``save_svg``, ``_repr_svg_`` and
``_repr_html_`` for every game and option set of tests/configs.py: well-formed SVG, every
hand's cards where everything is shown, and from a seat's view nothing that seat may not
know (every card drawn face up is in the seat's view; the other hands face down)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.core import State
from tests.configs import CONFIGS, params

SVG = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "envs.md"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width", 0)) > 0 and float(root.get("height", 0)) > 0
    return root


def drawn(root: ET.Element) -> list[tuple[str, str | None]]:
    """(where, card or None for a card face down) of every card in the picture."""
    return [(g.get("data-where", ""), g.get("data-card")) for g in root.iter(f"{SVG}g")
            if "card" in (g.get("class") or "").split()]


def strings(value: Any) -> set[str]:
    """Every string anywhere in a view."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def positions(game: str, options: dict[str, Any], seed: int) -> list[State]:
    """A fresh deal, a position a few moves in, one far in, and (where random play ends
    soon enough) one at the end."""
    rng = random.Random(seed)
    state = cardtable.new_game(game, **options).deal(seed=seed)
    out = [state.clone()]
    for moves in (7, 120, 3000):
        for _ in range(moves):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize(("game", "options"), params(CONFIGS))
def test_pictures_show_what_each_seat_sees(game: str, options: dict[str, Any]) -> None:
    for state in positions(game, options, seed=5):
        n = state.game.num_players
        hands = [state.view(s, history=False)["hand"] for s in range(n)]
        everything = drawn(parse(state.to_svg()))
        for s in range(n):
            assert Counter(c for w, c in everything if w == f"hand-{s}") == Counter(hands[s])
        assert all(c is not None for w, c in everything if w != "stock"), \
            "a card face down in everything but the stock"
        for seat in range(n):
            view = state.view(seat, history=False)
            known = strings(view)
            cards = drawn(parse(state.to_svg(seat)))
            mine = [c for w, c in cards if w == f"hand-{seat}"]
            assert Counter(mine) == Counter(hands[seat])
            for where, card in cards:
                # a card face up is one the seat's view holds
                assert card is None or card in known, (seat, where, card)
            for other in range(n):
                if other == seat:
                    continue
                theirs = [c for w, c in cards if w == f"hand-{other}"]
                assert len(theirs) == len(hands[other])
                if view.get("deduced_hand") is not None:  # Draw Bridge: known to the seat
                    assert Counter(theirs) == Counter(view["deduced_hand"])
                else:
                    assert theirs == [None] * len(hands[other]), "another hand face up"


def test_every_visible_card_is_drawn() -> None:
    """The discard pile's top, the trick on the table, the shown stock card."""
    rng = random.Random(2)
    seq = cardtable.new_game("sequence").deal(seed=3)
    for _ in range(30):
        seq.apply(rng.choice(seq.legal_actions()))
    tops = [pile[-1] for pile in seq.view(0, history=False)["discards"] if pile]
    assert tops and Counter(c for w, c in drawn(parse(seq.to_svg(0))) if w == "discard") \
        == Counter(tops)
    svg = seq.to_svg(0)
    board = Counter(re.findall(r'data-cell-card="(\w\w)"', svg))
    assert len(board) == 48 and set(board.values()) == {2}  # every printed cell
    tt = cardtable.new_game("threethirteen").deal(seed=3)
    tt.apply(tt.legal_actions()[0])
    top = tt.view(1, history=False)["top_discard"]
    assert ("discard", top) in drawn(parse(tt.to_svg(1)))
    db = cardtable.new_game("drawbridge", show_stock_top=True).deal(seed=3)
    assert ("stock", db.view(0, history=False)["stock_top"]) in drawn(parse(db.to_svg(0)))
    db.apply(db.legal_actions()[0])
    led = db.view(1, history=False)["trick"][0][1]
    assert ("trick", led) in drawn(parse(db.to_svg(1)))


def test_notebook_hooks_and_files(tmp_path: Path) -> None:
    state = cardtable.new_game("threethirteen", players=3).deal(seed=1)
    assert state._repr_svg_() == state.to_svg()
    html = state._repr_html_()
    assert html.startswith("<div") and state.to_svg() in html
    path = tmp_path / "state.svg"
    state.save_svg(path, seat=2)
    assert path.read_text(encoding="utf-8") == state.to_svg(2)
    for bad in (3, -1, "0", True, 1.0):
        with pytest.raises(ValueError, match="seat must be None"):
            state.to_svg(bad)  # type: ignore[arg-type]


def test_pictures_are_small_and_plain() -> None:
    """No image embedded, no script: a few tens of kilobytes at most."""
    for game in cardtable.game_names():
        svg = cardtable.new_game(game).deal(seed=1).to_svg()
        assert len(svg) < 120_000 and "<script" not in svg and "base64" not in svg
        assert "<image" not in svg


def test_the_picture_example_in_the_docs_runs_as_written(tmp_path: Path,
                                                          monkeypatch: Any) -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Pictures of a state", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    monkeypatch.chdir(tmp_path)
    pytest.importorskip("numba", reason="the example draws a batched row too")
    exec(compile(code.group(1), str(DOCS), "exec"), {})
    for name in ("state.svg", "seat1.svg", "row.svg"):
        parse((tmp_path / name).read_text(encoding="utf-8"))
