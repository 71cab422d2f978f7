"""The rule book: each game's rules, from the copies of RULES.md the package carries
(for the terminal, the web page and `cardtable rules`).

``RULES.md`` is the rule book; ``RULES.km.md`` is its Khmer translation, with the same
layout: the introduction, a "Common terms" section (``ពាក្យទូទៅ`` in Khmer), then one
``## N. Game name (...)`` section per game after a ``---`` line, the game's English name
first in its heading.
"""

from __future__ import annotations

import re
from importlib.resources import files

from cardtable.core import OptionsError

#: the rule book's languages: the file and the heading of its common terms
BOOKS = {"en": ("RULES.md", "Common terms"), "km": ("RULES.km.md", "ពាក្យទូទៅ")}


def rule_book(lang: str = "en") -> str:
    """The whole rule book as shipped in the package, in ``lang`` ("en" or "km")."""
    if lang not in BOOKS:
        raise OptionsError(f"no rule book in {lang!r}; the languages are {', '.join(BOOKS)}")
    return (files("cardtable") / "data" / BOOKS[lang][0]).read_text(encoding="utf-8")


def _key(title: str) -> str:
    """``"Draw Bridge (2 players, ...)"`` -> ``"drawbridge"``, a game's name."""
    return re.sub(r"[^a-z]", "", title.split("(")[0].lower())


def rules_of(game: str, lang: str = "en") -> str:
    """Markdown: the rule book's common terms, then the game's own section."""
    book = rule_book(lang)
    terms = BOOKS[lang][1]
    parts = book.split("\n---\n")
    common = parts[0][parts[0].index(terms):].strip()
    common = "## " + common.replace(f"{terms}\n", f"{terms}\n\n", 1)
    for part in parts[1:]:
        match = re.match(r"\s*## \d+\. (.*)", part)
        if match and _key(match.group(1)) == game:
            return f"{common}\n\n{part.strip()}\n"
    games = sorted(_key(m) for m in re.findall(r"^## \d+\. (.*)$", book, re.M))
    raise OptionsError(f"no rules for {game!r}; the rule book has {', '.join(games)}")
