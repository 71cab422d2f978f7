"""A table that feels alive, in a real browser (Debian's chromium) against a real
``cardtable serve``: the turn alert (sound, tab title and icon), the settings kept in the
browser, and a page that says plainly when the server cannot be reached.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.web import STATIC_DIR
from cardtable.web.sound import turn_sound
from tests.web.test_browser import (
    PHONE,
    Player,
    drawbridge_move,
    sequence_move,
    threethirteen_move,
    wait_until,
)

pytestmark = pytest.mark.slow

# every play() of an audio element counted (headless chromium has no speakers to listen to)
COUNT_PLAYS = """
window.__plays = [];
HTMLMediaElement.prototype.play = function () {
  window.__plays.push(this.src);
  return Promise.resolve();
};
"""


def plays(p: Player) -> list[str]:
    return list(p.page.evaluate("window.__plays"))


def two_players(browser: Any, server: str) -> tuple[Player, Player, str]:
    """Two browsers at a Sequence table: the one to move first, then the other; the
    player who created it waited for the other, and was alerted if it moves first."""
    a = Player(browser, server)
    b = Player(browser, server)
    for p in (a, b):
        p.context.add_init_script(COUNT_PLAYS)
    table = a.create("sequence", ["person", "person"], name="Dara")
    b.page.goto(f"{server}/t/{table}?seat=1")
    b.page.fill("#join-name", "Sokha")
    b.page.click("#join-button")
    b.page.wait_for_selector("#hand button.card")
    wait_until(lambda: a.my_turn or b.my_turn, what="the first player's turn")
    if a.my_turn:
        a.page.wait_for_function("() => window.__plays.length === 1")   # the game began: a's turn
        return a, b, table
    return b, a, table


def test_the_shipped_sound_is_the_generated_one() -> None:
    shipped = (STATIC_DIR / "sounds" / "turn.wav").read_bytes()
    assert shipped == turn_sound(), "run: python -m cardtable.web.sound"
    assert shipped[:4] == b"RIFF" and len(shipped) < 8000


def test_the_turn_alert_fires_when_the_other_browser_moves(browser: Any, server: str,
                                                            shots: Path) -> None:
    a, b, _table = two_players(browser, server)
    alerted = len(plays(a))   # 1 when a created the table and waited for b (two_players)
    assert a.page.title().startswith("● ")
    assert a.page.get_attribute("#favicon", "data-turn") == "yes"
    assert not b.page.title().startswith("● ")
    assert b.page.get_attribute("#favicon", "data-turn") == "no"
    assert plays(b) == []
    sequence_move(a)
    wait_until(lambda: b.my_turn, what="the second player's turn")
    b.page.wait_for_function("() => window.__plays.length === 1")
    assert plays(b)[0].endswith("/static/sounds/turn.wav")
    assert b.page.title().startswith("● ")
    assert b.page.get_attribute("#favicon", "data-turn") == "yes"
    assert not a.page.title().startswith("● ")
    assert len(plays(a)) == alerted   # the mover's own move is no alert
    # sound off in the settings: the next turn is still marked in the tab, but silent
    a.page.click("#settings summary")
    a.page.uncheck("#setting-sound")
    a.shot(shots, "settings")
    sequence_move(b)
    wait_until(lambda: a.my_turn, what="the first player's turn again")
    assert a.page.title().startswith("● ")
    assert len(plays(a)) == alerted
    # the setting is kept in the browser: after a reload it is still off
    a.page.reload()
    a.wait_view()
    a.page.click("#settings summary")
    assert not a.page.is_checked("#setting-sound")
    assert a.page.is_checked("#setting-animation")
    assert not a.page.is_checked("#setting-notifications")
    a.close()
    b.close()


def test_a_page_without_the_server_says_so(browser: Any, server: str, shots: Path) -> None:
    a, b, _table = two_players(browser, server)
    assert a.page.locator(".seat .dot.on").count() == 2
    # the network goes: the socket closes and no reconnection gets through
    a.context.set_offline(True)
    a.page.evaluate("window.cardtable.table.socket.close()")
    a.page.wait_for_selector("#turn.offline")
    text = a.page.inner_text("#turn")
    assert "Your turn" not in text and "Not connected" in text
    assert a.page.locator(".seat .dot.on").count() == 0
    assert a.page.locator(".seat .dot.unknown").count() == 2
    assert not a.page.title().startswith("● ")
    a.shot(shots, "offline")
    # it comes back by itself, and the banner is the turn again
    a.context.set_offline(False)
    a.page.wait_for_selector("#turn.mine", timeout=30000)
    assert a.page.locator(".seat .dot.on").count() == 2
    a.close()
    b.close()


# ------------------------------------------------------------------ moves you can see

ANIMATION_OFF = "localStorage.setItem('cardtable:settings', JSON.stringify({animation: false}))"

# what a Sequence table shows: each cell's chip (or none) and the sequences' cells
BOARD_STATE = """() => [...document.querySelectorAll('#game .cell')].map((c) =>
  [c.dataset.cell, c.querySelector('.chip-svg') ? c.querySelector('.chip-svg').innerHTML : '',
   c.classList.contains('in-sequence')])"""


# every covered cell: its card's name is drawn above the chip's shape, not under it
CHIPS_LEAVE_THE_CARD = """[...document.querySelectorAll('.cell.covered')].every((c) => {
  const text = c.querySelector('.mini-svg text').getBoundingClientRect();
  return text.bottom <= c.querySelector('.chip-svg').lastChild.getBoundingClientRect().top + 1;
}) && document.querySelectorAll('.cell.covered').length > 0"""

# the end screen's scores, and who won
SCORES = """() => [...document.querySelectorAll('#over table.scores tr')].slice(1).map((r) =>
  [r.lastChild.textContent, r.classList.contains('winner')])"""


def motion_played(p: Player) -> int:
    return int(p.page.evaluate("window.cardtable.table.motion.played"))


def test_a_whole_game_animated_or_not_ends_in_the_same_state(browser: Any, server: str,
                                                              shots: Path) -> None:
    a = Player(browser, server)
    # a game of 30 turns (max_turns: a draw at the 30th, if nobody has won by then): every
    # kind of animation many times over, at half a whole game's length
    table = a.create("sequence", ["person", "bot:random"], options={"max_turns": 30})
    reduced = Player(browser, server)
    reduced.page.emulate_media(reduced_motion="reduce")
    off = Player(browser, server)
    off.context.add_init_script(ANIMATION_OFF)
    for watcher in (reduced, off):
        watcher.page.goto(f"{server}/t/{table}")
        watcher.wait_view()
    moves = 0
    end = time.monotonic() + 300
    while not a.over:
        assert time.monotonic() < end, "the game did not end in 5 minutes"
        if a.my_turn:
            if moves == 3:
                # a card picked, then another move typed: nothing stays picked afterwards
                # (the bot's chip has landed: a dropping chip is drawn above its place)
                a.page.wait_for_function("() => window.cardtable.table.motion.idle")
                # (a card that goes on a cell: a dead card has no cell to show)
                card = a.page.evaluate("(() => { const t = window.cardtable.table; return "
                                       "t.view.hand.find((c) => t.legal.some((m) => "
                                       "m.startsWith(c + ' '))); })()")
                a.page.locator(f"#hand button.card[data-card='{card}']").first.click()
                # (a hand may hold both copies of the card: both are picked)
                picked = a.page.locator("#hand button.card.selected")
                assert picked.count() >= 1 and picked.count() == a.page.locator(
                    f"#hand button.card.selected[data-card='{card}']").count()
                # a legal cell is tinted and ringed, not given a thin outline
                ring = a.page.evaluate("(() => { const s = getComputedStyle(document."
                                       "querySelector('.cell.legal'), '::before'); "
                                       "return [s.borderTopWidth, s.backgroundColor]; })()")
                assert ring[0] == "3px" and ring[1] != "rgba(0, 0, 0, 0)", ring
                # a chip leaves the card printed under it readable: the text above the chip
                assert a.page.evaluate(CHIPS_LEAVE_THE_CARD), "a chip hides its card"
                move = a.page.evaluate("window.cardtable.table.legal.find((m) => !m.startsWith("
                                       "window.cardtable.table.ui.selected + ' '))")
                if move:
                    before = a.moves_seen()
                    a.page.fill("#move-input", move)
                    a.page.press("#move-input", "Enter")
                    a.wait_moves(before)
                    wait_until(lambda: a.my_turn or a.over, what="my turn again")
                    assert a.page.locator("#hand button.card.selected").count() == 0
                    if not a.over:
                        assert "pick a card" in a.page.inner_text("#turn")
                    moves += 1
                    continue
            if moves == 6:
                # the card being played travels over the page, which stays usable
                played = motion_played(a)
                sequence_move(a)
                # (it starts once the animations of the moves before it have run)
                a.page.wait_for_function(f"() => window.cardtable.table.motion.played > {played}")
                assert all(style == "none" for style in a.page.evaluate(
                    "[...document.querySelectorAll('.ghost')].map((g) => getComputedStyle(g)"
                    ".pointerEvents)"))
                a.shot(shots, "sequence-moving")
            else:
                sequence_move(a)
            moves += 1
        else:
            time.sleep(0.05)
    a.page.wait_for_function("() => window.cardtable.table.motion.idle")
    assert a.page.locator(".ghost").count() == 0   # every ghost removed when it ended
    versions = a.page.evaluate("window.cardtable.table.version")
    for watcher in (reduced, off):
        watcher.page.wait_for_selector("#over .over-panel")
        wait_until(lambda w=watcher: w.page.evaluate("window.cardtable.table.version") == versions,
                   what="the watcher's last move")
        assert watcher.page.evaluate(BOARD_STATE) == a.page.evaluate(BOARD_STATE)
        assert watcher.page.evaluate(SCORES) == a.page.evaluate(SCORES)
        assert motion_played(watcher) == 0
    assert motion_played(a) > moves   # the played card, the chip dropping, ...
    for p in (a, reduced, off):
        p.close()


def test_draw_bridge_keeps_the_play_apart_from_the_draw(browser: Any, server: str,
                                                        shots: Path) -> None:
    """The draw's last trick is not shown in the play; a played card stays marked on the
    table; a finished trick is gathered towards its winner; on a 375 px phone the banner,
    the calls and the hand fit on the screen together."""
    p = Player(browser, server, viewport=PHONE)
    p.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    fitted = swept = False
    end = time.monotonic() + 240
    while not (p.over or p.page.locator("#last-deal").count()):
        assert time.monotonic() < end, "the deal did not end in 4 minutes"
        # the view and what the page drew of it, read at one moment
        view, last_trick, marked = p.page.evaluate(
            "[window.cardtable.table.view, !!document.querySelector('#last-trick'), "
            "document.querySelectorAll('#trick .played.last').length]")
        if view["phase"] == "play" and sum(view["tricks_won"]) == 0 and not view["trick"]:
            assert not last_trick, "the draw's trick in the play"
        if view["trick"]:
            assert marked == 1
        if p.my_turn:
            if p.page.locator("#auction .bid-grid").count() and not fitted:
                p.page.locator("#turn").scroll_into_view_if_needed()
                p.page.evaluate("window.scrollTo(0, document.querySelector('#turn')"
                                ".getBoundingClientRect().top + scrollY - 4)")
                top = p.page.evaluate("document.querySelector('#turn').getBoundingClientRect().top")
                bottom = p.page.evaluate("Math.max(...['#auction', '#hand'].map((s) => "
                                         "document.querySelector(s).getBoundingClientRect().bottom))")
                p.page.screenshot(path=str(shots / "drawbridge-auction-phone.png"))
                assert bottom - top <= PHONE["height"], (top, bottom)
                fitted = True
            tricks = sum(view["tricks_won"]) if view["phase"] == "play" else None
            calls = p.page.locator("#auction .calls li strong").all_inner_texts()
            played = motion_played(p)
            drawbridge_move(p, bid=all(c == "Pass" for c in calls))
            if tricks is not None and view["trick"]:   # this card finished the trick
                p.page.wait_for_function("n => window.cardtable.table.motion.played > n",
                                         arg=played)
                swept = True
        else:
            time.sleep(0.05)
    assert fitted and swept
    p.close()


def test_three_thirteen_marks_the_card_drawn_and_shows_each_hand_at_the_round_end(
        browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server)
    p.create("threethirteen", ["person", "bot:random", "bot:random"])
    marked = 0
    end = time.monotonic() + 180
    while "2" not in p.page.inner_text("#round").split()[1] and not p.over:
        assert time.monotonic() < end, "round 1 did not end in 3 minutes"
        if p.my_turn and p.page.locator("#stock:not([disabled])").count():
            threethirteen_move(p, take=marked % 2 == 1)
            wait_until(lambda: p.my_turn or "2" in p.page.inner_text("#round").split()[1],
                       what="the discard")
            if p.my_turn:
                drawn = p.page.evaluate("window.cardtable.table.events.at(-1).drawn")
                new = p.page.eval_on_selector_all("#hand button.card.new",
                                                  "els => els.map((e) => e.dataset.card)")
                assert len(drawn) == 1 and new == drawn * p.hand().count(drawn[0])
                assert p.page.locator("#hand button.card.new .new-tag").count() == len(new)
                if marked == 0:
                    p.shot(shots, "threethirteen-drawn")
                marked += 1
                threethirteen_move(p)
                assert p.page.locator("#hand button.card.new").count() == 0
                # the discard pile is marked while the last move is a discard
                discarded, marked_pile = p.page.evaluate(
                    "[!!window.cardtable.table.events.at(-1).public.card, "
                    "!!document.querySelector('#discard-pile.last')]")
                assert discarded == marked_pile
        else:
            time.sleep(0.05)
    assert marked
    # every hand laid out in its melds and deadwood, with its penalty, as the round ended
    box = p.page.locator("#last-round")
    p.page.wait_for_selector("#last-round[open]")       # once the last move has played
    last = p.page.evaluate("window.cardtable.table.view.last_round")
    rows = box.locator(".round-hand")
    assert rows.count() == 3
    for s, shown in enumerate(last["melds_shown"]):
        row = rows.nth(s)
        assert row.locator(".group.meld").count() == len(shown["melds"])
        assert row.locator(".small-card").count() == sum(map(len, shown["melds"])) + len(
            shown["deadwood"])
        assert row.locator(".penalty").inner_text().endswith(str(shown["penalty"]))
    box.scroll_into_view_if_needed()
    p.shot(shots, "threethirteen-round-end")
    p.close()


# ------------------------------------------------------------------ my tables

def my_rows(p: Player) -> list[tuple[str, str]]:
    p.page.wait_for_selector("#my-tables:not([hidden]) .mine-row")
    return [(row.get_attribute("data-table") or "", row.locator(".my-status").inner_text())
            for row in p.page.locator("#my-tables .mine-row").all()]


def test_the_lobby_lists_my_tables_first(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server)
    waiting = p.create("sequence", ["person", "person"])
    over = p.create("sequence", ["person", "bot:random"], options={"max_turns": 2})
    end = time.monotonic() + 60
    while not p.over:
        assert time.monotonic() < end, "two turns did not end the game"
        if p.my_turn:
            sequence_move(p)
        time.sleep(0.05)
    winners = p.page.evaluate("window.cardtable.table.view.winners")
    mine = p.create("sequence", ["person", "bot:random"])
    wait_until(lambda: p.my_turn, what="my turn")
    # a seat whose table the server no longer has is forgotten
    p.page.evaluate("localStorage.setItem('cardtable:seat:nosuchtable', "
                    "JSON.stringify({seat: 0, token: 'x'}))")
    p.page.goto(server + "/")
    finished = ("finished: you won" if 0 in winners else "finished: a draw" if not winners
                else "finished: won by")
    for _ in range(2):   # and again after a reload
        rows = my_rows(p)
        assert [r[0] for r in rows] == [mine, waiting, over]
        assert rows[0][1] == "your turn" and rows[1][1] == "waiting for 1 player"
        assert rows[2][1].startswith(finished)
        assert p.page.evaluate("localStorage.getItem('cardtable:seat:nosuchtable')") is None
        p.shot(shots, "lobby-my-tables")
        p.page.reload()
    p.page.click(f"#my-tables [data-table='{mine}'] button")
    p.page.wait_for_url(f"**/t/{mine}")
    p.wait_view()
    assert p.page.locator(".seat.me").count() == 1
    p.close()


# ------------------------------------------------------------------ the replay

def test_the_replay_steps_through_a_finished_game(browser: Any, server: str,
                                                  shots: Path) -> None:
    p = Player(browser, server)
    table = p.create("sequence", ["person", "bot:random"], options={"max_turns": 8})
    # before the end there is no replay, and the page says why
    p.page.goto(f"{server}/t/{table}/replay")
    assert "over" in p.page.inner_text("#replay-error")
    p.page.goto(f"{server}/t/{table}")
    p.wait_view()
    end = time.monotonic() + 60
    while not p.over:
        assert time.monotonic() < end, "eight turns did not end the game"
        if p.my_turn:
            sequence_move(p)
        time.sleep(0.05)
    record = p.page.request.get(f"{server}/api/tables/{table}/record").json()
    final = p.page.evaluate(BOARD_STATE)
    p.page.click("#replay-link")
    p.page.wait_for_url(f"**/t/{table}/replay")
    p.page.wait_for_selector("#replay-counter")
    total = len(record["actions"])
    assert p.page.locator("#log li").count() == total
    assert p.page.inner_text("#replay-counter") == f"Move 0 of {total}"
    assert p.page.locator(".cell .chip-svg").count() == 0   # the start: an empty board
    # every hand open, each as the record dealt it
    assert p.page.locator("#hands .replay-hand").count() == 2
    assert p.page.locator("#hands .replay-hand").nth(0).locator(".small-card").count() == 7
    # step on by move: one more chip each time (a Sequence move places one here, or takes
    # one off with a one-eyed jack), the log's line marked
    for n in range(1, 4):
        p.page.click("#replay-forward")
        assert p.page.inner_text("#replay-counter") == f"Move {n} of {total}"
        assert p.page.locator("#log li.current").get_attribute("data-number") == str(n)
        seat, move = record["actions"][n - 1]
        cell = move.split()[1] if len(move.split()) > 1 else None
        if cell and move.split()[0] not in ("JS", "JH"):
            assert p.page.locator(f"[data-cell={cell}] .chip-svg").count() == 1
            assert p.page.locator(f"[data-cell={cell}].last").count() == 1
    p.page.keyboard.press("ArrowLeft")
    assert p.page.inner_text("#replay-counter") == f"Move 2 of {total}"
    p.shot(shots, "replay")
    p.page.keyboard.press("End")
    assert p.page.evaluate(BOARD_STATE) == final
    p.page.click("#replay-start")
    assert p.page.inner_text("#replay-counter") == f"Move 0 of {total}"
    p.page.click(f"#log li[data-number='{total}'] button")
    assert p.page.evaluate(BOARD_STATE) == final
    p.page.set_viewport_size(PHONE)
    assert p.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    p.shot(shots, "replay-phone")
    p.close()


# a browser that granted notifications, with the page in the background: every notification
# the page shows is written down
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  close() {}
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
"""


