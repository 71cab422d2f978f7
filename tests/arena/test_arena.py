"""The arena: bot specs, plans, batches, executors (process pool, Dask, Ray), results
files, resuming, standings, ratings and paired intervals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import cardtable
from cardtable import OptionsError, arena
from cardtable.arena import (
    ResultsFile,
    header,
    outcome,
    plan,
    play_batch,
    ratings,
    read_results,
    run,
    runner,
    standings,
)
from cardtable.arena.executors import open_executor
from cardtable.arena.ratings import wilson_interval
from cardtable.arena.specs import BotSpec, parse, parse_list
from cardtable.bots import make
from cardtable.cli import main

OUTSIDE = "tests.bots.outside:make"
SPECS = "heuristic,fast=ismcts:iterations=5,ismcts:iterations=10:rollout=random"


# ---------------------------------------------------------------- bot specs


def test_specs_name_kinds_settings_and_labels() -> None:
    assert parse("heuristic") == BotSpec("heuristic", "heuristic")
    assert parse(" ismcts:iterations=1000 ") == BotSpec("ismcts:iterations=1000", "ismcts",
                                                        None, (("iterations", 1000),))
    deep = parse("deep=ismcts:iterations=50:rollout=random:exploration=0.5")
    assert deep.label == "deep" and dict(deep.settings) == {
        "iterations": 50, "rollout": "random", "exploration": 0.5}
    assert parse(OUTSIDE) == BotSpec(OUTSIDE, None, OUTSIDE)
    assert parse(f"{OUTSIDE}:wander=0.5").settings == (("wander", 0.5),)
    assert parse("heuristic-v1").kind == "heuristic-v1"


def test_two_settings_of_one_kind_meet_under_their_labels() -> None:
    tasks = plan("sequence", {}, "ismcts:iterations=5,ismcts:iterations=8", 2, seed=1,
                 max_actions=20)
    assert tasks[0].lineup == ("ismcts:iterations=5", "ismcts:iterations=8")
    rows = arena.standings(run(tasks), ["ismcts:iterations=5", "ismcts:iterations=8"])
    assert [r.games for r in rows] == [2, 2]


def test_an_outside_bot_plays_by_import_path() -> None:
    bots = [f"first={OUTSIDE}", "heuristic"]
    results = run(plan("sequence", {}, bots, 2, seed=2), workers=2)
    rows = {r.bot: r for r in arena.standings(results, ["first", "heuristic"])}
    assert rows["first"].games == 2 and rows["heuristic"].wins == 2


@pytest.mark.parametrize(("spec", "message"), [
    ("wizard", "unknown bot 'wizard'"),
    ("ismcts:iterations", "write key=value"),
    ("ismcts:iterations=0", "iterations"),
    ("ismcts:speed=3", "unknown bot setting speed"),
    ("heuristic:iterations=5", "takes no budget"),
    ("ismcts:iterations=5:iterations=6", "given twice"),
    ("no.such.module:make", "cannot import no.such.module"),
    ("tests.bots.outside:nothing", "has no nothing"),
    ("tests.bots.outside:NOT_A_FACTORY", "is not callable"),
    ("tests.bots.outside:not_a_bot", "not a bot"),
    (f"{OUTSIDE}:depth=3", "unexpected keyword argument 'depth'"),
    ("bad label=heuristic", "bot label"),
])
def test_bad_specs_say_what_is_wrong_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(OptionsError, match=message) as info:
        parse_list([spec, "random"])
    assert "\n" not in str(info.value)


def test_a_list_needs_two_bots_each_named_once() -> None:
    with pytest.raises(OptionsError, match="at least two bots"):
        parse_list("heuristic")
    with pytest.raises(OptionsError, match="'heuristic' is named twice.*other=heuristic"):
        parse_list("heuristic,random,heuristic")


def test_the_frozen_heuristic_keeps_its_moves() -> None:
    """heuristic-v1 is the Sequence yardstick. If this fails because bots/sequence.py
    changed, keep a copy of the old module for heuristic-v1 (cardtable.bots.base._FROZEN_V1)
    rather than edit the fingerprint; only a change of the rules or of the deal may."""
    import hashlib

    import cardtable

    moves = []
    for seed in range(1, 5):
        state = cardtable.new_game("sequence").deal(seed=seed)
        bots = [make("heuristic-v1", seed=seed * 10 + s) for s in range(2)]
        while not state.is_terminal:
            move = bots[state.current_player].choose(state)  # type: ignore[index]
            moves.append(str(move))
            state.apply(move)
    digest = hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16]
    assert (len(moves), digest) == (242, "884c1e56213f775c")


# ---------------------------------------------------------------- batches and executors


def test_batches_give_the_games_of_single_tasks() -> None:
    tasks = plan("sequence", {}, "heuristic,random", 6, seed=5)
    assert play_batch(tasks) == run(tasks) == run(tasks, workers=2, batch=4)
    assert runner.batch_size(tasks, 2) == 1  # 6 games: every worker gets several tasks
    long = plan("sequence", {}, "heuristic,random", 2000, seed=5)
    assert runner.batch_size(long, 2) == runner.MAX_BATCH
    assert runner.batch_size(plan("sequence", {}, "heuristic,ismcts", 2000, seed=5), 2) == 1
    # the searching bot meets the others only in the last pairs: still one game a task
    assert runner.batch_size(plan("sequence", {}, "heuristic,random,ismcts", 900, seed=5), 2) == 1


def test_unknown_executor_is_a_clear_error() -> None:
    with pytest.raises(OptionsError, match="unknown executor 'spark'"), \
            open_executor("spark", 2):
        pass
    with pytest.raises(OptionsError, match="HOST:PORT"), open_executor("dask://nowhere", 2):
        pass


@pytest.mark.parametrize(("module", "executor", "extra"), [
    ("distributed", "dask://10.0.0.5:8786", "dask"), ("ray", "ray", "ray")])
def test_a_missing_extra_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch,
                                                       module: str, executor: str,
                                                       extra: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    with pytest.raises(OptionsError, match=rf"pip install 'cardtable\[{extra}\]'"), \
            open_executor(executor, 2):
        pass


def test_a_plot_needs_matplotlib_and_a_png_or_svg(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.arena.plots import check_path

    with pytest.raises(OptionsError, match="name a .png or .svg file"):
        check_path(Path("arena.pdf"))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(OptionsError, match=r"pip install 'cardtable\[plot\]'"):
        check_path(Path("arena.png"))


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["dask", "ray"])
def test_dask_and_ray_with_two_workers_give_the_process_pools_table(executor: str) -> None:
    tasks = plan("sequence", {}, SPECS, 4, seed=7, max_actions=200)
    pooled = run(tasks, workers=2)
    assert run(tasks, workers=2, executor=executor, batch=2) == pooled
    bots = [s.label for s in parse_list(SPECS)]
    assert arena.standings(run(tasks, workers=2, executor=executor), bots) == \
        arena.standings(pooled, bots)


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["local", "dask", "ray"])
def test_a_bot_failing_on_a_worker_is_a_one_line_error(executor: str) -> None:
    task = plan("sequence", {}, "heuristic,random", 2, seed=1)[0]
    bad = BotSpec("heuristic", "ismcts", None, (("iterations", 0),))  # passes no check
    broken = arena.Task(**{**task.__dict__, "bots": (bad, task.bots[1])})
    with pytest.raises(OptionsError, match="iterations") as info:
        run([broken], workers=2, executor=executor)
    assert "on a worker at" in str(info.value) and "\n" not in str(info.value)


# ---------------------------------------------------------------- results files and resume


def _header(tasks: list[arena.Task], bots: str = SPECS) -> dict[str, object]:
    return header("sequence", tasks[0].options, parse_list(bots), 4, 7, {}, 200, len(tasks))


def test_resume_plays_only_the_missing_games_and_equals_a_straight_run(tmp_path: Path) -> None:
    tasks = plan("sequence", {}, SPECS, 4, seed=7, max_actions=200)
    straight = run(tasks)
    path = tmp_path / "arena.jsonl"
    first = ResultsFile(path, _header(tasks))
    for result in straight[:5]:  # interrupted half way, a line cut short at the end
        first.add(result)
    first.close()
    with path.open("a") as f:
        f.write('{"index": 5, "lin')
    again = ResultsFile(path, _header(tasks), resume=True)
    assert [r.index for r in again.done] == [0, 1, 2, 3, 4]
    missing = [t for t in tasks if t.index not in {r.index for r in again.done}]
    assert len(missing) == 7
    for result in run(missing, workers=2):
        again.add(result)
    again.close()
    head, results = read_results(path)
    assert head == _header(tasks) and results == straight
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_results_files_refuse_to_be_overwritten_or_mixed_up(tmp_path: Path) -> None:
    tasks = plan("sequence", {}, SPECS, 4, seed=7, max_actions=200)
    path = tmp_path / "arena.jsonl"
    ResultsFile(path, _header(tasks)).close()
    with pytest.raises(OptionsError, match="exists; continue it with --resume"):
        ResultsFile(path, _header(tasks))
    other = plan("sequence", {}, "heuristic,random", 4, seed=7)
    with pytest.raises(OptionsError, match="another arena \\(bots, tasks differ\\)"):
        ResultsFile(path, _header(other, "heuristic,random"), resume=True)
    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.raises(OptionsError, match="not an arena results file"):
        read_results(tmp_path / "notes.txt")


# ---------------------------------------------------------------- ratings and intervals


def test_pairs_have_per_game_and_per_deal_intervals() -> None:
    tasks = plan("sequence", {}, "heuristic,random", 10, seed=1)
    results = run(tasks)
    (pair,) = arena.pairs(results, ["heuristic", "random"])
    assert (pair.bot, pair.opponent, pair.games, pair.deals) == ("heuristic", "random", 10, 5)
    assert pair.paired_low <= pair.win_rate <= pair.paired_high
    text = arena.table(arena.standings(results, ["heuristic", "random"]), [pair])
    assert "per deal (paired)" in text and "heuristic vs random" in text


def test_the_paired_interval_is_wilsons_over_deals_won_outright() -> None:
    rate, low, high = ratings.paired_interval([1.0, 0.0, 1.0, 1.0])
    assert rate == 0.75 and (low, high) == pytest.approx(ratings.wilson_interval(0.75, 4))
    # one hand wins each deal whoever holds it: 100 deals of 50% are sure of 50%...
    assert ratings.paired_interval([0.5] * 100)[1] > 0.45
    # ...and 100 deals won outright are 100 units, wider than Wilson's over 200 games
    low = ratings.paired_interval([1.0, 0.0] * 50)[1]
    assert low < ratings.wilson_interval(0.5, 200)[0] and low < 0.41


def test_bradley_terry_with_bootstrap_intervals() -> None:
    deals = [("a", "b", 2.0, 2)] * 6 + [("a", "b", 1.0, 2)] * 4 + [("b", "c", 1.5, 2)] * 10
    rated = ratings.bootstrap_ratings(["a", "b", "c"], deals, samples=100, seed=1)
    (a, a_low, a_high), (b, _, _), (c, _, _) = rated
    assert a > b > c and a_low <= a <= a_high and a_low < a_high
    assert rated == ratings.bootstrap_ratings(["a", "b", "c"], deals, samples=100, seed=1)
    assert sum(r for r, _, _ in rated) == pytest.approx(4500)


# ---------------------------------------------------------------- the command


def _arena(*args: str) -> Result:
    return CliRunner().invoke(main, ["arena", "sequence", *args])


def test_the_help_lists_every_bot_kind() -> None:
    """#36: --help named four of the kinds by hand; it lists the registry's."""
    from cardtable.bots import KINDS, YARDSTICKS

    result = CliRunner().invoke(main, ["arena", "--help"], terminal_width=1000,
                                max_content_width=1000)
    assert result.exit_code == 0
    listed = result.output.split("in turn: ")[1].split(";")[0]
    for kind in (*KINDS, *YARDSTICKS):
        assert kind in listed.replace(",", " ").split(), (kind, listed)


