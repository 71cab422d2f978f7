"""The Draw Bridge table: the trick, the stock, the auction with a bidding box, the score;
from the auction on, the opponent's hand as the cards played tell it, marked "deduced".

Keys: left/right or the number keys 1-9 (shown under the hand) pick a card
(up/down and left/right walk the bidding box in the auction), Enter or a click plays
it or makes the call, p passes. Which cards and
calls are allowed is read from the legal moves.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from cardtable.tui.look import GOLD, PAPER, SUIT_SYMBOL, card_back, card_face, card_label
from cardtable.tui.panes import GamePane, hand_line, held_card

STRAINS = ("C", "D", "H", "S", "NT")  # API.md notation, low to high
#: the bidding box: a row per level, then the other calls
BOX: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{level}{strain}" for strain in STRAINS) for level in range(1, 8)
) + (("pass", "double", "redouble"),)
BOX_CELL = 6
OTHER_CELL = 10


def call_label(call: str) -> str:
    """``"3NT"`` -> ``"3NT"``, ``"2H"`` -> ``"2♥"``, other calls as they are."""
    if call[:1].isdigit():
        return call[0] + SUIT_SYMBOL.get(call[1:], call[1:])
    return call


class DrawBridgePane(GamePane):
    """Two players: the opponent above, the trick in the middle, your hand below."""

    score_name = "points"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(0, -1)", "left", show=False),
        Binding("right", "cursor(0, 1)", "right", show=False),
        Binding("up", "cursor(-1, 0)", "up", show=False),
        Binding("down", "cursor(1, 0)", "down", show=False),
        *[Binding(str(k), f"pick({k - 1})", "pick card", show=False) for k in range(1, 10)],
        Binding("enter,space", "choose", "play / call"),
        Binding("p", "call('pass')", "pass"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.card_index = 0
        self.box_row, self.box_col = 0, 0
        self.hand_spans: list[tuple[int, int, int, int]] = []
        self.hand_y = -1
        self.box_y = -1
        #: the last completed trick already told (deal, phase, cards), to tell each once
        self.trick_seen: tuple[Any, ...] | None = None

    # -- what the view says ---------------------------------------------

    @property
    def me(self) -> int:
        seat = self.view.get("seat")
        return 0 if seat is None else int(seat)

    @property
    def hand(self) -> list[str]:
        cards: list[str] = self.view.get("hand", [])
        return cards

    @property
    def bidding(self) -> bool:
        return self.view.get("phase") == "auction"

    def card_of(self, notation: str) -> str | None:
        words = notation.split()
        # in the auction "2H" is a call, not a card
        return held_card(words[0]) if len(words) == 1 and not self.bidding else None

    def last_trick(self) -> dict[str, Any] | None:
        """The view's last completed trick if it belongs to the phase on the table (the
        draw phase's last trick is not shown during the play), else None."""
        view = self.view
        trick = view.get("last_trick")
        if (trick and trick.get("deal_number") == view.get("deal_number")
                and trick.get("phase") == view.get("phase")):
            return dict(trick)
        return None

    def news(self) -> str:
        """Who won the trick just completed, every trick (the last of each phase too: the
        view's ``last_trick`` says it after the table has moved on)."""
        trick = self.view.get("last_trick")
        key = None if not trick else (trick["deal_number"], trick["phase"],
                                      tuple(tuple(c) for c in trick["cards"]))
        before, self.trick_seen = self.trick_seen, key
        if trick is None or key == before:
            return ""
        return f"{self.player(int(trick['winner']))} won the trick"

    def seat_note(self, seat: int) -> str:
        won = self.view.get("tricks_won", [])
        if self.view.get("phase") == "play" and seat < len(won):
            return f"tricks {won[seat]}"
        return ""

    def show(self, view: dict[str, Any], legal: list[str], active: bool) -> None:
        super().show(view, legal, active)
        self.card_index = min(self.card_index, max(len(self.hand) - 1, 0))
        if active and not self.bidding and self.hand[self.card_index] not in legal:
            playable = [i for i, c in enumerate(self.hand) if c in legal]
            self.card_index = playable[0] if playable else self.card_index
        if active and self.bidding and (BOX[self.box_row][self.box_col] not in legal
                                        or not view.get("auction")):
            self.box_row, self.box_col = next(
                ((r, c) for r, row in enumerate(BOX) for c, call in enumerate(row)
                 if call in legal), (7, 0))

    # -- drawing --------------------------------------------------------

    def render(self) -> Text:
        view = self.view
        if not view:
            return Text()
        me, other = self.me, 1 - self.me
        lines: list[Text] = [self._headline(), Text()]
        opponent = Text(f"{self.player(other)}  ", style="bold")
        deduced = view.get("deduced_hand")
        if deduced is not None:
            # from the auction on the cards played tell the opponent's hand (RULES 1.3)
            opponent.append("deduced: ", style="italic")
            for card in deduced:
                opponent.append_text(card_face(card, width=3, extra="italic"))
                opponent.append(" ")
        else:
            for _ in range(view["hand_sizes"][other]):
                opponent.append_text(card_back(2))
                opponent.append(" ")
        lines += [opponent, Text()]
        if not self.bidding:
            lines += self._trick(me, other)
        lines += self._auction_lines()
        self.box_y = -1
        if self.bidding and self.active:
            lines.append(Text())
            self.box_y = len(lines)
            lines += self._box()
        lines.append(Text())
        self.hand_y = len(lines)
        self.hand_spans = []
        playable = None if self.bidding or not self.active else set(self.legal)
        selected = None if self.bidding or not self.active else self.card_index
        breaks = {i for i in range(len(self.hand) - 1) if self.hand[i][-1] != self.hand[i + 1][-1]}
        # cards as wide as the pane allows: 13 of them, a gap each, a space between suits
        width, gap = next(((w, g) for w, g in ((5, " "), (4, " "), (3, " "))
                           if len(self.hand) * (w + 1) + len(breaks) * len(g)
                           <= self.size.width), (3, ""))
        hand = hand_line(self.hand, selected, None, self.hand_spans, 0, numbered=False,
                         playable=playable, breaks=breaks, width=width, gap=gap)
        lines.append(hand)
        if not self.bidding:
            lines.append(self._numbers())
        lines.append(self._status())
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out

    def _headline(self) -> Text:
        view = self.view
        phase = {"draw": "draw phase", "auction": "auction", "play": "play phase",
                 "over": "match over"}.get(view.get("phase", ""), view.get("phase", ""))
        out = Text(f"Deal {view.get('deal_number', 1)} · ", style="#cfe0d8")
        out.append(phase, style=f"bold {GOLD}")
        out.append(f" · dealer {self.player(view.get('dealer', 0))}", style="#cfe0d8")
        if view.get("phase") == "draw":
            out.append(f" · stock {view.get('stock_size', 0)}", style="#cfe0d8")
            if view.get("stock_top"):
                out.append(" · top card ", style="#cfe0d8")
                out.append_text(card_face(view["stock_top"], 4))
        return out

    def _trick(self, me: int, other: int) -> list[Text]:
        view = self.view
        trick = {int(seat): card for seat, card in view.get("trick", [])}
        leader = int(view["trick"][0][0]) if view.get("trick") else None
        out = []
        for seat in (other, me):
            line = Text(f"  {self.player(seat):>12}  ", style="#9fbfaf")
            if seat in trick:
                line.append_text(card_face(trick[seat], 5))
                if seat == leader:
                    line.append("  led", style="italic #9fbfaf")
            else:
                line.append("  ·  ", style="#6f8f7f on #0a2f25")
            out.append(line)
        last = Text("  last trick: ", style="#9fbfaf")
        done = self.last_trick()
        if done is not None:
            for seat, card in done["cards"]:
                last.append(f"{self.player(int(seat))} ", style="#9fbfaf")
                last.append_text(card_face(card, 4))
                last.append("  ")
            last.append(f"won by {self.player(int(done['winner']))}", style=f"bold {GOLD}")
        out.append(last)
        drawn = view.get("drawn", [])
        if view.get("phase") == "draw" and drawn:
            line = Text("  you drew: ", style="#9fbfaf")
            for card in drawn:
                line.append_text(card_face(card, 4, GOLD if card == drawn[-1] else PAPER))
                line.append(" ")
            out.append(line)
        return out

    def _auction_lines(self) -> list[Text]:
        view = self.view
        out = []
        auction = view.get("auction", [])
        if auction:
            line = Text("Auction: ", style="bold")
            for i, (seat, call) in enumerate(auction):
                line.append(("" if i == 0 else " · ") + f"{self.player(int(seat))} ",
                            style="#9fbfaf")
                line.append(call_label(call), style="bold")
            out.append(line)
        contract = view.get("contract")
        if contract:
            line = Text("Contract: ", style="bold")
            line.append(f"{contract['level']}{SUIT_SYMBOL.get(contract['strain'], 'NT')}",
                        style=f"bold {GOLD}")
            line.append({0: "", 1: " doubled", 2: " redoubled"}.get(contract["doubled"], ""))
            line.append(f" by {self.player(int(contract['declarer']))}")
            if view.get("phase") == "play":
                won = view.get("tricks_won", [0, 0])
                line.append("   tricks: " + " · ".join(
                    f"{self.player(s)} {won[s]}" for s in range(2)), style="#cfe0d8")
            out.append(line)
        scores = view.get("scores", [0, 0])
        line = Text("Score: ", style="bold")
        line.append(" · ".join(f"{self.player(s)} {scores[s]}" for s in range(2)))
        line.append(f"   (target {view.get('target')})", style="#9fbfaf")
        out.append(line)
        last = view.get("last_deal")
        if last:
            line = Text(f"Deal {last['deal_number']}: ", style="#9fbfaf")
            c = last.get("contract")
            if c is None:
                line.append("passed out", style="#9fbfaf")
            else:
                line.append(f"{c['level']}{SUIT_SYMBOL.get(c['strain'], 'NT')} by "
                            f"{self.player(int(c['declarer']))}, {last['declarer_tricks']} "
                            f"tricks, points {last['points'][0]}-{last['points'][1]}",
                            style="#9fbfaf")
            out.append(line)
        return out

    def _box(self) -> list[Text]:
        out = []
        for r, row in enumerate(BOX):
            line = Text("  ")
            width = BOX_CELL if r < 7 else OTHER_CELL
            for c, call in enumerate(row):
                label = call_label(call)
                here = (r, c) == (self.box_row, self.box_col)
                legal = call in self.legal
                style = (f"bold #1a1a1a on {GOLD}" if here else
                         f"bold {'#c62828' if call[1:2] in 'HD' and r < 7 else '#1a1a1a'} "
                         f"on {PAPER}" if legal else "#5f6f67 on #0a2f25")
                line.append(f"{label:^{width - 1}}", style=style)
                line.append(" ")
            out.append(line)
        return out

    def _numbers(self) -> Text:
        """The keys 1-9 under the first nine cards."""
        out = Text(no_wrap=True)
        for x0, x1, _, index in self.hand_spans[:9]:
            middle = (x0 + x1) // 2
            out.append(" " * max(0, middle - len(out)))
            out.append(str(index + 1), style="dim")
        return out

    def _status(self) -> Text:
        out = Text()
        if self.active and self.bidding:
            call = BOX[self.box_row][self.box_col]
            out.append("call ", style="#9fbfaf")
            out.append(call_label(call), style="bold")
        elif self.active and self.hand:
            out.append("play ", style="#9fbfaf")
            out.append(card_label(self.hand[self.card_index]), style="bold")
        if self.note:
            out.append(f"   │ {self.note}", style=f"bold {GOLD}")
        return out

    def info(self) -> Text:
        return Text()  # the pane shows the whole table

    # -- keys and mouse -------------------------------------------------

    def action_cursor(self, dr: int, dc: int) -> None:
        if self.bidding:
            r = (self.box_row + dr) % len(BOX)
            c = min(self.box_col + dc if not dr else self.box_col, len(BOX[r]) - 1)
            self.box_row, self.box_col = r, c % len(BOX[r])
        elif self.hand and dc:
            self.card_index = (self.card_index + dc) % len(self.hand)
        self.note, self.hinted = "", None
        self.refresh()

    def action_pick(self, index: int) -> None:
        if not self.bidding and index < len(self.hand):
            self.card_index = index
            self.note, self.hinted = "", None
            self.refresh()

    def action_choose(self) -> None:
        if not self.active:
            return
        if self.hinted:
            self.choose(self.hinted)
        elif self.bidding:
            self.choose(BOX[self.box_row][self.box_col])
        elif self.hand:
            self.choose(self.hand[self.card_index])

    def action_call(self, call: str) -> None:
        if self.active:
            self.choose(call)

    def suggest(self, notation: str) -> None:
        for r, row in enumerate(BOX):
            if notation in row:
                self.box_row, self.box_col = r, row.index(notation)
        if notation in self.hand:
            self.card_index = self.hand.index(notation)
        super().suggest(notation)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.active:
            return
        x, y = offset.x, offset.y
        if y == self.hand_y and not self.bidding:
            for x0, x1, _, index in self.hand_spans:
                if x0 <= x <= x1:
                    self.card_index = index
                    self.action_choose()
        elif self.box_y >= 0 and self.box_y <= y < self.box_y + len(BOX):
            r = y - self.box_y
            width = BOX_CELL if r < 7 else OTHER_CELL
            c = (x - 2) // width
            if x >= 2 and c < len(BOX[r]):
                self.box_row, self.box_col = r, c
                self.action_choose()


PANE = DrawBridgePane
