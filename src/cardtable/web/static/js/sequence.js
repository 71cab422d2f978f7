// Sequence: the 10x10 board, the hand, the draw pile; chips told apart by shape and colour.

import { _ } from "./i18n.js";
import { h } from "./dom.js";
import { TEAM_COLOURS, TEAM_SHAPES, cardName, cardSVG, cardText, chipSVG, cornerSVG, miniCardSVG } from "./cards.js";
import { FLY_MS, arrive, drop, fly, lift, lineThrough, rectOf, runThrough } from "./motion.js";

export const example = "7H c4";

/** The board's layout, row 1 first: the game's own (the table's `game_info`). */
function boardOf(page) {
  return page.table.game_info.board;
}

const COLUMNS = "abcdefghij";

function cellName(r, c) {
  return COLUMNS[c] + (r + 1);
}

function teamName(team) {
  switch (team) {
    case 0: return _("Blue circles");
    case 1: return _("Green squares");
    default: return _("Red triangles");
  }
}

function teamOf(page, seat) {
  return page.table.game_info.teams[seat];
}

/** What a card does, "wild" or "remove" (a jack), else undefined: the game's `card_roles`. */
function roleOf(page, card) {
  return page.table.game_info.card_roles[card];
}

export function moveText(move, page) {
  const words = move.split(" ");
  if (words[0] === "pass") return _("pass");
  if (words[0] === "dead") return _("exchange the dead card {card}", { card: cardText(words[1]) });
  if (roleOf(page, words[0]) === "remove") return _("{card}: remove the chip on {cell}", { card: cardText(words[0]), cell: words[1] });
  return _("{card} on {cell}", { card: cardText(words[0]), cell: words[1] });
}

export function describe(event, page) {
  let text = moveText(event.move, page);
  if (event.drawn && event.drawn.length) {
    text += " · " + _("drew {cards}", { cards: event.drawn.map(cardText).join(" ") });
  }
  return text;
}

export function prompt(page) {
  const legal = page.legal;
  if (legal.length === 1 && legal[0] === "pass") return _("no card can be played: pass");
  return page.ui.selected ? _("pick a highlighted cell") : _("pick a card from your hand");
}

export function scoreLabel() {
  return _("Sequences");
}

export function seatBadge(page, seat) {
  const team = teamOf(page, seat);
  return h("span", { class: "chip-badge", title: teamName(team), html: chipSVG(team) });
}

export function seatInfo(page, seat) {
  const v = page.view;
  return _("{n} cards", { n: v.hand_sizes[seat] });
}

function lastCell(page) {
  const last = page.events[page.events.length - 1];
  return (last && last.public && last.public.cell) || null;
}

