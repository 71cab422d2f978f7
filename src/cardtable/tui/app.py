"""The full-screen table: play against bots or with friends, or watch a record replay.

Layout: the game's pane (board or table, the hand) on the left; on the right the
seats with their scores, facts of the table and the log of moves; under them a
message line and a move box that completes notation. Bots' moves are shown one by
one, ``pace`` seconds apart.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Footer, Header, Input, MarkdownViewer, RichLog, Static

import cardtable
from cardtable.cards import card_name, parse_card
from cardtable.core import Action, CardtableError, IllegalActionError, State
from cardtable.records import Positions, Record, Seat
from cardtable.rulebook import rules_of
from cardtable.table import Table
from cardtable.tui.look import FELT, GOLD, card_label, spell
from cardtable.tui.panes import GamePane, pane_for
from cardtable.tui.source import SeatView
from cardtable.tui.table import record_file, seat_label

#: the moves the log shows on opening a game or a replayed position (it scrolls back no further)
LOG_MOVES = 200


def game_title(name: str) -> str:
    """The game's title from its declaration (the name itself for an unknown game)."""
    try:
        return cardtable.declaration(name).title
    except cardtable.OptionsError:
        return name


CSS = f"""
Screen {{ background: {FELT}; }}
ModalScreen {{ background: #000000 45%; }}
Curtain {{ background: {FELT}; }}
TextScreen {{ align: center middle; }}
#table {{ height: 1fr; }}
#side {{ width: 40; border-left: tall #1f5f4a; padding: 0 1; background: #0a2f25; }}
#seats {{ height: auto; margin-bottom: 1; }}
#info {{ height: auto; margin-bottom: 1; color: #cfe0d8; }}
#log {{ height: 1fr; background: #0a2f25; scrollbar-size-vertical: 1;
        scrollbar-background: #0a2f25; scrollbar-color: #2f6f5a; }}
#message {{ height: 2; padding: 0 1; background: #082a20; }}
#move {{ height: 1; border: none; padding: 0 1; background: #06221a; }}
#move:focus {{ background: #1f5f4a; }}
/* the focus shows: a gold bar beside the table, a bright move box */
#pane {{ border-left: blank; padding: 0 1 0 0; }}
#pane:focus {{ border-left: outer {GOLD}; }}
"""


def wrap_items(items: list[str], width: int) -> Text:
    """``items`` joined by `` · `` on indented lines no wider than ``width``."""
    lines = ["  " + items[0]] if items else []
    for item in items[1:]:
        if len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += " · " + item
        else:
            lines.append("  " + item)
    return Text("".join(line + "\n" for line in lines), style="#9fbfaf")


def _spellings(word: str) -> list[str]:
    """The ways a word of a move may be typed: ``"TH"``, ``"10H"``, ``"10♥"``."""
    forms = [word]
    try:
        card = card_name(parse_card(word))
    except ValueError:
        return forms
    forms += [card.replace("T", "10", 1) if card[0] == "T" else card, card_label(card)]
    return forms


def complete(typed: str, move: str) -> str | None:
    """``typed`` with the rest of ``move`` added (``"4d "`` -> ``"4d e3"``), or None when
    ``typed`` does not begin ``move``. Cards may be typed in any spelling the game reads."""
    if not typed.strip():
        return None
    words, parts = typed.split(), move.split()
    whole = typed.endswith(" ")  # the last word typed is finished
    if len(words) > len(parts):
        return None
    rest = ""
    for i, word in enumerate(words):
        forms = _spellings(parts[i])
        if i < len(words) - 1 or whole:
            if word.casefold() not in (f.casefold() for f in forms):
                return None
        else:
            form = next((f for f in forms if f.casefold().startswith(word.casefold())), None)
            if form is None:
                return None
            rest = form[len(word):]
    after = parts[len(words):]
    if after:
        rest += ("" if whole else " ") + " ".join(after)
    return typed + rest


