"""Makes the page's fonts, ``src/cardtable/web/static/fonts/*.woff2``, from Noto Sans
Khmer's TTF files and Noto Emoji (SIL Open Font License, ``fonts/OFL.txt``): each face cut
to the characters the page draws with it and compressed as WOFF2 (fontTools with brotli:
``pip install fonttools brotli``; needed only to run this, not by the page or the server).

- ``NotoSansKhmer-Regular.woff2``, ``NotoSansKhmer-Bold.woff2``: the Khmer blocks (U+1780-
  17FF, U+19E0-19FF), the zero-width joiners (U+200B-200D) and the dotted circle (U+25CC),
  every OpenType layout feature kept (Khmer is shaped: subscripts, vowels drawn before
  their consonant), the names kept (the browser reports ``NotoSansKhmer-Bold``).
- ``KhmerMenu.woff2``: only the glyphs of the language menu's word "ខ្មែរ" (its own
  ``@font-face``, used by the menu alone), so that an English page downloads about 1 kB for
  it, not the whole face.
- ``Emotes.woff2``: the chat's six emotes (😀 😄 😮 😢 👍 ❤️) from Noto Emoji (monochrome),
  so that they are drawn where the system has no emoji font (👍 was an empty box on a
  Debian with DejaVu and Liberation alone). Its source is npm's ``@fontsource/noto-emoji``
  (5.3.2: ``npm pack @fontsource/noto-emoji@5.3.2``, unpacked), the subset file holding
  the six, ``files/noto-emoji-9-400-normal.woff2``.

    python -m cardtable.web.fonts [--ttf DIR] [--emoji PACKAGE_DIR]

Without ``--ttf`` it reads the Khmer TTFs from git (the commit before they were
replaced); without ``--emoji`` it leaves ``Emotes.woff2`` as it is.
"""

from __future__ import annotations

import argparse
import io
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FONTS = Path(__file__).resolve().parent / "static" / "fonts"
#: what the page draws with the Khmer faces (app.css's unicode-range)
KHMER = [*range(0x1780, 0x1800), *range(0x19E0, 0x1A00), 0x200B, 0x200C, 0x200D, 0x25CC]
MENU_WORD = "ខ្មែរ"
#: the chat's emotes (js/chat.js), and the variation selector of ❤️
EMOTES = [0x1F600, 0x1F604, 0x1F62E, 0x1F622, 0x1F44D, 0x2764, 0xFE0F]
#: the commit whose tree still holds the TTF files
TTF_COMMIT = "6509693"


def subset(ttf: bytes, unicodes: list[int], out: Path) -> int:
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    options = ft_subset.Options()
    options.layout_features = ["*"]      # every shaping feature of the kept glyphs
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False              # screens of today do not need the hints
    options.desubroutinize = True
    options.flavor = "woff2"
    font = TTFont(io.BytesIO(ttf), recalcTimestamp=False)   # the same bytes every run
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    ft_subset.save_font(font, str(out), options)
    return out.stat().st_size


def read_ttf(source: Path | None, name: str) -> bytes:
    if source is not None:
        return (source / name).read_bytes()
    path = f"src/cardtable/web/static/fonts/{name}"
    return subprocess.run(["git", "show", f"{TTF_COMMIT}:{path}"], cwd=ROOT,
                          capture_output=True, check=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ttf", type=Path, default=None)
    parser.add_argument("--emoji", type=Path, default=None)
    args = parser.parse_args()
    for face in ("Regular", "Bold"):
        ttf = read_ttf(args.ttf, f"NotoSansKhmer-{face}.ttf")
        size = subset(ttf, KHMER, FONTS / f"NotoSansKhmer-{face}.woff2")
        print(f"NotoSansKhmer-{face}.woff2: {size} bytes (TTF {len(ttf)})")
    ttf = read_ttf(args.ttf, "NotoSansKhmer-Regular.ttf")
    size = subset(ttf, [ord(c) for c in MENU_WORD], FONTS / "KhmerMenu.woff2")
    print(f"KhmerMenu.woff2: {size} bytes")
    if args.emoji is not None:
        source = (args.emoji / "files" / "noto-emoji-9-400-normal.woff2").read_bytes()
        size = subset(source, EMOTES, FONTS / "Emotes.woff2")
        print(f"Emotes.woff2: {size} bytes")


if __name__ == "__main__":
    main()
