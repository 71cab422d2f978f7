// Draw Bridge: the draw, the auction (only legal calls enabled), the play, the match score.

import { _ } from "./i18n.js";
import { h } from "./dom.js";
import { backSVG, cardName, cardSVG, cardText, sortBySuit } from "./cards.js";
import { callLabel, phaseLabel, strainLabel } from "./names.js";
import { FLY_MS, arrive, rectOf, sweep } from "./motion.js";

export const example = "QH";

/** Whether `move` is a call: in the auction (when the phase is known), else a bid of the
 *  game's call grid or pass, double, redouble that is no card's notation ("2S" is a card). */
function isCall(move, before, page) {
  if (before) return before.phase === "auction";
  const { levels, strains } = page.table.game_info;
  const bids = levels.flatMap((level) => strains.map((strain) => `${level}${strain}`));
  return (["pass", "double", "redouble"].includes(move) || bids.includes(move.toUpperCase()))
    && !/^[2-9TJQKA][SHDC]$/i.test(move);
}

export function moveText(move, page, before = null) {
  const view = before || (page && page.view);
  if (isCall(move, view, page)) {
    switch (move) {
      case "pass": return _("pass");
      case "double": return _("double");
      case "redouble": return _("redouble");
      default: return _("bid {call}", { call: callLabel(move) });
    }
  }
  return _("play {card}", { card: cardText(move) });
}

export function describe(event, page) {
  // the event says the phase its move was made in ("2S" is a card or a bid)
  let text = moveText(event.move, page, { phase: event.phase });
  if (event.drawn && event.drawn.length) {
    text += " · " + _("you drew {cards}", { cards: event.drawn.map(cardText).join(" ") });
  }
  return text;
}

export function prompt(page) {
  switch (page.view.phase) {
    case "draw": return _("play a card to the draw trick");
    case "auction": return _("make a call");
    default: return _("play a card");
  }
}

export function scoreLabel() {
  return _("Points");
}

export function seatInfo(page, seat) {
  const v = page.view;
  return _("{points} points · {n} cards", { points: v.scores[seat], n: v.hand_sizes[seat] });
}

/** A contract as the page writes it ("4♠ X by Dara"): the view's contract object, or the
 *  review's notation ("4SX", with its declarer apart). */
export function contractText(contract, page, declarer = null) {
  if (typeof contract === "string") {
    const m = contract.match(/^(\d)(NT|[SHDC])(X{0,2})$/);
    contract = m ? { level: m[1], strain: m[2], doubled: m[3].length, declarer } : null;
  }
  if (!contract) return _("no contract (all passed)");
  const doubled = contract.doubled === 2 ? " XX" : contract.doubled === 1 ? " X" : "";
  return _("{level}{strain}{doubled} by {declarer}", {
    level: contract.level, strain: strainLabel(contract.strain), doubled, declarer: page.seatName(contract.declarer),
  });
}

/** What a hint's move leads to (the server's exact hint: both perfect after it): "4♠ by
 *  Dara takes 10 tricks: Dara +120", or the deal passed out. */
function outcomeText(o, page) {
  if (!o.contract) return _("the deal is passed out: nobody scores");
  const gains = [0, 1].filter((s) => o.points[s] > 0)
    .map((s) => _("{name} +{points}", { name: page.seatName(s), points: o.points[s] }));
  const points = gains.length ? gains.join(", ") : _("nobody scores");
  return _("{contract} takes {tricks} tricks: {points}", {
    contract: contractText(o.contract, page, o.declarer), tricks: o.tricks, points,
  });
}

/** The hint's words where the hint says what decides its move (``outcome``; in the
 *  auction ``calls``: what each call leads to, grouped, the best for this seat first). */
