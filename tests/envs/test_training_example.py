"""The training guide's code runs (with tiny settings)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("gymnasium",
                    reason="the rl extra is not installed: pip install 'cardtable[rl]'")

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "training.md"


def test_the_training_guide_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert code is not None
    namespace: dict[str, object] = {"__name__": "training_guide"}
    exec(compile(code.group(1), str(GUIDE), "exec"), namespace)
    namespace["main"](episodes=3, games=2)  # type: ignore[operator]
    out = capsys.readouterr().out
    assert "vs random" in out and "vs heuristic" in out and "weights:" in out
