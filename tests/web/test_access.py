"""Playable by everyone, in a real browser against a real ``cardtable serve``: axe-core
(``axe-playwright-python``, which ships it) finds no serious or critical violation (WCAG
2.1 AA contrast included) on the lobby and on a table of each game, seated with the
table's highlights showing, in English and in Khmer; each move is said in the page's
``aria-live`` region #announce, in the page's language.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.test_browser import (
    KHMER,
    Player,
    drawbridge_move,
    sequence_move,
    threethirteen_move,
    wait_until,
)

pytestmark = pytest.mark.slow

#: what axe-core checks: WCAG 2.0 and 2.1, levels A and AA (contrast is 1.4.3, AA)
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def serious(p: Player) -> list[str]:
    """The serious and critical violations on the page as it stands, one line each."""
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    result = axe_sync.Axe().run(p.page, options={"runOnly": {"type": "tag", "values": TAGS}})
    found = []
    for v in result.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [n["target"] for n in v["nodes"][:3]]
            found.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {targets}")
    return found


def khmer(p: Player) -> None:
    p.page.select_option("#lang", "km")
    p.page.wait_for_function("() => document.documentElement.lang === 'km'")


@pytest.mark.parametrize("lang", ["en", "km"])
def test_axe_finds_nothing_serious_in_the_lobby_and_at_each_table(browser: Any, server: str,
                                                                  lang: str) -> None:
    p = Player(browser, server)
    p.page.goto(server + "/")
    p.page.wait_for_selector("#create-table")
    if lang == "km":
        khmer(p)
    p.page.wait_for_selector("#create-table")
    problems = {"lobby": serious(p)}
    # Sequence: a card picked, its cells tinted and ringed
    p.create("sequence", ["person", "bot:heuristic"], name="Dara")
    wait_until(lambda: p.my_turn, what="the player's turn")
    p.page.locator("#hand button.card.playable").first.click()
    problems["sequence"] = serious(p)
    sequence_move(p)
    wait_until(lambda: p.my_turn, what="the player's turn again")
    problems["sequence, after a move"] = serious(p)
    # Draw Bridge: the draw's trick, the hand's playable cards
    p.create("drawbridge", ["person", "bot:heuristic"], name="Dara")
    wait_until(lambda: p.my_turn, what="the player's turn")
    problems["drawbridge"] = serious(p)
    drawbridge_move(p, bid=False)
    wait_until(lambda: p.my_turn, what="the player's turn again")
    problems["drawbridge, after a trick"] = serious(p)
    # Three Thirteen: stock and discard pile to draw from, then the hand to discard from
    p.create("threethirteen", ["person", "bot:heuristic"], name="Dara")
    wait_until(lambda: p.my_turn, what="the player's turn")
    problems["threethirteen"] = serious(p)
    threethirteen_move(p)
    problems["threethirteen, a card drawn"] = serious(p)
    if lang == "km":
        assert p.page.evaluate("document.documentElement.lang") == "km"
    assert not any(problems.values()), {k: v for k, v in problems.items() if v}
    p.close()


def test_each_move_is_said_to_a_screen_reader(browser: Any, server: str) -> None:
    p = Player(browser, server)
    p.create("sequence", ["person", "bot:heuristic"], name="Dara")
    region = p.page.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    wait_until(lambda: p.my_turn, what="the player's turn")
    sequence_move(p)
    # the player's own move, then the bot's: each said as the log says it
    p.page.wait_for_function("() => document.querySelectorAll('#log li').length >= 2")
    wait_until(lambda: p.my_turn, what="the player's turn again")
    said = region.inner_text()
    newest = p.page.locator("#log li").first.text_content() or ""
    logged = " ".join(newest.split())
    assert said and logged.endswith(" ".join(said.rstrip(" ·").split())), (said, newest)
    # in Khmer, what is said is Khmer
    khmer(p)
    p.page.wait_for_selector("#turn.mine")
    sequence_move(p)
    wait_until(lambda: p.my_turn, what="the player's turn in Khmer")
    p.page.wait_for_function(
        f"() => /[{KHMER}]/.test(document.querySelector('#announce').textContent)")
    p.close()


@pytest.mark.parametrize("lang", ["en", "km"])
def test_axe_finds_nothing_serious_on_a_record_files_replay(browser: Any, server: str,
                                                           lang: str, tmp_path: Any) -> None:
    from tests.web.test_replay_file import finished_record, text_of

    p = Player(browser, server)
    p.page.goto(server + "/replay")
    p.page.wait_for_selector("#record-drop")
    if lang == "km":
        khmer(p)
        p.page.wait_for_selector("#record-drop")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    p.page.set_input_files("#record-file", str(bad))
    p.page.wait_for_selector("#record-error:not([hidden])")
    problems = {"the drop page, a bad file told": serious(p)}
    good = tmp_path / "good.json"
    good.write_bytes(text_of(finished_record("drawbridge", target=1)))
    p.page.set_input_files("#record-file", str(good))
    p.page.wait_for_selector("#replay .replay-controls")
    p.page.keyboard.press("End")
    problems["a Draw Bridge replay"] = serious(p)
    assert not any(problems.values()), {k: v for k, v in problems.items() if v}
    p.close()


def test_axe_finds_nothing_serious_with_the_auction_closed(browser: Any, server: str) -> None:
    p = Player(browser, server)
    p.page.emulate_media(reduced_motion="reduce")  # no animation holds the draw's tricks
    p.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    end = time.monotonic() + 120
    while p.page.evaluate("window.cardtable.table.view.phase") != "play":
        assert time.monotonic() < end, "no play phase in 2 minutes"
        if p.my_turn:
            calls = p.page.locator("#auction .calls li strong").all_inner_texts()
            drawbridge_move(p, bid=all(c == "Pass" for c in calls))
        else:
            p.page.wait_for_timeout(50)
    p.page.wait_for_selector("#auction.closed")
    assert not serious(p)
    p.page.click("#auction-ok")
    assert not serious(p)
    p.close()
