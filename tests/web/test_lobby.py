"""The lobby as a game site: each game with its table's picture, a line on how it plays,
its bot levels (``cardtable.bots.levels``, read through ``GET /api/levels``) with how
strong each is, and "play now against a bot" in one click; the full form one step
further. Browser tests against a real ``cardtable serve`` in Debian's chromium.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import bots
from cardtable.bots.levels import LEVELS, levels
from cardtable.web import STATIC_DIR, levels_json
from tests.web.test_browser import DESKTOP, KHMER, PHONE, Player

ORDER = ["easy", "medium", "hard", "expert"]


def test_every_game_has_levels_weakest_first() -> None:
    names = [d.name for d in cardtable.declarations()]
    assert sorted(LEVELS) == sorted(names)
    for game in names:
        got = levels(game)
        assert len(got) >= 3, game
        assert [lv.name for lv in got] == ORDER[:len(got)], game
        for lv in got:
            assert lv.bot in bots.KINDS
            bots.make(lv.bot, seed=1, **lv.settings)   # the settings are a bot's
            assert lv.strength and lv.evidence and "cardtable arena" in lv.evidence
    # what the arena measured (README, docs/bots.md): the blend beats learned, which beats
    # ISMCTS, in Sequence; the perfect bot is Draw Bridge's strongest
    assert [lv.bot for lv in levels("sequence")[-2:]] == ["learned", "blend"]
    assert levels("drawbridge")[-1].bot == "perfect"
    assert [lv.bot for lv in levels("threethirteen")[-2:]] == ["ismcts", "lookahead"]
    assert levels("nosuchgame") == ()


def test_the_levels_api(server: str) -> None:
    with urllib.request.urlopen(server + "/api/levels", timeout=10) as r:
        got = json.loads(r.read())
    assert got == json.loads(json.dumps(levels_json()))
    assert [lv["bot"] for lv in got["levels"]["sequence"]] == ["random", "heuristic", "learned",
                                                                 "blend"]


def test_the_pictures_ship_and_are_light() -> None:
    for game in LEVELS:
        svg = (STATIC_DIR / "img" / f"{game}.svg").read_text(encoding="utf-8")
        assert svg.startswith("<svg") and len(svg) < 8000, game


@pytest.mark.slow
def test_play_now_seats_you_against_a_bot_in_one_click(browser: Any, server: str,
                                                       shots: Path) -> None:
    p = Player(browser, server)
    p.page.goto(server + "/")
    p.page.wait_for_selector(".game-card")
    cards = p.page.locator(".game-card")
    assert cards.count() == 3
    for game in ("sequence", "drawbridge", "threethirteen"):
        card = p.page.locator(f'.game-card[data-game="{game}"]')
        # loaded (waited for: on a loaded machine the picture may still be on its way)
        assert card.locator("img").evaluate(
            "img => img.complete ? img.naturalWidth > 0 : new Promise(done => {"
            " img.onload = () => done(img.naturalWidth > 0); img.onerror = () => done(false);"
            " })")
        assert len(card.locator(".game-line").inner_text()) > 20
        options = card.locator("select option")
        assert [options.nth(i).get_attribute("value") for i in range(options.count())] == [
            lv.name for lv in levels(game)]
        assert p.page.input_value(f"#level-{game}") == "medium"
        assert p.page.inner_text(f"#strength-{game}") == levels(game)[1].strength
    p.page.select_option("#level-sequence", "hard")
    assert p.page.inner_text("#strength-sequence") == levels("sequence")[2].strength
    # the full form, one step further: the game chosen there, the seats offer the levels
    p.page.click('.game-card[data-game="threethirteen"] .more-options')
    assert p.page.input_value("#game") == "threethirteen"
    seat = p.page.locator("#seat-1 option")
    labels = [seat.nth(i).inner_text() for i in range(seat.count())]
    assert labels[1].startswith("Easy") and labels[3].startswith("Hard"), labels
    assert p.page.input_value("#seat-1") == "bot:heuristic"
    p.shot(shots, "lobby-games")
    p.page.set_viewport_size(PHONE)
    assert p.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    p.shot(shots, "lobby-games-phone")
    p.page.set_viewport_size(DESKTOP)
    # one click: a table, this browser in seat 0, the level's bot in seat 1
    p.page.fill("#player-name", "Dara")
    p.page.select_option("#level-threethirteen", "easy")
    p.page.click("#play-now-threethirteen")
    p.page.wait_for_url("**/t/**")
    p.wait_view()
    table = p.page.url.rstrip("/").split("/t/")[1]
    assert p.page.locator(".seat.me").get_attribute("data-seat") == "0"
    summary = p.page.request.get(f"{server}/api/tables/{table}").json()
    assert summary["game"] == "threethirteen" and summary["status"] == "playing"
    assert summary["seats"][0]["name"] == "Dara"
    assert summary["seats"][1]["bot"] == "random"
    # the hard level of Draw Bridge: the searching bot, one second a move
    p.page.goto(server + "/")
    p.page.select_option("#level-drawbridge", "hard")
    p.page.click("#play-now-drawbridge")
    p.page.wait_for_url("**/t/**")
    table = p.page.url.rstrip("/").split("/t/")[1]
    summary = p.page.request.get(f"{server}/api/tables/{table}").json()
    assert summary["seats"][1]["bot"] == "ismcts"
    # the page's house rule (issue 37, defect 3): a failed contract costs undertricks, said
    # on the game's card; "Play now" and the new table's form start with it
    assert summary["options"]["undertricks"] is True
    p.page.goto(server + "/")
    rule = p.page.inner_text('.game-card[data-game="drawbridge"] .house-rule')
    assert rule.startswith("House rule: A failed contract gives the defender 50 points"), rule
    assert p.page.locator('.game-card[data-game="sequence"] .house-rule').count() == 0
    p.page.select_option("#game", "drawbridge")
    assert p.page.is_checked("#opt-undertricks")
    p.page.select_option("#game", "sequence")
    assert p.page.locator("#opt-undertricks").count() == 0
    p.close()


@pytest.mark.slow
def test_the_lobby_in_khmer_on_a_phone(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server, viewport=PHONE, locale="km-KH")
    p.page.goto(server + "/")
    p.page.wait_for_selector(".game-card")
    p.page.wait_for_function("() => document.documentElement.lang === 'km'")
    for game in LEVELS:
        assert any("\u1780" <= ch <= "\u17ff" for ch in p.page.inner_text(f"#strength-{game}"))
        line = p.page.locator(f'.game-card[data-game="{game}"] .game-line').inner_text()
        assert any("\u1780" <= ch <= "\u17ff" for ch in line), line
    # nothing wider than the phone
    assert p.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert KHMER
    p.shot(shots, "lobby-games-km-phone")
    p.page.set_viewport_size(DESKTOP)
    p.shot(shots, "lobby-games-km")
    p.close()


@pytest.mark.slow
def test_a_seats_bot_is_named_by_its_level_in_that_game(browser: Any, server: str) -> None:
    p = Player(browser, server)

    def names() -> list[str]:
        return p.page.locator("#seats .seat-name").all_inner_texts()

    # Sequence's hard level is the learned bot; ISMCTS, no level there, goes by its name;
    # one bot of its kind at the table: no seat number to puzzle over ("Bot: medium #2")
    p.create("sequence", ["person", "bot:learned"])
    assert names() == ["You", "Bot: hard"]
    # a kind that is no level of the game: named in words, not by its id (issue 37)
    p.create("sequence", ["person", "bot:ismcts"])
    assert names() == ["You", "Bot: searching"]
    p.create("drawbridge", ["person", "bot:perfect"])
    assert names() == ["You", "Bot: expert"]
    p.create("threethirteen", ["person", "bot:ismcts"])
    assert names() == ["You", "Bot: hard"]
    # two bots of one level: each told by its seat, in words
    p.create("threethirteen", ["person", "bot:heuristic", "bot:heuristic", "bot:random"])
    assert names() == ["You", "Bot: medium (seat 2)", "Bot: medium (seat 3)", "Bot: easy"]
    p.page.select_option("#lang", "km")
    p.page.wait_for_function("() => document.documentElement.lang === 'km'")
    p.wait_view()
    assert names()[1] == "បូត៖ មធ្យម (កៅអីទី 2)"
    p.close()
