"""The "perfect" bot: Draw Bridge played exactly from the auction on.

Once the draw phase is over a seat knows both hands (RULES 1.3: every card not in its
hand and not played is the opponent's), so the rest of the deal is solved
(``cardtable.drawbridge.solver``):

- auction: the call of ``Auction.best_call`` over the deal's trick table: the best for
  the seat's chance to win the match against a perfect opponent, and of equally good
  calls the one worth most if the opponent passed next;
- play: a card that takes the most tricks with perfect play (of equal cards the lowest);
- draw phase: the card the trained draw policy gives up (``cardtable.bots.drawbridge_draw``:
  the card worth least kept), except in the last ``DRAW_SEARCH`` draw tricks, where
  a few cards (``draw_candidates``: the lowest of each suit, the one most likely to win
  the trick, the policy's) are tried on ``SAMPLES`` deals the seat cannot tell from
  the real one (``resample``): the draw finished by the policy, then valued exactly
  where the draw ends: the par of the auction (``par_value``).

``PerfectBot(draw="heuristic")`` is the perfect bot of 2 December 2026, frozen as the
yardstick ``make("perfect-v1")``: the heuristic's card in the draw phase (give up the
lowest) and the same search of the last draw trick over the heuristic's play.

Sequence and Three Thirteen are played as the heuristic plays them.
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.bots.base import HeuristicBot
from cardtable.bots.drawbridge_draw import draw_card
from cardtable.cards import mask_of, parse_card
from cardtable.core import Action, IllegalActionError, State
from cardtable.drawbridge.game import POWER, Contract, DrawBridgeState, parse_call
from cardtable.drawbridge.scoring import deal_points, parse_strain
from cardtable.drawbridge.solver import (
    Auction,
    PlayPosition,
    card_values,
    match_value,
    trick_table,
)

#: the draw tricks searched, counted back from the last (earlier ones: the heuristic)
DRAW_SEARCH = 1
#: deals sampled per searched draw move; every legal card is tried on each
SAMPLES = 2
#: how much a trick of the seat's best contract counts beside the par (a tie-break:
#: without ``undertricks`` a perfect opponent lets nobody score, so par alone is flat)
TRICK_WEIGHT = 0.01


def known_hands(view: dict[str, Any]) -> tuple[int, int]:
    """Both hands as masks, from a seat's view from the auction on: its hand and the
    opponent's as the view works it out (``deduced_hand``, RULES 1.3)."""
    mine = mask_of(parse_card(c) for c in view["hand"])
    other = mask_of(parse_card(c) for c in view["deduced_hand"])
    return (mine, other) if view["seat"] == 0 else (other, mine)


def auction_for(view: dict[str, Any], undertricks: bool) -> Auction:
    """The auction of the deal of a view in its auction phase."""
    return Auction(trick_table(known_hands(view)), view["scores"], view["target"],
                   undertricks, view["dealer"])


def par_value(state: DrawBridgeState, seat: int) -> float:
    """``seat``'s worth of a deal at the start of its auction: its match chance at par,
    plus TRICK_WEIGHT per trick it takes as declarer in its best strain."""
    table = trick_table(state.hand_masks)
    game = state.game
    auction = Auction(table, state.scores, game.target, game.undertricks,
                      state.view(None, history=False)["dealer"])
    value = auction.par().value
    chance = value if seat == 0 else 1.0 - value
    return chance + TRICK_WEIGHT * max(row[seat] for row in table)


