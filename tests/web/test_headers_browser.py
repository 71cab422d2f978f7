"""The page keeps to its own Content-Security-Policy (``cardtable.server.headers``): in a
real browser against a real ``cardtable serve``, the lobby (in English and in Khmer, whose
font is the page's own), a table played over its WebSocket, the rules, a finished table's
replay, a record file's replay and the "no such page" page run with no violation reported,
neither by a ``securitypolicyviolation`` event nor on the console."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.headers import CONTENT_SECURITY_POLICY
from tests.web.test_browser import Player, sequence_move, wait_until
from tests.web.test_replay_file import finished_record, text_of

pytestmark = pytest.mark.slow

#: every violation the page reports, kept in the page until it is asked for
WATCH = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
  + ` at ${e.sourceFile}:${e.lineNumber}`));"""


class Watched(Player):
    """A Player whose page reports every CSP violation, by event and on the console."""

    def __init__(self, browser: Any, server: str) -> None:
        super().__init__(browser, server)
        self.context.add_init_script(WATCH)
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(m.text)
                     if "Content Security Policy" in m.text else None)

    def goto(self, path: str) -> None:
        answer = self.page.goto(self.server + path)
        assert answer is not None
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert answer.headers["x-frame-options"] == "DENY"

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.cspViolations") + self.console
        self.console.clear()
        return found


def test_every_page_runs_under_its_content_security_policy(browser: Any, server: str,
                                                           tmp_path: Path) -> None:
    p = Watched(browser, server)
    seen: dict[str, list[str]] = {}
    # the lobby, then in Khmer: the catalog fetched, the Khmer font loaded
    p.goto("/")
    p.page.wait_for_selector(".game-card img")
    p.page.select_option("#lang", "km")
    p.page.wait_for_function("() => document.documentElement.lang === 'km' && "
                             "document.fonts.check('16px \"Noto Sans Khmer\"', 'ក')")
    p.page.select_option("#lang", "en")
    seen["lobby"] = p.violations()
    # a table: its view over the WebSocket, a card picked and a move made
    p.create("sequence", ["person", "bot:random"])
    wait_until(lambda: p.my_turn, what="the player's turn")
    sequence_move(p)
    seen["table"] = p.violations()
    # the rules
    p.goto("/rules/drawbridge")
    p.page.wait_for_selector("article.rules p")
    seen["rules"] = p.violations()
    # a finished table's replay
    made = p.page.request.post(f"{server}/api/tables", data={
        "game": "sequence",
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    assert made.ok, made.text()
    table = made.json()["id"]
    end = time.monotonic() + 60
    while p.page.request.get(f"{server}/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < end, "two random bots did not finish a Sequence game"
        time.sleep(0.2)
    p.goto(f"/t/{table}/replay")
    p.page.wait_for_selector("#replay .replay-controls")
    p.page.keyboard.press("End")
    seen["replay"] = p.violations()
    # a record file's replay (the page posts the file as text/plain)
    path = tmp_path / "game.json"
    path.write_bytes(text_of(finished_record("sequence")))
    p.goto("/replay")
    p.page.set_input_files("#record-file", str(path))
    p.page.wait_for_selector("#replay .replay-controls")
    seen["record file"] = p.violations()
    # no such page
    p.goto("/nowhere")
    p.page.wait_for_selector("#app *")
    seen["no such page"] = p.violations()
    assert seen == dict.fromkeys(seen, [])
    # the watch works: an inline style is refused and reported
    p.page.evaluate("document.body.setAttribute('style', 'color: red')")
    wait_until(lambda: p.violations(), seconds=10, what="the inline style's violation")
    p.close()


def test_no_other_site_can_frame_the_page(browser: Any, server: str) -> None:
    p = Player(browser, server)
    refused: list[str] = []
    p.page.on("console", lambda m: refused.append(m.text) if "frame" in m.text else None)
    p.page.set_content(f'<iframe src="{server}/"></iframe>')   # another page's frame
    wait_until(lambda: refused, seconds=20, what="the frame refused")
    assert "frame-ancestors 'none'" in refused[0]
    assert p.page.frames[1].query_selector("#app") is None
    p.close()
