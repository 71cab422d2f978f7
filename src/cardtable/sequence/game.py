"""Sequence (RULES.md section 2): the game, its legal moves and its sequences.

Hot state: the board is a bytearray of 100 cells (0 empty, team + 1 a chip,
CORNER a free corner), ``locked`` marks chips of completed sequences, hands and
piles are small lists of card ints (piles have their top at the end).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardtable.cards import (
    NUM_CARDS,
    card_name,
    parse_card,
    rank_of,
    sort_key,
)
from cardtable.core import (
    Action,
    Declaration,
    Game,
    IllegalActionError,
    MoveEvent,
    Observation,
    OptionsError,
    OptionSpec,
    State,
    part,
)
from cardtable.sequence.board import (
    BOARD,
    CARD_CELLS,
    CARD_CELLS_ORDER,
    CELL_POS,
    CORNER,
    CORNERS,
    JACK,
    NON_JACK_POS,
    NON_JACKS,
    ONE_EYED,
    TWO_EYED,
    WINDOWS_THROUGH,
    cell_name,
    parse_cell,
)

# 2.2 / 2.3: valid player counts, their team splits (default first) and cards per player
TEAM_SPLITS = {2: (2,), 3: (3,), 4: (2,), 6: (2, 3), 8: (2,), 9: (3,), 10: (2,), 12: (2, 3)}

#: the game, declared once (RULES 2.2, 2.4)
DECLARATION = Declaration(
    name="sequence",
    title="Sequence",
    players=tuple(TEAM_SPLITS),
    default_players=2,
    options=(
        OptionSpec("teams", None, "int", minimum=2, maximum=3, none_ok=True,
                   help="How many teams the players form (by default 2, or 3 for 3 or 9 "
                        "players); seats alternate teams."),
        OptionSpec("max_turns", None, "int", minimum=1, none_ok=True,
                   help="End the game as a draw after this many turns (none: no limit)."),
    ),
    board=BOARD,
    blurb="Play a card, put a chip on its cell: five in a row make a sequence.",
)

DECKS = 2
HAND_SIZE = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
TEAM_COLOURS = ("blue", "green", "red")

# The fixed action space: ids by kind, in this order.
PLAY = 0  # 96: a non-jack card on its first or second cell
TWO_EYED_JACK = PLAY + 2 * len(NON_JACKS)  # 192: JD or JC on one of the 96 card cells
ONE_EYED_JACK = TWO_EYED_JACK + 2 * 96  # 192: JS or JH removing the chip on a card cell
DEAD = ONE_EYED_JACK + 2 * 96  # 48: exchange a dead card
PASS = DEAD + len(NON_JACKS)  # 1
NUM_ACTIONS = PASS + 1


def _action_table() -> tuple[Action, ...]:
    names: list[str] = []
    for card in NON_JACKS:
        names += [f"{card_name(card)} {cell_name(cell)}" for cell in CARD_CELLS[card]]
    for jack in TWO_EYED + ONE_EYED:
        names += [f"{card_name(jack)} {cell_name(cell)}" for cell in CARD_CELLS_ORDER]
    names += [f"dead {card_name(card)}" for card in NON_JACKS]
    names.append("pass")
    assert len(names) == NUM_ACTIONS
    return tuple(Action(i, name) for i, name in enumerate(names))


ACTIONS = _action_table()
NO_NEWS = (-1, 0, -1)  # a pass: nothing drawn, claimed or removed
# decoded actions: id -> (card, cell); cell -1 for dead-card exchanges and pass
DECODE: tuple[tuple[int, int], ...] = tuple(
    (parse_card(a.notation.split()[-1]), -1) if a.id >= DEAD and a.id < PASS
    else (-1, -1) if a.id == PASS
    else (parse_card(a.notation.split()[0]), parse_cell(a.notation.split()[1]))
    for a in ACTIONS
)


def sequences_needed(teams: int) -> int:
    """2.6: two sequences with 2 players or teams, one with 3."""
    return 2 if teams == 2 else 1


# ---------------------------------------------------------------- what a seat may know
# (typed; built by view.py)


@dataclass(frozen=True, slots=True)
class SequenceObservation(Observation):
    """What one seat (None: a spectator) may know of a Sequence game; cards and cells are ids.

    Everything but the hands and the deck is public in Sequence.
    """

    seat: int | None
    #: the seat's team, None for a spectator
    team: int | None
    teams: int
    #: the seat's cards; () for a spectator
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    #: the 100 cells, row 1 first: 0 empty, team + 1 a chip, CORNER (255) a free corner
    board: bytes
    #: 1 on the cells whose chip belongs to a completed sequence
    locked: bytes
    #: each seat's face-up discard pile, top first
    discards: tuple[tuple[int, ...], ...]
    #: (team, its five cells) for each completed sequence, in the order they were made
    sequences: tuple[tuple[int, tuple[int, ...]], ...]
    #: completed sequences per team
    sequence_counts: tuple[int, ...]
    sequences_needed: int
    dealer: int
    #: the seat to act, None when the game is over
    current_player: int | None
    #: 2.4.1: the seat to act has exchanged its dead card this turn
    exchanged_dead_card: bool
    turns: int
    winners: tuple[int, ...]


class SequenceGame(Game):
    """Sequence with its options checked (RULES 2.2, 2.4)."""

    declaration = DECLARATION
    name = DECLARATION.name
    decks = DECKS
    actions = ACTIONS

    def __init__(self, **options: Any) -> None:
        opts = DECLARATION.read_options(options, unchecked=("teams",))
        players: int = opts["players"]
        splits = TEAM_SPLITS[players]
        teams = opts["teams"]
        if teams is None:
            teams = splits[0]
        allowed = ", ".join(map(str, splits))
        if isinstance(teams, bool) or not isinstance(teams, int) or teams not in splits:
            raise OptionsError(
                f"option teams={teams!r} is not allowed with {players} players; "
                f"choose {'one of ' if len(splits) > 1 else ''}{allowed}"
            )
        max_turns: int | None = opts["max_turns"]
        self.options = {"players": players, "teams": teams, "max_turns": max_turns}
        self.num_players = players
        self.teams = teams
        self.hand_size = HAND_SIZE[players]
        self.needed = sequences_needed(teams)
        self.max_turns = max_turns

    def _facts(self) -> dict[str, Any]:
        """2.4.2: what each jack does: a two-eyed one is wild, a one-eyed one removes."""
        return {"card_roles": {**{card_name(j): "wild" for j in TWO_EYED},
                               **{card_name(j): "remove" for j in ONE_EYED}}}

    @property
    def num_teams(self) -> int:
        return self.teams

    def team_of(self, seat: int) -> int:
        """2.2: seats alternate teams, so seat s plays for team s mod teams."""
        return seat % self.teams

    def keeps_turn(self, move: str) -> bool:
        """2.4.1: a dead card's exchange comes before the card the turn plays."""
        return move.startswith("dead ")

    def setup(self, **position: Any) -> SequenceState:
        """A position as API.md describes; omitted keys drawn from ``seed``."""
        state = super().setup(**position)
        assert isinstance(state, SequenceState)
        return state

    def _deal(self, rng: random.Random) -> SequenceState:
        # 2.3: a random first dealer; the deal starts left of the dealer, one card at a time
        dealer = rng.randrange(self.num_players)
        deck = [c for c in range(NUM_CARDS) for _ in range(DECKS)]
        rng.shuffle(deck)
        n = self.num_players
        hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(self.hand_size * n):
            hands[(dealer + 1 + k) % n].append(deck.pop())
        board = empty_board()
        return SequenceState(self, rng, board, bytearray(100), hands, deck,
                             [[] for _ in range(n)], [], dealer, (dealer + 1) % n)


