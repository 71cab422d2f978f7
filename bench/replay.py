"""How long ``cardtable replay FILE`` takes to show its first screen, in a real terminal.

    python bench/replay.py FILE [FILE ...]          # seconds until "Move 0/N" shows
    python bench/replay.py --longest DIR            # the record of DIR with most actions

The command runs in a pseudo-terminal (pexpect) as a person starts it; the clock runs
from the spawn to the first screen's "Move 0/..." line. The processor time the command
used until then is given too: on a busy machine it is the steadier figure.
``cardtable --version`` in the same terminal is the baseline: what starting Python and
the package costs.

The issue's yardstick: the longest record of
``cardtable simulate drawbridge --games 200 --seed 3 --save-records DIR``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import pexpect

CARDTABLE = str(Path(sys.executable).parent / "cardtable")
#: the first screen's "Move 0/N" line (the number in bold)
FIRST_SCREEN = r"Move (\x1b\[[0-9;]*m)*0/"
ENV = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "32"}


def cpu_seconds(pid: int) -> float:
    """The processor time (user and system) a process has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_screen(*args: str, expect: str) -> tuple[float, float]:
    """Wall-clock and processor seconds until ``expect`` shows."""
    start = time.perf_counter()
    child = pexpect.spawn(CARDTABLE, list(args), env=ENV, dimensions=(32, 110),
                          encoding="utf-8", timeout=120)
    child.expect(expect)
    seconds, cpu = time.perf_counter() - start, cpu_seconds(child.pid)
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    return seconds, cpu


def median_run(runs: int, *args: str, expect: str) -> tuple[float, float]:
    results = [first_screen(*args, expect=expect) for _ in range(runs)]
    return (statistics.median(r[0] for r in results),
            statistics.median(r[1] for r in results))


def longest(directory: Path) -> Path:
    return max(directory.glob("*.json"),
               key=lambda p: len(json.loads(p.read_text())["actions"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--longest", type=Path, metavar="DIR")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    files = list(args.files) + ([longest(args.longest)] if args.longest else [])
    base, base_cpu = median_run(args.runs, "--version", expect="cardtable")
    print(f"baseline: cardtable --version in {base:.2f} s ({base_cpu:.2f} s of processor)")
    for path in files:
        actions = len(json.loads(path.read_text())["actions"])
        seconds, cpu = median_run(args.runs, "replay", str(path), expect=FIRST_SCREEN)
        print(f"{path.name}: {actions} actions, first screen in {seconds:.2f} s "
              f"({cpu:.2f} s of processor)")


if __name__ == "__main__":
    main()
