// Who is watching (docs/web.md: Who is watching): the table page's line under the seats,
// from each presence's spectators (their count), watchers (the names of those watching
// under a player's name) and guests (the others).

import { _ } from "./i18n.js";

/** Draw the line ``el`` from a presence message (hidden while nobody watches). */
export function showWatching(el, presence) {
  const count = presence.spectators || 0;
  el.hidden = count === 0;
  if (!count) {
    el.textContent = "";
    return;
  }
  const names = [...(presence.watchers || [])];
  const guests = presence.guests || 0;
  if (guests === 1) names.push(_("a guest"));
  else if (guests > 1) names.push(_("{n} guests", { n: guests }));
  // one player in two tabs counts twice in the count, once in the names; more names than
  // the presence carries: "and others"
  const shown = (presence.watchers || []).length + guests;
  if (shown < count && (presence.watchers || []).length >= 20) names.push(_("and others"));
  el.textContent = count === 1 ? _("1 watching: {names}", { names: names.join(", ") })
    : _("{n} watching: {names}", { n: count, names: names.join(", ") });
}
