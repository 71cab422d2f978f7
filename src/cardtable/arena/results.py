"""The arena's results file: a JSON-lines file, the arena's header first, then one line
per game as it finishes, so that an arena cut short (Ctrl-C, a crash) resumes where it
stopped (``cardtable arena --resume FILE``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from cardtable.arena.runner import GameResult
from cardtable.arena.specs import BotSpec
from cardtable.core import OptionsError


def header(game: str, options: dict[str, Any], specs: Sequence[BotSpec], games: int,
           seed: int, budget: dict[str, Any] | None, max_actions: int | None,
           tasks: int) -> dict[str, Any]:
    """What identifies an arena: the first line of its results file."""
    return json.loads(json.dumps({
        "arena": 1, "game": game, "options": options, "bots": [asdict(s) for s in specs],
        "games": games, "seed": seed, "budget": budget or {}, "max_actions": max_actions,
        "tasks": tasks}))


def result_from_json(data: dict[str, Any]) -> GameResult:
    """A GameResult from its line in a results file."""
    return GameResult(data["index"], tuple(data["lineup"]), tuple(data["winners"]),
                      tuple(data["scores"]), data["actions"], data["finished"], data["deal"])


def read_results(path: Path) -> tuple[dict[str, Any], list[GameResult]]:
    """The header and the results of a results file (a last line cut short is skipped)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise OptionsError(f"cannot read {path}: {exc.strerror}") from None
    lines = text.splitlines()
    if not text.endswith("\n") and lines:
        lines.pop()  # cut short by a crash: that game is played again
    try:
        head = json.loads(lines[0]) if lines else None
        if not isinstance(head, dict) or head.get("arena") != 1:
            raise ValueError
        results = {r.index: r for r in (result_from_json(json.loads(line))
                                        for line in lines[1:] if line.strip())}
    except (ValueError, KeyError, TypeError):
        raise OptionsError(f"{path} is not an arena results file (written by --out)") from None
    return head, sorted(results.values(), key=lambda r: r.index)


class ResultsFile:
    """A JSON-lines results file: the header, then one line per game as it finishes."""

    def __init__(self, path: Path, head: dict[str, Any], resume: bool = False) -> None:
        self.path = path
        self.done: list[GameResult] = []
        if resume and path.exists():
            old, self.done = read_results(path)
            if old != head:
                changed = sorted(k for k in {*head, *old} if old.get(k) != head.get(k))
                verb = "differs" if len(changed) == 1 else "differ"
                raise OptionsError(f"{path} holds another arena ({', '.join(changed)} {verb}); "
                                   "resume with the command that wrote it")
            self._rewrite(head)
        else:
            if path.exists() and not resume and path.stat().st_size:
                raise OptionsError(f"{path} exists; continue it with --resume {path}, or "
                                   "choose another file")
            self._rewrite(head)
        self._file: IO[str] = path.open("a")

    def _rewrite(self, head: dict[str, Any]) -> None:
        """The header and the games kept so far (drops a line cut short)."""
        lines = [head, *(asdict(r) for r in self.done)]
        try:
            self.path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        except OSError as exc:
            raise OptionsError(f"cannot write {self.path}: {exc.strerror}") from None

    def add(self, result: GameResult) -> None:
        self._file.write(json.dumps(asdict(result)) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
