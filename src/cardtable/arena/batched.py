"""The arena's games on the batched engines (``cardtable arena --engine batched``,
docs/arena.md): thousands of games a second, when every bot has a batched kernel.

The bots: ``random`` (the engine's own random moves), the heuristics that
``cardtable.vector.heuristics`` plays exactly (``heuristic``, ``heuristic-v1``) and
``trained`` (the shipped network on the batch's observations,
``trained_actions``; the heuristic where no network fits the
game's options, as the scalar bot; not in Draw Bridge, whose trained draw policy has no
kernel), without settings. The plan is the arena's own
(``runner.plan``): the same pairs, mirrored deals and seats. Each game is a row of the
game's batched engine, seeded with the deal's seed, so that both games of a deal are
dealt the same cards (every deal or round of a match too: a row's deals come from its
seed alone); a row's bots break their ties and make their random moves with the row's
generator. The batched engine deals from its own generator, so the games are not the
scalar engine's deals of the same seeds: the same plan gives the same results here on
every run, not the results of the scalar arena.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from cardtable.arena.runner import GameResult, Task
from cardtable.arena.specs import BotSpec
from cardtable.core import OptionsError

#: the most games in one batch
ROWS = 4096


#: games whose ``trained`` bot plays something no kernel computes, though it has no
#: network: Draw Bridge's trained draw policy (``cardtable.bots.drawbridge_draw``)
TRAINED_WITHOUT_KERNEL = ("drawbridge",)


def kinds(game: str) -> tuple[str, ...]:
    """The bots the batched arena plays in ``game``: ``trained`` where its shipped network
    is an action-value one (Three Thirteen's; Sequence's values afterstates, which no kernel
    computes), or where it has none and plays the heuristic, if that has a kernel (not in
    TRAINED_WITHOUT_KERNEL)."""
    from cardtable.bots.trained import QNet, shipped
    from cardtable.vector.heuristics import batched_kinds

    offered = ("random", *batched_kinds(game))
    net = shipped(game)
    if isinstance(net, QNet) or (net is None and "heuristic" in offered
                                 and game not in TRAINED_WITHOUT_KERNEL):
        offered += ("trained",)
    return offered


def check(game: str, specs: Sequence[BotSpec]) -> None:
    """An OptionsError naming a bot the batched engine cannot play (or the missing extra)."""
    try:
        offered = kinds(game)
    except ImportError as exc:
        raise OptionsError(f"--engine batched needs the vector extra: pip install "
                           f"'cardtable[vector]' ({exc})") from None
    for spec in specs:
        if spec.kind not in offered or spec.settings:
            raise OptionsError(f"bot {spec.label!r} has no batched kernel: --engine batched "
                               f"plays {', '.join(offered)} (without settings)")


def _scores(engine: Any, batch: Any, i: int) -> tuple[int, ...]:
    """Row i's scores as the scalar state's ``scores``: per seat, its team's sequences
    (Sequence), its penalty total (Three Thirteen), its match points (Draw Bridge)."""
    if hasattr(batch, "seq_count"):
        return tuple(int(batch.seq_count[i, engine.game.team_of(s)])
                     for s in range(engine.num_players))
    if hasattr(batch, "totals"):
        return tuple(int(t) for t in batch.totals[i])
    from cardtable.vector.drawbridge import M_SCORE0, M_SCORE1

    return int(batch.meta[i, M_SCORE0]), int(batch.meta[i, M_SCORE1])


def trained_actions(engine: Any, batch: Any, took: Any) -> Any:
    """(N,) the trained bot's move in every row of a batch of ``engine``, as
    ``TrainedBot.choose`` picks it from the same observation (its network's values, the
    lowest id among equals); ``took`` the card each row's seat to act has just taken (-1:
    none, ``just_took``). None where the game has no shipped network for its options (the
    bot plays the heuristic there)."""
    from cardtable.bots.trained import QNet, shipped

    net = shipped(engine.game.name)
    if not isinstance(net, QNet) or not net.fits_game(engine.game):
        return None
    obs = engine.observe(batch)  # each row's seat to act
    mask = engine.legal_mask(batch).astype(bool)
    feature = net.meta.get("features")
    penalties = engine.penalties_after(batch) if feature == "penalties_after" else None
    return net.best(obs, mask, penalties, None if feature is None else took)


def just_took(engine: Any, batch: Any, actions: Any) -> Any:
    """(N,) the card each row's seat takes with ``actions`` (the top discard where the
    action takes it, -1 elsewhere): what ``trained_actions`` needs at its discard next."""
    import numpy as np

    out = np.full(len(actions), -1, np.int64)
    if not hasattr(engine, "penalties_after"):  # a game with no take (Three Thirteen's)
        return out
    from cardtable.threethirteen.game import TAKE
    from cardtable.vector.threethirteen import M_DISCARD_LEN

    rows = np.flatnonzero(actions == TAKE)
    out[rows] = batch.discard[rows, batch.meta[rows, M_DISCARD_LEN] - 1]
    return out


def play_rows(tasks: Sequence[Task]) -> list[GameResult]:
    """The games of ``tasks`` (one game and options, at most ``ROWS``) as rows of one batch."""
    import numpy as np

    from cardtable.vector import make_engine
    from cardtable.vector._kernel import R_POLICY
    from cardtable.vector.heuristics import SAME_AS_V1, heuristic_actions

    first = tasks[0]
    engine = make_engine(first.log.game, max_moves=first.max_actions, **first.log.options)
    check(engine.game.name, [s for t in tasks for s in t.bots])
    n, players = len(tasks), engine.num_players
    batch = engine.init(np.array([t.deal_seed for t in tasks], np.int64))
    # which bot kind plays each seat of each row
    by_label = [{s.label: s.kind for s in t.bots} for t in tasks]
    seat_kind = np.array([[by_label[r][t.lineup[s]] for s in range(players)]
                          for r, t in enumerate(tasks)], object)
    # the kernel of each kind: where "heuristic" is still "heuristic-v1"'s bot, one kernel
    # run serves both
    if engine.game.name in SAME_AS_V1:
        seat_kind[seat_kind == "heuristic"] = "heuristic-v1"
    kinds_used = sorted({k for row in seat_kind for k in row})
    task_of = np.arange(n)  # the task of each row of the batch (rows leave as they end)
    live = np.ones(n, np.bool_)
    took = np.full(n, -1, np.int64)  # the card each row's seat has just taken (trained)
    out: list[GameResult | None] = [None] * n
    while live.any():
        if live.sum() <= 3 * len(live) // 4:
            # a quarter of the rows has ended: play on in a batch of the rest (the
            # kernels' time goes with the rows, ended or not)
            batch = type(batch)(*(np.ascontiguousarray(a[live]) for a in batch))
            task_of = task_of[live]
            took = took[live]
            live = np.ones(len(task_of), np.bool_)
        rows = np.arange(len(task_of))
        to_act = seat_kind[task_of, np.where(live, batch.current_player, 0)]
        actions = np.zeros(len(task_of), np.int64)
        # a kernel draws from every row's policy generator (random moves, ties): each row
        # keeps only the draws of the bot to act in it, so that what it draws depends on
        # that row alone, not on the batch it is in
        policy = batch.rngs[:, R_POLICY].copy()
        kept = policy.copy()
        for kind in kinds_used:
            mine = (to_act == kind) & live
            if not mine.any():
                continue
            batch.rngs[:, R_POLICY] = policy
            if kind == "random":
                moves = engine.random_actions(batch)
            elif kind == "trained":
                net_moves = trained_actions(engine, batch, took)
                # no network for these options: the bot plays its heuristic
                moves = (heuristic_actions(engine, batch, "heuristic") if net_moves is None
                         else net_moves)
            else:
                moves = heuristic_actions(engine, batch, kind)
            actions[mine] = moves[mine]
            kept[mine] = batch.rngs[mine, R_POLICY]
        batch.rngs[:, R_POLICY] = kept
        took = just_took(engine, batch, actions)
        res = engine.step(batch, actions, active=live, autoreset=False)
        done = (res.terminated | res.truncated) & live
        for r in rows[done]:
            t = tasks[task_of[r]]
            finished = bool(res.terminated[r])
            out[task_of[r]] = GameResult(
                t.index, t.lineup,
                tuple(s for s in range(players) if finished and res.rewards[r, s] > 0),
                _scores(engine, batch, r), int(batch.moves[r]), finished, t.deal)
        live &= ~done
    assert all(r is not None for r in out)
    return out  # type: ignore[return-value]


def stream(tasks: Sequence[Task], rows: int = ROWS) -> Generator[GameResult, None, None]:
    """Each task's result, a batch of ``rows`` games at a time (in task order)."""
    for start in range(0, len(tasks), rows):
        yield from play_rows(tasks[start:start + rows])


def run(tasks: Sequence[Task], rows: int = ROWS) -> list[GameResult]:
    """Every task's result, in task order."""
    return list(stream(tasks, rows))
