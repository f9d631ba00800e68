// The live room: lobby, table, hand, results and chat, updated in place from `state` and
// `chat` messages. Inputs (chat, the public switch) are made once and never re-created.

import { setSound, soundOn, turnCame, turnTitle } from "./alert.js";
import { botDescription, botInfo, botLevel, botName, botOptions, loadBots } from "./bots.js";
import { cardRow } from "./cards.js";
import { el, fill, setText } from "./dom.js";
import { announced, callChip, callsNeeded, callText, isFriends, ordinalText, revealed, suggestCalls, teamClass } from "./friends.js";
import { errorText, lang, onLang, pick, presetTitle, suitSymbol, t, tn } from "./i18n.js";
import { getSaved, hostKey, Link, save, tokenKey } from "./net.js";
import { splitCards } from "./notation.js";
import { presetSchema, rulesSummary } from "./rules.js";
import { onSettings } from "./settings.js";
import {
  cardsText, contextOf, declarationsPanel, felt, fetchReview, handFan, handLog, handResult, matchEnd, reviewPanel, scoreSheet, seatName, statusBar,
  trickRows, withNames,
} from "./table.js";

const HOLD_MS = 1200; // a finished trick stays at least this long unless it is your turn
const REVEAL_MS = 7000; // how long a friend found (or the calls made) is told on the felt
const DECLARE_PHASES = ["deal", "before_kitty", "after_burial"];

let R = null; // the room page's state

export function leaveRoom() {
  if (R && R.link) R.link.close();
  if (R) { clearInterval(R.tick); clearTimeout(R.noteTimer); clearTimeout(R.revealTimer); document.removeEventListener("keydown", R.onKey); }
  if (R) turnTitle(false);
  if (R && R.barObserver) R.barObserver.disconnect();
  document.documentElement.style.removeProperty("--bar-h");
  R = null;
}

export function roomPage(app, roomId) {
  leaveRoom();
  R = {
    id: roomId, app, link: null, state: null, chatKeys: new Set(), selected: new Set(), cursor: 0,
    handKey: null, rule: null, lobbyMsg: null, chatMsg: null, offset: 0, held: null, overlay: null,
    conn: "idle", connInfo: {}, lastTricks: 0, pressedNext: null, built: false, mine: false,
    reviewHold: null, // the hand after which our open review holds the next hand
  };
  window.shengjiState = null;
  window.shengjiRoom = R; // read by the browser tests
  loadBots().then(() => { if (R && R.app === app) render(); }); // bots named with their level
  const resume = getSaved(tokenKey(roomId));
  let quick = false;
  try { quick = sessionStorage.getItem(`shengji:quick:${roomId}`) === "1"; sessionStorage.removeItem(`shengji:quick:${roomId}`); } catch (_) { /* no quick start */ }
  if (resume) startLink(null);
  else if (quick) {
    // a quick game: sit down under the saved name, get ready and start at once
    R.quick = true;
    const key = getSaved(hostKey(roomId));
    startLink({ type: "join", name: getSaved("shengji:name") || (lang === "zh" ? "玩家" : "Player"), spectate: false, ...(key ? { host_key: key } : {}) });
  } else joinForm();
}

// The join form, with what the link's table plays by and who sits there; a link to a
// table that does not exist says so at once.
async function joinForm(note) {
  const mine = R;
  fill(R.app, el("section", { class: "panel join" }, el("h2", {}, t("joinTitle")), el("p", { class: "muted" }, "…")));
  const r = await fetch(`/api/rooms/${encodeURIComponent(R.id)}`).catch(() => null);
  const info = r && r.ok ? await r.json().catch(() => null) : null;
  if (R !== mine) return;
  if (r && r.status === 404) {
    fill(R.app, el("section", { class: "panel join", id: "nosuchroom" }, el("h2", {}, t("conn_gone")),
      el("a", { class: "button", id: "home", href: "/" }, t("toHome"))));
    return;
  }
  const [schema] = await Promise.all([info ? presetSchema(info.preset) : null, loadBots()]); // bots named with their level
  if (R !== mine) return;
  const name = el("input", { id: "name", maxlength: 40, autocomplete: "nickname", placeholder: t("name"),
    value: getSaved("shengji:name") || "" });
  const go = (spectate) => {
    const n = name.value.trim() || (lang === "zh" ? "玩家" : "Player");
    save("shengji:name", n);
    const join = { type: "join", name: n, spectate };
    const key = getSaved(hostKey(R.id));
    if (key && !spectate) join.host_key = key;
    startLink(join);
  };
  const started = info && info.status !== "lobby";
  const full = info && !started && info.seats.every((s) => s.kind !== "empty");
  const canSit = !started && !full;
  const why = note || (started ? t("joinFull") : full ? t("seatsFull") : null);
  name.addEventListener("keydown", (e) => { if (e.key === "Enter") go(!canSit); });
  fill(R.app, el("section", { class: "panel join" }, el("h2", {}, t("joinTitle")),
    why ? el("p", { class: "msg", id: "joinmsg" }, why) : null,
    el("div", { class: "row" }, name,
      canSit ? el("button", { id: "join", onclick: () => go(false) }, t("join")) : null,
      el("button", { id: "watch", class: canSit ? "ghost" : "", onclick: () => go(true) }, t("watch"))),
    info ? el("div", { class: "joininfo" }, rulesSummary(info, schema),
      el("div", { class: "small", id: "joinseats" }, `${t("roomSeats")}: `,
        info.seats.map((s, i) => `${i ? " · " : ""}${seatName(info, i)}`))) : null));
  name.focus();
}

function startLink(join) {
  buildLayout();
  R.link = new Link(R.id, {
    state: onState, chat: onChat, ack: onAck, error: onError, notice: onNotice,
    status: (s, info) => { R.conn = s; R.connInfo = info; renderConn(); renderActions(); },
  });
  R.link.start(join);
}

