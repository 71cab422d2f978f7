// Resign, abort and takebacks at a table (docs/server.md: Resign, abort and takebacks):
// the buttons under the game, the other person's answer to a takeback, and the words that
// say how a game the table ended ended (the end screen and the replay).

import { _ } from "./i18n.js";
import { h, toast } from "./dom.js";

/** "Ana resigned." or "Ana aborted the game." for a result the table ended, else null. */
export function endingText(result, seatName) {
  if (!result || !result.ended) return null;
  const name = seatName(result.by);
  return result.ended === "resign" ? _("{name} resigned.", { name }) : _("{name} aborted the game.", { name });
}

/** Whether an abort is allowed now: this seat plays bots alone, or a person of the table
 *  has not moved yet (the server checks it too: end/too-late). */
function abortable(t) {
  const persons = (t.table.seats || []).map((s, i) => [s, i]).filter(([s]) => s.kind === "person").map(([, i]) => i);
  if (persons.length === 1 && persons[0] === t.seat) return true;
  if (t.unlisted) return false;
  const moved = new Set(t.events.map((e) => e.seat));
  return persons.some((p) => !moved.has(p));
}

/** The row of buttons of a seat in play: Resign (asked again before it is sent), Abort
 *  where allowed, Take back where allowed; and a takeback another person asked for, to
 *  accept or decline. Empty for a spectator and once the game is over. */
export function endingControls(t) {
  const box = h("div", { class: "row-buttons endings", id: "endings" });
  if (t.seat === null || t.ended || t.table.status !== "playing") return box;
  const asked = t.undoAsked;
  if (asked && asked.seat !== t.seat) {
    box.append(h("div", { class: "undo-asked", role: "alert", id: "undo-asked" },
      _("{name} asks to take back their last move.", { name: t.seatName(asked.seat) }), " ",
      h("button", { class: "small primary", id: "undo-accept", onclick: () => t.send({ type: "undo_answer", accept: true }) }, _("Accept")),
      h("button", { class: "small", id: "undo-decline", onclick: () => t.send({ type: "undo_answer", accept: false }) }, _("Decline"))));
  }
  if (t.confirmResign) {
    box.append(h("span", { class: "confirm", role: "alert" }, _("Resign this game?")), " ",
      h("button", { class: "small danger", id: "resign-yes", onclick: () => { t.confirmResign = false; t.send({ type: "resign" }); } }, _("Yes, resign")),
      h("button", { class: "small", id: "resign-no", onclick: () => { t.confirmResign = false; t.render(); } }, _("No, play on")));
    return box;
  }
  box.append(h("button", { class: "small", id: "resign", onclick: () => { t.confirmResign = true; t.render(); } }, _("Resign")));
  if (abortable(t)) {
    box.append(h("button", { class: "small", id: "abort", onclick: () => t.send({ type: "abort" }) }, _("Abort the game")));
  }
  const mine = t.events.some((e) => e.seat === t.seat);
  if (!t.table.rated && mine && !(asked && asked.seat === t.seat)) {
    box.append(h("button", { class: "small", id: "undo", onclick: () => t.send({ type: "undo" }) }, _("Take back my move")));
  }
  if (asked && asked.seat === t.seat) box.append(h("span", { class: "muted", id: "undo-waiting" }, _("Waiting for the others to accept your takeback…")));
  return box;
}

/** A takeback message from the server: asked, declined, lapsed or done. */
export function onUndo(t, msg) {
  if (msg.status === "asked") {
    t.undoAsked = { seat: msg.seat, version: msg.version };
    return;
  }
  t.undoAsked = null;
  if (msg.status === "declined") {
    if (msg.seat === t.seat) toast(_("{name} declined your takeback.", { name: t.seatName(msg.by) }));
    return;
  }
  if (msg.status === "lapsed") return;
  // done: the moves after msg.version are gone; the view is this seat's there
  t.events = t.events.filter((e) => e.version <= msg.version);
  t.version = msg.version;
  t.view = msg.view;
  t.hint = null;
  t.ui.selected = null;
  if (t.game.observe) t.game.observe(t, msg.view);
  toast(msg.seat === t.seat ? _("Your move was taken back.")
    : _("{name} took back their last move.", { name: t.seatName(msg.seat) }));
}
