"""The Khmer page in a real browser: which font draws each Khmer element, and the rule book's
Khmer paragraphs without stray pauses.

Chromium's DevTools protocol (``CSS.getPlatformFontsForNode``, over Playwright's CDP
session) tells, per element, the fonts that drew its text: every Khmer letter must come
from the shipped Noto Sans Khmer, Bold where the element is bold. Screenshots of the
lobby, a table and the rules, at desktop and phone size, go to ``test-output/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardtable.web import STATIC_DIR
from tests.web.test_browser import PHONE, Player, wait_until

pytestmark = pytest.mark.slow

# marks every shown element whose own text has Khmer; per element (by index): its text, its
# weight, how many glyphs other fonts may draw (the characters of its text, its children's
# included, that are not Khmer, and a list marker: "1.", "▶"), and whether it is a leaf
# (CSS.getPlatformFontsForNode reports the fonts of the children's text too)
MARK_KHMER = r"""() => {
  // the marks of an earlier check go first: a stale one would name another element
  for (const el of document.querySelectorAll("[data-khmer-check]")) delete el.dataset.khmerCheck;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].filter((c) => c.nodeType === 3)
      .map((c) => c.textContent).join("");
    // drawn only: not in a closed <details> (such text has boxes but no font)
    if (!/[\u1780-\u17ff]/.test(own) || !el.getClientRects().length) continue;
    if (!el.checkVisibility()) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible") continue;
    el.dataset.khmerCheck = String(out.length);
    const other = [...el.textContent]
      .filter((ch) => !/[\u1780-\u17ff\u200b-\u200d\u25cc]/.test(ch)).length
      + (style.display === "list-item" ? 4 : 0);
    out.push([own.trim(), Number(style.fontWeight), other, el.children.length === 0]);
  }
  return out;
}"""


def khmer_fonts(p: Player) -> list[tuple[str, int, int, bool, dict[str, int]]]:
    """(text, weight, glyphs others may draw, leaf, PostScript name -> glyphs) per element."""
    page = p.page
    page.evaluate("document.fonts.ready.then(() => true)")
    marked = page.evaluate(MARK_KHMER)
    cdp = p.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    out = []
    for i, (text, weight, other, leaf) in enumerate(marked):
        node = cdp.send("DOM.querySelector",
                        {"nodeId": root, "selector": f'[data-khmer-check="{i}"]'})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        out.append((text, weight, other, leaf,
                    {f["postScriptName"]: f["glyphCount"] for f in fonts}))
    cdp.detach()
    return out


def assert_shipped_fonts(p: Player) -> dict[str, set[str]]:
    """Every Khmer element drawn with the shipped face of its weight; text -> fonts."""
    seen = khmer_fonts(p)
    assert seen, "no Khmer text on the page"
    wrong = []
    for text, weight, other, leaf, fonts in seen:
        want = "NotoSansKhmer-Bold" if weight > 550 else "NotoSansKhmer-Regular"
        faces = {name for name in fonts if name.startswith("NotoSansKhmer")}
        by_others = sum(n for name, n in fonts.items() if name not in faces)
        if want not in faces or (leaf and faces != {want}) or by_others > other:
            wrong.append((text[:30], weight, fonts))
    assert not wrong, f"Khmer drawn by other fonts or the wrong face: {wrong}"
    assert {w > 550 for _t, w, _o, _l, _f in seen} == {True, False}, "both weights are checked"
    return {text: set(fonts) for text, _w, _o, _l, fonts in seen}


def test_khmer_text_is_drawn_with_the_shipped_fonts(browser: Any, server: str,
                                                    shots: Path) -> None:
    p = Player(browser, server, locale="km-KH")
    p.page.goto(server + "/")
    p.page.wait_for_selector("#create-table")
    p.page.click("#create details summary")
    p.page.click("#settings summary")   # the settings panel's text is checked too
    drawn = assert_shipped_fonts(p)
    # the ones a review found as empty boxes: the site name, "New table", "Seats", "How to play"
    catalog = p.page.evaluate("fetch('/static/i18n/km.json').then((r) => r.json())")
    for msgid in ("Card table", "New table", "Seats", "How to play"):
        assert catalog[msgid] in drawn, msgid
    assert drawn[catalog["Card table"]] == {"NotoSansKhmer-Bold"}   # empty boxes before
    assert drawn[catalog["Seats"]] == {"NotoSansKhmer-Bold"}
    p.shot(shots, "khmer-fonts-lobby")
    p.page.set_viewport_size(PHONE)
    assert_shipped_fonts(p)
    p.shot(shots, "khmer-fonts-lobby-phone")
    p.page.set_viewport_size({"width": 1200, "height": 900})
    # a table: the turn banner (600), the seat names, the log
    p.create("drawbridge", ["person", "bot:random"], name="ដារា")
    wait_until(lambda: p.my_turn, what="my turn")
    p.page.click(".log-box summary")
    assert_shipped_fonts(p)
    p.shot(shots, "khmer-fonts-table")
    p.page.goto(server + "/rules/drawbridge")
    p.page.wait_for_selector("article.rules h3")
    assert_shipped_fonts(p)
    p.shot(shots, "khmer-fonts-rules")
    p.close()


def test_khmer_rules_render_without_stray_pauses(browser: Any, server: str) -> None:
    p = Player(browser, server, locale="km-KH")
    p.page.goto(server + "/rules/sequence")
    p.page.wait_for_selector("article.rules h3")
    # the renderer: a line break between two Khmer letters is no space; any other is one
    got = p.page.evaluate("""async () => {
      const { markdown } = await import('/static/js/rules.js');
      return [markdown('ក្រឡា\\nប្រាំ'), markdown('one\\ntwo'), markdown('ចប់។\\nថ្មី'),
              markdown('- ជួរ\\n  ដេក\\n- b')];
    }""")
    assert got == ["<p>ក្រឡាប្រាំ</p>", "<p>one two</p>", "<p>ចប់។ ថ្មី</p>",
                   "<ul><li>ជួរដេក</li><li>b</li></ul>"]
    # the page: every paragraph and list item is a line of RULES.km.md, as written
    book = (STATIC_DIR.parent.parent / "data" / "RULES.km.md").read_text(encoding="utf-8")
    plain = book.replace("**", "").replace("`", "")
    shown = p.page.eval_on_selector_all("article.rules p, article.rules li",
                                        "els => els.map((e) => e.textContent)")
    assert len(shown) > 10
    missing = [text[:40] for text in shown if text not in plain]
    assert not missing, missing
    p.close()
