"""A plain install works: every command the README and the docs show runs after the
README's ``pip install -e .`` in a fresh virtual environment, with no extra.

The checkout's files (as git lists them) are copied to a temporary folder and installed
there into a new ``python -m venv``; pip finds the dependencies as it is configured
(``PIP_INDEX_URL``, or offline ``PIP_NO_INDEX=1 PIP_FIND_LINKS=WHEELS``). Then every
``cardtable ...`` and ``python -m cardtable...`` line of README.md and docs/*.md is run to
``--help``, a few commands further (``play --connect`` reaches for a server), and every
module of the package is imported but those of the extras: none may fail on a missing
module (``play --connect`` did: httpx was only in the test extra).
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

#: modules that need an extra (pyproject.toml), by name prefix: the import sweep skips them
NEEDS_AN_EXTRA = {
    "cardtable.envs": "rl",  # PettingZoo, Gymnasium, NumPy (and openspiel for .openspiel)
    "cardtable.vector": "vector",  # NumPy and numba
    "cardtable.train.actor_critic": "vector and rl",  # the batched engine and its env
    "cardtable.store.migrations": "alembic's own scripts, run by alembic",
}
#: documented commands that need more than a plain install, and what they need
NOT_FOR_A_PLAIN_INSTALL = {
    "cardtable.web.catalogs": "the test extra (babel), for translators",
    "cardtable.vector.warm": "the vector extra (numba), whose kernels it compiles",
}
MISSING = ("ModuleNotFoundError", "No module named")


def code_lines(text: str) -> list[str]:
    """The lines of a page's fenced code blocks and its inline code spans."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            out.append(line.split(" #")[0])
        else:
            out += re.findall(r"`([^`]+)`", line)
    return out


def documented_commands() -> set[tuple[str, ...]]:
    """The commands the README and the docs show, each as its words up to its first
    option or placeholder: ("cardtable", "db", "status"), ("-m", "cardtable.train...")."""
    found: set[tuple[str, ...]] = set()
    command_at = re.compile(r"(?:^\s*|&&\s*|\$\s*|bin/)"  # a command, not prose or Python
                            r"(cardtable|python3? -m cardtable[a-z_.]*)(?=\s|$)(.*)")
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in code_lines(page.read_text(encoding="utf-8")):
            match = command_at.search(line)
            if match is None:
                continue
            head, rest = match.groups()
            if head != "cardtable":
                found.add(("-m", head.split()[-1]))
                continue
            words = ["cardtable"]
            for word in rest.split():
                if not re.fullmatch(r"[a-z][a-z0-9_]*", word):
                    break
                words.append(word)
            found.add(tuple(words))
    return found


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the checkout installed as the README says."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to copy")
    base = tmp_path_factory.mktemp("install")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=True)
    checkout = base / "checkout"
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, checkout / name)
    env = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    pip = subprocess.run([str(env / "bin" / "pip"), "install", "-q", "-e", str(checkout)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return env


def run(venv: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    program = (str(venv / "bin" / "cardtable"), *args[1:]) if args[0] == "cardtable" \
        else (str(venv / "bin" / "python"), *args)
    # outside the checkout, so that only the installed package can be imported
    return subprocess.run(program, capture_output=True, text=True, timeout=timeout,
                          cwd=venv, env={"PATH": f"{venv / 'bin'}:/usr/bin:/bin",
                                         "HOME": str(venv), "XDG_DATA_HOME": str(venv)})


def test_the_docs_show_the_commands_this_test_runs() -> None:
    commands = documented_commands()
    assert ("cardtable", "play", "sequence") in commands
    assert ("cardtable", "db", "status") in commands
    assert ("-m", "cardtable.train.evolve") in commands
    assert {c[1] for c in commands if c[0] == "cardtable" and len(c) > 1} >= {
        "arena", "db", "games", "play", "rules", "serve", "simulate"}


def test_every_documented_command_runs_to_its_help(venv: Path) -> None:
    failures = []
    for command in sorted(documented_commands()):
        if command[0] == "-m" and command[1] in NOT_FOR_A_PLAIN_INSTALL:
            continue
        out = run(venv, *command, "--help")
        if out.returncode != 0 or any(m in out.stdout + out.stderr for m in MISSING):
            failures.append(f"{' '.join(command)} --help: {out.returncode}\n{out.stderr}")
    assert not failures, "\n".join(failures)


def test_commands_run_past_their_help(venv: Path) -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    connect = run(venv, "cardtable", "play", "--connect", f"http://127.0.0.1:{port}/t/abc")
    assert connect.returncode != 0 and "cannot reach" in connect.stderr, connect.stderr
    for command in (["games"], ["rules", "sequence"],
                    ["simulate", "sequence", "--games", "2", "--seed", "1"],
                    ["arena", "sequence", "--bots", "heuristic,random", "--games", "2"],
                    ["db", "status", "--db", f"sqlite:///{venv / 'tables.db'}"]):
        out = run(venv, "cardtable", *command)
        assert not any(m in out.stdout + out.stderr for m in MISSING), out.stderr
        assert out.returncode == 0, f"cardtable {' '.join(command)}: {out.stderr}"


def test_every_module_imports_but_those_of_the_extras(venv: Path) -> None:
    sweep = (
        "import importlib, pathlib, sys\n"
        "import cardtable\n"
        "root = pathlib.Path(cardtable.__file__).parent\n"
        "skip = tuple(sys.argv[1:])\n"
        "for path in sorted(root.rglob('*.py')):\n"
        "    parts = ['cardtable', *path.relative_to(root).with_suffix('').parts]\n"
        "    if parts[-1] == '__init__': parts.pop()\n"
        "    name = '.'.join(parts)\n"
        "    if parts[-1] == '__main__' or name.startswith(skip): continue\n"
        "    try: importlib.import_module(name)\n"
        "    except ModuleNotFoundError as exc: print(name, 'needs', exc.name)\n"
    )
    out = run(venv, "-c", sweep, *NEEDS_AN_EXTRA)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "", out.stdout
