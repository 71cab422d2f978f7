// Three Thirteen: the hand grouped into its best melds (the server's `arrange`), the deadwood
// apart, the player's own order (drag, or Shift+arrow keys), stock and discard, the score sheet.

import { _ } from "./i18n.js";
import { api, h } from "./dom.js";
import { backSVG, cardName, cardSVG, cardText, rankOf, rankText } from "./cards.js";
import { phaseLabel } from "./names.js";
import { arrive, fly, rectOf } from "./motion.js";

export const example = "discard 5C";

export function moveText(move, page, before = null) {
  if (move === "draw") return _("draw from the stock");
  if (move === "take") {
    const view = before || (page && page.view);
    const top = view && view.top_discard;
    return top ? _("take {card} from the discard pile", { card: cardText(top) }) : _("take the top discard");
  }
  const card = move.split(" ")[1];
  return _("discard {card}", { card: card ? cardText(card) : "?" });
}

export function describe(event, page) {
  const told = event.public || {};
  // the event names the card taken (the previous top discard)
  let text = moveText(event.move, page, { top_discard: told.took || null });
  if (event.drawn && event.drawn.length && event.move === "draw") {
    text += " · " + _("you drew {cards}", { cards: event.drawn.map(cardText).join(" ") });
  }
  if (told.went_out === event.seat) text += " · " + _("goes out!");
  return text;
}

export function prompt(page) {
  return page.view.phase === "draw" ? _("draw from the stock or take the top discard")
    : _("discard a card");
}

export function scoreLabel() {
  return _("Penalty points");
}

export function seatInfo(page, seat) {
  const v = page.view;
  return _("{points} points · {n} cards", { points: v.scores[seat], n: v.hand_sizes[seat] });
}

/** The score sheet by round number, from the view's `round_scores`: the penalties of the
 * last rounds completed (all of them unless the match was set up at a later round). */
function sheetOf(page, view) {
  const rows = view.round_scores || [];
  const completed = view.is_terminal ? page.table.game_info.rounds : view.round - 1;
  const sheet = {};
  rows.forEach((row, i) => { sheet[completed - rows.length + 1 + i] = row; });
  return sheet;
}

function wildOf(page, round) {
  return page.table.game_info.wild_ranks[round - 1];
}

function arrangeKey(page, hand) {
  const o = (page.table && page.table.options) || {};
  return [page.view.round, o.aces || "low", o.all_wild_melds ?? true, o.face_values || "ten", ...hand].join(",");
}

async function fetchArrangement(page, hand, key) {
  const o = (page.table && page.table.options) || {};
  const params = new URLSearchParams({
    cards: hand.join(","), round: String(page.view.round), aces: o.aces || "low",
    all_wild_melds: String(o.all_wild_melds ?? true), face_values: o.face_values || "ten",
  });
  try {
    const got = await api("GET", `/api/arrange?${params}`);
    page.ui.arranged = { key, ...got };
  } catch (err) {
    page.ui.arranged = { key, melds: [], deadwood: hand, penalty: null, failed: true };
  }
  page.render();
}

