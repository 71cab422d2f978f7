"""Deep Monte-Carlo training on the batched engines (DouZero's recipe), for the
"trained" bot.

An action-value network Q(observation) -> one value per action id is trained by
regression on Monte-Carlo returns, in self-play: every seat of N batched games
(``cardtable.vector``) plays the legal action of highest value, or a random legal one
with probability ``--epsilon``; each move, once its segment of the game is over, is a
sample (the seat's observation, the action, the seat's return), and the network's
value of the action moves toward the return (mean squared error, Adam). No search, no
bootstrap: DouZero beat every earlier DouDizhu program this way.

A game's *segment* is what a move's return is counted over: in Three Thirteen one
round (a move's return is the round's penalty of the other seat less the seat's own,
over ``RETURN_SCALE``: a round's moves decide its score, and rounds are near
independent; this is far less noisy than the match's result), in the other games
the whole game (+1 a win, -1 a loss, 0 a draw).

Every ``--eval-every`` samples the network, as the NumPy bot plays it, meets the
game's heuristic on ``--eval-deals`` deals, each played twice with the seats
swapped (the scalar engine; deal seeds from 10**9 on, never used in training); the
score and its paired 95% interval (the arena's) go to the curve. A checkpoint
(``checkpoint.pt``: the network, the optimiser, the generators, the curve) is written
there too, and ``latest.npz``, the NumPy weights; ``--resume`` goes on from the
checkpoint, and a run resumed gives the same weights as one not interrupted::

    python -m cardtable.train threethirteen --samples 20000000 --out runs/tt

PyTorch on the CPU (``pip install -e '.[train]'``); a GPU is used if one is there
(``--device``). Reproducible from ``--seed`` on one device and thread count.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.arena.ratings import paired_interval
from cardtable.bots import bot_kind
from cardtable.bots import make as make_bot
from cardtable.bots.sequence_value import ValueNet
from cardtable.bots.trained import QNet, TrainedBot, no_idle_take
from cardtable.core import OptionsError
from cardtable.threethirteen.game import TAKE

#: a round's penalty difference (Three Thirteen) over this is a return of 1
RETURN_SCALE = 20.0
#: ``--target td``: updates between two refreshes of the frozen network it bootstraps from
SYNC_EVERY = 1000
#: evaluation deals' seeds start here; training draws its seeds from the run's generator
#: below it
EVAL_SEED = 10**9


@dataclass(frozen=True)
class Recipe:
    """How one game is trained: its options, what ends a move's segment and its return."""

    game: str
    options: dict[str, Any]
    #: (N,) the segment in play of each row (changes when one ends)
    segment: Callable[[Any], np.ndarray]
    #: each row's standing at its segment's start, as (N, players) float: the return of
    #: a segment is worked out from it and the standing at its end
    standing: Callable[[Any], np.ndarray]
    #: (start standing, end standing, match rewards or 0) -> (rows, players) returns
    returns: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    hidden: tuple[int, ...] = (256, 256, 256)
    #: what a value of 1 is worth, and in what (the review reads both)
    scale: float = 1.0
    unit: str = "game result (+1 a win, -1 a loss)"
    #: a move feature the bot adds to the network's values (``cardtable.bots.trained.
    #: FEATURES``): (engine, batch) -> (N, actions), taken off the value over ``scale``
    features: str | None = None


def _round_returns(start: np.ndarray, end: np.ndarray, rewards: np.ndarray) -> np.ndarray:
    penalty = end - start
    players = penalty.shape[1]
    others = (penalty.sum(axis=1, keepdims=True) - penalty) / (players - 1)
    return ((others - penalty) / RETURN_SCALE).astype(np.float32)


def _game_returns(start: np.ndarray, end: np.ndarray, rewards: np.ndarray) -> np.ndarray:
    return rewards.astype(np.float32)


def _no_standing(batch: Any) -> np.ndarray:
    return np.zeros((batch.size, 1), np.float32)