def test_the_command_labels_bots_and_resumes_a_cut_arena(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    args = ["--bots", "heuristic,quick=ismcts:iterations=5", "--games", "6", "--seed", "3",
            "--max-actions", "120", "--json"]
    straight = _arena(*args, "--out", str(path))
    assert straight.exit_code == 0, straight.output
    report = json.loads(straight.stdout)
    assert straight.stderr == ""  # no progress bar when stderr is not a terminal
    assert report["bots"] == ["heuristic", "quick"] and report["games"] == 6
    assert report["pairs"][0]["bot"] == "heuristic" and report["pairs"][0]["deals"] == 3
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:3]) + "\n")  # two games kept when it was cut
    resumed = _arena(*args, "--resume", str(path), "--workers", "2")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == report
    assert len(path.read_text().splitlines()) == 7
    again = _arena(*args, "--out", str(path))
    assert again.exit_code == 2 and "--resume" in again.output
    other = _arena(*args[:-1], "--seed", "4", "--resume", str(path))
    assert other.exit_code == 2 and "another arena (seed differs);" in other.output
    both = _arena(*args[:-1], "--seed", "4", "--games", "8", "--resume", str(path))
    assert both.exit_code == 2 and "another arena (games, seed, tasks differ);" in both.output


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_command_plots_ratings_and_win_rates(tmp_path: Path, suffix: str) -> None:
    picture = tmp_path / f"arena{suffix}"
    result = _arena("--bots", "heuristic,random,heuristic-v1", "--games", "2",
                    "--plot", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.stat().st_size > 1000
    assert "heuristic vs heuristic-v1" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "heuristic,ismcts:depth=3"], "unknown bot setting depth"),
    (["--bots", "heuristic,wizard"], "unknown bot 'wizard'"),
    (["--executor", "spark"], "unknown executor 'spark'"),
    (["--plot", "arena.pdf"], "name a .png or .svg file"),
])
def test_the_commands_mistakes_are_one_line(args: list[str], message: str) -> None:
    result = _arena(*args, "--games", "2")
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_ctrl_c_stops_at_once_and_keeps_the_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    command = [sys.executable, "-m", "cardtable", "arena", "sequence", "--bots",
               "heuristic,ismcts:iterations=300", "--games", "20", "--workers", "2",
               "--out", str(path)]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 240
    while not path.exists() or len(path.read_text().splitlines()) < 2:
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.1)
    start = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
    _, err = process.communicate(timeout=30)
    assert time.monotonic() - start < 2.5
    assert process.returncode == 130 and "--resume" in err and "Traceback" not in err
    head, results = read_results(path)
    assert head["tasks"] == 20 and 1 <= len(results) < 20


