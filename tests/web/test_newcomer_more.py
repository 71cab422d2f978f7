"""More of what a newcomer tripped over (issue 37, /work/shared/reviews/newcomer-s4.md,
defects 5, 6, 9, 11, 13, 16, 17), each in a real browser (Debian's chromium) against a
real ``cardtable serve``: the Sequence board in a desktop window, a Khmer pile label on a
phone, reconnecting after a restart with the clocks frozen, the emotes drawn without an
emoji font, no raw or English words on the Khmer page, the header and the lobby's "Play
now" on a phone, and the page's weight.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.conftest import ROOT, free_port
from tests.web.test_browser import PHONE, Player, sequence_move, wait_until
from tests.web.test_clock_browser import clock_text, create_with_clock, seconds

pytestmark = pytest.mark.slow

#: the bottom of the board's last row and of the hand, and the window's height; the
#: bottoms are taken from the page's top (as if scrolled to it), since Playwright's click
#: may scroll the page while a flying card covers its target
SEQUENCE_FIT = """() => {
  const cells = [...document.querySelectorAll('#game .board .cell')];
  const cards = [...document.querySelectorAll('#hand button.card')];
  const bottom = (els) => Math.max(...els.map((el) => el.getBoundingClientRect().bottom))
                          + window.scrollY;
  const right = (els) => Math.max(...els.map((el) => el.getBoundingClientRect().right));
  return { cells: cells.length, board: bottom(cells), hand: cards.length ? bottom(cards) : 0,
           right: Math.max(right(cells), cards.length ? right(cards) : 0),
           height: window.innerHeight, width: window.innerWidth, scrollY: window.scrollY };
}"""


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768), (1024, 768), (1440, 900),
                                  (1920, 1080)])
def test_the_sequence_board_and_hand_fit_a_desktop_window(browser: Any, server: str,
                                                          shots: Path,
                                                          size: tuple[int, int]) -> None:
    width, height = size
    p = Player(browser, server, viewport={"width": width, "height": height})
    p.create("sequence", ["person", "bot:random"])
    for turn in range(3):   # every turn, the last move's line and all
        p.page.wait_for_selector("#turn.mine")
        fit = p.page.evaluate(SEQUENCE_FIT)
        assert fit["cells"] == 100
        assert fit["board"] <= height, (turn, fit)   # rows 9 and 10 in the window
        assert fit["hand"] <= height, (turn, fit)
        assert fit["right"] <= width, (turn, fit)
        if turn == 0:
            p.shot(shots, f"sequence-fit-{width}x{height}")
        sequence_move(p)
    p.close()


#: each pile's label: its text's width and the room its button gives it
PILE_LABELS = """() => [...document.querySelectorAll('#game .pile-button')].map((b) => {
  const label = b.querySelector('small');
  const room = b.getBoundingClientRect(), text = label.getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(label);
  const ink = range.getBoundingClientRect();
  return { id: b.id, text: label.textContent, inside: ink.left >= room.left - 0.5 &&
           ink.right <= room.right + 0.5 && text.right <= room.right + 0.5,
           scroll: label.scrollWidth, client: label.clientWidth };
})"""


@pytest.mark.parametrize("locale", ["km-KH", "en-US"])
def test_the_pile_labels_fit_their_buttons_on_a_phone(browser: Any, server: str, shots: Path,
                                                      locale: str) -> None:
    p = Player(browser, server, viewport=PHONE, locale=locale)
    p.create("threethirteen", ["person", "bot:random"])
    p.page.wait_for_selector("#discard-pile small")
    p.page.evaluate("document.fonts.ready.then(() => true)")
    labels = p.page.evaluate(PILE_LABELS)
    assert [label["id"] for label in labels] == ["stock", "discard-pile"]
    for label in labels:
        assert label["inside"] and label["scroll"] <= label["client"], label
    assert p.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    p.shot_of("#game .piles", shots / f"piles-{locale}-phone.png")
    p.close()


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep
           + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-pace", "instant", "--bot-workers", "1",
         "--no-access-log"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server stopped"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc
        except OSError:
            time.sleep(0.05)
    raise AssertionError("no server")


def test_after_a_restart_the_page_is_back_within_2_s_and_its_clocks_stood_still(
        browser: Any, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "tables.db"
    proc = start_server(port, db)
    p = Player(browser, f"http://127.0.0.1:{port}")
    # when the page opens each WebSocket (the page's own clock, in ms)
    p.page.add_init_script("""window.wsTries = []; window.WebSocket = class extends WebSocket {
      constructor(...args) { super(...args); window.wsTries.push(performance.now()); } };""")
    try:
        create_with_clock(p, {"kind": "player", "minutes": 2, "increment": 0})
        p.page.wait_for_selector(".seat-clock.running[data-seat='0']")
        p.page.wait_for_selector(".conn.open")
        proc.send_signal(signal.SIGKILL)   # kill -9, as the reviewer did
        proc.wait()
        p.page.wait_for_selector(".conn.closed")
        offline = p.page.evaluate("performance.now()")
        stopped = seconds(clock_text(p, 0))
        p.page.wait_for_timeout(8000)
        # the clock stood still while the page could not reach the server
        assert seconds(clock_text(p, 0)) == stopped
        p.page.wait_for_selector(".turn.offline")
        tried = [t for t in p.page.evaluate("window.wsTries") if t > offline]
        gaps = [b - a for a, b in zip([offline, *tried], tried, strict=False)]
        assert len(tried) >= 5 and max(gaps) < 2000, gaps   # back-off that starts small
        proc = start_server(port, db)
        back = time.monotonic()
        p.page.wait_for_selector(".conn.open", timeout=10000)
        assert time.monotonic() - back < 2.5
        # the clock runs again, from what the server says (it gives the downtime back)
        wait_until(lambda: p.page.locator(".seat-clock.running[data-seat='0']").count() > 0,
                   10, "the running clock")
        assert abs(seconds(clock_text(p, 0)) - stopped) <= 3
        p.close()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def make_table(p: Player, game: str, seats: list[dict[str, Any]]) -> str:
    made = p.page.request.post(f"{p.server}/api/tables", data={"game": game, "seats": seats})
    assert made.status == 201, made.text()
    return str(made.json()["id"])


def test_the_khmer_page_shows_no_raw_or_english_words(browser: Any, server: str,
                                                      shots: Path) -> None:
    host = Player(browser, server)   # an English reader, who gives no name
    searching = make_table(host, "sequence", [{"kind": "person"},
                                              {"kind": "bot", "bot": "ismcts"}])
    host.page.goto(f"{server}/t/{searching}?seat=0")
    host.page.fill("#join-name", "")
    host.page.click("#join-button")
    host.page.wait_for_selector("#seats .seat.me")
    seats = host.page.request.get(f"{server}/api/tables/{searching}").json()["seats"]
    assert seats[0]["name"] == "Player 1"   # the English page's default name
    expert = make_table(host, "drawbridge", [{"kind": "person"},
                                             {"kind": "bot", "bot": "perfect"}])
    km = Player(browser, server, locale="km-KH")
    catalog = km.page.request.get(server + "/static/i18n/km.json").json()
    km.page.goto(server + "/")
    km.page.wait_for_selector("#table-list .table-row")
    tables = km.page.inner_text("#table-list")
    for raw in ("ismcts", "perfect", "Player 1", "Bot", "a player"):
        assert raw not in tables, raw
    assert catalog["a player"] in tables   # the lobby's word for a seat taken with a key
    # the lobby calls each bot what the table page calls it
    for table in (searching, expert):
        km.page.goto(f"{server}/t/{table}")
        km.page.wait_for_selector("#seats .seat[data-seat='1'] .seat-name")
        name = km.page.inner_text("#seats .seat[data-seat='1'] .seat-name")
        assert name.startswith("បូត៖") and not any(c.isascii() and c.isalpha() for c in name)
        assert name in tables
    km.page.goto(f"{server}/t/{searching}")
    km.page.wait_for_selector("#seats .seat[data-seat='0']")
    assert km.page.inner_text("#seats .seat[data-seat='0'] .seat-name") \
        == catalog["Player {n}"].replace("{n}", "1")
    # the typed move's example is in Khmer, and a move typed in Khmer is played
    km.create("threethirteen", ["person", "bot:random"], name="ដារ៉ា")
    placeholder = km.page.get_attribute("#move-input", "placeholder") or ""
    assert "discard" not in placeholder and "បោះចោល 5C" in placeholder, placeholder
    km.page.wait_for_selector("#turn.mine")
    before = km.moves_seen()
    km.page.fill("#move-input", "ដក")
    km.page.press("#move-input", "Enter")
    km.wait_moves(before)
    km.page.wait_for_selector("#turn.mine")
    before = km.moves_seen()
    km.page.fill("#move-input", f"បោះចោល {km.hand()[0]}")
    km.page.press("#move-input", "Enter")
    km.wait_moves(before)
    km.shot(shots, "threethirteen-typed-khmer")
    # the player page of a browser without a key: in Khmer, no API words
    fresh = Player(browser, server, locale="km-KH")
    fresh.page.goto(server + "/p/me")
    fresh.page.wait_for_load_state("networkidle")
    text = fresh.page.inner_text("main")
    assert "x-player-key" not in text.lower() and "send the player key" not in text, text
    host.close()
    km.close()
    fresh.close()


#: each header item's count of line boxes, the header's height and the page's width
HEADER = """() => {
  const items = [...document.querySelectorAll(
    'header.top .brand, header.top nav a, header.top nav summary, header.top select')]
    .filter((el) => el.getClientRects().length);   // the closed settings panel's selects: no
  const middle = (el) => el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2;
  return { lines: items.map((el) => [el.textContent.trim(), el.getClientRects().length,
                                     Math.round(el.getBoundingClientRect().height)]),
           tops: items.map((el) => Math.round(middle(el))),
           height: document.querySelector('header.top').getBoundingClientRect().height,
           width: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize("locale", ["en-US", "km-KH"])
def test_the_header_is_one_line_on_a_phone(browser: Any, server: str, shots: Path,
                                           locale: str) -> None:
    p = Player(browser, server, viewport=PHONE, locale=locale)
    p.page.goto(server + "/")
    p.page.wait_for_selector("#my-page")   # the longest header: with "My games"
    p.page.evaluate("document.fonts.ready.then(() => true)")
    got = p.page.evaluate(HEADER)
    assert got["width"] <= PHONE["width"], got
    single = 32 if locale == "en-US" else 40   # one line of the item's text, at most
    for text, _boxes, height in got["lines"]:
        assert height <= single, (text, got)
    assert max(got["tops"]) - min(got["tops"]) <= 4, got   # all on one line
    p.shot_of("header.top", shots / f"header-{locale}-phone.png")
    p.close()


def test_play_now_buttons_line_up_and_take_the_name_beside_them(browser: Any,
                                                                  server: str,
                                                                  shots: Path) -> None:
    p = Player(browser, server, viewport={"width": 1280, "height": 800})
    p.page.goto(server + "/")
    p.page.wait_for_selector(".play-now")
    tops = p.page.eval_on_selector_all(
        ".play-now", "els => els.map((e) => Math.round(e.getBoundingClientRect().top))")
    assert len(tops) == 3 and max(tops) - min(tops) <= 1, tops
    p.shot(shots, "lobby-play-now-1280")
    # a name given beside "Play now" is the seat's name
    p.page.fill("#play-name", "Sokha")
    assert p.page.input_value("#player-name") == "Sokha"   # one name, two boxes
    p.page.click("#play-now-sequence")
    p.page.wait_for_url("**/t/**")
    table = p.page.url.rstrip("/").split("/t/")[1].split("?")[0]
    seats = p.page.request.get(f"{server}/api/tables/{table}").json()["seats"]
    assert seats[0]["name"] == "Sokha"
    # a name cut to the server's 32 characters says so
    p.page.goto(server + "/")
    for box in ("#play-name", "#player-name"):
        p.page.fill(box, "")
        p.page.locator(box).press_sequentially("Abcdefghij" * 4, delay=0)
        assert p.page.input_value(box) == ("Abcdefghij" * 4)[:32]
        note = p.page.locator(f"{box}-cut")
        assert note.is_visible() and "32" in note.inner_text()
    p.close()


#: each @font-face of the page: its family, weight and whether the browser loaded it
FACES = """() => document.fonts.ready.then(() => [...document.fonts].map(
  (f) => [f.family.replace(/"/g, ''), f.weight, f.status]))"""


def test_the_page_is_light(browser: Any, tmp_path: Path) -> None:
    # a server of its own: the shared one's lobby lists the other tests' tables
    running = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path, "--no-access-log").start()
    try:
        weigh(browser, running.base)
    finally:
        running.stop()


def weigh(browser: Any, server: str) -> None:
    # scripts, the stylesheet and the catalog go gzip-compressed; fonts are WOFF2
    for path in ("/static/js/table.js", "/static/app.css", "/static/i18n/km.json",
                 "/static/js/app.js"):
        answer = urllib.request.urlopen(urllib.request.Request(
            server + path, headers={"Accept-Encoding": "gzip"}), timeout=10)
        assert answer.headers["Content-Encoding"] == "gzip", path
        size = len(answer.read())
        assert size < int(answer.headers.get("Content-Length", size + 1)) + 1
    css = urllib.request.urlopen(server + "/static/app.css", timeout=10).read().decode()
    assert ".ttf" not in css and css.count(".woff2") == 4
    loads: dict[str, list[tuple[str, int]]] = {}
    for locale in ("en-US", "km-KH"):
        p = Player(browser, server, locale=locale)
        got: list[tuple[str, int]] = []
        p.page.on("requestfinished",
                  lambda r, got=got: got.append((r.url, r.sizes()["responseBodySize"])))
        p.page.goto(server + "/")
        p.page.wait_for_selector("#games")
        faces = p.page.evaluate(FACES)
        p.page.wait_for_timeout(300)
        loads[locale] = got
        fonts = {url.rsplit("/", 1)[1]: size for url, size in got if "/fonts/" in url}
        if locale == "en-US":
            # the menu's "ខ្មែរ" comes from its own 1.7 kB face: no whole Khmer face
            assert fonts.keys() == {"KhmerMenu.woff2"} and fonts["KhmerMenu.woff2"] < 4000
            assert ["Cardtable Khmer Menu", "normal", "loaded"] in faces, faces
            assert all(status == "unloaded" for family, _w, status in faces
                       if family == "Cardtable Khmer"), faces
        else:
            assert {"NotoSansKhmer-Regular.woff2", "NotoSansKhmer-Bold.woff2"} <= fonts.keys()
            assert all(size < 40_000 for size in fonts.values()), fonts
        p.close()
    english = sum(size for _url, size in loads["en-US"])
    khmer = sum(size for _url, size in loads["km-KH"])
    assert english < 120_000 and khmer < 170_000, (english, khmer)   # 318 kB and 476 kB before


def test_the_emotes_are_drawn_with_the_shipped_face(browser: Any, server: str,
                                                    shots: Path) -> None:
    """Debian's chromium here has no emoji font (DejaVu and Liberation): 👍 was a box."""
    p = Player(browser, server)
    p.create("sequence", ["person", "bot:random"])
    p.page.wait_for_selector(".chat-emotes .emote")
    p.page.click(".chat-emotes .emote[data-preset='thumbs-up']")
    p.page.wait_for_selector(".chat-line.preset")
    p.page.evaluate("document.fonts.ready.then(() => true)")
    cdp = p.context.new_cdp_session(p.page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    drawn = {}
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root,
                                              "selector": ".emote, .chat-line.preset .chat-text"})
    for node in nodes["nodeIds"]:
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        text = cdp.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
        drawn[text] = {f["postScriptName"]: f["glyphCount"] for f in fonts}
    cdp.detach()
    assert len(drawn) == 7, drawn   # six buttons and the line sent
    for text, fonts in drawn.items():
        assert set(fonts) == {"NotoEmoji-Regular"}, (text, fonts)
    p.shot_of("#chat-lines", shots / "emotes-chat.png")
    p.shot_of(".chat-emotes", shots / "emotes.png")
    p.close()


