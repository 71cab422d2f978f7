"""Three Thirteen positions: ``setup`` (API.md, Positions), and saving and loading states.

A loaded state is checked field by field and as a whole, as a match played by the rules
leaves it (RULES 3.2-3.9).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardtable.cards import NUM_CARDS, card_names
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
from cardtable.threethirteen.game import (
    ROUNDS,
    ThreeThirteenGame,
    ThreeThirteenState,
    _last_round_copy,
    deal_size,
)


def setup(game: ThreeThirteenGame, position: dict[str, Any]) -> ThreeThirteenState:
    """The start of a round, as API.md's Positions say; omitted keys drawn from ``seed``."""
    keys = ("round", "dealer", "hands", "stock", "discard", "scores", "seed")
    unknown_keys(game.name, position, keys)
    rng = new_rng(position.get("seed"))
    n = game.num_players
    round_ = position.get("round", 1)
    if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= ROUNDS:
        raise PositionError(f"round must be a number from 1 to {ROUNDS}, not {round_!r}")
    size = deal_size(round_)
    dealer = (position_seat("dealer", position["dealer"], n) if "dealer" in position
              else rng.randrange(n))
    scores = _position_scores(position.get("scores"), n)
    hands = position_seat_lists("hands", position.get("hands"), n)
    stock = position_cards("stock", position["stock"]) if "stock" in position else None
    discard = position_cards("discard", position["discard"]) if "discard" in position \
        else None
    named = [c for h in hands or [] for c in h] + (stock or []) + (discard or [])
    check_card_supply(named, game.decks)
    for seat, hand in enumerate(hands or []):
        if len(hand) != size:
            raise PositionError(
                f"hands: seat {seat} holds {len(hand)} cards; round {round_} deals {size}")
    pool = missing_cards(named, game.decks)
    rng.shuffle(pool)
    if hands is None:
        if len(pool) < n * size:
            raise PositionError(f"not enough cards left to deal {n} hands of {size}")
        hands = [[pool.pop() for _ in range(size)] for _ in range(n)]
    if stock is None:
        stock, pool = pool, []
    else:
        stock.reverse()  # given top first; kept with the top at the end
    if discard is None:
        # API.md: an omitted discard pile is the stock's top card turned up
        discard = [stock.pop()] if stock else []
    else:
        discard.reverse()
    if not stock and not discard:
        raise PositionError("the stock and the discard pile are both empty: nothing to draw")
    state = ThreeThirteenState(game, rng, round_, dealer, hands, stock, discard, pool,
                               scores)
    state._start_turn()
    return state


def _position_scores(value: Any, n: int) -> list[int]:
    if value is None:
        return [0] * n
    if not isinstance(value, list | tuple) or len(value) != n or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value):
        raise PositionError(f"scores must be a list of {n} penalty totals (integers from 0 up)")
    return list(value)



def save(state: ThreeThirteenState) -> dict[str, Any]:
    """The state's own fields for ``to_dict`` (the base adds history, seed, generator)."""
    return {
        "round": state._round,
        "dealer": state._dealer,
        "current": state._current,
        "drawing": state._drawing,
        "hands": [card_names(h) for h in state._hands],
        "stock": card_names(reversed(state._stock)),
        "discard": card_names(reversed(state._discard)),
        "out_of_play": card_names(state._out_of_play),
        "scores": list(state._totals),
        "reshuffled": state._reshuffled,
        "went_out": state._went_out,
        "out_melds": None if state._out_melds is None
        else [card_names(m) for m in state._out_melds],
        "turns_left": state._turns_left,
        "taken": [card_names(t) for t in state._taken],
        "reshuffle_pile": card_names(state._reshuffle_pile),
        "drawn": [card_names(d) for d in state._drawn],
        "last_round": _last_round_copy(state._last_round),
        "round_scores": [list(r) for r in state._round_scores],
        "round_start": state._round_start,
        "over": state._over,
    }


def load(game: ThreeThirteenGame, data: dict[str, Any]) -> ThreeThirteenState:
    """The state ``save`` wrote, checked (PositionError saying what is wrong)."""
    try:
        return _restore(game, data)
    except KeyError as exc:
        raise PositionError(f"saved threethirteen state lacks {exc.args[0]!r}") from None
    except OptionsError as exc:
        raise PositionError(f"saved threethirteen state: {exc}") from None


