"""The rules engine, the bots and the command line never import NumPy or the RL libraries."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
import cardtable, cardtable.bots, cardtable.cli
for name in cardtable.game_names():
    state = cardtable.new_game(name).deal(seed=1)
    state.apply(cardtable.bots.make("random", seed=1).choose(state))
heavy = sorted(m for m in ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")
               if m in sys.modules)
print(",".join(heavy))
"""


def test_the_engine_does_not_import_numpy_or_rl_libraries() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == ""
