"""Bots that play any cardtable game, and hints for the UIs.

Examples:
    >>> import cardtable, cardtable.bots
    >>> state = cardtable.new_game("sequence").deal(seed=1)
    >>> bot = cardtable.bots.make("heuristic", seed=1)
    >>> state.apply(bot.choose(state))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardtable.bots.base import Bot, HeuristicBot, RandomBot, check_budget
from cardtable.bots.ismcts import ISMCTSBot, SearchResult, _heuristic_or_none
from cardtable.bots.learned import LearnedBot
from cardtable.bots.perfect import PerfectBot, call_outcomes, exact_hint
from cardtable.core import Action, IllegalActionError, OptionsError, State
from cardtable.drawbridge.game import DrawBridgeState

__all__ = ["KINDS", "YARDSTICKS", "Bot", "BotKind", "Hint", "HeuristicBot", "ISMCTSBot",
           "LearnedBot", "PerfectBot", "RandomBot", "bot_kind", "hint", "make"]


@dataclass(frozen=True)
class BotKind:
    """A kind of bot, declared once: how to build it and what its settings are, so that
    no caller asks for a kind by name (the server, the arena, the environments, the
    terminal read these)."""

    name: str
    build: Callable[..., Bot]
    #: it takes a search budget (``seconds=``, ``iterations=`` and search settings)
    takes_budget: bool = False
    #: it may think long (a search): the server runs it in its pool's search lane
    searches: bool = False


#: every kind ``make`` builds, in the order the lobby and the help list them
_KINDS: dict[str, BotKind] = {kind.name: kind for kind in (
    BotKind("random", lambda seed: RandomBot(seed)),
    BotKind("heuristic", lambda seed: HeuristicBot(seed, "heuristic")),
    BotKind("ismcts", lambda seed, **budget: ISMCTSBot(seed, **budget), takes_budget=True,
            searches=True),
    BotKind("learned", lambda seed: LearnedBot(seed)),
    BotKind("perfect", lambda seed: PerfectBot(seed), searches=True),
    BotKind("trained", lambda seed: _trained(seed)),
    BotKind("lookahead", lambda seed: _lookahead(seed), searches=True),
    BotKind("blend", lambda seed: _blend(seed)),
    # a frozen bot to measure against: "heuristic-v1" is the heuristic of 1 December 2026,
    # whatever ``heuristic`` becomes
    BotKind("heuristic-v1", lambda seed: HeuristicBot(seed, "heuristic-v1")),
    # "perfect-v1" is the perfect bot of 2 December 2026: the heuristic's draw phase
    BotKind("perfect-v1", lambda seed: PerfectBot(seed, draw="heuristic"), searches=True),
)}
KINDS = ("random", "heuristic", "ismcts", "learned", "perfect", "trained", "lookahead",
         "blend")
#: frozen bots to measure against (kinds of ``make`` beside KINDS)
YARDSTICKS = ("heuristic-v1", "perfect-v1")


def _trained(seed: int | None) -> Bot:
    """The trained bot (``cardtable.bots.trained``: NumPy, imported when first asked for)."""
    from cardtable.bots.trained import TrainedBot

    return TrainedBot(seed)


def _lookahead(seed: int | None) -> Bot:
    """The lookahead bot (``cardtable.bots.lookahead``: two plies on the trained value in
    Sequence, one draw ahead in Three Thirteen)."""
    from cardtable.bots.lookahead import LookaheadBot

    return LookaheadBot(seed)


def _blend(seed: int | None) -> Bot:
    """The blend bot (``cardtable.bots.blend``: the value network and the learned scores)."""
    from cardtable.bots.blend import BlendBot

    return BlendBot(seed)


def bot_kind(kind: str) -> BotKind:
    """The declaration of bot ``kind``; OptionsError for a kind there is none of."""
    found = _KINDS.get(kind) if isinstance(kind, str) else None
    if found is None:
        raise OptionsError(f"unknown bot {kind!r}; the bots are {', '.join(_KINDS)}")
    return found


def make(kind: str, seed: int | None = None, **budget: Any) -> Bot:
    """A bot of ``kind`` ("random", "heuristic", "ismcts", "learned", "perfect", "trained",
    "lookahead" or "blend"); ISMCTS
    takes a budget (``iterations=`` or ``seconds=``) and search settings: ``rollout`` ("game", the
    default, "random" or "heuristic"), ``root`` ("ucb", "paired" or "flat"; default: the game's
    choice), ``tree_size`` (UCB root: a fresh tree every so many iterations, root visits
    added up; default: the game's choice), ``exploration``, ``prior``,
    ``max_rollout_steps``. ``make("heuristic-v1")`` and ``make("perfect-v1")`` are frozen
    yardsticks (YARDSTICKS).
    "learned" plays Sequence with weights learned against it (``sequence_learned``) and the
    other games, which have no learned weights yet, as the heuristic does. "perfect" plays
    Draw Bridge exactly from the auction on (``cardtable.bots.perfect``), its draw phase
    by the trained draw policy (``cardtable.bots.drawbridge_draw``), and the other
    games as the heuristic does. "trained" plays the network trained by
    ``cardtable.train`` where one ships (Three Thirteen's action values, Sequence's
    afterstate values for two players), Draw Bridge's draw phase by the trained draw
    policy, and the heuristic elsewhere. "lookahead" searches
    two plies on two-player Sequence's afterstate values (``cardtable.bots.lookahead``),
    plays Three Thirteen by the expected penalty after one more draw (its expert level,
    ``cardtable.bots.threethirteen_lookahead``) and the rest as "trained" does. "blend"
    (Sequence's expert level) adds the z-scores of the afterstate value and of the learned
    score of each move (``cardtable.bots.blend``) and plays the other games as the
    heuristic does."""
    declared = bot_kind(kind)
    check_budget(budget)
    if budget and not declared.takes_budget:
        takers = ", ".join(k.name for k in _KINDS.values() if k.takes_budget)
        raise OptionsError(f"the {kind} bot takes no budget; only {takers} does")
    return declared.build(seed, **budget)


@dataclass(frozen=True)
class Hint:
    """A recommended move and the estimated chance of winning with it.

    ``estimate_of`` says what ``win_probability`` is the chance of winning: ``"game"``
    (Sequence; Three Thirteen, whose game is the whole 11-round match) or ``"match"``
    (Draw Bridge: the match to the target, the deal in progress valued from the cards).
    ``exact``: the move and its worth are solved, not sampled (Draw Bridge from the
    auction on: ``cardtable.bots.perfect``); then ``detail`` says what the move is worth
    in words ("you take 10 tricks in all; 4SX makes with 10 tricks: you win the match"),
    ``outcome`` the same as data (``perfect.outcome_of``: the contract, its declarer and
    tricks, the deal's points, the match chance), and in the auction ``calls`` what every
    legal call leads to (``perfect.call_outcomes``): what decides the call.
    """

    action: Action
    win_probability: float
    estimate_of: str = "game"
    exact: bool = False
    detail: str | None = None
    outcome: dict[str, Any] | None = None
    calls: tuple[dict[str, Any], ...] | None = None

    @property
    def notation(self) -> str:
        """The move in notation."""
        return self.action.notation


def hint(state: State, seat: int | None = None, budget: dict[str, Any] | None = None,
         seed: int | None = None) -> Hint:
    """The advice of the strongest bot that answers within a hint's time for ``seat`` (the
    seat to act): ISMCTS's, with ``budget`` as for ``make``; where the game's heuristic
    names a quicker bot measured stronger (``Heuristic.hint_bot``: Sequence's ``blend``,
    Three Thirteen's ``lookahead``),
    that bot's move with the search's estimate of it (the search's own move where the
    search never tried it). Draw Bridge from the auction on: the perfect bot's move, its
    worth exact (``Hint.exact``)."""
    if state.is_terminal:
        raise IllegalActionError("the game is over: there is no move to hint")
    if seat is not None and seat != state.current_player:
        raise IllegalActionError(f"seat {seat} is not the seat to act ({state.current_player})")
    if isinstance(state, DrawBridgeState) and state.phase in ("auction", "play"):
        to_act = state.current_player
        assert to_act is not None
        action, chance, detail, outcome = exact_hint(state, to_act)
        calls = tuple(call_outcomes(state, to_act)) if state.phase == "auction" else None
        return Hint(action, chance, "match", exact=True, detail=detail, outcome=outcome,
                    calls=calls)
    bot = ISMCTSBot(seed, **check_budget(dict(budget or {"iterations": 500})))
    result: SearchResult = bot.search(state)
    heuristic = _heuristic_or_none(state.game.name)
    if heuristic is None:
        return Hint(result.action, result.win_probability)
    action, chance = result.action, result.win_probability
    if heuristic.hint_bot is not None:
        stronger = make(heuristic.hint_bot, seed=seed).choose(state)
        if str(stronger) in result.values:
            action, chance = stronger, result.values[str(stronger)]
    return Hint(action, chance, heuristic.estimate_of)