// -- layout, made once ---------------------------------------------------------------------
function buildLayout() {
  if (R.built) return;
  R.built = true;
  const input = el("input", { id: "chat", maxlength: 500, autocomplete: "off", placeholder: t("say"),
    "aria-label": t("chat") });
  input.value = sessionStorage.getItem(`shengji:draft:${R.id}`) || "";
  input.addEventListener("input", () => sessionStorage.setItem(`shengji:draft:${R.id}`, input.value));
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); say(); } });
  const pub = el("input", { type: "checkbox", id: "public" });
  pub.addEventListener("change", () => {
    const id = R.link && R.link.send({ type: "set_public", public: pub.checked });
    if (!id) pub.checked = !pub.checked;
  });
  R.inputs = { chat: input, pub };
  fill(R.app, el("div", { class: "room", id: "room" },
    el("div", { class: "roomhead", id: "roomhead" },
      el("span", { id: "roomtitle", class: "roomtitle" }), el("span", { id: "conn", class: "conn", role: "status" }),
      el("span", { id: "invite", class: "invite" }),
      el("button", { id: "sound", class: "ghost small soundbtn", onclick: toggleSound }),
      el("label", { id: "publicbox", class: "publicbox", hidden: true }, pub, el("span", { id: "publiclabel" }, t("publicRoom")))),
    el("div", { id: "banner", class: "banner", role: "alert", hidden: true }),
    el("div", { class: "room-main" },
      el("div", { class: "room-left" },
        el("section", { id: "lobby", class: "panel", hidden: true }),
        el("div", { id: "statusbox" }),
        el("div", { id: "feltbox" }),
        el("section", { id: "handpanel", class: "panel handpanel", hidden: true }),
        el("section", { id: "resultbox", class: "panel", hidden: true })),
      el("aside", { class: "room-side" },
        el("section", { id: "declbox", class: "panel", hidden: true }),
        el("section", { id: "sheetbox", class: "panel", hidden: true }),
        el("section", { class: "panel chatpanel", id: "chatpanel" },
          el("h3", { id: "chattitle" }, t("chat")),
          el("div", { class: "chatlog", id: "chatlog", role: "log", "aria-live": "polite" }),
          el("div", { class: "msg", id: "chatmsg" }),
          el("div", { class: "chatrow" }, input, el("button", { id: "send", class: "ghost", onclick: say }, t("send")))))),
    el("div", { id: "overlay", class: "overlay", hidden: true, onclick: (e) => { if (e.target.id === "overlay") closeOverlay(); } })));
  R.tick = setInterval(tickTimers, 250);
  R.onKey = onKey;
  document.addEventListener("keydown", R.onKey);
}

onSettings(() => { if (R && R.built) renderSound(); });

onLang(() => {
  if (!R || !R.built) return;
  R.inputs.chat.placeholder = t("say");
  R.inputs.chat.setAttribute("aria-label", t("chat"));
  setText(document.getElementById("chattitle"), t("chat"));
  setText(document.getElementById("send"), t("send"));
  setText(document.getElementById("publiclabel"), t("publicRoom"));
  renderChat(true);
  render();
});

// -- messages ------------------------------------------------------------------------------
function onState(msg) {
  const prev = R.state;
  R.state = msg;
  window.shengjiState = msg;
  if (msg.room && typeof msg.room.now === "number") R.offset = msg.room.now - Date.now() / 1000;
  if (Array.isArray(msg.chat)) onChat(msg.chat); // servers before the chat message
  const v = msg.view;
  if (v && prev && prev.view) noteFriends(prev.view, v, msg.room);
  if (v) {
    const key = `${v.hand_number}|${v.phase === "bury" ? "b" : ""}|${v.hand || ""}|${v.trump}|${v.level}`;
    if (key !== R.handKey) { R.handKey = key; R.selected = new Set(); R.cursor = Math.min(R.cursor, Math.max(0, splitCards(v.hand).length - 1)); if (R.rule && R.rule.kind !== "act") R.rule = null; }
    const n = (v.tricks || []).length;
    if (n > R.lastTricks) R.held = { count: n, since: Date.now() };
    R.lastTricks = n;
    if (v.phase !== "hand_over") R.pressedNext = null;
    if (R.reviewHold !== null && (v.phase !== "hand_over" || v.hand_number !== R.reviewHold)) R.reviewHold = null;
  }
  const mine = !!v && msg.you.seat !== null && v.to_act === msg.you.seat
    && !["hand_over", "match_over"].includes(v.phase);
  if (mine && !R.mine) turnCame();
  R.mine = mine;
  if (R.queued && (!v || v.hand_number !== R.queued.hand || v.phase !== "play")) R.queued = null;
  if (R.queued && mine) playQueued();
  // 找朋友: the banker's call dialog opens by itself once a hand; it closes when the calls are made
  if (mine && v.phase === "call" && R.callOpened !== v.hand_number) { R.callOpened = v.hand_number; R.overlay = "call"; }
  if (R.overlay === "call" && !(mine && v.phase === "call")) { R.overlay = null; const o = document.getElementById("overlay"); if (o) { o.hidden = true; fill(o); } }
  if (prev && prev.room.status === "lobby" && msg.room.status !== "lobby") R.lobbyMsg = null;
  if (msg.room.status === "finished" && (!prev || prev.room.status !== "finished")) {
    const keep = JSON.stringify({ seats: msg.room.seats, options: msg.room.options, host_seat: msg.room.host_seat, you: msg.you.seat });
    try { localStorage.setItem(`shengji:room:${R.id}`, keep); } catch (_) { /* the replay names seats by number */ }
  }
  render();
}

// Play when my turn comes: the cards chosen before the turn are played as soon as it comes
// (the server says whether they are legal then: if not, the selection is cleared and why
// is said).
function playQueued() {
  const cards = R.queued.cards;
  R.queued = null;
  R.selected = positionsOf(myHand(), cards);
  R.queuedCmd = { type: "act", action: { type: "play", cards } };
  R.rule = null;
  send(R.queuedCmd);
}

function queuePlay() {
  R.queued = { hand: R.state.view.hand_number, cards: chosen() };
  renderActions();
}

function takeBack() {
  R.rule = null;
  renderRule();
  send({ type: "take_back" });
}

// 找朋友: the calls just made, and each friend found by the trick that just ended, told on
// the felt for a while (the found seat glows) and kept in the chat log.
function noteFriends(before, v, room) {
  const nameOf = (s) => (s === R.state.you.seat ? t("you") : seatName(room, s));
  const lines = [];
  const made = announced(before, v, (s) => seatName(room, s), R.state.you.seat);
  if (made) lines.push({ text: made, seat: null, joined: null, key: "bankerCalled" });
  for (const r of revealed(before, v, nameOf, R.state.you.seat)) lines.push({ ...r, key: r.joined ? "friendFound" : "callNoFriend" });
  if (!lines.length) return;
  R.reveal = { lines, until: Date.now() + REVEAL_MS };
  const now = Date.now() / 1000 + R.offset;
  let moved = false;
  for (const line of lines) moved = addLine({ time: now, seat: null, notice: line.text }, `f|${now}|${line.text}`) === "moved" || moved;
  renderChat(moved);
  clearTimeout(R.revealTimer);
  R.revealTimer = setTimeout(() => { if (R && R.state) renderFelt(); }, REVEAL_MS + 20);
}

// A line of the chat log, kept in time order (the tail sent on joining may be older than
// a notice that came first); "moved" when it went before the last line.
function addLine(line, key) {
  if (R.chatKeys.has(key)) return false;
  R.chatKeys.add(key);
  const lines = (R.chatLines ||= []);
  let i = lines.length;
  while (i > 0 && lines[i - 1].time > line.time) i -= 1;
  lines.splice(i, 0, line);
  return i < lines.length - 1 ? "moved" : true;
}

