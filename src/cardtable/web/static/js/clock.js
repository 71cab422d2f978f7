// The table's clock (docs/web.md, "Clocks"): the server sends, in the welcome's table and
// in each "clock" message, every seat's seconds left at its own time and the seat whose
// clock runs; the page counts the running one down locally, from when it heard it.

import { _ } from "./i18n.js";
import { h } from "./dom.js";
import { botLabel } from "./names.js";
import { lowTime, lowTimeSound } from "./prefs.js";

/** The clock as heard now: the state and the local time it came. */
export function heard(clock) {
  return clock ? { ...clock, at: performance.now() } : null;
}

/** The clock stopped now (the page is offline): each seat's seconds as they are now. */
export function frozen(clock) {
  if (clock.frozen) return clock;
  return { ...clock, left: clock.left.map((_x, seat) => secondsLeft(clock, seat)), frozen: true };
}

/** Seconds left for ``seat`` now (null: no clock for that seat). */
export function secondsLeft(clock, seat) {
  if (!clock || clock.left[seat] === null || clock.left[seat] === undefined) return null;
  const left = clock.left[seat];
  if (clock.running !== seat || clock.frozen) return left;
  return Math.max(0, left - (performance.now() - clock.at) / 1000);
}

/** "m:ss" (or "h:mm:ss"), rounded up: a clock shows 0:00 only once it is out. */
export function format(seconds) {
  const s = Math.ceil(seconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** The clock's element in a seat's chip, or null; once the game has ``ended``, no
 *  "timed out" mark. */
export function seatClock(clock, seat, ended = false) {
  const left = secondsLeft(clock, seat);
  if (left === null) return null;
  const classes = ["seat-clock"];
  if (clock.running === seat) classes.push("running");
  if (clock.running === seat && lowTime() && left <= lowTime()) classes.push("low");
  const timeouts = ended ? 0 : clock.timeouts[seat] || 0;
  return h("span", { class: "clock-box" },
    h("span", { class: classes.join(" "), "data-seat": seat, title: _("time left") }, format(left)),
    timeouts ? h("span", { class: "timed-out", title: _("When time runs out, {bot} plays the move.", { bot: botLabel(clock.bot) }) },
      _("timed out ×{n}", { n: timeouts })) : null);
}

/** The line that says the table's clock and what happens when it runs out. */
export function clockNote(clock) {
  if (!clock) return null;
  const kind = clock.kind === "move"
    ? _("Clock: {seconds} s a move", { seconds: clock.seconds })
    : _("Clock: {minutes} min + {increment} s a move", { minutes: clock.minutes, increment: clock.increment });
  return h("div", { class: "clock-note muted", id: "clock-note" }, kind, " · ",
    _("When time runs out, {bot} plays the move.", { bot: botLabel(clock.bot) }));
}

/** Whether ``seat`` is played by the bot after its timeouts in a row. */
export function takenOver(clock, seat) {
  return !!clock && seat !== null && clock.left[seat] !== null
    && (clock.timeouts[seat] || 0) >= clock.takeover_timeouts;
}

/** Counts the running clock down on the page between the server's messages. */
export function tick(root, clock) {
  for (const el of root.querySelectorAll(".seat-clock.running")) {
    const left = secondsLeft(clock, Number(el.dataset.seat));
    if (left === null) continue;
    el.textContent = format(left);
    const low = lowTime() > 0 && left <= lowTime();
    // your own clock going under the warning (the setting): a tick, once
    if (low && !el.classList.contains("low") && el.closest(".seat.me")) lowTimeSound();
    el.classList.toggle("low", low);
  }
}

/** The table-creation form's clock fields; ``read()`` gives the request's clock. */
export function clockFields() {
  const kind = h("select", { id: "clock-kind", name: "clock-kind" },
    h("option", { value: "" }, _("No clock")),
    h("option", { value: "move" }, _("A time per move")),
    h("option", { value: "player" }, _("A clock per player")));
  const seconds = h("input", { type: "number", id: "clock-seconds", min: 1, max: 3600, value: 30 });
  const minutes = h("input", { type: "number", id: "clock-minutes", min: 0.05, max: 600, step: "any", value: 5 });
  const increment = h("input", { type: "number", id: "clock-increment", min: 0, max: 600, step: "any", value: 3 });
  const perMove = h("div", { class: "field", hidden: true },
    h("label", { for: "clock-seconds" }, _("Seconds per move")), seconds);
  const perPlayer = h("div", { hidden: true },
    h("div", { class: "field" }, h("label", { for: "clock-minutes" }, _("Minutes per player")), minutes),
    h("div", { class: "field" }, h("label", { for: "clock-increment" }, _("Seconds added per move")), increment));
  kind.addEventListener("change", () => {
    perMove.hidden = kind.value !== "move";
    perPlayer.hidden = kind.value !== "player";
  });
  const box = h("div", { class: "clock-fields" },
    h("div", { class: "field" }, h("label", { for: "clock-kind" }, _("Clock")), kind), perMove, perPlayer);
  function read() {
    if (kind.value === "move") return { kind: "move", seconds: Number(seconds.value) };
    if (kind.value === "player") {
      return { kind: "player", minutes: Number(minutes.value), increment: Number(increment.value) };
    }
    return null;
  }
  return { box, read };
}