class LegalMoves(Suggester):
    """Completes typed notation from the moves legal now."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.moves: list[str] = []

    async def get_suggestion(self, value: str) -> str | None:
        return next((c for m in self.moves if (c := complete(value, m))), None)

    def matching(self, value: str) -> list[str]:
        """The legal moves that ``value`` begins."""
        return [m for m in self.moves if complete(value, m)]


class MoveInput(Input):
    """The move box: Tab completes, Tab again offers the next legal move that fits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "complete", "complete", show=False),
        Binding("escape", "leave", "back to the table"),
    ]

    def __init__(self, suggester: LegalMoves, **kwargs: Any) -> None:
        super().__init__(suggester=suggester, **kwargs)
        self.legal_moves = suggester
        #: Tab's cycle: what was typed, and which completion of it is shown
        self.cycle: tuple[str, int, str] | None = None

    def action_complete(self) -> None:
        base, index = self.value, 0
        if self.cycle is not None and self.value == self.cycle[2]:
            base, index = self.cycle[0], self.cycle[1] + 1
        if not base.strip():
            self.action_leave()  # Tab in an empty box goes back to the table
            return
        matches = self.legal_moves.matching(base)
        if not matches:
            self.cycle = None
            return
        index %= len(matches)
        completed = complete(base, matches[index]) or base
        self.cycle = (base, index, completed)
        self.value = completed
        self.cursor_position = len(completed)

    def action_leave(self) -> None:
        self.value = ""
        self.cycle = None
        pane = self.screen.query_one(GamePane)
        pane.focus()


class TextScreen(ModalScreen[None]):
    """Markdown on top of the table (the rules); any of Escape, q or r closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "dismiss", "close"),
    ]
    DEFAULT_CSS = """
    TextScreen MarkdownViewer { width: 90%; height: 90%; border: tall #3f8f6f; }
    """

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(self.markdown, show_table_of_contents=False)
        yield Footer()


class Banner(ModalScreen[str]):
    """A message over the table; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "dismiss('ok')", "continue"),
    ]
    DEFAULT_CSS = f"""
    Banner {{ align: center middle; }}
    Banner > Static {{ width: 64; max-width: 95%; height: auto; padding: 1 2;
                      border: thick {GOLD}; background: #0a2f25; text-align: center; }}
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text)


class Curtain(Banner):
    """Hot seat: the table hidden until the next person is at the keyboard."""



class GameOver(Banner):
    """The result, with a new game or quitting one key away."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "dismiss('new')", "new game"),
        Binding("q", "dismiss('quit')", "quit"),
    ]