function onChat(lines) {
  let added = false, moved = false;
  for (const line of lines) {
    // what the table did by itself is kept in the log too (its key: when it was told)
    const got = addLine(line, line.notice ? `n|${line.time}` : `${line.time}|${line.seat}|${line.name}|${line.text}`);
    added = added || !!got;
    moved = moved || got === "moved";
  }
  if (added) renderChat(moved);
}

// What the table did by itself (a timed-out turn, moves made while you were away): a line
// of the chat log, in the page's language, and a note on the felt for a while (where it
// happened: on a phone the chat is far below).
const NOTE_MS = 8000;

function onNotice(msg) {
  const time = typeof msg.time === "number" ? msg.time : Date.now() / 1000 + R.offset;
  renderChat(addLine({ time, seat: null, notice: msg.text }, `n|${time}`) === "moved");
  R.note = { text: msg.text, until: Date.now() + NOTE_MS };
  clearTimeout(R.noteTimer);
  R.noteTimer = setTimeout(() => { if (R && R.state) renderFelt(); }, NOTE_MS + 20);
  if (R.state) renderFelt();
}

function onAck(msg, req) {
  if (!req) return;
  if (req.type === "check") {
    if (msg.legal && R.rule && R.rule.kind === "check-wait") {
      // a throw (甩牌) is legal to try, but not sure to stand: say so, never "✓"
      R.rule = msg.throw ? { kind: "throw", text: t("throwWarn") } : { kind: "ok", text: t("legal") };
      renderRule();
    }
  } else if (req.type === "act") {
    if (req.action && req.action.type === "continue") R.pressedNext = R.state && R.state.view ? R.state.view.hand_number : 0;
  } else if (req.type === "chat") {
    R.chatMsg = null; renderChatMsg();
  } else if (req.type === "take_back") {
    R.selected = new Set(); R.rule = null; renderHand();
  } else if (req.type === "join") {
    render();
    if (R.quick) send({ type: "ready", ready: true });
  } else if (req.type === "ready" && R.quick) {
    R.quick = false;
    send({ type: "start" });
  } else if (req.type !== "ping") {
    R.lobbyMsg = null; renderLobby();
  }
}

function onError(msg, req) {
  const text = R.state ? withNames(errorText(msg), R.state.room) : errorText(msg);
  if (req && req.type === "reviewing") return; // the hand went on meanwhile: nothing to hold
  if (req && req.type === "join") {
    if (msg.code === "BAD_TOKEN") { R.link.close(); R.built = false; joinForm(text); return; }
    if (["ROOM_STARTED", "ROOM_FULL", "SEAT_TAKEN"].includes(msg.code)) {
      R.link.close(); R.built = false; joinForm(text); return;
    }
  }
  if (!req) { R.lobbyMsg = text; renderLobby(); return; }
  if (req.type === "check") {
    if (R.rule && R.rule.kind === "check-wait") { R.rule = { kind: "error", text, code: msg.code }; renderRule(); }
  } else if (req.type === "act" && req === R.queuedCmd) {
    // the preselected cards cannot be played now: cleared, and why is said
    R.selected = new Set();
    R.rule = { kind: "act", text: t("queuedFailed", { why: text }), code: msg.code };
    renderHand();
  } else if (req.type === "act" || req.type === "take_back") {
    R.rule = { kind: "act", text, code: msg.code };
    renderRule();
  } else if (req.type === "chat") {
    R.chatMsg = text; renderChatMsg();
  } else if (req.type !== "ping") {
    R.lobbyMsg = text; renderLobby();
  }
}

// -- commands ------------------------------------------------------------------------------
function send(cmd) { return R.link ? R.link.send(cmd) : null; }

function act(action) {
  clearTimeout(R.checkTimer);
  R.rule = null;
  renderRule();
  send({ type: "act", action });
}

function say() {
  const input = R.inputs.chat;
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: "chat", text })) {
    input.value = "";
    sessionStorage.removeItem(`shengji:draft:${R.id}`);
    R.stickChat = true;
  } else {
    R.chatMsg = t("lostAct"); renderChatMsg();
  }
}

function myHand() {
  const v = R.state && R.state.view;
  if (!v || !v.hand) return [];
  return splitCards(v.hand); // sorted in trump order by the server
}

function chosen() {
  const hand = myHand();
  return [...R.selected].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean).join(" ");
}

function toggle(i) {
  if (R.selected.has(i)) R.selected.delete(i); else R.selected.add(i);
  R.queued = null; // a changed selection is not what was queued
  R.cursor = i;
  if (R.rule && R.rule.kind !== "check-wait") R.rule = null;
  renderHand();
  scheduleCheck();
}

function scheduleCheck() {
  clearTimeout(R.checkTimer);
  const v = R.state && R.state.view;
  if (!v || v.to_act !== R.state.you.seat || !["play", "bury"].includes(v.phase) || !R.selected.size) {
    if (R.rule && R.rule.kind !== "act") { R.rule = null; renderRule(); }
    return;
  }
  if (v.phase === "bury" && R.selected.size !== kittySize()) { R.rule = null; renderRule(); return; }
  R.rule = { kind: "check-wait", text: "" };
  const cards = chosen();
  R.checkTimer = setTimeout(() => send({ type: "check", action: { type: v.phase, cards } }), 120);
}

function kittySize() {
  // burying: your hand holds the kitty on top of what every other seat holds
  const v = R.state.view, me = R.state.you.seat;
  const sizes = (v && v.hand_sizes) || [];
  const others = sizes.filter((_, i) => i !== me);
  if (v && v.phase === "bury" && others.length && sizes[me] > Math.min(...others)) return sizes[me] - Math.min(...others);
  const decks = (R.state.room.options || {}).decks || 2;
  return [6, 8, 6, 8][decks - 1] || 8;
}

// -- rendering -----------------------------------------------------------------------------
function render() {
  if (!R || !R.state || !R.built) return;
  const { room, view, you } = R.state;
  setText(document.getElementById("roomtitle"), presetTitle(room.preset));
  document.getElementById("room").dataset.status = room.status;
  document.getElementById("room").dataset.phase = view ? view.phase : "";
  turnTitle(R.mine);
  renderSound();
  renderInvite();
  renderConn();
  const pubBox = document.getElementById("publicbox");
  pubBox.hidden = !you.host;
  if (document.activeElement !== R.inputs.pub) R.inputs.pub.checked = !!room.public;
  renderBanner();
  renderLobby();
  const show = !!view;
  fill("statusbox", show ? statusBar(view, room, you.seat) : null);
  renderFelt();
  renderHand();
  renderResult();
  const decl = document.getElementById("declbox");
  const dp = show ? declarationsPanel(view, room) : null;
  const kb = show && you.seat !== null && (view.seen_kitty || []).length ? kittyButton() : null;
  decl.hidden = !dp && !kb;
  fill(decl, dp, kb);
  const sheet = document.getElementById("sheetbox");
  const seated = you.seat !== null && you.seat !== undefined;
  const reviews = seated;
  const sp = show ? scoreSheet(view, room, { me: you.seat, review: reviews ? (hand) => openReview(hand) : null }) : null;
  sheet.hidden = !sp;
  fill(sheet, sp);
  if (R.overlay) renderOverlay();
  tickTimers();
}

