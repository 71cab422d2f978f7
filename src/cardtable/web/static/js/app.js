// The page: lobby at /, a table at /t/ID, the rules at /rules/GAME.

import { _, LANGUAGES, lang, preferredLanguage, setLanguage } from "./i18n.js";
import { settingsPanel } from "./alert.js";
import { api, h, nameInput, toast } from "./dom.js";
import { botLabel, choiceLabel, gameTitle, optionLabel, personName, setLevels } from "./names.js";
import { renderRules } from "./rules.js";
import { clockFields } from "./clock.js";
import { RecordReplayPage, ReplayPage, recordDrop } from "./replay.js";
import { TablePage, myTables, seatKey, takeSeat } from "./table.js";
import { ensurePlayer, myPage, renderClaim, renderPlayer, storedPlayer } from "./player.js";
import { botWaitField, findButton } from "./pairing.js";
import { applyLook } from "./prefs.js";

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
      storedPlayer() ? h("a", { href: `/p/${encodeURIComponent(storedPlayer().id)}`, "data-link": true, id: "my-page" }, _("My games")) : null,
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
  const player = path.match(/^\/p\/([^/]+)\/?$/) || path.match(/^\/(me)\/?$/);
  const fileReplay = /^\/replay\/?$/.test(path);
  if (table) {
    page = new TablePage(app, decodeURIComponent(table[1]), navigate);
    await page.start();
  } else if (replay) {
    page = new ReplayPage(app, decodeURIComponent(replay[1]), navigate);
    await page.start();
  } else if (player) {
    await renderPlayer(app, decodeURIComponent(player[1]), navigate);
  } else if (path === "/claim") {
    await renderClaim(app, navigate);
  } else if (fileReplay) {
    page = new RecordReplayPage(app, navigate, droppedReplay);
    droppedReplay = null;
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
// a record file read in the lobby, shown by the /replay page it opens
let droppedReplay = null;

async function loadGames() {
  if (!gamesCache) {
    const data = await api("GET", "/api/games");
    const games = Array.isArray(data) ? data : data.games;
    const bots = (!Array.isArray(data) && (data.bots || data.bot_kinds)) || BOT_KINDS;
    let levels = {};
    try {
      levels = (await api("GET", "/api/levels")).levels || {};
    } catch (err) {
      levels = {};   // an older server: the seats offer the bot kinds alone
    }
    setLevels(levels);
    gamesCache = { games, bots: bots.map((b) => (typeof b === "string" ? b : b.name)), levels };
  }
  return gamesCache;
}

/** The house rules a game's tables start with on this page (GET /api/games' house_rules:
 *  Draw Bridge's undertricks), each said in the lobby. */
function houseRules(game) {
  return { ...(game.house_rules || {}) };
}

/** The lobby's words for a game's house rules: each rule's option help, after "House rule:". */
function houseRuleLines(game) {
  return Object.keys(houseRules(game)).map((name) => {
    const spec = game.options.find((o) => o.name === name);
    return h("p", { class: "house-rule", "data-option": name },
      _("House rule: {rule}", { rule: spec && spec.help ? _(spec.help) : optionLabel(name) }));
  });
}

function optionInput(spec, house = {}) {
  const id = `opt-${spec.name}`;
  const help = spec.help ? h("small", { class: "help" }, _(spec.help)) : null;
  const start = spec.name in house ? house[spec.name] : spec.default;
  let input;
  if (spec.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: spec.name, checked: !!start });
    return h("div", { class: "field check" }, input, h("label", { for: id }, optionLabel(spec.name)), help);
  }
  if (spec.kind === "choice") {
    const choices = [...(spec.choices || [])];
    if (spec.none_ok && !choices.includes(null)) choices.unshift(null);
    input = h("select", { id, name: spec.name },
      choices.map((c) => h("option", { value: c === null ? "" : String(c), selected: c === start },
        choiceLabel(c))));
  } else {
    input = h("input", {
      type: "number", id, name: spec.name, min: spec.minimum ?? null, max: spec.maximum ?? null,
      value: start ?? "", placeholder: spec.none_ok ? _("automatic") : null,
    });
  }
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

/** A level's name and strength in the page's language ("Medium: builds and blocks lines…"). */
export function levelText(level) {
  return `${_(level.label)} — ${_(level.strength)}`;
}

/** The level a game's "play now" starts with: the middle one (medium), or the only one. */
function defaultLevel(levels) {
  return levels.find((l) => l.name === "medium") || levels[Math.floor((levels.length - 1) / 2)];
}

