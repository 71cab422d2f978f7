// A finished game, step by step: the page asks the server for every position (the engine
// replays the record; GET /api/tables/ID/replay) and draws each with the game's own module,
// every hand open, the move log beside it.

import { _ } from "./i18n.js";
import { api, h } from "./dom.js";
import { cardSVG, cardText } from "./cards.js";
import { callLabel, gameTitle, seatLabel } from "./names.js";
import { contractText } from "./drawbridge.js";
import { GAMES } from "./table.js";
import { endingText } from "./endings.js";

/** The largest record file the page sends (the server's MAX_RECORD, 2 MiB). */
const MAX_RECORD = 2 * 1024 * 1024;

/** A record file's replay from the server (POST /api/replay), or an Error whose message
 *  says, in the page's language, why the file cannot be replayed. */
export async function replayOfFile(file) {
  if (file.size > MAX_RECORD) throw new Error(_("This file is too large to be a game record."));
  const text = await file.text();
  let response;
  try {
    response = await fetch("/api/replay", { method: "POST", headers: { Accept: "application/json" }, body: text });
  } catch (err) {
    throw new Error(_("The server cannot be reached: {message}", { message: String(err) }));
  }
  const data = await response.json().catch(() => null);
  if (response.ok && data) return { ...data, file: text };   // the file: for its review
  const error = (data && data.error) || {};
  // said for players; the server's own words (for developers) go to the console
  if (error.message) console.info(`record file refused: ${error.message}`);
  throw new Error(recordRefusal(error));
}

/** Why a record file cannot be replayed, in a player's words: the refusal's code and the
 *  server's `reason` for record/bad. */
function recordRefusal(error) {
  if (error.code === "message/too-large") return _("This file is too large to be a game record.");
  if (error.code === "record/too-long") return _("This game is too long to be replayed here.");
  switch (error.reason) {
    case "not-json":
    case "not-record": return _("This file is not a cardtable game record.");
    case "pbn": return _("This is a PBN file, for other bridge programs: pick the game's record instead (its “Download the record” button).");
    case "not-over": return _("This game was not finished: only a finished game can be replayed.");
    default: return _("This file cannot be replayed: it is damaged, or was written by another version of cardtable.");
  }
}

/** A record file's review (POST /api/review), or an Error saying why not. */
async function reviewOfFile(text) {
  const response = await fetch("/api/review", { method: "POST", headers: { Accept: "application/json" }, body: text });
  const data = await response.json().catch(() => null);
  if (response.ok && data) return data;
  throw new Error(((data && data.error) || {}).message || response.statusText);
}

/** A place to drop a record file on, or to pick one with: onData(replay) gets its replay. */
export function recordDrop(onData) {
  const message = h("p", { class: "error", id: "record-error", role: "alert", hidden: true });
  const load = async (file) => {
    if (!file) return;
    message.hidden = true;
    try {
      onData(await replayOfFile(file));
    } catch (err) {
      message.textContent = err.message;
      message.hidden = false;
    }
  };
  const input = h("input", {
    type: "file", id: "record-file", accept: ".json,application/json",
    onchange: (event) => load(event.target.files[0]),
  });
  // the browser's own file button speaks the browser's language, not the page's: it is
  // hidden (still focusable) behind a label that is a button in the page's words
  input.classList.add("file-hidden");
  const zone = h("div", { class: "record-drop", id: "record-drop" },
    h("p", {}, _("Drop a game record file here, or pick one:")), input,
    h("label", { for: "record-file", class: "button", id: "record-pick" }, _("Pick a file")),
    h("small", { class: "help" }, _("A game record is the file a finished table gives with its “Download the record” button; a game played in the terminal saves one too.")),
    message);
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    load(event.dataTransfer && event.dataTransfer.files[0]);
  });
  return zone;
}

/** /replay: the page for a record file; once one is read, its replay. */
export class RecordReplayPage {
  constructor(root, navigate, data = null) {
    this.root = root;
    this.navigate = navigate;
    this.data = data;
    this.inner = null;
  }