class TableApp(App[str]):
    """What play and replay share: the layout, and drawing a position for a viewer."""

    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rules", "rules"),
        Binding("q", "quit_table", "quit"),
    ]

    def __init__(self, game_name: str, seats: list[Seat]) -> None:
        super().__init__()
        self.game_name = game_name
        self.seats = seats
        self.suggester = LegalMoves()
        self.farewell = ""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="♠")
        with Horizontal(id="table"):
            yield pane_for(self.game_name)
            with Vertical(id="side"):
                yield Static(id="seats")
                yield Static(id="info")
                log = RichLog(id="log", markup=False, wrap=True, max_lines=2000)
                log.can_focus = False  # the focus stays where it shows: the table or the box
                yield log
        yield Static(id="message")
        yield MoveInput(self.suggester, id="move",
                        placeholder="type a move (Tab completes, Enter plays)")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        # a narrow terminal keeps room for the table
        self.query_one("#side").styles.width = 24 if event.size.width < 100 else 40

    @property
    def pane(self) -> GamePane:
        return self.query_one(GamePane)

    def say(self, text: str | Text, style: str = "") -> None:
        self.query_one("#message", Static).update(
            Text(text, style=style) if isinstance(text, str) else text)

    def draw(self, seen: SeatView, viewer: int | None, options: dict[str, Any]) -> None:
        """Show a seat's view (from a local state or a server): ``viewer``'s, of a game
        with ``options``."""
        if not self.pane.player_names:
            self.pane.seat_up([self.seat_name(s) for s in range(len(self.seats))],
                              dict(options))
        # no history (the log shows the moves): a view then costs the same all game long;
        # the panes mark the last move
        view = dict(seen.view)
        view["last_move"] = None if seen.last_move is None else list(seen.last_move)
        legal = seen.legal
        self.pane.show(view, legal, seen.active)
        self.suggester.moves = legal
        self.query_one("#move", MoveInput).disabled = not seen.active
        self.query_one("#seats", Static).update(self._seats_text(seen, viewer))
        self.query_one("#info", Static).update(self.pane.info())

    def _seats_text(self, state: SeatView, viewer: int | None) -> Text:
        out = Text()
        pane = self.pane
        winners = state.winners
        sizes = state.view.get("hand_sizes", [])
        players = state.num_players
        # two lines a seat when the side panel has room for them and for the facts and
        # the log below; else one line a seat (12 players at 80x24)
        compact = 2 * players + 8 > self.query_one("#side").size.height
        if compact:
            return self._compact_seats(state, sizes)
        for seat in range(players):
            turn = seat == state.current_player
            out.append("▶ " if turn else "  ", style=f"bold {GOLD}")
            out.append(f"{pane.seat_mark(seat)} ", style=f"bold {pane.seat_colour(seat)}")
            name = self.seat_name(seat) + (" (you)" if seat == viewer and
                                           self.seats[seat].kind == "person"
                                           and self.seats[seat].name != "You" else "")
            out.append(f"{name}", style="bold" if turn else "")
            if self.seats[seat].kind == "bot":
                out.append(f" · {self.seats[seat].name}", style="#9fbfaf")
            if seat in winners:
                out.append(" ★ wins", style=f"bold {GOLD}")
            out.append("\n")
            details = [f"{pane.score_name} {state.scores[seat]}"]
            if seat < len(sizes):
                details.append(f"{sizes[seat]} cards")
            note = pane.seat_note(seat)
            if note:
                details.append(note)
            out.append_text(wrap_items(details, self.query_one("#seats").size.width or 36))
        return out

    def _compact_seats(self, state: SeatView, sizes: list[int]) -> Text:
        """One line a seat: turn, mark, name, cards held, score."""
        out, pane = Text(), self.pane
        for seat in range(state.num_players):
            turn = seat == state.current_player
            out.append("▶" if turn else " ", style=f"bold {GOLD}")
            out.append(f"{pane.seat_mark(seat)} ", style=f"bold {pane.seat_colour(seat)}")
            out.append(self.seat_name(seat), style="bold" if turn else "")
            if seat < len(sizes):
                out.append(f" {sizes[seat]}c", style="#9fbfaf")
            if state.scores[seat]:
                out.append(f" {pane.score_name[:3]} {state.scores[seat]}", style="#9fbfaf")
            if seat in state.winners:
                out.append(" ★", style=f"bold {GOLD}")
            out.append("\n")
        return out

    def seat_name(self, seat: int) -> str:
        return seat_label(self.seats, seat)

    def log_move(self, seat: int, action: Action | str) -> None:
        line = Text()
        line.append(f"{self.pane.seat_mark(seat)} ", style=self.pane.seat_colour(seat))
        line.append(f"{self.seat_name(seat)}: ", style="#9fbfaf")
        line.append(spell(str(action)), style="bold")
        self.query_one("#log", RichLog).write(line)

    def log_note(self, text: str, style: str = "italic #ffb0b0") -> None:
        self.query_one("#log", RichLog).write(Text(text, style=style))

    def action_rules(self) -> None:
        self.push_screen(TextScreen(rules_of(self.game_name)))

    def action_quit_table(self) -> None:
        self.exit(self.farewell)

    async def action_quit(self) -> None:
        """Ctrl+Q: the same as q, the record's path said."""
        self.exit(self.farewell)


