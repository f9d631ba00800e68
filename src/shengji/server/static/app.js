// Browser client of the shengji server: lobby, room and table, speaking protocol v1.
// All rules are decided by the server: the client only shows views and sends commands.
"use strict";

const T = {
  en: {
    rooms: "Rooms", create: "Create a room", preset: "Preset", bots: "Bots", none: "person",
    timer: "Turn timer (s, 0 = off)", go: "Create", join: "Join", name: "Your name", watch: "Watch",
    seat: "Seat", empty: "empty", ready: "Ready", notReady: "Not ready", start: "Start",
    randomize: "Randomize teams", kick: "Kick", bot: "Bot", sit: "Sit here", chat: "Say", send: "Send",
    level: "Level", trump: "Trump", banker: "Banker", points: "Collectors", phase: "Phase",
    play: "Play", pass: "Pass", bury: "Bury", declare: "Show", next: "Next hand", yourTurn: "Your turn",
    kitty: "Kitty", lastTrick: "Last trick", sheet: "Score sheet", hand: "Hand", result: "Result",
    record: "Download record", replay: "Replay", waiting: "Waiting for", you: "you", host: "host",
    spectators: "spectators", select: "Select cards", legal: "Legal", over: "Match over",
    team: "Team", away: "away (bot plays)", copy: "Invite link", lobby: "Lobby", cardsLeft: "cards",
    overrides: "Rule overrides (key=value, …)",
    phases: { deal: "dealing", before_kitty: "declaring", bury: "burying the kitty",
      after_burial: "counter-declaring", play: "playing", hand_over: "hand over", match_over: "match over" },
  },
  zh: {
    rooms: "房间", create: "创建房间", preset: "规则", bots: "机器人", none: "玩家",
    timer: "出牌限时 (秒, 0 = 不限)", go: "创建", join: "加入", name: "你的名字", watch: "观战",
    seat: "座位", empty: "空位", ready: "准备", notReady: "取消准备", start: "开始",
    randomize: "随机分队", kick: "踢出", bot: "机器人", sit: "坐这里", chat: "聊天", send: "发送",
    level: "级", trump: "主", banker: "庄家", points: "闲家得分", phase: "阶段",
    play: "出牌", pass: "不亮", bury: "扣底", declare: "亮主", next: "下一局", yourTurn: "轮到你",
    kitty: "底牌", lastTrick: "上一轮", sheet: "记分表", hand: "局", result: "结果",
    record: "下载牌谱", replay: "回放", waiting: "等待", you: "你", host: "房主",
    spectators: "观众", select: "选牌", legal: "合法", over: "比赛结束",
    team: "队", away: "离开 (机器人代打)", copy: "邀请链接", lobby: "大厅", cardsLeft: "张",
    overrides: "规则修改 (选项=值, …)",
    phases: { deal: "发牌", before_kitty: "亮主", bury: "扣底", after_burial: "反主",
      play: "出牌", hand_over: "本局结束", match_over: "比赛结束" },
  },
};
let lang = localStorage.getItem("shengji:lang") || ((navigator.language || "zh").startsWith("zh") ? "zh" : "en");
const t = (k) => T[lang][k] || k;

const app = document.getElementById("app");
const langBtn = document.getElementById("lang");
langBtn.textContent = lang === "zh" ? "EN" : "中文";
langBtn.onclick = () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("shengji:lang", lang);
  langBtn.textContent = lang === "zh" ? "EN" : "中文";
  render();
};

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick" || k === "onchange" || k === "onsubmit") e[k] = v;
    else if (k === "class") e.className = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid.nodeType ? kid : String(kid));
  return e;
}

