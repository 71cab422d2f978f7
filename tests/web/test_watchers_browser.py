"""Who is watching, in real browsers (docs/web.md: Who is watching): a table's players
and spectators see how many watch, a spectator with a player name by that name and the
others as guests (English on a desktop, Khmer on a phone)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.http import http
from tests.web.test_browser import DESKTOP, PHONE, Player, english_left

pytestmark = pytest.mark.slow


def named_player(browser: Any, server: str, name: str, **kwargs: Any) -> Player:
    """A browser whose player (its key in localStorage) is called ``name``."""
    answer = http.post(f"{server}/api/players", json={"name": name}, timeout=30).json()
    p = Player(browser, server, **kwargs)
    saved = json.dumps({"id": answer["player"]["id"], "key": answer["key"]})
    p.context.add_init_script(f"localStorage.setItem('cardtable:player', {json.dumps(saved)})")
    return p


def test_the_spectators_are_counted_and_named(browser: Any, server: str, shots: Path) -> None:
    host = Player(browser, server, viewport=DESKTOP)
    table = host.create("sequence", ["person", "bot:heuristic"], name="Ana")
    assert host.page.locator("#watching").is_hidden()     # nobody watches yet
    sokha = named_player(browser, server, "Sokha", viewport=DESKTOP)
    sokha.page.goto(f"{server}/t/{table}")
    sokha.wait_view()
    guest = Player(browser, server, viewport=PHONE, locale="km-KH")
    guest.page.goto(f"{server}/t/{table}")
    guest.wait_view()
    host.page.wait_for_function(
        "() => document.querySelector('#watching').textContent.startsWith('2 watching')")
    assert host.page.inner_text("#watching") == "2 watching: Sokha, a guest"
    host.page.locator("#watching").scroll_into_view_if_needed()
    host.shot(shots, "watching-desktop-en")
    guest.page.wait_for_function(
        "() => document.querySelector('#watching').textContent.includes('Sokha')")
    text = guest.page.inner_text("#watching")
    assert "Sokha" in text and not english_left(text.replace("Sokha", ""))
    guest.page.locator("#watching").scroll_into_view_if_needed()
    guest.page.screenshot(path=str(shots / "watching-phone-km.png"))
    # the spectator's key is in no page of the others
    key = json.loads(sokha.page.evaluate("localStorage.getItem('cardtable:player')"))["key"]
    assert key not in host.page.content()
    sokha.close()
    host.page.wait_for_function(
        "() => document.querySelector('#watching').textContent === '1 watching: a guest'")
    guest.close()
    host.page.wait_for_selector("#watching", state="hidden")
    host.close()
