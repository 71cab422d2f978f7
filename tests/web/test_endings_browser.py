"""Resign and take back a move in a real browser (Debian's chromium) against a real
``cardtable serve``: a move taken back against a bot, then Resign (asked again first),
the end screen and the replay saying who resigned; English on a desktop, Khmer on a
375 px phone (screenshots in test-output/screenshots/)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.http import http
from tests.web.test_browser import DESKTOP, KHMER, PHONE, Player, wait_until

pytestmark = pytest.mark.slow


def play_one(p: Player) -> None:
    """Play the first legal move through the page's own play (as a click does)."""
    p.page.wait_for_function("() => window.cardtable.table.myTurn")
    p.page.evaluate("window.cardtable.table.play(window.cardtable.table.legal[0])")


@pytest.mark.parametrize(("game", "viewport", "locale", "name"), [
    ("threethirteen", DESKTOP, "en-US", "endings-desktop-en"),
    ("sequence", PHONE, "km-KH", "endings-phone-km"),
])
def test_undo_against_a_bot_then_resign(browser: Any, server: str, shots: Path, game: str,
                                        viewport: dict[str, int], locale: str,
                                        name: str) -> None:
    p = Player(browser, server, viewport=viewport, locale=locale)
    try:
        table_id = p.create(game, ["person", "bot:random"])
        page = p.page
        assert page.locator("#undo").count() == 0      # no move of ours to take back
        page.wait_for_selector("#resign")
        assert page.locator("#abort").count() == 1      # a person with bots alone
        version = page.evaluate("window.cardtable.table.version")
        # our moves until the bot has answered (instant pace) and it is our turn again
        answered = ("v => { const t = window.cardtable.table; return t.myTurn "
                    "&& t.events.some((e) => e.seat === 1 && e.version > v); }")
        for _ in range(6):
            page.wait_for_function("() => window.cardtable.table.myTurn")
            now = page.evaluate("window.cardtable.table.version")
            play_one(p)
            page.wait_for_function("v => window.cardtable.table.version > v && "
                                   "window.cardtable.table.myTurn", arg=now)
            if page.evaluate(answered, version):
                break
        assert page.evaluate(answered, version)
        ours = page.evaluate("Math.max(...window.cardtable.table.events"
                             ".filter((e) => e.seat === 0).map((e) => e.version))")
        # the takeback is of our whole last turn: in Three Thirteen the draw before the
        # discard too (issue 37), in Sequence a dead card exchanged before the card played
        moves = {v: m for seat, v, m in page.evaluate(
            "window.cardtable.table.events.map((e) => [e.seat, e.version, e.move])") if seat == 0}
        while ours - 1 in moves and (moves[ours - 1] in ("draw", "take")
                                     or moves[ours - 1].startswith("dead ")):
            ours -= 1
        hand = p.hand()
        page.click("#undo")
        page.wait_for_function("v => window.cardtable.table.version === v", arg=ours - 1)
        assert page.evaluate("window.cardtable.table.events.every((e) => e.version < "
                             f"{ours})")
        assert page.evaluate("window.cardtable.table.myTurn")
        if game == "sequence":       # our card is back in the hand
            assert len(p.hand()) >= len(hand)
        p.shot(shots, f"{name}-undone")
        # Resign asks again first
        page.click("#resign")
        page.wait_for_selector("#resign-yes")
        if locale == "km-KH":
            assert re.search(f"[{KHMER}]", page.locator("#endings").inner_text())
        p.shot(shots, f"{name}-confirm")
        page.click("#resign-no")
        page.wait_for_selector("#resign")
        assert not p.over
        page.click("#resign")
        page.click("#resign-yes")
        page.wait_for_selector("#over .over-panel #ending")
        ending = page.locator("#ending").inner_text()
        if locale == "en-US":
            assert ending == "You resigned."
        else:
            assert re.search(f"[{KHMER}]", ending), ending
        assert page.locator("#resign").count() == 0 and page.locator("#undo").count() == 0
        assert not page.evaluate("window.cardtable.table.myTurn")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], width
        p.shot(shots, f"{name}-over")
        record = http.get(f"{server}/api/tables/{table_id}/record.json", timeout=30).json()
        assert record["ending"] == {"kind": "resign", "seat": 0}
        assert record["undos"][0]["seat"] == 0 and record["result"]["winners"] == [1]
        # the replay says it at the end
        page.click("#replay-link")
        page.wait_for_selector("#replay-end")
        page.click("#replay-end")
        page.wait_for_selector("#replay-ending")
        assert "Dara" in page.locator("#replay-ending").inner_text()
        p.shot(shots, f"{name}-replay")
    finally:
        p.close()


