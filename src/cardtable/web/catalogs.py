"""The web page's message catalogs, kept with Babel (gettext .po files).

Sources: every ``_("...")`` in ``static/js/*.js`` (Babel's JavaScript extractor) and the
games' declarations (titles, option help sentences and choices, which the server sends
as data and the page translates). Translations live in
``locale/<lang>/LC_MESSAGES/web.po``; the page loads ``static/i18n/<lang>.json``
(msgid -> msgstr), compiled from them. After changing the page's strings::

    python -m cardtable.web.catalogs extract   # locale/web.pot, and new msgids into each .po
    (translate the new entries in each web.po)
    python -m cardtable.web.catalogs compile   # static/i18n/<lang>.json
    msgfmt --check -o /dev/null locale/km/LC_MESSAGES/web.po   # what the tests check too

Khmer translators: the terms to use are in the documentation's Khmer glossary
(``docs/glossary-km.md``).

Babel is needed for these two commands and the catalog tests only; the page and the
server do not import it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LOCALE = HERE / "locale"
JS = HERE / "static" / "js"
COMPILED = HERE / "static" / "i18n"
DOMAIN = "web"
TRANSLATED = ("km",)
#: the page's translation functions: _(message, params)
KEYWORDS = {"_": None}


def js_messages() -> dict[str, list[tuple[str, int]]]:
    """Every message id in the page's scripts, with where it is used."""
    from babel.messages.extract import extract_from_file

    found: dict[str, list[tuple[str, int]]] = {}
    for path in sorted(JS.glob("*.js")):
        for lineno, message, _comments, _context in extract_from_file(
                "javascript", str(path), keywords=KEYWORDS):
            if isinstance(message, str) and message:
                found.setdefault(message, []).append((f"static/js/{path.name}", lineno))
    return found


def declaration_messages() -> dict[str, list[tuple[str, int]]]:
    """The strings of the games' declarations the page shows (when the engine has them)."""
    import cardtable

    found: dict[str, list[tuple[str, int]]] = {}
    declarations = getattr(cardtable, "declarations", None)
    if declarations is None:
        return found
    for decl in declarations():
        where = [(f"declaration:{decl.name}", 0)]
        found.setdefault(decl.title, []).extend(where)
        if decl.blurb:
            found.setdefault(decl.blurb, []).extend(where)
        for option in decl.options:
            if option.help:
                found.setdefault(option.help, []).extend(where)
            for choice in option.choices:
                if isinstance(choice, str):
                    found.setdefault(choice, []).extend(where)
    from cardtable.bots.levels import messages as level_messages

    for text in level_messages():   # the lobby's bot levels (GET /api/levels)
        found.setdefault(text, []).append(("cardtable/bots/levels.py", 0))
    return found


def template() -> Any:
    from babel.messages.catalog import Catalog

    catalog = Catalog(project="cardtable", domain=DOMAIN, charset="utf-8",
                      fuzzy=False)
    for source in (js_messages(), declaration_messages()):
        for message, places in source.items():
            catalog.add(message, locations=places,
                        flags=("python-brace-format",) if "{" in message else ())
    return catalog


def brace_format_only(catalog: Any) -> None:
    """Mark the messages as never %-formatted (the page fills ``{name}`` placeholders only).

    Babel flags every message in which a ``%`` looks like a format code as python-format
    (``{pct}% chance`` reads as ``% c``), and ``msgfmt --check`` then refuses a translation
    that moves the ``%``; ``no-python-format`` says what is true.
    """
    for message in catalog:
        if message.id and "python-format" in message.flags:
            message.flags.discard("python-format")
            message.flags.add("no-python-format")


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def extract() -> None:
    """Write locale/web.pot and merge new message ids into each language's web.po."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    pot = template()
    brace_format_only(pot)
    LOCALE.mkdir(exist_ok=True)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as f:
        write_po(f, pot, omit_header=False, sort_output=True, width=100)
    for lang in TRANSLATED:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="cardtable", fuzzy=False)
        catalog.update(pot, no_fuzzy_matching=True)
        brace_format_only(catalog)
        with path.open("wb") as f:
            write_po(f, catalog, sort_output=True, width=100, ignore_obsolete=True)


def compiled(lang: str) -> dict[str, str]:
    """msgid -> msgstr of the translated, non-fuzzy entries of a language's catalog."""
    out = {}
    for message in read(lang):
        if message.id and isinstance(message.id, str) and message.string and not message.fuzzy:
            out[message.id] = message.string
    return dict(sorted(out.items()))


def compiled_text(lang: str) -> str:
    return json.dumps(compiled(lang), ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def compile_all() -> None:
    COMPILED.mkdir(exist_ok=True)
    for lang in TRANSLATED:
        (COMPILED / f"{lang}.json").write_text(compiled_text(lang), encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv == ["extract"]:
        extract()
    elif argv == ["compile"]:
        compile_all()
    else:
        print("usage: python -m cardtable.web.catalogs extract|compile", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