function toggleSound() {
  setSound(!soundOn());
  renderSound();
}

function renderSound() {
  const on = soundOn();
  const b = document.getElementById("sound");
  setText(b, "♪");
  b.classList.toggle("off", !on);
  b.title = t(on ? "soundOn" : "soundOff");
  b.setAttribute("aria-label", b.title);
  b.setAttribute("aria-pressed", on ? "true" : "false");
}

function renderInvite() {
  const url = `${location.origin}/room/${R.id}`;
  const box = document.getElementById("invite");
  if (box.dataset.url === url && box.dataset.lang === lang) return;
  box.dataset.url = url; box.dataset.lang = lang;
  const btn = el("button", { class: "ghost small", id: "copy", onclick: async () => {
    try { await navigator.clipboard.writeText(url); btn.textContent = t("copied"); } catch (_) { prompt(t("invite"), url); }
  } }, el("span", { class: "wide" }, t("copy")), el("span", { class: "narrow" }, t("copyInvite")));
  fill(box, el("small", { class: "wide" }, t("invite"), ": "), el("code", { id: "invitelink" }, url), " ", btn);
}

function renderConn() {
  const e = document.getElementById("conn");
  if (!e) return;
  let text, cls;
  if (R.conn === "open") { text = t("conn_open"); cls = "ok"; }
  else if (R.conn === "lost") {
    const n = Math.max(0, Math.ceil(((R.connInfo.until || 0) - Date.now()) / 1000));
    text = t("conn_lost", { n }); cls = "bad";
  } else if (R.conn === "gone") { text = t("conn_gone"); cls = "bad"; }
  else { text = t(R.conn === "retry" ? "conn_retry" : "conn_connecting"); cls = "wait"; }
  const specs = R.state ? R.state.room.spectators : 0;
  fill(e, el("span", { class: "dot", "aria-hidden": "true" }, "● "), el("span", { class: "ctext" }, text),
    specs ? el("span", { class: "specs" }, ` · ${tn("spectatorsN", specs)}`) : null);
  e.className = `conn ${cls}`;
  e.dataset.status = R.conn;
  renderBanner();
}

function renderBanner() {
  const b = document.getElementById("banner");
  if (!b) return;
  let text = null;
  if (R.conn === "lost" || R.conn === "retry") text = t("lostAct");
  else if (R.conn === "gone") text = t("conn_gone");
  else if (R.state && R.state.room.paused) text = t("paused");
  b.hidden = !text;
  setText(b, text || "");
}

const online = () => R.link && R.link.ready && R.conn === "open";

function renderLobby() {
  const box = document.getElementById("lobby");
  if (!box || !R.state) return;
  const { room, you } = R.state;
  const inLobby = room.status === "lobby";
  box.hidden = !inLobby;
  if (!inLobby) return;
  const friends = isFriends(null, room);
  const seats = room.seats.map((s, i) => {
    const kids = [el("span", { class: `seatno${friends ? "" : ` team${i % 2}`}` }, friends ? `${t("seat")} ${i + 1}` : `${t("seat")} ${i + 1} · ${t(i % 2 ? "teamB" : "teamA")}`),
      el("span", { class: "lname" }, s.kind === "empty" ? el("i", { class: "muted" }, t("empty")) : seatName(room, i),
        you.seat === i ? ` (${t("you")})` : "", room.host_seat === i ? ` ★` : "")];
    if (s.kind === "human") kids.push(el("span", { class: s.ready ? "ok" : "muted" }, s.ready ? `✓ ${t("isReady")}` : t("notYetReady")));
    if (s.kind === "bot") kids.push(botTag(s.bot, !you.host));
    const btns = [];
    if (s.kind === "empty" && you.seat !== null && you.seat !== i) btns.push(el("button", { class: "ghost small", onclick: () => lobbyCmd({ type: "sit", seat: i }) }, t("sitHere")));
    if (you.host && (s.kind === "empty" || s.kind === "bot")) btns.push(botMenu(i, s.kind === "bot" ? s.bot : null));
    if (you.host && s.kind === "bot") btns.push(el("button", { class: "ghost small", onclick: () => lobbyCmd({ type: "set_bot", seat: i, bot: null }) }, t("removeBot")));
    if (you.host && s.kind === "human" && you.seat !== i) btns.push(el("button", { class: "ghost small", onclick: () => lobbyCmd({ type: "kick", seat: i }) }, t("kick")));
    return el("li", { class: "lseat", "data-seat": i }, kids, el("span", { class: "btns" }, btns));
  });
  const controls = [];
  if (you.seat !== null) {
    const mine = room.seats[you.seat];
    controls.push(el("button", { id: "ready", class: mine.ready ? "ghost" : "", disabled: !online(),
      onclick: () => lobbyCmd({ type: "ready", ready: !mine.ready }) }, mine.ready ? t("notReady") : t("ready")));
  }
  if (you.host) {
    const canStart = room.seats.every((s) => s.kind !== "empty") && room.seats.every((s) => s.kind !== "human" || s.ready);
    controls.push(el("button", { class: "ghost", id: "randomize", disabled: !online(), onclick: () => lobbyCmd({ type: "randomize" }) }, t(friends ? "shuffleSeats" : "randomize")));
    controls.push(el("button", { id: "start", disabled: !canStart || !online(), "aria-disabled": String(!canStart),
      title: canStart ? null : t("startWhy"), onclick: () => lobbyCmd({ type: "start" }) }, t("start")));
    if (!canStart) controls.push(el("small", { class: "muted", id: "startwhy" }, t("startWhy")));
  }
  if (R.schemaFor !== room.preset) {
    R.schemaFor = room.preset;
    presetSchema(room.preset).then((sc) => { if (R && R.schemaFor === room.preset) { R.schema = sc; renderLobby(); } });
  }
  fill(box, el("h2", {}, t("lobby")), rulesSummary(room, R.schema || null), el("ul", { class: "lseats" }, seats),
    el("div", { class: "row" }, controls), el("div", { class: "msg", id: "lobbymsg", role: "alert" }, R.lobbyMsg || ""));
}

// Which bot sits in a lobby seat: its level and name (the host's menu shows them), then
// its description.
function botTag(name, withLevel) {
  const level = botLevel(name);
  return el("span", { class: "botkind", "data-bot": name, title: botDescription(name) },
    withLevel ? el("b", { class: "tag level" }, level ? t("botLevel", { level, name: botName(name) }) : botName(name)) : null,
    botInfo(name) ? el("small", { class: "muted botdesc" }, botDescription(name)) : null);
}

