"""Sequence positions: ``setup`` (API.md, Positions), and saving and loading states.

Every position is checked as a game played by the rules leaves it (RULES 2.4-2.6).
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.cards import card_names
from cardtable.core import (
    OptionsError,
    PositionError,
    check_bool,
    check_card_supply,
    check_int,
    missing_cards,
    new_rng,
    position_cards,
    position_seat,
    position_seat_lists,
    restore_base,
    unknown_keys,
)
from cardtable.sequence.board import ALL_WINDOWS, CORNERS, WINDOW_OF_CELLS, cell_name, parse_cell
from cardtable.sequence.game import CORNER, DECKS, SequenceGame, SequenceState, empty_board


def setup(game: SequenceGame, position: dict[str, Any]) -> SequenceState:
    """A position as API.md describes; omitted keys drawn from ``seed``."""
    keys = ("dealer", "current", "hands", "deck", "discards", "chips", "sequences", "seed")
    unknown_keys(game.name, position, keys)
    return build(game, position, new_rng(position.get("seed")), over=False)

def build(game: SequenceGame, position: dict[str, Any], rng: random.Random,
          over: bool) -> SequenceState:
    """A checked position; ``over`` for a saved finished game (a winner, who did not draw)."""
    n = game.num_players
    board = empty_board()
    for key, team in _mapping("chips", position.get("chips", {})).items():
        cell = _position_cell(key)
        if cell in CORNERS:
            raise PositionError(f"chips: {cell_name(cell)} is a corner; corners hold no chip")
        if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < game.teams:
            raise PositionError(
                f"chips: {cell_name(cell)} holds team {team!r}; teams are 0..{game.teams - 1}"
            )
        board[cell] = team + 1
    sequences = _position_sequences(position.get("sequences", []), board, game.teams)
    _check_sequences(sequences, board, game, over)

    discards = (position_seat_lists("discards", position.get("discards"), n)
                or [[] for _ in range(n)])
    for pile in discards:
        pile.reverse()  # given top first; kept with the top at the end
    hands = position_seat_lists("hands", position.get("hands"), n)
    used = [c for pile in discards for c in pile] + [c for h in hands or [] for c in h]
    deck = position_cards("deck", position["deck"]) if "deck" in position else None
    check_card_supply(used + (deck or []), DECKS)
    if hands is None:
        pool = missing_cards(used + (deck or []), DECKS)
        rng.shuffle(pool)
        if len(pool) < n * game.hand_size:
            raise PositionError("not enough cards left to deal the hands")
        hands = [[pool.pop() for _ in range(game.hand_size)] for _ in range(n)]
        used += [c for h in hands for c in h]
    for seat, hand in enumerate(hands):
        # the winner of a finished game played its last card without drawing (2.4.3)
        if len(hand) != game.hand_size and not (over and len(hand) == game.hand_size - 1):
            raise PositionError(
                f"hands: seat {seat} holds {len(hand)} cards; with {n} players a hand "
                f"holds {game.hand_size}"
            )
    if deck is None:
        deck = missing_cards(used, DECKS)
        rng.shuffle(deck)
    else:
        deck.reverse()  # given top first; kept with the top at the end
    if "dealer" in position:
        dealer = position_seat("dealer", position["dealer"], n)
    elif "current" in position:
        dealer = (position_seat("current", position["current"], n) - 1) % n
    else:
        dealer = rng.randrange(n)
    current = position_seat("current", position.get("current", (dealer + 1) % n), n)
    locked = bytearray(100)
    for _, cells in sequences:
        for cell in cells:
            locked[cell] = 1
    return SequenceState(game, rng, board, locked, hands, deck, discards, sequences,
                         dealer, current)


def _mapping(what: str, value: Any) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"{what} must be a dict such as {{'c4': 0}}, not {value!r}")
    return value


def _position_cell(text: Any) -> int:
    if not isinstance(text, str):
        raise PositionError(f"{text!r} is not a cell; cells are strings such as 'c4'")
    try:
        return parse_cell(text)
    except ValueError as exc:
        raise PositionError(str(exc)) from None



def _position_sequences(
    value: Any, board: bytearray, teams: int
) -> list[tuple[int, tuple[int, ...]]]:
    if not isinstance(value, list | tuple):
        raise PositionError("sequences must be a list of [team, [five cells]]")
    out = []
    for item in value:
        try:
            team, cells = item
            cells = tuple(_position_cell(c) for c in cells)
        except (TypeError, ValueError):
            raise PositionError(f"sequences: {item!r} is not [team, [five cells]]") from None
        if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < teams:
            raise PositionError(f"sequences: team {team!r} is not a team 0..{teams - 1}")
        names = " ".join(cell_name(c) for c in cells)
        if frozenset(cells) not in WINDOW_OF_CELLS:
            raise PositionError(f"sequences: {names} are not five cells in a straight line")
        cells = WINDOW_OF_CELLS[frozenset(cells)]
        for cell in cells:
            if board[cell] not in (team + 1, CORNER):
                raise PositionError(
                    f"sequences: {cell_name(cell)} of {names} holds no chip of team {team}"
                )
        out.append((team, cells))
    return out


def _check_sequences(sequences: list[tuple[int, tuple[int, ...]]], board: bytearray,
                     game: SequenceGame, over: bool) -> None:
    per_team: list[list[tuple[int, ...]]] = [[] for _ in range(game.teams)]
    for team, cells in sequences:
        for other in per_team[team]:
            if len(set(cells) & set(other)) > 1:
                raise PositionError(
                    "sequences: " + " ".join(map(cell_name, cells)) + " and "
                    + " ".join(map(cell_name, other)) + " share more than one cell"
                )
        per_team[team].append(cells)
    for team, seqs in enumerate(per_team):
        if len(seqs) >= game.needed and not over:
            raise PositionError(f"sequences: team {team} already has enough sequences to win")
        for window in ALL_WINDOWS:
            if window in seqs or not all(board[c] in (team + 1, CORNER) for c in window):
                continue
            if all(len(set(window) & set(s)) <= 1 for s in seqs):
                raise PositionError(
                    f"chips: team {team} holds " + " ".join(map(cell_name, window))
                    + ", a sequence that is not listed in sequences"
                )


def save(state: SequenceState) -> dict[str, Any]:
    """The state's own fields for ``to_dict`` (the base adds history, seed, generator)."""
    return {
        "dealer": state._dealer,
        "current": state._current,
        "hands": [card_names(h) for h in state._hands],
        "deck": card_names(reversed(state._deck)),
        "discards": [card_names(reversed(p)) for p in state._discards],
        "chips": state.chips(),
        "sequences": [[t, [cell_name(c) for c in cells]] for t, cells in state._sequences],
        "exchanged": state._exchanged,
        "passes": state._passes,
        "turns": state._turns,
        "over": state._over,
        "winning_team": state._winning_team,
    }