export function render(page, area) {
  const v = page.view;
  const legal = page.myTurn ? page.legal : [];
  const wild = v.wild_rank;

  area.append(h("div", { class: "info-line" },
    h("span", { id: "round" }, _("Round {n} of {rounds}", { n: v.round, rounds: page.table.game_info.rounds })),
    h("span", { class: "wild-rank", id: "wild-rank" }, _("Wild: {rank}", { rank: rankText(wild) })),
    h("span", {}, phaseLabel(v.phase))));

  // stock and discard
  const canDraw = legal.includes("draw");
  const canTake = legal.includes("take");
  const piles = h("div", { class: "felt piles" },
    h("button", {
      class: `pile-button ${canDraw ? "playable" : ""} ${page.hint && page.hint.move === "draw" ? "hinted" : ""}`,
      id: "stock", type: "button", disabled: !canDraw,
      onclick: () => page.play("draw"), "aria-label": _("Draw from the stock ({n} cards)", { n: v.stock_size }),
    }, h("span", { html: backSVG() }), h("small", {}, _("Stock: {n}", { n: v.stock_size }))),
    h("button", {
      class: `pile-button ${canTake ? "playable" : ""} ${page.hint && page.hint.move === "take" ? "hinted" : ""} ${lastDiscarded(page) ? "last" : ""}`,
      id: "discard-pile", type: "button", disabled: !canTake,
      onclick: () => page.play("take"),
      "aria-label": v.top_discard ? _("Take {card} from the discard pile", { card: cardText(v.top_discard) }) : _("The discard pile is empty"),
    }, h("span", { html: v.top_discard ? cardSVG(v.top_discard) : "" }), h("small", {}, _("Discard pile"))));
  area.append(piles);

  // other players: hand sizes, the cards they took, their melds when out
  const others = h("div", { class: "others" });
  (v.melds_shown || []).forEach((shown, s) => {
    if (shown) {
      others.append(h("div", { class: "out" }, h("strong", {}, _("{name} went out:", { name: page.seatName(s) })), " ",
        ...shown.melds.map((m) => h("span", { class: "meld-text" }, m.map(cardText).join(" ")))));
    }
  });
  (v.taken || []).forEach((cards, s) => {
    if (cards.length && s !== page.seat) {
      others.append(h("div", { class: "muted" }, _("{name} holds {cards} (taken)", { name: page.seatName(s), cards: cards.map(cardText).join(" ") })));
    }
  });
  area.append(others);

  // my hand
  const hand = v.hand || [];
  const handBox = h("div", { class: "hand-3-13", id: "hand", role: "group", "aria-label": _("Your hand") });
  if (page.seat === null && !page.replay) {
    handBox.append(h("p", { class: "muted" }, _("You are watching: the hands are hidden.")));
  } else if (hand.length) {
    const mode = page.ui.mode || "melds";
    const toggle = h("button", {
      class: "small", id: "order-toggle", type: "button",
      onclick: () => { page.ui.mode = mode === "melds" ? "own" : "melds"; page.render(); },
    }, mode === "melds" ? _("My own order") : _("Group into melds"));
    handBox.append(toggle);
    const cardButton = (card) => {
      const move = `discard ${card}`;
      const ok = legal.includes(move);
      const hinted = page.hint && page.hint.move === move;
      const out = ok && (page.view.going_out || []).includes(card);
      const fresh = page.isFresh(card);
      return h("button", {
        class: `card ${ok ? "playable" : ""} ${rankOf(card) === wild ? "wild" : ""} ${hinted ? "hinted" : ""} ${fresh ? "new" : ""}`,
        type: "button", "data-card": card, draggable: mode === "own" ? "true" : null,
        "aria-label": cardName(card) + (rankOf(card) === wild ? ` (${_("wild")})` : ""),
        onclick: () => { if (ok) page.play(move); },
        ondragstart: (e) => e.dataTransfer.setData("text/plain", card),
        ondragover: (e) => e.preventDefault(),
        ondrop: (e) => { e.preventDefault(); moveCard(page, hand, e.dataTransfer.getData("text/plain"), card); },
      }, h("span", { html: cardSVG(card) }), fresh ? h("span", { class: "tag new-tag" }, _("new")) : null,
      rankOf(card) === wild ? h("span", { class: "tag" }, _("wild")) : null,
      out ? h("span", { class: "tag out-tag" }, _("go out")) : null);
    };
    if (mode === "own") {
      const order = ownOrder(page, hand);
      handBox.append(h("div", { class: "group own" }, ...order.map(cardButton)),
        h("p", { class: "muted small" }, _("Drag cards, or focus a card and press Shift + ← / →.")));
    } else {
      const key = arrangeKey(page, hand);
      const got = page.ui.arranged;
      if (!got || got.key !== key) {
        if (page.ui.pending !== key) {
          page.ui.pending = key;
          fetchArrangement(page, hand, key);
        }
        handBox.append(h("div", { class: "group" }, ...hand.map(cardButton)));
      } else {
        const groups = h("div", { class: "groups" });
        got.melds.forEach((meld) => groups.append(h("div", { class: "group meld", role: "group", "aria-label": _("Meld") }, ...meld.map(cardButton))));
        if (got.deadwood.length) {
          groups.append(h("div", { class: "group deadwood", role: "group", "aria-label": _("Deadwood") },
            h("small", { class: "group-label" }, _("Deadwood")), ...got.deadwood.map(cardButton)));
        }
        handBox.append(groups);
        if ((v.going_out || []).length && page.myTurn) {
          handBox.append(h("p", { class: "going-out", id: "going-out" },
            _("Discard a card marked “go out” and you go out!")));
        } else if (got.penalty !== null && got.penalty !== undefined) {
          handBox.append(h("p", { class: "muted", id: "penalty" }, _("Deadwood now: {n} points", { n: got.penalty })));
        }
      }
    }
  }
  area.append(handBox);

  // how the last round ended: every hand laid out in its melds, its deadwood and its penalty
  // (the round_over of the move event, which the view keeps as last_round)
  if (v.last_round) {
    const last = v.last_round;
    const small = (cards) => cards.map((c) => h("span", { class: "small-card", html: cardSVG(c) }));
    area.append(h("details", {
      class: "sheet-box round-hands", id: "last-round",
      open: (v.round === last.round + 1 && v.phase === "draw") || v.is_terminal,
    },
    h("summary", {}, _("Round {n}: the hands", { n: last.round })),
    ...last.melds_shown.map((shown, s) => h("div", { class: "round-hand", "data-seat": s },
      h("strong", { class: "round-name" }, page.seatName(s)),
      h("div", { class: "groups" },
        ...shown.melds.map((m) => h("div", { class: "group meld", role: "group", "aria-label": _("Meld") }, ...small(m))),
        shown.deadwood.length
          ? h("div", { class: "group deadwood", role: "group", "aria-label": _("Deadwood") },
            h("small", { class: "group-label" }, _("Deadwood")), ...small(shown.deadwood))
          : null),
      h("span", { class: "penalty" }, _("Penalty: {n}", { n: shown.penalty }))))));
  }

  // the score sheet of every round
  const seats = (page.table.seats || []).length || v.hand_sizes.length;
  const rows = sheetOf(page, v);
  const sheet = h("table", { class: "score-sheet", id: "score-sheet", "aria-label": _("Score sheet") },
    h("tr", {}, h("th", {}, _("Round")), ...Array.from({ length: seats }, (_x, s) => h("th", {}, page.seatName(s)))));
  for (let r = 1; r <= page.table.game_info.rounds; r++) {
    const row = rows[r];
    sheet.append(h("tr", { class: r === v.round && !v.is_terminal ? "current" : "" },
      h("td", {}, `${r} (${rankText(wildOf(page, r))})`),
      ...Array.from({ length: seats }, (_x, s) => h("td", {}, row ? String(row[s]) : ""))));
  }
  sheet.append(h("tr", { class: "total" }, h("th", {}, _("Total")), ...v.scores.map((s) => h("th", {}, String(s)))));
  area.append(h("details", { class: "sheet-box", open: true }, h("summary", {}, _("Score sheet")), sheet));
}