def _restore(game: ThreeThirteenGame, data: dict[str, Any]) -> ThreeThirteenState:
    """A saved state, checked: every field of the right kind, and the fields agreeing with
    each other as a game played by the rules leaves them (PositionError saying what)."""
    n = game.num_players
    round_ = check_int("round", data["round"], allowed=range(1, ROUNDS + 1))
    assert round_ is not None
    hands = _savedposition_seat_lists("hands", data["hands"], n)
    stock = position_cards("stock", data["stock"])[::-1]
    discard = position_cards("discard", data["discard"])[::-1]
    out_of_play = position_cards("out_of_play", data["out_of_play"])
    every = [c for h in hands for c in h] + stock + discard + out_of_play
    check_card_supply(every, game.decks)
    if len(every) != NUM_CARDS * game.decks:
        raise PositionError(f"the saved cards number {len(every)}, not the "
                            f"{NUM_CARDS * game.decks} of {game.decks} deck(s)")
    state = ThreeThirteenState(game, new_rng(0), round_, position_seat("dealer", data["dealer"], n),
                               hands, stock, discard, out_of_play,
                               _position_scores(data["scores"], n))
    state._current = position_seat("current", data["current"], n)
    state._drawing = check_bool("drawing", data["drawing"])
    state._reshuffled = check_bool("reshuffled", data["reshuffled"])
    state._over = check_bool("over", data["over"])
    went_out = data["went_out"]
    state._went_out = None if went_out is None else position_seat("went_out", went_out, n)
    state._out_melds = _saved_melds(data["out_melds"])
    state._turns_left = check_int("turns_left", data["turns_left"], allowed=range(n)) or 0
    state._taken = _savedposition_seat_lists("taken", data["taken"], n)
    state._drawn = _savedposition_seat_lists("drawn", data["drawn"], n)
    state._reshuffle_pile = sorted(position_cards("reshuffle_pile", data["reshuffle_pile"]))
    state._last_round = _saved_last_round(data["last_round"], n)
    state._round_scores = _saved_round_scores(data, state._last_round, n)
    state._round_start = check_int("round_start", data["round_start"], minimum=0) or 0
    restore_base(state, game, data)
    _check_restored(state)
    return state