  async start() {
    if (this.data) {
      this.inner = new ReplayPage(this.root, null, this.navigate, this.data);
      await this.inner.start();
      return;
    }
    document.title = _("Replay a game record");
    this.main = h("main", { class: "replay-page", id: "replay-drop" },
      h("h1", {}, _("Replay a game record")),
      h("section", { class: "card-panel" }, recordDrop((data) => {
        this.main.remove();
        this.data = data;
        this.start();
      })));
    this.root.append(this.main);
  }

  close() {
    if (this.inner) this.inner.close();
  }
}

export class ReplayPage {
  constructor(root, tableId, navigate, given = null) {
    this.root = root;
    this.id = tableId;
    this.given = given;   // a record file's replay (POST /api/replay), with its table
    this.navigate = navigate;
    // what a game module reads of a page: a spectator with nothing to play
    this.seat = null;
    this.ui = {};
    this.hint = null;
    this.replay = true;
    this.legal = [];
    this.myTurn = false;
    this.events = [];
    this.index = 0;
    this.keys = (event) => this.onKey(event);
  }

  async start() {
    this.main = h("main", { class: "replay-page", id: "replay" });
    this.root.append(this.main);
    const table = `/api/tables/${encodeURIComponent(this.id)}`;
    try {
      if (this.given) {
        [this.table, this.data] = [this.given.table, this.given];
      } else {
        [this.table, this.data] = await Promise.all([api("GET", table), api("GET", `${table}/replay`)]);
      }
    } catch (err) {
      const text = err.code === "table/not-found" ? _("There is no such table.")
        : err.code === "table/not-over" ? _("The replay opens when the game is over.") : err.message;
      this.main.append(h("p", { class: "error", id: "replay-error" }, text),
        h("a", { href: `/t/${encodeURIComponent(this.id)}`, "data-link": true }, _("Back to the table")));
      return;
    }
    this.game = GAMES[this.table.game];
    this.positions = this.data.positions;
    // the positions where a new deal or round begins, to jump by
    this.starts = this.positions.filter((p) => p.event && (p.event.public.new_deal || p.event.public.new_round))
      .map((p) => p.number);
    document.title = _("Replay: {game}", { game: gameTitle(this.table.game) });
    this.build();
    const at = Number(new URLSearchParams(location.search).get("at"));
    this.show(Number.isInteger(at) && at > 0 ? Math.min(at, this.positions.length - 1) : 0);
    document.addEventListener("keydown", this.keys);
    window.cardtable = { replay: this };   // for the browser tests
    // a table's review, or a record file's (POST /api/review with the same file): against
    // perfect play where the game has one (game_info.review), else move by move by a
    // trained network where the server has one for the game and its options
    this.loadReview(this.given ? () => reviewOfFile(this.given.file) : () => api("GET", `${table}/review`));
  }

