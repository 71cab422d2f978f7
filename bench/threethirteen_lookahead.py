"""Three Thirteen's lookahead bot: its time a move, round by round, beside the heuristic's.

    python bench/threethirteen_lookahead.py                 # 2 players, 8 rounds' positions each
    python bench/threethirteen_lookahead.py --players 4 --deals 20

Positions come from rounds the heuristic plays against itself (seeded deals); at each,
both bots choose, timed on the same position, the heuristic first. Draws and discards
are apart: a discard weighs every card against every card the next draw may bring. The
ratio (lookahead's time over the heuristic's) is what to compare across machines. One
process, one core.
"""

from __future__ import annotations

import argparse
import json
import time

import cardtable
from cardtable.bots import make
from cardtable.threethirteen.game import ThreeThirteenState


def timings(players: int, deals: int, round_: int) -> dict[str, dict[str, float]]:
    game = cardtable.new_game("threethirteen", players=players)
    heuristic, lookahead = make("heuristic", seed=1), make("lookahead", seed=1)
    spent = {phase: {"heuristic": 0.0, "lookahead": 0.0, "moves": 0.0}
             for phase in ("draw", "discard")}
    for deal in range(deals):
        state = game.setup(round=round_, seed=deal)
        assert isinstance(state, ThreeThirteenState)
        while not state.is_terminal and state.round == round_:
            phase = spent["draw" if state.drawing else "discard"]
            chosen = {}
            for name, bot in (("heuristic", heuristic), ("lookahead", lookahead)):
                start = time.perf_counter()
                chosen[name] = bot.choose(state)
                phase[name] += time.perf_counter() - start
            phase["moves"] += 1
            state.apply(chosen["heuristic"])   # the heuristic plays on: the same rounds
    return spent


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 12 (default 2)")
    parser.add_argument("--deals", type=_positive, default=8,
                        help="deals of each round (default 8)")
    parser.add_argument("--rounds", type=int, nargs="+", default=[1, 4, 7, 11],
                        choices=range(1, 12), metavar="ROUND",
                        help="the rounds to time, 1 to 11 (default 1 4 7 11)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    try:
        cardtable.new_game("threethirteen", players=args.players)
    except cardtable.OptionsError as exc:
        parser.error(str(exc))
    for round_ in args.rounds:
        spent = timings(args.players, args.deals, round_)
        row: dict[str, float | int] = {"round": round_, "players": args.players}
        for phase, got in spent.items():
            moves = max(got["moves"], 1)
            row[f"{phase}_heuristic_ms"] = round(1000 * got["heuristic"] / moves, 2)
            row[f"{phase}_lookahead_ms"] = round(1000 * got["lookahead"] / moves, 2)
            row[f"{phase}_ratio"] = round(got["lookahead"] / max(got["heuristic"], 1e-9), 1)
        if args.json:
            print(json.dumps(row))
        else:
            print(f"round {round_:>2}: draw {row['draw_lookahead_ms']:>6} ms "
                  f"({row['draw_ratio']}x the heuristic's {row['draw_heuristic_ms']} ms), "
                  f"discard {row['discard_lookahead_ms']:>6} ms "
                  f"({row['discard_ratio']}x the heuristic's {row['discard_heuristic_ms']} ms)")


if __name__ == "__main__":
    main()
