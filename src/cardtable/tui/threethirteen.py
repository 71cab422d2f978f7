"""The Three Thirteen table: the stock and the discard pile, the hand with its melds, totals.

Keys: d draws from the stock, t takes the top discard; then left/right or 1-9
pick a card and Enter (or a click) discards it. The hand is shown grouped into
melds by ``cardtable.threethirteen.arrange``, wild cards on blue paper.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from cardtable.threethirteen import arrange
from cardtable.tui.look import GOLD, card_face, card_label, rank_text
from cardtable.tui.panes import GamePane, hand_line, held_card

WILD_PAPER = "#bcd8f5"


@lru_cache(maxsize=64)
def _arranged(cards: tuple[str, ...], round_: int, options: tuple[tuple[str, Any], ...]
              ) -> tuple[list[list[str]], list[str], int]:
    opts = dict(options)
    return arrange(list(cards), round_, aces=opts.get("aces", "low"),
                   all_wild_melds=opts.get("all_wild_melds", True),
                   face_values=opts.get("face_values", "ten"))


def groups(cards: list[str]) -> Text:
    """Melds as bracketed groups of small cards."""
    out = Text()
    for card in cards:
        out.append_text(card_face(card, 4))
    return out


class ThreeThirteenPane(GamePane):
    """The stock and discard pile on top, the others' hands, your hand grouped in melds."""

    score_name = "penalty"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "take_from('draw')", "draw"),
        Binding("t", "take_from('take')", "take discard"),
        Binding("left", "step(-1)", "left", show=False),
        Binding("right", "step(1)", "right", show=False),
        *[Binding(str(k), f"pick({k - 1})", "pick card", show=False) for k in range(1, 10)],
        Binding("enter,space", "discard", "discard"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = 0
        self.order: list[str] = []
        self.before: list[str] = []
        self.fresh: str | None = None
        self.hand_spans: list[tuple[int, int, int, int]] = []
        self.hand_y = -1
        self.pile_y = -1
        self.pile_spans: list[tuple[int, int, str]] = []
        #: the round being played, and the last scored round already told (None: not yet
        #: shown anything)
        self.round = 0
        self.told: int | None = None

    # -- what the view says ---------------------------------------------

    @property
    def drawing(self) -> bool:
        return self.view.get("phase") == "draw"

    def arranged(self, cards: list[str]) -> tuple[list[list[str]], list[str], int]:
        round_ = int(self.view.get("round", 1))
        return _arranged(tuple(sorted(cards)), round_, tuple(sorted(self.options.items())))

    def seat_note(self, seat: int) -> str:
        notes = []
        if self.view.get("went_out") == seat:
            notes.append("went out")
        taken = self.view.get("taken", [])
        if seat < len(taken) and taken[seat]:
            notes.append("took " + " ".join(card_label(c) for c in taken[seat][-3:]))
        return " · ".join(notes)

    def card_of(self, notation: str) -> str | None:
        words = notation.split()
        return held_card(words[1]) if len(words) == 2 and words[0] == "discard" else None

    def show(self, view: dict[str, Any], legal: list[str], active: bool) -> None:
        hand: list[str] = view.get("hand", [])
        round_ = int(view.get("round", 0))
        if self.told is None:
            self.told = (view.get("last_round") or {}).get("round", 0)
        # the card that just came into the hand (drawn or taken) is marked new until the
        # hand shrinks; a new round's deal marks nothing
        if (view.get("seat") != self.view.get("seat") or len(hand) < len(self.before)
                or round_ != self.round):
            self.fresh = None
        elif len(hand) == len(self.before) + 1:
            extra = Counter(hand) - Counter(self.before)
            self.fresh = next(iter(extra), None)
        self.before = list(hand)
        self.round = round_
        super().show(view, legal, active)
        if hand:
            melds, deadwood, _ = self.arranged(hand)
            self.order = [c for meld in melds for c in meld] + deadwood
        else:
            self.order = []
        if self.fresh in self.order and active and not self.drawing:
            self.index = self.order.index(self.fresh)
        self.index = min(self.index, max(len(self.order) - 1, 0))

    # -- drawing --------------------------------------------------------

    def render(self) -> Text:
        view = self.view
        if not view:
            return Text()
        lines: list[Text] = [self._headline(), Text()]
        self.pile_y = len(lines)
        lines.append(self._piles())
        lines.append(Text())
        me = view.get("seat")
        others = [(s, n) for s, n in enumerate(view.get("hand_sizes", [])) if s != me]
        shown = view.get("melds_shown") or [None] * len(view.get("hand_sizes", []))
        if len(others) <= 4:
            lines += [self._other(seat, size) for seat, size in others]
        else:
            # many players: those who showed no melds share lines, so the hand stays in view
            lines += [self._other(seat, size) for seat, size in others if shown[seat]]
            lines += self._others_in_rows([(s, n) for s, n in others if not shown[s]])
        lines.append(Text())
        self.hand_y = len(lines) + 1  # under the hand's title
        lines += self._hand()
        last = self._last_round()
        if last:
            lines += [Text(), last]
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out

    def _headline(self) -> Text:
        view = self.view
        out = Text(f"Round {view.get('round')} of 11", style=f"bold {GOLD}")
        out.append(f" · {view.get('deal_size')} cards · wild ", style="#cfe0d8")
        out.append(f"{rank_text(str(view.get('wild_rank')))}s", style=f"bold {WILD_PAPER}")
        out.append(f" · dealer {self.player(int(view.get('dealer', 0)))}", style="#cfe0d8")
        if view.get("reshuffled"):
            out.append(" · stock reshuffled", style="italic #9fbfaf")
        return out

    def _piles(self) -> Text:
        view = self.view
        line = Text("  Stock ", style="bold")
        self.pile_spans = []
        x0 = len(line)
        stock = view.get("stock_size", 0)
        line.append(" ░░░ " if stock else "  ·  ", style="#6f8fcf on #1f3f7f" if stock else
                    "#6f8f7f on #0a2f25")
        line.append(f" {stock}", style="#9fbfaf")
        self.pile_spans.append((x0, len(line) - 1, "draw"))
        line.append("      Discard ", style="bold")
        x0 = len(line)
        top = view.get("top_discard")
        if top:
            line.append_text(card_face(top, 5, GOLD if self.active and self.drawing else
                                       "#ece4cf"))
        else:
            line.append("  ·  ", style="#6f8f7f on #0a2f25")
        self.pile_spans.append((x0, len(line) - 1, "take"))
        below = len(view.get("discard", [])) - 1
        if below > 0:
            line.append(f"  {below} below", style="#9fbfaf")
        return line

    def _other(self, seat: int, size: int) -> Text:
        view = self.view
        line = Text(f"  {self.player(seat):<10} ", style="#cfe0d8")
        line.append("▮" * size, style="#5f7fcf")
        line.append(f" {size}  ", style="#9fbfaf")
        shown = (view.get("melds_shown") or [None] * (seat + 1))[seat]
        if shown:
            for meld in shown.get("melds", []):
                line.append("[", style="#9fbfaf")
                line.append_text(self._faces(meld))
                line.append("] ", style="#9fbfaf")
            for card in shown.get("deadwood", []):
                line.append_text(self._face(card))
                line.append(" ")
        return line

    def _others_in_rows(self, others: list[tuple[int, int]]) -> list[Text]:
        """``Bot 1 3 cards`` for each, side by side as the pane's width allows."""
        rows: list[Text] = []
        width = max(self.size.width, 40)
        for seat, size in others:
            item = Text(f"{self.player(seat)} ", style="#cfe0d8")
            item.append("▮", style="#5f7fcf")
            item.append(f"{size}", style="#9fbfaf")
            if rows and len(rows[-1]) + 3 + len(item) <= width:
                rows[-1].append("   ")
                rows[-1].append_text(item)
            else:
                rows.append(Text("  ").append_text(item))
        return rows

    def _face(self, card: str, width: int = 4, bg: str | None = None) -> Text:
        wild = card[:-1] == str(self.view.get("wild_rank"))
        return card_face(card, width, bg or (WILD_PAPER if wild else "#ece4cf"))

    def _faces(self, cards: list[str]) -> Text:
        out = Text()
        for card in cards:
            out.append_text(self._face(card))
        return out

    def _hand(self) -> list[Text]:
        view = self.view
        hand: list[str] = view.get("hand", [])
        if not hand:
            return []
        melds, deadwood, penalty = self.arranged(hand)
        title = Text("Your hand", style="bold")
        title.append(f"  ({len(melds)} meld{'s' * (len(melds) != 1)}, deadwood {penalty})",
                     style="#9fbfaf")
        breaks, at = set(), -1
        for meld in melds:
            at += len(meld)
            breaks.add(at)
        selected = self.index if self.active and not self.drawing else None
        self.hand_spans = []
        wild = str(view.get("wild_rank"))
        line = hand_line(self.order, selected, {self.fresh: "new"} if self.fresh else None,
                         self.hand_spans, 0, breaks=breaks, gap=" │",
                         paper={c: WILD_PAPER for c in self.order if c[:-1] == wild},
                         wrap=self.size.width)
        status = Text()
        if self.active and self.drawing:
            status.append("d", style=f"bold {GOLD}")
            status.append(": draw from the stock  ·  ", style="#cfe0d8")
            status.append("t", style=f"bold {GOLD}")
            top = view.get("top_discard")
            status.append(f": take {card_label(top) if top else 'the discard'}",
                          style="#cfe0d8")
        elif self.active and self.order:
            status.append("←→ or 1-9 pick, Enter discards ", style="#cfe0d8")
            status.append_text(self._face(self.order[self.index]))
        if self.note:
            status.append(f"   │ {self.note}", style=f"bold {GOLD}")
        return [title, line, status]

    def _last_round(self) -> Text | None:
        last = self.view.get("last_round")
        if not last:
            return None
        line = Text(f"Round {last['round']}: ", style="bold #9fbfaf")
        out = last.get("went_out")
        if out is not None:
            line.append(f"{self.player(int(out))} went out · ", style="#9fbfaf")
        line.append(" · ".join(f"{self.player(s)} +{p}" for s, p in
                               enumerate(last.get("scores", []))), style="#9fbfaf")
        return line

    def info(self) -> Text:
        return Text(f"Stock: {self.view.get('stock_size', 0)} cards")

    def interlude(self) -> Text | None:
        """A round just scored: every hand as it was split, and the penalties."""
        last = self.view.get("last_round")
        if not last or last["round"] == self.told:
            return None
        self.told = last["round"]
        return self.round_report(last)

    def round_report(self, last: dict[str, Any]) -> Text:
        out = Text(f"Round {last['round']} is over", style=f"bold {GOLD}")
        if last.get("went_out") is not None:
            out.append(f": {self.player(int(last['went_out']))} went out", style=f"bold {GOLD}")
        out.append("\n\n")
        totals = self.view.get("scores", [])
        for seat, shown in enumerate(last.get("melds_shown", [])):
            line = Text(f"{self.player(seat)}: ", style="bold")
            for meld in shown.get("melds", []):
                line.append("[" + " ".join(card_label(c) for c in meld) + "] ")
            if shown.get("deadwood"):
                line.append(" ".join(card_label(c) for c in shown["deadwood"]), style="#ffb0b0")
            penalty = last["scores"][seat]
            line.append(f"  +{penalty}", style=f"bold {GOLD}" if penalty == 0 else "bold")
            if seat < len(totals):
                line.append(f" (total {totals[seat]})", style="#9fbfaf")
            out.append_text(line)
            out.append("\n")
        return out

    # -- keys and mouse -------------------------------------------------

    def action_take_from(self, move: str) -> None:
        if self.active:
            self.choose(move)

    def action_step(self, step: int) -> None:
        if self.order:
            self.index = (self.index + step) % len(self.order)
            self.note, self.hinted = "", None
            self.refresh()

    def action_pick(self, index: int) -> None:
        if index < len(self.order):
            self.index = index
            self.note, self.hinted = "", None
            self.refresh()

    def action_discard(self) -> None:
        if not self.active:
            return
        if self.hinted:
            self.choose(self.hinted)  # Enter plays the hint, a draw or take too
        elif self.drawing:
            self.note = "first draw (d) or take the discard (t)"
            self.refresh()
        elif self.order:
            self.choose(f"discard {self.order[self.index]}")

    def suggest(self, notation: str) -> None:
        words = notation.split()
        if len(words) == 2 and words[1] in self.order:
            self.index = self.order.index(words[1])
        super().suggest(notation)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.active:
            return
        x, y = offset.x, offset.y
        if y == self.pile_y:
            for x0, x1, move in self.pile_spans:
                if x0 <= x <= x1:
                    self.choose(move)
        else:
            for x0, x1, row, index in self.hand_spans:
                if y == self.hand_y + row and x0 <= x <= x1:
                    self.index = index
                    self.action_discard()


PANE = ThreeThirteenPane