def test_a_page_in_the_background_notifies_when_the_player_asked(browser: Any,
                                                                  server: str) -> None:
    a, b, _table = two_players(browser, server)
    b.page.evaluate(FAKE_NOTIFICATIONS)
    # not asked for (the default): no notification, even in the background
    b.page.evaluate("window.__hidden = true")
    sequence_move(a)
    wait_until(lambda: b.my_turn, what="the second player's turn")
    sequence_move(b)
    wait_until(lambda: a.my_turn, what="the first player's turn")
    assert b.page.evaluate("window.__notes") == []
    # asked for in the settings (the browser grants it): a notification in the background...
    b.page.click("#settings summary")
    b.page.check("#setting-notifications")
    b.page.wait_for_function("() => JSON.parse(localStorage.getItem('cardtable:settings'))"
                             ".notifications === true")
    sequence_move(a)
    b.page.wait_for_function("() => window.__notes.length === 1")
    assert b.page.evaluate("window.__notes") == [["Sequence", "Your turn"]]
    # ... and none while the page is in view
    b.page.evaluate("window.__hidden = false")
    sequence_move(b)
    wait_until(lambda: a.my_turn, what="the first player's turn")
    sequence_move(a)
    wait_until(lambda: b.my_turn, what="the second player's turn")
    assert len(b.page.evaluate("window.__notes")) == 1
    a.close()
    b.close()