export function hintDetail(page, hint) {
  const lines = [h("span", { id: "hint-outcome" }, "→ ", outcomeText(hint.outcome, page))];
  if (!hint.calls) return h("span", {}, ...lines);
  const me = page.seat;
  const groups = new Map();
  for (const c of hint.calls) {
    const key = `${c.contract}|${c.declarer}|${c.tricks}|${c.points.join(",")}`;
    if (!groups.has(key)) groups.set(key, { o: c, calls: [] });
    groups.get(key).calls.push(c.call);
  }
  // by the match chance, the hinted call's group first of its equals (the bot chose it:
  // chances are rounded for the page, and many calls often tie), then by the points
  const hinted = (g) => g.calls.includes(hint.move);
  const worth = (g) => [g.o.win_probability, hinted(g) ? 1 : 0, g.o.points[me] - g.o.points[1 - me]];
  const sorted = [...groups.values()].sort((a, b) => {
    const wa = worth(a), wb = worth(b);
    return wb[0] - wa[0] || wb[1] - wa[1] || wb[2] - wa[2];
  });
  // the five best, and always the hinted call's group
  const shown = sorted.slice(0, 5);
  const mine = sorted.find(hinted);
  if (mine && !shown.includes(mine)) shown.splice(4, 1, mine);
  const rows = shown.map((g) => {
    const names = g.calls.slice(0, 4).map(callLabel).join(", ")
      + (g.calls.length > 4 ? " " + _("and {n} more", { n: g.calls.length - 4 }) : "");
    return h("li", { class: hinted(g) ? "hinted-call" : "" },
      h("strong", {}, names), " → ", outcomeText(g.o, page),
      " ", h("span", { class: "muted" }, _("({pct}% chance)", { pct: Math.round(g.o.win_probability * 100) })));
  });
  const rest = sorted.filter((g) => !shown.includes(g)).reduce((n, g) => n + g.calls.length, 0);
  if (rest) rows.push(h("li", { class: "muted" }, _("{n} other calls do no better", { n: rest })));
  return h("span", {}, ...lines,
    h("div", { class: "hint-calls", id: "hint-calls" },
      h("span", { class: "muted" }, _("What each call leads to, both playing their best after it:")),
      h("ul", {}, ...rows)));
}