def load(game: SequenceGame, data: dict[str, Any]) -> SequenceState:
    """The state ``save`` wrote, checked (PositionError saying what is wrong)."""
    try:
        position = {k: data[k] for k in ("dealer", "current", "hands", "deck", "discards",
                                         "chips", "sequences")}
        over = check_bool("over", data["over"])
        state = build(game, position, new_rng(0), over)
        state._exchanged = check_bool("exchanged", data["exchanged"])
        state._passes = check_int("passes", data["passes"], allowed=range(
            game.num_players + 1)) or 0
        state._turns = check_int("turns", data["turns"], minimum=0) or 0
        state._over = over
        wt = data["winning_team"]
        state._winning_team = None if wt is None else check_int(
            "winning_team", wt, allowed=range(game.teams))
    except KeyError as exc:
        raise PositionError(f"saved sequence state lacks {exc.args[0]!r}") from None
    except OptionsError as exc:
        raise PositionError(f"saved sequence state: {exc}") from None
    restore_base(state, game, data)
    _check_restored(state)
    return state


def _check_restored(state: SequenceState) -> None:
    """PositionError if a loaded state's end, winner, passes and turns contradict each other
    (2.4, 2.6 and the rulings on passes and ``max_turns``)."""
    game = state.game
    n = game.num_players
    max_turns = game.max_turns
    winner = state._winning_team
    if max_turns is not None and state._turns > max_turns:
        raise PositionError(f"turns: {state._turns} turns played, but max_turns is {max_turns}")
    ended_by_turns = max_turns is not None and state._turns == max_turns
    if not state._over:
        if winner is not None:
            raise PositionError("winning_team is set, but the game is not over")
        if state._passes >= n or ended_by_turns:
            raise PositionError(f"over must be true after {state._passes} passes in a row and "
                                f"{state._turns} turns")
        return
    full = [s for s, hand in enumerate(state._hands) if len(hand) == game.hand_size]
    if winner is None:
        if state._passes < n and not ended_by_turns:
            raise PositionError("over: the game has no winner, yet it did not end by every "
                                "player passing or by max_turns")
        if len(full) != n:
            raise PositionError("hands: the game ended without a winner, so every hand is full")
        return
    done = [team for team in range(game.teams) if state._seq_count[team] >= game.needed]
    if done != [winner]:
        raise PositionError(f"winning_team: team {winner} has {state._seq_count[winner]} "
                            f"sequences; {game.needed} win, and only the winner has them")
    if game.team_of(state._current) != winner or state._current in full or len(full) != n - 1:
        raise PositionError(f"the winner's last card is played without a draw: seat "
                            f"{state._current} of team {winner} must hold one card less, "
                            "every other hand is full")