// The host's menu of a seat: add a bot to an empty seat, or change the bot sitting there.
function botMenu(seat, current) {
  const menu = el("select", { class: "small botmenu" + (current ? "" : " addbot"), id: `botmenu${seat}`, "data-seat": seat,
    "aria-label": t("botMenu", { n: seat + 1 }) },
    current ? null : el("option", { value: "", selected: true, disabled: true }, `${t("addBot")}…`), botOptions(current));
  menu.addEventListener("change", () => { if (menu.value && menu.value !== current) lobbyCmd({ type: "set_bot", seat, bot: menu.value }); });
  return menu;
}

function lobbyCmd(cmd) {
  R.lobbyMsg = null;
  if (!send(cmd)) R.lobbyMsg = t("lostAct");
  renderLobby();
}

// A trick that has just finished: "hold" (keep its cards on the table a moment) unless
// it is your turn, when the new trick is drawn and the winner is still named ("recent").
function holdState() {
  const v = R.state.view;
  if (!R.held || !v || R.held.count !== (v.tricks || []).length) return null;
  const left = R.held.since + HOLD_MS - Date.now();
  if (left <= 0) return null;
  clearTimeout(R.holdTimer);
  R.holdTimer = setTimeout(() => { if (R && R.state) renderFelt(); }, left + 10);
  return v.to_act === R.state.you.seat && v.phase === "play" ? "recent" : "hold";
}

function renderFelt() {
  const { view, room, you } = R.state;
  if (!view) { fill("feltbox"); return; }
  const lastBtn = el("button", { class: "ghost small", id: "lasttrick", onclick: () => openOverlay("last") }, t("lastTrick"));
  const logBtn = el("button", { class: "ghost small", id: "handlogbtn", onclick: () => openOverlay("log") }, t("handLog"));
  const held = holdState();
  const note = R.note && R.note.until > Date.now()
    ? el("div", { class: "auto-note", id: "autonote", role: "status" }, `⚑ ${pick(R.note.text)}`) : null;
  const reveal = R.reveal && R.reveal.until > Date.now() ? R.reveal : null;
  const told = reveal ? el("div", { class: "reveals", id: "reveal", role: "status" }, reveal.lines.map((l) =>
    el("div", { class: `reveal-note${l.joined === false ? " nofriend" : ""}`, "data-kind": l.key }, l.text))) : null;
  fill("feltbox", felt(view, room, you.seat, {
    note: told || note ? el("div", {}, told, note) : null,
    revealed: reveal ? reveal.lines.filter((l) => l.joined).map((l) => l.seat) : null,
    hold: held === "hold",
    recent: held === "recent",
    deadline: (s) => deadlineOf(s),
    waiting: view.phase === "hand_over" ? room.waiting : null,
    reviewing: view.phase === "hand_over" ? room.reviewing : null,
    lastTrickButton: lastBtn,
    logButton: logBtn,
  }));
}

function deadlineOf(seat) {
  const room = R.state.room;
  if (Array.isArray(room.deadlines)) return room.deadlines[seat] || null;
  const v = R.state.view;
  return room.deadline && v && v.to_act === seat ? room.deadline : null;
}

function tickTimers() {
  const now = Date.now() / 1000 + (R ? R.offset : 0);
  const offline = !R || R.conn !== "open";
  for (const e of document.querySelectorAll(".timer[data-deadline]")) {
    // while the connection is away the clock is not known: no stale red "0s"
    const left = Math.max(0, Math.ceil(Number(e.dataset.deadline) - now));
    setText(e, offline ? t("conn_retry") : `${left}s`);
    e.classList.toggle("urgent", !offline && left <= 5);
    e.classList.toggle("stale", offline);
  }
  if (R && R.conn === "lost") renderConn();
}

// Cards just taken from the kitty (while burying): positions in the sorted hand.
function freshPositions(hand, view) {
  if (view.phase !== "bury" || view.to_act !== R.state.you.seat) return new Set();
  const seen = view.seen_kitty || [];
  const picked = [...seen].reverse().find((k) => k.kind === "picked_up");
  return picked ? positionsOf(hand, picked.cards) : new Set();
}

// Positions in the sorted hand of the cards `cards` names (a copy for each one named).
function positionsOf(hand, cards) {
  const need = new Map();
  for (const c of splitCards(cards)) need.set(c, (need.get(c) || 0) + 1);
  const out = new Set();
  hand.forEach((c, i) => { if (need.get(c)) { need.set(c, need.get(c) - 1); out.add(i); } });
  return out;
}

function renderHand() {
  const panel = document.getElementById("handpanel");
  const { view, you } = R.state || {};
  if (!view || you.seat === null || view.phase === "match_over") { panel.hidden = true; return; }
  panel.hidden = false;
  if (!document.getElementById("hand")) {
    fill(panel,
      el("div", { class: "prompt", id: "prompt" }),
      el("div", { class: "hand", id: "hand" }),
      el("div", { class: "muted small", id: "freshnote", hidden: true }, el("span", { class: "fresh-dot" }), " ",
        el("span", { id: "freshtext" })),
      el("div", { class: "actionbar", id: "actionbar" },
        el("div", { class: "actions row", id: "actions" }),
        el("div", { class: "msg", id: "rule", role: "alert" })),
      el("div", { class: "keys muted", id: "keys" }));
  }
  const ctx = contextOf(view, R.state.room);
  const hand = myHand();
  const fresh = freshPositions(hand, view);
  if (R.cursor >= hand.length) R.cursor = Math.max(0, hand.length - 1);
  const key = [R.handKey, [...R.selected].sort().join(","), R.keyboard ? R.cursor : -1, [...fresh].join(","), lang].join("|");
  const box = document.getElementById("hand");
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.dataset.count = String(hand.length);
    fill(box, handFan(hand, ctx, {
      sel: (i) => R.selected.has(i), fresh: (i) => fresh.has(i), cursor: (i) => R.keyboard && i === R.cursor,
      onclick: (i) => toggle(i),
    }));
  }
  document.getElementById("freshnote").hidden = !fresh.size;
  setText(document.getElementById("freshtext"), t("newFromKitty"));
  setText(document.getElementById("keys"), t("keys"));
  renderActions();
  renderRule();
}

