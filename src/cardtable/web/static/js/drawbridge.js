// Draw Bridge: the draw, the auction (only legal calls enabled), the play, the match score.

import { _ } from "./i18n.js";
import { h } from "./dom.js";
import { backSVG, cardSVG, cardText, sortBySuit } from "./cards.js";
import { callLabel, phaseLabel, strainLabel } from "./names.js";

export const example = "QH";

const STRAINS = ["C", "D", "H", "S", "NT"];
const CALL = /^([1-7](C|D|H|S|NT)|pass|double|redouble)$/i;

function isCall(move, before) {
  return before ? before.phase === "auction" : CALL.test(move) && !/^[2-7][SHDC]$/i.test(move);
}

export function moveText(move, page, before = null) {
  const view = before || (page && page.view);
  if (isCall(move, view)) {
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

function contractText(contract, page) {
  if (!contract) return _("no contract (all passed)");
  const doubled = contract.doubled === 2 ? " XX" : contract.doubled === 1 ? " X" : "";
  return _("{level}{strain}{doubled} by {declarer}", {
    level: contract.level, strain: strainLabel(contract.strain), doubled, declarer: page.seatName(contract.declarer),
  });
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

  // the opponent's hand, face down
  area.append(h("div", { class: "opponent" }, h("span", {}, page.seatName(other)),
    h("div", { class: "backs" }, ...Array.from({ length: Math.min(v.hand_sizes[other], 13) },
      () => h("span", { class: "mini-back", html: backSVG() })))));

  // the middle of the table: the stock and the trick
  const middle = h("div", { class: "felt" });
  if (v.phase === "draw" || v.stock_size) {
    middle.append(h("div", { class: "stock", id: "stock" },
      h("span", { html: v.stock_top ? cardSVG(v.stock_top) : backSVG(_("The stock")) }),
      h("span", { class: "muted" }, v.stock_top ? _("Stock: {n}, top card face up", { n: v.stock_size }) : _("Stock: {n}", { n: v.stock_size }))));
  }
  const trick = h("div", { class: "trick", id: "trick", "aria-label": _("The trick") });
  for (const [seat, card] of v.trick || []) {
    trick.append(h("div", { class: `played ${seat === me ? "mine" : "theirs"}` },
      h("span", { html: cardSVG(card) }), h("small", {}, page.seatName(seat))));
  }
  if (!(v.trick || []).length && v.last_trick) {
    // the view's last completed trick, the last of the draw phase and of the play too
    const t = v.last_trick;
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
  const trump = v.contract && v.contract.strain !== "NT" ? v.contract.strain : null;
  const hint = page.hint ? page.hint.move : null;
  for (const card of sortBySuit(v.hand || [], trump)) {
    const playable = v.phase !== "auction" && legal.includes(card);
    hand.append(h("button", {
      class: `card ${playable ? "playable" : ""} ${hint === card ? "hinted" : ""}`, type: "button",
      "data-card": card, disabled: !playable, onclick: () => page.play(card),
    }, h("span", { html: cardSVG(card) })));
  }
  if (page.seat === null) hand.append(h("p", { class: "muted" }, _("You are watching: the hands are hidden.")));
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

function auctionBox(page, v, legal) {
  const box = h("div", { class: "auction", id: "auction" });
  const calls = h("ol", { class: "calls" }, ...(v.auction || []).map(([seat, call]) => h("li", {},
    `${page.seatName(seat)}: `, h("strong", {}, callLabel(call)))));
  box.append(h("h3", {}, _("Auction")), calls);
  if (v.phase !== "auction") return box;
  const grid = h("div", { class: "bid-grid", role: "group", "aria-label": _("Bids") });
  for (let level = 1; level <= 7; level++) {
    for (const strain of STRAINS) {
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