export function render(page, area) {
  const v = page.view;
  const me = page.seat === null ? 0 : page.seat;
  const other = 1 - me;
  const legal = page.myTurn ? page.legal : [];

  area.append(h("div", { class: "info-line" },
    h("span", { class: "phase", id: "phase" }, phaseLabel(v.phase)),
    h("span", {}, _("Deal {n}", { n: v.deal_number })),
    h("span", { id: "match-score" }, _("Match: {a} – {b} (target {target})", {
      a: `${page.seatName(me)} ${v.scores[me]}`, b: `${page.seatName(other)} ${v.scores[other]}`, target: v.target,
    })),
    v.phase === "play" || v.phase === "over"
      ? h("span", { id: "tricks" }, _("Tricks: {a} – {b}", { a: v.tricks_won[me], b: v.tricks_won[other] })) : null,
    v.contract || v.phase === "play"
      ? h("span", { id: "contract" }, _("Contract: {contract}", { contract: contractText(v.contract, page) })) : null));

  // the opponent's hand: face down, or from the auction on as the cards played tell it
  // (RULES 1.3), marked deduced
  const trumps = v.contract && v.contract.strain !== "NT" ? v.contract.strain : null;
  area.append(v.deduced_hand
    ? h("div", { class: "opponent deduced", id: "deduced-hand" },
      h("span", {}, page.seatName(other)),
      h("span", { class: "muted" }, _("Deduced from the cards played")),
      h("div", { class: "backs", role: "group", "aria-label": _("Deduced hand") },
        ...sortBySuit(v.deduced_hand, trumps).map((card) => h("span", {
          class: "mini-back deduced-card", "data-card": card, html: cardSVG(card),
        }))))
    : h("div", { class: "opponent" }, h("span", {}, page.seatName(other)),
      h("div", { class: "backs" }, ...Array.from({ length: Math.min(v.hand_sizes[other], 13) },
        () => h("span", { class: "mini-back", html: backSVG() })))));

  // the middle of the table: the stock and the trick
  const middle = h("div", { class: "felt" });
  if (v.phase === "draw" || v.stock_size) {
    middle.append(h("div", { class: "stock", id: "stock" },
      h("span", { html: v.stock_top ? cardSVG(v.stock_top) : backSVG(_("The stock")) }),
      h("span", { class: "muted" }, v.stock_top ? _("Stock: {n}, top card face up", { n: v.stock_size }) : _("Stock: {n}", { n: v.stock_size }))));
  }
  const trick = h("div", { class: "trick", id: "trick", role: "group", "aria-label": _("The trick") });
  const played = v.trick || [];
  played.forEach(([seat, card], i) => {
    // the card played last stays marked on the table
    trick.append(h("div", { class: `played ${seat === me ? "mine" : "theirs"} ${i === played.length - 1 ? "last" : ""}` },
      h("span", { html: cardSVG(card) }), h("small", {}, page.seatName(seat))));
  });
  const lastTrick = v.last_trick;
  if (!played.length && lastTrick && (lastTrick.phase === v.phase || v.phase !== "play")) {
    // the view's last completed trick: the last of the draw stays told in the auction, but
    // the play's first trick is not shown the draw's
    const t = lastTrick;
    trick.append(h("small", { class: "muted", id: "last-trick" }, _("Last trick: {cards}; won by {winner}", {
      cards: t.cards.map(([s, c]) => `${cardText(c)} (${page.seatName(s)})`).join(", "),
      winner: page.seatName(t.winner),
    })));
  }
  middle.append(trick);
  area.append(middle);

  // the auction
  if (v.phase === "auction" || (v.auction && v.auction.length)) {
    area.append(auctionBox(page, v, legal));
  }

  // my hand
  const hand = h("div", { class: "hand", id: "hand", role: "group", "aria-label": _("Your hand") });
  const hint = page.hint ? page.hint.move : null;
  for (const card of sortBySuit(v.hand || [], trumps)) {
    const playable = v.phase !== "auction" && legal.includes(card);
    const fresh = page.isFresh(card);
    hand.append(h("button", {
      class: `card ${playable ? "playable" : ""} ${hint === card ? "hinted" : ""} ${fresh ? "new" : ""}`, type: "button",
      "data-card": card, disabled: !playable, onclick: () => page.play(card),
      // the card's name in words (the SVG's text would read "A♠♠A♠")
      "aria-label": cardName(card) + (fresh ? ` (${_("new")})` : ""),
    }, h("span", { html: cardSVG(card) }), fresh ? h("span", { class: "tag new-tag" }, _("new")) : null));
  }
  if (page.seat === null && !page.replay) hand.append(h("p", { class: "muted" }, _("You are watching: the hands are hidden.")));
  area.append(hand);
  if (v.drawn && v.drawn.length) {
    area.append(h("div", { class: "muted", id: "drawn" }, _("Your draws: {cards}", { cards: v.drawn.map(cardText).join(" ") })));
  }
  if (v.shown_draws && v.shown_draws.length) {
    area.append(h("div", { class: "muted" }, _("Shown stock cards: {cards}", {
      cards: v.shown_draws.map(([s, c]) => `${cardText(c)} → ${page.seatName(s)}`).join(", "),
    })));
  }
  if (v.last_deal) {
    const d = v.last_deal;
    area.append(h("div", { class: "muted", id: "last-deal" }, _("Last deal: {contract}, declarer took {tricks} tricks; points {a} – {b}", {
      contract: contractText(d.contract, page), tricks: d.declarer_tricks ?? "–",
      a: d.points[me], b: d.points[other],
    })));
  }
}

