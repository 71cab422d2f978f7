"""A value network over Sequence afterstates (TD-Gammon's shape), for the ``trained`` bot
and the Sequence review: ``python -m cardtable.train sequence --method value``.

Data: games played by the batched engine (``cardtable.vector``) with its batched
``heuristic-v1`` (``cardtable.vector.sequence_heuristic``), each seat of each game playing
a random legal move instead a share of the time drawn per game and seat from
``EPSILONS``, so that positions vary. Every move is a sample: the mover's afterstate
(``cardtable.bots.sequence_value.afterstates`` of its observation and the move) labelled
with the mover's result (1 a win, 0 a loss, 1/2 a draw). The dataset is made from the
run's seed (deal seeds below 10**9), so a run resumed makes it again; the held-out games
are dealt from seeds 2 * 10**9 on, which no training draws.

The network (``sequence_value``: a convolution along the board's five-cell windows, summed,
then a small perceptron) learns by logistic regression (binary cross-entropy, Adam) on
shuffled minibatches. Every ``--eval-every`` samples: its held-out log-loss against the
constant baseline (the training games' mean result), a calibration table, and the NumPy
bot against ``heuristic-v1`` on ``--eval-deals`` deals played twice (deal seeds from 10**9
on, as ``cardtable.train.dmc``); a checkpoint; ``--resume`` goes on from it.

Policy iteration (``bot_games``): ``--bot-games N`` adds N scalar games between the
package's bots (``--bots``; the value bots among them play the ``--init`` network, the
one the run starts from), played by ``--workers`` processes, to the training set. With
``--games-by WEIGHTS`` instead, those bots play WEIGHTS while a fresh network (of
``--hidden``'s widths, which may differ) learns: a larger network learning from a smaller
one's games. ``--lr-decay cosine`` lowers the learning rate along a half cosine to 0 at
``--samples``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.bots.sequence_value import OBS_SIZE, ValueNet, afterstates, inputs
from cardtable.core import OptionsError
from cardtable.train.dmc import EVAL_SEED, _bar, evaluate

#: each seat of each game plays a random legal move this share of the time, one drawn
#: per game and seat
EPSILONS = (0.0, 0.0, 0.03, 0.1, 0.2, 0.35)
#: held-out games are dealt from here on
HOLDOUT_SEED = 2 * 10**9
#: the default network: window layers, head layers
WINDOW = (32, 32)
HEAD = (64, 64)


def play(positions: int, seed: int, envs: int = 1024, first_deal: int | None = None,
         progress: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``positions`` afterstates (uint8, (n, 523)) of finished games, their mover's results
    (float32: 1 a win, 0 a loss, 0.5 a draw) and game numbers. Deals from the generator of
    ``seed`` (or rows seeded ``first_deal``, ``first_deal + 1``, ... for held-out games; a
    row's later deals come from its seed, as ``cardtable.vector`` deals)."""
    from cardtable.vector.sequence import VectorSequence
    from cardtable.vector.sequence_heuristic import heuristic_actions

    engine = VectorSequence(players=2)
    rng = np.random.default_rng([seed, 7])
    deals = (rng.integers(0, EVAL_SEED, envs) if first_deal is None
             else first_deal + np.arange(envs))
    batch = engine.init(deals)
    eps = rng.choice(EPSILONS, (envs, 2))
    game = np.arange(envs)
    games = envs
    obs_chunks: list[np.ndarray] = []
    game_chunks: list[np.ndarray] = []
    seat_chunks: list[np.ndarray] = []
    results: dict[int, np.ndarray] = {}
    done = 0
    while done < positions:
        seats = batch.current_player.copy().astype(np.int64)
        before = engine.observe(batch, seats)
        actions = heuristic_actions(engine, batch)
        explore = rng.random(envs) < eps[np.arange(envs), seats]
        if explore.any():
            actions[explore] = engine.random_actions(batch)[explore]
        obs_chunks.append(afterstates(before, actions).astype(np.uint8))
        game_chunks.append(game.copy())
        seat_chunks.append(seats)
        res = engine.step(batch, actions, autoreset=False)
        ended = np.flatnonzero(np.asarray(res.terminated) | np.asarray(res.truncated))
        if len(ended):
            rewards = np.asarray(res.rewards, np.float32)
            for row in ended.tolist():
                results[int(game[row])] = (rewards[row] + 1) / 2
                game[row] = games
                games += 1
                done += int(batch.meta[row, 5])   # the moves the game lasted
            engine.reset_rows(batch, ended)   # a row's next deal: (its seed, k)
            eps[ended] = rng.choice(EPSILONS, (len(ended), 2))
        if progress:
            print(f"\rplaying games: {min(done, positions):,}/{positions:,} positions",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    obs = np.concatenate(obs_chunks)
    numbers = np.concatenate(game_chunks)
    seat = np.concatenate(seat_chunks)
    known = np.array([g in results for g in numbers.tolist()], bool)
    labels = np.array([results[g][s] for g, s in zip(numbers[known].tolist(),
                                                     seat[known].tolist(), strict=True)],
                      np.float32)
    return obs[known][:positions], labels[:positions], numbers[known][:positions]


#: --bot-games: each seat plays a random legal move this share of the time, one drawn per
#: game and seat (fewer than in the batched games: these bots' own play is the point)
BOT_EPSILONS = (0.0, 0.0, 0.0, 0.03, 0.1)
#: --bot-games are dealt from seeds BOT_GAMES_SEED + seed * 10**6 on: no evaluation or
#: held-out game, and no arena measurement of the docs, deals them
BOT_GAMES_SEED = 3 * 10**9
#: games a worker plays per task
BOT_CHUNK = 20


def bot_games(games: int, seed: int, kinds: tuple[str, ...], net: ValueNet | None,
              workers: int = 1, progress: bool = False
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The afterstates (uint8, (n, 523)) of ``games`` scalar games between the package's
    bots, their mover's results and game numbers, as ``play``'s. The first of ``kinds``
    sits at every game, against each of ``kinds`` in turn (itself included), the seats
    alternating; the bots that play a value network (``blend``, ``trained``,
    ``lookahead``) play ``net`` when given (the network being improved: one step of
    policy iteration). ``workers`` processes; the same arguments give the same data."""
    tasks = [(first, min(BOT_CHUNK, games - first), seed, kinds, net)
             for first in range(0, games, BOT_CHUNK)]
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    started = time.perf_counter()

    def shown(done: int) -> None:
        if progress:
            print(f"\rplaying bot games: {done:,}/{games:,} games "
                  f"({time.perf_counter() - started:.0f} s)", end="", file=sys.stderr,
                  flush=True)

    if workers > 1 and len(tasks) > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(_bot_chunk, tasks):
                parts.append(part)
                shown(min(games, len(parts) * BOT_CHUNK))
    else:
        for task in tasks:
            parts.append(_bot_chunk(task))
            shown(min(games, len(parts) * BOT_CHUNK))
    if progress:
        print(file=sys.stderr)
    if not parts:
        return np.zeros((0, OBS_SIZE), np.uint8), np.zeros(0, np.float32), np.zeros(0, np.int64)
    return tuple(np.concatenate(column) for column in zip(*parts, strict=True))  # type: ignore[return-value]


def _bot_chunk(task: tuple[int, int, int, tuple[str, ...], ValueNet | None]
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``bot_games`` of games ``first`` to ``first + count - 1`` (a worker's task)."""
    import random

    from cardtable.bots import make
    from cardtable.encoders import encoder_for

    first, count, seed, kinds, net = task
    game = cardtable.new_game("sequence", players=2)
    encoder = encoder_for(game)
    rng = random.Random(seed * 1_000_003 + first)
    obs: list[np.ndarray] = []
    labels: list[float] = []
    numbers: list[int] = []
    for number in range(first, first + count):
        other = kinds[number % len(kinds)]
        lineup = ((kinds[0], other) if (number // len(kinds)) % 2 == 0
                  else (other, kinds[0]))
        bots = [make(kind, seed=rng.getrandbits(32)) for kind in lineup]
        for bot in bots:
            if net is not None and hasattr(bot, "net"):
                bot.net = net
        eps = [rng.choice(BOT_EPSILONS) for _ in lineup]
        state = game.deal(seed=BOT_GAMES_SEED + seed * 10**6 + number)
        seats: list[int] = []
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            action = (rng.choice(state.legal_actions()) if rng.random() < eps[seat]
                      else bots[seat].choose(state))
            before = encoder.encode(state, seat)
            obs.append(afterstates(before[None, :], np.array([action.id]))[0]
                       .astype(np.uint8))
            seats.append(seat)
            state.apply(action)
        results = [(r + 1) / 2 for r in state.returns()]
        labels += [results[seat] for seat in seats]
        numbers += [number] * len(seats)
    return (np.asarray(obs, np.uint8).reshape(-1, OBS_SIZE), np.asarray(labels, np.float32),
            np.asarray(numbers, np.int64))


# ---------------------------------------------------------------- the network (PyTorch)

def build(window: tuple[int, ...] = WINDOW, head: tuple[int, ...] = HEAD) -> Any:
    import torch

    from cardtable.bots.sequence_value import SCALARS, WINDOW_INPUTS

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers: list[Any] = []
            width = WINDOW_INPUTS
            for h in window:
                layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
                width = h
            self.window = torch.nn.Sequential(*layers)
            layers = []
            width += len(SCALARS)
            for h in head:
                layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
                width = h
            layers.append(torch.nn.Linear(width, 1))
            self.head = torch.nn.Sequential(*layers)

        def forward(self, windows: Any, scalars: Any) -> Any:
            pooled = self.window(windows).sum(dim=1) * ValueNet.WINDOW_SCALE
            return self.head(torch.cat([pooled, scalars], dim=1))[:, 0]

    return Net()


def to_numpy(net: Any, meta: dict[str, Any]) -> ValueNet:
    def pairs(seq: Any) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
                for m in seq if hasattr(m, "weight")]

    return ValueNet(pairs(net.window), pairs(net.head), meta)


def widths(net: ValueNet) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The hidden layers' widths of ``net``: its window layers', its head's (``build``'s
    arguments)."""
    return (tuple(w.shape[1] for w, _ in net.window),
            tuple(w.shape[1] for w, _ in net.head[:-1]))


def from_numpy(net: ValueNet) -> Any:
    """The PyTorch network of a NumPy one (``to_numpy``'s inverse): --init's start."""
    import torch

    torch_net = build(*widths(net))

    def put(seq: Any, pairs: list[tuple[np.ndarray, np.ndarray]]) -> None:
        modules = [m for m in seq if hasattr(m, "weight")]
        for module, (w, b) in zip(modules, pairs, strict=True):
            module.weight.data = torch.from_numpy(w.T.copy())
            module.bias.data = torch.from_numpy(b.copy())

    put(torch_net.window, net.window)
    put(torch_net.head, net.head)
    return torch_net


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Per tenth of predicted win chance: how many positions, the mean prediction and the
    share won."""
    which = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for k in range(bins):
        sel = which == k
        if sel.any():
            out.append({"bin": k / bins, "n": int(sel.sum()),
                        "predicted": round(float(p[sel].mean()), 3),
                        "won": round(float(y[sel].mean()), 3)})
    return out


def evaluate_bot(net: ValueNet, deals: int, opponent: str = "heuristic-v1") -> dict[str, float]:
    """The NumPy bot against ``opponent`` on ``deals`` deals played twice, seats swapped
    (``dmc.evaluate``, on two-player Sequence)."""
    return evaluate(net, "sequence", {"players": 2}, deals, opponent)


class ValueRun:
    """One run: the dataset (made again from the seed), the network, the optimiser, the
    generator, the curve; ``checkpoint``/``resume``."""

    def __init__(self, out: Path, seed: int, positions: int, holdout: int, batch: int,
                 lr: float, device: str, window: tuple[int, ...] = WINDOW,
                 head: tuple[int, ...] = HEAD, progress: bool = True,
                 init: tuple[str, ValueNet] | None = None, games: int = 0,
                 bots: tuple[str, ...] = ("blend", "heuristic-v1"), workers: int = 1,
                 games_by: tuple[str, ValueNet] | None = None, lr_decay: str = "none"
                 ) -> None:
        import torch

        self.out, self.seed, self.batch = out, seed, batch
        self.init, self.games, self.bots = init, games, bots
        self.games_by = games_by
        self.lr, self.lr_decay = lr, lr_decay
        #: the samples the run is to learn from (``train`` sets it): the cosine's end
        self.total = 0
        if init is not None:
            window, head = widths(init[1])
        self.window, self.head = window, head
        self.device = torch.device(device)
        started = time.perf_counter()
        self.obs, self.labels, _ = play(positions, seed, envs=min(1024, positions // 60 + 1),
                                        progress=progress)
        if games:
            played = games_by or init   # the weights the value bots play
            more, results, _ = bot_games(games, seed, bots,
                                         None if played is None else played[1], workers,
                                         progress)
            self.obs = np.concatenate([self.obs, more])
            self.labels = np.concatenate([self.labels, results])
        self.hold_obs, self.hold_labels, self.hold_games = play(
            holdout, seed, envs=min(256, holdout // 60 + 1), first_deal=HOLDOUT_SEED)
        self.data_seconds = time.perf_counter() - started
        self.prior = float(self.labels.mean()) if len(self.labels) else 0.5
        torch.manual_seed(seed)
        self.net = (build(window, head) if init is None else from_numpy(init[1])).to(self.device)
        self.optimiser = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.rng = np.random.default_rng(seed)
        self.order = self.rng.permutation(len(self.labels))
        self.cursor = 0
        self.samples = 0
        self.seconds = 0.0
        self.curve: list[dict[str, Any]] = []

    @property
    def meta(self) -> dict[str, Any]:
        return {"game": "sequence", "options": dict(cardtable.new_game(
                    "sequence", players=2).options),
                "kind": "afterstate value", "samples": self.samples, "seed": self.seed,
                "positions": int(len(self.labels)), "window_layers": list(self.window),
                "head_layers": list(self.head),
                "method": "afterstate value (cardtable.train.value)",
                **({"bot_games": self.games, "bots": list(self.bots)} if self.games else {}),
                **({"init": self.init[0]} if self.init is not None else {}),
                **({"games_by": self.games_by[0]} if self.games_by is not None else {}),
                **({"lr_decay": self.lr_decay} if self.lr_decay != "none" else {})}

    def numpy_net(self) -> ValueNet:
        return to_numpy(self.net, self.meta)

    def step(self) -> float:
        """One minibatch; its loss."""
        import torch

        if self.cursor + self.batch > len(self.order):
            self.order = self.rng.permutation(len(self.labels))
            self.cursor = 0
        pick = self.order[self.cursor:self.cursor + self.batch]
        self.cursor += self.batch
        if self.lr_decay == "cosine" and self.total:
            for group in self.optimiser.param_groups:
                group["lr"] = self.lr * 0.5 * (1 + math.cos(math.pi * min(
                    1.0, self.samples / self.total)))
        windows, scalars = inputs(self.obs[pick])
        logits = self.net(torch.from_numpy(windows).to(self.device),
                          torch.from_numpy(scalars).to(self.device))
        y = torch.from_numpy(self.labels[pick]).to(self.device)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y)
        self.optimiser.zero_grad()
        loss.backward()
        self.optimiser.step()
        self.samples += len(pick)
        return float(loss.detach())

    def held_out(self) -> dict[str, Any]:
        net = self.numpy_net()
        p = np.concatenate([1 / (1 + np.exp(-net.logits(self.hold_obs[k:k + 4096])))
                            for k in range(0, len(self.hold_obs), 4096)] or [np.zeros(0)])
        y = self.hold_labels
        return {"positions": int(len(y)), "games": int(len(np.unique(self.hold_games))),
                "log_loss": round(log_loss(p, y), 5),
                "baseline_log_loss": round(log_loss(np.full(len(y), self.prior), y), 5),
                "brier": round(float(((p - y) ** 2).mean()), 5),
                "calibration": calibration(p, y)}

    def checkpoint(self) -> None:
        import torch

        self.out.mkdir(parents=True, exist_ok=True)
        state = {"net": self.net.state_dict(), "optimiser": self.optimiser.state_dict(),
                 "rng": self.rng.bit_generator.state, "order": self.order,
                 "cursor": self.cursor, "samples": self.samples, "curve": self.curve,
                 "seconds": self.seconds, "meta": self.meta}
        tmp = self.out / "checkpoint.pt.tmp"
        torch.save(state, tmp)
        tmp.replace(self.out / "checkpoint.pt")
        self.numpy_net().save(self.out / "latest.npz")
        (self.out / "curve.json").write_text(json.dumps(self.curve, indent=1) + "\n",
                                             encoding="utf-8")

    def resume(self) -> None:
        import torch

        state = torch.load(self.out / "checkpoint.pt", weights_only=False)
        meta = state["meta"]
        if (meta.get("kind"), meta.get("positions"), meta.get("window_layers"),
                meta.get("head_layers")) != ("afterstate value", len(self.labels),
                                             list(self.window), list(self.head)):
            raise SystemExit(f"cardtable.train: {self.out} holds another run; give another "
                             "--out")
        self.net.load_state_dict(state["net"])
        self.optimiser.load_state_dict(state["optimiser"])
        self.rng.bit_generator.state = state["rng"]
        self.order, self.cursor = state["order"], state["cursor"]
        self.samples, self.curve, self.seconds = state["samples"], state["curve"], state["seconds"]


def train(run: ValueRun, samples: int, eval_every: int, eval_deals: int,
          progress: bool = True) -> list[dict[str, Any]]:
    started = time.perf_counter() - run.seconds
    run.total = samples
    if not run.curve:
        _point(run, eval_deals, started, math.nan)
        run.checkpoint()
    loss, shown = math.nan, 0.0
    losses: list[float] = []
    while run.samples < samples:
        target = min(samples, (run.samples // eval_every + 1) * eval_every)
        while run.samples < target:
            losses.append(run.step())
            now = time.perf_counter()
            if progress and now - shown >= 1.0:
                _bar(run.samples, samples, now - started, float(np.mean(losses[-50:])))
                shown = now
        loss = float(np.mean(losses)) if losses else math.nan
        losses = []
        run.seconds = time.perf_counter() - started
        _point(run, eval_deals, started, loss)
        run.checkpoint()
    if progress:
        print(file=sys.stderr)
    return run.curve


def _point(run: ValueRun, deals: int, started: float, loss: float) -> None:
    point: dict[str, Any] = {"samples": run.samples,
                             "seconds": round(time.perf_counter() - started, 1),
                             "loss": None if math.isnan(loss) else round(loss, 5),
                             "held_out": run.held_out()}
    if deals:
        point["heuristic"] = evaluate_bot(run.numpy_net(), deals)
    run.curve.append(point)
    print(json.dumps(point), flush=True)


def plot(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    x = [p["samples"] / 1e6 for p in curve]
    a.plot(x, [p["held_out"]["log_loss"] for p in curve], marker="o", label="value network")
    a.plot(x, [p["held_out"]["baseline_log_loss"] for p in curve], linestyle="--",
           color="grey", label="constant (the mean result)")
    a.set_xlabel("samples learned from (millions of positions)")
    a.set_ylabel("held-out log-loss")
    a.legend()
    points = [p for p in curve if "heuristic" in p]
    if points:
        xs = [p["samples"] / 1e6 for p in points]
        y = [p["heuristic"]["score"] for p in points]
        b.errorbar(xs, y, yerr=[[s - p["heuristic"]["low"] for s, p in zip(y, points,
                                                                          strict=True)],
                                [p["heuristic"]["high"] - s for s, p in zip(y, points,
                                                                           strict=True)]],
                   marker="o", capsize=3)
    b.axhline(0.5, color="grey", linewidth=0.8)
    b.set_ylim(0, 1)
    b.set_xlabel("samples learned from (millions of positions)")
    b.set_ylabel("score against heuristic-v1 (paired deals)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _weights(flag: str, given: str) -> ValueNet:
    """The value network a flag names: a weights file, or ``shipped`` (the package's)."""
    from cardtable.bots.sequence_value import shipped

    try:
        net = shipped() if given == "shipped" else ValueNet.load(given)
    except OptionsError as exc:
        raise SystemExit(f"cardtable.train: {flag}: {exc}") from None
    if net is None:
        raise SystemExit(f"cardtable.train: {flag} shipped: no value network is shipped")
    return net


def main(args: Any) -> None:
    """``python -m cardtable.train sequence --method value`` (arguments parsed by
    ``cardtable.train.dmc.main``)."""
    import torch

    torch.set_num_threads(max(1, torch.get_num_threads()))
    if args.game != "sequence":
        raise SystemExit("cardtable.train: --method value is Sequence's")
    if args.resume and not (args.out / "checkpoint.pt").exists():
        raise SystemExit(f"cardtable.train: --resume: there is no checkpoint in {args.out}")
    if not args.resume and (args.out / "checkpoint.pt").exists():
        raise SystemExit(f"cardtable.train: {args.out} holds a run already: --resume to go "
                         "on, or another --out")
    window: tuple[int, ...] = WINDOW
    head: tuple[int, ...] = HEAD
    if args.hidden:
        widths = tuple(int(h) for h in args.hidden.split(","))
        window, head = widths[:2], widths[2:] or HEAD
    init = None if args.init is None else (args.init, _weights("--init", args.init))
    games_by = (None if args.games_by is None
                else (args.games_by, _weights("--games-by", args.games_by)))
    run = ValueRun(args.out, args.seed, args.positions, args.holdout, args.batch, args.lr,
                   args.device, window, head, progress=not args.quiet, init=init,
                   games=args.bot_games, bots=args.bots, workers=args.workers,
                   games_by=games_by, lr_decay=args.lr_decay)
    if args.resume:
        run.resume()
    curve = train(run, args.samples, args.eval_every, args.eval_deals,
                  progress=not args.quiet)
    try:
        plot(curve, args.out / "curve.png", f"sequence: afterstate value, seed {args.seed}")
    except ImportError:
        print("matplotlib is not installed: no curve.png (pip install -e '.[plot]')",
              file=sys.stderr)
    print(f"weights: {args.out / 'latest.npz'} (cardtable arena sequence --bots "
          f"cardtable.bots.trained:make:weights={args.out / 'latest.npz'},heuristic-v1)")
