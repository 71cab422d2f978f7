// The page: lobby at /, a table at /t/ID, the rules at /rules/GAME.

import { _, LANGUAGES, lang, preferredLanguage, setLanguage } from "./i18n.js";
import { settingsPanel } from "./alert.js";
import { api, h, nameInput, toast } from "./dom.js";
import { botLabel, choiceLabel, gameTitle, optionLabel } from "./names.js";
import { renderRules } from "./rules.js";
import { ReplayPage } from "./replay.js";
import { TablePage, myTables, seatKey, takeSeat } from "./table.js";

const app = document.getElementById("app");
let page = null;

const LOGO = `<svg viewBox="0 0 24 24" width="22" height="22"><rect x="3" y="2" width="14" height="19" rx="2" fill="#fff" stroke="#333" transform="rotate(-8 10 12)"/>`
  + `<rect x="8" y="3" width="14" height="19" rx="2" fill="#fff" stroke="#333"/>`
  + `<text x="15" y="17" font-size="11" text-anchor="middle" fill="#c62828">♥</text></svg>`;

export const BOT_KINDS = ["random", "heuristic", "ismcts", "learned", "perfect"];

function header() {
  const select = h("select", {
    id: "lang", "aria-label": _("Language"),
    onchange: async (event) => {
      await setLanguage(event.target.value, true);
      route();
    },
  }, LANGUAGES.map(([code, name]) => h("option", { value: code, selected: code === lang() }, name)));
  return h("header", { class: "top" },
    h("a", { href: "/", class: "brand", "data-link": true },
      h("span", { class: "logo", "aria-hidden": "true", html: LOGO }), _("Card table")),
    h("nav", {},
      h("a", { href: "/rules/sequence", "data-link": true }, _("Rules")),
      settingsPanel(),
      select));
}

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

async function route() {
  if (page && page.close) page.close();
  page = null;
  document.title = _("Card table");
  app.replaceChildren(header());
  const path = location.pathname;
  const table = path.match(/^\/t\/([^/]+)\/?$/);
  const replay = path.match(/^\/t\/([^/]+)\/replay\/?$/);
  const rules = path.match(/^\/rules\/?([a-z]*)\/?$/);
  if (table) {
    page = new TablePage(app, decodeURIComponent(table[1]), navigate);
    await page.start();
  } else if (replay) {
    page = new ReplayPage(app, decodeURIComponent(replay[1]), navigate);
    await page.start();
  } else if (rules) {
    await renderRules(app, rules[1] || "sequence", navigate);
  } else if (path === "/") {
    await lobby();
  } else {
    notFound(path);
  }
}

// ------------------------------------------------------------------ no such page

/** Any other address (the server answers it with this page and status 404). */
function notFound(path) {
  document.title = _("No such page");
  let shown = path;
  try {
    shown = decodeURI(path);
  } catch (err) {
    // a malformed escape: shown as sent
  }
  app.append(h("main", { class: "not-found", id: "not-found" },
    h("h1", {}, _("No such page")),
    h("p", {}, _("There is nothing at {path}.", { path: shown.slice(0, 80) })),
    h("p", {}, h("a", { href: "/", "data-link": true, class: "button primary" }, _("Back to the lobby")))));
}

// ------------------------------------------------------------------ the lobby

let gamesCache = null;

async function loadGames() {
  if (!gamesCache) {
    const data = await api("GET", "/api/games");
    const games = Array.isArray(data) ? data : data.games;
    const bots = (!Array.isArray(data) && (data.bots || data.bot_kinds)) || BOT_KINDS;
    gamesCache = { games, bots: bots.map((b) => (typeof b === "string" ? b : b.name)) };
  }
  return gamesCache;
}

function optionInput(spec, players) {
  const id = `opt-${spec.name}`;
  const help = spec.help ? h("small", { class: "help" }, _(spec.help)) : null;
  let input;
  if (spec.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: spec.name, checked: !!spec.default });
    return h("div", { class: "field check" }, input, h("label", { for: id }, optionLabel(spec.name)), help);
  }
  if (spec.kind === "choice") {
    const choices = [...(spec.choices || [])];
    if (spec.none_ok && !choices.includes(null)) choices.unshift(null);
    input = h("select", { id, name: spec.name },
      choices.map((c) => h("option", { value: c === null ? "" : String(c), selected: c === spec.default },
        choiceLabel(c))));
  } else {
    input = h("input", {
      type: "number", id, name: spec.name, min: spec.minimum ?? null, max: spec.maximum ?? null,
      value: spec.default ?? "", placeholder: spec.none_ok ? _("automatic") : null,
    });
  }
  void players;
  return h("div", { class: "field" }, h("label", { for: id }, optionLabel(spec.name)), input, help);
}