function renderActions() {
  const box = document.getElementById("actions");
  const promptBox = document.getElementById("prompt");
  if (!box || !R.state || !R.state.view) return;
  const { view, you, room } = R.state;
  const mine = view.to_act === you.seat;
  const on = online();
  const acts = [];
  let prompt;
  if (view.phase === "hand_over") {
    const waiting = Array.isArray(room.waiting) ? room.waiting : null;
    const pressed = waiting ? !waiting.includes(you.seat) : R.pressedNext === view.hand_number;
    acts.push(el("button", { id: "next", disabled: !on || pressed, onclick: () => act({ type: "continue" }) }, t("nextHand")));
    const reviewing = (room.reviewing || []).filter((s) => s !== you.seat);
    const others = (waiting || []).filter((s) => s !== you.seat && !reviewing.includes(s)).map((s) => seatName(room, s));
    const held = reviewing.length ? t("waitingReview", { names: reviewing.map((s) => seatName(room, s)).join(", ") }) : null;
    prompt = pressed
      ? [others.length ? t("waitingNext", { names: others.join(", ") }) : null, held].filter(Boolean).join(" · ") || t("youPressed")
      : [t("pressNext"), held].filter(Boolean).join(" ");
  } else if (view.phase === "match_over") {
    prompt = t("matchOver");
  } else if (view.phase === "deal" && view.paced) {
    // the show bar: the deal does not wait; whatever you can show now, one tap away
    const shows = R.state.shows || [];
    prompt = shows.length ? t("showAnytime") : t("noShowYet", { level: view.level });
    if (room.deal_seconds) prompt += ` (${t("paceEvery", { n: room.deal_seconds })})`;
    for (const s of shows) acts.push(showButton(s, on));
  } else if (mine && DECLARE_PHASES.includes(view.phase)) {
    prompt = t(view.phase === "after_burial" ? "counterHint" : "showHint");
    for (const s of R.state.shows || []) acts.push(showButton(s, on));
    acts.push(el("button", { id: "pass", class: "ghost", disabled: !on, onclick: () => act({ type: "pass" }) }, t("pass")));
  } else if (mine && view.phase === "bury") {
    const n = kittySize();
    prompt = t("buryHint", { n });
    acts.push(el("button", { id: "bury", disabled: !on || R.selected.size !== n, onclick: () => act({ type: "bury", cards: chosen() }) },
      `${t("bury", { n })} (${R.selected.size}/${n})`));
  } else if (mine && view.phase === "call") {
    const n = callsNeeded(room);
    prompt = tn("callPrompt", n);
    acts.push(el("button", { id: "callopen", disabled: !on, onclick: () => openOverlay("call") }, t("callOpen")));
  } else if (mine && view.phase === "play") {
    prompt = t("selectHint");
    acts.push(el("button", { id: "play", disabled: !on || !R.selected.size, onclick: () => act({ type: "play", cards: chosen() }) }, t("play")));
  } else {
    prompt = view.to_act === null || view.to_act === undefined ? t(`phase_${view.phase}`)
      : t("waitingFor", { name: seatName(room, view.to_act) });
    if (view.phase === "play" && you.seat !== null && you.seat !== undefined) {
      // not your turn yet: cards chosen now can be played as soon as it comes
      if (R.queued) {
        prompt = [prompt, " · ", el("span", { id: "queuednote", class: "queued" }, t("queuedNote", { cards: cardsText(R.queued.cards) }))];
        acts.push(el("button", { class: "ghost", id: "unqueue", onclick: () => { R.queued = null; renderActions(); } }, t("unqueue")));
      } else if (R.selected.size) {
        acts.push(el("button", { class: "ghost", id: "queue", disabled: !on, onclick: queuePlay }, t("queuePlay")));
      } else prompt = [prompt, " · ", el("span", { class: "muted" }, t("queueHint"))];
    }
  }
  if (R.state.take_back && !["hand_over", "match_over"].includes(view.phase)) {
    acts.push(el("button", { class: "ghost", id: "takeback", disabled: !on, title: t("takeBackTitle"), onclick: takeBack }, t("takeBack")));
  }
  if (mine && room.hints !== false && (DECLARE_PHASES.includes(view.phase) || ["bury", "play", "call"].includes(view.phase))) {
    const busy = R.hinting === R.state.rev;
    acts.push(el("button", { class: "ghost", id: "hintbtn", disabled: !on || busy, title: t("hintTitle"), onclick: requestHint }, t("hint")));
  }
  if (R.selected.size && !["hand_over", "match_over"].includes(view.phase)) {
    acts.push(el("button", { class: "ghost", id: "clear", onclick: () => { R.selected = new Set(); R.queued = null; R.rule = null; renderHand(); } }, "✕"));
  }
  fill(box, acts);
  syncBar();
  if (promptBox) {
    fill(promptBox, mine && !["hand_over", "match_over"].includes(view.phase) ? el("b", { class: "yourturn" }, t("yourTurn"), " · ") : null,
      on ? el("span", {}, prompt) : el("span", { class: "bad" }, t("lostAct")));
  }
}

// A button that makes one show (报主/反主): its cards, marked when the hint named it.
function showButton(cards, on) {
  const hinted = R.hinted && R.hinted.rev === R.state.rev && R.hinted.cards === cards;
  return el("button", { class: `show${hinted ? " hinted" : ""}`, "data-cards": cards, "data-kind": showKind(cards), disabled: !on, onclick: () => act({ type: "declare", cards }) },
    t(`show_${showKind(cards)}`), " ", cardRow(cards, { size: "mini" }));
}

// What a show would be: the first (亮主), a reinforcement of your own (上保险), or a
// counter-declaration over someone else's (反主; after the burial always one).
function showKind(cards) {
  const v = R.state.view;
  const ds = (v && v.declarations) || [];
  const last = ds[ds.length - 1];
  if (v && v.phase === "after_burial") return "counter";
  if (!last) return "first";
  const suit = (c) => { const f = splitCards(c)[0] || ""; return f === "BJ" || f === "LJ" ? f : f[0]; };
  return last.seat === R.state.you.seat && suit(last.cards) === suit(cards) ? "reinforce" : "counter";
}

// "Hint": what the strongest bot would do for your seat now (POST /api/rooms/{id}/hint,
// your token proves the seat); the cards it would play or bury are selected for you.
async function requestHint() {
  const mine = R;
  const rev = R.state.rev;
  R.hinting = rev;
  R.rule = { kind: "hint", text: t("hintThinking") };
  renderActions();
  renderRule();
  let r = null;
  let body = null;
  try {
    r = await fetch(`/api/rooms/${R.id}/hint`, { method: "POST", headers: { Authorization: `Bearer ${getSaved(tokenKey(R.id))}` } });
    body = await r.json().catch(() => null);
  } catch (_) { r = null; }
  if (R !== mine) return;
  R.hinting = null;
  if (!R.state || R.state.rev !== rev) { if (R.rule && R.rule.kind === "hint") R.rule = null; renderActions(); renderRule(); return; }
  if (!r || !r.ok || !body || !body.action) {
    const err = body && body.detail ? body.detail : { code: "UNREACHABLE", message: r ? `HTTP ${r.status}` : "" };
    R.rule = { kind: "error", text: errorText(err), code: err.code };
  } else {
    const a = body.action;
    if (a.cards && ["play", "bury"].includes(a.type)) {
      R.selected = positionsOf(myHand(), a.cards);
      renderHand();
    }
    if (a.type === "call" && a.calls) {
      R.calls = { hand: R.state.view.hand_number, slots: a.calls.split(/\s+/).map((c) => { const [card, ord] = c.split(":"); return { card, ord: Number(ord || 1) }; }) };
      if (R.overlay === "call") renderOverlay();
    }
    R.hinted = a.type === "declare" ? { rev, cards: a.cards } : null;
    R.rule = { kind: "hint", text: pick(body.text) };
  }
  renderActions();
  renderRule();
  revealSelected(); // once the bar holds the reason (it may have grown over the hand)
}

