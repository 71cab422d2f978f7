// The chat box of a table page (docs/web.md: The chat): the lines this connection may
// read, preset phrases and emotes (ids the server knows, translated here), free text,
// mutes (decided by the server) and the player's choice to hide the spectators' chat
// (kept in the browser). Every line is put in the page as text, never as HTML.

import { _ } from "./i18n.js";
import { h } from "./dom.js";

const HIDE_SPECTATORS = "cardtable:chat:hide-spectators";
export const MAX_LINE = 200;
const KEEP = 200;   // lines kept on the page

/** A preset's words in the page's language (the ids are the server's CHAT_PRESETS). */
export function presetText(id) {
  switch (id) {
    case "hello": return _("Hello!");
    case "good-luck": return _("Good luck!");
    case "well-played": return _("Well played!");
    case "good-game": return _("Good game!");
    case "thanks": return _("Thanks!");
    case "sorry": return _("Sorry!");
    case "oops": return _("Oops!");
    case "wait": return _("Wait a moment, please.");
    case "hurry": return _("Please hurry up.");
    case "bye": return _("Bye!");
    default: return EMOTES[id] ? EMOTES[id][0] : id;
  }
}

/** An emote's picture, and its name for screen readers and tooltips. */
const EMOTES = {
  smile: ["😀", () => _("Smile")],
  laugh: ["😄", () => _("Laugh")],
  wow: ["😮", () => _("Wow")],
  sad: ["😢", () => _("Sad")],
  "thumbs-up": ["👍", () => _("Thumbs up")],
  heart: ["❤️", () => _("Heart")],
};
const PHRASES = ["hello", "good-luck", "well-played", "good-game", "thanks", "sorry", "oops",
  "wait", "hurry", "bye"];

export class ChatBox {
  /** ``page``: the table page (its seat, table, seatName and send). */
  constructor(page) {
    this.page = page;
    this.lines = [];
    this.muted = [];
    this.list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
    this.input = h("input", {
      id: "chat-input", maxlength: MAX_LINE, autocomplete: "off", placeholder: _("Say something…"),
    });
    this.label = h("label", { for: "chat-input", class: "sr-only" });
    this.form = h("form", {
      class: "chat-form", id: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        const text = this.input.value.trim();
        if (text && this.page.send({ type: "chat", text })) this.input.value = "";
      },
    }, this.label, this.input, h("button", { type: "submit", id: "chat-send" }, _("Send")));
    this.phrases = h("select", {
      id: "chat-preset", "aria-label": _("Preset phrases"),
      onchange: () => {
        if (this.phrases.value) this.page.send({ type: "chat", preset: this.phrases.value });
        this.phrases.value = "";
      },
    }, h("option", { value: "" }, _("Preset phrases")), ...PHRASES.map((id) => h("option", { value: id }, presetText(id))));
    this.emotes = h("div", { class: "chat-emotes" }, ...Object.entries(EMOTES).map(([id, [pic, name]]) => h("button", {
      type: "button", class: "small emote", "data-preset": id, title: name(), "aria-label": name(),
      onclick: () => this.page.send({ type: "chat", preset: id }),
    }, pic)));
    this.hideBox = h("input", {
      type: "checkbox", id: "chat-hide-spectators", checked: localStorage.getItem(HIDE_SPECTATORS) === "1",
      onchange: () => {
        localStorage.setItem(HIDE_SPECTATORS, this.hideBox.checked ? "1" : "0");
        this.render();
      },
    });
    this.hideRow = h("label", { class: "chat-option" }, this.hideBox, " ", _("Hide the spectators' chat"));
    this.muteRow = h("div", { class: "chat-mutes", id: "chat-mutes" });
    this.offNote = h("p", { class: "muted", id: "chat-off" }, _("The chat is off at this table."));
    this.el = h("details", { class: "chat-box", id: "chat", open: true },
      h("summary", {}, _("Chat")),
      this.list, this.offNote,
      h("div", { class: "chat-presets" }, this.phrases, this.emotes),
      this.form, this.hideRow, this.muteRow);
  }

  /** The lines and mutes of a welcome (a reconnection shows them again, not twice). */
  reset(lines, muted) {
    this.lines = (lines || []).slice(-KEEP);
    this.muted = muted || [];
    this.render();
  }

  add(line) {
    if (this.lines.some((l) => l.n === line.n)) return;
    this.lines.push(line);
    if (this.lines.length > KEEP) this.lines.shift();
    this.render();
  }

  setMuted(seats) {
    this.muted = seats || [];
    this.render();
  }

  get spectating() {
    return this.page.seat === null || this.page.seat === undefined;
  }

  shown() {
    const hide = !this.spectating && this.hideBox.checked;
    return this.lines.filter((l) => !(hide && l.channel === "spectators")
      && !(l.seat !== null && this.muted.includes(l.seat)));
  }

  lineText(line) {
    if (line.preset) return presetText(line.preset);
    return line.text || "";
  }

  render() {
    const table = this.page.table || {};
    const on = table.chat !== false;
    this.offNote.hidden = on;
    this.form.hidden = !on;
    this.phrases.parentElement.hidden = !on;
    this.label.textContent = this.spectating ? _("Say to the spectators") : _("Say to the players");
    this.input.placeholder = this.spectating ? _("Say to the spectators") : _("Say to the players");
    this.hideRow.hidden = this.spectating;
    const shown = this.shown();
    this.list.replaceChildren(...(shown.length ? shown.map((line) => {
      const who = line.seat === null ? _("Spectator") : this.page.seatName(line.seat);
      const kind = !line.preset ? "" : EMOTES[line.preset] ? " preset emote-line" : " preset";
      return h("li", { class: `chat-line ${line.channel}${kind}`, "data-n": line.n },
        h("strong", {}, who), ": ", h("span", { class: "chat-text" }, this.lineText(line)));
    }) : [h("li", { class: "muted" }, _("No message yet."))]));
    this.list.scrollTop = this.list.scrollHeight;
    // a player mutes another player for themselves (the server stops sending their lines)
    const seats = (table.seats || []).map((s, i) => [s, i])
      .filter(([s, i]) => s.kind === "person" && i !== this.page.seat);
    this.muteRow.replaceChildren(...(this.spectating ? [] : seats.map(([, i]) => {
      const muted = this.muted.includes(i);
      return h("button", {
        type: "button", class: "small", "data-mute": i, "aria-pressed": muted ? "true" : "false",
        onclick: () => this.page.send({ type: "mute", seat: i, muted: !muted }),
      }, muted ? _("Unmute {name}", { name: this.page.seatName(i) }) : _("Mute {name}", { name: this.page.seatName(i) }));
    })));
  }
}
