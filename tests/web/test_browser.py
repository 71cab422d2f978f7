"""The web page in a real browser (Debian's chromium) against a real ``cardtable serve``.

Every move here is made the way a player makes it: by clicking (or pressing keys on)
the page's cards, cells, piles and call buttons. Screenshots of each game are kept in
``test-output/screenshots/``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.web import STATIC_DIR

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 375, "height": 667}
KHMER = "\u1780-\u17ff"


class Player:
    """One browser context: a page with its JavaScript errors collected."""

    def __init__(self, browser: Any, server: str, *, viewport: dict[str, int] = DESKTOP,
                 locale: str = "en-US") -> None:
        self.server = server
        self.context = browser.new_context(viewport=viewport, locale=locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()

    # -- the lobby

    def create(self, game: str, seats: list[str], name: str = "Dara",
               options: dict[str, Any] | None = None) -> str:
        """A new table from the lobby; seats: "person" or "bot:KIND". Returns its id."""
        page = self.page
        page.goto(self.server + "/")
        page.fill("#player-name", name)
        page.select_option("#game", game)
        page.select_option("#players", str(len(seats)))
        for i, kind in enumerate(seats):
            page.select_option(f"#seat-{i}", kind)
        if options:
            page.click("#create details summary")
            for key, value in options.items():
                page.fill(f"#opt-{key}", str(value))
        page.click("#create-table")
        page.wait_for_url("**/t/**")
        self.wait_view()
        return page.url.rstrip("/").split("/t/")[1].split("?")[0]

    def wait_view(self) -> None:
        self.page.wait_for_function("() => document.querySelector('#turn') && "
                                    "document.querySelector('#turn').textContent.length > 0")

    # -- the table

    @property
    def my_turn(self) -> bool:
        return self.page.locator("#turn.mine").count() > 0

    @property
    def over(self) -> bool:
        return self.page.locator("#over .over-panel").count() > 0

    def moves_seen(self) -> int:
        return int(self.page.locator("#log li").count())

    def wait_moves(self, more_than: int) -> None:
        self.page.wait_for_function("n => document.querySelectorAll('#log li').length > n",
                                    arg=more_than)

    def hand(self) -> list[str]:
        return list(self.page.eval_on_selector_all(
            "#hand button.card", "els => els.map(e => e.dataset.card)"))

    def shot(self, folder: Path, name: str) -> None:
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    def shot_of(self, selector: str, path: Path) -> None:
        """A screenshot of one element, taken again if the page redrew it meanwhile (a bot's
        move redraws the table while Playwright waits for the element to hold still)."""
        for attempt in range(3):
            try:
                self.page.locator(selector).screenshot(path=str(path))
                return
            except Exception as e:   # playwright's Error, from a module imported lazily
                if "not attached" not in str(e) or attempt == 2:
                    raise


def wait_until(check: Any, seconds: float = 60, what: str = "") -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what or check}")


# ------------------------------------------------------------------ moves by pointer

def sequence_move(p: Player) -> None:
    page = p.page
    before = p.moves_seen()
    if page.locator("#pass").count():
        page.click("#pass")
    else:
        cards = page.locator("#hand button.card.playable")
        for i in range(cards.count()):
            cards.nth(i).click()
            if page.locator("#dead-card").count():
                page.click("#dead-card")
                break
            cell = page.locator(".cell.legal")
            if cell.count():
                cell.first.click()
                break
        else:
            raise AssertionError(f"no playable card in {p.hand()}")
    p.wait_moves(before)


def drawbridge_move(p: Player, bid: bool) -> None:
    page = p.page
    before = p.moves_seen()
    if page.locator("#auction .bid-grid").count():
        bids = page.locator("#auction button.bid:not([disabled])")
        if bid and bids.count():
            bids.first.click()
        else:
            page.click("#auction button[data-call=pass]")
    else:
        page.locator("#hand button.card:not([disabled])").first.click()
    p.wait_moves(before)


def threethirteen_move(p: Player, take: bool = False) -> None:
    """Draw (or take), or discard: a discard that goes out when there is one, as a
    person would (so that rounds end soon), else the first card."""
    page = p.page
    before = p.moves_seen()
    if page.locator("#stock:not([disabled])").count():
        if take and page.locator("#discard-pile:not([disabled])").count():
            page.click("#discard-pile")
        else:
            page.click("#stock")
    else:
        playable = "#hand button.card.playable"
        out = page.evaluate("window.cardtable.table.view.going_out || []")
        if out and page.locator(f"{playable}[data-card='{out[0]}']").count():
            playable += f"[data-card='{out[0]}']"
        page.locator(playable).first.click()
    p.wait_moves(before)


# ------------------------------------------------------------------ the tests

def test_two_browsers_play_a_whole_sequence_game(browser: Any, server: str, shots: Path) -> None:
    a = Player(browser, server)
    b = Player(browser, server)
    for p in (a, b):   # motion: test_live, test_live_games (it holds events)
        p.page.emulate_media(reduced_motion="reduce")
    table = a.create("sequence", ["person", "person"], name="Dara")
    invite = a.page.locator("#invites input").first.input_value()
    assert invite.endswith(f"/t/{table}?seat=1")
    b.page.goto(invite)
    b.page.fill("#join-name", "Sokha")
    b.page.click("#join-button")
    b.page.wait_for_selector("#hand button.card")
    a.page.wait_for_function("() => !document.querySelector('#invites input')")
    moves = 0
    end = time.monotonic() + 300
    while not (a.over and b.over):
        assert time.monotonic() < end, "the game did not end in 5 minutes"
        for p in (a, b):
            if p.my_turn and not p.over:
                sequence_move(p)
                moves += 1
                if moves == 10:
                    a.shot(shots, "sequence-desktop")
        else:
            time.sleep(0.05)
    a.shot(shots, "sequence-over")
    assert moves > 10
    for p in (a, b):
        assert p.page.locator(".cell.in-sequence").count() >= 5 or "draw" in p.page.inner_text(
            "#over").lower()
        assert p.page.locator("#record").get_attribute("href") == f"/api/tables/{table}/record"
    text = a.page.inner_text("#over")
    assert "You won!" in text or "Won by" in text or "draw" in text
    record = a.page.request.get(server + a.page.locator("#record").get_attribute("href"))
    assert record.ok and record.json()["game"] == "sequence"
    # a rematch: a new table with the same seats, this player in the same seat
    a.page.click("#rematch")
    a.page.wait_for_url(lambda url: f"/t/{table}" not in url)
    a.wait_view()
    assert a.page.locator(".seat.me").get_attribute("data-seat") == "0"
    assert a.page.locator("#invites input").count() == 1
    # the server told the other player, who joins in one click, in the same seat
    b.page.click("#join-rematch")
    b.page.wait_for_url(lambda url: f"/t/{table}" not in url)
    assert b.page.url == a.page.url
    b.wait_view()
    assert b.page.locator(".seat.me").get_attribute("data-seat") == "1"
    a.page.wait_for_function("() => !document.querySelector('#invites input')")
    a.close()
    b.close()


def test_a_draw_bridge_deal_against_a_bot(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server)
    p.page.emulate_media(reduced_motion="reduce")   # motion: test_live, test_live_games
    p.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    seen = set()
    end = time.monotonic() + 240
    while not (p.over or p.page.locator("#last-deal").count()):
        assert time.monotonic() < end, "the deal did not end in 4 minutes"
        if p.my_turn:
            phase = p.page.inner_text("#phase")
            if phase not in seen:
                seen.add(phase)
                p.shot(shots, f"drawbridge-{len(seen)}")
            if p.page.locator("#auction .bid-grid").count():
                # only legal calls are enabled: a bid below the last one is disabled
                enabled = p.page.locator("#auction button:not([disabled])").count()
                assert 0 < enabled <= 38
                # the draw phase's last trick, and who won it, stay told in the auction
                assert "won by" in p.page.inner_text("#last-trick")
                # and the opponent's hand is known now (RULES 1.3): shown, marked deduced
                assert p.page.locator("#deduced-hand .deduced-card").count() == 13
            else:
                # the draw phase: the stock hides the opponent's cards; the play: known
                assert p.page.locator("#deduced-hand").count() == (phase == "Play phase")
            calls = p.page.locator("#auction .calls li strong").all_inner_texts()
            drawbridge_move(p, bid=all(c == "Pass" for c in calls))   # open, then pass
        else:
            time.sleep(0.05)
    p.shot(shots, "drawbridge-end")
    assert len(seen) >= 3, seen   # the draw, the auction and the play
    if p.over:
        assert p.page.locator("#over").inner_text().strip()
    p.close()


def test_a_three_thirteen_round_against_bots(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server)
    p.page.emulate_media(reduced_motion="reduce")   # motion: test_live, test_live_games
    p.create("threethirteen", ["person", "bot:random", "bot:random"])
    assert "3" in p.page.inner_text("#wild-rank")
    turns = 0
    end = time.monotonic() + 180
    while "2" not in p.page.inner_text("#round").split()[1] and not p.over:
        assert time.monotonic() < end, "round 1 did not end in 3 minutes"
        if p.my_turn:
            if turns == 0:
                # a hint: the move and the chance to win
                p.page.click("#hint")
                p.page.wait_for_selector("#play-hint")
                assert "%" in p.page.inner_text("#hint-text")
            if p.page.locator("#hand .group").count() and turns == 1:
                p.shot(shots, "threethirteen-desktop")
                # the player's own order: Shift+arrow moves the focused card
                p.page.click("#order-toggle")
                order = p.hand()
                p.page.locator("#hand button.card").first.focus()
                p.page.keyboard.press("Shift+ArrowRight")
                assert p.hand() == [order[1], order[0], *order[2:]]
                p.page.click("#order-toggle")
            threethirteen_move(p, take=turns % 4 == 1)
            turns += 1
        else:
            time.sleep(0.05)
    # round 1's penalties are on the score sheet; round 2 deals 4 cards with 4s wild
    sheet = p.page.inner_text("#score-sheet")
    assert sheet.splitlines()
    # a late spectator, on another device, sees round 1 on the sheet too (from the view)
    watcher = Player(browser, server)
    watcher.page.goto(p.page.url)
    watcher.wait_view()
    first = watcher.page.locator("#score-sheet tr").nth(1).locator("td")
    assert first.count() == 4 and all(t.strip().isdigit() for t in first.all_inner_texts()[1:])
    watcher.close()
    p.page.wait_for_selector("#hand .group")
    assert "4" in p.page.inner_text("#wild-rank")
    p.shot(shots, "threethirteen-round-2")
    p.close()


def test_a_reload_keeps_the_seat_and_the_game(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server)
    table = p.create("sequence", ["person", "bot:random"])
    for _ in range(2):
        wait_until(lambda: p.my_turn, what="my turn")
        sequence_move(p)
    wait_until(lambda: p.my_turn, what="my turn")
    # a dropped connection comes back by itself, and the game goes on
    p.page.evaluate("window.cardtable.table.socket.close()")
    p.page.wait_for_selector(".conn.closed, .conn.connecting")
    p.page.wait_for_selector(".conn.open")
    sequence_move(p)
    wait_until(lambda: p.my_turn, what="my turn")
    hand, moves = p.hand(), p.moves_seen()
    p.page.reload()
    p.wait_view()
    p.page.wait_for_selector("#hand button.card")
    wait_until(lambda: p.moves_seen() == moves, what="the replayed log")
    assert p.hand() == hand
    assert p.my_turn
    assert p.page.locator(".seat.me").count() == 1
    assert p.page.url.endswith(f"/t/{table}")
    # the keyboard: a digit picks a card and focuses its first cell, Enter plays it
    for digit in range(1, len(hand) + 1):
        p.page.keyboard.press(str(digit))
        if p.page.evaluate("document.activeElement.classList.contains('legal')"):
            p.page.keyboard.press("Enter")
            p.wait_moves(moves)
            break
    else:
        pytest.fail("no card of the hand could be played from the keyboard")
    # leaving the seat: the page watches on, and the seat is free to take again
    wait_until(lambda: p.my_turn, what="my turn")
    p.page.click("#leave")
    p.page.wait_for_selector(".seat button:has-text('Sit here')")
    assert p.page.locator(".seat.me").count() == 0
    assert p.page.locator("#hand button.card").count() == 0
    assert p.page.evaluate(f"localStorage.getItem('cardtable:seat:{table}')") is None
    p.close()


def test_a_spectator_sees_no_hand(browser: Any, server: str, shots: Path) -> None:
    host = Player(browser, server)
    table = host.create("threethirteen", ["person", "bot:random"])
    watcher = Player(browser, server)
    watcher.page.goto(f"{server}/t/{table}")
    watcher.wait_view()
    watcher.page.wait_for_selector("#score-sheet")
    assert watcher.page.locator("#hand button.card").count() == 0
    assert "watching" in watcher.page.inner_text("#hand")
    assert watcher.page.locator(".seat.me").count() == 0
    assert not watcher.page.locator("#hint").is_visible()
    for card in host.hand():
        assert f'data-card="{card}"' not in watcher.page.content()
    watcher.shot(shots, "threethirteen-spectator")
    host.close()
    watcher.close()


@pytest.mark.parametrize("game", ["sequence", "drawbridge", "threethirteen"])
def test_a_phone_shows_a_playable_table(browser: Any, server: str, shots: Path,
                                        game: str) -> None:
    p = Player(browser, server, viewport=PHONE)
    if game == "sequence":
        p.page.goto(server + "/")
        p.page.wait_for_selector("#create-table")
        p.shot(shots, "lobby-phone")
    p.create(game, ["person", "bot:random"])
    wait_until(lambda: p.my_turn, what="my turn")
    width = p.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a 375 px phone"
    p.shot(shots, f"{game}-phone")
    {"sequence": sequence_move, "threethirteen": threethirteen_move,
     "drawbridge": lambda q: drawbridge_move(q, bid=True)}[game](p)
    p.close()


def english_left(text: str) -> list[str]:
    """The page's English messages found in a Khmer page's text (none should be)."""
    catalog = json.loads((STATIC_DIR / "i18n" / "km.json").read_text(encoding="utf-8"))
    kept = " ".join(catalog.values())   # English a translation keeps, e.g. "(Sequence)"
    return [m for m in catalog if "{" not in m and len(m) >= 4 and m not in kept
            and re.search(rf"(?<![\w-]){re.escape(m)}(?![\w-])", text)]


def test_the_khmer_page_renders(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server, locale="km-KH")
    p.page.goto(server + "/")
    p.page.wait_for_selector("#create-table")
    assert p.page.inner_text("#create-table") == "បង្កើតតុ"
    p.page.click("#create details summary")
    assert english_left(p.page.inner_text("body")) == []
    p.shot(shots, "lobby-khmer")
    p.create("sequence", ["person", "bot:random"], name="ដារា")
    wait_until(lambda: p.my_turn, what="my turn")
    assert p.page.inner_text("#turn").startswith("វេនរបស់អ្នក")
    p.page.click(".log-box summary")   # the move log open: its lines are checked too
    assert english_left(p.page.inner_text("body")) == []
    p.shot(shots, "sequence-khmer")
    p.page.set_viewport_size(PHONE)
    p.shot(shots, "sequence-khmer-phone")
    # the Khmer font ships with the page and loads
    assert p.page.evaluate("document.fonts.check('16px \"Cardtable Khmer\"', 'ក')")
    p.page.goto(server + "/rules/threethirteen")
    p.page.wait_for_selector("article.rules h3")
    assert "ពាក្យទូទៅ" in p.page.inner_text("article.rules")
    assert english_left(p.page.inner_text("header")) == []
    p.shot(shots, "rules-khmer")
    # the switch back to English is remembered
    p.page.select_option("#lang", "en")
    p.page.wait_for_selector("text=Common terms")
    p.close()
