// The rules page: the rule book's section for a game, in the page's language
// (RULES.md or RULES.km.md, served by GET /api/rules/GAME?lang=...).

import { _, lang } from "./i18n.js";
import { api, h } from "./dom.js";
import { gameTitle } from "./names.js";

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function inline(text) {
  return escape(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

// Khmer letters, signs and digits; not its punctuation (U+17D4-17DB: ។ ៕ ៖ ៗ ...), after
// which a space is right.
const KHMER = /[\u1780-\u17d3\u17dc-\u17ff]/;

/** Two lines of one paragraph as one text. Khmer writes no space between words, and a space
 *  is a pause between phrases, so a line break between two Khmer letters joins them without
 *  one; any other break is a space, as Markdown has it. */
function joinLines(first, second) {
  return KHMER.test(first.slice(-1)) && KHMER.test(second.charAt(0))
    ? first + second : `${first} ${second}`;
}

/** The Markdown the rule book uses: headings, paragraphs, lists, tables, fenced code. */
export function markdown(text) {
  const out = [];
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i += 1;
      out.push(`<pre><code>${escape(code.join("\n"))}</code></pre>`);
    } else if (/^#{1,4} /.test(line)) {
      const level = line.match(/^#+/)[0].length;
      out.push(`<h${level + 1}>${inline(line.slice(level + 1))}</h${level + 1}>`);
      i += 1;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const cells = (row) => row.replace(/^\||\|$/g, "").split("|").map((c) => inline(c.trim()));
      const body = rows.filter((r) => !/^\|[\s\-:|]+\|$/.test(r));
      out.push("<table>" + body.map((r, k) => `<tr>${cells(r).map((c) => (k === 0 ? `<th>${c}</th>` : `<td>${c}</td>`)).join("")}</tr>`).join("") + "</table>");
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line);
      const items = [];
      while (i < lines.length && lines[i].trim() && !/^#{1,4} /.test(lines[i])) {
        if (/^\s*([-*]|\d+\.) /.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.) /, ""));
        else items[items.length - 1] = joinLines(items[items.length - 1], lines[i].trim());
        i += 1;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((it) => `<li>${inline(it)}</li>`).join("")}</${tag}>`);
    } else if (line.trim() === "---") {
      out.push("<hr>");
      i += 1;
    } else if (!line.trim()) {
      i += 1;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#{1,4} |```|\||\s*([-*]|\d+\.) )/.test(lines[i])) para.push(lines[i++]);
      out.push(`<p>${inline(para.map((l) => l.trim()).reduce(joinLines))}</p>`);
    }
  }
  return out.join("\n");
}

export async function renderRules(root, game, navigate) {
  const main = h("main", { class: "rules-page" });
  root.append(main);
  const tabs = h("nav", { class: "tabs" }, ...["sequence", "drawbridge", "threethirteen"].map((name) =>
    h("a", { href: `/rules/${name}`, "data-link": true, class: name === game ? "active" : "" }, gameTitle(name))));
  main.append(h("h1", {}, _("Rules: {game}", { game: gameTitle(game) })), tabs);
  try {
    const got = await api("GET", `/api/rules/${encodeURIComponent(game)}?lang=${lang()}`);
    main.append(h("article", { class: "rules", html: markdown(got.markdown) }));
  } catch (err) {
    main.append(h("p", { class: "error" }, err.message));
  }
  main.append(h("p", {}, h("a", { href: "/", "data-link": true }, _("Back to the lobby"))));
  void navigate;
}