/** Before the move is drawn: where its card comes from (the hand, or the other's backs). */
export function beforeMove(page, event) {
  const card = event.public.card;
  const mine = event.seat === page.seat;
  return {
    from: rectOf(mine && card ? page.area.querySelector(`#hand [data-card="${card}"]`) : null)
      || rectOf(page.area.querySelector(".opponent .backs")) || rectOf(page.area.querySelector(".opponent")),
  };
}

/** The card travels to the trick; a finished trick is held a moment, then gathered towards
 *  its winner; drawn cards arrive in the hand from the stock. */
export function animate(page, event, before) {
  const pub = event.public;
  const out = [];
  const me = page.seat === null ? 0 : page.seat;
  if (pub.trick) {
    const at = rectOf(page.area.querySelector("#trick"));
    const winner = pub.trick.winner === me ? page.area.querySelector("#hand") : page.area.querySelector(".opponent");
    const html = pub.trick.cards.map(([, card]) => `<span>${cardSVG(card)}</span>`).join("");
    if (at) out.push(sweep(html, { left: at.left, top: at.top, width: at.width, height: Math.min(at.height, 100) }, rectOf(winner)));
  } else if (pub.card) {
    out.push(arrive(page.area.querySelector("#trick .played.last"), before && before.from));
  }
  const stock = rectOf(page.area.querySelector("#stock"));
  for (const el of page.area.querySelectorAll("#hand button.card.new")) {
    const a = arrive(el, stock, FLY_MS);
    if (a && pub.trick) a.effect.updateTiming({ delay: 700, fill: "backwards" });
    out.push(a);
  }
  return out;
}

function auctionBox(page, v, legal) {
  const box = h("div", { class: "auction", id: "auction" });
  const calls = h("ol", { class: "calls" }, ...(v.auction || []).map(([seat, call]) => h("li", {},
    `${page.seatName(seat)}: `, h("strong", {}, callLabel(call)))));
  if (v.phase !== "auction" && !page.replay) {
    // the closed auction is kept, in full, until the player dismisses it (honeymoon-bridge's
    // rule: the calls are what the play is read by); then it folds to a line that opens
    const deal = v.deal_number;
    if (page.ui.auctionSeen === deal) {
      return h("details", { class: "auction folded", id: "auction" },
        h("summary", {}, _("Auction"), " · ", contractText(v.contract, page)), calls);
    }
    box.classList.add("closed");
    box.append(h("h3", {}, _("The auction is closed: {contract}", { contract: contractText(v.contract, page) })), calls,
      h("div", { class: "row-buttons" }, h("button", {
        type: "button", id: "auction-ok", class: "primary",
        onclick: () => {
          page.ui.auctionSeen = deal;
          page.render();
          const folded = page.area.querySelector("#auction summary");
          if (folded) folded.focus();
        },
      }, _("Got it"))));
    return box;
  }
  box.append(h("h3", {}, _("Auction")), calls);
  if (v.phase !== "auction") return box;
  const grid = h("div", { class: "bid-grid", role: "group", "aria-label": _("Bids") });
  const { levels, strains } = page.table.game_info;   // the call grid, the game's own
  for (const level of levels) {
    for (const strain of strains) {
      const call = `${level}${strain}`;
      const ok = legal.includes(call);
      const hinted = page.hint && page.hint.move === call ? "hinted" : "";
      grid.append(h("button", {
        type: "button", class: `bid ${"HD".includes(strain) ? "red" : ""} ${hinted}`, "data-call": call, disabled: !ok,
        onclick: () => page.play(call),
      }, `${level}${strainLabel(strain)}`));
    }
  }
  box.append(grid, h("div", { class: "row-buttons" },
    ...["pass", "double", "redouble"].map((call) => h("button", {
      type: "button", class: `call ${page.hint && page.hint.move === call ? "hinted" : ""}`, "data-call": call,
      disabled: !legal.includes(call),
      onclick: () => page.play(call),
    }, callLabel(call)))));
  return box;
}
