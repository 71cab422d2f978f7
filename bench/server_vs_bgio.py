"""The table server against boardgame.io, move for move, interleaved on one machine.

    python bench/server_vs_bgio.py                      # 10/50/200 clients, 20 s runs
    python bench/server_vs_bgio.py --reps 3 --json
    python bench/server_vs_bgio.py --clients 10 --seconds 5 --stores memory
    python bench/server_vs_bgio.py --bgio PATH          # boardgame.io's benchmark elsewhere

``--bgio`` is the folder of boardgame.io's benchmark (``server.js``, ``load.js``,
``game.js`` and the ``package.json`` that pins boardgame.io 0.50.2; default bench/bgio,
docs/server.md says what it plays); when boardgame.io is not installed there, ``npm ci``
runs there once (Node.js 18 or later). Both sides play the same
way: N clients, two at each table (person against person), tables played to the end and
the next one started, for ``--warmup`` then ``--seconds`` seconds. Ours is
``bench/server.py --pvp`` (Sequence, both seats played by load clients); theirs is its
``load.js`` against its ``server.js``. For each client count and store the two run one
after the other (ours, theirs, ours, theirs ...: the machine's load falls on both), each
against a fresh server:

- ``memory``: ours on SQLite with its file in /dev/shm (``--db sqlite-tmpfs``: every move
  still stored; the server has no store without a database), theirs on boardgame.io's
  in-memory storage;
- ``persist``: ours on a SQLite file (``--db sqlite``, or ``--persist-db postgresql``),
  theirs on FlatFile (node-persist, its default write queue).

It prints moves a second (accepted: acknowledged to the moving client inside the window),
p50 and p99 latency from sending a move to its acknowledgement, lost moves and errors,
per run and as the median over ``--reps`` with the ratios ours / theirs, and the load
average before each run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _args import positive
from cardtable.store import pgtemp

ROOT = Path(__file__).resolve().parent.parent
#: store: (our --db, their server.js --storage)
STORES = {"memory": ("sqlite-tmpfs", "memory"), "persist": ("sqlite", "flatfile")}


def npm_ci(anchor: Path) -> None:
    """``npm ci`` in the anchor's folder, once (when boardgame.io is not installed there)."""
    if (anchor / "node_modules" / "boardgame.io").is_dir():
        return
    if shutil.which("npm") is None:
        sys.exit("npm is not on PATH: install Node.js 18 or later")
    done = subprocess.run(["npm", "ci"], cwd=anchor, capture_output=True, text=True,
                          timeout=600, check=False)
    if done.returncode != 0:
        sys.exit(f"npm ci failed in {anchor}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def ours(clients: int, db: str, args: argparse.Namespace) -> dict[str, Any]:
    """One run of bench/server.py --pvp."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "server.py"), "--pvp", "--clients",
         str(clients), "--seconds", str(args.seconds), "--warmup", str(args.warmup),
         "--db", db, "--json"],
        capture_output=True, text=True, timeout=args.warmup + args.seconds + 240,
        check=False)
    if out.returncode != 0:
        sys.exit(f"bench/server.py failed:\n{out.stderr[-3000:]}")
    report: dict[str, Any] = json.loads(out.stdout.splitlines()[-1])
    return {"moves_per_s": report["client_moves_per_s"],
            "p50_ms": report["latency_ms_p50"], "p99_ms": report["latency_ms_p99"],
            "lost": report["lost"] + report["duplicated"],
            "errors": sum(report["errors"].values()),
            "games_per_s": round(report["games_finished"] / (args.warmup + args.seconds), 1),
            "server_cpu_share": report["server_cpu_share"],
            "client_cpu_share": report["client_cpu_share"], "db": db}


def theirs(clients: int, storage: str, args: argparse.Namespace) -> dict[str, Any]:
    """One run of the anchor: a fresh server.js, then load.js against it."""
    anchor = args.bgio
    port = pgtemp.free_port()
    with tempfile.TemporaryDirectory(prefix="ct-bgio-") as folder:
        log_path = Path(folder) / "server.log"
        with open(log_path, "wb") as log:
            server = subprocess.Popen(
                ["node", "server.js", "--port", str(port), "--storage", storage,
                 "--lifetime", str(int(args.warmup + args.seconds + 90))],
                cwd=anchor, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while not log_path.read_text().startswith("READY"):
                if server.poll() is not None or time.monotonic() > deadline:
                    sys.exit("boardgame.io's server.js did not start:\n"
                             + log_path.read_text()[-2000:])
                time.sleep(0.1)
            out = subprocess.run(
                ["node", "load.js", "--server", f"http://127.0.0.1:{port}", "--clients",
                 str(clients), "--seconds", str(args.seconds), "--warmup", str(args.warmup)],
                cwd=anchor, capture_output=True, text=True,
                timeout=args.warmup + args.seconds + 60, check=False)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    lines = [line for line in out.stdout.splitlines() if line.startswith("RESULT ")]
    if out.returncode != 0 or not lines:
        sys.exit(f"boardgame.io's load.js failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    result = json.loads(lines[-1][len("RESULT "):])
    latency = result["latencyMs"]
    return {"moves_per_s": round(result["movesPerSec"], 1),
            "p50_ms": round(latency["p50"] or 0.0, 2), "p99_ms": round(latency["p99"] or 0.0, 2),
            "lost": result["lost"], "errors": result["errors"],
            "games_per_s": round(result["matchesPerSec"], 1),
            "server_cpu_share": round(result["cpuInWindowPct"]["server"] / 100, 2),
            "client_cpu_share": round(result["cpuInWindowPct"]["load"] / 100, 2),
            "storage": storage}


def summarize(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The median run of each side per (clients, store), and the ratios ours / theirs."""
    rows = []
    keys = sorted({(run["clients"], run["store"]) for run in runs},
                  key=lambda key: (list(STORES).index(key[1]), key[0]))
    for clients, store in keys:
        row: dict[str, Any] = {"clients": clients, "store": store}
        for side in ("ours", "theirs"):
            mine = [run for run in runs if (run["clients"], run["store"], run["side"])
                    == (clients, store, side)]
            row[side] = {key: statistics.median(run[key] for run in mine)
                         for key in ("moves_per_s", "p50_ms", "p99_ms")}
            row[side]["lost"] = sum(run["lost"] for run in mine)
            row[side]["errors"] = sum(run["errors"] for run in mine)
            row[side]["runs"] = len(mine)
        row["moves_ratio"] = round(row["ours"]["moves_per_s"]
                                   / max(row["theirs"]["moves_per_s"], 1e-9), 2)
        row["p99_ratio"] = round(row["ours"]["p99_ms"] / max(row["theirs"]["p99_ms"], 1e-9), 2)
        rows.append(row)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| clients | store | ours moves/s | theirs moves/s | ratio | ours p50 / p99 ms "
             "| theirs p50 / p99 ms | p99 ratio | lost+errors ours / theirs |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        o, t = row["ours"], row["theirs"]
        lines.append(
            f"| {row['clients']} | {row['store']} | {o['moves_per_s']:,.0f} "
            f"| {t['moves_per_s']:,.0f} | {row['moves_ratio']:.2f} "
            f"| {o['p50_ms']:.1f} / {o['p99_ms']:.1f} | {t['p50_ms']:.1f} / {t['p99_ms']:.1f} "
            f"| {row['p99_ratio']:.2f} | {o['lost'] + o['errors']} / "
            f"{t['lost'] + t['errors']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bgio", type=Path, default=ROOT / "bench" / "bgio",
                        help="the folder of boardgame.io's benchmark (server.js, load.js; "
                             "default bench/bgio)")
    parser.add_argument("--clients", type=positive, nargs="+", default=[10, 50, 200],
                        help="client counts to run, each even (two clients a table; "
                             "default 10 50 200)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="the measured window of each run (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds played before the window, not counted (default 3)")
    parser.add_argument("--reps", type=positive, default=1,
                        help="interleaved rounds (ours, theirs, ...); medians are printed "
                             "(default 1)")
    parser.add_argument("--stores", nargs="+", choices=list(STORES), default=list(STORES),
                        help="memory: ours on SQLite in /dev/shm against boardgame.io in "
                             "memory; persist: a SQLite file against FlatFile (default both)")
    parser.add_argument("--persist-db", default="sqlite", choices=["sqlite", "postgresql"],
                        help="our store for the persist runs (default sqlite)")
    parser.add_argument("--json", action="store_true",
                        help="also print every run and the summary as one JSON line")
    args = parser.parse_args()
    if any(n % 2 or n > 2000 for n in args.clients):
        parser.error("--clients are even numbers (two a table), at most 2000")
    if not (args.seconds > 0 and args.warmup >= 0 and args.seconds + args.warmup <= 90):
        parser.error("--warmup + --seconds is at most 90 (boardgame.io's load.js refuses more)")
    args.bgio = args.bgio.resolve()
    if not (args.bgio / "server.js").is_file() or not (args.bgio / "load.js").is_file():
        parser.error(f"{args.bgio} has no server.js and load.js of boardgame.io's benchmark")
    if shutil.which("node") is None:
        sys.exit("node is not on PATH: install Node.js 18 or later")
    npm_ci(args.bgio)
    node = subprocess.run(["node", "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()
    runs: list[dict[str, Any]] = []
    for rep in range(args.reps):
        for clients in args.clients:
            for store in args.stores:
                db, storage = STORES[store]
                if store == "persist":
                    db = args.persist_db
                for side in ("ours", "theirs"):
                    load = round(os.getloadavg()[0], 2)
                    result = (ours(clients, db, args) if side == "ours"
                              else theirs(clients, storage, args))
                    run = {"rep": rep + 1, "clients": clients, "store": store, "side": side,
                           "load_before": load, **result}
                    runs.append(run)
                    if not args.json:
                        print(f"rep {rep + 1} {clients:>4} clients {store:8} {side:6} "
                              f"{run['moves_per_s']:>8.1f} moves/s  p99 {run['p99_ms']:.1f} ms"
                              f"  CPU server {run['server_cpu_share']:.2f} load "
                              f"{run['client_cpu_share']:.2f} cores  (load {load})", flush=True)
    rows = summarize(runs)
    if args.json:
        print(json.dumps({"runs": runs, "summary": rows, "node": node,
                          "cores": os.cpu_count(), "seconds": args.seconds,
                          "warmup": args.warmup}))
    else:
        print(f"\nmedians of {args.reps} run(s) each; {args.warmup:g} s warm-up, "
              f"{args.seconds:g} s window; {node}, {os.cpu_count()} cores")
        print(table(rows))


if __name__ == "__main__":
    main()
