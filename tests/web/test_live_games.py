"""A whole game of Draw Bridge and of Three Thirteen with the animations on and under
reduced motion, ending in the same state (as tests/web/test_live.py does for Sequence),
and Draw Bridge's closed auction kept until the player dismisses it. A real
``cardtable serve``, Debian's chromium.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import Player, drawbridge_move, threethirteen_move, wait_until

pytestmark = pytest.mark.slow

SCORES = """() => [...document.querySelectorAll('#over table.scores tr')].slice(1).map((r) =>
  [r.lastChild.textContent, r.classList.contains('winner')])"""
# the game area as drawn, without what only an animation leaves for its time
GAME_AREA = """() => { const g = document.querySelector('#game').cloneNode(true);
  g.querySelectorAll('[style]').forEach((e) => e.removeAttribute('style'));
  return g.innerHTML; }"""


# the phase, the deal and the auction's box, read in one go
AUCTION_NOW = """() => { const v = window.cardtable.table.view;
  const q = (s) => document.querySelectorAll(s).length;
  const h = document.querySelector('#auction.closed h3');
  return { phase: v.phase, deal: v.deal_number,
    tricks: (v.tricks_won || []).reduce((x, y) => x + y, 0),
    closed: q('#auction.closed'), ok: q('#auction-ok'), folded: q('details#auction.folded'),
    open: q('details#auction.folded[open]'), title: h ? h.textContent : '' }; }"""


def played(p: Player) -> int:
    return int(p.page.evaluate("window.cardtable.table.motion.played"))


# every trick swept towards its winner, with the phase shown when it was: the last trick of
# the draw is swept over the auction, the last of the play over the match's end
COUNT_SWEEPS = """window.__swept = [];
document.addEventListener('DOMContentLoaded', () => new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) {
    if (n.classList && n.classList.contains('swept')) {
      const t = window.cardtable && window.cardtable.table;
      window.__swept.push(t && t.view ? t.view.phase : null);
    } } }).observe(document.body, { childList: true, subtree: true }));"""


def watchers(browser: Any, server: str, table: str) -> tuple[Player, Player]:
    """Two spectators of the table: one animated, one under prefers-reduced-motion."""
    animated = Player(browser, server)
    animated.context.add_init_script(COUNT_SWEEPS)
    reduced = Player(browser, server)
    reduced.page.emulate_media(reduced_motion="reduce")
    for w in (animated, reduced):
        w.page.goto(f"{server}/t/{table}")
        w.wait_view()
    return animated, reduced


def same_end(a: Player, animated: Player, reduced: Player) -> None:
    version = a.page.evaluate("window.cardtable.table.version")
    for p in (a, animated, reduced):
        p.page.wait_for_selector("#over .over-panel")
        wait_until(lambda p=p: p.page.evaluate("window.cardtable.table.version") == version,
                   what="the last move")
        p.page.wait_for_function("() => window.cardtable.table.motion.idle")
        assert p.page.locator(".ghost").count() == 0
    assert animated.page.evaluate(GAME_AREA) == reduced.page.evaluate(GAME_AREA)
    scores = a.page.evaluate(SCORES)
    assert animated.page.evaluate(SCORES) == reduced.page.evaluate(SCORES) == scores
    assert played(reduced) == 0
    assert played(animated) > 0


def test_a_whole_draw_bridge_match_animated_or_not_and_the_auction_kept(
        browser: Any, server: str, shots: Path) -> None:
    a = Player(browser, server)
    a.page.emulate_media(reduced_motion="reduce")   # the animated spectator shows motion
    table = a.create("drawbridge", ["person", "bot:heuristic"], options={"target": 1})
    animated, reduced = watchers(browser, server, table)
    kept = False
    dismissed: set[int] = set()   # the deals whose closed auction the player dismissed
    end = time.monotonic() + 400
    while not a.over:
        assert time.monotonic() < end, "the match did not end in time"
        # read at once: a bot's answer may start the next deal between two reads
        now = a.page.evaluate(AUCTION_NOW)
        if now["phase"] == "play" and now["deal"] not in dismissed:
            # the closed auction stays in full, through the play's moves, until dismissed
            # (a match of several deals shows each deal's auction until it is dismissed)
            assert now["closed"] == 1 and now["ok"] == 1, now
            assert "closed" in now["title"], now
            if now["tricks"] >= 1:
                if not kept:
                    kept = True
                    # a spectator too, once its animations have caught up with the player
                    animated.page.wait_for_selector("#auction.closed", state="attached",
                                                    timeout=15_000)
                    a.page.locator("#auction").scroll_into_view_if_needed()
                    a.page.screenshot(path=str(shots / "drawbridge-auction-closed.png"))
                a.page.click("#auction-ok")
                after = a.page.evaluate(AUCTION_NOW)
                if after["deal"] == now["deal"] and after["phase"] == "play":
                    assert after["closed"] == 0 and after["folded"] == 1, after
                    assert after["open"] == 0, after
                dismissed.add(now["deal"])
        if a.my_turn:
            calls = a.page.locator("#auction .calls li strong").all_inner_texts()
            drawbridge_move(a, bid=all(c == "Pass" for c in calls))
            after = a.page.evaluate(AUCTION_NOW)
            if after["phase"] == "play" and after["deal"] in dismissed:
                # dismissed: it stays folded through the deal's moves
                assert after["closed"] == 0, after
        else:
            time.sleep(0.05)
    assert kept and dismissed
    same_end(a, animated, reduced)
    # the last trick of each phase is gathered as every other one is (honeymoon-bridge)
    # (moves faster than their animations queue, the oldest dropped: not every trick shows)
    swept = animated.page.evaluate("window.__swept")
    assert "draw" in swept and "play" in swept, swept
    if not animated.page.evaluate("window.cardtable.table.motion.dropped"):
        # the draw's last trick, the auction already up (when no move came so fast that
        # its animation was dropped, as a loaded machine may make the bot's calls come)
        assert "auction" in swept, swept
    assert swept[-1] in ("over", "draw"), swept   # the play's last: the end, or a new deal
    for p in (a, animated, reduced):
        p.close()


def test_a_whole_three_thirteen_game_animated_or_not(browser: Any, server: str) -> None:
    a = Player(browser, server)
    # the player plays without motion (a move's animation holds the next event, and a
    # match is some 270 moves): the animated spectator is the one that shows it
    a.page.emulate_media(reduced_motion="reduce")
    table = a.create("threethirteen", ["person", "bot:heuristic"])
    animated, reduced = watchers(browser, server, table)
    end = time.monotonic() + 500
    while not a.over:
        assert time.monotonic() < end, "the game did not end in time"
        if a.my_turn:
            threethirteen_move(a)  # going out when it can
        else:
            time.sleep(0.05)
    same_end(a, animated, reduced)
    # the last round laid out in melds with its penalties, on every page
    for p in (a, animated, reduced):
        assert p.page.locator("#last-round .round-hand").count() == 2
    for p in (a, animated, reduced):
        p.close()
