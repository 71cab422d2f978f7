"""The web page's message catalogs (English and Khmer) and the routes it adds to the server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("babel")

import cardtable  # noqa: E402
from cardtable.sequence import BOARD  # noqa: E402
from cardtable.web import STATIC_DIR, arrange_json, catalogs, rules_json  # noqa: E402

KHMER = re.compile("[\u1780-\u17ff]")
PLACEHOLDER = re.compile(r"\{\w+\}")


def needed() -> dict[str, list[tuple[str, int]]]:
    return {**catalogs.js_messages(), **catalogs.declaration_messages()}


def test_the_scripts_have_messages() -> None:
    found = catalogs.js_messages()
    assert len(found) > 100
    assert "Your turn" in found and "Hint" in found


def test_no_message_of_the_page_is_untranslated_in_khmer() -> None:
    km = {m.id: m for m in catalogs.read("km") if m.id}
    missing = [msg for msg in needed() if msg not in km or not km[msg].string or km[msg].fuzzy]
    assert not missing, f"untranslated in km/LC_MESSAGES/web.po: {missing}"
    for msg in needed():
        text = km[msg].string
        assert KHMER.search(text), f"{msg!r} -> {text!r} has no Khmer letter"
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(msg)), msg


def test_the_compiled_catalog_is_current() -> None:
    shipped = (STATIC_DIR / "i18n" / "km.json").read_text(encoding="utf-8")
    assert shipped == catalogs.compiled_text("km"), (
        "run: python -m cardtable.web.catalogs compile")
    assert set(needed()) <= set(json.loads(shipped))


#: a list of two or more cards in notation ("JS", "JH"), a list of strains, a count of
#: the game's rounds, levels or draw tricks as a bound or a test
CARD_LIST = re.compile(r'\[\s*"(?:[2-9TJQKA][SHDC]|NT)"\s*,')
GAME_NAME_TEST = re.compile(r'(?:===|!==|case)\s*"(?:sequence|drawbridge|threethirteen)"')


def test_the_page_holds_no_fact_of_a_game() -> None:
    """Every rule fact the page draws from comes from the engine: the table's game_info
    (``Game.describe``: the board, teams, phases, call grid, card roles, rounds, wild
    ranks, blurb, whether there is a review), the views and the move events. The scripts
    hold no list of cards or strains, no count of rounds, bids or tricks, and compare a
    game's name nowhere but in names.js (the titles, translated) and one default choice."""
    js = {p.name: p.read_text(encoding="utf-8") for p in (STATIC_DIR / "js").glob("*.js")}
    assert {"sequence.js", "drawbridge.js", "threethirteen.js", "replay.js"} <= set(js)
    facts = {name: cardtable.new_game(name).describe() for name in cardtable.game_names()}
    for name, text in js.items():
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)   # comments may say them
        assert not CARD_LIST.search(code), f"{name}: a list of cards or strains"
        assert not re.search(r'"(?:[0-9AKQT][SHDC] ){9}', code), f"{name}: a board row"
        rounds, levels = facts["threethirteen"]["rounds"], facts["drawbridge"]["levels"]
        for count in {rounds, max(levels), 26}:
            assert not re.search(rf"(?:[<>]=?|===|\bof)\s*{count}\b", code), (
                f"{name}: a bound of {count}, the game's to say")
        if name != "names.js":
            tests = [m.group(0) for m in GAME_NAME_TEST.finditer(code)]
            if name == "app.js":    # the new-table form's default game
                tests.remove('=== "sequence"')
            assert not tests, f"{name} tests a game's name ({tests}): declare the capability"
    assert "% teams" not in js["sequence.js"] and "isDead" not in js["sequence.js"]
    assert "going_out: String(" not in js["threethirteen.js"]
    assert "A23456789TJQK" not in "".join(js.values())
    for info in facts.values():   # what the scripts read instead
        assert info["blurb"] and isinstance(info["review"], bool)
    assert facts["drawbridge"]["strains"] == ["C", "D", "H", "S", "NT"] and levels == [*range(1, 8)]
    assert facts["sequence"]["card_roles"] == {"JD": "wild", "JC": "wild", "JS": "remove",
                                               "JH": "remove"}
    assert facts["sequence"]["board"] == [list(row) for row in BOARD]
    assert facts["drawbridge"]["review"] and not facts["sequence"]["review"]


def test_the_static_files_ship() -> None:
    for name in ("index.html", "app.css", "js/app.js", "fonts/NotoSansKhmer-Regular.woff2",
                 "fonts/NotoSansKhmer-Bold.woff2", "fonts/KhmerMenu.woff2",
                 "fonts/OFL.txt", "i18n/km.json"):
        assert (STATIC_DIR / name).is_file(), name
    assert "SIL OPEN FONT LICENSE" in (STATIC_DIR / "fonts" / "OFL.txt").read_text()


def test_arrange_splits_a_three_thirteen_hand() -> None:
    got = arrange_json("5H,6H,KS,9C,9D", "11")
    assert got == {"melds": [["9D", "9C", "KS"]], "deadwood": ["5H", "6H"], "penalty": 11}
    with pytest.raises(ValueError, match="round"):
        arrange_json("5H", "twelve")
    with pytest.raises(ValueError):
        arrange_json("5H,ZZ", "3")


def test_the_rules_in_both_languages() -> None:
    en = rules_json("sequence", "en")["markdown"]
    km = rules_json("sequence", "km")["markdown"]
    assert en.startswith("## Common terms") and "## 2. Sequence" in en
    assert km.startswith("## ពាក្យទូទៅ") and "## 2. Sequence" in km
    assert "## 1. Draw Bridge" not in km
    with pytest.raises(ValueError, match="lang"):
        rules_json("sequence", "fr")


def test_the_khmer_rule_book_follows_the_english_one() -> None:
    data = Path(catalogs.HERE.parent / "data")
    en = (data / "RULES.md").read_text(encoding="utf-8")
    km = (data / "RULES.km.md").read_text(encoding="utf-8")
    numbers = re.compile(r"^(\d+\.\d+)\b", re.M)
    assert numbers.findall(km) == numbers.findall(en)
    assert len(KHMER.findall(km)) > 3000


def test_cardtable_rules_in_khmer() -> None:
    out = subprocess.run([sys.executable, "-m", "cardtable", "rules", "threethirteen", "--lang",
                          "km", "--plain"], capture_output=True, text=True, check=True).stdout
    assert "ពាក្យទូទៅ" in out and "## 3. Three Thirteen" in out


def test_a_browser_gets_the_page_at_an_address_with_nothing_at_it() -> None:
    pytest.importorskip("fastapi")
    from cardtable.web import not_found_page

    html = "text/html,application/xhtml+xml,*/*;q=0.8"
    page = not_found_page("GET", "/t/a/b", html)
    assert page.status_code == 404 and str(page.path).endswith("index.html")
    assert not_found_page("GET", "/api/nothing", html) is None        # the API: JSON errors
    assert not_found_page("GET", "/static/nothing.js", html) is None
    assert not_found_page("GET", "/nothing", "application/json") is None
    assert not_found_page("POST", "/nothing", html) is None
