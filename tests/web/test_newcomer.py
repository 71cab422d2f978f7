"""What a newcomer tripped over (issue 37, /work/shared/reviews/newcomer-s4.md), each in a
real browser (Debian's chromium) against a real ``cardtable serve``: Draw Bridge's last card
marked round the card, the tab not marked while the table waits (its invite links near the
top), the keyboard kept in the game after a move, cards named in words, the focused
Sequence cell told apart, the review written as the table writes, and ``/me``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import PHONE, Player, wait_until

pytestmark = pytest.mark.slow

CARD_NAME = re.compile(r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                       r"(spades|hearts|diamonds|clubs)( \(new\))?$")

LABELS = "els => els.map(e => e.getAttribute('aria-label'))"

#: where the keyboard is: the focused element's tag, id, card, cell or call
FOCUS = """() => { const el = document.activeElement;
  return { tag: el.tagName.toLowerCase(), id: el.id, inGame: !!el.closest('#game'),
           card: el.dataset.card || null, cell: el.dataset.cell || null,
           call: el.dataset.call || null, disabled: !!el.disabled }; }"""

#: the dashed mark of the card played last, and the card's own box
LAST_CARD = """() => { const last = document.querySelector('#trick .played.last');
  if (!last) return null;
  const marked = [...last.querySelectorAll('*')].filter(
    (el) => getComputedStyle(el).outlineStyle === 'dashed');
  const card = last.querySelector('svg.card-svg').getBoundingClientRect();
  return { marked: marked.map((el) => { const r = el.getBoundingClientRect();
             return [r.left, r.top, r.right, r.bottom]; }),
           card: [card.left, card.top, card.right, card.bottom] }; }"""


def check_last_card(p: Player) -> int:
    """1 when a card lies on the trick, its dashed mark round the whole card; else 0."""
    got = p.page.evaluate(LAST_CARD)
    if got is None:
        return 0
    assert got["marked"], "the last card is not marked"
    left, top, right, bottom = got["card"]
    for box in got["marked"]:   # the outlined box holds the whole card
        assert box[0] <= left + 1 and box[1] <= top + 1 and box[2] >= right - 1 \
            and box[3] >= bottom - 1, (box, got["card"])
    return 1


def my_turn_now(p: Player, seconds: float = 30) -> None:
    p.page.wait_for_selector("#turn.mine", timeout=seconds * 1000)


def test_draw_bridge_by_keyboard_keeps_the_focus_and_marks_the_last_card(
        browser: Any, server: str, shots: Path) -> None:
    """#4: the dashed mark goes round the card played last, not a line-high box over the
    name under it; #8: after a move made with Enter the keyboard is still in the game (not
    on <body>, 7 Tabs away), and every card of the hand has a name in words."""
    p = Player(browser, server)
    p.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    my_turn_now(p)
    labels = p.page.eval_on_selector_all("#hand button.card", LABELS)
    assert labels and all(CARD_NAME.match(label or "") for label in labels), labels
    # the first card by keyboard: focus it (a Tab) and press Enter; then only Enter
    p.page.locator("#hand button.card:not([disabled])").first.focus()
    marks_checked = 0
    for _move in range(8):
        focus = p.page.evaluate(FOCUS)
        assert focus["inGame"] and focus["tag"] == "button" and not focus["disabled"], focus
        before = p.moves_seen()
        p.page.keyboard.press("Enter")
        p.wait_moves(before)
        while not p.my_turn:   # the card just played, while it lies on the trick
            marks_checked += check_last_card(p)
        my_turn_now(p)
        marks_checked += check_last_card(p)
        # the move's re-drawing left the focus in the game, on something Enter can play
        wait_until(lambda: p.page.evaluate(FOCUS)["inGame"], seconds=5,
                   what="the focus in the game")
    if not marks_checked:   # every trick closed at once: a trick as drawbridge.js draws it
        p.page.evaluate("""async () => {
          const { cardSVG } = await import('/static/js/cards.js');
          document.querySelector('#trick').insertAdjacentHTML('beforeend',
            `<div class="played theirs last"><span>${cardSVG('QH')}</span>`
            + '<small>Bot</small></div>'); }""")
        assert check_last_card(p)
    p.shot(shots, "newcomer-drawbridge-keyboard")
    p.close()


def test_a_sequence_cell_picked_by_keyboard_stands_out_and_the_focus_stays(
        browser: Any, server: str, shots: Path) -> None:
    """#8: the focused legal cell is raised, ringed in white and not glowing like the other
    legal cells; after the move the keyboard is back in the hand."""
    p = Player(browser, server)
    p.create("sequence", ["person", "bot:random"])
    for _move in range(2):
        my_turn_now(p)
        hand = p.page.eval_on_selector_all(
            "#hand button.card", "els => els.map(e => e.classList.contains('playable'))")
        key = str(hand.index(True) + 1)
        assert int(key) <= 9
        p.page.keyboard.press(key)
        p.page.wait_for_function("() => document.activeElement.matches('.cell.legal')")
        styles = p.page.evaluate("""() => [...document.querySelectorAll('.cell.legal')]
          .map((el) => {
          const s = getComputedStyle(el);
          return { focused: el === document.activeElement, visible: el.matches(':focus-visible'),
                   z: Number(s.zIndex), transform: s.transform, outline: s.outlineStyle,
                   outlineWidth: s.outlineWidth, outlineColor: s.outlineColor,
                   animation: s.animationName }; })""")
        focused = next(s for s in styles if s["focused"])
        assert focused["visible"] and focused["transform"] != "none", focused
        assert focused["outline"] == "solid" and focused["outlineWidth"] == "4px", focused
        assert focused["outlineColor"] == "rgb(255, 255, 255)", focused
        assert focused["animation"] == "none", focused
        for other in (s for s in styles if not s["focused"]):
            assert other["z"] < focused["z"] and other["transform"] == "none", other
            assert other["outline"] != "solid", other
        p.shot(shots, "newcomer-sequence-focused-cell")
        before = p.moves_seen()
        p.page.keyboard.press("Enter")
        p.wait_moves(before)
        my_turn_now(p)
        wait_until(lambda: p.page.evaluate(FOCUS)["card"] is not None, seconds=5,
                   what="the focus on a card of the hand")
    labels = p.page.eval_on_selector_all("#hand button.card", LABELS)
    assert all(re.match(r"^\w+ of \w+", label or "") for label in labels), labels
    p.close()


def test_a_table_waiting_for_players_is_not_your_turn_and_shows_its_invites_on_top(
        browser: Any, server: str, shots: Path) -> None:
    """#7: no "●" in the tab and no dot on its icon while the other seat is free; the invite
    links under the banner, on the first screen, not below the board, chat and log."""
    host = Player(browser, server)
    table = host.create("sequence", ["person", "person"])
    host.page.wait_for_selector("#invites .invite-row")
    time.sleep(0.3)   # the page has settled
    assert not host.page.title().startswith("● "), host.page.title()
    assert host.page.get_attribute("#favicon", "data-turn") != "yes"
    tops = host.page.evaluate("""() => ['#turn', '#invites', '#game', '#chat, .chat']
      .map((s) => document.querySelector(s)).map((el) => el && el.getBoundingClientRect().top)""")
    turn, invites, game, _chat = tops
    assert turn < invites < game, tops
    assert invites < host.page.viewport_size["height"] / 2, tops
    host.shot(shots, "newcomer-waiting-invites")
    # the other player sits down: now one of the two moves, and its tab says so
    guest = Player(browser, server)
    guest.page.goto(f"{server}/t/{table}?seat=1")
    guest.page.fill("#join-name", "Ana")
    guest.page.click("#join-button")
    wait_until(lambda: any(x.page.title().startswith("● ") for x in (host, guest)), seconds=20,
               what="the tab of the player to move marked")
    assert host.page.locator("#invites .invite-row").count() == 0
    host.close()
    guest.close()


def test_me_is_the_players_own_page(browser: Any, server: str) -> None:
    """#14: /me (and /p/me) show the page of the key this browser holds; a browser without
    one is told so in words, not "There is no such page" or the API's error."""
    p = Player(browser, server)
    p.page.goto(server + "/")
    p.page.wait_for_selector("#my-page")
    mine = p.page.get_attribute("#my-page", "href")
    for address in ("/me", "/p/me"):
        answer = p.page.goto(server + address)
        assert answer is not None and answer.status == 200, address
        p.page.wait_for_selector("#player-name-title")
        assert "This is you" in p.page.inner_text("#player-page"), address
    p.page.goto(server + (mine or ""))
    p.page.wait_for_selector("#player-name-title")
    p.close()
    # a browser whose first visit could not get a key (the server refused it)
    q = Player(browser, server)
    q.page.route("**/api/players", lambda route: route.abort())
    q.page.goto(server + "/me")
    q.page.wait_for_selector("#no-player")
    assert "no player key yet" in q.page.inner_text("#no-player")
    assert q.page.locator("#not-found").count() == 0
    q.page.unroute("**/api/players")
    q.close()