@pytest.mark.slow
def test_the_command_on_dask_prints_the_process_pools_standings() -> None:
    args = ["--bots", "heuristic,random,quick=ismcts:iterations=5", "--games", "2",
            "--seed", "6", "--max-actions", "150", "--workers", "2", "--json"]
    local = _arena(*args)
    dask = _arena(*args, "--executor", "dask")
    assert local.exit_code == dask.exit_code == 0, dask.output
    assert json.loads(dask.stdout) == json.loads(local.stdout)


# ---------------------------------------------------------------- plans, runs and standings


def test_arena_mirrors_deals_and_is_reproducible() -> None:
    tasks = plan("sequence", {}, ["heuristic", "random"], 4, seed=3)
    assert len(tasks) == 4
    assert tasks[0].deal_seed == tasks[1].deal_seed
    assert tasks[0].lineup == ("heuristic", "random") and tasks[1].lineup == ("random", "heuristic")
    assert run(tasks) == run(plan("sequence", {}, ["heuristic", "random"], 4, seed=3), workers=2)


def test_arena_results_for_a_seed_stay_the_same() -> None:
    # games played before the arena went through cardtable.table.Table: same seed, same games
    results = run(plan("sequence", {"players": 2}, ["heuristic", "random"], 6, seed=9))
    assert [(r.winners, r.actions) for r in results] == [
        ((0,), 78), ((1,), 72), ((0,), 31), ((1,), 42), ((0,), 59), ((1,), 58)]