def _check_restored(state: ThreeThirteenState) -> None:
    """PositionError if the fields of a loaded state contradict each other or the rules."""
    n = state.game.num_players
    # 3.9: the match ends after round 11, which has been scored
    last = state._last_round
    if state._over and (state._round != ROUNDS or last is None or last["round"] != ROUNDS):
        raise PositionError(f"over: the match ends only after round {ROUNDS} is scored")
    hands = state._hands
    size = deal_size(state._round)
    for s, hand in enumerate(hands):
        expected = size + (1 if s == state._current and not state._drawing and not state._over
                           else 0)
        if len(hand) != expected:
            raise PositionError(f"hands: seat {s} holds {len(hand)} cards, not {expected}")
        if Counter(state._taken[s]) - Counter(hand):
            raise PositionError(f"seat {s}: taken cards that are not in the hand")
    # 3.4: a turn starts with a card to draw (an empty stock is remade or ends the round)
    if state._drawing and not state._over and not state._stock:
        raise PositionError("the stock is empty at the start of a turn; it would have been "
                            "remade from the discard pile, or the round ended")
    # 3.4 ruling: after the reshuffle the stock is the old discard pile less what was drawn
    drawn = Counter(c for d in state._drawn for c in d)
    if not state._reshuffled and (state._reshuffle_pile or drawn):
        raise PositionError("reshuffle_pile and drawn must be empty before the stock is remade")
    if state._reshuffled and Counter(state._stock) + drawn != Counter(state._reshuffle_pile):
        raise PositionError("the stock and the cards drawn since the reshuffle are not the "
                            "reshuffled pile")
    # 3.6: the player out shows melds that are exactly the hand; the others play one turn
    went_out = state._went_out
    if went_out is None:
        if state._out_melds is not None or state._turns_left:
            raise PositionError("out_melds and turns_left need a player who went out "
                                "(went_out is null)")
    else:
        melds = state._out_melds
        hand = hands[went_out]
        if (melds is None or Counter(c for m in melds for c in m) != Counter(hand)
                or not state.melds_fully(hand)
                or any(len(m) < 3 or not state.melds_fully(m) for m in melds)):
            raise PositionError(f"went_out: seat {went_out}'s hand does not split into the "
                                "melds shown in out_melds")
        if not state._over:
            if not 1 <= state._turns_left <= n - 1:
                raise PositionError(f"turns_left must be 1..{n - 1} after a player went out")
            if state._current != (went_out + n - state._turns_left) % n:
                raise PositionError(f"current: seat {state._current} cannot be to act with "
                                    f"{state._turns_left} turns left after seat {went_out} "
                                    "went out")
    if state._over and state._turns_left:
        raise PositionError("over: a finished match has no turns left")
    if last is not None:
        if last["round"] != state._round - (0 if state._over else 1):
            raise PositionError(f"last_round: round {last['round']} is not the one before "
                                f"round {state._round}")
        if any(p < 0 or p > t for p, t in zip(last["scores"], state._totals, strict=True)):
            raise PositionError("last_round: its penalties must be from 0 up to the totals")
    if state._round_start > len(state.history):
        raise PositionError("round_start lies beyond the saved history")
    # the score sheet: no more rounds than were completed, the last one is last_round,
    # and its columns add up to no more than the totals (a setup position's or an old
    # save's earlier rounds are in the totals only)
    sheet = state._round_scores
    completed = ROUNDS if state._over else state._round - 1
    if len(sheet) > completed:
        raise PositionError(f"round_scores lists {len(sheet)} rounds; only {completed} "
                            "were completed")
    if sheet and (last is None or list(sheet[-1]) != last["scores"]):
        raise PositionError("round_scores: its last round is not last_round's penalties")
    for s in range(n):
        if sum(row[s] for row in sheet) > state._totals[s]:
            raise PositionError(f"round_scores: seat {s}'s penalties add up to more than its "
                                f"total {state._totals[s]} in scores")


def _savedposition_seat_lists(what: str, value: Any, n: int) -> list[list[int]]:
    """One card list per seat, required (null is refused)."""
    lists = position_seat_lists(what, value, n)
    if lists is None:
        raise PositionError(f"{what} must be a list of {n} card lists, one per seat, not null")
    return lists


def _saved_melds(value: Any) -> list[list[int]] | None:
    """The melds of the player out: null, or a list of card lists."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise PositionError(f"out_melds must be null or a list of melds, not {value!r}")
    return [position_cards("out_melds", meld) for meld in value]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _saved_last_round(value: Any, n: int) -> dict[str, Any] | None:
    """The last round's summary from a save, checked."""
    if value is None:
        return None
    try:
        last = _last_round_copy(value)
        assert last is not None
        shown = last["melds_shown"]
        ok = (_is_int(last["round"]) and 1 <= last["round"] <= ROUNDS
              and (last["went_out"] is None or _is_int(last["went_out"])
                   and last["went_out"] in range(n))
              and len(shown) == n and len(last["scores"]) == n
              and all(_is_int(x) and x >= 0 for x in last["scores"])
              and [entry["penalty"] for entry in shown] == last["scores"])
        for entry in shown:
            for meld in entry["melds"]:
                position_cards("last_round", meld)
            position_cards("last_round", entry["deadwood"])
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise PositionError("last_round must be None or {round, went_out, melds_shown, scores}")
    return last


def _saved_round_scores(data: dict[str, Any], last: dict[str, Any] | None,
                        n: int) -> list[tuple[int, ...]]:
    """The score sheet from a save, its rows checked. A save written before the sheet
    existed has no key: its sheet starts with the last round, the only one it kept."""
    if "round_scores" not in data:
        return [] if last is None else [tuple(last["scores"])]
    value = data["round_scores"]
    if not isinstance(value, list) or any(
            not isinstance(row, list) or len(row) != n
            or any(not _is_int(x) or x < 0 for x in row) for row in value):
        raise PositionError(f"round_scores must be a list of rounds, each a list of {n} "
                            "penalties (integers from 0 up)")
    return [tuple(row) for row in value]