REVIEW = {"game": "drawbridge", "deals": [{
    "deal_number": 1, "dealer": 1, "scores_before": [0, 0],
    "par": {"auction": ["1NT", "pass"], "contract": {"level": 1, "strain": "NT", "doubled": 0,
                                                     "declarer": 1},
            "declarer_tricks": 9, "points": [0, 100], "value": 0.0},
    "finished": True, "contract": "1CX", "declarer": 0, "declarer_tricks": 6, "points": [0, 0],
    "double_dummy_tricks": 7, "tricks_lost": [1, 0], "chance_lost": [0.038, 0.0],
    "mistakes": [{"seat": 0, "phase": "auction", "number": 1, "played": "pass", "best": "1D",
                  "loss": 0.038},
                 {"seat": 0, "phase": "play", "number": 2, "played": "8D", "best": "JS",
                  "loss": 1}]}]}


@pytest.mark.parametrize("locale", ["en-US", "km-KH"])
def test_the_review_writes_calls_and_cards_as_the_table_does(browser: Any, server: str,
                                                             locale: str) -> None:
    """#12: "1D", "8D", "1CX" in the review are 1♦, 8♦ and 1♣ X, as everywhere else."""
    p = Player(browser, server, locale=locale)
    p.page.goto(server + "/")
    p.page.wait_for_selector("#create-table")
    text = p.page.evaluate("""async (review) => {
      const { ReplayPage } = await import('/static/js/replay.js');
      const r = new ReplayPage(document.body, null, () => {});
      r.table = { game: 'drawbridge', seats: [{ kind: 'person', name: 'Dara' },
        { kind: 'bot', bot: 'heuristic', name: 'heuristic' }] };
      r.main = document.createElement('main');
      const side = document.createElement('div');
      side.className = 'replay-side';
      r.main.append(side);
      document.body.append(r.main);
      await r.loadReview(async () => review);
      return r.reviewBox.innerText; }""", REVIEW)
    for raw in ("1D", "8D", "1CX", "JS"):
        assert raw not in text, (raw, text)
    assert "1♦" in text and "8♦" in text and "J♠" in text and "1♣ X" in text, text
    assert "Dara" in text and "1NT" in text, text
    if locale == "en-US":
        assert "Par: 1NT by Bot: medium; reached: 1♣ X by Dara" in text, text
        assert "Dara, call 1: Pass, better 1♦" in text, text
        assert "Dara, trick 2: 8♦, better J♠" in text, text
    p.close()


def test_draw_bridge_in_khmer_on_a_phone(browser: Any, server: str, shots: Path) -> None:
    """The table after these changes, in Khmer on a 375 px phone: cards named in Khmer,
    nothing wider than the screen (the screenshot is looked at by eye too)."""
    p = Player(browser, server, viewport=PHONE, locale="km-KH")
    p.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    my_turn_now(p)
    for _move in range(3):
        before = p.moves_seen()
        p.page.locator("#hand button.card:not([disabled])").first.click()
        p.wait_moves(before)
        my_turn_now(p)
    label = p.page.get_attribute("#hand button.card", "aria-label") or ""
    assert label.startswith("សន្លឹក"), label
    assert p.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    names = p.page.locator("#seats .seat-name").all_inner_texts()
    assert "#" not in "".join(names), names
    p.page.wait_for_function("() => window.cardtable.table.motion.running === 0")   # landed
    time.sleep(0.5)
    p.page.screenshot(path=str(shots / "newcomer-drawbridge-km-phone.png"))
    p.shot(shots, "newcomer-drawbridge-km-phone-full")
    p.close()
