// The replayer of a finished match: steps action by action through the table view
// (GET /api/rooms/{id}/replay/views?seat=N), with the narration as a fallback.

import { cardRow } from "./cards.js";
import { el, fill, setText } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";
import {
  contextOf, felt, fetchReview, handFan, handResult, matchEnd, reviewPanel, seatName, statusBar,
} from "./table.js";

let P = null;

export function leaveReplay() {
  if (P) { clearInterval(P.auto); document.removeEventListener("keydown", P.onKey); }
  P = null;
}

export async function replayPage(app, id) {
  leaveReplay();
  P = { app, id, seat: null, views: null, actions: [], room: null, i: 0, auto: null, reviews: {}, review: null };
  P.onKey = (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes((e.target && e.target.tagName) || "")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); go(stepFrom(P.i, 1)); }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(stepFrom(P.i, -1)); }
  };
  document.addEventListener("keydown", P.onKey);
  fill(app, el("section", { class: "panel replay" }, el("h2", {}, t("replayTitle")), el("p", { class: "muted" }, "…")));
  await load();
}

export function replayLangChanged() { if (P) { if (P.views) draw(); else load(); } }

async function load() {
  const mine = P;
  if (P.seat === null) { const saved = savedRoom(); P.seat = saved && Number.isInteger(saved.you) ? saved.you : 0; } // your own seat first
  const r = await fetch(`/api/rooms/${P.id}/replay/views?seat=${P.seat}`).catch(() => null);
  if (P !== mine) return;
  if (r && r.ok) {
    const data = await r.json();
    P.views = data.views || [];
    P.actions = data.actions || [];
    P.room = data.room || savedRoom() || { seats: [] };
  } else if (r && [403, 404].includes(r.status)) {
    // no such room, or a match not over yet: say so, with no narration to fall back on
    const body = await r.json().catch(() => null);
    if (P !== mine) return;
    const err = body && body.detail && body.detail.code ? body.detail : { code: r.status === 404 ? "NO_ROOM" : "NOT_FINISHED" };
    fill(P.app, el("section", { class: "panel replay", id: "replaypanel" }, el("h2", {}, t("replayTitle")),
      el("p", { class: "msg", id: "replaymsg", "data-code": err.code }, errorText(err)),
      err.code === "NO_ROOM" ? el("a", { class: "button ghost", id: "home", href: "/" }, t("toHome")) : links()));
    return;
  }
  if (P.views && P.views.length) {
    P.i = Math.min(P.i, P.views.length - 1);
    draw();
    return;
  }
  // last resort: the narration
  const n = await fetch(`/api/rooms/${P.id}/replay?lang=${lang}`).catch(() => null);
  if (P !== mine) return;
  const data = n && n.ok ? await n.json() : null;
  fill(P.app, el("section", { class: "panel replay", id: "replaypanel" }, el("h2", {}, t("replayTitle")),
    data ? el("pre", { id: "replay" }, data.lines.join("\n")) : el("p", { class: "msg" }, t("replayUnavailable")),
    links()));
}

// The names the room page saw (kept for its replay), if this browser was there.
function savedRoom() {
  try {
    const s = JSON.parse(sessionStorage.getItem(`shengji:room:${P.id}`) || localStorage.getItem(`shengji:room:${P.id}`) || "null");
    return s && Array.isArray(s.seats) ? s : null;
  } catch (_) { return null; }
}

function links() {
  return el("div", { class: "row" },
    el("a", { class: "button ghost", href: `/api/rooms/${P.id}/record`, download: `shengji-${P.id}.json` }, t("record")),
    el("a", { class: "button ghost", href: `/room/${P.id}` }, "↩"));
}

function roomLike() {
  const room = P.room || {};
  return {
    seats: room.seats || [...Array(((P.views || [])[0] || {}).players || 4).keys()].map((i) => ({ kind: "human", name: `${t("seat")} ${i + 1}` })),
    options: room.options || {}, host_seat: null,
  };
}

function caption(i) {
  if (i === 0) return "";
  const a = P.actions[i - 1];
  if (!a) return "";
  if (a.type === "result") {
    const v = P.views[i];
    return el("b", {}, v.phase === "match_over" ? t("matchOver") : t("handOver", { n: v.hand_number + 1 }));
  }
  if (a.type === "deal") {
    const v = P.views[i];
    return el("span", {}, t("dealingShort", { n: a.dealt, total: v.deal_total || a.dealt }));
  }
  const who = seatName(roomLike(), a.seat);
  const words = { declare: t("declareWith"), pass: t("pass"), bury: t("bury", { n: "" }).trim(), play: t("play"), continue: t("nextHand") };
  return el("span", {}, el("b", {}, who), " ", words[a.type] || a.type, " ", a.cards ? cardRow(a.cards, { size: "mini" }) : null);
}