export function render(page, area) {
  const v = page.view;
  const legal = page.myTurn ? page.legal : [];
  const hand = v.hand || [];
  if (page.ui.selected && !hand.includes(page.ui.selected)) page.ui.selected = null;
  const selected = page.ui.selected;
  const targets = new Map();   // cell -> move
  if (selected) {
    for (const move of legal) {
      const [card, cell] = move.split(" ");
      if (card === selected && cell) targets.set(cell, move);
    }
  }
  const board = boardOf(page);
  const inSequence = new Set();
  for (const [, cells] of v.sequences || []) for (const cell of cells) inSequence.add(cell);
  const last = lastCell(page);
  const hinted = page.hint ? page.hint.move.split(" ")[1] : null;

  // the scores and the draw pile
  const teams = v.teams || 2;
  const scoreLine = h("div", { class: "info-line" },
    ...Array.from({ length: teams }, (_x, t) => h("span", { class: "team-score" },
      h("span", { class: "chip-badge", html: chipSVG(t) }),
      `${teamName(t)}: `, h("strong", {}, String(teamScore(v, t))), ` / ${v.sequences_needed}`)),
    h("span", { class: "pile", id: "draw-pile" }, _("Draw pile: {n}", { n: v.stock_size })));
  if (v.team !== null && v.team !== undefined) {
    scoreLine.append(h("span", { class: "my-team" }, _("Your team: {team}", { team: teamName(v.team) })));
  }

  // the board
  const grid = h("div", { class: "board", role: "grid", "aria-label": _("The board") });
  // rows as ARIA rows (display: contents keeps the CSS grid): a screen reader moves by row and column
  const head = h("div", { class: "board-row", role: "row" }, h("div", { class: "label corner-label", role: "columnheader" }));
  for (let c = 0; c < 10; c++) head.append(h("div", { class: "label", role: "columnheader" }, COLUMNS[c]));
  grid.append(head);
  for (let r = 0; r < 10; r++) {
    const row = h("div", { class: "board-row", role: "row" }, h("div", { class: "label", role: "rowheader" }, String(r + 1)));
    grid.append(row);
    for (let c = 0; c < 10; c++) {
      const name = cellName(r, c);
      const card = board[r][c];
      const chip = v.board[r][c];
      const classes = ["cell"];
      const move = targets.get(name);
      if (move) classes.push("legal");
      if (inSequence.has(name)) classes.push("in-sequence");
      if (name === last) classes.push("last");
      if (name === hinted) classes.push("hinted");
      const covered = chip !== null && chip !== "XX";
      let inner = card === "XX" ? cornerSVG() : miniCardSVG(card, covered);
      if (covered) inner += chipSVG(chip, inSequence.has(name));
      if (covered) classes.push("covered");
      const label = (card === "XX" ? _("corner") : cardText(card)) + ` ${name}`
        + (chip !== null && chip !== "XX" ? `, ${teamName(chip)}` : "");
      const attrs = { class: classes.join(" "), "data-cell": name, html: inner, "aria-label": label, role: "gridcell" };
      if (move) {
        row.append(h("button", { ...attrs, type: "button", onclick: () => page.play(move) }));
      } else {
        row.append(h("div", attrs));
      }
    }
  }

  // the hand
  const handBox = h("div", { class: "hand", id: "hand", role: "group", "aria-label": _("Your hand") });
  hand.forEach((card, i) => {
    const playable = legal.some((m) => m.startsWith(card + " ") || m === `dead ${card}`);
    const dead = (v.dead_cards || []).includes(card);
    const classes = ["card"];
    if (card === selected) classes.push("selected");
    const fresh = page.isFresh(card);
    if (fresh) classes.push("new");
    if (playable) classes.push("playable");
    if (page.hint && page.hint.move.split(" ").includes(card)) classes.push("hinted");
    handBox.append(h("button", {
      class: classes.join(" "), type: "button", "data-card": card,
      "aria-pressed": card === selected ? "true" : "false",
      // the card's name in words, with its tags (the SVG's text would read "A♠♠A♠")
      "aria-label": [cardName(card), fresh ? _("new") : "", dead ? _("dead") : "",
        roleOf(page, card) ? (roleOf(page, card) === "remove" ? _("remove") : _("wild")) : ""].filter(Boolean).join(", "),
      title: `${i + 1}`,
      onclick: () => {
        page.ui.selected = card === selected ? null : card;
        page.render();
        const first = page.area.querySelector(".cell.legal");
        if (first && page.ui.selected) first.focus({ preventScroll: true });
      },
    }, h("span", { html: cardSVG(card) }), fresh ? h("span", { class: "tag new-tag" }, _("new")) : null,
    dead ? h("span", { class: "tag" }, _("dead")) : null,
    roleOf(page, card) ? h("span", { class: "tag" }, roleOf(page, card) === "remove" ? _("remove") : _("wild")) : null));
  });
  const actions = h("div", { class: "actions" });
  if (selected && legal.includes(`dead ${selected}`)) {
    actions.append(h("button", { id: "dead-card", class: "primary", onclick: () => page.play(`dead ${selected}`) },
      _("Exchange the dead card {card}", { card: cardText(selected) })));
  }
  if (legal.includes("pass")) {
    actions.append(h("button", { id: "pass", class: "primary", onclick: () => page.play("pass") }, _("Pass")));
  }
  if (page.seat === null && !page.replay) {
    handBox.append(h("p", { class: "muted" }, _("You are watching: the hands are hidden.")));
  }

  // each seat's last discard
  const discards = h("div", { class: "discards" }, h("span", { class: "muted" }, _("Discards:")),
    ...(v.discards || []).map((pile, s) => (pile.length
      ? h("span", { class: "discard" }, `${page.seatName(s)} `, h("strong", {}, cardText(pile[0])))
      : null)));

  area.append(scoreLine, grid, handBox, actions, discards);
  fitBoard(grid);
}

