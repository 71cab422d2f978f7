// A table page: joins a seat or watches, talks to the server over a WebSocket,
// reconnects by itself, and draws the game with the game's own module.

import { _ } from "./i18n.js";
import { markTab, turnAlert } from "./alert.js";
import { Motion } from "./motion.js";
import { api, copyText, h, nameInput, toast } from "./dom.js";
import { inviteNotice } from "./invite.js";
import { gameTitle, seatLabel } from "./names.js";
import { myPage, playerHeaders, storedPlayer } from "./player.js";
import { ChatBox } from "./chat.js";
import { endingControls, endingText, onUndo } from "./endings.js";
import * as clocks from "./clock.js";
import * as sequence from "./sequence.js";
import * as drawbridge from "./drawbridge.js";
import * as threethirteen from "./threethirteen.js";
import { showWatching } from "./watchers.js";
import { afterGameRender, cardSound, confirmMove, holdTrick } from "./prefs.js";

export const GAMES = { sequence, drawbridge, threethirteen };
const PING_EVERY = 20000;
const RETRY_FIRST = 250;   // ms before the first reconnection
const RETRY_MAX = 1500;    // ms between two reconnections at most
const HELD_MOST = 4;       // move events held behind an animation at most (more: drawn at once)
const HELD_MS = 1500;      // ms a move event waits for the animation before it at most

export function seatKey(tableId) {
  return `cardtable:seat:${tableId}`;
}

export function savedSeat(tableId) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(tableId)) || "null");
  } catch (err) {
    return null;
  }
}

/** The tables this browser holds a seat at: [{id, seat}] from the saved tokens. */
export function myTables() {
  const out = [];
  const prefix = seatKey("");
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(prefix)) continue;
    const saved = savedSeat(key.slice(prefix.length));
    if (saved && Number.isInteger(saved.seat)) out.push({ id: key.slice(prefix.length), seat: saved.seat });
  }
  return out;
}