def test_the_replay_of_a_draw_bridge_match_shows_its_review(browser: Any, server: str,
                                                            shots: Path) -> None:
    p = Player(browser, server)
    made = p.page.request.post(f"{server}/api/tables", data={
        "game": "drawbridge", "options": {"target": 1},
        "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]})
    assert made.ok, made.text()
    table = made.json()["id"]
    end = time.monotonic() + 60
    while p.page.request.get(f"{server}/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < end, "two heuristic bots did not finish a match to 1"
        time.sleep(0.2)
    # the review (the solver's first use in the server may compile it: past 20 s the
    # server says it is busy, working on, and a request a few seconds later gets it)
    end = time.monotonic() + 240
    while (asked := p.page.request.get(f"{server}/api/tables/{table}/review")).status == 503:
        assert asked.json()["error"]["code"] == "server/unavailable"
        assert asked.headers["retry-after"] and time.monotonic() < end
        time.sleep(2)
    assert asked.ok, asked.text()
    review = asked.json()
    assert review["game"] == "drawbridge" and review["deals"]
    p.page.goto(f"{server}/t/{table}/replay")
    p.page.wait_for_selector("#review .review-deal", timeout=180_000)
    shown = p.page.inner_text("#review")
    assert "Par:" in shown and "tricks lost" in shown
    assert p.page.locator("#review .review-deal").count() == len(review["deals"])
    p.page.screenshot(path=str(shots / "replay-review.png"))