RECIPES = {
    "threethirteen": Recipe(
        "threethirteen", {"players": 2},
        segment=lambda b: b.meta[:, 2].copy(),          # M_ROUND
        standing=lambda b: b.totals.astype(np.float32),
        returns=_round_returns, scale=RETURN_SCALE,
        unit="points of the round (the other seat's penalty less the mover's)",
        features="penalties_after"),
    "sequence": Recipe(
        "sequence", {"players": 2},
        segment=lambda b: np.zeros(b.size, np.int64),
        standing=_no_standing, returns=_game_returns),
}


def recipe(game: str) -> Recipe:
    found = RECIPES.get(game)
    if found is None:
        raise SystemExit(f"cardtable.train: no recipe for {game!r}; there are "
                         f"{', '.join(RECIPES)}")
    return found


# ---------------------------------------------------------------- the network (PyTorch)

def build_net(inputs: int, actions: int, hidden: tuple[int, ...]) -> Any:
    import torch

    layers: list[Any] = []
    width = inputs
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, actions))
    return torch.nn.Sequential(*layers)


def to_numpy(net: Any, scale: np.ndarray, meta: dict[str, Any]) -> QNet:
    """The PyTorch network as the bot's NumPy ``QNet`` (weights transposed: x @ w)."""
    linear = [m for m in net if hasattr(m, "weight")]
    return QNet([(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
                 for m in linear], scale, meta)


# ---------------------------------------------------------------- samples

class Pending:
    """Moves whose segment is not over yet, and the returns of segments that are.

    Every segment of every row gets a serial number; a move keeps its segment's serial
    and its seat until the segment's returns are known. Each move is a row of named
    columns (``obs``, ``act``, ``seat``, ``feature``: the chosen move's feature, and with
    ``--target td`` also ``mask`` and ``features``, the position's legal moves and all
    their features, which the seat's move before it bootstraps from).
    """

    def __init__(self, rows: int, players: int) -> None:
        self.columns: dict[str, list[np.ndarray]] = {}
        self.current = np.arange(rows, dtype=np.int64)   # each row's segment serial
        self.next_serial = rows
        self.done: dict[int, np.ndarray] = {}            # serial -> (players,) returns
        self.players = players

    def add(self, **arrays: np.ndarray) -> None:
        """One move of every row, its columns by name."""
        for name, array in (*arrays.items(), ("serial", self.current.copy())):
            self.columns.setdefault(name, []).append(array)

    def close(self, rows: np.ndarray, returns: np.ndarray) -> None:
        """End the segments of ``rows`` with their (len(rows), players) returns."""
        for row, ret in zip(rows.tolist(), returns, strict=True):
            self.done[int(self.current[row])] = ret
            self.current[row] = self.next_serial
            self.next_serial += 1

    def ready(self) -> dict[str, np.ndarray]:
        """The moves whose returns are known, oldest first: their columns, ``ret`` (the
        seat's return) and ``next`` (the index of the same seat's next move in the same
        segment, -1 for its last); the rest wait."""
        if not self.columns:
            return {"ret": np.zeros(0, np.float32), "next": np.zeros(0, np.int64)}
        cols = {name: np.concatenate(chunks) for name, chunks in self.columns.items()}
        serial, seat = cols["serial"], cols["seat"]
        known = np.array([s in self.done for s in serial.tolist()], bool)
        table = np.zeros((len(serial), self.players), np.float32)
        if known.any():
            table[known] = np.stack([self.done[s] for s in serial[known].tolist()])
        self.columns = {name: [col[~known]] for name, col in cols.items()}
        self.done = {}   # every move of a closed segment was added before it closed
        out = {name: col[known] for name, col in cols.items()}
        out["ret"] = table[np.arange(len(serial)), seat][known]
        out["next"] = _next_of_seat(out["serial"], out["seat"])
        return out


def _next_of_seat(serial: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """For moves in time order, the index of the same seat's next move in the same
    segment, -1 where there is none."""
    order = np.lexsort((np.arange(len(serial)), seat, serial))
    nxt = np.full(len(serial), -1, np.int64)
    same = (serial[order][1:] == serial[order][:-1]) & (seat[order][1:] == seat[order][:-1])
    nxt[order[:-1][same]] = order[1:][same]
    return nxt


# ---------------------------------------------------------------- evaluation

def evaluate(net: QNet | ValueNet, game: str, options: dict[str, Any], deals: int,
             opponent: str = "heuristic") -> dict[str, float]:
    """The NumPy bot (``TrainedBot`` playing ``net``) against ``opponent`` on ``deals``
    deals played twice, seats swapped: its score (a win 1, a draw 1/2) and the paired 95%
    interval (the arena's)."""
    rates = []
    for d in range(deals):
        score = 0.0
        for seat in (0, 1):
            state = cardtable.new_game(game, **options).deal(seed=EVAL_SEED + d)
            bots: dict[int, Any] = {seat: TrainedBot(d, net),
                                    1 - seat: make_bot(opponent, seed=EVAL_SEED + d)}
            while not state.is_terminal:
                to_act = state.current_player
                assert to_act is not None
                state.apply(bots[to_act].choose(state))
            score += (state.returns()[seat] + 1) / 2
        rates.append(score / 2)
    mean, low, high = paired_interval(rates)
    return {"score": round(mean, 4), "low": round(low, 4), "high": round(high, 4),
            "deals": deals}


# ---------------------------------------------------------------- the run

class Run:
    """One training run: the engine, the network, the optimiser, the generators, the
    curve; ``checkpoint``/``resume`` save and load all of it."""

    def __init__(self, game: str, out: Path, seed: int, envs: int, batch: int, lr: float,
                 epsilon: float, hidden: tuple[int, ...] | None, device: str,
                 target: str = "mc") -> None:
        import torch

        self.recipe = recipe(game)
        self.out = out
        self.seed = seed
        self.envs = envs
        self.batch = batch
        self.epsilon = epsilon
        self.target = target
        self.device = torch.device(device)
        from cardtable.vector import make_engine  # NumPy and numba: the vector extra

        self.engine = make_engine(game, **self.recipe.options)
        self.game = cardtable.new_game(game, **self.recipe.options)
        self.scale = (1.0 / np.maximum(self.engine.encoder.high, 1.0)).astype(np.float32)
        self.hidden = tuple(hidden or self.recipe.hidden)
        torch.manual_seed(seed)
        self.net = build_net(self.engine.obs_size, self.engine.num_actions,
                             self.hidden).to(self.device)
        if self.recipe.features:
            # the network starts at zero: the first moves are the least-penalty ones
            with torch.no_grad():
                self.net[-1].weight.zero_()
                self.net[-1].bias.zero_()
        self.optimiser = torch.optim.Adam(self.net.parameters(), lr=lr)
        #: ``--target td`` bootstraps from a copy of the network, refreshed every
        #: ``SYNC_EVERY`` updates (a target network: bootstrapping from the network being
        #: trained diverged)
        self.frozen = copy.deepcopy(self.net)
        self.rng = np.random.default_rng(seed)
        self.samples = 0
        self.updates = 0
        self.curve: list[dict[str, Any]] = []
        self.seconds = 0.0
        self.start_games()

    @property
    def meta(self) -> dict[str, Any]:
        return {"game": self.recipe.game, "options": dict(self.game.options),
                "hidden": list(self.hidden), "samples": self.samples, "seed": self.seed,
                "value_scale": self.recipe.scale, "unit": self.recipe.unit,
                **({"features": self.recipe.features, "feature_scale": self.recipe.scale}
                   if self.recipe.features else {}),
                "target": self.target,
                "method": "deep Monte-Carlo (cardtable.train.dmc)"}

    def start_games(self) -> None:
        """Fresh deals in every row, from the run's generator."""
        seeds = self.rng.integers(0, EVAL_SEED, self.envs)
        self.games = self.engine.init(seeds)
        self.pending = Pending(self.envs, self.game.num_players)
        #: the card each row's seat to act has just taken (-1: none), Three Thirteen
        self.took = np.full(self.envs, -1, np.int64)
        self.segment = self.recipe.segment(self.games)
        self.standing = self.recipe.standing(self.games)

    def move_features(self) -> np.ndarray | None:
        """(N, actions) the recipe's move features of every row, or None."""
        if self.recipe.features == "penalties_after":
            from cardtable.vector.threethirteen import VectorThreeThirteen

            assert isinstance(self.engine, VectorThreeThirteen)
            return np.asarray(self.engine.penalties_after(self.games))
        return None

    def numpy_net(self) -> QNet:
        return to_numpy(self.net, self.scale, self.meta)

    # -- self-play -------------------------------------------------------------

    def act(self) -> None:
        """One move in every game: greedy by the network, or random with epsilon."""
        import torch

        b = self.games
        seats = b.current_player.copy()
        obs = self.engine.observe(b, seats)
        mask = self.engine.legal_mask(b)
        with torch.no_grad():
            q = self.net(torch.from_numpy(obs * self.scale).to(self.device)).cpu().numpy()
        feats = self.move_features()
        if feats is not None:
            q -= feats / self.recipe.scale
            mask = no_idle_take(mask.astype(bool), feats, self.took)
        greedy = np.where(mask, q, -np.inf).argmax(axis=1)
        explore = self.rng.random(self.envs) < self.epsilon
        if explore.any():
            noise = self.rng.random(mask.shape) * mask
            greedy[explore] = noise[explore].argmax(axis=1)
        chosen = (np.zeros(self.envs, np.float32) if feats is None
                  else feats[np.arange(self.envs), greedy] / self.recipe.scale)
        extra = {} if self.target == "mc" else {
            "mask": mask.astype(bool),
            "features": (np.zeros(mask.shape, np.float16) if feats is None
                         else (feats / self.recipe.scale).astype(np.float16))}
        self.pending.add(obs=obs.astype(np.float16), act=greedy.astype(np.int64),
                         seat=seats.astype(np.int64), feature=chosen, **extra)
        if feats is not None:   # what each row's seat takes, for its discard next
            from cardtable.vector.threethirteen import M_DISCARD_LEN

            top = b.discard[np.arange(self.envs), np.maximum(b.meta[:, M_DISCARD_LEN] - 1, 0)]
            self.took = np.where(greedy == TAKE, top, -1).astype(np.int64)
        result = self.engine.step(b, greedy, autoreset=False)
        ended = np.asarray(result.terminated) | np.asarray(result.truncated)
        segment = self.recipe.segment(b)
        closed = ended | (segment != self.segment)
        if closed.any():
            rows = np.flatnonzero(closed)
            now = self.recipe.standing(b)
            rewards = np.asarray(result.rewards, np.float32)
            self.pending.close(rows, self.recipe.returns(self.standing[rows], now[rows],
                                                         rewards[rows]))
        if ended.any():
            self.engine.reset_rows(b, np.flatnonzero(ended))
        self.segment = self.recipe.segment(b)
        self.standing = np.where(closed[:, None], self.recipe.standing(b), self.standing)

    # -- learning --------------------------------------------------------------

    def learn(self, batch: dict[str, np.ndarray], room: int) -> float:
        """One pass over at most ``room`` samples of ``batch`` (``Pending.ready``) in
        shuffled minibatches; the mean loss. The target of a move is its return
        (``--target mc``), or (``td``) the value of the same seat's next move in the
        segment, its return for the last."""
        import torch

        n = min(room, len(batch["ret"]))
        order = self.rng.permutation(n)
        losses = []
        for start in range(0, n, self.batch):
            pick = order[start:start + self.batch]
            x = torch.from_numpy(batch["obs"][pick].astype(np.float32) * self.scale)
            a = torch.from_numpy(batch["act"][pick])
            g = torch.from_numpy(self._targets(batch, pick))
            f = torch.from_numpy(batch["feature"][pick])
            q = self.net(x.to(self.device)).gather(1, a[:, None].to(self.device))[:, 0]
            loss = torch.nn.functional.mse_loss(q - f.to(self.device), g.to(self.device))
            self.optimiser.zero_grad()
            loss.backward()
            self.optimiser.step()
            losses.append(float(loss.detach()))
            self.updates += 1
            if self.updates % SYNC_EVERY == 0:
                self.frozen.load_state_dict(self.net.state_dict())
        self.samples += n
        return float(np.mean(losses)) if losses else math.nan

    def _targets(self, batch: dict[str, np.ndarray], pick: np.ndarray) -> np.ndarray:
        ret = batch["ret"][pick].astype(np.float32)
        if self.target == "mc":
            return ret
        import torch

        nxt = batch["next"][pick]
        has = nxt >= 0
        if not has.any():
            return ret
        rows = nxt[has]
        with torch.no_grad():
            x = torch.from_numpy(batch["obs"][rows].astype(np.float32) * self.scale)
            q = self.frozen(x.to(self.device)).cpu().numpy()
        q -= batch["features"][rows].astype(np.float32)
        q = np.where(batch["mask"][rows], q, -np.inf)
        ret[has] = q.max(axis=1)
        return ret

    # -- checkpoints -----------------------------------------------------------

    def checkpoint(self) -> None:
        import torch

        self.out.mkdir(parents=True, exist_ok=True)
        state = {"net": self.net.state_dict(), "frozen": self.frozen.state_dict(),
                 "optimiser": self.optimiser.state_dict(),
                 "rng": self.rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                 "samples": self.samples, "updates": self.updates, "curve": self.curve,
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
        if (meta["game"], tuple(meta["hidden"]), meta.get("target", "mc")) != (
                self.recipe.game, self.hidden, self.target):
            raise SystemExit(f"cardtable.train: {self.out} holds a run of another game, "
                             "network or target; give another --out")
        self.net.load_state_dict(state["net"])
        self.frozen.load_state_dict(state["frozen"])
        self.optimiser.load_state_dict(state["optimiser"])
        self.rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])
        self.samples, self.updates = state["samples"], state["updates"]
        self.curve, self.seconds = state["curve"], state["seconds"]
        self.start_games()


def train(run: Run, samples: int, eval_every: int, eval_deals: int, chunk: int,
          progress: bool = True) -> list[dict[str, Any]]:
    """Play and learn until ``samples`` samples are learned from; evaluate and checkpoint
    every ``eval_every``. Self-play starts from fresh deals after each checkpoint (a
    checkpoint holds no game in play), so that a resumed run is the same as one not
    interrupted."""
    started = time.perf_counter() - run.seconds
    if not run.curve:
        _evaluate(run, eval_deals, started, loss=math.nan)
        run.checkpoint()
        run.start_games()
    loss = math.nan
    shown = 0.0
    while run.samples < samples:
        target = min(samples, (run.samples // eval_every + 1) * eval_every)
        while run.samples < target:
            for _ in range(chunk):
                run.act()
            loss = run.learn(run.pending.ready(), target - run.samples)
            now = time.perf_counter()
            if progress and now - shown >= 1.0:
                _bar(run.samples, samples, now - started, loss)
                shown = now
        run.seconds = time.perf_counter() - started
        _evaluate(run, eval_deals, started, loss)
        run.checkpoint()
        run.start_games()
    if progress:
        print(file=sys.stderr)
    return run.curve


def _evaluate(run: Run, deals: int, started: float, loss: float) -> None:
    point: dict[str, Any] = {"samples": run.samples, "updates": run.updates,
                             "seconds": round(time.perf_counter() - started, 1),
                             "loss": None if math.isnan(loss) else round(loss, 5)}
    if deals:
        point["heuristic"] = evaluate(run.numpy_net(), run.recipe.game, run.recipe.options,
                                      deals)
    run.curve.append(point)
    print(json.dumps(point), flush=True)


def _bar(done: int, total: int, seconds: float, loss: float) -> None:
    width = 30
    filled = int(width * done / total)
    rate = done / seconds if seconds > 0 else 0.0
    eta = (total - done) / rate if rate else 0.0
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} samples "
          f"{rate:,.0f}/s loss {loss:.4f} eta {eta / 60:.1f} min", end="", file=sys.stderr,
          flush=True)


def plot(curve: list[dict[str, Any]], path: Path, title: str, *,
         x_of: Callable[[dict[str, Any]], float] = lambda p: p["samples"] / 1e6,
         xlabel: str = "samples learned from (millions of moves)",
         ylabel: str = "score on paired deals (win 1, draw 1/2)",
         label: str = "against the heuristic",
         ylim: tuple[float, float] = (0.0, 1.0)) -> None:
    """The learning curve: the score against the heuristic (each point's ``heuristic``)
    with its interval, over ``x_of`` of each point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [p for p in curve if "heuristic" in p]
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [x_of(p) for p in points]
    y = [p["heuristic"]["score"] for p in points]
    ax.errorbar(x, y, yerr=[[s - p["heuristic"]["low"] for s, p in zip(y, points, strict=True)],
                            [p["heuristic"]["high"] - s for s, p in zip(y, points, strict=True)]],
                marker="o", capsize=3, label=label)
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(*ylim)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "drawbridge":
        from cardtable.train import draw  # no network: an evolution strategy at par

        draw.main(argv)
        return
    parser = argparse.ArgumentParser(
        prog="python -m cardtable.train",
        description="Train a game's action-value network by deep Monte-Carlo self-play on "
                    "the batched engines (docs/training.md).")
    parser.add_argument("game", choices=sorted([*RECIPES, "drawbridge"]),
                        help="the game to train (drawbridge: its draw phase, "
                             "cardtable.train.draw; python -m cardtable.train drawbridge "
                             "--help)")
    parser.add_argument("--out", type=Path, required=True,
                        help="the run's folder: checkpoint.pt, latest.npz (the NumPy "
                             "weights), curve.json, curve.png")
    parser.add_argument("--samples", type=int, default=20_000_000,
                        help="moves to learn from in all (default 20,000,000; 0 writes the "
                             "untrained network)")
    parser.add_argument("--eval-every", type=int, default=2_000_000,
                        help="evaluate and checkpoint every so many samples")
    parser.add_argument("--eval-deals", type=int, default=100,
                        help="deals (each played twice) against the heuristic at each "
                             "evaluation; 0: none")
    parser.add_argument("--envs", type=int, default=512, help="games played at once")
    parser.add_argument("--chunk", type=int, default=64,
                        help="moves of every game between two learning passes")
    parser.add_argument("--batch", type=int, default=1024, help="minibatch size")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epsilon", type=float, default=0.05,
                        help="the share of random legal moves in self-play")
    parser.add_argument("--hidden", type=str, default=None,
                        help="the hidden layers' widths, e.g. 512,256,256 (the game's "
                             "default)")
    parser.add_argument("--target", choices=("mc", "td"), default="mc",
                        help="what a move's value learns toward: mc, the return of its "
                             "segment (DouZero's); td, the value of the seat's next move "
                             "in the segment (its return for the last)")
    parser.add_argument("--method", choices=("dmc", "value"), default="dmc",
                        help="dmc: an action-value network by deep Monte-Carlo self-play "
                             "(both games); value: a value network over afterstates "
                             "labelled with results of heuristic games (Sequence; "
                             "cardtable.train.value)")
    parser.add_argument("--positions", type=int, default=2_000_000,
                        help="--method value: the positions of the training set")
    parser.add_argument("--holdout", type=int, default=100_000,
                        help="--method value: held-out positions (their own deals)")
    parser.add_argument("--init", default=None, metavar="WEIGHTS",
                        help="--method value: start from these weights (a latest.npz, or "
                             "'shipped': the package's), which the value bots of "
                             "--bot-games play too")
    parser.add_argument("--games-by", default=None, metavar="WEIGHTS",
                        help="--method value: the value bots of --bot-games play these "
                             "weights (a latest.npz, or 'shipped') while a fresh network of "
                             "--hidden's widths learns (instead of --init)")
    parser.add_argument("--lr-decay", choices=("none", "cosine"), default="none",
                        help="--method value: cosine lowers the learning rate along a half "
                             "cosine to 0 at --samples (default none: --lr throughout)")
    parser.add_argument("--bot-games", type=int, default=0,
                        help="--method value: scalar games of --bots added to the training "
                             "set (about 50 positions a game; default none)")
    parser.add_argument("--bots", default="blend,heuristic-v1",
                        help="--method value: the bots of --bot-games: the first sits at "
                             "every game, against each of them in turn, itself included "
                             "(default blend,heuristic-v1)")
    parser.add_argument("--workers", type=int, default=1,
                        help="--method value: processes that play --bot-games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cpu", help="cpu, or cuda when one is there")
    parser.add_argument("--resume", action="store_true",
                        help="go on from --out's checkpoint")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.samples < 0:
        parser.error("--samples must be 0 or more")
    for name in ("eval_every", "envs", "chunk", "batch"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.eval_deals < 0:
        parser.error("--eval-deals must be 0 or more")
    if not 0 <= args.epsilon <= 1:
        parser.error("--epsilon is a share, from 0 to 1")
    hidden = None
    if args.hidden:
        try:
            hidden = tuple(int(h) for h in args.hidden.split(","))
        except ValueError:
            parser.error("--hidden takes widths separated by commas, e.g. 512,256")
        if not hidden or min(hidden) < 1:
            parser.error("--hidden takes widths of at least 1")
    try:
        import numba  # noqa: F401
        import torch
    except ImportError:
        parser.error("training needs PyTorch and numba: pip install -e '.[train]'")
    if args.method == "value":
        if args.positions < 1 or args.holdout < 1:
            parser.error("--positions and --holdout must be at least 1")
        if args.bot_games < 0 or args.workers < 1:
            parser.error("--bot-games must be 0 or more, --workers at least 1")
        if args.init is not None and args.hidden:
            parser.error("--init's weights set the layers' widths: leave --hidden out "
                         "(or give --games-by for a fresh network of --hidden's widths)")
        if args.init is not None and args.games_by is not None:
            parser.error("--init and --games-by both say which weights play --bot-games: "
                         "give one")
        args.bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
        try:
            for kind in args.bots:
                bot_kind(kind)
        except OptionsError as exc:
            parser.error(f"--bots: {exc}")
        if not args.bots:
            parser.error("--bots names one bot at least")
        from cardtable.train import value

        value.main(args)
        return
    if (args.init is not None or args.games_by is not None or args.bot_games
            or args.workers != 1 or args.lr_decay != "none"):
        parser.error("--init, --games-by, --bot-games, --bots, --workers and --lr-decay "
                     "are --method value's")
    torch.set_num_threads(max(1, torch.get_num_threads()))
    run = Run(args.game, args.out, args.seed, args.envs, args.batch, args.lr, args.epsilon,
              hidden, args.device, args.target)
    if args.resume:
        if not (args.out / "checkpoint.pt").exists():
            parser.error(f"--resume: there is no checkpoint in {args.out}")
        run.resume()
    elif (args.out / "checkpoint.pt").exists():
        parser.error(f"{args.out} holds a run already: --resume to go on, or another --out")
    curve = train(run, args.samples, args.eval_every, args.eval_deals, args.chunk,
                  progress=not args.quiet)
    try:
        plot(curve, args.out / "curve.png", f"{args.game}: deep Monte-Carlo, seed {args.seed}")
    except ImportError:
        print("matplotlib is not installed: no curve.png (pip install -e '.[plot]')",
              file=sys.stderr)
    print(f"weights: {args.out / 'latest.npz'} (cardtable arena {args.game} --bots "
          f"cardtable.bots.trained:make:weights={args.out / 'latest.npz'},heuristic)")
