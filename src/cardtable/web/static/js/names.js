// Names the server sends as data (games, options, bot kinds), put into the page's language.
// Option help sentences and choices come from the games' declarations; their translations
// are in the catalogs too (cardtable.web.catalogs extracts them from the declarations).

import { _ } from "./i18n.js";

export function gameTitle(name) {
  switch (name) {
    case "sequence": return _("Sequence");
    case "drawbridge": return _("Draw Bridge");
    case "threethirteen": return _("Three Thirteen");
    default: return name;
  }
}

export function optionLabel(name) {
  switch (name) {
    case "players": return _("Players");
    case "teams": return _("Teams");
    case "max_turns": return _("Turn limit");
    case "target": return _("Target score");
    case "show_stock_top": return _("Stock's top card face up");
    case "follow_suit_in_draw": return _("Follow suit in the draw");
    case "draw_trick_winner": return _("Draw trick won by");
    case "undertricks": return _("Undertricks score for the defender");
    case "aces": return _("Aces");
    case "face_values": return _("Face card values");
    case "all_wild_melds": return _("Melds of wild cards only");
    case "decks": return _("Decks");
    default: return name.replace(/_/g, " ");
  }
}

/** A choice value of an option ("low", "suit-led"); the catalogs hold the declarations' choices. */
export function choiceLabel(value) {
  if (value === null || value === undefined) return _("automatic");
  if (value === true) return _("yes");
  if (value === false) return _("no");
  return _(String(value));
}

// each game's bot levels (GET /api/levels, set by app.js at the start)
let levelsByGame = {};

export function setLevels(levels) {
  levelsByGame = levels || {};
}

function levelBotLabel(level) {
  switch (level.name) {
    case "easy": return _("Bot: easy");
    case "medium": return _("Bot: medium");
    case "hard": return _("Bot: hard");
    case "expert": return _("Bot: expert");
    default: return _("Bot: {kind}", { kind: _(level.label) });
  }
}

/** A bot kind as the level a player picked it by: with the game, the level of that game
 *  the kind plays (Sequence's hard is the learned bot), or its own name where no level
 *  of the game is that kind; without, the kinds' usual levels. */
export function botLabel(kind, game = null) {
  const levels = game ? levelsByGame[game] : null;
  if (levels && levels.length) {
    const level = levels.find((l) => l.bot === kind);
    if (level) return levelBotLabel(level);
    // a kind that is no level of this game (the searching bot in Sequence): its own
    // words, never its id ("Bot: ismcts")
    switch (kind) {
      case "random": return _("Bot: random");
      case "heuristic": return _("Bot: rules of thumb");
      case "ismcts": return _("Bot: searching");
      default: break;
    }
  }
  switch (kind) {
    case "random": return _("Bot: easy");
    case "heuristic": return _("Bot: medium");
    case "ismcts": return _("Bot: hard");
    case "learned": return _("Bot: learned");
    case "perfect": return _("Bot: perfect");
    case "trained": return _("Bot: trained");
    case "lookahead": return _("Bot: looking ahead");   // two plies on the trained network
    case "blend": return _("Bot: blend");   // the trained network and the learned scores
    default: return _("Bot: {kind}", { kind });
  }
}

export function phaseLabel(phase) {
  switch (phase) {
    case "draw": return _("Draw phase");
    case "auction": return _("Auction");
    case "play": return _("Play phase");   // not "Play", the button: Khmer tells them apart
    case "discard": return _("Discard");
    case "over": return _("Over");
    default: return phase;
  }
}

export function strainLabel(strain) {
  switch (strain) {
    case "NT": return "NT";   // as the rule books write it, in Khmer too (1.4: "3NT")
    case "S": return "♠";
    case "H": return "♥";
    case "D": return "♦";
    case "C": return "♣";
    default: return strain;
  }
}

export function callLabel(call) {
  switch (call) {
    case "pass": return _("Pass");
    case "double": return _("Double");
    case "redouble": return _("Redouble");
    default: return call.slice(0, 1) + strainLabel(call.slice(1));
  }
}

/** The name of seat `seat` of a table (`seats`: the table summary's): a person's name, or
 *  a bot's level ("Bot: medium"), with its seat number only where another bot of the
 *  table has the same name ("Bot: medium (seat 3)"). */
export function seatLabel(seats, seat, game) {
  const info = seats[seat] || {};
  if (info.kind !== "bot") return personName(info.name, seat);
  const label = (s) => botLabel(s.bot || s.name, game);
  const mine = label(info);
  const twin = seats.some((s, i) => i !== seat && s && s.kind === "bot" && label(s) === mine);
  return twin ? _("{bot} (seat {n})", { bot: mine, n: seat + 1 }) : mine;
}

/** A person's name as this reader reads it: the name a page gives a seat taken without
 *  one ("Player 2", "អ្នកលេងទី 2": `takeSeat`) and the lobby's "a player", in this
 *  reader's language. */
export function personName(name, seat) {
  // the lobby's word for a seat taken with a player key (docs/server.md: Privacy)
  if (name === "a player") return _("a player");
  const given = /^(?:Player |អ្នកលេងទី )(\d+)$/.exec(name || "");
  if (!name || given) return _("Player {n}", { n: given ? Number(given[1]) : seat + 1 });
  return name;
}
