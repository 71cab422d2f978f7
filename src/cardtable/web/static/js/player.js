// The player without an account: its key (kept in this browser, like a seat token), its
// page at /p/ID (ratings, statistics, games, and for its own holder the unfinished games,
// moving the key to another browser and revoking it), and /claim#CODE, where another
// browser takes a key with a transfer code (docs/web.md: Players).

import { _ } from "./i18n.js";
import { api, copyText, h, toast } from "./dom.js";
import { botLabel, gameTitle } from "./names.js";

const STORE = "cardtable:player";

/** {id, key} of this browser's player, or null. */
export function storedPlayer() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    return saved && saved.id && saved.key ? saved : null;
  } catch (err) {
    return null;
  }
}

function keep(answer) {
  localStorage.setItem(STORE, JSON.stringify({ id: answer.player.id, key: answer.key }));
}

/** The header that makes a request this player's ({} without a key). */
export function playerHeaders() {
  const saved = storedPlayer();
  return saved ? { "X-Player-Key": saved.key } : {};
}

/** This browser's player, asked for on the first visit; null while the server is away. */
export async function ensurePlayer() {
  const saved = storedPlayer();
  if (saved) return saved;
  const name = (localStorage.getItem("cardtable:name") || "").trim();
  try {
    keep(await api("POST", "/api/players", name ? { name } : {}));
  } catch (err) {
    if (name) {   // a name the server refuses: a player without a name, named later
      try {
        keep(await api("POST", "/api/players", {}));
      } catch (again) {
        return null;
      }
    } else {
      return null;
    }
  }
  return storedPlayer();
}

/** The key holder's own page (its unfinished games too); null when it cannot be had. A
 *  key revoked elsewhere is forgotten: the next visit asks for a new player. */
export async function myPage() {
  const saved = storedPlayer();
  if (!saved) return null;
  try {
    return await api("GET", "/api/players/me", undefined, undefined, playerHeaders());
  } catch (err) {
    if (err.code === "player/bad-key") {   // revoked: this browser starts a new player
      localStorage.removeItem(STORE);
      await ensurePlayer();
    }
    return null;
  }
}

export function outcomeLabel(outcome) {
  switch (outcome) {
    case "won": return _("won");
    case "lost": return _("lost");
    case "draw": return _("draw");
    default: return "";
  }
}

function seatLabel(s) {
  return s.kind === "bot" ? botLabel(s.name) : s.name || _("free seat");
}

function table(headings, rows, id) {
  return h("table", { class: "player-table", id },
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, c))))));
}

/** The page /p/ID. */
export async function renderPlayer(root, playerId, navigate) {
  const main = h("main", { class: "player-page", id: "player-page" });
  root.append(main);
  const saved = storedPlayer();
  if (playerId === "me") {   // /me and /p/me: the page of the key this browser holds
    if (!saved) {
      document.title = _("My games");
      main.append(h("h1", {}, _("My games")),
        h("p", { class: "notice", id: "no-player" }, _("This browser has no player key yet: it gets one when the lobby opens while the server can be reached.")),
        h("p", {}, h("a", { href: "/", "data-link": true, class: "button primary" }, _("Back to the lobby"))),
        h("p", {}, h("a", { href: "/claim", "data-link": true }, _("Play here as the player of another browser"))));
      return;
    }
    playerId = saved.id;
  }
  const mine = saved && saved.id === playerId;
  let page;
  try {
    page = mine ? await api("GET", "/api/players/me", undefined, undefined, playerHeaders())
      : await api("GET", `/api/players/${encodeURIComponent(playerId)}`);
  } catch (err) {
    main.append(h("p", { class: "error" }, err.code === "player/not-found" ? _("There is no such player.") : err.message),
      h("a", { href: "/", "data-link": true }, _("Back to the lobby")));
    return;
  }
  const name = page.player.name || _("A player without a name");
  document.title = name;
  main.append(h("h1", { id: "player-name-title" }, name));
  if (mine) main.append(h("p", { class: "muted" }, _("This is you: this browser holds your player key.")));

  const ratings = page.ratings || [];
  main.append(h("section", { class: "card-panel" }, h("h2", {}, _("Ratings")),
    ratings.length
      ? table([_("Game"), _("Rating"), _("Rated games")],
        ratings.map((r) => [gameTitle(r.game), h("strong", { class: "rating" }, String(r.rating)), String(r.games)]), "ratings")
      : h("p", { class: "muted" }, _("No rated game yet: ratings come from finished games between people, without bots."))));

  const stats = page.stats || [];
  main.append(h("section", { class: "card-panel" }, h("h2", {}, _("Statistics")),
    stats.length
      ? table([_("Game"), _("Played"), _("Won"), _("Lost"), _("Drawn")],
        stats.map((s) => [gameTitle(s.game), String(s.played), String(s.won), String(s.lost), String(s.drawn)]), "stats")
      : h("p", { class: "muted" }, _("No finished game yet."))));

  if (mine) {
    const open = page.unfinished || [];
    main.append(h("section", { class: "card-panel", id: "unfinished" }, h("h2", {}, _("Games in play")),
      open.length ? h("div", { class: "table-list" }, open.map((g) => h("div", { class: "table-row" },
        h("div", {}, h("strong", {}, gameTitle(g.game)), " · ", _("Seat {n}", { n: g.seat + 1 }),
          h("div", { class: "muted" }, g.seats.map(seatLabel).join(", "))),
        h("div", { class: "row-buttons" },
          h("button", { class: "primary", onclick: () => navigate(`/t/${encodeURIComponent(g.table)}`) }, _("Open"))))))
        : h("p", { class: "muted" }, _("No game in play.")),
      h("p", { class: "muted" }, _("Only you see this list."))));
  }

  const games = page.games || [];
  main.append(h("section", { class: "card-panel", id: "finished" }, h("h2", {}, _("Finished games")),
    games.length ? h("div", { class: "table-list" }, games.map((g) => h("div", { class: `table-row outcome-${g.outcome}` },
      h("div", {}, h("strong", {}, gameTitle(g.game)), " · ", h("span", { class: "outcome" }, outcomeLabel(g.outcome)),
        g.rated ? null : h("span", { class: "muted unrated" }, " · ", g.unrated === "takeover"
          ? _("not rated: bots played for the players") : _("not rated")),
        h("div", { class: "muted" }, g.seats.map((s) => (s.player && s.player !== playerId
          ? h("a", { href: `/p/${encodeURIComponent(s.player)}`, "data-link": true }, seatLabel(s)) : seatLabel(s)))
          .flatMap((x, i) => (i ? [", ", x] : [x])),
        " · ", String(g.updated).slice(0, 10))),
      h("div", { class: "row-buttons" },
        h("a", { class: "button", href: g.replay, "data-link": true }, _("Replay the game"))))))
      : h("p", { class: "muted" }, _("No finished game yet."))));

  if (mine) main.append(keyPanel(navigate));
}

