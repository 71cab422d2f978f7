"""Speed of Sequence's batched heuristic-v1 (``cardtable.vector.sequence_heuristic``) beside
the scalar bot, in one run: moves per second of heuristic self-play.

    python bench/sequence_heuristic.py                      # 2 players, 4,096 rows, 3 s each
    python bench/sequence_heuristic.py --rows 1024 --seconds 5 --players 4

``bench/heuristics.py`` for Sequence and ``heuristic-v1`` (one core; see its docstring);
``python bench/heuristics.py`` measures every game's in one run.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from heuristics import main  # noqa: E402

if __name__ == "__main__":
    main(games=("sequence",), kind="heuristic-v1")