def test_a_takeback_between_two_people_is_asked_declined_then_accepted(
        browser: Any, server: str, shots: Path) -> None:
    """Two browsers and a bot (so not rated: a bot's seat): the mover's "Take back my
    move" is asked of the other person, who declines, then accepts; the game goes back on
    both pages. A rated game (people alone with their player keys) shows no such button."""
    a = Player(browser, server)
    b = Player(browser, server)
    try:
        table = a.create("sequence", ["person", "person", "bot:random"], name="Dara")
        b.page.goto(f"{server}/t/{table}?seat=1")
        b.page.fill("#join-name", "Sokha")
        b.page.click("#join-button")
        b.page.wait_for_selector("#hand button.card")
        wait_until(lambda: a.my_turn or b.my_turn, what="a person's turn")
        mover, other = (a, b) if a.my_turn else (b, a)
        assert not mover.page.evaluate("window.cardtable.table.table.rated")
        play_one(mover)
        other.page.wait_for_function("() => window.cardtable.table.myTurn")
        now = other.page.evaluate("window.cardtable.table.version")
        mover.page.wait_for_function("v => window.cardtable.table.version === v", arg=now)
        back_to = mover.page.evaluate("Math.max(...window.cardtable.table.events"
                                      ".filter((e) => e.seat === window.cardtable.table.seat)"
                                      ".map((e) => e.version)) - 1")
        assert other.page.locator("#undo").count() == 0      # no move of its own yet
        mover.page.click("#undo")
        other.page.wait_for_selector("#undo-asked")
        mover.page.wait_for_selector("#undo-waiting")
        assert "Dara" in other.page.locator("#undo-asked").inner_text() or (
            "Sokha" in other.page.locator("#undo-asked").inner_text())
        other.shot(shots, "endings-undo-asked-en")
        other.page.click("#undo-decline")
        mover.page.wait_for_selector("#undo")                   # asked no more
        assert mover.page.evaluate("window.cardtable.table.version") == now
        mover.page.click("#undo")
        other.page.click("#undo-accept")
        for p in (a, b):
            p.page.wait_for_function("v => window.cardtable.table.version === v && "
                                     "window.cardtable.table.events.every((e) => "
                                     "e.version <= v)", arg=back_to)
        mover.page.wait_for_function("() => window.cardtable.table.myTurn")
        assert other.page.locator("#undo-asked").count() == 0

        # two people with their player keys (the page's own): rated, no takeback
        rated = a.create("sequence", ["person", "person"], name="Dara")
        b.page.goto(f"{server}/t/{rated}?seat=1")
        b.page.fill("#join-name", "Sokha")
        b.page.click("#join-button")
        b.page.wait_for_selector("#hand button.card")
        wait_until(lambda: a.my_turn or b.my_turn, what="a person's turn")
        mover = a if a.my_turn else b
        mover.page.wait_for_function("() => window.cardtable.table.table.rated")
        play_one(mover)
        mover.page.wait_for_function("() => !window.cardtable.table.myTurn")
        mover.page.wait_for_selector("#resign")
        assert mover.page.locator("#undo").count() == 0
    finally:
        a.close()
        b.close()