class PerfectBot:
    """Draw Bridge: exact from the auction on (module docstring); other games: the
    heuristic. ``draw``: "trained" (the draw policy) or "heuristic" (perfect-v1)."""

    def __init__(self, seed: int | None = None, draw: str = "trained") -> None:
        if draw not in ("trained", "heuristic"):
            raise ValueError(f"draw is 'trained' or 'heuristic', not {draw!r}")
        self.seed = seed
        self.draw = draw
        self.fallback = HeuristicBot(seed)
        self.reset()

    def reset(self) -> None:
        """Restart the random numbers from the seed and forget the deals solved."""
        self.rng = random.Random(self.seed)
        self.fallback.reset()
        self._auctions: dict[tuple[Any, ...], Auction] = {}

    def choose(self, state: State) -> Action:
        """The exact call or card from the auction on; in the draw phase, the search of
        the last draw tricks (module docstring)."""
        seat = state.current_player
        if seat is None:
            raise IllegalActionError("the game is over: there is no move to choose")
        if not isinstance(state, DrawBridgeState):
            return self.fallback.choose(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = state.view(seat, history=False)
        by_id = {a.id: a for a in legal}
        if view["phase"] == "auction":
            calls = [parse_call(c) for _, c in view["auction"]]
            call, _ = self.auction(view, state.game.undertricks).best_call(
                [c for c in calls if c is not None])
            return by_id[call]
        if view["phase"] == "play":
            values = card_values(self.position(view))
            best = max(values.values())
            return by_id[min((c for c, v in values.items() if v == best),
                             key=lambda c: (POWER[c], c))]
        if view["stock_size"] > 2 * DRAW_SEARCH:
            return self.draw_policy(state)
        return self._search_draw(state, seat, legal)

    def draw_policy(self, state: DrawBridgeState) -> Action:
        """The draw-phase card without search: the trained policy's or the heuristic's."""
        if self.draw == "heuristic":
            return self.fallback.choose(state)
        return draw_card(state)

    def auction(self, view: dict[str, Any], undertricks: bool) -> Auction:
        """The deal's Auction, solved once per deal."""
        key = (view["deal_number"], tuple(view["hand"]), tuple(view["scores"]))
        auction = self._auctions.get(key)
        if auction is None:
            self._auctions = {key: auction_for(view, undertricks)}
        return self._auctions[key]

    @staticmethod
    def position(view: dict[str, Any]) -> PlayPosition:
        """The play position of a view in the play phase."""
        lead = parse_card(view["trick"][0][1]) if view["trick"] else None
        return PlayPosition(known_hands(view), parse_strain(view["contract"]["strain"]),
                            view["seat"], lead)

    def _search_draw(self, state: DrawBridgeState, seat: int, legal: list[Action]) -> Action:
        """The candidate cards on SAMPLES resampled deals, valued at the end of the draw."""
        candidates = self.draw_candidates(state, legal)
        totals = dict.fromkeys((a.id for a in candidates), 0.0)
        for _ in range(SAMPLES):
            twin = state.resample(seat, self.rng)
            for action in candidates:
                after = twin.clone()
                after.apply(action)
                while after.phase == "draw":
                    after.apply(self.draw_policy(after))
                if after.phase == "auction":
                    totals[action.id] += par_value(after, seat)
        best = max(totals.values())
        return next(a for a in candidates if totals[a.id] == best)

    def draw_candidates(self, state: DrawBridgeState, legal: list[Action]) -> list[Action]:
        """The draw-phase cards worth a search: the lowest of each suit (the card given
        up), the highest (the likeliest to win the trick and its stock card) and the
        draw policy's choice."""
        lowest: dict[int, Action] = {}
        for action in sorted(legal, key=lambda a: -POWER[a.id]):
            lowest[action.id // 13] = action
        picks = [*lowest.values(), max(legal, key=lambda a: POWER[a.id]),
                 self.draw_policy(state)]
        return [a for a in legal if a in picks]


def _outcome(contract: Contract, tricks: int, scores: list[int], target: int,
             undertricks: bool, seat: int) -> tuple[float, str]:
    """``seat``'s match chance after ``contract`` takes ``tricks`` for declarer, and
    what happens, in words."""
    made = tricks >= 6 + contract.level
    mine, theirs = deal_points(contract.level, contract.strain, contract.doubled, tricks,
                               undertricks)
    declarer = contract.declarer
    after = list(scores)
    after[declarer] += mine
    after[1 - declarer] += theirs
    chance = match_value(after, target)
    chance = chance if seat == 0 else 1.0 - chance
    how = f"{contract} {'makes' if made else 'goes down'} with {tricks} tricks"
    if after[seat] >= target:
        return chance, f"{how}: you win the match"
    if after[1 - seat] >= target:
        return chance, f"{how}: your opponent wins the match"
    gained = after[seat] - scores[seat]
    lost = after[1 - seat] - scores[1 - seat]
    if gained:
        return chance, f"{how}: you score {gained}"
    if lost:
        return chance, f"{how}: your opponent scores {lost}"
    return chance, f"{how}: nobody scores"


def outcome_of(contract: Contract | None, tricks: int, points: tuple[int, int] | list[int],
               chance: float) -> dict[str, Any]:
    """What a hint's move leads to, as plain data (the server's ``hint`` message): the
    contract (None: the deal passed out), its declarer and the declarer's tricks, the
    deal's points (seat 0's, seat 1's) and the asking seat's match chance after it."""
    return {"contract": None if contract is None else str(contract),
            "declarer": None if contract is None else contract.declarer,
            "tricks": None if contract is None else tricks,
            "points": [int(points[0]), int(points[1])], "win_probability": round(chance, 3)}


def call_outcomes(state: DrawBridgeState, seat: int) -> list[dict[str, Any]]:
    """Every legal call of ``seat`` (in its auction) with what it leads to at par (both
    players calling perfectly after it, the play double dummy): ``outcome_of``'s keys and
    ``call``, the call in notation."""
    view = state.view(seat, history=False)
    auction = auction_for(view, state.game.undertricks)
    calls = [c for c in (parse_call(n) for _, n in view["auction"]) if c is not None]
    out = []
    for action in state.legal_actions():
        par = auction.par([*calls, action.id])
        value = auction.passed_out if par.contract is None else par.value
        chance = value if seat == 0 else 1.0 - value
        out.append({"call": action.notation,
                    **outcome_of(par.contract, par.declarer_tricks, par.points, chance)})
    return out


def exact_hint(state: DrawBridgeState, seat: int
               ) -> tuple[Action, float, str, dict[str, Any]]:
    """The perfect bot's move for ``seat`` from the auction on, ``seat``'s exact match
    chance with it (par's measure, ``match_value``), what it is worth in words and as
    data (``outcome_of``: the contract it leads to, the tricks, the points)."""
    view = state.view(seat, history=False)
    game = state.game
    bot = PerfectBot()
    action = bot.choose(state)
    if view["phase"] == "auction":
        auction = auction_for(view, game.undertricks)
        calls = [c for c in (parse_call(n) for _, n in view["auction"]) if c is not None]
        par = auction.par([*calls, action.id])
        if par.contract is None:
            chance = auction.passed_out if seat == 0 else 1.0 - auction.passed_out
            return (action, chance, "the deal is passed out: nobody scores",
                    outcome_of(None, 0, (0, 0), chance))
        chance, words = _outcome(par.contract, par.declarer_tricks, view["scores"],
                                 view["target"], game.undertricks, seat)
        return (action, chance, f"at par, {words}",
                outcome_of(par.contract, par.declarer_tricks, par.points, chance))
    values = card_values(bot.position(view))
    contract = state.last_bid
    assert contract is not None
    mine = view["tricks_won"][seat] + values[action.id]
    declarer_tricks = mine if seat == contract.declarer else 13 - mine
    chance, words = _outcome(contract, declarer_tricks, view["scores"], view["target"],
                             game.undertricks, seat)
    made, defended = deal_points(contract.level, contract.strain, contract.doubled,
                                 declarer_tricks, game.undertricks)
    points = (made, defended) if contract.declarer == 0 else (defended, made)
    return (action, chance, f"you take {mine} tricks in all; {words}",
            outcome_of(contract, declarer_tricks, points, chance))