function handStarts() {
  const out = [0];
  P.views.forEach((v, i) => { if (i && v.hand_number !== P.views[i - 1].hand_number) out.push(i); });
  return out;
}

// One step back or on: the table's deal rounds in a row are one step (to their last).
function stepFrom(i, dir) {
  const isDeal = (j) => j > 0 && (P.actions[j - 1] || {}).type === "deal";
  let j = i + dir;
  while (isDeal(j) && isDeal(j + 1) && j + 1 < P.views.length) j += 1;
  if (dir < 0) while (isDeal(j) && isDeal(j - 1)) j -= 1;
  return j;
}

function go(i) {
  if (!P || !P.views) return;
  P.i = Math.max(0, Math.min(P.views.length - 1, i));
  draw();
}

// "Review this hand": the seat's marked plays in the hand on show (kept per seat and hand).
function startReview(hand, retry = false) {
  const key = `${P.seat}:${hand}`;
  const mine = P;
  P.review = key;
  if (!P.reviews[key] || (retry && P.reviews[key].status === "error")) {
    const rv = { seat: P.seat, hand, status: "loading", marks: [], error: null };
    P.reviews[key] = rv;
    fetchReview(P.id, P.seat, hand, null)
      .then((marks) => { rv.marks = marks; rv.status = "done"; })
      .catch((err) => { rv.error = err; rv.status = "error"; })
      .finally(() => { if (P === mine && P.review === key) draw(); });
  }
  draw();
  const box = document.getElementById("reviewbox");
  if (box && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
}

function reviewBox() {
  const rv = P.review ? P.reviews[P.review] : null;
  if (!rv || rv.seat !== P.seat) return null;
  return el("div", { class: "panel reviewbox", id: "reviewbox" }, reviewPanel(rv, {
    room: roomLike(), current: P.i,
    ctx: rv.marks.length && P.views[rv.marks[0].view] ? contextOf(P.views[rv.marks[0].view], roomLike()) : null, retry: () => startReview(rv.hand, true),
    onPick: (m) => {
      go(m.view);
      const f = document.getElementById("felt");
      if (f && f.scrollIntoView) f.scrollIntoView({ block: "nearest" });
    },
  }));
}

function draw() {
  const v = P.views[P.i];
  const room = roomLike();
  const starts = handStarts();
  const prevHand = [...starts].reverse().find((s) => s < P.i) ?? 0;
  const nextHand = starts.find((s) => s > P.i) ?? P.views.length - 1;
  const seatSel = el("select", { id: "replayseat", "aria-label": t("asSeat") },
    room.seats.map((_, s) => el("option", { value: s, selected: s === P.seat }, seatName(room, s))));
  seatSel.addEventListener("change", () => { P.seat = Number(seatSel.value); load(); });
  const slider = el("input", { type: "range", id: "replayslider", min: 0, max: P.views.length - 1, value: P.i });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const ctx = contextOf(v, room);
  fill(P.app, el("section", { class: "panel replay", id: "replaypanel" },
    el("h2", {}, t("replayTitle")),
    el("div", { class: "row replaybar" },
      el("button", { class: "ghost", id: "rp-prevhand", onclick: () => go(prevHand) }, t("prevHand")),
      el("button", { class: "ghost", id: "rp-prev", onclick: () => go(stepFrom(P.i, -1)) }, t("prev")),
      el("button", { id: "rp-next", onclick: () => go(stepFrom(P.i, 1)) }, t("next")),
      el("button", { class: "ghost", id: "rp-nexthand", onclick: () => go(nextHand) }, t("nextHand2")),
      el("label", {}, t("asSeat"), " ", seatSel),
      el("button", { class: "ghost", id: "rp-review", onclick: () => startReview(v.hand_number) }, t("reviewHand"))),
    slider,
    el("div", { class: "row" }, el("small", { id: "replaystep" }, t("step", { i: P.i, n: P.views.length - 1 })),
      el("span", { id: "replaycaption", class: "caption" }, caption(P.i))),
    statusBar(v, room, P.seat, true),
    felt(v, room, P.seat, { watching: true }),
    v.hand ? el("div", { class: "panel handpanel" }, el("div", { class: "hand", id: "hand" },
      handFan(v.hand.split(" ").filter(Boolean), ctx))) : null,
    reviewBox(),
    ["hand_over", "match_over"].includes(v.phase) && (v.score_sheet || []).length ? el("div", { class: "panel" },
      v.phase === "match_over" ? matchEnd(v, room) : null, handResult(v, room)) : null,
    links()));
  setText(document.getElementById("replaystep"), t("step", { i: P.i, n: P.views.length - 1 }));
}
