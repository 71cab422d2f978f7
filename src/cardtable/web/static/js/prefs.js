// Settings players like (docs/web.md: Settings), kept in this browser with the others
// (localStorage "cardtable:settings", alert.js): a four-colour deck, the cards' and the
// board's size, confirm before a move, card sounds (play, draw, shuffle) and a mute, the
// clock's low-time warning, and at games with tricks (game_info.tricks) auto-play of a
// single legal card, a peek at the last trick and how long a finished trick is held.

import { _ } from "./i18n.js";
import { h } from "./dom.js";
import { saveSettings, settings } from "./alert.js";
import { cardSVG } from "./cards.js";

// their defaults are alert.js's DEFAULTS; the numbers' settings
const NUMBERS = new Set(["lowTime"]);

// ------------------------------------------------------------------ the look

/** The deck's colours and the sizes, on the page's root element (CSS reads them). */
export function applyLook() {
  const s = settings();
  const root = document.documentElement;
  root.dataset.cardSize = s.cardSize;
  root.dataset.boardSize = s.boardSize;
  root.dataset.fourColour = s.fourColour ? "yes" : "no";
}

// ------------------------------------------------------------------ sounds

const SOUNDS = {};

function sound(name) {
  const s = settings();
  if (s.mute) return;
  if (!SOUNDS[name]) SOUNDS[name] = new Audio(`/static/sounds/${name}.wav`);
  const audio = SOUNDS[name];
  audio.currentTime = 0;
  const played = audio.play();
  if (played && played.catch) played.catch(() => {});   // refused before a click
}

/** A move's sound: a new hand is shuffled and dealt, a card drawn, else a card played. */
export function cardSound(event) {
  if (!settings().cardSounds) return;
  if (event.dealt) sound("shuffle");
  else if (event.drawn && event.drawn.length) sound("draw");
  else sound("play");
}