const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
function cardEl(text, opts = {}) {
  const joker = text === "BJ" || text === "LJ";
  const label = joker ? (text === "BJ" ? (lang === "zh" ? "大王" : "BJ") : (lang === "zh" ? "小王" : "LJ"))
    : SUIT[text[0]] + text.slice(1);
  const red = text[0] === "H" || text[0] === "D" || text === "BJ";
  const cls = ["card", red ? "red" : "", opts.small ? "small" : "", opts.sel ? "sel" : "", opts.trump ? "trump" : ""];
  const e = el("span", { class: cls.join(" "), "data-card": text, title: text }, label);
  if (opts.onclick) e.onclick = opts.onclick;
  return e;
}
const cardsRow = (s, opts = {}) => el("div", { class: "cards" }, (s || "").split(" ").filter(Boolean).map((c) => cardEl(c, opts)));

// -- home -----------------------------------------------------------------------------
let route = location.pathname;

async function home() {
  const [rooms, presets] = await Promise.all([
    fetch("/api/rooms").then((r) => r.json()), fetch("/api/presets").then((r) => r.json())]);
  const presetSel = el("select", { id: "preset" }, presets.map((p) => el("option", { value: p.name, title: p.description }, p.name)));
  const botSel = (i) => el("select", { id: `bot${i}` }, el("option", { value: "" }, t("none")),
    el("option", { value: "heuristic", selected: i > 0 ? "selected" : null }, "heuristic"), el("option", { value: "random" }, "random"));
  const timer = el("input", { id: "timer", type: "number", min: 0, max: 600, value: 0, style: "width:5em" });
  const overrides = el("input", { id: "overrides", placeholder: "constant_twos=true, decks=3", style: "min-width:16em" });
  const parseOverrides = (text) => Object.fromEntries(text.split(",").map((p) => p.trim()).filter(Boolean).map((p) => {
    const [k, ...rest] = p.split("="); const v = rest.join("=").trim();
    return [k.trim(), v === "true" ? true : v === "false" ? false : /^-?\d+$/.test(v) ? Number(v) : v];
  }));
  const create = el("button", { id: "create", onclick: async () => {
    const bots = [0, 1, 2, 3].map((i) => document.getElementById(`bot${i}`).value || null);
    const r = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ preset: presetSel.value, bots, turn_seconds: Number(timer.value) || 0,
        overrides: parseOverrides(overrides.value) }) });
    const data = await r.json();
    if (r.ok) { history.pushState({}, "", data.url); route = data.url; render(); }
    else alert(data.detail && data.detail.message ? `${data.detail.code}: ${data.detail.message}` : JSON.stringify(data.detail));
  } }, t("go"));
  app.replaceChildren(
    el("section", { class: "panel" }, el("h2", {}, t("create")),
      el("div", { class: "row" }, el("label", {}, t("preset"), " ", presetSel)),
      el("div", { class: "row" }, t("bots"), ":", [0, 1, 2, 3].map((i) => el("label", {}, `${t("seat")} ${i} `, botSel(i)))),
      el("div", { class: "row" }, el("label", {}, t("timer"), " ", timer)),
      el("div", { class: "row" }, el("label", {}, t("overrides"), " ", overrides)),
      el("div", { class: "row" }, create)),
    el("section", { class: "panel" }, el("h2", {}, t("rooms")),
      el("ul", { class: "rooms" }, rooms.map((r) => el("li", {},
        el("a", { href: `/room/${r.id}` }, r.id), ` ${r.preset} · ${r.status} · `,
        r.seats.map((s) => s.kind === "empty" ? "○" : s.kind === "bot" ? "B" : "●").join(" "))))));
}

// -- room -----------------------------------------------------------------------------
let ws = null, state = null, roomId = null, selected = new Set(), errorMsg = "", reqN = 0, checkTimer = null;
const tokenKey = () => `shengji:token:${roomId}`;
const nameKey = "shengji:name";

function send(cmd) {
  if (!ws || ws.readyState !== 1) return null;
  if (cmd.type === "act") { clearTimeout(checkTimer); errorMsg = ""; }
  const id = `r${Date.now().toString(36)}${(reqN++).toString(36)}`;
  ws.send(JSON.stringify({ v: 1, id, rev: state ? state.rev : 0, ...cmd }));
  return id;
}