  /** The review beside the log: every deal against perfect play (the server's solver), or
   *  every move against a trained network's best; nothing where the game has neither. */
  async loadReview(fetchReview) {
    const exact = Boolean(this.table.game_info?.review);
    this.reviewBox = h("section", { class: "card-panel replay-review", id: "review" },
      h("h2", {}, exact ? _("Review against perfect play") : _("Review")),
      h("p", { class: "muted" }, exact ? _("Working out par…") : _("Reviewing the moves…")));
    this.main.querySelector(".replay-side").append(this.reviewBox);
    let got;
    // a busy server (server/unavailable) keeps working the review out: asked again a few
    // seconds later, it is there
    for (let tries = 1; ; tries += 1) {
      try {
        got = await fetchReview();
        break;
      } catch (err) {
        if (err.code !== "server/unavailable" || tries >= 12) {
          this.reviewBox.replaceChildren(h("p", { class: "error" }, err.message));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    }
    if (!got.deals.length) {
      if (got.moves) this.showMoveReview(got);
      else this.reviewBox.remove();   // a game with no review
      return;
    }
    // calls, cards and contracts written as the table writes them (1♦, 8♦, 1♣ X by Dara)
    const told = (m, move) => (m.phase === "auction" ? callLabel(move) : cardText(move));
    this.reviewBox.replaceChildren(h("h2", {}, _("Review against perfect play")),
      ...got.deals.map((deal) => h("div", { class: "review-deal", "data-deal": deal.deal_number },
        h("h3", {}, _("Deal {n}", { n: deal.deal_number })),
        h("p", {}, _("Par: {par}; reached: {contract}", {
          par: contractText(deal.par.contract, this),
          contract: deal.contract ? contractText(deal.contract, this, deal.declarer) : _("passed out") })),
        h("ul", {}, ...[0, 1].map((s) => h("li", { "data-seat": s }, _("{name}: tricks lost {tricks}, match chance lost {pct}%", {
          name: this.seatName(s), tricks: deal.tricks_lost[s], pct: Math.round(100 * deal.chance_lost[s]) })))),
        deal.mistakes.length ? h("ol", { class: "mistakes" }, ...deal.mistakes.map((m) => h("li", {},
          _("{name}, {phase} {n}: {played}, better {best}", {
            name: this.seatName(m.seat), phase: m.phase === "auction" ? _("call") : _("trick"),
            n: m.number, played: told(m, m.played), best: told(m, m.best) })))) : null)));
  }

  /** A review move by move (``cardtable.review``): each player's accuracy and counts, then
   *  the mistakes and blunders, each a link to its position. */
  showMoveReview(got) {
    const verdicts = { inaccuracy: _("an inaccuracy"), mistake: _("a mistake"), blunder: _("a blunder") };
    const text = (move, number) => this.game.moveText(move, this, (this.positions[number - 1] || {}).view);
    const costly = got.moves.filter((m) => m.verdict === "mistake" || m.verdict === "blunder");
    this.reviewBox.replaceChildren(h("h2", {}, _("Review by the trained network")),
      h("p", { class: "muted" }, _("Each move against the move the trained network values most; losses in points.")),
      h("ul", { class: "review-players" }, ...got.players.map((p) => h("li", { "data-seat": p.seat },
        p.accuracy === null ? _("{name}: no move", { name: this.seatName(p.seat) })
          : _("{name}: accuracy {pct}%; inaccuracies {i}, mistakes {m}, blunders {b}", {
            name: this.seatName(p.seat), pct: p.accuracy, i: p.inaccuracies, m: p.mistakes, b: p.blunders })))),
      costly.length ? h("ol", { class: "mistakes" }, ...costly.map((m) => h("li", { "data-number": m.number, "data-verdict": m.verdict },
        h("button", { class: "link", type: "button", onclick: () => this.show(m.number - 1) },
          _("{name}, move {n}: {played}, better {best}: {loss} points lost, {verdict}", {
            name: this.seatName(m.seat), n: m.number, played: text(m.played, m.number),
            best: text(m.best, m.number), loss: Math.round(m.loss * 10) / 10, verdict: verdicts[m.verdict] }))))) : h("p", {}, _("No mistake and no blunder.")));
  }

  close() {
    document.removeEventListener("keydown", this.keys);
  }

  seatName(seat) {
    if (seat === null || seat === undefined) return "";
    return seatLabel(this.table.seats || [], seat, this.table.game);
  }

  isFresh() {
    return false;
  }

  build() {
    const button = (id, label, title, go) => h("button", { id, type: "button", title, "aria-label": title, onclick: go }, label);
    this.counter = h("span", { class: "replay-counter", id: "replay-counter", "aria-live": "polite" });
    this.seatsBar = h("div", { class: "seats-bar", id: "seats" });
    this.lastMove = h("div", { class: "last-move", id: "last-move" });
    this.area = h("section", { class: `game-area game-${this.table.game}`, id: "game" });
    this.hands = h("div", { class: "replay-hands card-panel", id: "hands" });
    this.log = h("ol", { class: "log replay-log", id: "log" });
    const jumps = this.starts.length ? [
      button("replay-prev-deal", "◀◀", _("Previous deal or round"), () => this.show(this.startBefore())),
      button("replay-next-deal", "▶▶", _("Next deal or round"), () => this.show(this.startAfter())),
    ] : [];
    this.main.append(
      h("div", { class: "table-head" }, h("h1", {}, _("Replay: {game}", { game: gameTitle(this.table.game) })),
        this.given
          ? h("a", { class: "button small", href: "/replay", id: "replay-other", onclick: (e) => { e.preventDefault(); this.navigate("/replay"); } }, _("Another file"))
          : h("a", { class: "button small", href: `/t/${encodeURIComponent(this.id)}`, "data-link": true }, _("Back to the table"))),
      h("div", { class: "replay-controls row-buttons", role: "toolbar", "aria-label": _("Step through the game") },
        button("replay-start", "|◀", _("The start"), () => this.show(0)),
        jumps[0],
        button("replay-back", "◀", _("One move back (←)"), () => this.show(this.index - 1)),
        this.counter,
        button("replay-forward", "▶", _("One move on (→)"), () => this.show(this.index + 1)),
        jumps[1],
        button("replay-end", "▶|", _("The end"), () => this.show(this.positions.length - 1))),
      h("div", { class: "replay-body" },
        h("div", { class: "replay-table" }, this.seatsBar, this.lastMove, this.hands, this.area),
        h("div", { class: "card-panel replay-side" }, h("h2", {}, _("Move log")), this.log)));
    this.log.replaceChildren(...this.positions.slice(1).map((p) => h("li", { "data-number": p.number },
      h("button", { class: "link", type: "button", onclick: () => this.show(p.number) },
        h("span", { class: "muted" }, `#${p.number} `), this.seatName(p.event.seat), ": ",
        this.game.describe({ ...p.event, version: p.number }, this)))));
  }

  startBefore() {
    const earlier = this.starts.filter((n) => n < this.index);
    return earlier.length ? earlier[earlier.length - 1] : 0;
  }

  startAfter() {
    return this.starts.find((n) => n > this.index) ?? this.positions.length - 1;
  }

  show(index) {
    this.index = Math.max(0, Math.min(index, this.positions.length - 1));
    const position = this.positions[this.index];
    this.view = position.view;
    this.events = this.positions.slice(1, this.index + 1).map((p) => ({ ...p.event, version: p.number }));
    this.render();
  }

  render() {
    const position = this.positions[this.index];
    const last = position.event;
    this.counter.textContent = _("Move {n} of {total}", { n: this.index, total: this.positions.length - 1 });
    this.main.querySelector("#replay-back").disabled = this.index === 0;
    this.main.querySelector("#replay-forward").disabled = this.index === this.positions.length - 1;
    this.seatsBar.replaceChildren(...(this.table.seats || []).map((_info, i) => h("div", {
      class: `seat ${this.view.current_player === i && !this.view.is_terminal ? "to-act" : ""}`, "data-seat": i,
    }, this.game.seatBadge ? this.game.seatBadge(this, i) : null,
    h("span", { class: "seat-name" }, this.seatName(i)),
    h("span", { class: "seat-info" }, this.game.seatInfo(this, i)))));
    this.lastMove.replaceChildren(last
      ? h("span", {}, h("strong", {}, _("Last move:")), " ", this.seatName(last.seat), " — ", this.game.describe({ ...last, version: this.index }, this))
      : h("span", { class: "muted" }, _("No move yet.")));
    // a game the table ended: at its last position, who resigned or aborted it
    const ending = this.index === this.positions.length - 1 ? endingText(this.data.result, (s) => this.seatName(s)) : null;
    if (ending) this.lastMove.append(" · ", h("strong", { class: "ending", id: "replay-ending" }, ending));
    // every hand open: the game is over
    this.hands.replaceChildren(h("h3", {}, _("The hands")), ...position.hands.map((hand, s) => (hand ? h("div", { class: "replay-hand", "data-seat": s },
      h("strong", {}, this.seatName(s)), " ",
      ...hand.map((card) => h("span", { class: "small-card", "data-card": card, html: cardSVG(card) }))) : null)));
    this.area.replaceChildren();
    this.game.render(this, this.area);
    for (const li of this.log.children) {
      const here = Number(li.dataset.number) === this.index;
      li.classList.toggle("current", here);
      if (here) li.scrollIntoView({ block: "nearest" });
    }
  }

  onKey(event) {
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const to = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.positions.length - 1 }[event.key];
    if (to === undefined) return;
    this.show(to);
    event.preventDefault();
  }
}
