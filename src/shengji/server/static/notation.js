// Card notation for the table: splitting card text, the points a card carries, and which
// cards are trumps now. Every rule is decided on the server: the view says which cards
// are trumps (`view.trumps`), which play is winning (`view.winning`), and sends hands
// sorted in trump order; this module only reads those.

export const TRUMP = 4;

export function splitCards(s) {
  return (s || "").split(/\s+/).filter(Boolean);
}

export function cardPoints(text) {
  if (text === "LJ" || text === "BJ") return 0;
  const r = text.slice(1);
  return r === "5" ? 5 : r === "10" || r === "K" ? 10 : 0;
}

// What the table needs of the trump context: isTrump(card) and the card's effective suit
// (0..3 for S H C D, 4 for trumps). `view` is a seat's view (or anything with `trumps`).
export function contextOf(view) {
  const trumps = new Set(splitCards(view && view.trumps));
  const isTrump = (c) => trumps.has(c);
  return { isTrump, suit: (c) => (isTrump(c) ? TRUMP : "SHCD".indexOf(c[0])) };
}