function seatRow(i, bots, isFirst, levels = [], game = null) {
  // the game's levels, weakest first (GET /api/levels), then the bots no level names
  const leveled = levels.map((l) => [`bot:${l.bot}`, _(l.label)]);
  const others = bots.filter((b) => !levels.some((l) => l.bot === b)).map((b) => [`bot:${b}`, botLabel(b, game)]);
  const kinds = [["person", isFirst ? _("You") : _("Person")], ...leveled, ...others];
  const middle = levels.length ? defaultLevel(levels) : null;
  const fallback = middle ? `bot:${middle.bot}` : bots.includes("heuristic") ? "bot:heuristic" : `bot:${bots[0]}`;
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
  const { games, bots, levels } = data;
  const name = nameInput({
    id: "player-name", name: "player",
    value: localStorage.getItem("cardtable:name") || "", placeholder: _("Your name"),
  });
  const gameSelect = h("select", { id: "game", name: "game" },
    games.map((g) => h("option", { value: g.name, selected: g.name === "sequence" }, gameTitle(g.name))));
  const takeover = h("input", {
    type: "number", id: "takeover", name: "takeover", min: 1, max: 86400, placeholder: _("never"),
  });
  const clock = clockFields();
  const optionsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats" });
  const playersSelect = h("select", { id: "players", name: "players" });

  function drawSeats() {
    const n = Number(playersSelect.value);
    const gameLevels = levels[gameSelect.value] || [];
    seatsBox.replaceChildren(...Array.from({ length: n }, (_x, i) => seatRow(i, bots, i === 0, gameLevels, gameSelect.value)));
  }
  function drawGame() {
    const decl = games.find((g) => g.name === gameSelect.value);
    playersSelect.replaceChildren(...decl.players.map((p) => h("option", { value: p, selected: p === decl.default_players }, String(p))));
    optionsBox.replaceChildren(...decl.options.map((spec) => optionInput(spec, houseRules(decl))));
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
        const level = (levels[decl.name] || []).find((l) => l.bot === value.slice(4));
        seats.push(value === "person" ? { kind: "person" }
          : { kind: "bot", bot: value.slice(4), settings: level ? { ...level.settings } : {} });
      }
      localStorage.setItem("cardtable:name", name.value.trim());
      try {
        const table = await api("POST", "/api/tables", {
          game: decl.name, options, seats, takeover_after: takeover.value ? Number(takeover.value) : null,
          clock: clock.read(),
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
      h("small", { class: "help" }, _("Empty: the table waits for them."))), clock.box),
  h("button", { type: "submit", class: "primary", id: "create-table" }, _("Create table")));

  const list = h("div", { class: "table-list", id: "table-list" });
  const mine = h("section", { class: "card-panel my-tables", id: "my-tables", hidden: true },
    h("h2", {}, _("Your tables")), h("div", { class: "table-list" }));
  const pick = gamePicker(games, levels, name, (game) => {
    gameSelect.value = game;
    drawGame();
    form.scrollIntoView({ block: "start" });
    gameSelect.focus();
  });
  const replayBox = h("section", { class: "card-panel replay-file", id: "replay-file" },
    h("h2", {}, _("Replay a game record")), recordDrop((got) => {
      droppedReplay = got;
      navigate("/replay");
    }));
  main.append(mine, pick, form, h("section", { class: "card-panel" }, h("h2", {}, _("Tables")), list), replayBox);
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

// ------------------------------------------------------------------ the games, play now

/** Each game as a site shows it: its table's picture, a line on how it plays, its bot
 *  levels with how strong each is, "play now against a bot" in one click, and "more
 *  options" (the full form below). */
function gamePicker(games, levels, nameBox, moreOptions) {
  // the name a "Play now" player is known by, beside the buttons (the same name as the
  // New table form's box: typing in one writes the other)
  const playName = nameInput({
    id: "play-name", name: "play-name", value: nameBox.value, placeholder: _("Your name"),
  });
  playName.addEventListener("input", () => { nameBox.value = playName.value; });
  nameBox.addEventListener("input", () => { playName.value = nameBox.value; });
  const cards = games.map((g) => {
    const gameLevels = levels[g.name] || [];
    const levelSelect = gameLevels.length ? h("select", { id: `level-${g.name}`, "aria-label": _("Bot level") },
      gameLevels.map((l) => h("option", { value: l.name, selected: l === defaultLevel(gameLevels) }, _(l.label)))) : null;
    const strength = h("p", { class: "level-strength", id: `strength-${g.name}` });
    const showStrength = () => {
      const level = gameLevels.find((l) => l.name === (levelSelect && levelSelect.value));
      strength.textContent = level ? _(level.strength) : "";
    };
    if (levelSelect) levelSelect.addEventListener("change", showStrength);
    showStrength();
    const play = async (button) => {
      button.disabled = true;
      const level = gameLevels.find((l) => l.name === (levelSelect && levelSelect.value));
      const players = g.default_players || g.players[0];
      const bot = level ? { kind: "bot", bot: level.bot, settings: { ...level.settings } }
        : { kind: "bot", bot: "heuristic", settings: {} };
      const seats = [{ kind: "person" }, ...Array.from({ length: players - 1 }, () => ({ ...bot }))];
      const who = playName.value.trim();
      localStorage.setItem("cardtable:name", who);
      try {
        const table = await api("POST", "/api/tables", { game: g.name, options: houseRules(g), seats, takeover_after: null });
        await takeSeat(table.id, 0, who);
        navigate(`/t/${encodeURIComponent(table.id)}`);
      } catch (err) {
        button.disabled = false;
        toast(err.message, "error");
      }
    };
    return h("article", { class: "game-card", "data-game": g.name },
      h("img", { src: `/static/img/${g.name}.svg`, alt: _("A table of {game}", { game: gameTitle(g.name) }), width: 164, height: 88 }),
      h("div", { class: "game-card-body" },
        h("h3", {}, gameTitle(g.name)),
        h("p", { class: "game-line" }, g.blurb ? _(g.blurb) : ""),
        ...houseRuleLines(g),
        levelSelect ? h("label", { class: "level-choice" }, _("Bot level"), " ", levelSelect) : null,
        strength,
        h("div", { class: "row-buttons" },
          h("button", { class: "primary play-now", id: `play-now-${g.name}`, onclick: (e) => play(e.currentTarget) },
            _("Play now against a bot")),
          findButton(g.name, nameBox, navigate, houseRules(g)),
          h("button", { class: "more-options", onclick: () => moreOptions(g.name) }, _("More options")),
          h("a", { href: `/rules/${g.name}`, "data-link": true, class: "small-link" }, _("How to play")))));
  });
  return h("section", { class: "card-panel game-picker", id: "games" },
    h("h2", {}, _("Play")),
    h("div", { class: "field play-name" }, h("label", { for: "play-name" }, _("Your name")), playName,
      h("small", { class: "help" }, _("Other players see this name; empty, you are “{name}”.", { name: _("Player {n}", { n: 1 }) }))),
    botWaitField(), h("div", { class: "game-cards" }, ...cards));
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
    const names = winners.map((w) => { const s = t.seats[w] || {}; return s.kind === "bot" ? botLabel(s.bot || s.name, t.game) : s.name; });
    return [3, _("finished: won by {names}", { names: names.join(", ") })];
  }
  if (t.status === "adjourned") return [2, _("adjourned: open it to play on")];
  if (free) return [1, free === 1 ? _("waiting for 1 player") : _("waiting for {n} players", { n: free })];
  if (t.to_act === seat) return [0, _("your turn")];
  return [2, _("playing")];
}