/** The clock's seconds left that warn (0: no warning). */
export function lowTime() {
  const n = Number(settings().lowTime);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Your own clock just went under the warning: a tick (unless muted). */
export function lowTimeSound() {
  if (settings().cardSounds || settings().sound) sound("low");
}

// ------------------------------------------------------------------ the panel's fields

function choice(key, label, options) {
  const id = `setting-${key}`;
  const s = settings();
  const select = h("select", {
    id, onchange: (event) => {
      const raw = event.target.value;
      saveSettings({ [key]: NUMBERS.has(key) ? Number(raw) : raw });
      applyLook();
    },
  }, options.map(([value, text]) => h("option", { value: String(value), selected: String(s[key]) === String(value) }, text)));
  return h("div", { class: "field" }, h("label", { for: id }, label), select);
}

/** The settings panel's fields for these (``box``: alert.js's checkbox maker). */
export function prefFields(box) {
  const sizes = [["small", _("small")], ["medium", _("medium")], ["large", _("large")]];
  // folded under "More settings", so that the open panel stays small over the table
  // (a button, not a second <summary>: "#settings summary" stays the panel's own)
  const more = h("div", { class: "settings-more", id: "settings-more", hidden: true });
  const toggle = h("button", {
    type: "button", class: "small settings-more-toggle", id: "settings-more-toggle", "aria-expanded": "false",
    "aria-controls": "settings-more",
    onclick: () => {
      more.hidden = !more.hidden;
      toggle.setAttribute("aria-expanded", more.hidden ? "false" : "true");
    },
  }, _("More settings"));
  more.append(
    box("mute", _("Mute all sounds")),
    box("cardSounds", _("Card sounds (play, draw, shuffle)")),
    choice("lowTime", _("Warn when my clock is under"), [
      [0, _("no warning")], [10, _("10 seconds")], [30, _("30 seconds")], [60, _("60 seconds")]]),
    box("fourColour", _("Four-colour deck (♦ blue, ♣ green)"), applyLook),
    choice("cardSize", _("Card size"), sizes),
    choice("boardSize", _("Board size"), sizes),
    box("confirm", _("Confirm before each move")),
    box("autoPlay", _("Play my only legal card by itself (games with tricks)")),
    choice("holdTrick", _("Hold a finished trick"), [
      ["moment", _("a moment")], ["2", _("2 seconds")], ["4", _("4 seconds")], ["click", _("until I click")]]));
  return [toggle, more];
}

// ------------------------------------------------------------------ at the table

/** Whether a move goes now: with "confirm before each move" on, a bar asks first (its
 *  "Play" sends the move, ``page.play(move, true)``). */
export function confirmMove(page, move, confirmed) {
  if (confirmed || !settings().confirm) {
    if (page.confirmBar) page.confirmBar.remove();
    page.confirmBar = null;
    return true;
  }
  if (page.confirmBar) page.confirmBar.remove();
  const text = page.game.moveText ? page.game.moveText(move, page) : move;
  const yes = h("button", { class: "primary small", id: "confirm-move", onclick: () => page.play(move, true) }, _("Play"));
  page.confirmBar = h("div", { class: "confirm-bar", id: "confirm-bar", role: "alertdialog", "aria-label": _("Confirm the move") },
    h("span", {}, _("Play {move}?", { move: text })), " ", yes, " ",
    h("button", { class: "small", id: "confirm-cancel", onclick: () => { page.confirmBar.remove(); page.confirmBar = null; } }, _("Cancel")));
  page.controls.before(page.confirmBar);
  yes.focus();
  return false;
}

function tricks(page) {
  return !!(page.table && page.table.game_info && page.table.game_info.tricks);
}

function trickCards(page, trick) {
  return trick.cards.map(([seat, card]) => h("span", { class: "peek-card" },
    h("span", { html: cardSVG(card) }), h("small", {}, page.seatName(seat))));
}

/** A finished trick (a live event's public ``trick``) is held on the table as the
 *  setting says: a moment (the animation alone), seconds, or until a click. */
export function holdTrick(page, event) {
  const hold = settings().holdTrick;
  const trick = event.public && event.public.trick;
  if (!tricks(page) || !trick || !trick.cards || hold === "moment") return;
  page.heldTrick = { trick, click: hold === "click" };
  clearTimeout(page.heldTimer);
  if (hold !== "click") {
    page.heldTimer = setTimeout(() => releaseTrick(page), Number(hold) * 1000);
  }
}

function releaseTrick(page) {
  page.heldTrick = null;
  clearTimeout(page.heldTimer);
  const held = document.getElementById("held-trick");
  if (held) held.remove();
  const trickBox = page.area && page.area.querySelector("#trick");
  if (trickBox) trickBox.classList.remove("holding");
}

/** After the game is drawn: the held trick over the table's trick, the peek at the last
 *  trick, and auto-play of a single legal card. */
export function afterGameRender(page) {
  if (!tricks(page)) return;
  const v = page.view;
  const trickBox = page.area.querySelector("#trick");
  if (page.heldTrick && trickBox) {
    const { trick, click } = page.heldTrick;
    trickBox.classList.add("holding");
    trickBox.append(h("div", { class: "held-trick", id: "held-trick", role: "status" },
      ...trickCards(page, trick),
      h("small", {}, _("Won by {winner}", { winner: page.seatName(trick.winner) })),
      click ? h("button", { class: "small primary", id: "next-trick", onclick: () => releaseTrick(page) }, _("Next trick")) : null));
  }
  // the peek: during a trick, the one before it
  const last = v.last_trick;
  if (last && last.cards && last.cards.length && (v.trick || []).length && !v.is_terminal) {
    const panel = h("div", { class: "peek-panel", id: "peek-panel", hidden: !page.peeking },
      ...trickCards(page, last), h("small", {}, _("Won by {winner}", { winner: page.seatName(last.winner) })));
    const button = h("button", {
      class: "small", id: "peek-trick", "aria-expanded": page.peeking ? "true" : "false",
      onclick: () => {
        page.peeking = !page.peeking;
        panel.hidden = !page.peeking;
        button.setAttribute("aria-expanded", page.peeking ? "true" : "false");
      },
    }, _("Last trick"));
    page.area.append(h("div", { class: "peek" }, button, panel));
  } else {
    page.peeking = false;
  }
  // auto-play: the seat's only legal card, once per version
  const legal = page.legal;
  if (settings().autoPlay && page.myTurn && legal.length === 1 && !page.heldTrick
      && page.autoPlayed !== page.version) {
    page.autoPlayed = page.version;
    const version = page.version;
    setTimeout(() => {
      if (page.version === version && page.myTurn) page.play(legal[0], true);
    }, 600);
  }
}
