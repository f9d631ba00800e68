// 找朋友 (Finding Friends) on the table: 4 to 8 seats, the banker's friend calls and who
// answered them, each seat's side as far as it is known, per-player levels. Pure helpers
// of (view, room); the live room and the replayer both use them.

import { el } from "./dom.js";
import { lang, suitSymbol, t } from "./i18n.js";

// Whether a view (or a room's options) plays 找朋友.
export function isFriends(view, room) {
  return Array.isArray(view && view.calls) || !!(room && room.options && room.options.friends);
}

// The number of seats at the table.
export function seatCount(view, room) {
  return (view && view.players) || (room && room.seats && room.seats.length) || 4;
}

// The colour class of a seat's name: its team (fixed partnerships), or in 找朋友 its side
// as known now (side0: the banker's, side1: the collectors', sideu: not yet known).
export function teamClass(view, s) {
  if (s === null || s === undefined) return "";
  if (view && Array.isArray(view.sides)) {
    const side = view.sides[s];
    return side === 0 || side === 1 ? `side${side}` : "sideu";
  }
  return `team${s % 2}`;
}

// "2nd" / "第2张"
export function ordinalText(n) {
  if (lang === "zh") return `第${n}张`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] || "th"}`;
}

// A card for a sentence: ♠A (jokers never are called).
export const cardWord = (c) => `${suitSymbol(c[0])}${c.slice(1)}`;

// "SA:2" as words: "the 2nd ♠A" / "第2张♠A" (plain text).
export function callText(call) {
  const [card, ord] = String(call).split(":");
  const n = Number(ord || 1);
  return lang === "zh" ? `${ordinalText(n)}${cardWord(card)}` : `the ${ordinalText(n)} ${cardWord(card)}`;
}

// The same as an element, the suit in its colour.
export function callChip(call) {
  const [card, ord] = String(call).split(":");
  const red = card[0] === "H" || card[0] === "D";
  const face = el("b", { class: `callcard${red ? " red" : ""}` }, cardWord(card));
  return lang === "zh" ? el("span", { class: "callwords" }, ordinalText(Number(ord || 1)), face)
    : el("span", { class: "callwords" }, `${ordinalText(Number(ord || 1))} `, face);
}

// The seats on the banker's side as known now.
export function bankerSide(view) {
  return (view.sides || []).map((s, i) => (s === 0 ? i : null)).filter((i) => i !== null);
}

// Which seats won a finished hand (a score sheet row): the banker's side when the next
// banker comes from it (the next banker is always from the winning side), else the rest.
export function winnersOf(r, n) {
  const side = Array.isArray(r.banker_side) ? r.banker_side : [r.banker];
  const bankerWon = side.includes(r.next_banker);
  return [...Array(n).keys()].filter((s) => side.includes(s) === bankerWon);
}

// The friend calls, for the status bar: each call and who answered it (a name, or "?").
export function callsPanel(view, room, nameOf) {
  const calls = view.calls || [];
  let body;
  if (!calls.length) {
    body = el("span", { class: "muted" }, view.phase === "call" ? t("callsComing", { name: nameOf(view.banker) })
      : t("callsLater"));
  } else {
    body = calls.map((c) => el("span", { class: `call${c.seat === null || c.seat === undefined ? "" : " found"}`, "data-call": c.call },
      callChip(c.call), " → ",
      c.seat === null || c.seat === undefined ? el("i", { class: "muted" }, t("notYetFound"))
        : [el("b", { class: teamClass(view, c.seat) }, nameOf(c.seat)), el("span", { class: "tick" }, " ✓")]));
  }
  return el("div", { class: "st calls", id: "calls", title: t("callsTitle") },
    el("small", {}, t("calls")), el("span", { class: "calllist" }, body));
}

// What changed in the calls between two views of the same hand: a line for each call
// that the last trick answered (a friend found, or a call that found nobody new).
export function revealed(prev, view, nameOf, me = null) {
  if (!prev || !view || prev.hand_number !== view.hand_number) return [];
  const before = prev.calls || [], now = view.calls || [];
  const out = [];
  now.forEach((c, i) => {
    const was = before[i];
    if (c.seat === null || c.seat === undefined || (was && was.seat !== null && was.seat !== undefined)) return;
    const known = c.seat === view.banker || (prev.sides || [])[c.seat] === 0;
    const params = { name: nameOf(c.seat), call: callText(c.call), banker: nameOf(view.banker) };
    // told to you as "you": the banker's side is "your side", your own card "you played"
    const key = known ? "callNoFriend" : c.seat === me ? "friendFoundMe" : view.banker === me ? "friendFoundYou" : "friendFound";
    out.push({ seat: c.seat, joined: !known, text: t(key, params) });
  });
  return out;
}

// The calls just made (the banker called): one line.
export function announced(prev, view, nameOf, me = null) {
  if (!view || !(view.calls || []).length) return null;
  if (prev && prev.hand_number === view.hand_number && (prev.calls || []).length) return null;
  if (!prev) return null;
  const calls = view.calls.map((c) => callText(c.call)).join(lang === "zh" ? "、" : ", ");
  return t(view.banker === me ? "youCalled" : "bankerCalled", { name: nameOf(view.banker), calls });
}

// How many friends the banker calls (the option, else one fewer than half the players).
export function callsNeeded(room) {
  const o = (room && room.options) || {};
  return o.friend_calls || Math.max(1, Math.floor((o.players || 4) / 2) - 1);
}

// The banker's default calls: an ace of each plain suit they do not hold every copy of
// (the next copy), then kings, then queens; `callable` the allowed cards.
export function suggestCalls(hand, callable, need, decks, isTrump = () => false) {
  // plain suits first: a trump-suit card may be called, but rarely finds a friend early
  callable = [...callable.filter((c) => !isTrump(c)), ...callable.filter((c) => isTrump(c))];
  const held = new Map();
  for (const c of hand) held.set(c, (held.get(c) || 0) + 1);
  const out = [];
  for (const rank of ["A", "K", "Q"]) {
    for (const c of callable) {
      if (out.length >= need) return out;
      if (c.slice(1) !== rank || (held.get(c) || 0) >= decks) continue;
      out.push({ card: c, ord: (held.get(c) || 0) + 1 });
    }
  }
  for (const c of callable) {
    if (out.length >= need) break;
    if (!out.some((x) => x.card === c)) out.push({ card: c, ord: Math.min(decks, (held.get(c) || 0) + 1) });
  }
  return out;
}
