// Moves you can see: short animations (Web Animations API) driven by the move events.
//
// Each animation only moves or fades an element the page has already drawn in its new
// state, or a "ghost" copy laid over the page that is removed when it ends: input is never
// blocked (ghosts take no pointer events) and the table is right whether an animation runs
// or not. Animations run one move after another: the table page holds a move event that
// comes while a move is being shown and draws it when that animation has played (so a bot's
// instant reply is seen after one's own card lands); when moves come faster still, the
// oldest waiting animations are dropped. None runs under
// prefers-reduced-motion or with the "Animate the moves" setting off.

import { motionOn } from "./alert.js";

const MOST_WAITING = 2;
export const FLY_MS = 300;

export class Motion {
  constructor() {
    this.chain = Promise.resolve();
    this.waiting = [];
    this.played = 0;     // animations started (the browser tests read it)
    this.dropped = 0;    // moves whose animations were dropped, moves coming too fast
    this.running = 0;
    this.onIdle = null;  // called when the last waiting animation has played
  }

  /** Run `step` (it returns the animations it started) after the earlier moves' ones. */
  add(step) {
    if (!motionOn()) return;
    this.waiting.push(step);
    while (this.waiting.length > MOST_WAITING) {
      this.waiting.shift();
      this.dropped += 1;
    }
    this.chain = this.chain.then(() => this.next());
  }

  async next() {
    const step = this.waiting.shift();
    if (!step) return;
    this.running += 1;
    try {
      const started = (step() || []).filter(Boolean);
      this.played += started.length;
      await Promise.all(started.map((a) => a.finished.catch(() => {})));
    } catch (err) {
      // an element gone with a newer render: nothing to animate
    } finally {
      this.running -= 1;
      if (this.idle && this.onIdle) this.onIdle();
    }
  }

  get idle() {
    return this.running === 0 && this.waiting.length === 0;
  }
}

/** Where an element is now (a DOMRect), or null when it is not on the page. */
export function rectOf(el) {
  if (!el || !el.isConnected) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

function centre(r) {
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** A copy of some markup laid over the page at `rect` (removed when its animation ends). */
export function ghost(html, rect, className = "") {
  const el = document.createElement("div");
  el.className = `ghost ${className}`;
  el.innerHTML = html;
  Object.assign(el.style, {
    left: `${rect.left + scrollX}px`, top: `${rect.top + scrollY}px`,
    width: `${rect.width}px`, height: `${rect.height}px`,
  });
  document.body.append(el);
  return el;
}

function removeAfter(animation, el) {
  const done = () => el.remove();
  animation.finished.then(done, done);
  return animation;
}

/** An element drawn at its place travels there from `from` (a rect elsewhere on the page). */
export function arrive(el, from, ms = FLY_MS) {
  const to = rectOf(el);
  if (!to || !from) return null;
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const scale = Math.min(2, Math.max(0.4, from.width / to.width));
  return el.animate([
    { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.85 },
    { transform: "none", opacity: 1 },
  ], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** A card (its markup) flies from one rect to another, as a ghost over the page. */
export function fly(html, from, to, ms = FLY_MS, className = "") {
  if (!from || !to) return null;
  const g = ghost(html, to, className);
  return removeAfter(arrive(g, from, ms), g);
}

/** A chip drops onto its cell (after `delay` ms: the card that placed it arrives first). */
export function drop(el, delay = 0, ms = 250) {
  if (!rectOf(el)) return null;
  return el.animate([
    { transform: "translateY(-40%) scale(1.5)", opacity: 0 },
    { transform: "none", opacity: 1 },
  ], { duration: ms, delay, fill: "backwards", easing: "cubic-bezier(.3,.8,.4,1.2)" });
}

/** A removed piece (its markup) lifts off `rect` and fades. */
export function lift(html, rect, ms = 350) {
  if (!rect) return null;
  const g = ghost(html, rect, "lifted");
  return removeAfter(g.animate([
    { transform: "none", opacity: 1 },
    { transform: "translateY(-60%) scale(1.4)", opacity: 0 },
  ], { duration: ms, easing: "ease-out" }), g);
}

/** Markup shown at `at`, held a moment, then swept towards `to` (a trick to its winner). */
export function sweep(html, at, to, hold = 350, ms = 350) {
  if (!at || !to) return null;
  const g = ghost(html, at, "swept");
  const [fx, fy] = centre(at);
  const [tx, ty] = centre(to);
  const total = hold + ms;
  return removeAfter(g.animate([
    { transform: "none", opacity: 1, offset: 0 },
    { transform: "none", opacity: 1, offset: hold / total },
    { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(0.3)`, opacity: 0.2, offset: 1 },
  ], { duration: total, easing: "ease-in" }), g);
}

/** A flash on each element in turn (the five cells of a completed sequence). */
export function runThrough(els, ms = 260, step = 70) {
  return els.filter((el) => rectOf(el)).map((el, i) => el.animate([
    { transform: "none", filter: "none" },
    { transform: "scale(1.18)", filter: "brightness(1.35)" },
    { transform: "none", filter: "none" },
  ], { duration: ms, delay: i * step, easing: "ease-in-out" }));
}

/** A line drawn through the centres of `els` (a sequence), over the page, then faded. */
export function lineThrough(els, ms = 400) {
  const rects = els.map(rectOf);
  if (rects.length < 2 || rects.some((r) => !r)) return null;
  const [x0, y0] = centre(rects[0]);
  const [x1, y1] = centre(rects[rects.length - 1]);
  const length = Math.hypot(x1 - x0, y1 - y0);
  const g = ghost("", { left: x0, top: y0 - 3, width: length, height: 6 }, "line");
  g.style.transformOrigin = "0 50%";
  const angle = Math.atan2(y1 - y0, x1 - x0);
  return removeAfter(g.animate([
    { transform: `rotate(${angle}rad) scaleX(0)`, opacity: 1, offset: 0 },
    { transform: `rotate(${angle}rad) scaleX(1)`, opacity: 1, offset: 0.6 },
    { transform: `rotate(${angle}rad) scaleX(1)`, opacity: 0, offset: 1 },
  ], { duration: ms * 2, easing: "ease-out" }), g);
}
