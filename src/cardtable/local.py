"""What cardtable takes from the machine it runs on: the time, and the user's data folder.

Examples:
    >>> len(now()), now().endswith("Z"), len(now(precise=True))
    (20, True, 27)
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def now(precise: bool = False) -> str:
    """The current UTC time as ISO 8601, to the second (``2025-01-31T18:04:05Z``: records),
    or ``precise``ly to the microsecond (``2025-01-31T18:04:05.123456Z``: the database,
    one stamp per move stored, so the text of the second is written once a second)."""
    global _second
    t = time.time()
    whole = int(t)
    second = _second
    if second[0] != whole:
        second = _second = (whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    if not precise:
        return second[1] + "Z"
    return f"{second[1]}.{int((t - whole) * 1_000_000):06d}Z"


#: the second ``now`` last wrote, and its text (one tuple: threads read it whole)
_second: tuple[int, str] = (-1, "")


def data_folder() -> Path:
    """cardtable's folder of the user's data (XDG): ``$XDG_DATA_HOME/cardtable``, else
    ``~/.local/share/cardtable``. Saved games, the terminal's seat tokens and the
    server's default SQLite database live there."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return Path(base) / "cardtable"
