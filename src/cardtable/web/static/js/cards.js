// Card faces and backs, drawn here as SVG (no image files, no outside card set).
//
// Cards are notation strings: rank A 2..9 T J Q K, then suit S H D C ("TD" = ten of diamonds).

import { _ } from "./i18n.js";

export const SUITS = "SHDC";
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = "#c62828";
const BLACK = "#1b1b1b";

export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function suitOf(card) {
  return card[card.length - 1];
}

export function rankOf(card) {
  return card.slice(0, -1);
}

/** "TH" -> "10♥": a card as text, for logs and labels. */
export function cardText(card) {
  return rankText(rankOf(card)) + SUIT_SYMBOL[suitOf(card)];
}

function rankName(rank) {
  switch (rank) {
    case "A": return _("ace");
    case "2": return _("two");
    case "3": return _("three");
    case "4": return _("four");
    case "5": return _("five");
    case "6": return _("six");
    case "7": return _("seven");
    case "8": return _("eight");
    case "9": return _("nine");
    case "T": return _("ten");
    case "J": return _("jack");
    case "Q": return _("queen");
    case "K": return _("king");
    default: return rank;
  }
}

function suitName(suit) {
  switch (suit) {
    case "S": return _("spades");
    case "H": return _("hearts");
    case "D": return _("diamonds");
    case "C": return _("clubs");
    default: return suit;
  }
}

/** "QS" -> "queen of spades": a card's name in words, for screen readers (aria-label). */
export function cardName(card) {
  return _("{rank} of {suit}", { rank: rankName(rankOf(card)), suit: suitName(suitOf(card)) });
}

// the four-colour deck (docs/web.md: Settings): diamonds blue, clubs green
const FOUR = { S: BLACK, H: RED, D: "#1565c0", C: "#2e7d32" };

function colour(card) {
  if (document.documentElement.dataset.fourColour === "yes") return FOUR[suitOf(card)] || BLACK;
  return "HD".includes(suitOf(card)) ? RED : BLACK;
}

function pipShape(suit, x, y, size, fill) {
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" `
    + `dominant-baseline="central" fill="${fill}">${SUIT_SYMBOL[suit]}</text>`;
}

/**
 * A whole card face: rank and suit in the corners, a large suit (or a face letter) in
 * the middle; jacks show their eyes (two-eyed JD JC, one-eyed JS JH), which Sequence needs.
 */
export function cardSVG(card, { label = "" } = {}) {
  const rank = rankOf(card);
  const suit = suitOf(card);
  const fill = colour(card);
  const r = rankText(rank);
  let middle;
  if ("JQK".includes(rank)) {
    // a jack's eyes: two for the two-eyed jacks (JD JC), one for the one-eyed (JS JH)
    const eye = (x) => `<ellipse cx="${x}" cy="76" rx="4" ry="2.6" fill="none" stroke="${fill}"/>`
      + `<circle cx="${x}" cy="76" r="1.3" fill="${fill}"/>`;
    const eyes = rank === "J" ? ("DC".includes(suit) ? eye(24) + eye(36) : eye(30)) : "";
    middle = `<rect x="17" y="25" width="26" height="40" rx="3" fill="none" stroke="${fill}" stroke-width="1.5"/>`
      + `<text x="30" y="42" font-size="20" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="${fill}">${rank}</text>`
      + pipShape(suit, 30, 58, 12, fill)
      + eyes;
  } else {
    middle = pipShape(suit, 30, 48, rank === "A" ? 34 : 26, fill);
  }
  return `<svg class="card-svg" viewBox="0 0 60 90" role="img" aria-label="${label || cardText(card)}">`
    + `<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#888" stroke-width="1.2"/>`
    + `<text x="6" y="15" font-size="15" font-weight="700" fill="${fill}">${r}</text>`
    + pipShape(suit, 11, 27, 12, fill)
    + middle
    + `<g transform="rotate(180 30 45)"><text x="6" y="15" font-size="15" font-weight="700" fill="${fill}">${r}</text>`
    + pipShape(suit, 11, 27, 12, fill) + `</g></svg>`;
}

/** A small face for a board cell: rank above, suit below, filling the cell; `covered` (a
 *  chip lies on it): rank and suit side by side in the top band, which the chip leaves free. */
export function miniCardSVG(card, covered = false) {
  const fill = colour(card);
  const face = covered
    ? `<text x="20" y="8" font-size="10" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="${fill}">${cardText(card)}</text>`
    : `<text x="20" y="13" font-size="13" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="${fill}">${rankText(rankOf(card))}</text>`
      + pipShape(suitOf(card), 20, 29, 16, fill);
  return `<svg class="mini-svg" viewBox="0 0 40 40" aria-hidden="true">`
    + `<rect x="1" y="1" width="38" height="38" rx="4" fill="#fff" stroke="#aaa"/>` + face + `</svg>`;
}

/** The back of a card (a hidden card, the stock). */
export function backSVG(label = "") {
  const named = label ? `role="img" aria-label="${label}"` : `aria-hidden="true"`;
  return `<svg class="card-svg back" viewBox="0 0 60 90" ${named}>`
    + `<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#888"/>`
    + `<rect x="5" y="5" width="50" height="80" rx="4" fill="#1e4d8c"/>`
    + `<rect x="10" y="10" width="40" height="70" rx="3" fill="none" stroke="#9fc1ef" stroke-width="1.5"/>`
    + `<path d="M30 22 L42 45 L30 68 L18 45 Z" fill="#2f6fc4" stroke="#9fc1ef"/></svg>`;
}

/** A corner of the Sequence board: free for every team. */
export function cornerSVG() {
  return `<svg class="mini-svg" viewBox="0 0 40 40" aria-hidden="true">`
    + `<rect x="1" y="1" width="38" height="38" rx="4" fill="#333"/>`
    + `<text x="20" y="21" font-size="22" text-anchor="middle" dominant-baseline="central" fill="#ffd54f">★</text></svg>`;
}

/**
 * A team's chip: told apart by shape as well as colour (circle, square, triangle),
 * colours from the Okabe-Ito palette that colour-blind players tell apart.
 */
export const TEAM_COLOURS = ["#0072B2", "#009E73", "#D55E00"];   // RULES 2.2: blue, green, red
export const TEAM_SHAPES = ["●", "■", "▲"];

export function chipSVG(team, inSequence = false) {
  const c = TEAM_COLOURS[team % 3];
  const ring = inSequence ? `<circle cx="20" cy="20" r="19" fill="none" stroke="#ffd600" stroke-width="3"/>` : "";
  let shape;
  if (team === 0) shape = `<circle cx="20" cy="20" r="13" fill="${c}" stroke="#fff" stroke-width="2"/>`;
  else if (team === 1) shape = `<rect x="8" y="8" width="24" height="24" rx="2" fill="${c}" stroke="#fff" stroke-width="2"/>`;
  else shape = `<polygon points="20,5 35,33 5,33" fill="${c}" stroke="#fff" stroke-width="2"/>`;
  return `<svg class="chip-svg" viewBox="0 0 40 40" aria-hidden="true">${ring}${shape}</svg>`;
}

/** Sort a hand by suit (S H D C), high card first within a suit. */
export function sortBySuit(cards, trumpsFirst = null) {
  const order = trumpsFirst ? trumpsFirst + SUITS.replace(trumpsFirst, "") : SUITS;
  const high = "23456789TJQKA";
  return [...cards].sort((a, b) => order.indexOf(suitOf(a)) - order.indexOf(suitOf(b))
    || high.indexOf(rankOf(b)) - high.indexOf(rankOf(a)));
}