export async function takeSeat(tableId, seat, name) {
  // with the player key: the seat is this browser's player's too (docs/web.md: Players)
  const got = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`,
    { name: name || _("Player {n}", { n: seat + 1 }) }, undefined, playerHeaders());
  localStorage.setItem(seatKey(tableId), JSON.stringify({ seat: got.seat, token: got.token }));
  return got;
}

// The words of a typed move ("discard 5C") in the page's language: a Khmer reader reads
// and types "បោះចោល 5C"; the server gets the notation. English words work in any language.
const VERBS = ["draw", "take", "discard", "pass", "double", "redouble", "dead"];
function moveWords() {
  // one message for the seven words, in this order ("draw" alone is a drawn game)
  const local = _("draw take discard pass double redouble dead").trim().split(/\s+/);
  return local.length === VERBS.length ? local : VERBS;
}

/** A move's notation with its first word in the page's language. */
export function localMove(move) {
  const [verb, ...rest] = move.split(" ");
  const i = VERBS.indexOf(verb);
  return i < 0 ? move : [moveWords()[i], ...rest].join(" ");
}

/** What a player typed, as notation: a word of the page's language becomes the verb. */
export function notationOf(text) {
  const [verb, ...rest] = text.trim().split(/\s+/);
  const i = moveWords().indexOf(verb);
  return i < 0 ? text.trim() : [VERBS[i], ...rest].join(" ");
}

export function inviteLink(tableId, seat) {
  return `${location.origin}/t/${encodeURIComponent(tableId)}?seat=${seat}`;
}

function errorText(code, message) {
  switch (code) {
    case "move/illegal": return _("That move is not allowed: {message}", { message });
    case "move/bad": return _("That is not a move of this game: {message}", { message });
    case "move/not-your-turn": return _("It is not your turn.");
    case "move/stale": return _("The table moved on; try again.");
    case "move/game-over": return _("The game is over.");
    case "move/timed-out": return _("Your time ran out; the bot plays this move.");
    case "seat/taken": return _("That seat is taken.");
    case "auth/bad-token": return _("Your seat was not recognised; you are watching.");
    case "limit/rate": return _("Too many requests; wait a moment.");
    case "chat/off": return _("The chat is off at this table.");
    case "chat/too-long": return _("That chat line is too long.");
    case "chat/rate": return _("Too many chat lines; wait a moment.");
    case "chat/bad": return _("That chat line was not sent: {message}", { message });
    default: return message || code;
  }
}

export class TablePage {
  constructor(root, tableId, navigate) {
    this.root = root;
    this.id = tableId;
    this.navigate = navigate;
    this.game = null;
    this.table = null;
    this.view = null;
    this.version = -1;
    this.seat = null;
    this.token = null;
    this.events = [];
    // moves up to this version came as a snapshot (the welcome's "skipped"): not listed
    this.unlisted = 0;
    this.connected = [];
    this.ui = {};           // per-game interface state (selection, order), kept across renders
    this.hint = null;
    this.over = null;
    this.socket = null;
    this.closed = false;
    this.retry = 0;
    this.keys = (event) => this.onKey(event);
    this.motion = new Motion();
    // move events (and the end) that came while a move was still being shown: drawn one
    // after another, each once the one before has played (docs/web.md: Moves you can see)
    this.held = [];
    this.motion.onIdle = () => this.releaseHeld();
    this.fresh = [];
  }

  // ------------------------------------------------------------ start and seats

  async start() {
    this.main = h("main", { class: "table-page" });
    this.root.append(this.main);
    try {
      this.table = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`);
    } catch (err) {
      this.main.append(h("p", { class: "error" }, err.code === "table/not-found"
        ? _("There is no such table.") : err.message),
      h("a", { href: "/", "data-link": true }, _("Back to the lobby")));
      return;
    }
    this.game = GAMES[this.table.game];
    document.title = gameTitle(this.table.game);
    const saved = savedSeat(this.id);
    if (saved) {
      this.seat = saved.seat;
      this.token = saved.token;
    } else if (storedPlayer()) {
      // no seat token here (a key moved from another browser): the player key opens the seat
      const page = await myPage();
      const held = page && (page.unfinished || []).find((g) => g.table === this.id);
      if (held) {
        this.seat = held.seat;
        this.viaKey = true;
      }
    }
    const wanted = new URLSearchParams(location.search).get("seat");
    this.build();
    if (!this.token && !this.viaKey && wanted !== null) {
      const notice = inviteNotice(this.table, wanted);
      if (notice) this.joinBox.replaceChildren(h("p", { class: "notice", id: "invite-notice", role: "status" }, notice));
      else this.showJoin(Number(wanted));
    }
    document.addEventListener("keydown", this.keys);
    this.wake = () => {
      if (!this.socket || this.socket.readyState > WebSocket.OPEN) this.reconnect(false);
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    window.cardtable = { table: this };   // for the browser tests and the curious
    this.connect();
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearInterval(this.pinger);
    clearInterval(this.clockTimer);
    clearTimeout(this.reconnectTimer);
    if (this.socket) this.socket.close();
  }

  showJoin(seat) {
    const name = nameInput({
      id: "join-name", value: localStorage.getItem("cardtable:name") || "", placeholder: _("Your name"),
    });
    const box = h("form", {
      class: "join card-panel", id: "join",
      onsubmit: async (event) => {
        event.preventDefault();
        localStorage.setItem("cardtable:name", name.value.trim());
        try {
          const got = await takeSeat(this.id, seat, name.value.trim());
          this.seat = got.seat;
          this.token = got.token;
          box.remove();
          this.reconnect(true);
        } catch (err) {
          toast(errorText(err.code, err.message), "error");
        }
      },
    },
    h("label", { for: "join-name" }, _("Take seat {n} at this table: your name", { n: seat + 1 })),
    h("div", { class: "join-row" }, name, h("button", { type: "submit", class: "primary", id: "join-button" }, _("Sit down"))));
    this.joinBox.replaceChildren(box);
    name.focus();
  }

  // ------------------------------------------------------------ the connection

  connect() {
    if (this.closed) return;
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    else if (this.viaKey && storedPlayer()) params.set("player", storedPlayer().key);
    else if (storedPlayer()) {
      // a spectator with a player key watches under its player's name (Who is watching)
      params.set("player", storedPlayer().key);
      params.set("watch", "1");
    }
    // a first load asks for every move (the move log); past the server's catch-up limit
    // its welcome is a snapshot instead ("skipped"), so a table of any length opens
    params.set("since", String(Math.max(this.version, 0)));
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.id)}?${params}`);
    this.socket = socket;
    this.setConnection("connecting");
    socket.onopen = () => {
      this.retry = 0;
      this.heard = Date.now();
      this.setConnection("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        // a connection that went quiet (a network gone without a close): start afresh
        if (Date.now() - this.heard > 2.5 * PING_EVERY) this.reconnect(false);
        else this.send({ type: "ping" });
      }, PING_EVERY);
    };
    socket.onmessage = (message) => {
      this.heard = Date.now();
      let data;
      try {
        data = JSON.parse(message.data);
      } catch (err) {
        return;
      }
      this.onMessage(data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      clearInterval(this.pinger);
      this.setConnection("closed");
      if (!this.closed) {
        // back-off that starts small and stays short: 250 ms, then 1.6 times longer, at
        // most 1.5 s (a little less at random, so that a crowd does not come back at once):
        // a restarted server sees its pages again within 2 s of answering
        const wait = Math.min(RETRY_MAX, RETRY_FIRST * 1.6 ** this.retry++) * (0.8 + 0.2 * Math.random());
        this.reconnectTimer = setTimeout(() => this.connect(), wait);
      }
    };
  }

  reconnect(fresh = false) {
    if (fresh) {
      this.version = -1;
      this.events = [];
      this.unlisted = 0;
    }
    const old = this.socket;
    this.socket = null;
    clearInterval(this.pinger);
    if (old) old.close();
    clearTimeout(this.reconnectTimer);
    this.connect();
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  setConnection(state) {
    this.connection = state;
    // offline, the clocks stand still where they were: the server's next welcome says
    // where they are (it gives back the time it was down)
    if (state !== "open" && this.clock) this.clock = clocks.frozen(this.clock);
    if (this.connBadge) {
      this.connBadge.className = `conn ${state}`;
      this.connBadge.textContent = state === "open" ? _("connected")
        : state === "connecting" ? _("connecting…") : _("reconnecting…");
    }
    if (this.view && this.turnBanner) this.render();   // the banner and the dots say so
  }

  /** Whether ``msg`` waits for the move being shown: a move event or the end, while a
   *  move's animation plays or others wait before it. */
  holds(msg) {
    if (msg.type !== "event" && msg.type !== "over") return false;
    if (!this.held.length && this.motion.idle) return false;
    this.held.push(msg);
    clearTimeout(this.heldTimer);
    // never more than a moment behind, nor more than a few moves (a catch-up is drawn at once)
    if (this.held.length > HELD_MOST) this.releaseHeld(true);
    else this.heldTimer = setTimeout(() => this.releaseHeld(true), HELD_MS);
    return true;
  }

  /** The held messages, one at a time while the moves' animations play in turn (``all``: at once). */
  releaseHeld(all = false) {
    clearTimeout(this.heldTimer);
    while (this.held.length && (all || this.motion.idle)) this.onMessage(this.held.shift(), true);
    if (this.held.length) this.heldTimer = setTimeout(() => this.releaseHeld(true), HELD_MS);
  }

  onMessage(msg, released = false) {
    if (!released && this.holds(msg)) return;
    switch (msg.type) {
      case "welcome":
        this.held = [];   // the welcome's view is the table now
        if (msg.table) this.table = msg.table;
        this.clock = clocks.heard(msg.table && msg.table.clock);
        if (this.token && (msg.seat === null || msg.seat === undefined)) {
          localStorage.removeItem(seatKey(this.id));
          this.token = null;
          this.seat = null;
        } else if (msg.seat !== null && msg.seat !== undefined) {
          this.seat = msg.seat;
          this.joinBox.replaceChildren();
        }
        if (msg.skipped) {
          // too many moves missed to be sent: the view is the table now, the log restarts
          this.events = [];
          this.unlisted = msg.version;
        } else if (msg.version !== undefined && msg.version < this.version) {
          this.events = [];   // a different table state than ours: start over
        }
        this.setView(msg.view, msg.version);
        if (msg.table && msg.table.seats) this.connected = msg.table.seats.map((s) => !!s.connected);
        this.chat.reset(msg.chat, msg.muted);
        break;
      case "chat":
        this.chat.add(msg);
        return;   // the game is not drawn again for a chat line
      case "muted":
        this.chat.setMuted(msg.seats);
        return;
      case "event": {
        if (msg.version <= this.lastEventVersion()) {
          break;
        }
        // a move made now, not one of the log sent again after a (re)connection
        const live = this.view !== null && msg.version > this.version;
        // the game's move event: phase, what became public, this seat's own cards
        const event = { version: msg.version, seat: msg.seat, move: msg.move, phase: msg.phase,
          public: msg.public || {}, drawn: msg.drawn, dealt: msg.dealt, after: msg.view };
        this.events.push(event);
        this.hint = null;
        this.hintPending = false;
        this.ui.selected = null;   // a card picked before the move is not the next turn's
        // the cards a move brought into this seat's hand, marked till this seat's next move
        if (msg.drawn || msg.dealt || msg.seat === this.seat) this.fresh = msg.drawn || [];
        const from = live && this.game.beforeMove ? this.game.beforeMove(this, event) : null;
        const was = this.myTurn;
        if (msg.view && this.game.observe) this.game.observe(this, msg.view);
        this.setView(msg.view, msg.version);
        if (live) this.announce(event);
        if (live) {
          cardSound(event);
          holdTrick(this, event);
        }
        if (live && !was && this.myTurn) turnAlert(gameTitle(this.table.game), _("Your turn"));
        if (live && this.game.animate) this.afterRender = () => this.motion.add(() => this.game.animate(this, event, from));
        break;
      }
      case "presence":
        this.connected = msg.connected || [];
        this.botPlaying = msg.bot_playing || [];
        showWatching(this.watchLine, msg);
        this.refreshTable();   // someone came or left: names and free seats may have changed
        break;
      case "clock":
        this.clock = clocks.heard(msg.clock);
        if (msg.timed_out !== undefined && msg.timed_out !== null && msg.timed_out === this.seat) {
          toast(_("Your time ran out: a bot played for you."), "error");
        }
        break;
      case "hint":
        this.hintPending = false;
        this.hint = { move: msg.move, p: msg.win_probability, of: msg.estimate_of, outcome: msg.outcome, calls: msg.calls };
        break;
      case "over":
        this.over = msg;
        // resigned or aborted: nobody is to act any more (the view said so before the end)
        if (msg.ended && this.view) this.view = { ...this.view, legal: [], current_player: null };
        this.undoAsked = null;
        break;
      case "undo":
        onUndo(this, msg);
        break;
      case "rematch":
        // a player of this table asked for a rematch; the asker also gets its seat there
        if (msg.token && msg.seat !== null && msg.seat !== undefined) {
          localStorage.setItem(seatKey(msg.table), JSON.stringify({ seat: msg.seat, token: msg.token }));
          this.navigate(`/t/${encodeURIComponent(msg.table)}`);
          return;
        }
        if (this.rematchAsked) {   // our seat there was taken: go and watch or pick one
          this.navigate(`/t/${encodeURIComponent(msg.table)}`);
          return;
        }
        this.table = { ...this.table, rematch: msg.table };
        break;
      case "error":
        this.hintPending = false;
        if (msg.code === "auth/bad-token" || msg.code === "player/bad-key") {
          localStorage.removeItem(seatKey(this.id));
          this.token = null;
          this.viaKey = false;
          this.seat = null;
          this.reconnect(true);
        }
        toast(errorText(msg.code, msg.message), "error");
        if (msg.code === "move/stale") this.reconnect(false);
        break;
      default:
        return;
    }
    this.render();
    if (this.afterRender) {
      const animate = this.afterRender;
      this.afterRender = null;
      animate();
    }
  }

  /** A card of this seat's hand that the last move brought in (marked "new" till the next). */
  isFresh(card) {
    return (this.fresh || []).includes(card);
  }

  async refreshTable() {
    try {
      const table = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`);
      if (!this.closed) {
        const began = this.table.status === "waiting" && table.status === "playing";
        this.table = table;
        this.render();
        this.chat.render();   // the names of the seats may have changed
        // the last player sat down and this seat moves first: its turn has come
        if (began && this.myTurn && this.connection === "open") turnAlert(gameTitle(table.game), _("Your turn"));
      }
    } catch (err) {
      // the next presence message or reconnection tries again
    }
  }

  lastEventVersion() {
    return this.events.length ? this.events[this.events.length - 1].version : this.unlisted;
  }

  setView(view, version) {
    if (!view) return;
    if (version !== undefined && version < this.version) return;
    this.view = view;
    if (version !== undefined) this.version = version;
    else if (view.version !== undefined) this.version = view.version;
    if (this.game.observe) this.game.observe(this, view);
    if (view.is_terminal && !this.over) {
      this.over = { winners: view.winners, scores: view.scores };
    }
  }

  // ------------------------------------------------------------ moves

  get legal() {
    if (!this.view) return [];
    return this.view.legal || [];
  }

  get myTurn() {
    return this.seat !== null && this.view && !this.ended
      && this.view.current_player === this.seat;
  }

  /** The game is over: by its rules, or a resignation or abort (the over message). */
  get ended() {
    return !!((this.view && this.view.is_terminal) || this.over || this.table.status === "over");
  }

  play(move, confirmed = false) {
    if (!this.myTurn) {
      toast(_("It is not your turn."), "error");
      return;
    }
    if (!confirmMove(this, move, confirmed)) return;   // "confirm before each move"
    if (!this.send({ type: "move", move, version: this.version })) {
      toast(_("Not connected; reconnecting…"), "error");
      return;
    }
    this.hint = null;
  }

  askHint() {
    if (!this.myTurn) return;
    this.hintPending = true;
    this.hintBox.textContent = _("Thinking…");
    this.send({ type: "hint" });
  }

  seatName(seat) {
    if (seat === null || seat === undefined) return "";
    if (seat === this.seat) return _("You");
    return seatLabel((this.table && this.table.seats) || [], seat, this.table && this.table.game);
  }

  describe(event) {
    return this.game.describe(event, this);
  }

  /** Say a move made now to a screen reader (the polite live region #announce): who, and
   *  what the move event says, in the page's language. */
  announce(event) {
    if (!this.announcer) return;
    const text = h("span", {}, this.seatName(event.seat), ": ", this.describe(event)).textContent;
    // a live region speaks a change: the same words twice in a row are told apart by a mark
    this.announcer.textContent = this.announcer.textContent === text ? `${text} ·` : text;
  }

  // ------------------------------------------------------------ drawing

  build() {
    this.connBadge = h("span", { class: "conn" });
    this.turnBanner = h("div", { class: "turn", id: "turn", role: "status", "aria-live": "polite" });
    this.announcer = h("div", { class: "sr-only", id: "announce", "aria-live": "polite", "aria-atomic": "true" });
    this.seatsBar = h("div", { class: "seats-bar", id: "seats" });
    this.joinBox = h("div", {});
    this.area = h("section", { class: `game-area game-${this.table.game}`, id: "game" });
    this.lastMove = h("div", { class: "last-move", id: "last-move" });
    this.hintBox = h("span", { class: "hint-text", id: "hint-text" });
    this.hintButton = h("button", { id: "hint", onclick: () => this.askHint(), title: _("Ask for a hint (H)") }, _("Hint"));
    this.moveInput = h("input", { id: "move-input", list: "legal-moves", autocomplete: "off", placeholder: _("Type a move, e.g. {example}", { example: localMove(this.game.example) }) });
    this.legalList = h("datalist", { id: "legal-moves" });
    const moveForm = h("form", {
      class: "move-form",
      onsubmit: (event) => {
        event.preventDefault();
        const move = notationOf(this.moveInput.value);
        if (move) this.play(move);
        this.moveInput.value = "";
      },
    }, h("label", { for: "move-input", class: "sr-only" }, _("Move")), this.moveInput, this.legalList,
    this.playButton = h("button", { type: "submit" }, _("Play")));
    this.logList = h("ol", { class: "log", id: "log" });
    this.extra = h("div", { class: "extra" });
    this.overBox = h("div", { class: "over-box", id: "over" });
    this.chat = new ChatBox(this);
    this.main.append(
      h("div", { class: "table-head" }, h("h1", {}, gameTitle(this.table.game)),
        h("div", { class: "row-buttons" },
          this.leaveButton = h("button", { class: "small", id: "leave", onclick: () => this.leave() }, _("Leave the seat")),
          this.connBadge)),
      this.joinBox,
      this.turnBanner,
      // the invite links (only while a seat is free): under the banner that asks to share them
      h("div", { class: "invites", id: "invites" }),
      this.announcer,
      this.overBox,
      this.seatsBar,
      this.watchLine = h("p", { class: "watching muted", id: "watching", hidden: true }),
      this.lastMove,
      this.area,
      this.controls = h("div", { class: "controls" }, this.hintButton, this.hintBox, moveForm),
      this.endingsBox = h("div", { class: "endings-box" }),
      this.extra,
      this.chat.el,
      h("details", { class: "log-box" }, h("summary", {}, _("Move log")), this.logList),
    );
    this.setConnection("connecting");
  }

  render() {
    if (!this.view) return;
    const v = this.view;
    // whose turn
    let turn;
    let cls = "turn";
    const online = this.connection === "open";
    if (this.ended) {
      turn = _("Game over");
      cls += " over";
    } else if (!online) {
      turn = _("Not connected to the server: trying again…");
      cls += " offline";
    } else if (this.table.status === "waiting") {
      turn = _("Waiting for players to sit down: share the invite links below.");
    } else if (this.myTurn) {
      turn = _("Your turn") + " — " + this.game.prompt(this);
      cls += " mine";
    } else if (v.current_player !== null && v.current_player !== undefined) {
      const info = (this.table.seats || [])[v.current_player] || {};
      turn = info.kind === "bot" ? _("{name} is thinking…", { name: this.seatName(v.current_player) })
        : _("Waiting for {name}", { name: this.seatName(v.current_player) });
    } else {
      turn = "";
    }
    this.turnBanner.className = cls;
    this.turnBanner.textContent = turn;
    // while the table waits for players nobody moves yet: the tab is not marked
    markTab(gameTitle(this.table.game), this.myTurn && online && !this.ended && this.table.status !== "waiting");
    this.renderSeats();
    // the last move
    const last = this.events[this.events.length - 1];
    const unlisted = this.unlisted ? _("Moves #1 to #{n} are not listed here.", { n: this.unlisted }) : "";
    this.lastMove.replaceChildren(last
      ? h("span", {}, h("strong", {}, _("Last move:")), " ", this.seatName(last.seat), " — ", this.describe(last))
      : h("span", { class: "muted" }, unlisted || _("No move yet.")));
    // the game (drawn anew: a control of it that had the focus is found again after)
    const focus = this.focusBefore();
    this.area.replaceChildren();
    this.game.render(this, this.area);
    afterGameRender(this);   // the held trick, the peek at the last one, auto-play
    // hint, move entry
    this.hintButton.disabled = !this.myTurn;
    if (this.hint) {
      const pct = this.hint.p === null || this.hint.p === undefined ? "?" : Math.round(this.hint.p * 100);
      const move = this.game.moveText(this.hint.move, this);
      // the chance of winning the match (Draw Bridge) or the game
      const text = this.hint.of === "match"
        ? _("Suggested: {move} (about {pct}% chance to win the match)", { move, pct })
        : _("Suggested: {move} (about {pct}% chance to win the game)", { move, pct });
      // an exact hint says what decides the move: the contract it leads to, the points
      const detail = this.hint.outcome && this.game.hintDetail ? this.game.hintDetail(this, this.hint) : null;
      this.hintBox.replaceChildren(
        text,
        " ", h("button", { class: "small", id: "play-hint", onclick: () => this.play(this.hint.move) }, _("Play it")),
        ...(detail ? [h("div", { class: "hint-detail" }, detail)] : []));
    } else {
      this.hintBox.textContent = this.hintPending ? _("Thinking…") : "";
    }
    this.moveInput.disabled = !this.myTurn;
    this.playButton.disabled = !this.myTurn;
    this.controls.hidden = this.seat === null;   // a spectator has no moves to make
    this.leaveButton.hidden = this.seat === null || this.ended;
    this.endingsBox.replaceChildren(endingControls(this));
    this.legalList.replaceChildren(...(this.myTurn ? this.legal : []).map((m) => h("option", { value: localMove(m) })));
    // the log, newest first
    this.logList.replaceChildren(...this.events.slice().reverse().map((e) => h("li", {},
      h("span", { class: "muted" }, `#${e.version} `), this.seatName(e.seat), ": ", this.describe(e))),
    ...(unlisted ? [h("li", { class: "muted", id: "log-unlisted" }, unlisted)] : []));
    this.renderInvites();
    this.renderOver();
    this.focusAfter(focus);
    this.drawnVersion = this.version;
  }

  /** What had the focus in the game (or the hint) before the table is drawn again. */
  focusBefore() {
    const el = document.activeElement;
    if (!el || el === document.body || !(this.area.contains(el) || this.hintBox.contains(el))) return null;
    const d = el.dataset || {};
    const key = d.card ? `[data-card="${d.card}"]` : d.cell ? `[data-cell="${d.cell}"]`
      : d.call ? `[data-call="${d.call}"]` : el.id ? `#${el.id}` : null;
    return { key, version: this.drawnVersion };
  }

  /** Keep the keyboard where it was after a move, not back on <body> (7 Tabs away from the
   *  hand): the same control if it is still there and usable, else, after a move, the next
   *  sensible one (a playable card or pile, a call, "Got it"), else a card of the hand, else
   *  the hand itself; at the end of the game, the end screen's first button. */
  focusAfter(before) {
    if (!before) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;   // not lost
    const usable = (el) => el && !el.disabled && el.matches("button, summary, a[href], input, [tabindex]");
    const sensible = (el) => el.matches(".playable, .legal, [data-call], #auction-ok, #pass, #dead-card");
    const same = before.key ? this.area.querySelector(before.key) : null;
    const moved = this.version !== before.version;
    let target = usable(same) && (!moved || sensible(same)) ? same : null;
    if (!target && this.view && this.ended) target = this.overBox.querySelector("button, a.button");
    if (!target) {
      target = [...this.area.querySelectorAll("#auction-ok, button.playable, .cell.legal, #auction [data-call], #pass")]
        .find(usable);
    }
    if (!target) target = [...this.area.querySelectorAll("#hand button")].find(usable);
    if (!target) {
      target = this.area.querySelector("#hand");
      if (target) target.tabIndex = -1;   // a hand with no usable card: the focus waits there
    }
    if (target) target.focus({ preventScroll: true });
  }

  renderSeats() {
    const v = this.view;
    const seats = this.table.seats || [];
    const note = clocks.clockNote(this.clock);
    const ended = !!(v.is_terminal || this.over || this.table.status === "over");
    this.seatsBar.replaceChildren(...seats.map((info, i) => {
      const classes = ["seat"];
      if (v.current_player === i && !v.is_terminal) classes.push("to-act");
      if (i === this.seat) classes.push("me");
      // not connected ourselves: who is there is not known, every dot grey
      const known = this.connection === "open";
      const online = info.kind === "bot" || this.connected[i];
      const dot = !known ? ["unknown", _("not known while the server cannot be reached")]
        : online ? ["on", _("connected")] : ["off", _("away")];
      const sit = this.seat === null && this.token === null && !this.viaKey && info.kind === "person" && !info.taken
        && this.table.status !== "over"
        ? h("button", { class: "small primary", onclick: () => this.showJoin(i) }, _("Sit here")) : null;
      return h("div", { class: classes.join(" "), "data-seat": i },
        v.current_player === i && !v.is_terminal ? h("span", { class: "arrow", "aria-hidden": "true" }, "▶") : null,
        this.game.seatBadge ? this.game.seatBadge(this, i) : null,
        h("span", { class: "seat-name" }, info.kind === "person" && !info.taken ? _("free seat")
          : info.player ? h("a", { href: `/p/${encodeURIComponent(info.player)}`, "data-link": true }, this.seatName(i))
            : this.seatName(i)),
        info.rating ? h("span", { class: "rating", title: _("Rating"), role: "img", "aria-label": _("Rating {n}", { n: info.rating }) }, String(info.rating)) : null,
        h("span", { class: `dot ${dot[0]}`, title: dot[1], role: "img", "aria-label": dot[1] }),
        h("span", { class: "seat-info" }, this.game.seatInfo(this, i)),
        clocks.seatClock(this.clock, i, ended),
        // a takeover ends with the game: no mark, no "I'm back" once it is over
        !ended && ((this.botPlaying || [])[i] || info.bot_playing)
          ? h("span", { class: "muted bot-plays" }, i === this.seat ? _("(a bot plays for you)") : _("(a bot plays for them)")) : null,
        !ended && i === this.seat && clocks.takenOver(this.clock, i)
          ? h("button", { class: "small primary", id: "clock-back", onclick: () => this.send({ type: "back" }) }, _("I'm back: let me play"))
          : null,
        sit);
    }), ...(note ? [note] : []));
    if (this.clock && !this.clockTimer) {
      this.clockTimer = setInterval(() => clocks.tick(this.seatsBar, this.clock), 200);
    }
  }

  renderInvites() {
    const box = this.main.querySelector("#invites");
    const seats = this.table.seats || [];
    const free = seats.map((s, i) => [s, i]).filter(([s]) => s.kind === "person" && !s.taken);
    if (!free.length || this.table.status === "over" || (this.view && this.ended)) {
      box.replaceChildren();
      return;
    }
    box.replaceChildren(h("h3", {}, _("Invite players")),
      ...free.map(([, i]) => h("div", { class: "invite-row" },
        h("span", {}, _("Seat {n}", { n: i + 1 })),
        h("input", { readonly: true, value: inviteLink(this.id, i), "aria-label": _("Invite link for seat {n}", { n: i + 1 }) }),
        h("button", {
          class: "small",
          onclick: async () => { if (await copyText(inviteLink(this.id, i))) toast(_("Invite link copied")); },
        }, _("Copy link")))));
  }

  renderOver() {
    const v = this.view;
    if (!this.ended) {
      this.overBox.replaceChildren();
      return;
    }
    const winners = (this.over && this.over.winners) || v.winners || [];
    const scores = (this.over && this.over.scores) || v.scores || [];
    let headline;
    const result = this.over || (this.table.result) || {};
    const ending = endingText(result, (s) => this.seatName(s));
    if (result.ended === "abort") headline = _("No result: the game was aborted.");
    else if (!winners.length) headline = _("A draw.");
    else if (this.seat !== null && winners.includes(this.seat)) headline = _("You won!");
    else headline = _("Won by {names}", { names: winners.map((s) => this.seatName(s)).join(", ") });
    const record = `/api/tables/${encodeURIComponent(this.id)}/record`;
    this.overBox.replaceChildren(h("div", { class: "card-panel over-panel", role: "dialog", "aria-label": _("Game over") },
      ending ? h("p", { class: "ending", id: "ending" }, ending) : null,
      h("h2", {}, headline),
      h("table", { class: "scores" },
        h("tr", {}, h("th", {}, _("Player")), h("th", {}, this.game.scoreLabel())),
        ...scores.map((s, i) => h("tr", { class: winners.includes(i) ? "winner" : "" }, h("td", {}, this.seatName(i)), h("td", {}, String(s))))),
      h("div", { class: "row-buttons" },
        this.table.rematch
          ? h("button", { class: "primary", id: "join-rematch", onclick: () => this.rematch() }, _("Join the rematch"))
          : this.seat !== null
            ? h("button", { class: "primary", id: "rematch", onclick: () => this.rematch() }, _("Rematch"))
            : null,
        h("a", { class: "button", href: `/t/${encodeURIComponent(this.id)}/replay`, "data-link": true, id: "replay-link" }, _("Replay the game")),
        h("a", { class: "button", href: record, download: `${this.table.game}-${this.id}.json`, id: "record" }, _("Download the record")),
        // the formats the game offers besides JSON (Draw Bridge: PBN), as the engine says
        ...((this.table.game_info && this.table.game_info.exports) || []).map((fmt) => h("a", {
          class: "button", href: `${record}.${fmt}`, download: `${this.table.game}-${this.id}.${fmt}`, "data-format": fmt,
        }, fmt === "pbn" ? _("Download as PBN") : fmt.toUpperCase())),
        h("a", { class: "button", href: "/", "data-link": true }, _("Back to the lobby")))));
  }

  async leave() {
    if (this.seat === null || !this.token) return;
    try {
      await api("DELETE", `/api/tables/${encodeURIComponent(this.id)}/seats/${this.seat}`, undefined, this.token);
    } catch (err) {
      toast(errorText(err.code, err.message), "error");
      return;
    }
    localStorage.removeItem(seatKey(this.id));
    this.token = null;
    this.seat = null;
    this.reconnect(true);   // on as a spectator
    this.refreshTable();
  }

  /** Ask the server for the rematch (it creates the table once, tells the whole table
   * and seats each player who asks); a spectator goes to watch it. */
  rematch() {
    if (this.seat !== null && this.send({ type: "rematch" })) {
      this.rematchAsked = true;
      return;
    }
    if (this.table.rematch) this.navigate(`/t/${encodeURIComponent(this.table.rematch)}`);
    else toast(_("connecting…"), "error");
  }

  onKey(event) {
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    if (event.key === "h" || event.key === "H") {
      this.askHint();
      event.preventDefault();
    } else if (event.key === "Enter" && this.hint && event.target === document.body) {
      this.play(this.hint.move);
    } else if (this.game.onKey) {
      this.game.onKey(this, event);
    }
  }
}
