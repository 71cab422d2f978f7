"""The packages of cardtable import each other in layers, with no cycle: the engine at
the bottom, then bots and records, the table, the arena, training and the front ends,
the command line on top.

The graph is read from the source (ast), every import counted, those inside functions
too (a lazy import is still a dependency), and the modules that ``importlib.import_module``
or ``cardtable.game_adapter`` are handed by name. Its units are the packages and
top-level modules ``cardtable.X``; the engine (``cardtable`` itself, ``core``, ``cards``
and the game packages) counts as one unit, the bottom, which imports nothing above it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "cardtable"
#: the rules engine: one unit, the bottom layer
ENGINE = "engine"
ENGINE_PARTS = {"cardtable", "core", "cards", "picture", "drawbridge", "sequence",
                "threethirteen"}


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit(module: str, src: Path = SRC) -> str | None:
    """The unit of ``module`` ("cardtable.bots.ismcts" -> "bots"), None outside cardtable;
    a name imported from ``cardtable`` itself that is not a module belongs to the engine."""
    package = src / "cardtable"
    parts = module.split(".")
    if parts[0] != "cardtable":
        return None
    if len(parts) == 1:
        return ENGINE
    top = parts[1]
    if not ((package / top).is_dir() or (package / f"{top}.py").exists()):
        return ENGINE  # from cardtable import OptionsError
    return ENGINE if top in ENGINE_PARTS else top


def imported(path: Path, src: Path = SRC) -> Iterator[tuple[str, int]]:
    """Every module ``path`` imports (with the line), wherever the import stands."""
    name = module_name(path, src)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield module, node.lineno
            for alias in node.names:  # from cardtable import bots: the module cardtable.bots
                yield f"{module}.{alias.name}", node.lineno
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "game_adapter"):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                            and arg.value.startswith("cardtable."):
                        yield arg.value, node.lineno


def graph(src: Path = SRC) -> dict[str, dict[str, str]]:
    """unit -> {unit it imports: where (file:line, the first seen)}."""
    edges: dict[str, dict[str, str]] = {}
    for path in sorted((src / "cardtable").rglob("*.py")):
        source = unit(module_name(path, src), src)
        assert source is not None
        out = edges.setdefault(source, {})
        for module, line in imported(path, src):
            target = unit(module, src)
            if target is not None and target != source:
                out.setdefault(target, f"{path.relative_to(src)}:{line}")
    return edges


def cycles(edges: dict[str, dict[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_between_packages() -> None:
    edges = graph()
    problems = []
    for component in cycles(edges):
        where = [f"{a} -> {b} ({edges[a][b]})" for a in component for b in component
                 if b in edges.get(a, {})]
        problems.append(f"cycle {' / '.join(component)}: " + "; ".join(where))
    assert not problems, "\n".join(problems)


def test_the_engine_imports_nothing_above_it() -> None:
    above = graph()[ENGINE]
    assert not above, f"the engine imports {above}"


def test_the_arena_and_training_sit_above_the_table_and_the_bots() -> None:
    """bots/ holds players only: they read the engine (the batched engine, the observation
    encoders), never the table, the arena or training, which build on them."""
    edges = graph()
    assert set(edges["bots"]) <= {ENGINE, "vector", "encoders"}, edges["bots"]
    assert {"table", "bots"} <= set(edges["arena"]) and "bots" in edges["train"]
    for low in ("bots", "table", "records", "vector", "envs"):
        assert not {"arena", "train"} & set(edges.get(low, {})), edges[low]


@pytest.mark.parametrize("game", sorted(ENGINE_PARTS - {"cardtable", "core", "cards",
                                                         "picture"}))
def test_a_game_package_imports_in_one_direction(game: str) -> None:
    """Inside a game package no module imports another that imports it back, typing-only
    and lazy imports counted: game.py holds the rules and imports none of view.py,
    deduce.py and positions.py, which import it (``core.part`` finds them for it)."""
    modules = {module_name(path): path for path in sorted((PACKAGE / game).glob("*.py"))}
    edges = {name: {target: f"{path.name}:{line}" for target, line in imported(path)
                    if target in modules and target != name}
             for name, path in modules.items()}
    assert not cycles(edges), edges
    game_module = f"cardtable.{game}.game"
    assert not {m.rpartition(".")[2] for m in edges[game_module]} & {
        "view", "deduce", "positions", "picture"}, edges[game_module]


def test_the_reader_finds_a_cycle_through_lazy_relative_and_named_imports(tmp_path: Path
                                                                          ) -> None:
    """The tests above would fail on a cycle: an import inside a function, a relative
    import and a module named to importlib all count; the engine is one unit."""
    (tmp_path / "cardtable" / "a").mkdir(parents=True)
    (tmp_path / "cardtable" / "__init__.py").write_text("from cardtable.core import X\n")
    (tmp_path / "cardtable" / "core.py").write_text("import cardtable\n")
    (tmp_path / "cardtable" / "a" / "__init__.py").write_text("")
    (tmp_path / "cardtable" / "a" / "m.py").write_text("def f():\n    from ..b import x\n")
    (tmp_path / "cardtable" / "b.py").write_text(
        "import importlib\nfrom cardtable import OptionsError\n"
        "importlib.import_module('cardtable.a.m')\n")
    edges = graph(tmp_path)
    assert edges == {"engine": {}, "a": {"b": "cardtable/a/m.py:2"},
                     "b": {"engine": "cardtable/b.py:2", "a": "cardtable/b.py:3"}}
    assert cycles(edges) == [["a", "b"]]
    assert cycles({"a": {"b": ""}, "b": {"c": ""}, "c": {}}) == []
    assert "cardtable.bots" in {m for m, _ in imported(PACKAGE / "table.py")}  # lazy


def test_every_server_module_holds_one_job_in_at_most_450_lines() -> None:
    """docs/architecture.md: the server is split by job; a module past 450 lines has
    gathered a second one."""
    paths = sorted((SRC / "cardtable" / "server").glob("*.py"))
    assert len(paths) > 10
    long = {path.name: n for path in paths
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 450}
    assert not long, f"split these by job: {long}"
