// Quick pairing (docs/web.md: Find me an opponent): the lobby's "Find me an opponent"
// puts this browser's player in the server's queue for a game (POST /api/pairing), waits
// for the ticket to be seated (GET /api/pairing/ID?wait=S, a long poll), and opens the
// table; "Cancel" leaves the queue. If nobody comes, a bot takes the other seats after
// the wait the player chose (kept in localStorage).

import { _ } from "./i18n.js";
import { api, h, toast } from "./dom.js";
import { gameTitle } from "./names.js";
import { ensurePlayer, playerHeaders } from "./player.js";
import { seatKey } from "./table.js";

const WAIT_STORE = "cardtable:pairing:bot-after";
const WAITS = ["10", "30", "60", "never"];
const POLL = 20;

/** The wait before a bot takes the seat: "10", "30", "60" (seconds) or "never". */
export function botWait() {
  const saved = localStorage.getItem(WAIT_STORE);
  return WAITS.includes(saved) ? saved : "30";
}

function waitLabel(wait) {
  switch (wait) {
    case "10": return _("a bot after 10 seconds");
    case "30": return _("a bot after 30 seconds");
    case "60": return _("a bot after 60 seconds");
    default: return _("never: wait for a person");
  }
}

/** The lobby's choice of what happens if nobody comes. */
export function botWaitField() {
  const select = h("select", {
    id: "pairing-bot-after",
    onchange: (event) => localStorage.setItem(WAIT_STORE, event.target.value),
  }, WAITS.map((w) => h("option", { value: w, selected: w === botWait() }, waitLabel(w))));
  return h("div", { class: "field pairing-choice" },
    h("label", { for: "pairing-bot-after" }, _("If nobody comes to play")), select);
}

/** The "Find me an opponent" button of a game's card: its waiting panel replaces the
 *  card's buttons until the table is found (then ``navigate`` opens it) or cancelled. */
export function findButton(game, nameBox, navigate, options = {}) {
  const button = h("button", {
    class: "find-opponent", id: `find-${game}`,
    onclick: () => find(game, nameBox, navigate, button, options),
  }, _("Find me an opponent"));
  return button;
}

async function find(game, nameBox, navigate, button, options) {
  const row = button.closest(".row-buttons");
  const wait = botWait();
  const who = nameBox.value.trim();
  if (who) localStorage.setItem("cardtable:name", who);
  button.disabled = true;
  let ticket;
  try {
    await ensurePlayer();
    const body = { game, options, bot_after: wait === "never" ? null : Number(wait) };
    if (who) body.name = who;
    ticket = await api("POST", "/api/pairing", body, undefined, playerHeaders());
  } catch (err) {
    button.disabled = false;
    toast(err.message, "error");
    return;
  }
  button.disabled = false;
  const waited = h("span", { class: "pairing-waited" });
  const fallback = h("p", { class: "muted pairing-fallback" },
    wait === "never" ? _("No bot: you wait for a person.")
      : _("If nobody comes, a bot takes the seat after {n} seconds.", { n: wait }));
  let stopped = false;
  const cancel = h("button", {
    class: "pairing-cancel", id: "pairing-cancel",
    onclick: async () => {
      stopped = true;
      try {
        ticket = await api("DELETE", `/api/pairing/${encodeURIComponent(ticket.ticket)}`,
          undefined, undefined, playerHeaders());
      } catch (err) {
        // forgotten (a restart): nothing waits any more
      }
      if (ticket.status === "seated") return seated(ticket, navigate);
      panel.replaceWith(row);
      row.querySelector(".find-opponent")?.focus();
    },
  }, _("Cancel"));
  const panel = h("div", { class: "pairing-wait", id: "pairing-wait", role: "status", "data-game": game },
    h("p", { class: "pairing-title" }, h("span", { class: "spinner", "aria-hidden": "true" }),
      _("Looking for an opponent for {game}…", { game: gameTitle(game) }), " ", waited),
    fallback, cancel);
  row.replaceWith(panel);
  cancel.focus();
  const started = Date.now() - (ticket.waited || 0) * 1000;
  const tick = () => {
    waited.textContent = _("{n} s", { n: Math.floor((Date.now() - started) / 1000) });
  };
  tick();
  const timer = setInterval(() => {
    if (stopped || !document.body.contains(panel)) clearInterval(timer);
    else tick();
  }, 1000);
  while (!stopped && ticket.status === "waiting") {
    if (!document.body.contains(panel)) {
      // the player left the lobby: the ticket is cancelled, never seated unseen
      stopped = true;
      api("DELETE", `/api/pairing/${encodeURIComponent(ticket.ticket)}`, undefined, undefined, playerHeaders())
        .catch(() => {});
      return;
    }
    try {
      ticket = await api("GET", `/api/pairing/${encodeURIComponent(ticket.ticket)}?wait=${POLL}`,
        undefined, undefined, playerHeaders());
    } catch (err) {
      if (err.code === "pairing/not-found") {
        stopped = true;
        toast(_("The server forgot this search (it restarted?): please ask again."), "error");
        panel.replaceWith(row);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));   // away a moment: try again
    }
  }
  if (stopped) return;
  clearInterval(timer);
  if (ticket.status === "seated") {
    seated(ticket, navigate);
    return;
  }
  toast(ticket.status === "refused" && ticket.error ? ticket.error.message
    : _("Nobody came to play. Try again, or play against a bot."), "error");
  panel.replaceWith(row);
}

function seated(ticket, navigate) {
  localStorage.setItem(seatKey(ticket.table), JSON.stringify({ seat: ticket.seat, token: ticket.token }));
  toast(ticket.opponents === "bots" ? _("Nobody came: you play against a bot.")
    : _("An opponent is here!"), "info");
  navigate(`/t/${encodeURIComponent(ticket.table)}`);
}