// The selected cards brought on screen (a phone's hand may run below the fold, under the
// action bar): the first and last of them, scrolled to as little as needed.
function revealSelected() {
  const cards = [...document.querySelectorAll("#hand .card.sel")];
  if (!cards.length) return;
  const bar = document.getElementById("actionbar");
  const barTop = bar && getComputedStyle(bar).position === "fixed" && !bar.classList.contains("empty")
    ? bar.getBoundingClientRect().top : window.innerHeight;
  const top = Math.min(...cards.map((c) => c.getBoundingClientRect().top)) - 16;
  const bottom = Math.max(...cards.map((c) => c.getBoundingClientRect().bottom)) + 8;
  if (bottom > barTop) window.scrollBy({ top: Math.min(bottom - barTop, Math.max(0, top)), behavior: "instant" });
  else if (top < 0) window.scrollBy({ top, behavior: "instant" });
}

function renderRule() {
  const e = document.getElementById("rule");
  if (!e) return;
  const r = R.rule;
  setText(e, r && r.text ? r.text : "");
  e.className = `msg${r && r.kind === "ok" ? " ok" : r && r.kind === "hint" ? " hint" : r && r.kind === "throw" ? " warn" : ""}`;
  if (r && r.code) e.dataset.code = r.code; else delete e.dataset.code;
  e.dataset.kind = r ? r.kind : "";
  syncBar();
}

// The action bar (fixed at the bottom of a phone's screen) is drawn only when it holds
// something; the page keeps room below its last row for it (--bar-h).
function syncBar() {
  const bar = document.getElementById("actionbar");
  if (!bar) return;
  const empty = !document.getElementById("actions").childElementCount && !document.getElementById("rule").textContent;
  bar.classList.toggle("empty", empty);
  if (!R.barObserver && typeof ResizeObserver === "function") {
    R.barObserver = new ResizeObserver(() => {
      const h = bar.classList.contains("empty") ? 0 : bar.getBoundingClientRect().height;
      document.documentElement.style.setProperty("--bar-h", `${Math.ceil(h)}px`);
    });
    R.barObserver.observe(bar);
  }
}

function renderResult() {
  const box = document.getElementById("resultbox");
  const { view, room } = R.state;
  if (!view || !["hand_over", "match_over"].includes(view.phase) || !(view.score_sheet || []).length) { box.hidden = true; fill(box); return; }
  box.hidden = false;
  const seat = R.state.you.seat;
  const review = seat !== null && seat !== undefined
    ? el("button", { class: "ghost", id: "reviewbtn", onclick: () => openReview() }, t("reviewMine")) : null;
  if (view.phase === "match_over") {
    fill(box, matchEnd(view, room), handResult(view, room, seat), el("div", { class: "row" },
      el("a", { class: "button ghost", id: "record", href: `/api/rooms/${R.id}/record`, download: `shengji-${R.id}.json` }, t("record")),
      el("a", { class: "button", id: "replaylink", href: `/replay/${R.id}` }, t("replay")), review));
  } else {
    fill(box, handResult(view, room, seat), review ? el("div", { class: "row" }, review) : null);
  }
}

// "Review my plays": the hand just finished, for your own seat (your token proves it).
function openReview(which = null, retry = false) {
  const { view, room, you } = R.state;
  const rows = (view && view.score_sheet) || [];
  if (!rows.length || you.seat === null || you.seat === undefined) return;
  const hand = which === null ? rows[rows.length - 1].number : which;
  const key = `${you.seat}:${hand}`;
  R.reviews = R.reviews || {};
  let rv = R.reviews[key];
  if (!rv || (retry && rv.status === "error")) {
    rv = { seat: you.seat, hand, status: "loading", marks: [], error: null, ctx: rv ? rv.ctx : contextOf(view, room) };
    R.reviews[key] = rv;
    const mine = R;
    fetchReview(R.id, you.seat, hand, getSaved(tokenKey(R.id)))
      .then((marks) => { rv.marks = marks; rv.status = "done"; })
      .catch((err) => { rv.error = err; rv.status = "error"; })
      .finally(() => { if (R === mine && R.overlay === "review" && R.review === rv) renderOverlay(); });
  }
  R.review = rv;
  openOverlay("review");
  // after a hand, the next hand waits while you read (the server caps it)
  if (view.phase === "hand_over" && R.reviewHold === null && send({ type: "reviewing", open: true })) {
    R.reviewHold = view.hand_number;
  }
}

// The review is closed: the next hand need not wait for it any longer.
function endReviewHold() {
  if (R.reviewHold === null) return;
  const v = R.state && R.state.view;
  if (v && v.phase === "hand_over" && v.hand_number === R.reviewHold) send({ type: "reviewing", open: false });
  R.reviewHold = null;
}

// -- 找朋友: the banker's friend calls ------------------------------------------------------
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

function callableCards() {
  const order = (c) => "SHCD".indexOf(c[0]) * 20 + RANKS.indexOf(c.slice(1));
  return splitCards(R.state.callable || "").sort((a, b) => order(a) - order(b));
}

// The calls being chosen (kept while the dialog is redrawn): the suggestion at first.
function callSlots() {
  const { view, room } = R.state;
  const need = callsNeeded(room);
  const decks = (room.options || {}).decks || 2;
  if (!R.calls || R.calls.hand !== view.hand_number || R.calls.slots.length !== need) {
    const ctx = contextOf(view, room);
    R.calls = { hand: view.hand_number, slots: suggestCalls(myHand(), callableCards(), need, decks, ctx.isTrump) };
  }
  return R.calls.slots;
}

