"""The benchmark scripts run end to end on a tiny budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_clairvoyance_plays_the_same_games_honestly_and_clairvoyantly() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "clairvoyance.py"), "drawbridge", "--deals", "1",
         "--iterations", "10", "--workers", "1", "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout)
    assert report["games"] == 2 and report["iterations"] == 10
    assert 0.0 <= report["honest"] <= 1.0 and 0.0 <= report["clairvoyant"] <= 1.0
    assert report["clairvoyant_better"] + report["clairvoyant_worse"] <= 2


def test_agreement_counts_every_position_with_a_choice() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "agreement.py"), "sequence", "--games", "1",
         "--iterations", "20", "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout)
    assert report["positions"] == report["agree"] + report["departures"] > 0
    assert 0.0 <= report["agreement"] <= 1.0
    assert report["within_10_percent"] <= report["departures"]


def test_views_reports_flat_view_times() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "views.py"), "--moves", "10", "300", "--window", "10",
         "--repeats", "2", "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout)
    marks = report["marks"]
    assert [m["move"] for m in marks] == [10, 300]
    assert marks[0]["view_ratio"] == 1.0
    for m in marks:
        assert m["view_us"] > 0 and m["observation_us"] > 0 and m["view_with_history_us"] > 0


def test_arena_bench_reports_games_per_second_and_the_same_results() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "arena.py"), "--games", "4", "--executors", "local",
         "--workers", "1", "2", "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout)
    assert report["games"] == 4 and report["plain_games_per_s"] > 0
    assert [(r["executor"], r["workers"]) for r in report["runs"]] == [("local", 1), ("local", 2)]
    assert all(r["same_results"] and r["games_per_s"] > 0 for r in report["runs"])


@pytest.mark.slow
def test_server_bench_plays_and_loses_nothing() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "server.py"), "--clients", "3", "--seconds", "4",
         "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout)
    assert report["clients"] == 3 and report["accepted_moves"] > 0
    assert report["lost"] == 0 and report["duplicated"] == 0 and not report["errors"]
    assert report["latency_ms_p99"] >= report["latency_ms_p50"] > 0


def test_playouts_against_another_tree_reports_a_ratio() -> None:
    src = Path(__file__).resolve().parent.parent / "src"
    out = subprocess.run(
        [sys.executable, str(BENCH / "playouts.py"), "threethirteen", "--players", "2",
         "--seconds", "0.05", "--runs", "2", "--against", str(src), "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    row = json.loads(out.stdout)
    assert row["steps_per_s"] > 0 and row["against_steps_per_s"] > 0 and row["ratio"] > 0


@pytest.mark.slow
def test_replay_bench_times_the_first_screen(tmp_path: Path) -> None:
    from cardtable import records

    state = cardtable.new_game("sequence").deal(seed=1)
    state.apply(state.legal_actions()[0])
    path = records.save(records.record_of(state), tmp_path / "g.json")
    out = subprocess.run([sys.executable, str(BENCH / "replay.py"), "--runs", "1", str(path)],
                         capture_output=True, text=True, check=True, timeout=300)
    assert "baseline" in out.stdout and "g.json: 1 actions, first screen in" in out.stdout


def test_solver_bench_times_the_solver_against_its_baselines() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "solver.py"), "--deals", "3", "--ismcts-moves", "1",
         "--iterations", "10", "--engine", "python", "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(out.stdout)
    assert report["deals"] == 3 and report["engine"] == "python"
    for key in ("full", "par", "trick3", "last4_solver", "last4_brute_force", "ismcts_move"):
        assert report[key]["median_ms"] > 0
