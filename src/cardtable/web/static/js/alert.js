// Your turn you can't miss: a sound, the tab's title and icon, a notification when the page
// is in the background; and the settings that turn each on or off (kept in localStorage).

import { _ } from "./i18n.js";
import { h } from "./dom.js";
import { prefFields } from "./prefs.js";

const STORE = "cardtable:settings";
const DEFAULTS = {
  sound: true, animation: true, notifications: false,
  // the settings players like (prefs.js)
  fourColour: false, cardSize: "medium", boardSize: "medium", confirm: false,
  cardSounds: false, mute: false, lowTime: 10, autoPlay: false, holdTrick: "moment",
};

export function settings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(STORE) || "{}") };
  } catch (err) {
    return { ...DEFAULTS };
  }
}

export function saveSettings(changes) {
  localStorage.setItem(STORE, JSON.stringify({ ...settings(), ...changes }));
}

/** Animations are on: the setting, and the system does not ask for reduced motion. */
export function motionOn() {
  return settings().animation && !matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// ------------------------------------------------------------------ the tab's icon

let plainIcon = null;

/** The tab's title and icon: marked (a dot before the title, an amber dot on the icon) on
 *  the player's turn. */
export function markTab(title, mine) {
  document.title = (mine ? "● " : "") + title;
  const link = document.getElementById("favicon");
  if (!link) return;
  if (plainIcon === null) plainIcon = link.getAttribute("href");
  const marked = plainIcon.replace("%3C/svg%3E",
    "%3Ccircle cx='12' cy='4' r='4' fill='%23ff6d00' stroke='%23fff'/%3E%3C/svg%3E");
  link.setAttribute("href", mine ? marked : plainIcon);
  link.dataset.turn = mine ? "yes" : "no";
}

// ------------------------------------------------------------------ the alert

let chime = null;

/** It has just become the player's turn: the sound and, in the background, a notification. */
export function turnAlert(title, body) {
  const s = settings();
  if (s.sound && !s.mute) {
    if (!chime) chime = new Audio("/static/sounds/turn.wav");
    chime.currentTime = 0;
    const played = chime.play();
    if (played && played.catch) played.catch(() => {});   // the browser may refuse before a click
  }
  if (s.notifications && document.hidden && "Notification" in window
      && Notification.permission === "granted") {
    const note = new Notification(title, { body, tag: "cardtable-turn" });
    note.onclick = () => { window.focus(); note.close(); };
  }
}

// ------------------------------------------------------------------ the settings panel

/** The header's settings: sound, animation, notifications (asks the browser's permission). */
export function settingsPanel() {
  const s = settings();
  const box = (key, label, onchange) => {
    const id = `setting-${key}`;
    const input = h("input", {
      type: "checkbox", id, checked: s[key],
      onchange: async (event) => {
        const on = event.target.checked;
        saveSettings({ [key]: on });
        if (onchange) await onchange(on, event.target);
      },
    });
    return h("div", { class: "field check" }, input, h("label", { for: id }, label));
  };
  return h("details", { class: "settings", id: "settings" },
    h("summary", { "aria-label": _("Settings") }, "⚙ ", h("span", { class: "settings-word" }, _("Settings"))),
    h("div", { class: "settings-panel" },
      box("sound", _("Sound on your turn")),
      box("animation", _("Animate the moves")),
      box("notifications", _("Notify me when the page is in the background"), async (on, input) => {
        if (!on) return;
        if (!("Notification" in window)) {
          input.checked = false;
          saveSettings({ notifications: false });
          return;
        }
        const answer = Notification.permission === "default"
          ? await Notification.requestPermission() : Notification.permission;
        if (answer !== "granted") {
          input.checked = false;
          saveSettings({ notifications: false });
        }
      }),
      // the settings players like (prefs.js), folded under "More settings"
      ...prefFields(box)));
}
