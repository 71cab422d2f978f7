"""The documentation: docstring examples run as written, the public API has docstrings,
and the documentation site's pages exist."""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# modules whose docstrings carry examples (Examples sections, shown by the reference)
EXAMPLES = ["cardtable", "cardtable.cards", "cardtable.records", "cardtable.bots",
            "cardtable.arena", "cardtable.local", "cardtable.drawbridge.scoring",
            "cardtable.drawbridge.solver",
            "cardtable.threethirteen.melds", "cardtable.envs.policy"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("name", ["cardtable", "cardtable.bots", "cardtable.drawbridge",
                                  "cardtable.sequence", "cardtable.threethirteen"])
def test_the_public_api_has_docstrings(name: str) -> None:
    """What the reference lists: the modules' exports, and the methods of the core
    classes and the bot protocol."""
    module = importlib.import_module(name)
    assert module.__doc__
    missing = []
    for attr in getattr(module, "__all__", []):
        obj = getattr(module, attr)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and not inspect.getdoc(obj):
            missing.append(attr)
        if inspect.isclass(obj) and obj.__module__ in ("cardtable.core",
                                                         "cardtable.bots.base"):
            missing += [f"{attr}.{m}" for m, f in vars(obj).items()
                        if not m.startswith("_") and inspect.isfunction(f)
                        and not inspect.getdoc(f)]
    assert not missing, f"{name}: no docstring for {', '.join(missing)}"


def test_every_page_in_the_site_navigation_is_linked_from_the_readme_or_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = re.findall(r":\s+(\S+\.md)\s*$", config, re.M)
    assert "index.md" in pages and "rules.md" in pages
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert '--8<-- "src/cardtable/data/RULES.md"' in rules  # the shipped book, not a copy
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    for link in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in link:
            assert (ROOT / link).exists(), f"README links {link}, which does not exist"


@pytest.mark.parametrize("game", ["sequence", "drawbridge", "threethirteen"])
def test_each_game_has_an_80x24_screenshot_in_the_docs(game: str) -> None:
    text = (ROOT / "docs" / "screenshots" / f"{game}-80x24.txt").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == 24 and max(len(line) for line in lines) <= 80
    assert (ROOT / "docs" / "screenshots" / f"{game}-80x24.svg").read_text(
        encoding="utf-8").startswith("<svg")
    page = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    assert f"screenshots/{game}-80x24.svg" in page and f"screenshots/{game}-80x24.txt" in page


def test_the_site_navigation_leaves_out_pages_not_written_yet(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    (tmp_path / "index.md").write_text("# Home\n", encoding="utf-8")
    nav = [{"Home": "index.md"}, {"Server": "server.md"},
           {"API": [{"Guide": "api.md"}, {"Home again": "index.md"}]}]
    config = hooks.on_config({"nav": nav, "docs_dir": str(tmp_path)})
    assert config["nav"] == [{"Home": "index.md"}, {"API": [{"Home again": "index.md"}]}]


@pytest.mark.parametrize("page", ["envs.md", "training.md"])
def test_the_research_pages_install_alike(page: str) -> None:
    """#36: envs.md said ``pip install 'cardtable[rl]'``, training.md only
    ``pip install -e '.[rl]'``: each says both, from a package index and from a clone."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert "pip install 'cardtable[rl]'" in text and "pip install -e '.[rl]'" in text
    assert "pip install 'cardtable[vector" in text and "pip install -e '.[vector" in text


def test_the_readme_commands_run_as_written_after_its_install_line() -> None:
    """The install line makes ``.venv`` and does not activate it: a fenced command of the
    README is ``.venv/bin/cardtable ...``, or its block activates the venv first (issue 37,
    defect 18: "Play in the browser" said ``cardtable serve --open``, "command not
    found" when copied)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python3 -m venv .venv && .venv/bin/pip install -e ." in text
    bare = []
    for block in re.findall(r"```(?:bash|sh)\n(.*?)```", text, flags=re.S):
        active = False
        for line in block.splitlines():
            command = line.split(" #")[0].strip()
            if command in (". .venv/bin/activate", "source .venv/bin/activate"):
                active = True
            elif re.match(r"(cardtable|python3? -m cardtable)\b", command) and not active:
                bare.append(command)
    assert not bare, bare
    browser = re.search(r"## Play in the browser\n+```sh\n(.*?)\n", text)
    assert browser and browser.group(1).startswith(".venv/bin/cardtable serve --open")
