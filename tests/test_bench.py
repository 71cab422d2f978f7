"""Every benchmark in bench/ runs end to end on a tiny budget, and says what it measures.

``TINY`` holds one tiny run per script with what its report must show;
``test_every_benchmark_has_a_tiny_run`` fails when a script of bench/ has none.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardtable

# each benchmark runs as its own process (some start servers): the full suite's, not the
# fast loop's
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

Report = Any


def run_bench(script: str, *args: str, json_lines: bool = False) -> Report:
    """The JSON report of ``bench/script args... --json`` (a list with ``json_lines``)."""
    out = subprocess.run([sys.executable, str(BENCH / script), *args, "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, f"{script} exited {out.returncode}:\n{out.stderr[-4000:]}"
    if json_lines:
        return [json.loads(line) for line in out.stdout.splitlines()]
    return json.loads(out.stdout)


# ---------------------------------------------------------------- what each report shows


def agreement(report: Report) -> None:
    assert report["positions"] == report["agree"] + report["departures"] > 0
    assert 0.0 <= report["agreement"] <= 1.0
    assert report["within_10_percent"] <= report["departures"]


def arena(report: Report) -> None:
    assert report["games"] == 4 and report["plain_games_per_s"] > 0
    assert [(r["executor"], r["workers"]) for r in report["runs"]] == [("local", 1), ("local", 2)]
    assert all(r["same_results"] and r["games_per_s"] > 0 for r in report["runs"])


def arrange(report: Report) -> None:
    assert report["choice_call_us"] > 0 and len(report["families"]) == 5
    for row in report["families"]:
        assert row["cold"]["median_us"] > 0 and row["warm"]["median_us"] > 0
        assert row["warm_median_in_choice_calls"] >= 1


def bots(rows: Report) -> None:
    (row,) = rows
    assert row["game"] == "sequence" and row["ismcts_iterations_per_s"] > 0
    assert row["random_playout_steps_per_s"] > 0 and row["iteration_in_playout_steps"] > 0


def clairvoyance(report: Report) -> None:
    assert report["games"] == 2 and report["iterations"] == 10
    assert 0.0 <= report["honest"] <= 1.0 and 0.0 <= report["clairvoyant"] <= 1.0
    # the same tasks and seeds: only what the clairvoyant bot sees differs, and it changes
    # how the games go (a no-op clairvoyance would replay the honest games exactly)
    assert report["games_played_otherwise"] >= 1, report


def envs(rows: Report) -> None:
    (row,) = rows
    assert row["env_steps_per_s"] > 0 and row["engine_steps_per_s"] > 0
    # an env step is an engine step and more (0.1-0.3 of its speed); the two runs are
    # timed apart, so a burst of load on a busy machine may fall on one of them
    assert 0 < row["env_over_engine"] < 1.5
    # RLCard's figure only from a run that timed it
    assert (row["x_rlcard_gin_rummy"] is None) == (row["rlcard_gin_rummy_steps_per_s"] is None)


def par_loss(report: Report) -> None:
    rows = {row["kind"]: row for row in report["rows"]}
    assert set(rows) == {"random", "perfect"} and all(r["deals"] == 2 for r in rows.values())
    # the perfect bot loses nothing against par; the tricks lost are never negative
    assert rows["perfect"]["tricks_lost"]["mean"] == rows["perfect"]["chance_lost"]["mean"] == 0
    assert rows["random"]["tricks_lost"]["mean"] >= 0


def playouts(row: Report) -> None:
    assert row["steps_per_s"] > 0 and row["against_steps_per_s"] > 0 and row["ratio"] > 0


def replay(out: str) -> None:
    assert "baseline" in out and "g.json: 1 actions, first screen in" in out


def server(report: Report) -> None:
    assert report["clients"] in (3, 4) and report["accepted_moves"] > 0
    assert report["lost"] == 0 and report["duplicated"] == 0 and not report["errors"]
    assert report["latency_ms_p99"] >= report["latency_ms_p50"] > 0
    assert report["engine_ms_per_move"] > 0 and report["server_cpu_over_engine"] > 0


def server_pvp(report: Report) -> None:
    server(report)
    assert report["pvp"] and report["db"] == "sqlite-tmpfs" and report["bot"] is None
    # both seats are clients: every accepted move was a client's
    assert report["games_finished"] >= 1, report


def server_vs_bgio(report: Report) -> None:
    rows = {(row["clients"], row["store"]): row for row in report["summary"]}
    assert set(rows) == {(2, "memory")}
    for side in ("ours", "theirs"):
        row = rows[2, "memory"][side]
        assert row["moves_per_s"] > 0 and row["lost"] == row["errors"] == 0, report
    assert rows[2, "memory"]["moves_ratio"] > 0


def solver(report: Report) -> None:
    assert report["deals"] == 3 and report["engine"] == "python"
    for key in ("full", "par", "trick3", "last4_solver", "last4_brute_force", "ismcts_move"):
        assert report[key]["median_ms"] > 0


def vector(report: Report) -> None:
    assert [r["batch"] for r in report["batches"]] == [1, 16]
    assert report["scalar_steps_per_s"] > 0 and report["gym_env_steps_per_s"] > 0
    for row in report["batches"]:
        assert row["engine_steps_per_s"] > 0 and row["learner_steps_per_s"] > 0
        assert row["engine_x_scalar"] > 0
    assert report["memory_per_game"]["state_bytes"] > 0
    assert report["warm_up_seconds"] > 0


def jax_vector(report: Report) -> None:
    assert report["players"] == 2 and report["platform"] and report["device"]
    (row,) = report["batches"]
    assert row["batch"] == 4 and row["jax_steps_per_s"] > 0
    assert row["numba_one_core_steps_per_s"] > 0


def sequence_heuristic(report: Report) -> None:
    assert report["rows"] == 16 and report["players"] == 2
    assert report["batched_moves_per_second"] > 0 and report["scalar_moves_per_second"] > 0


def heuristics(rows: Report) -> None:
    """One line a game with a batched heuristic, each measured beside its scalar bot."""
    assert [r["game"] for r in rows] == ["sequence", "threethirteen", "drawbridge"]
    for row in rows:
        sequence_heuristic(row)
        assert row["bot"] == "heuristic-v1" and row["ratio"] > 0


def views(report: Report) -> None:
    # the claim of bench/views.py and docs/api.md: a view without the history, and an
    # observation, cost the same at move 10,000 as at move 10 (within 2x) ...
    first, last = report["marks"]
    assert (first["move"], last["move"]) == (10, 10_000)
    for key in ("view", "observation"):
        assert last[f"{key}_us"] <= 2 * first[f"{key}_us"], (key, report)
    # ... while the view with the history grows with it
    assert last["view_with_history_us"] > 10 * first["view_with_history_us"], report


def threethirteen_lookahead(rows: Report) -> None:
    assert [r["round"] for r in rows] == [1, 3]
    for row in rows:
        assert row["players"] == 2
        for phase in ("draw", "discard"):
            assert row[f"{phase}_lookahead_ms"] > 0 and row[f"{phase}_heuristic_ms"] > 0


def value_search(report: Report) -> None:
    assert report["games"] == 2 and report["iterations"] == 10 and report["order"] == "value"
    for bot in ("search", "trained"):
        row = report[bot]
        assert 0.0 <= row["paired_low"] <= row["win_rate"] <= row["paired_high"] <= 1.0


def rollouts(report: Report) -> None:
    assert report["games"] == 2 and (report["candidates"], report["samples"]) == (2, 2)
    for bot in ("rollouts", "trained"):
        row = report[bot]
        assert 0.0 <= row["paired_low"] <= row["win_rate"] <= row["paired_high"] <= 1.0
    assert report["better"] + report["worse"] <= report["games"]


SLOW = pytest.mark.slow
#: boardgame.io's benchmark folder (bench/bgio unless CARDTABLE_BGIO names another) once
#: ``npm ci`` has installed boardgame.io there: the comparison's tiny run is skipped before
BGIO = os.environ.get("CARDTABLE_BGIO", str(BENCH / "bgio"))
#: script: (its tiny arguments, whether it prints JSON lines, the check, marks)
TINY: dict[str, tuple[list[str], bool, Callable[[Report], None], list[Any]]] = {
    "agreement.py": (["sequence", "--games", "1", "--iterations", "20"], False, agreement, []),
    "arena.py": (["--games", "4", "--executors", "local", "--workers", "1", "2"], False, arena,
                 []),
    "arrange.py": (["--hands", "5", "--warmup", "5"], False, arrange, []),
    "bots.py": (["sequence", "--iterations", "20", "--games", "1", "--max-moves", "6",
                 "--baseline-seconds", "0.1"], True, bots, []),
    "clairvoyance.py": (["drawbridge", "--deals", "1", "--iterations", "10", "--workers", "1"],
                        False, clairvoyance, []),
    "envs.py": (["sequence", "--seconds", "0.1", "--runs", "1"], True, envs, []),
    "jax_vector.py": (["--sizes", "4", "--seconds", "0.05", "--runs", "1", "--scan", "2",
                       "--no-pgx"], False, jax_vector, [SLOW]),
    "par_loss.py": (["--kinds", "random", "perfect", "--deals", "2"], False, par_loss, []),
    "playouts.py": (["threethirteen", "--players", "2", "--seconds", "0.05", "--runs", "2",
                     "--against", str(ROOT / "src")], False, playouts, []),
    "rollouts.py": (["--deals", "1", "--candidates", "2", "--samples", "2", "--workers", "1"],
                    False, rollouts, []),
    "server.py": (["--clients", "3", "--seconds", "4"], False, server, [SLOW]),
    "server_vs_bgio.py": (["--bgio", BGIO, "--clients", "2", "--seconds", "2", "--warmup", "1",
                           "--stores", "memory"], False, server_vs_bgio, [SLOW]),
    "sequence_heuristic.py": (["--rows", "16", "--seconds", "0.05"], False,
                              sequence_heuristic, []),
    "heuristics.py": (["--rows", "16", "--seconds", "0.05"], True, heuristics, []),
    "threethirteen_lookahead.py": (["--deals", "1", "--rounds", "1", "3"], True,
                                   threethirteen_lookahead, []),
    "solver.py": (["--deals", "3", "--ismcts-moves", "1", "--iterations", "10", "--engine",
                   "python"], False, solver, []),
    "vector.py": (["--sizes", "1", "16", "--seconds", "0.05", "--runs", "1", "--gym-envs", "8"],
                  False, vector, []),
    "value_search.py": (["--deals", "1", "--iterations", "10", "--workers", "1"], False,
                        value_search, []),
    "views.py": (["--moves", "10", "10000", "--window", "300", "--repeats", "3"], False, views,
                 []),
    # replay.py takes record files and prints no JSON: test_replay_bench below
    "replay.py": ([], False, replay, [SLOW]),
    # webload.py loads the page of a running server in chromium: tests/web/test_webload.py
    "webload.py": ([], False, replay, []),
}


@pytest.mark.parametrize("script", [pytest.param(s, marks=TINY[s][3]) for s in TINY
                                    if s not in ("replay.py", "webload.py")])
def test_a_benchmark_runs_on_a_tiny_budget(script: str) -> None:
    args, json_lines, check, _ = TINY[script]
    if script == "envs.py":
        pytest.importorskip("pettingzoo")
    if script == "server_vs_bgio.py" and not (
            shutil.which("node") and (Path(BGIO) / "node_modules" / "boardgame.io").is_dir()):
        pytest.skip("boardgame.io is not installed: cd bench/bgio && npm ci (Node.js >= 18)")
    if script == "jax_vector.py":
        pytest.importorskip("jax", reason="the jax extra: pip install 'cardtable[jax]'")
    if script in ("vector.py", "sequence_heuristic.py", "heuristics.py", "jax_vector.py",
                  "rollouts.py"):
        pytest.importorskip("numba", reason="the vector extra: pip install 'cardtable[vector]'")
    check(run_bench(script, *args, json_lines=json_lines))


def test_the_vector_bench_runs_for_three_thirteen() -> None:
    pytest.importorskip("numba", reason="the vector extra: pip install 'cardtable[vector]'")
    args, _, check, _ = TINY["vector.py"]
    report = run_bench("vector.py", *args, "--game", "threethirteen")
    check(report)
    assert report["game"] == "threethirteen"


def test_the_vector_bench_warms_up_before_it_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """#36: every kernel measured, the Gymnasium environment and the scalar engine run once,
    untimed, before the first timing (numba compiles a kernel at its first call)."""
    pytest.importorskip("numba", reason="the vector extra: pip install 'cardtable[vector]'")
    monkeypatch.syspath_prepend(str(BENCH))
    bench = importlib.import_module("vector")
    events: list[str] = []
    real_warm_up, real_timed, real_run_once = bench.warm_up, bench.timed, bench.run_once

    def warm_up(*args: Any) -> float:
        events.append("warm up")
        return real_warm_up(*args)

    def timed(*args: Any) -> float:
        events.append("timed")
        return real_timed(*args)

    def run_once(*args: Any) -> Any:
        events.append("scalar")
        return real_run_once(*args)

    monkeypatch.setattr(bench, "warm_up", warm_up)
    monkeypatch.setattr(bench, "timed", timed)
    monkeypatch.setattr(bench, "run_once", run_once)
    report = bench.run(2, [1], 0.01, 1, 2, "sequence")
    first = events.index("warm up")
    assert first == 0 and "timed" in events[first + 1:] and events.count("warm up") == 1
    assert report["warm_up_seconds"] > 0


@pytest.mark.slow
def test_server_bench_two_clients_a_table() -> None:
    """--pvp: two load clients share each table, person against person, on SQLite in
    /dev/shm; nothing lost or duplicated (checked against every table's stored log)."""
    server_pvp(run_bench("server.py", "--pvp", "--clients", "4", "--seconds", "3",
                         "--warmup", "1", "--db", "sqlite-tmpfs"))


@pytest.mark.slow
def test_replay_bench_times_the_first_screen(tmp_path: Path) -> None:
    from cardtable import records

    state = cardtable.new_game("sequence").deal(seed=1)
    state.apply(state.legal_actions()[0])
    path = records.save(records.record_of(state), tmp_path / "g.json")
    out = subprocess.run([sys.executable, str(BENCH / "replay.py"), "--runs", "1", str(path)],
                         capture_output=True, text=True, check=True, timeout=300)
    replay(out.stdout)


def test_every_benchmark_has_a_tiny_run() -> None:
    scripts = {p.name for p in BENCH.glob("*.py") if not p.name.startswith("_")}
    assert scripts == set(TINY), "give every script of bench/ a tiny run in TINY"