/** The browser's tables: those of its player key (GET /api/players/me: the unfinished
 *  ones and the last finished), then those it holds by a seat token alone. */
async function refreshMine(box) {
  const page = await myPage();
  const fromKey = [];
  if (page) {
    for (const g of page.unfinished || []) if (g.summary) fromKey.push({ t: g.summary, seat: g.seat });
    for (const g of (page.games || []).slice(0, 3)) {
      fromKey.push({ t: { id: g.table, game: g.game, status: "over", result: g.result, seats: g.seats, created: g.created }, seat: g.seat });
    }
  }
  const known = new Set(fromKey.map(({ t }) => t.id));
  const held = myTables().filter(({ id }) => !known.has(id));
  const rows = await Promise.all(held.map(async ({ id, seat }) => {
    try {
      return { t: await api("GET", `/api/tables/${encodeURIComponent(id)}`), seat };
    } catch (err) {
      // gone for good (a waiting table nobody came to closes: docs/server.md)
      if (err.code === "table/not-found" || err.code === "table/closed") localStorage.removeItem(seatKey(id));
      return null;   // else: the server is away; the next refresh tries again
    }
  }));
  const found = [...fromKey, ...rows.filter(Boolean)].map(({ t, seat }) => ({ t, seat, status: myStatus(t, seat) }));
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
    const names = (t.seats || []).map((s) => (s.kind === "bot" ? botLabel(s.bot || s.name, t.game)
      : s.taken ? (s.rating ? `${personName(s.name, s.seat)} (${s.rating})` : personName(s.name, s.seat)) : _("free seat")));
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

/** The bots' levels, for the seats' names on every page (an older server: none). */
async function loadLevels() {
  try {
    setLevels((await api("GET", "/api/levels")).levels);
  } catch (err) {
    setLevels({});
  }
}

(async () => {
  applyLook();   // the deck's colours and the sizes the player chose (Settings)
  await Promise.all([setLanguage(preferredLanguage()), loadLevels()]);
  await ensurePlayer();   // the first visit: a player key for this browser
  await route();
})();
