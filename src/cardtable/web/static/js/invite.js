// An invite link (/t/ID?seat=N) that cannot seat its reader: why, in a sentence the table
// page shows above the game (the page then watches the table, as a spectator).

import { _ } from "./i18n.js";

/** null when seat `wanted` (the ?seat= text) of `table` (GET /api/tables/ID) is free to take. */
export function inviteNotice(table, wanted) {
  const seats = table.seats || [];
  if (table.status === "over") return _("This game is over: you are watching it.");
  if (!/^\d+$/.test(wanted) || Number(wanted) >= seats.length) {
    return _("This invite names no seat of this table (seat={seat}): you are watching.",
      { seat: wanted.slice(0, 12) });
  }
  const n = Number(wanted) + 1;
  if (seats[n - 1].kind !== "person") return _("Seat {n} is played by a bot: you are watching.", { n });
  if (seats[n - 1].taken) return _("Seat {n} is already taken: you are watching.", { n });
  return null;
}
