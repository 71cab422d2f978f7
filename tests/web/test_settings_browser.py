"""Settings players like, in real browsers (docs/web.md: Settings): chosen in the
header's panel, they survive a reload (English on a desktop, Khmer on a phone); the
four-colour deck and the sizes reach the cards and the board; confirm-before-move holds
a move until it is confirmed; at Draw Bridge (a game with tricks, game_info.tricks) a
finished trick is held until a click and the last trick can be peeked at; the card
sounds are shipped as generated."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.web import STATIC_DIR
from cardtable.web.sound import CARD_SOUNDS, card_sound
from tests.http import http
from tests.web.test_browser import (
    DESKTOP,
    PHONE,
    Player,
    english_left,
    sequence_move,
    wait_until,
)
from tests.web.test_live import COUNT_PLAYS

CHOSEN = {"setting-fourColour": True, "setting-confirm": True, "setting-mute": True,
          "setting-cardSounds": True, "setting-autoPlay": True}
PICKED = {"setting-cardSize": "large", "setting-boardSize": "small", "setting-lowTime": "30",
          "setting-holdTrick": "click"}


#: clicks the peek at the last trick, if there is one; the panel's state after the click
PEEK = """() => {
  const button = document.querySelector('#peek-trick');
  if (!button) return null;
  button.click();
  const panel = document.querySelector('#peek-panel');
  return {hidden: panel.hidden, text: panel.innerText,
          cards: panel.querySelectorAll('.peek-card').length};
}"""


def join(p: Player, server: str, table_id: str) -> None:
    p.page.goto(f"{server}/t/{table_id}?seat=0")
    p.page.fill("#join-name", "Ana")
    p.page.click("#join-button")
    p.wait_view()


def open_panel(p: Player) -> None:
    if not p.page.locator("#settings[open]").count():
        p.page.click("#settings summary")
    if p.page.locator("#settings-more").is_hidden():
        p.page.click("#settings-more-toggle")


def preset(p: Player, **values: Any) -> None:
    """Settings saved in the browser before the page loads (as a panel would save)."""
    text = json.dumps(values)
    p.context.add_init_script(f"localStorage.setItem('cardtable:settings', {json.dumps(text)})")


def test_the_shipped_card_sounds_are_the_generated_ones() -> None:
    for name in CARD_SOUNDS:
        shipped = (STATIC_DIR / "sounds" / f"{name}.wav").read_bytes()
        assert shipped == card_sound(name), "run: python -m cardtable.web.sound"
        assert shipped[:4] == b"RIFF" and len(shipped) < 8_000


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "locale"), [(DESKTOP, "en-US"), (PHONE, "km-KH")])
def test_settings_survive_a_reload(browser: Any, server: str, shots: Path,
                                   viewport: dict[str, int], locale: str) -> None:
    p = Player(browser, server, viewport=viewport, locale=locale)
    p.page.goto(server + "/")
    p.page.wait_for_selector("#games")
    open_panel(p)
    for box in CHOSEN:
        p.page.set_checked(f"#{box}", CHOSEN[box])
    for select, value in PICKED.items():
        p.page.select_option(f"#{select}", value)
    kind = "desktop-en" if locale == "en-US" else "phone-km"
    p.page.screenshot(path=str(shots / f"settings-{kind}.png"))
    if locale != "en-US":
        panel = p.page.inner_text("#settings .settings-panel")
        assert not english_left(panel.replace("♦", "").replace("♣", "")), panel
    p.page.reload()
    p.page.wait_for_selector("#games")
    open_panel(p)
    for box, on in CHOSEN.items():
        assert p.page.is_checked(f"#{box}") == on, box
    for select, value in PICKED.items():
        assert p.page.input_value(f"#{select}") == value, select
    root = p.page.evaluate("({...document.documentElement.dataset})")
    assert root == {"cardSize": "large", "boardSize": "small", "fourColour": "yes"}
    p.close()


@pytest.mark.slow
def test_the_look_and_confirm_before_a_move(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server, viewport=DESKTOP)
    p.context.add_init_script(COUNT_PLAYS)
    preset(p, fourColour=True, boardSize="large", cardSize="large", confirm=True,
           cardSounds=True)
    p.create("sequence", ["person", "bot:heuristic"])
    # the four-colour deck: a diamond is blue on the board, a club green
    diamond = p.page.locator(".board .cell[aria-label*='♦'] svg text").first
    club = p.page.locator(".board .cell[aria-label*='♣'] svg text").first
    assert diamond.get_attribute("fill") == "#1565c0"
    assert club.get_attribute("fill") == "#2e7d32"
    # (read once the board is laid out: a box is None while the table is drawn anew)
    wait_until(lambda: p.page.locator(".board").bounding_box() is not None, what="the board")
    board = p.page.locator(".board").bounding_box()
    assert board is not None and board["width"] > 700      # large: past the 640 px default
    card = p.page.locator("#hand button.card").first.bounding_box()
    assert card is not None and card["width"] > 70         # 62 px on a desktop, x 1.3
    p.shot(shots, "settings-sequence-large-four-colour")
    # confirm before the move: the move waits for "Play"
    before = p.moves_seen()
    cards = p.page.locator("#hand button.card.playable")
    for i in range(cards.count()):
        cards.nth(i).click()
        if p.page.locator(".cell.legal").count():
            p.page.locator(".cell.legal").first.click()
            break
    p.page.wait_for_selector("#confirm-bar")
    time.sleep(0.5)
    assert p.moves_seen() == before
    p.page.click("#confirm-cancel")
    assert p.page.locator("#confirm-bar").count() == 0 and p.moves_seen() == before
    p.page.evaluate("localStorage.setItem('cardtable:settings', JSON.stringify("
                    "{...JSON.parse(localStorage.getItem('cardtable:settings')), confirm: false}))")
    sequence_move(p)
    assert p.page.locator("#confirm-bar").count() == 0
    # the card sounds (on): a card put down
    p.page.wait_for_function("() => window.__plays.some(s => s.endsWith('/sounds/play.wav'))")
    # muted: no sound at all, the chime included
    p.page.evaluate("localStorage.setItem('cardtable:settings', JSON.stringify("
                    "{...JSON.parse(localStorage.getItem('cardtable:settings')), mute: true}))")
    heard = len(p.page.evaluate("window.__plays"))
    p.page.wait_for_function("() => document.querySelector('#turn.mine')")
    sequence_move(p)
    p.page.wait_for_function("() => document.querySelector('#turn.mine')")
    assert len(p.page.evaluate("window.__plays")) == heard
    p.close()


@pytest.mark.slow
def test_a_held_trick_and_the_peek_at_the_last_one(browser: Any, server: str,
                                                   shots: Path) -> None:
    p = Player(browser, server, viewport=DESKTOP)
    preset(p, holdTrick="click")
    p.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    held = peeked = False
    end = time.monotonic() + 120
    while not (held and peeked):
        assert time.monotonic() < end, (held, peeked)
        if p.page.locator("#next-trick").count():
            # a finished trick stays on the table until the click
            time.sleep(0.8)
            assert p.page.locator("#next-trick").count() == 1
            assert "Won by" in p.page.inner_text("#held-trick")
            if not held:
                p.shot(shots, "settings-held-trick")
            p.page.click("#next-trick")
            assert p.page.locator("#held-trick").count() == 0
            held = True
            continue
        if not peeked:
            # during a trick: open the peek, read it, close it (in one go: the table is
            # drawn anew at every move, the peek's state kept)
            opened = p.page.evaluate(PEEK)
            if opened is not None:
                assert not opened["hidden"] and "Won by" in opened["text"], opened
                assert opened["cards"] == 2, opened
                p.shot(shots, "settings-peek-trick")
                closed = p.page.evaluate(PEEK)
                assert closed is None or closed["hidden"], closed
                peeked = True
                continue
        if p.my_turn and p.page.locator("#hand button.card:not([disabled])").count():
            before = p.moves_seen()
            p.page.locator("#hand button.card:not([disabled])").first.click()
            p.wait_moves(before)
        else:
            time.sleep(0.05)
    p.close()


@pytest.mark.slow
def test_a_single_legal_card_plays_itself(browser: Any, server: str) -> None:
    # following suit in the draw too: a seat often holds one card of the suit led
    p = Player(browser, server, viewport=DESKTOP)
    p.page.emulate_media(reduced_motion="reduce")   # no animation holds the bot's answers
    preset(p, autoPlay=True)
    table = http.post(f"{server}/api/tables", json={
        "game": "drawbridge", "options": {"target": 1, "follow_suit_in_draw": True},
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}]},
        timeout=30).json()
    join(p, server, table["id"])
    end = time.monotonic() + 150
    while True:
        assert time.monotonic() < end, "no single legal card came"
        if p.my_turn and p.page.locator("#auction .bid-grid").count() == 0:
            cards = p.page.locator("#hand button.card:not([disabled])")
            before = p.moves_seen()
            if cards.count() == 1:
                # nobody clicks: the page plays it
                p.wait_moves(before)
                break
            if cards.count() > 1:
                cards.first.click()
                p.wait_moves(before)
                continue
        if p.page.locator("#auction .bid-grid").count() and p.my_turn:
            before = p.moves_seen()
            p.page.click("#auction button[data-call=pass]")
            p.wait_moves(before)
            continue
        time.sleep(0.05)
    p.close()


@pytest.mark.slow
def test_the_low_time_warning(browser: Any, server: str) -> None:
    table = http.post(f"{server}/api/tables", json={
        "game": "sequence", "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}],
        "clock": {"kind": "move", "seconds": 33}}, timeout=30).json()
    p = Player(browser, server, viewport=DESKTOP)
    p.context.add_init_script(COUNT_PLAYS)
    preset(p, lowTime=30)
    join(p, server, table["id"])
    p.page.wait_for_selector(".seat.me .seat-clock.running")
    assert p.page.locator(".seat.me .seat-clock.running.low").count() == 0
    # under 30 seconds: red, pulsing, and one tick
    p.page.wait_for_selector(".seat.me .seat-clock.running.low", timeout=15000)
    p.page.wait_for_function("() => window.__plays.some(s => s.endsWith('/sounds/low.wav'))")
    # "no warning": none
    p.page.evaluate("localStorage.setItem('cardtable:settings', JSON.stringify({lowTime: 0}))")
    p.page.wait_for_function(
        "() => !document.querySelector('.seat.me .seat-clock.running.low')", timeout=5000)
    p.close()