def test_arena_team_lineups_follow_teams() -> None:
    tasks = plan("sequence", {"players": 6, "teams": 3}, ["heuristic", "random"], 2, seed=1)
    assert tasks[0].lineup == ("heuristic", "random", "heuristic", "heuristic", "random",
                               "heuristic")


def test_standings_and_intervals() -> None:
    results = run(plan("sequence", {}, ["heuristic", "random"], 6, seed=1))
    rows = {r.bot: r for r in standings(results, ["heuristic", "random"])}
    assert rows["heuristic"].games == rows["random"].games == 6
    assert rows["heuristic"].wins == rows["random"].losses
    assert rows["heuristic"].elo > rows["random"].elo
    assert rows["heuristic"].ci_low <= rows["heuristic"].win_rate <= rows["heuristic"].ci_high
    low, high = wilson_interval(1.0, 10)
    assert 0.69 < low < 0.73 and high == 1.0
    assert outcome(results[0], "heuristic") in (0.0, 0.5, 1.0)


@pytest.mark.slow
@pytest.mark.parametrize("name", cardtable.game_names())
def test_arena_command_end_to_end_with_two_workers(name: str) -> None:
    args = ["arena", name, "--bots", "heuristic,random,ismcts", "--iterations", "5",
            "--games", "2", "--workers", "2", "--seed", "4", "--max-actions", "300", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 6
    assert {r["bot"] for r in report["standings"]} == {"heuristic", "random", "ismcts"}
    again = json.loads(CliRunner().invoke(main, args[:-1] + ["--workers", "1", "--json"]).stdout)
    assert again["standings"] == report["standings"]


def test_arena_csv_and_mistakes() -> None:
    result = CliRunner().invoke(main, ["arena", "sequence", "--games", "2", "--csv"])
    assert result.exit_code == 0 and result.stdout.startswith("bot,games,wins")
    bad = CliRunner().invoke(main, ["arena", "sequence", "--bots", "heuristic"])
    assert bad.exit_code == 2 and "at least two bots" in bad.output


@pytest.mark.parametrize("root", ["ucb", "paired", "flat"])
def test_arena_passes_the_search_settings(root: str) -> None:
    args = ["arena", "sequence", "--bots", "ismcts,random", "--iterations", "10", "--games", "2",
            "--seed", "1", "--max-actions", "40", "--root", root, "--rollout", "random",
            "--tree-size", "4", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["budget"] == {"rollout": "random", "root": root,
                                                   "tree_size": 4, "iterations": 10}