class PlayApp(TableApp):
    """A game being played: people choose moves, bots answer at a readable pace."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "hint"),
        Binding("colon,slash", "type_move", "type a move"),
        Binding("n", "new_game", "new game", show=False),
    ]

    def __init__(self, table: Table, *, pace: float = 0.8,
                 new_table: Callable[[], Table] | None = None, curtain: bool = True) -> None:
        super().__init__(table.state.game.name, list(table.seats))
        self.table = table
        self.pace = pace
        self.new_table = new_table
        # hot seat: more than one person at the keyboard, hands hidden between their turns
        self.hot_seat = curtain and len(table.persons) > 1
        self.viewer: int | None = table.persons[0] if len(table.persons) == 1 else None
        #: bots are moving or a hint is coming: the player waits (tests wait on this too)
        self.busy = False
        #: what the pane asked to show over the table (a round's scoring), not shown yet
        self.interludes: list[Text] = []
        self.final_report: Text | None = None

    @property
    def state(self) -> State:
        return self.table.state

    def on_mount(self) -> None:
        game = self.state.game
        self.title = f"cardtable · {game_title(game.name)}"
        defaults = cardtable.new_game(game.name).options
        opts = " ".join(f"{k}={v}" for k, v in game.options.items()
                        if k == "players" or v != defaults.get(k))
        seed = f" · seed {self.state.seed}" if self.state.seed is not None else ""
        self.sub_title = f"{opts}{seed}"
        for seat, action in self.state.history[-LOG_MOVES:]:
            self.log_move(seat, action)
        self.pane.focus()
        self.refresh_table()
        self.advance()

    def human_to_move(self) -> int | None:
        seat = self.state.current_player
        return seat if self.table.is_person(seat) and self.viewer == seat else None

    def refresh_table(self) -> None:
        state = self.state
        self.draw(SeatView.of_state(state, self.viewer, self.human_to_move() is not None),
                  self.viewer, state.game.options)
        self.farewell = self._farewell()

    def _farewell(self) -> str:
        saver = record_file(self.table)
        path = saver.path if saver is not None else None
        if saver is None or path is None:
            return saver.problem if saver is not None else ""
        if self.state.is_terminal:
            return f"The game is saved in {path}; watch it again with: cardtable replay {path}"
        return f"The game is saved in {path}; play on with: cardtable play --resume {path}"

    # -- the flow of the game -------------------------------------------

    def advance(self) -> None:
        """Let bots move until a person is to move or the game ends."""
        self.busy = True
        self._advance()

    @work(exclusive=True, group="play")
    async def _advance(self) -> None:
        while not self.state.is_terminal:
            if self.interludes:
                report = self.interludes.pop(0)
                report.append("\nEnter: play on", style="dim")
                self.busy = False
                await self.push_screen_wait(Banner(report))
                self.busy = True
                continue
            seat = self.state.current_player
            assert seat is not None
            if self.table.is_person(seat):
                self.busy = False
                await self._person_to_move(seat)
                return
            self.say(Text(f"{self.seat_name(seat)} is thinking…", style="italic #9fbfaf"))
            began = time.monotonic()
            try:
                action = await asyncio.to_thread(self.table.bot_move)
            except CardtableError as exc:
                # a bot kind this game lacks: a random bot takes the seat, and the game goes on
                self.table.set_seat(seat, Seat("bot", "random"))
                self.seats[seat] = self.table.seats[seat]
                self.log_note(f"{self.seat_name(seat)} cannot play ({exc}); a random bot "
                              "takes the seat")
                continue
            self.table.play(seat, action)
            self.log_move(seat, action)
            self.moved()
            rest = self.pace - (time.monotonic() - began)
            if rest > 0:
                await asyncio.sleep(rest)
        self.busy = False
        self._game_over()

    async def _person_to_move(self, seat: int) -> None:
        if self.hot_seat and self.viewer != seat:
            self.viewer = None
            self.refresh_table()
            text = Text.assemble(
                ("Pass the keyboard to\n\n", ""),
                (self.seat_name(seat), f"bold {self.pane.seat_colour(seat)}"),
                (f"  (seat {seat})\n\n", "dim"),
                ("Press Enter when ready: your hand will show.", ""))
            await self.push_screen_wait(Curtain(text))
        self.viewer = seat
        self.refresh_table()
        self.pane.focus()
        text = self._since_last_turn(seat)
        text.append_text(Text.assemble((f"{self.seat_name(seat)}, your move. ", f"bold {GOLD}"),
                                       ("h: a hint · r: rules · : type a move", "#9fbfaf")))
        self.say(text)

    def _since_last_turn(self, seat: int) -> Text:
        """The others' moves since ``seat`` last moved, for those who missed them."""
        moves: list[tuple[int, Action]] = []
        for who, action in reversed(self.state.history):
            if who == seat:
                break
            moves.append((who, action))
        # one line, the latest moves that fit: "your move" stays in view below it
        text, width = Text(), self.size.width - 3
        for who, action in moves[:6]:
            item = Text()
            item.append(f"{self.pane.seat_mark(who)} ", style=self.pane.seat_colour(who))
            item.append(f"{self.seat_name(who)} ", style="#9fbfaf")
            item.append(f"{spell(str(action))}   ", style="bold")
            if text and len(text) + len(item) > width:
                break
            text = item.append_text(text)
        if text:
            text.append("\n")
        return text

    def _game_over(self) -> None:
        state = self.state
        self.viewer = self.viewer if not self.hot_seat else None
        self.refresh_table()
        winners = state.winners
        names = ", ".join(self.seat_name(s) for s in winners)
        humans = self.table.persons
        if not winners:
            headline = "The game is a draw."
        elif len(humans) == 1 and humans[0] in winners:
            headline = "You win!" if len(winners) == 1 else f"Your side wins! ({names})"
        elif len(humans) == 1:
            headline = f"You lose: {names} win{'s' * (len(winners) == 1)}."
        else:
            headline = f"{names} win{'s' * (len(winners) == 1)}."
        scores = ", ".join(f"{self.seat_name(s)} {v}" for s, v in enumerate(state.scores))
        keys = "n: a new game · q: quit" if self.new_table else "q: quit"
        text = Text.assemble((headline + "\n\n", f"bold {GOLD}"),
                             (f"{self.pane.score_name}: {scores}\n\n", ""))
        if self.final_report is not None:
            text.append_text(self.final_report)
            text.append("\n")
        text.append(f"Enter: look at the table · {keys}", style="dim")
        self.say(Text.assemble(("Game over. ", f"bold {GOLD}"), headline, f"  {keys}"))
        self.push_screen(GameOver(text), self._after_banner)

    def _after_banner(self, result: str | None) -> None:
        if result == "new":
            self.action_new_game()
        elif result == "quit":
            self.action_quit_table()

    # -- moves from the player ------------------------------------------

    @on(GamePane.Chosen)
    def chosen(self, message: GamePane.Chosen) -> None:
        self.play(message.notation)

    @on(Input.Submitted, "#move")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        # played or refused, the box is emptied and the keys go back to the table
        box = self.query_one("#move", MoveInput)
        box.value, box.cycle = "", None
        self.pane.focus()
        if text:
            self.play(text, typed=True)

    @on(Input.Changed, "#move")
    def typing(self, event: Input.Changed) -> None:
        matches = self.suggester.matching(event.value)
        if matches:
            more = f" … {len(matches) - 8} more" if len(matches) > 8 else ""
            self.say(Text("moves: " + "  ".join(spell(m) for m in matches[:8]) + more,
                          style="#cfe0d8"))

    def refuse(self, text: str) -> None:
        self.bell()
        self.say(Text.assemble(("✗ ", "bold #ff6f6f"), (spell(text), "#ffb0b0")))

    def play(self, notation: str, typed: bool = False) -> bool:
        """Play a person's move; a refused one is explained in the game's words."""
        seat = self.human_to_move()
        if seat is None:
            self.say("Not your turn yet.", "italic")
            return False
        card = self.pane.card_of(notation) if typed else None
        if card is not None and card not in self.pane.view.get("hand", []):
            self.refuse(f"{notation}: you do not hold {card}")
            return False
        try:
            action = self.table.play(seat, notation)
        except IllegalActionError as exc:
            self.refuse(str(exc))
            return False
        self.log_move(seat, action)
        if self.hot_seat and self.state.current_player != seat:
            self.viewer = None  # the next person must not see this hand
        self.say("")
        self.moved()
        self.advance()
        return True

    def moved(self) -> None:
        """After any move: an old hint no longer applies; the pane may have news."""
        self.pane.forget_hint()
        self.refresh_table()
        news = self.pane.news()
        if news:
            self.log_note(news, style="italic #cfe0d8")
        report = self.pane.interlude()
        if report is not None and self.state.is_terminal:
            self.final_report = report  # told with the result
        elif report is not None:
            self.interludes.append(report)

    def action_type_move(self) -> None:
        box = self.query_one("#move", MoveInput)
        if not box.disabled:
            box.value, box.cycle = "", None
            box.focus()

    def action_hint(self) -> None:
        seat = self.human_to_move()
        if seat is None:
            self.say("A hint is for your own turn.", "italic")
            return
        self.say(Text("Asking a bot for advice…", style="italic #9fbfaf"))
        self.busy = True
        self.give_hint(seat)

    @work(exclusive=True, group="hint")
    async def give_hint(self, seat: int) -> None:
        moves = len(self.state.history)
        try:
            hint = await asyncio.to_thread(self.table.hint, seat)
        finally:
            self.busy = False
        if len(self.state.history) != moves:
            return  # the move was made while the bot thought
        # the chance of winning what: the game, or (Draw Bridge) the match
        of = getattr(hint, "estimate_of", "game")
        # an exact hint (Draw Bridge from the auction on) says what the move is worth
        detail = getattr(hint, "detail", None)
        exact = f"exact: {detail}; " if detail else ""
        chance = ("" if hint.win_probability is None
                  else f" ({exact}a {100 * hint.win_probability:.0f}% chance to win the {of})")
        self.pane.suggest(hint.notation)
        self.say(Text.assemble(("Hint: ", f"bold {GOLD}"), (spell(hint.notation), "bold"),
                               chance, "  Enter plays it."))

    def action_new_game(self) -> None:
        if self.new_table is None or not self.state.is_terminal:
            return
        self.table = self.new_table()
        self.viewer = self.table.persons[0] if len(self.table.persons) == 1 else None
        self.query_one("#log", RichLog).clear()
        self.interludes, self.final_report = [], None
        self.pane.forget_hint()
        self.on_mount()


