// Message lookup over the page's catalogs.
//
// The catalogs are gettext .po files (src/cardtable/web/locale/<lang>/LC_MESSAGES/web.po),
// kept with Babel and compiled to static/i18n/<lang>.json by `python -m cardtable.web.catalogs`.
// Every string the page shows goes through _() with a literal English message id, so that
// Babel's JavaScript extractor finds it; placeholders are {name}.

export const LANGUAGES = [["en", "English"], ["km", "ខ្មែរ"]];
const STORE = "cardtable:lang";

let catalog = {};
let current = "en";

export function lang() {
  return current;
}

export function _(msgid, params) {
  let text = catalog[msgid] || msgid;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
  }
  return text;
}

export function preferredLanguage() {
  const saved = localStorage.getItem(STORE);
  if (saved && LANGUAGES.some(([code]) => code === saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = wanted.toLowerCase().split("-")[0];
    if (LANGUAGES.some(([c]) => c === code)) return code;
  }
  return "en";
}

export async function setLanguage(code, remember = false) {
  if (remember) localStorage.setItem(STORE, code);
  if (code === "en") {
    catalog = {};
  } else {
    const response = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
    catalog = response.ok ? await response.json() : {};
  }
  current = code;
  document.documentElement.lang = code;
}