#: every frame: the time, the moves in the log and the ghosts (moving copies) on the page
TRACE = """() => { window.trace = [];
  const frame = () => { window.trace.push([performance.now(),
      document.querySelectorAll('#log li').length, document.querySelectorAll('.ghost').length]);
    if (window.trace.length < 600) requestAnimationFrame(frame); };
  requestAnimationFrame(frame); }"""


def test_a_bots_instant_reply_is_drawn_after_ones_own_move_has_played(browser: Any,
                                                                       server: str) -> None:
    p = Player(browser, server)
    p.create("sequence", ["person", "bot:random"])   # a bot that answers at once
    for _turn in range(3):
        p.page.wait_for_selector("#turn.mine")
        p.page.wait_for_function("() => window.cardtable.table.motion.idle")
        before = p.moves_seen()
        p.page.evaluate(TRACE)
        sequence_move(p)
        p.page.wait_for_function("n => document.querySelectorAll('#log li').length >= n + 2",
                                 arg=before)
        p.page.wait_for_function("() => window.cardtable.table.motion.idle")
        trace = p.page.evaluate("window.trace")
        mine = next(t for t, moves, _g in trace if moves == before + 1)
        theirs, _moves, ghosts = next(row for row in trace if row[1] >= before + 2)
        # the bot's move came while one's own card was flying: it is drawn after the flight
        assert theirs - mine >= 250, (theirs - mine, trace[:40])
        # none of one's own ghosts is left: the bot's own may be up in that frame, its card
        # and a second (a one-eyed jack lifts a chip; a sequence made draws its line)
        assert ghosts <= 2, trace
    p.close()
