// Small DOM and HTTP helpers shared by the pages.

import { _ } from "./i18n.js";

/** h("button", {class: "x", onclick: f}, "text", child...) -> an element. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "html") {
      el.innerHTML = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** A JSON request to the server's /api; errors become ApiError(code, message). */
export async function api(method, path, body = undefined, token = undefined, extra = undefined) {
  const headers = { Accept: "application/json", ...(extra || {}) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", String(err), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(error.code || `http/${response.status}`, error.message || response.statusText,
      response.status);
  }
  return data;
}

/** A short message at the bottom of the screen (errors, "copied"). */
export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast ${kind}` }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3000);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    const area = h("textarea");
    Object.assign(area.style, { position: "fixed", opacity: "0" });   // a style attribute breaks the CSP
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** The server's limit on a display name: 32 characters, counted as Python counts them (code
 *  points), after runs of spaces become one and the ends are trimmed. */
export const NAME_LIMIT = 32;

function serverLength(text) {
  return [...text.split(/\s+/).filter(Boolean).join(" ")].length;
}

/** The longest start of `text` the server takes as a name, cut between grapheme clusters only
 *  (Intl.Segmenter); a Khmer cluster that ends in a coeng (U+17D2, the subscript sign) stays
 *  with the consonant it joins, so a syllable is never cut. */
export function fitName(text, limit = NAME_LIMIT) {
  if (serverLength(text) <= limit) return text;
  const clusters = [];
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    if (clusters.length && clusters[clusters.length - 1].endsWith("\u17d2")) clusters[clusters.length - 1] += segment;
    else clusters.push(segment);
  }
  let out = "";
  for (const cluster of clusters) {
    if (serverLength(out + cluster) > limit) break;
    out += cluster;
  }
  return out;
}

/** A name box that stops where the server's limit does (no maxlength: it counts UTF-16 units). */
export function nameInput(attrs) {
  const input = h("input", { autocomplete: "nickname", ...attrs });
  const fit = (event) => {
    if (event.isComposing) return;
    const cut = fitName(input.value);
    if (cut !== input.value) {
      input.value = cut;
      // say so, under the box (a name cut without a word looked like a fault)
      const id = `${input.id || "name"}-cut`;
      if (!document.getElementById(id)) {
        input.setAttribute("aria-describedby", id);
        input.after(h("small", { class: "name-cut help", id, role: "status" },
          _("A name has at most {n} characters: the rest was left out.", { n: NAME_LIMIT })));
      }
    }
  };
  input.addEventListener("input", fit);
  input.addEventListener("compositionend", fit);
  return input;
}
