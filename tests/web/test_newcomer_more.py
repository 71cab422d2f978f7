"""More of what a newcomer tripped over (issue 37, /work/shared/reviews/newcomer-s4.md,
defects 5, 6, 9, 11, 13, 16, 17), each in a real browser (Debian's chromium) against a
real ``cardtable serve``: the Sequence board in a desktop window, a Khmer pile label on a
phone, reconnecting after a restart with the clocks frozen, the emotes drawn without an
emoji font, no raw or English words on the Khmer page, the header and the lobby's "Play
now" on a phone, and the page's weight.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import PHONE, Player, sequence_move

pytestmark = pytest.mark.slow

#: the bottom of the board's last row and of the hand, and the window's height
SEQUENCE_FIT = """() => {
  const cells = [...document.querySelectorAll('#game .board .cell')];
  const cards = [...document.querySelectorAll('#hand button.card')];
  const bottom = (els) => Math.max(...els.map((el) => el.getBoundingClientRect().bottom));
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
        assert fit["cells"] == 100 and fit["scrollY"] == 0
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
    p.page.locator("#game .piles").screenshot(path=str(shots / f"piles-{locale}-phone.png"))
    p.close()
