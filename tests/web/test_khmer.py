"""Khmer done well: the rule book's text, the page's catalog and the translators' glossary.

The points of a Khmer reader's review are data here (the catalog's terms), so that a later
edit that brings back a misleading word fails; ``msgfmt --check`` (GNU gettext) checks the
catalog as translation tools read it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from cardtable.web import STATIC_DIR
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "cardtable" / "data"
LOCALE = STATIC_DIR.parent / "locale"
KHMER_LETTER = re.compile("[\u1780-\u17d3\u17dc-\u17ff]")
#: a line that starts a Markdown block of its own (not the next line of a paragraph)
BLOCK = re.compile(r"^(#{1,4} |```|\||---$|\s*([-*]|\d+\.) )")


def read_po() -> dict[str, str]:
    """msgid -> msgstr of the Khmer catalog (its strings joined across lines, as gettext does)."""
    text = (LOCALE / "km" / "LC_MESSAGES" / "web.po").read_text(encoding="utf-8")
    found = {}
    for entry in text.split("\n\n"):
        parts = re.findall(r'^(msgid|msgstr) ((?:".*"\n?)+)', entry, re.M)
        strings = {key: "".join(re.findall(r'"(.*)"', body)).replace('\\"', '"')
                   for key, body in parts}
        if strings.get("msgid"):
            found[strings["msgid"]] = strings.get("msgstr", "")
    return found


def test_the_khmer_rule_book_has_one_line_per_paragraph() -> None:
    # a line break inside a Khmer paragraph would become a space (a pause) on the page
    lines = (DATA / "RULES.km.md").read_text(encoding="utf-8").split("\n")
    fenced = False
    broken = []
    for number, (line, after) in enumerate(zip(lines, lines[1:], strict=False), start=1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.strip() or not after.strip() or BLOCK.match(after):
            continue
        if line.startswith("|") or re.match(r"^#{1,4} ", line):
            continue
        if KHMER_LETTER.search(line) or KHMER_LETTER.search(after):
            broken.append(number)
    assert not broken, f"RULES.km.md: a paragraph goes on after line(s) {broken}"


def numbers_by_rule(text: str) -> dict[str, Counter[str]]:
    """The digits written in each numbered rule (1.1 ... 3.9) of a rule book."""
    found: dict[str, Counter[str]] = {}
    rule = None
    for line in text.split("\n"):
        start = re.match(r"^(\d+\.\d+) ", line)
        if start:
            rule = start.group(1)
        elif line.startswith("## ") or line == "---":
            rule = None
        if rule:
            found.setdefault(rule, Counter()).update(re.findall(r"\d+", line))
    return found


def test_every_number_of_the_english_rules_is_in_the_khmer_ones() -> None:
    en = numbers_by_rule((DATA / "RULES.md").read_text(encoding="utf-8"))
    km = numbers_by_rule((DATA / "RULES.km.md").read_text(encoding="utf-8"))
    assert en.keys() == km.keys()
    missing = {rule: dict(en[rule] - km[rule]) for rule in en if en[rule] - km[rule]}
    assert not missing, f"numbers of RULES.md missing in RULES.km.md: {missing}"


#: the review's points on the rule book, as words that must not come back
RULE_BOOK_AVOIDS = {
    "ក្រឡាប្រាំមួយណា": "which *six* cells (2.5 is about five)",
    "ឋានៈ": "rank is ចំណាត់ថ្នាក់ (ឋានៈ is social status)",
    "ការលាយ": "shuffle is សាប់",
    "អ្នកប្រកាស": "declarer is អ្នកដេញថ្លៃឈ្នះ (ប្រកាស is a call)",
    "បង្អួច": "window: a programmer's word; a line of five cells is ជួរប្រាំក្រឡា",
    "ទាមទារ": "claim: the engine រាប់យក a sequence",
    "ដោយស្ម័គ្រចិត្ត": "optionally is (បើចង់)",
    "សៀវភៅ\"": "the bridge book is named in English",
    "ជែកភ្នែកមួយ": "one-eyed jack is ជែកភ្នែកម្ខាង",
    "បំរែបំរួល": "spelled បម្រែបម្រួល",
    "ក្រឡាទំនេរសម្រាប់": "corners are ក្រឡារួម, not free (empty) cells",
    "ក្រោម `": "under option X is ពេលបើកជម្រើស",
    "ជាការស្មើគ្នា": "a drawn game ends ដោយស្មើ; ស្មើគ្នា is equal",
}


def test_the_khmer_rule_book_avoids_the_reviewed_words() -> None:
    text = (DATA / "RULES.km.md").read_text(encoding="utf-8")
    for word, why in RULE_BOOK_AVOIDS.items():
        assert word not in text, f"RULES.km.md has {word!r}: {why}"
    assert "ក្រឡាប្រាំណាខ្លះត្រូវរាប់" in text and "គ្មានត្រាំ (NT)" in text


#: the review's points on the catalog: msgid -> the Khmer it must be
CATALOG = {
    "Play": "លេង",                       # the button ...
    "Play phase": "វគ្គលេង",              # ... and the phase: two msgids
    "Draw phase": "វគ្គដកបៀ",
    "Auction": "វគ្គដេញថ្លៃ",
    "Bids": "កម្រិតដេញថ្លៃ",
    "go out": "ផ្គុំអស់",
    "goes out!": "ផ្គុំអស់!",
    "{name} went out:": "{name} ផ្គុំអស់ហើយ៖",
    "suit-led": "សន្លឹកធំជាងគេនៃទឹកដែលចេញមុន",
    "Take a seat": "ចូលអង្គុយ",
    "Take seat {n} at this table: your name": "អង្គុយកៅអីទី {n} នៅតុនេះ៖ ឈ្មោះរបស់អ្នក",
    "Bot: learned": "បូត៖ បានបង្វឹក",
    "Last trick: {cards}; won by {winner}": "ល្បិចមុន៖ {cards}; {winner} ឈ្នះ",
    "{level}{strain}{doubled} by {declarer}": "{level}{strain}{doubled} របស់ {declarer}",
    "Round {n} of {rounds}": "ជុំទី {n}/{rounds}",
    "Play it": "លេងតាមនេះ",
    "Draw pile: {n}": "គំនរបៀ៖ {n}",
}


def test_the_khmer_catalog_uses_the_reviewed_terms() -> None:
    po = read_po()
    wrong = {msgid: po.get(msgid) for msgid, want in CATALOG.items() if po.get(msgid) != want}
    assert not wrong, wrong
    assert "NT" not in po   # the strain is written NT, as in the rule book (3NT)
    assert "អ្នកដេញថ្លៃឈ្នះ" in po["Last deal: {contract}, declarer took {tricks} tricks; "
                                   "points {a} – {b}"]
    for msgid, msgstr in po.items():
        for word in ("អ្នកប្រកាស", "ឋានៈ", "យកកៅអី"):
            assert word not in msgstr, f"{msgid!r} -> {msgstr!r} has {word!r}"


def test_the_catalogs_pass_msgfmt_check(tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        missing("msgfmt", "the catalogs' check; Debian's gettext package, on PATH")
    for po in (LOCALE / "km" / "LC_MESSAGES" / "web.po", LOCALE / "web.pot"):
        done = subprocess.run([msgfmt, "--check", "-o", str(tmp_path / "out.mo"), str(po)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_no_message_claims_a_percent_format() -> None:
    # Babel guesses python-format from "{pct}% chance"; the page fills {name} only
    for po in (LOCALE / "km" / "LC_MESSAGES" / "web.po", LOCALE / "web.pot"):
        flags = re.findall(r"^#, (.*)$", po.read_text(encoding="utf-8"), re.M)
        assert not [f for f in flags if "python-format" in f.split(", ")], po


def test_the_glossary_is_in_the_docs() -> None:
    glossary = (ROOT / "docs" / "glossary-km.md").read_text(encoding="utf-8")
    for english, khmer in [("declarer", "អ្នកដេញថ្លៃឈ្នះ"), ("auction", "វគ្គដេញថ្លៃ"),
                           ("shuffle", "សាប់"), ("rank", "ចំណាត់ថ្នាក់"),
                           ("go out", "ផ្គុំអស់"), ("chip", "គ្រាប់")]:
        row = next((r for r in glossary.splitlines() if r.startswith(f"| {english} ")), "")
        assert khmer in row, english
    assert "glossary-km.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "glossary-km.md" in (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