def ending_words(ending: dict[str, Any], name: Callable[[int], str]) -> str:
    """How a game the table ended ended: "Ana resigned", "Bo aborted the game"."""
    who = name(ending["seat"])
    return f"{who} resigned" if ending["kind"] == "resign" else f"{who} aborted the game"


class ReplayApp(TableApp):
    """A record, stepped through: every position as the chosen seat saw it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # before the pane's own keys: a replay takes no moves
        Binding("right,l", "step(1)", "next", priority=True),
        Binding("left", "step(-1)", "back", priority=True),
        Binding("home", "jump(0)", "start", priority=True),
        Binding("end", "jump(-1)", "end", priority=True),
        Binding("space", "autoplay", "play/pause", priority=True),
        Binding("v", "viewpoint", "change seat", priority=True),
    ]

    def __init__(self, record: Record, path: Path | None = None, *, seat: int | None = None,
                 pace: float = 0.8) -> None:
        super().__init__(record.game, record.seats)
        self.record = record
        self.path = path
        self.states = Positions(record)
        self.index = 0
        humans = [s for s, who in enumerate(record.seats) if who.kind == "person"]
        self.viewer: int | None = seat if seat is not None else (humans[0] if humans else 0)
        self.pace = pace
        self.playing = False

    def on_mount(self) -> None:
        self.title = f"cardtable · replay of {game_title(self.game_name)}"
        self.sub_title = str(self.path or "")
        self.query_one("#move", MoveInput).display = False
        # a replay takes no moves: the pane's play keys are not offered (nor shown below)
        self.pane.can_focus = False
        self.set_focus(None)
        self.show_position()

    def show_position(self) -> None:
        state = self.states[self.index]
        self.draw(SeatView.of_state(state, self.viewer, False), self.viewer, state.game.options)
        log = self.query_one("#log", RichLog)
        log.clear()
        for seat, notation in self.record.actions[max(0, self.index - LOG_MOVES):self.index]:
            self.log_move(seat, notation)
        total = len(self.states) - 1
        who = "everyone" if self.viewer is None else self.seat_name(self.viewer)
        text = Text.assemble(("Move ", ""), (f"{self.index}/{total}", "bold"),
                             f" · seen by {who}")
        if self.index < total:
            seat, notation = self.record.actions[self.index]
            text.append_text(Text.assemble(" · next: ", (f"{self.seat_name(seat)} ", ""),
                                           (notation, "bold")))
        elif self.record.log.ending is not None:
            text.append_text(Text.assemble(" · ", (ending_words(
                self.record.log.ending, self.seat_name), f"bold {GOLD}")))
        elif state.is_terminal:
            names = ", ".join(self.seat_name(s) for s in state.winners) or "nobody (a draw)"
            text.append_text(Text.assemble(" · game over, won by ", (names, f"bold {GOLD}")))
        text.append("\n→ next  ← back  Home start  End end  space play/pause  v change seat  "
                    "q quit", style="dim")
        self.say(text)

    def action_step(self, step: int) -> None:
        self.index = max(0, min(len(self.states) - 1, self.index + step))
        self.show_position()

    def action_jump(self, where: int) -> None:
        self.index = where % len(self.states)
        self.show_position()

    def action_viewpoint(self) -> None:
        n = len(self.seats)
        self.viewer = 0 if self.viewer is None else (self.viewer + 1 if self.viewer + 1 < n
                                                       else None)
        self.show_position()

    def action_autoplay(self) -> None:
        self.playing = not self.playing
        if self.playing:
            self.autoplay()

    @work(exclusive=True, group="replay")
    async def autoplay(self) -> None:
        while self.playing and self.index < len(self.states) - 1:
            await asyncio.sleep(self.pace)
            if self.playing:
                self.action_step(1)
        self.playing = False