function callDialog() {
  const { room } = R.state;
  const decks = (room.options || {}).decks || 2;
  const callable = callableCards();
  const slots = callSlots();
  const hand = myHand();
  const held = (c) => hand.filter((x) => x === c).length;
  const rows = slots.map((slot, i) => {
    const card = el("select", { id: `callcard${i}`, class: "callcardpick", "aria-label": `${t("callN", { n: i + 1 })}: ${t("callCard")}` },
      ["S", "H", "C", "D"].map((su) => {
        const cs = callable.filter((c) => c[0] === su);
        return cs.length ? el("optgroup", { label: `${suitSymbol(su)} ${t(`suit_${su}`)}` },
          cs.map((c) => el("option", { value: c, selected: c === slot.card }, `${suitSymbol(c[0])}${c.slice(1)}`))) : null;
      }));
    card.addEventListener("change", () => { slot.card = card.value; renderOverlay(); });
    const ord = el("select", { id: `callord${i}`, class: "callordpick", "aria-label": `${t("callN", { n: i + 1 })}: ${t("callWhich")}` },
      [...Array(decks).keys()].map((k) => el("option", { value: k + 1, selected: k + 1 === slot.ord }, ordinalText(k + 1))));
    ord.addEventListener("change", () => { slot.ord = Number(ord.value); renderOverlay(); });
    const h = held(slot.card);
    const dup = slots.some((o, j) => j < i && o.card === slot.card && o.ord === slot.ord);
    const says = [callChip(`${slot.card}:${slot.ord}`), " · ", h ? tn("youHold", h) : t("youHoldNone")];
    if (h >= decks) says.push(" · ", el("span", { class: "warn" }, t("callOwn")));
    if (dup) says.push(" · ", el("span", { class: "warn" }, t("callSame")));
    return el("div", { class: "callslot", "data-slot": i },
      el("span", { class: "slotname" }, t("callN", { n: i + 1 })), el("span", { class: "slotpick" }, card, ord),
      el("span", { class: "slotsays", id: `callsays${i}` }, says));
  });
  const calls = slots.map((x) => `${x.card}:${x.ord}`).join(" ");
  const go = el("button", { id: "callgo", disabled: !online() || !slots.every((x) => x.card),
    onclick: () => { closeOverlay(); act({ type: "call", calls }); } }, t("callGo"), " ",
    el("small", {}, slots.map((x) => callText(`${x.card}:${x.ord}`)).join(lang === "zh" ? "、" : ", ")));
  const err = R.rule && R.rule.kind === "act" ? el("p", { class: "msg", id: "callmsg", role: "alert" }, R.rule.text) : null;
  return [el("h3", {}, t("callTitle")), el("p", { class: "callintro" }, t("callIntro")), rows, err,
    el("div", { class: "row callrow" }, go)];
}

function kittyButton() {
  return el("button", { class: "ghost small", id: "kittybtn", onclick: () => openOverlay("kitty") }, t("kitty"));
}

// -- overlays: the last trick, the kitty ---------------------------------------------------
function openOverlay(kind) { if (kind !== "review") endReviewHold(); R.overlay = kind; renderOverlay(); }
function closeOverlay() { endReviewHold(); R.overlay = null; const o = document.getElementById("overlay"); o.hidden = true; fill(o); }

function renderOverlay() {
  const o = document.getElementById("overlay");
  const { view, room } = R.state;
  if (!view) { closeOverlay(); return; }
  const ctx = contextOf(view, room);
  let body;
  if (R.overlay === "call") {
    body = callDialog();
  } else if (R.overlay === "review") {
    const rv = R.review;
    body = [reviewPanel(rv, { room, ctx: rv.ctx, retry: () => openReview(rv.hand, true) })];
    const me = R.state.you.seat;
    const until = R.reviewHold !== null && (room.reviewing || []).includes(me) ? (room.deadlines || [])[me] : null;
    if (until) {
      body.unshift(el("p", { class: "muted small reviewhold", id: "reviewhold" }, t("reviewHold"), " ",
        el("span", { class: "timer", "data-deadline": String(until) }, "")));
    }
  } else if (R.overlay === "log") {
    const seat = R.state.you.seat;
    const rv = R.reviews && seat !== null ? R.reviews[`${seat}:${view.hand_number}`] : null;
    if (!R.logOpen || R.logOpen.hand !== view.hand_number) R.logOpen = { hand: view.hand_number, open: new Set() };
    const opened = R.logOpen.open;
    body = [handLog(view, room, ctx, rv && rv.status === "done" ? rv.marks : [], opened,
      (n, open) => { if (open) opened.add(n); else opened.delete(n); })];
  } else if (R.overlay === "last") {
    const tricks = view.tricks || [];
    const last = tricks[tricks.length - 1];
    body = [el("h3", {}, last ? t("lastTrickOf", { name: seatName(room, last.winner) }) : t("lastTrick")),
      last ? trickRows(last, room, ctx, false, view) : el("p", {}, t("noTrickYet"))];
  } else {
    body = [el("h3", {}, t("kitty")), (view.seen_kitty || []).map((k) => el("div", { class: "kitty-line" },
      el("small", {}, t(k.kind === "picked_up" ? "pickedUp" : "buried")), cardRow(k.cards, { size: "table", ctx, markTrump: true })))];
  }
  o.hidden = false;
  const ids = { last: "lastdialog", review: "reviewdialog", log: "logdialog", call: "calldialog" };
  const id = ids[R.overlay] || "kittydialog";
  const before = document.getElementById(id);
  const scrolled = before ? before.scrollTop : 0; // redrawn at every move: keep the reader's place
  fill(o, el("div", { class: "dialog", role: "dialog", "aria-modal": "true", id },
    body, el("div", { class: "row end" }, el("button", { id: "closedialog", onclick: closeOverlay }, t("close")))));
  document.getElementById(id).scrollTop = scrolled;
}

// -- chat ----------------------------------------------------------------------------------
function renderChat(all) {
  const log = document.getElementById("chatlog");
  if (!log) return;
  const near = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const lines = R.chatLines || [];
  const when = (m) => el("time", {}, new Date(m.time * 1000).toLocaleTimeString(lang === "zh" ? "zh-CN" : "en-GB", { hour: "2-digit", minute: "2-digit" }));
  const make = (m) => (m.notice
    ? el("div", { class: "line notice", "data-time": m.time }, when(m), " ", el("span", { class: "text" }, `⚑ ${pick(m.notice)}`))
    : el("div", { class: "line", "data-time": m.time }, when(m),
      " ", el("b", { class: m.seat === null || m.seat === undefined ? "spec" : teamClass(R.state && R.state.view, m.seat) },
        m.name || t("spectator")), " ", el("span", { class: "text" }, m.text)));
  if (all || log.childElementCount > lines.length) fill(log, lines.map(make));
  else for (let i = log.childElementCount; i < lines.length; i++) log.append(make(lines[i]));
  if (near || R.stickChat || all) log.scrollTop = log.scrollHeight;
  R.stickChat = false;
}

function renderChatMsg() { setText(document.getElementById("chatmsg"), R.chatMsg || ""); }

// -- keyboard (desktop): arrows move, space selects, Enter plays, Esc clears ---------------
function onKey(e) {
  if (!R || !R.state || !R.state.view) return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Escape") {
    if (R.overlay) closeOverlay(); else { R.selected = new Set(); R.queued = null; R.rule = null; renderHand(); }
    return;
  }
  if (R.overlay) return;
  const n = myHand().length;
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!n) return;
    e.preventDefault();
    R.keyboard = true;
    R.cursor = (R.cursor + (e.key === "ArrowRight" ? 1 : n - 1)) % n;
    renderHand();
  } else if (e.key === " " || e.key === "Spacebar") {
    if (!n) return;
    e.preventDefault();
    R.keyboard = true;
    toggle(R.cursor);
  } else if (e.key === "Enter") {
    const btn = ["play", "bury", "next", "callopen"].map((id) => document.getElementById(id)).find((b) => b && !b.disabled);
    if (btn) { e.preventDefault(); btn.click(); }
  } else if (e.key === "l" || e.key === "L") {
    openOverlay("last");
  } else if (e.key === "g" || e.key === "G") {
    openOverlay("log");
  }
}
