"""The rules of each game, from the copy of RULES.md the package carries."""

from __future__ import annotations

import re
from importlib.resources import files

from cardtable.core import OptionsError


def rule_book() -> str:
    """The whole of RULES.md as shipped in the package."""
    return (files("cardtable") / "data" / "RULES.md").read_text(encoding="utf-8")


def _key(title: str) -> str:
    """``"Draw Bridge (2 players, ...)"`` -> ``"drawbridge"``, a game's name."""
    return re.sub(r"[^a-z]", "", title.split("(")[0].lower())


def rules_of(game: str) -> str:
    """Markdown: the rule book's common terms, then the game's own section."""
    parts = rule_book().split("\n---\n")
    common = parts[0][parts[0].index("Common terms"):].strip()
    common = "## " + common.replace("Common terms\n", "Common terms\n\n", 1)
    for part in parts[1:]:
        match = re.match(r"\s*## \d+\. (.*)", part)
        if match and _key(match.group(1)) == game:
            return f"{common}\n\n{part.strip()}\n"
    games = sorted(_key(m) for m in re.findall(r"^## \d+\. (.*)$", rule_book(), re.M))
    raise OptionsError(f"no rules for {game!r}; the rule book has {', '.join(games)}")
