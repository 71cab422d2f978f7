"""A review of a finished game by a trained network (``cardtable.bots.trained``): each
move against the move the network values most, as lichess's analysis shows a game.

For every move, from the position before it and the seat's own observation: the value
of the move played and of the best legal move, in the network's unit (Three Thirteen:
points of the round, the other seat's penalty less the mover's), and the loss between
them. A loss of at least ``INACCURACY`` is an inaccuracy, ``MISTAKE`` a mistake,
``BLUNDER`` a blunder. A player's *accuracy* is the share of its moves within
``INACCURACY`` of the best, in percent.

Sequence's network is a value over afterstates (``cardtable.bots.sequence_value``): a
move's value is the mover's chance to win after it, in percent, and the best move is the
one the trained bot plays; the losses are in points of percentage (``THRESHOLDS``).

Draw Bridge has its exact review (``cardtable.drawbridge.review``, against perfect play
from the auction on); this one serves the games with a shipped network
(``reviewed_games()``).

Examples:
    >>> import cardtable
    >>> from cardtable import records
    >>> from cardtable.bots import make
    >>> from cardtable.review import review
    >>> state = cardtable.new_game("threethirteen").deal(seed=3)
    >>> bots = [make("heuristic", seed=1), make("random", seed=2)]
    >>> while not state.is_terminal:
    ...     state.apply(bots[state.current_player].choose(state))
    >>> answer = review(records.record_of(state))
    >>> sorted(answer["players"][0])[:3]
    ['accuracy', 'blunders', 'inaccuracies']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable import records
from cardtable.bots.sequence_value import ValueNet, best_action
from cardtable.bots.trained import FEATURES, SHIPPED, no_idle_take, shipped

__all__ = ["BLUNDER", "INACCURACY", "MISTAKE", "THRESHOLDS", "review", "reviewed_games"]

#: losses, in the network's unit (Three Thirteen: points of a round), that make a move an
#: inaccuracy, a mistake, a blunder
INACCURACY, MISTAKE, BLUNDER = 1.0, 4.0, 10.0
#: each game's thresholds (inaccuracy, mistake, blunder) in its review's unit: Three
#: Thirteen's in points of the round, Sequence's in points of percentage of the mover's
#: chance to win
THRESHOLDS = {"threethirteen": (INACCURACY, MISTAKE, BLUNDER), "sequence": (4.0, 8.0, 15.0)}


def reviewed_games() -> list[str]:
    """The games a network reviews (those with shipped weights)."""
    return sorted(g for g in {*SHIPPED, "sequence"} if shipped(g) is not None)


def verdict(loss: float, game: str = "threethirteen") -> str | None:
    """"blunder", "mistake", "inaccuracy" or None for a move of ``game`` that lost
    ``loss`` (in the unit of the game's review)."""
    inaccuracy, mistake, blunder = THRESHOLDS[game]
    return next((word for bound, word in ((blunder, "blunder"), (mistake, "mistake"),
                                          (inaccuracy, "inaccuracy")) if loss >= bound), None)


def review(record: records.Record) -> dict[str, Any]:
    """The review of a finished game's ``record``: ``{"game", "method", "unit",
    "moves": [{number, seat, round, played, best, value, best_value, loss, verdict}],
    "players": [{seat, moves, loss, accuracy, inaccuracies, mistakes, blunders}]}``;
    ``number`` counts the game's moves from 1. ValueError for a game without a network
    or options it was not trained for."""
    from cardtable.encoders import encoder_for

    net = shipped(record.game)
    start = record.start_state()
    fits = net is not None and (net.fits(start.game) if isinstance(net, ValueNet)
                                else net.fits(start))
    if net is None or not fits:
        raise ValueError(f"no trained network reviews {record.game} with these options; "
                         f"the reviewed games are {', '.join(reviewed_games())} (two "
                         "players, the default rules)")
    encoder = encoder_for(start.game)
    if isinstance(net, ValueNet):
        return _afterstate_review(record, net, encoder)
    scale = float(net.meta.get("value_scale", 1.0))
    feature = FEATURES.get(net.meta.get("features", ""))
    obs, masks, seats, rounds, played, extra = [], [], [], [], [], []
    for number, state in enumerate(records.positions(record)):
        if number == len(record.actions):
            break
        seat = state.current_player
        assert seat is not None
        mask = np.zeros(state.game.num_distinct_actions, bool)
        mask[[a.id for a in state.legal_actions()]] = True
        obs.append(encoder.encode(state, seat))
        if feature is not None:
            extra.append(feature(state))
        masks.append(mask)
        seats.append(seat)
        rounds.append(getattr(state, "round", None))
        played.append(state.parse_action(record.actions[number][1]))
    moves: list[dict[str, Any]] = []
    if obs:
        penalties = np.array(extra) if extra else None
        legal = np.array(masks)
        # the best move is one the bot may play: no idle take (the move played is judged
        # whatever it was)
        allowed = legal if penalties is None else no_idle_take(legal, penalties)
        values = np.where(legal,
                          net.action_values(np.array(obs), penalties) * scale, -np.inf)
        best = np.where(allowed, values, -np.inf).argmax(axis=1)
        for k, action in enumerate(played):
            value, top = float(values[k, action.id]), float(values[k, best[k]])
            loss = max(0.0, top - value)
            moves.append({"number": k + 1, "seat": seats[k], "round": rounds[k],
                          "played": action.notation,
                          "best": start.game.actions[int(best[k])].notation,
                          "value": round(value, 2), "best_value": round(top, 2),
                          "loss": round(loss, 2), "verdict": verdict(loss)})
    return {"game": record.game, "method": "trained network", "unit": net.meta.get(
        "unit", "value"), "moves": moves, "players": _players(moves, start.game.num_players)}


def _afterstate_review(record: records.Record, net: ValueNet, encoder: Any
                       ) -> dict[str, Any]:
    """Sequence: each move's afterstate value (the mover's chance to win after it, in
    percent) against the best legal move's, the move the trained bot would play."""
    moves: list[dict[str, Any]] = []
    start = record.start_state()
    for number, state in enumerate(records.positions(record)):
        if number == len(record.actions):
            break
        seat = state.current_player
        assert seat is not None
        played = state.parse_action(record.actions[number][1])
        legal = [a.id for a in state.legal_actions()]
        best, values = best_action(net, encoder.encode(state, seat), legal)
        value = 100.0 * float(values[legal.index(played.id)])
        top = 100.0 * float(values[legal.index(best)])
        loss = max(0.0, top - value)
        moves.append({"number": number + 1, "seat": seat, "round": None,
                      "played": played.notation, "best": start.game.actions[best].notation,
                      "value": round(value, 2), "best_value": round(top, 2),
                      "loss": round(loss, 2), "verdict": verdict(loss, "sequence")})
    return {"game": record.game, "method": "trained network",
            "unit": "percent: the mover's chance to win after the move",
            "moves": moves, "players": _players(moves, start.game.num_players)}


def _players(moves: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    players = []
    for seat in range(count):
        mine = [m for m in moves if m["seat"] == seat]
        counts = {word: sum(m["verdict"] == word for m in mine)
                  for word in ("inaccuracy", "mistake", "blunder")}
        close = sum(m["verdict"] is None for m in mine)
        players.append({"seat": seat, "moves": len(mine),
                        "loss": round(sum(m["loss"] for m in mine), 2),
                        "accuracy": round(100.0 * close / len(mine), 1) if mine else None,
                        "inaccuracies": counts["inaccuracy"], "mistakes": counts["mistake"],
                        "blunders": counts["blunder"]})
    return players