function readOption(spec, form) {
  const el = form.elements[spec.name];
  if (!el) return undefined;
  if (spec.kind === "bool") return el.checked;
  if (el.value === "") return spec.none_ok ? null : spec.default;
  if (spec.kind === "int") return Number(el.value);
  const choice = (spec.choices || []).find((c) => String(c) === el.value);
  return choice === undefined ? el.value : choice;
}

function seatRow(i, bots, isFirst) {
  const kinds = [["person", isFirst ? _("You") : _("Person")], ...bots.map((b) => [`bot:${b}`, botLabel(b)])];
  const fallback = bots.includes("heuristic") ? "bot:heuristic" : `bot:${bots[0]}`;
  return h("div", { class: "seat-choice" },
    h("label", { for: `seat-${i}` }, _("Seat {n}", { n: i + 1 })),
    h("select", { id: `seat-${i}`, name: `seat-${i}` },
      kinds.map(([value, label]) => h("option", { value, selected: value === (isFirst ? "person" : fallback) }, label))));
}

async function lobby() {
  const main = h("main", { class: "lobby" });
  app.append(main);
  let data;
  try {
    data = await loadGames();
  } catch (err) {
    main.append(h("p", { class: "error" }, _("The server cannot be reached: {message}", { message: err.message })));
    return;
  }
  const { games, bots } = data;
  const name = nameInput({
    id: "player-name", name: "player",
    value: localStorage.getItem("cardtable:name") || "", placeholder: _("Your name"),
  });
  const gameSelect = h("select", { id: "game", name: "game" },
    games.map((g) => h("option", { value: g.name, selected: g.name === "sequence" }, gameTitle(g.name))));
  const takeover = h("input", {
    type: "number", id: "takeover", name: "takeover", min: 1, max: 86400, placeholder: _("never"),
  });
  const optionsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats" });
  const playersSelect = h("select", { id: "players", name: "players" });

  function drawSeats() {
    const n = Number(playersSelect.value);
    seatsBox.replaceChildren(...Array.from({ length: n }, (_x, i) => seatRow(i, bots, i === 0)));
  }
  function drawGame() {
    const decl = games.find((g) => g.name === gameSelect.value);
    playersSelect.replaceChildren(...decl.players.map((p) => h("option", { value: p, selected: p === decl.default_players }, String(p))));
    optionsBox.replaceChildren(...decl.options.map((spec) => optionInput(spec)));
    drawSeats();
  }
  gameSelect.addEventListener("change", drawGame);
  playersSelect.addEventListener("change", drawSeats);

  const form = h("form", {
    class: "card-panel", id: "create",
    onsubmit: async (event) => {
      event.preventDefault();
      const decl = games.find((g) => g.name === gameSelect.value);
      const players = Number(playersSelect.value);   // the seats say how many play
      const options = {};
      for (const spec of decl.options) {
        const value = readOption(spec, form);
        if (value !== undefined) options[spec.name] = value;
      }
      const seats = [];
      for (let i = 0; i < players; i++) {
        const value = form.elements[`seat-${i}`].value;
        seats.push(value === "person" ? { kind: "person" } : { kind: "bot", bot: value.slice(4), settings: {} });
      }
      localStorage.setItem("cardtable:name", name.value.trim());
      try {
        const table = await api("POST", "/api/tables", {
          game: decl.name, options, seats, takeover_after: takeover.value ? Number(takeover.value) : null,
        });
        const mine = seats.findIndex((s) => s.kind === "person");
        if (mine >= 0) await takeSeat(table.id, mine, name.value.trim());
        navigate(`/t/${encodeURIComponent(table.id)}`);
      } catch (err) {
        toast(err.message, "error");
      }
    },
  },
  h("h2", {}, _("New table")),
  h("div", { class: "field" }, h("label", { for: "player-name" }, _("Your name")), name),
  h("div", { class: "field" }, h("label", { for: "game" }, _("Game")), gameSelect,
    h("a", { class: "small-link", href: "#", onclick: (e) => { e.preventDefault(); navigate(`/rules/${gameSelect.value}`); } }, _("How to play"))),
  h("div", { class: "field" }, h("label", { for: "players" }, optionLabel("players")), playersSelect),
  h("h3", {}, _("Seats")), seatsBox,
  h("details", {}, h("summary", {}, _("Options")), optionsBox,
    h("div", { class: "field" }, h("label", { for: "takeover" }, _("A bot plays for an absent player after (seconds)")), takeover,
      h("small", { class: "help" }, _("Empty: the table waits for them.")))),
  h("button", { type: "submit", class: "primary", id: "create-table" }, _("Create table")));

  const list = h("div", { class: "table-list", id: "table-list" });
  const mine = h("section", { class: "card-panel my-tables", id: "my-tables", hidden: true },
    h("h2", {}, _("Your tables")), h("div", { class: "table-list" }));
  main.append(mine, form, h("section", { class: "card-panel" }, h("h2", {}, _("Tables")), list));
  drawGame();
  await Promise.all([refreshTables(list), refreshMine(mine)]);
  const timer = setInterval(() => {
    if (!document.body.contains(list)) clearInterval(timer);
    else {
      refreshTables(list);
      refreshMine(mine);
    }
  }, 5000);
}