// The whole board in the window on a desktop, rows 9 and 10 too, whatever stands above it
// (the banner, the last move, a note): the room from the board's top to the window's bottom
// is the board's largest width (it is as tall as it is wide). The CSS uses it beside the hand
// (wide screens only); it stays on the page's root from one render to the next, so a new
// board is drawn at its size at once.
let fitted = null;
function fitBoard(grid) {
  fitted = grid;
  queueMicrotask(fitNow);
}
function fitNow() {
  if (!fitted || !fitted.isConnected) return;
  const top = fitted.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(320, Math.floor(window.innerHeight - top - 12));
  document.documentElement.style.setProperty("--board-room", `${room}px`);
}
window.addEventListener("resize", () => requestAnimationFrame(fitNow));

/** Before the move is drawn: where its card comes from (the hand, or the mover's seat) and
 *  the chip a one-eyed jack takes off. */
export function beforeMove(page, event) {
  const card = event.public.card;
  const mine = event.seat === page.seat;
  const from = rectOf(mine && card ? page.area.querySelector(`#hand [data-card="${card}"]`) : null)
    || rectOf(page.seatsBar.querySelector(`[data-seat="${event.seat}"]`));
  const cell = event.public.cell && page.area.querySelector(`[data-cell="${event.public.cell}"]`);
  const chip = cell && cell.querySelector(".chip-svg");
  return { from, chip: chip ? { html: chip.outerHTML, rect: rectOf(chip) } : null };
}

/** The card travels to its cell; the chip drops on it (or the removed one lifts off); a
 *  completed sequence is drawn through its five cells; a drawn card arrives in the hand. */
export function animate(page, event, before) {
  const pub = event.public;
  const out = [];
  const cellOf = (name) => page.area.querySelector(`[data-cell="${name}"]`);
  const cell = pub.cell ? cellOf(pub.cell) : null;
  if (cell && pub.card && before) out.push(fly(cardSVG(pub.card), before.from, rectOf(cell)));
  if (cell && pub.chip !== undefined) {
    const chip = cell.querySelector(".chip-svg");
    if (chip) out.push(drop(chip, FLY_MS));
  }
  if (pub.removed !== undefined && before && before.chip) out.push(lift(before.chip.html, before.chip.rect));
  for (const [, cells] of pub.sequences || []) {
    const els = cells.map(cellOf).filter(Boolean);
    out.push(...runThrough(els), lineThrough(els));
  }
  for (const el of page.area.querySelectorAll("#hand button.card.new")) {
    out.push(arrive(el, rectOf(page.area.querySelector("#draw-pile"))));
  }
  return out;
}

function teamScore(v, team) {
  return (v.sequences || []).filter(([t]) => t === team).length;
}

export function onKey(page, event) {
  if (!page.myTurn) return;
  const n = Number(event.key);
  const hand = page.view.hand || [];
  if (n >= 1 && n <= hand.length) {
    page.ui.selected = hand[n - 1];
    page.render();
    const first = page.area.querySelector(".cell.legal");
    if (first) first.focus({ preventScroll: true });
    event.preventDefault();
  } else if (event.key === "Escape") {
    page.ui.selected = null;
    page.render();
  } else if (event.key.startsWith("Arrow") && event.target.classList && event.target.classList.contains("legal")) {
    // arrows move between the highlighted cells: the nearest one that way
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    const at = (el) => {
      const name = el.dataset.cell;
      return [COLUMNS.indexOf(name[0]), Number(name.slice(1)) - 1];
    };
    const [x0, y0] = at(event.target);
    let best = null;
    let bestScore = Infinity;
    for (const el of page.area.querySelectorAll(".cell.legal")) {
      const [x, y] = at(el);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (along <= 0) continue;
      const score = along + 2 * Math.abs((x - x0) * dy + (y - y0) * dx);
      if (score < bestScore) {
        best = el;
        bestScore = score;
      }
    }
    if (best) best.focus();
    event.preventDefault();
  }
}

export { TEAM_COLOURS, TEAM_SHAPES };