function lastDiscarded(page) {
  const last = page.events[page.events.length - 1];
  return !!(last && last.public && last.public.card);
}

/** Before the move is drawn: where a discarded card comes from, where the piles are. */
export function beforeMove(page, event) {
  const card = event.public.card;
  const mine = event.seat === page.seat;
  return {
    from: rectOf(mine && card ? page.area.querySelector(`#hand [data-card="${card}"]`) : null),
    seat: rectOf(page.seatsBar.querySelector(`[data-seat="${event.seat}"]`)),
    stock: rectOf(page.area.querySelector("#stock > span")),
    discard: rectOf(page.area.querySelector("#discard-pile > span")),
  };
}

/** A discard travels to the pile; a card drawn or taken arrives in the hand (marked new), or
 *  goes to the other player's seat. */
export function animate(page, event, before) {
  const pub = event.public;
  const out = [];
  if (pub.card && !pub.round_over) {
    out.push(arrive(page.area.querySelector("#discard-pile > span"), before.from || before.seat));
  }
  const pile = pub.took ? before.discard : pub.drew ? before.stock : null;
  if (pile) {
    const mine = page.area.querySelectorAll("#hand button.card.new");
    if (event.seat === page.seat && mine.length) {
      for (const el of mine) out.push(arrive(el, pile));
    } else {
      const to = rectOf(page.seatsBar.querySelector(`[data-seat="${event.seat}"]`));
      out.push(fly(pub.took ? cardSVG(pub.took) : backSVG(), pile, to && { left: to.left, top: to.top, width: 40, height: 60 }));
    }
  }
  return out;
}

function ownOrder(page, hand) {
  const order = (page.ui.order || []).filter((c) => hand.includes(c));
  const counts = {};
  for (const c of order) counts[c] = (counts[c] || 0) + 1;
  const out = [...order];
  const left = {};
  for (const c of hand) left[c] = (left[c] || 0) + 1;
  for (const c of Object.keys(counts)) left[c] -= counts[c];
  for (const c of hand) {
    if (left[c] > 0) {
      out.push(c);
      left[c] -= 1;
    }
  }
  // a card seen more often in order than in hand (two decks): drop the extra
  const fit = [];
  const avail = {};
  for (const c of hand) avail[c] = (avail[c] || 0) + 1;
  for (const c of out) if (avail[c] > 0) { fit.push(c); avail[c] -= 1; }
  page.ui.order = fit;
  return fit;
}

function moveCard(page, hand, card, before) {
  const order = ownOrder(page, hand);
  const from = order.indexOf(card);
  if (from < 0 || card === before) return;
  order.splice(from, 1);
  order.splice(order.indexOf(before), 0, card);
  page.ui.order = order;
  page.render();
}

export function onKey(page, event) {
  if ((page.ui.mode || "melds") !== "own" || !event.shiftKey) return;
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const card = event.target && event.target.dataset && event.target.dataset.card;
  if (!card) return;
  const order = ownOrder(page, page.view.hand || []);
  const i = order.indexOf(card);
  const j = event.key === "ArrowLeft" ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  page.ui.order = order;
  page.render();
  const again = page.area.querySelectorAll(`[data-card="${card}"]`);
  if (again.length) again[0].focus();
  event.preventDefault();
}
