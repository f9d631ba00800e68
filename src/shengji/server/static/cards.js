// Cards drawn with HTML and CSS (no images): a corner index that stays readable when cards
// overlap in a fan, a large centre pip, a gold edge on trumps.

import { el } from "./dom.js";
import { lang, suitSymbol, t } from "./i18n.js";
import { splitCards } from "./notation.js";

const RED = new Set(["H", "D"]);

export function cardTitle(text) {
  if (text === "BJ") return t("bigJoker");
  if (text === "LJ") return t("littleJoker");
  const suit = { S: "suit_S", H: "suit_H", C: "suit_C", D: "suit_D" }[text[0]];
  return lang === "zh" ? `${t(suit)}${text.slice(1)}` : `${text.slice(1)} of ${t(suit)}`;
}

// One card. opts: size ("hand" | "table" | "mini"), trump, sel, fresh (from the kitty),
// cursor (keyboard), onclick.
export function cardEl(text, opts = {}) {
  const joker = text === "BJ" || text === "LJ";
  const red = joker ? text === "BJ" : RED.has(text[0]);
  const cls = ["card", opts.size || "table", red ? "red" : "black", joker ? "joker" : `s-${text[0]}`,
    opts.trump ? "trump" : "", opts.sel ? "sel" : "", opts.fresh ? "fresh" : "",
    opts.cursor ? "cursor" : "", opts.points ? "pts" : ""].filter(Boolean).join(" ");
  let idx, pip;
  if (joker) {
    const word = text === "BJ" ? (lang === "zh" ? "大" : "B") : (lang === "zh" ? "小" : "L");
    idx = el("span", { class: "idx" }, el("b", {}, "★"), el("i", {}, word));
    const face = lang === "zh" ? (text === "BJ" ? "大王" : "小王") : "JOKER";
    pip = el("span", { class: `pip jk${lang === "zh" ? " zh" : ""}` }, face);
  } else {
    const s = suitSymbol(text[0]);
    idx = el("span", { class: "idx" }, el("b", {}, text.slice(1)), el("i", {}, s));
    pip = el("span", { class: "pip" }, s);
  }
  const node = el(opts.onclick ? "button" : "span", {
    class: cls, "data-card": text, title: cardTitle(text), type: opts.onclick ? "button" : null,
    "aria-pressed": opts.onclick ? String(!!opts.sel) : null, tabindex: opts.onclick ? "-1" : null,
  }, idx, pip, opts.trump ? el("span", { class: "tmark", "aria-hidden": "true" }) : null);
  if (opts.onclick) node.addEventListener("click", opts.onclick);
  return node;
}

// A row of overlapping cards (a play, the kitty, a declaration).
export function cardRow(cards, opts = {}) {
  const list = Array.isArray(cards) ? cards : splitCards(cards);
  const isTrump = opts.ctx ? (c) => opts.ctx.isTrump(c) : () => false;
  return el("span", { class: `row-cards ${opts.size || "table"}${opts.loose ? " loose" : ""}` },
    list.map((c) => cardEl(c, { size: opts.size || "table", trump: opts.markTrump && isTrump(c),
      points: opts.markPoints })));
}