function connect(join) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${roomId}`);
  ws.onopen = () => send(join);
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      const handChanged = !state || !state.view || !msg.view || state.view.hand !== msg.view.hand;
      if (state && msg.rev !== state.rev && errorMsg.startsWith("✓")) errorMsg = "";
      if (handChanged) errorMsg = "";
      state = msg;
      window.shengjiState = msg; // read by the browser tests
      if (handChanged) selected = new Set();
      render();
    } else if (msg.type === "ack") {
      if (msg.token) localStorage.setItem(tokenKey(), msg.token);
      if (msg.legal) { errorMsg = "✓"; render(); }
    } else if (msg.type === "error") {
      if (msg.code === "BAD_TOKEN") localStorage.removeItem(tokenKey());
      errorMsg = `${msg.code}: ${msg.message}`;
      render();
    }
  };
  ws.onclose = () => { setTimeout(() => { if (roomId) connect(rejoin()); }, 1500); };
}

function rejoin() {
  const token = localStorage.getItem(tokenKey());
  return token ? { type: "join", token } : null;
}

function roomPage(id) {
  if (roomId !== id) {
    roomId = id; state = null;
    const again = rejoin();
    if (again) { connect(again); return; }
  }
  if (!ws) {
    const name = el("input", { id: "name", value: localStorage.getItem(nameKey) || "", placeholder: t("name") });
    const go = (spectate) => () => {
      const n = name.value.trim() || "player";
      localStorage.setItem(nameKey, n);
      connect({ type: "join", name: n, spectate });
    };
    app.replaceChildren(el("section", { class: "panel" }, el("h2", {}, `${t("join")} ${id}`),
      el("div", { class: "row" }, name, el("button", { id: "join", onclick: go(false) }, t("join")),
        el("button", { class: "ghost", onclick: go(true) }, t("watch")))));
    return;
  }
  if (!state) { app.replaceChildren(el("p", {}, "…")); return; }
  app.replaceChildren(lobby(), state.view ? table() : null, chat());
}

function seatLabel(i) {
  const s = state.room.seats[i];
  if (s.kind === "empty") return t("empty");
  const me = state.you.seat === i ? ` (${t("you")})` : "";
  const host = state.room.host_seat === i ? ` ★${t("host")}` : "";
  const away = s.away ? ` · ${t("away")}` : "";
  return `${s.name}${me}${host}${away}`;
}

function lobby() {
  const r = state.room, you = state.you;
  const inLobby = r.status === "lobby";
  const seats = r.seats.map((s, i) => {
    const kids = [el("b", {}, `${t("seat")} ${i} · ${t("team")} ${i % 2}: `), seatLabel(i)];
    if (inLobby && s.kind === "human") kids.push(s.ready ? " ✓" : " …");
    if (inLobby && s.kind === "empty" && you.seat !== null) kids.push(" ", el("button", { class: "ghost", onclick: () => send({ type: "sit", seat: i }) }, t("sit")));
    if (you.host && s.kind !== "human") kids.push(" ", el("button", { class: "ghost", onclick: () => send({ type: "set_bot", seat: i, bot: s.kind === "bot" && inLobby ? null : "heuristic" }) }, s.kind === "bot" && inLobby ? "✕" : `+${t("bot")}`));
    if (you.host && s.kind === "human" && you.seat !== i) kids.push(" ", el("button", { class: "ghost", onclick: () => send({ type: "kick", seat: i }) }, t("kick")));
    return el("div", {}, kids);
  });
  const controls = [];
  if (inLobby && you.seat !== null) {
    const mine = r.seats[you.seat];
    controls.push(el("button", { id: "ready", onclick: () => send({ type: "ready", ready: !mine.ready }) }, mine.ready ? t("notReady") : t("ready")));
  }
  if (inLobby && you.host) {
    controls.push(el("button", { class: "ghost", onclick: () => send({ type: "randomize" }) }, t("randomize")));
    controls.push(el("button", { id: "start", onclick: () => send({ type: "start" }) }, t("start")));
  }
  if (r.status === "finished") {
    controls.push(el("a", { href: `/api/rooms/${r.id}/record`, download: "" }, el("button", { class: "ghost" }, t("record"))));
    controls.push(el("a", { href: `/replay/${r.id}` }, el("button", { class: "ghost" }, t("replay"))));
  }
  return el("section", { class: "panel" },
    el("div", { class: "row" }, el("b", {}, `${r.preset}`), ` · ${t("copy")}: `, el("code", {}, location.origin + "/room/" + r.id),
      ` · ${r.spectators} ${t("spectators")}`),
    inLobby ? seats : null, el("div", { class: "row" }, controls), el("div", { class: "msg", id: "msg" }, errorMsg));
}

function table() {
  const v = state.view, me = state.you.seat;
  const base = me === null ? 0 : me;
  const pos = (s) => ["bottom", "right", "top", "left"][(s - base + 4) % 4];
  const playedBy = {};
  for (const p of v.trick) playedBy[p.seat] = p.cards;
  const status = el("div", { class: "status" },
    el("div", {}, t("level"), el("b", {}, v.level)),
    el("div", {}, t("trump"), el("b", {}, v.trump ? (SUIT[v.trump] || (lang === "zh" ? "无主" : "NT")) : "?")),
    el("div", {}, t("banker"), el("b", {}, v.banker === null ? "?" : `${v.banker}${v.banker === me ? " (" + t("you") + ")" : ""}`)),
    el("div", {}, t("points"), el("b", {}, v.collector_points + (v.penalties ? ` ${v.penalties > 0 ? "+" : ""}${v.penalties}` : ""))),
    el("div", {}, t("phase"), el("b", { id: "phase" }, T[lang].phases[v.phase] || v.phase)),
    el("div", {}, `${t("team")} 0 / 1`, el("b", {}, `${v.levels[0]} / ${v.levels[1]}`)));
  const seats = [0, 1, 2, 3].map((s) => el("div", { class: `seat pos-${pos(s)} ${v.to_act === s ? "to-act" : ""}` },
    el("div", { class: "name" }, `${s}: ${seatLabel(s)}`), el("div", {}, `${v.hand_sizes[s]} ${t("cardsLeft")}`),
    el("div", { class: "played" }, playedBy[s] ? cardsRow(playedBy[s], { small: true }) : "")));
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const center = el("div", { class: "center" },
    v.declarations.length ? el("div", {}, `${t("declare")}: `, v.declarations.slice(-2).map((d) => `${d.seat}:${d.cards}`).join(" · ")) : null,
    last && v.phase === "play" ? el("div", {}, `${t("lastTrick")} → ${last.winner}`, el("div", { class: "cards" }, last.plays.map((p) => cardsRow(p.cards, { small: true })))) : null,
    v.kitty ? el("div", {}, `${t("kitty")}:`, cardsRow(v.kitty, { small: true })) : null);
  const parts = [el("section", { class: "panel" }, status), el("section", { class: "table" }, seats, center)];
  if (me !== null) parts.push(handPanel());
  if (v.score_sheet.length) parts.push(sheet());
  return el("div", {}, parts);
}

function handPanel() {
  const v = state.view, me = state.you.seat;
  const mine = v.to_act === me;
  const cards = (v.hand || "").split(" ").filter(Boolean);
  const hand = el("div", { class: "cards hand", id: "hand" }, cards.map((c, i) => cardEl(c, {
    sel: selected.has(i),
    onclick: () => { selected.has(i) ? selected.delete(i) : selected.add(i); errorMsg = ""; render(); scheduleCheck(); },
  })));
  const chosen = () => [...selected].sort((a, b) => a - b).map((i) => cards[i]).join(" ");
  const acts = [];
  if (v.phase === "hand_over") acts.push(el("button", { id: "next", onclick: () => send({ type: "act", action: { type: "continue" } }) }, t("next")));
  if (mine && ["deal", "before_kitty", "after_burial"].includes(v.phase)) {
    for (const s of state.shows || []) acts.push(el("button", { class: "show", onclick: () => send({ type: "act", action: { type: "declare", cards: s } }) }, `${t("declare")} ${s}`));
    acts.push(el("button", { id: "pass", class: "ghost", onclick: () => send({ type: "act", action: { type: "pass" } }) }, t("pass")));
  }
  if (mine && v.phase === "bury") acts.push(el("button", { id: "bury", onclick: () => send({ type: "act", action: { type: "bury", cards: chosen() } }) }, `${t("bury")} (${selected.size})`));
  if (mine && v.phase === "play") acts.push(el("button", { id: "play", onclick: () => send({ type: "act", action: { type: "play", cards: chosen() } }) }, t("play")));
  return el("section", { class: "panel" },
    el("div", { class: "row" }, mine ? el("b", { class: "ok" }, t("yourTurn"))
      : v.to_act === null ? T[lang].phases[v.phase] : `${t("waiting")} ${t("seat")} ${v.to_act}`),
    hand, el("div", { class: "row" }, acts), el("div", { class: "msg", id: "rule" }, errorMsg));
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  const v = state && state.view;
  if (!v || v.to_act !== state.you.seat || !["play", "bury"].includes(v.phase) || !selected.size) return;
  const cards = (v.hand || "").split(" ").filter(Boolean);
  const chosen = [...selected].sort((a, b) => a - b).map((i) => cards[i]).join(" ");
  checkTimer = setTimeout(() => send({ type: "check", action: { type: v.phase, cards: chosen } }), 150);
}

function sheet() {
  const rows = state.view.score_sheet.map((r) => el("tr", {},
    el("td", {}, r.number + 1), el("td", {}, `${r.banker} · ${r.level} · ${r.trump}`), el("td", {}, r.points),
    el("td", {}, r.explain[lang])));
  return el("section", { class: "panel" }, el("h3", {}, t("sheet")),
    el("table", { class: "sheet", id: "sheet" }, el("tr", {}, el("th", {}, t("hand")), el("th", {}, `${t("banker")} · ${t("level")} · ${t("trump")}`), el("th", {}, t("points")), el("th", {}, t("result"))), rows));
}

function chat() {
  const input = el("input", { id: "chat", maxlength: 500, placeholder: t("chat") });
  const say = () => { if (input.value.trim()) { send({ type: "chat", text: input.value.trim() }); input.value = ""; } };
  input.onkeydown = (e) => { if (e.key === "Enter") say(); };
  return el("section", { class: "panel" },
    el("div", { class: "chat" }, (state.chat || []).map((m) => el("div", {}, el("b", {}, m.name), ": ", m.text))),
    el("div", { class: "row" }, input, el("button", { class: "ghost", onclick: say }, t("send"))));
}

async function replayPage(id) {
  const r = await fetch(`/api/rooms/${id}/replay?lang=${lang}`);
  const data = await r.json();
  app.replaceChildren(el("section", { class: "panel replay" }, el("h2", {}, `${t("replay")} ${id}`),
    r.ok ? el("pre", { id: "replay" }, data.lines.join("\n")) : el("p", {}, JSON.stringify(data.detail)),
    el("a", { href: `/api/rooms/${id}/record`, download: "" }, el("button", { class: "ghost" }, t("record")))));
}

function render() {
  const m = route.match(/^\/(room|replay)\/([0-9a-f]+)/);
  if (!m) { roomId = null; home(); return; }
  if (m[1] === "replay") { replayPage(m[2]); return; }
  roomPage(m[2]);
}

window.onpopstate = () => { route = location.pathname; render(); };
render();