/** Moving the key to another browser, and revoking it. */
function keyPanel(navigate) {
  const shown = h("div", { id: "transfer", "aria-live": "polite" });
  const move = h("button", {
    id: "move-key",
    onclick: async () => {
      try {
        const got = await api("POST", "/api/players/me/transfer", {}, undefined, playerHeaders());
        const link = h("input", { type: "text", readonly: true, value: got.link, id: "transfer-link", "aria-label": _("Link") });
        shown.replaceChildren(
          h("p", {}, _("Open this link in the other browser, or type the code there on the page /claim. It works once, for {minutes} minutes, and is shown only now.", { minutes: Math.round(got.expires_in / 60) })),
          h("p", { class: "transfer-code", id: "transfer-code" }, got.code),
          h("div", { class: "join-row" }, link,
            h("button", { onclick: async () => toast(await copyText(got.link) ? _("Link copied") : got.link) }, _("Copy link"))));
      } catch (err) {
        toast(err.message, "error");
      }
    },
  }, _("Move to another browser"));
  const revoke = h("button", {
    id: "revoke-key", class: "danger",
    onclick: async () => {
      if (!window.confirm(_("Every other browser with your key loses it, and links or codes given before stop working. Go on?"))) return;
      try {
        keep(await api("POST", "/api/players/me/revoke", {}, undefined, playerHeaders()));
        shown.replaceChildren();
        toast(_("Your old key no longer works; this browser has the new one."));
      } catch (err) {
        toast(err.message, "error");
      }
    },
  }, _("Revoke the key"));
  void navigate;
  return h("section", { class: "card-panel", id: "key-panel" }, h("h2", {}, _("Your player key")),
    h("p", { class: "muted" }, _("This browser keeps a secret key that makes you this player, without an account. Move it to play as yourself elsewhere; revoke it if someone else may have it.")),
    h("div", { class: "row-buttons" }, move, revoke), shown);
}

/** The page /claim#CODE: this browser becomes the code's player. */
export async function renderClaim(root, navigate) {
  const code = h("input", {
    id: "claim-code", type: "text", autocomplete: "off", spellcheck: "false",
    value: decodeURIComponent(location.hash.slice(1)), placeholder: "ABCDE-FGHJK",
  });
  const form = h("form", {
    class: "card-panel", id: "claim",
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const got = await api("POST", "/api/players/claim", { code: code.value.trim() });
        keep(got);
        history.replaceState({}, "", "/claim");
        navigate(`/p/${encodeURIComponent(got.player.id)}`);
      } catch (err) {
        toast(err.code === "player/bad-code" ? _("That code does not work: it was used, it expired, or it is mistyped.") : err.message, "error");
      }
    },
  },
  h("h1", {}, _("Play as yourself in this browser")),
  h("p", {}, _("Type the code your other browser shows (its player page, Move to another browser).")),
  storedPlayer() ? h("p", { class: "muted" }, _("This browser's own player key is replaced by the one of the code.")) : null,
  h("div", { class: "field" }, h("label", { for: "claim-code" }, _("Code")), code),
  h("button", { type: "submit", class: "primary", id: "claim-button" }, _("Use the code")));
  root.append(h("main", { class: "claim-page" }, form));
  code.focus();
}