def empty_board() -> bytearray:
    board = bytearray(100)
    for cell in CORNERS:
        board[cell] = CORNER
    return board


class SequenceState(State):
    """A position of a game of Sequence."""

    game: SequenceGame

    def __init__(self, game: SequenceGame, rng: random.Random, board: bytearray,
                 locked: bytearray, hands: list[list[int]], deck: list[int],
                 discards: list[list[int]], sequences: list[tuple[int, tuple[int, ...]]],
                 dealer: int, current: int) -> None:
        self._init_base(game, rng)
        self._board = board
        self._locked = locked
        self._hands = hands
        self._deck = deck  # the draw pile, top at the end
        self._discards = discards  # one face-up pile per seat, top at the end
        self._sequences = sequences  # (team, five cells) in the order they were claimed
        self._seq_count = [0] * game.teams
        for team, _ in sequences:
            self._seq_count[team] += 1
        self._dealer = dealer
        self._current = current
        self._exchanged = False  # 2.4.1: the dead-card exchange of this turn is used
        # ruling 2.4: plain passes in a row, one per turn; a turn that exchanged a dead card
        # and then passed breaks the run (sets it back to 0)
        self._passes = 0
        self._turns = 0
        self._over = False
        self._winning_team: int | None = None

    # -- the position: read-only, for search on a determinization (bots read a seat's
    # observation otherwise); nothing outside this package writes the state's fields

    @property
    def board(self) -> bytes:
        """The 100 cells, row 1 first: 0 empty, team + 1 a chip, CORNER a free corner."""
        return bytes(self._board)

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(h) for h in self._hands)

    @property
    def deck(self) -> tuple[int, ...]:
        """The draw pile, top at the end."""
        return tuple(self._deck)

    @property
    def discards(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's discard pile, top at the end."""
        return tuple(tuple(p) for p in self._discards)

    @property
    def sequences(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(team, five cells) of each completed sequence, in the order they were made."""
        return tuple(self._sequences)

    @property
    def seq_count(self) -> tuple[int, ...]:
        """Completed sequences per team."""
        return tuple(self._seq_count)

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def current(self) -> int:
        """The seat whose turn it is (the last to play, once the game is over)."""
        return self._current

    @property
    def turns(self) -> int:
        return self._turns

    @property
    def over(self) -> bool:
        return self._over

    @property
    def winning_team(self) -> int | None:
        return self._winning_team

    @property
    def current_player(self) -> int | None:
        return None if self._over else self._current

    @property
    def is_terminal(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        team_of = self.game.team_of
        return [self._seq_count[team_of(s)] for s in range(self.game.num_players)]

    @property
    def winners(self) -> list[int]:
        if self._winning_team is None:
            return []
        team_of = self.game.team_of
        return [s for s in range(self.game.num_players) if team_of(s) == self._winning_team]

    def dead_cards(self, seat: int) -> list[int]:
        """2.4.1: the non-jack cards in the seat's hand whose two cells are both covered."""
        board = self._board
        return sorted(
            {c for c in self._hands[seat]
             if CARD_CELLS[c][0] >= 0 and board[CARD_CELLS[c][0]] and board[CARD_CELLS[c][1]]},
            key=sort_key,
        )

    # -- legal moves ------------------------------------------------------

    def _legal_action_ids(self) -> list[int]:
        seat = self._current
        board = self._board
        own = seat % self.game.teams + 1
        ids: list[int] = []
        dead: list[int] = []
        for card in sorted(set(self._hands[seat])):
            if rank_of(card) == JACK:
                if card in TWO_EYED:
                    # 2.4.2: a two-eyed jack on any empty cell, never a corner
                    base = TWO_EYED_JACK + 96 * TWO_EYED.index(card)
                    ids += [base + p for p, cell in enumerate(CARD_CELLS_ORDER) if not board[cell]]
                else:
                    # 2.4.2: a one-eyed jack removes an opponent's chip outside sequences
                    base = ONE_EYED_JACK + 96 * ONE_EYED.index(card)
                    locked = self._locked
                    ids += [base + p for p, cell in enumerate(CARD_CELLS_ORDER)
                            if board[cell] and board[cell] != own and not locked[cell]]
                continue
            first, second = CARD_CELLS[card]
            slot = PLAY + 2 * NON_JACK_POS[card]
            if not board[first]:
                ids.append(slot)
            if not board[second]:
                ids.append(slot + 1)
            if board[first] and board[second] and not self._exchanged:
                dead.append(DEAD + NON_JACK_POS[card])  # 2.4.1: once per turn
        ids += dead
        if not ids:
            ids.append(PASS)  # ruling 2.4: pass only when nothing else is legal
        return ids

    def _why_illegal(self, action: Action) -> str:
        seat = self._current
        card, cell = DECODE[action.id]
        if action.id == PASS:
            return "pass: you may pass only when you have no legal play"
        if card not in self._hands[seat]:
            return f"{action}: you do not hold {card_name(card)}"
        if DEAD <= action.id < PASS:
            if self._exchanged:
                return f"{action}: you have already exchanged a dead card this turn"
            return f"{action}: {card_name(card)} is not dead, one of its cells is empty"
        if card in ONE_EYED:
            if not self._board[cell]:
                return f"{action}: there is no chip on {cell_name(cell)} to remove"
            if self._board[cell] == seat % self.game.teams + 1:
                return f"{action}: the chip on {cell_name(cell)} is your own team's"
            return f"{action}: the chip on {cell_name(cell)} is part of a completed sequence"
        return f"{action}: {cell_name(cell)} is already covered"

    def _parse(self, text: str) -> int:
        return parse_action_id(text)

    # -- applying a move --------------------------------------------------

    def _apply(self, action: Action) -> tuple[int, int, int]:
        """Returns (the card drawn or -1, sequences claimed, the removed chip's team or -1)."""
        aid = action.id
        seat = self._current
        if aid == PASS:
            # ruling 2.4: every player passing in turn, none of them after a dead-card
            # exchange in that turn, ends the game in a draw; "exchange, then pass" breaks
            # the run (the replacement came from the pile, whose jacks can reopen the board)
            self._passes = 0 if self._exchanged else self._passes + 1
            self._end_turn(draw_game=self._passes >= self.game.num_players)
            return NO_NEWS
        card, cell = DECODE[aid]
        self._hands[seat].remove(card)
        self._discards[seat].append(card)
        if aid >= DEAD:
            # 2.4.1: discard the dead card, draw a replacement, then play on
            self._exchanged = True
            return self._draw(seat), 0, -1
        self._passes = 0
        claimed = 0
        removed = -1
        if aid >= ONE_EYED_JACK:
            removed = self._board[cell] - 1
            self._board[cell] = 0  # 2.4.2: no chip is placed this turn
        else:
            team = seat % self.game.teams
            self._board[cell] = team + 1
            claimed = self._claim_sequences(cell, team)
            if claimed and self._seq_count[team] >= self.game.needed:
                self._winning_team = team  # 2.6: the game ends at once, no draw
                self._over = True
                return -1, claimed, -1
        drawn = self._draw(seat)  # 2.4.3
        self._end_turn(draw_game=False)
        return drawn, claimed, removed

    def _event(self, seat: int, action: Action, news: tuple[int, int, int]) -> MoveEvent:
        drawn, claimed, removed = news
        aid = action.id
        public: dict[str, Any] = {}
        if aid != PASS:
            card, cell = DECODE[aid]
            public["card"] = card_name(card)
            if aid >= DEAD:
                public["dead"] = True
            elif aid >= ONE_EYED_JACK:
                public["cell"] = cell_name(cell)
                public["removed"] = removed
            else:
                public["cell"] = cell_name(cell)
                public["chip"] = self.game.team_of(seat)
        if claimed:
            public["sequences"] = [[team, [cell_name(c) for c in cells]]
                                   for team, cells in self._sequences[-claimed:]]
        if drawn >= 0:
            public["drew"] = 1
            # the pile was remade from every discard pile (2.4.3): they are all empty now
            if not any(self._discards):
                public["reshuffled"] = True
        if self._over:
            public["winners"] = self.winners
        private = {seat: {"drawn": [card_name(drawn)]}} if drawn >= 0 else {}
        return MoveEvent(seat, action.notation, "play", public, private)

    def _end_turn(self, draw_game: bool) -> None:
        self._turns += 1
        self._exchanged = False
        self._current = (self._current + 1) % self.game.num_players
        max_turns = self.game.max_turns
        if draw_game or (max_turns is not None and self._turns >= max_turns):
            self._over = True

    def _draw(self, seat: int) -> int:
        """2.4.3: draw the top card (returned; -1 if there is none); an empty draw pile is
        first remade from every discard pile."""
        deck = self._deck
        if not deck:
            for pile in self._discards:
                deck += pile
                pile.clear()
            self._rng.shuffle(deck)
        if not deck:
            return -1
        card = deck.pop()
        self._hands[seat].append(card)
        return card

    def _claim_sequences(self, cell: int, team: int) -> int:
        """2.5 ruling: claim the new sequences among the windows through ``cell``, in order."""
        board = self._board
        chip = team + 1
        claimed = 0
        for window in WINDOWS_THROUGH[cell]:
            for c in window:
                b = board[c]
                if b != chip and b != CORNER:
                    break
            else:
                if all(len(set(window).intersection(cells)) <= 1
                       for t, cells in self._sequences if t == team):
                    self._sequences.append((team, window))
                    self._seq_count[team] += 1
                    for c in window:
                        self._locked[c] = 1
                    claimed += 1
        return claimed

    # -- copies, saving, views -------------------------------------------

    def _clone_into(self, new: State) -> None:
        assert isinstance(new, SequenceState)
        new._board = bytearray(self._board)
        new._locked = bytearray(self._locked)
        new._hands = [list(h) for h in self._hands]
        new._deck = list(self._deck)
        new._discards = [list(p) for p in self._discards]
        new._sequences = list(self._sequences)
        new._seq_count = list(self._seq_count)

    def _all_cards(self) -> list[int]:
        return [c for h in self._hands for c in h] + self._deck + [
            c for pile in self._discards for c in pile]

    def chips(self) -> dict[str, int]:
        """Every chip on the board: {cell: team}."""
        board = self._board
        return {cell_name(c): board[c] - 1 for c in CARD_CELLS_ORDER if board[c]}

    if TYPE_CHECKING:  # the game's view.py and deduce.py answer these (core.part)
        def observation(self, seat: int | None) -> SequenceObservation: ...

        def resample(self, seat: int, rng: random.Random) -> SequenceState: ...

    def __str__(self) -> str:
        text: str = part(type(self), "view").render(self)  # the board as text, view.py
        return text


def parse_action_id(text: str) -> int:
    """Sequence notation -> action id: ``7H c4``, ``JD e5``, ``dead 7H``, ``pass``."""
    words = text.strip().lower().split()
    if words in (["pass"], ["p"]):
        return PASS
    try:
        if len(words) == 2 and words[0] == "dead":
            card = parse_card(words[1])
            if rank_of(card) == JACK:
                raise IllegalActionError(f"{text!r}: a jack is never a dead card")
            return DEAD + NON_JACK_POS[card]
        if len(words) == 2:
            card, cell = parse_card(words[0]), parse_cell(words[1])
            if rank_of(card) == JACK:
                if cell in CORNERS:
                    raise IllegalActionError(f"{text!r}: jacks never play on a corner")
                kind = (TWO_EYED_JACK + 96 * TWO_EYED.index(card) if card in TWO_EYED
                        else ONE_EYED_JACK + 96 * ONE_EYED.index(card))
                return kind + CELL_POS[cell]
            cells = CARD_CELLS[card]
            if cell not in cells:
                raise IllegalActionError(
                    f"{text!r}: {card_name(card)} is on {cell_name(cells[0])} and "
                    f"{cell_name(cells[1])}, not {cell_name(cell)}"
                )
            return PLAY + 2 * NON_JACK_POS[card] + cells.index(cell)
    except ValueError as exc:
        if isinstance(exc, IllegalActionError):
            raise
        raise IllegalActionError(f"{text!r}: {exc}") from None
    raise IllegalActionError(
        f"{text!r} is not a Sequence move: write a card and a cell ('7H c4', 'JD e5', "
        "'JS e5' to remove a chip), 'dead 7H' or 'pass'"
    )


SequenceGame.state_class = SequenceState