// ------------------------------------------------------------------ my tables

/** Where a table this browser holds a seat at stands, for its player; a sort key first
 *  (their turn, then waiting for players, then in play, then finished). */
function myStatus(t, seat) {
  const free = (t.seats || []).filter((s) => s.kind === "person" && !s.taken).length;
  if (t.status === "over") {
    const winners = (t.result && t.result.winners) || [];
    if (!winners.length) return [3, _("finished: a draw")];
    if (winners.includes(seat)) return [3, _("finished: you won")];
    const names = winners.map((w) => { const s = t.seats[w] || {}; return s.kind === "bot" ? botLabel(s.bot || s.name) : s.name; });
    return [3, _("finished: won by {names}", { names: names.join(", ") })];
  }
  if (t.status === "adjourned") return [2, _("adjourned: open it to play on")];
  if (free) return [1, free === 1 ? _("waiting for 1 player") : _("waiting for {n} players", { n: free })];
  if (t.to_act === seat) return [0, _("your turn")];
  return [2, _("playing")];
}

async function refreshMine(box) {
  const held = myTables();
  const rows = await Promise.all(held.map(async ({ id, seat }) => {
    try {
      return { t: await api("GET", `/api/tables/${encodeURIComponent(id)}`), seat };
    } catch (err) {
      // gone for good (a waiting table nobody came to closes: docs/server.md)
      if (err.code === "table/not-found" || err.code === "table/closed") localStorage.removeItem(seatKey(id));
      return null;   // else: the server is away; the next refresh tries again
    }
  }));
  const found = rows.filter(Boolean).map(({ t, seat }) => ({ t, seat, status: myStatus(t, seat) }));
  found.sort((x, y) => x.status[0] - y.status[0] || String(y.t.created).localeCompare(String(x.t.created)));
  const key = JSON.stringify(found.map(({ t, seat, status }) => [t.id, seat, status[1]]));
  if (box.dataset.shown === key) return;   // nothing changed: the page is left as drawn
  box.dataset.shown = key;
  box.hidden = !found.length;
  box.querySelector(".table-list").replaceChildren(...found.map(({ t, seat, status }) => h("div", {
    class: `table-row mine-row ${status[0] === 0 ? "my-turn" : ""}`, "data-table": t.id,
  },
  h("div", {}, h("strong", {}, gameTitle(t.game)), " · ", h("span", { class: "my-status" }, status[1]),
    h("div", { class: "muted" }, _("Seat {n}", { n: seat + 1 }))),
  h("div", { class: "row-buttons" },
    h("button", { class: status[0] === 0 ? "primary" : "", onclick: () => navigate(`/t/${encodeURIComponent(t.id)}`) }, _("Open"))))));
}

function statusLabel(status) {
  switch (status) {
    case "waiting": return _("waiting for players");
    case "playing": return _("playing");
    case "over": return _("over");
    default: return status;
  }
}

async function refreshTables(list) {
  let data;
  try {
    data = await api("GET", "/api/tables");
  } catch (err) {
    list.replaceChildren(h("p", { class: "error" }, err.message));
    return;
  }
  const tables = Array.isArray(data) ? data : data.tables || [];
  if (!tables.length) {
    list.replaceChildren(h("p", { class: "muted" }, _("No tables yet: create one.")));
    return;
  }
  list.replaceChildren(...tables.map((t) => {
    const free = (t.seats || []).findIndex((s) => s.kind === "person" && !s.taken);
    const names = (t.seats || []).map((s) => (s.kind === "bot" ? botLabel(s.bot || s.name) : s.taken ? s.name : _("free seat")));
    return h("div", { class: "table-row" },
      h("div", {}, h("strong", {}, gameTitle(t.game)), " · ", statusLabel(t.status),
        h("div", { class: "muted" }, names.join(", "))),
      h("div", { class: "row-buttons" },
        free >= 0 && t.status !== "over"
          ? h("button", { class: "primary", onclick: () => navigate(`/t/${encodeURIComponent(t.id)}?seat=${free}`) }, _("Take a seat"))
          : null,
        h("button", { onclick: () => navigate(`/t/${encodeURIComponent(t.id)}`) }, _("Watch"))));
  }));
}

// ------------------------------------------------------------------ start

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-link]");
  if (link && link.origin === location.origin && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    navigate(link.pathname + link.search);
  }
});
window.addEventListener("popstate", route);

(async () => {
  await setLanguage(preferredLanguage());
  await route();
})();
