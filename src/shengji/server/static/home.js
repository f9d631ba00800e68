// The home page: a quick game (you and three bots, at once), create a table (rules form
// built from GET /api/presets/{name}, seats, timer, take-backs, public or not) and the
// list of public tables.

import { botDescription, botOfLevel, botOptions, defaultBot, loadBots } from "./bots.js";
import { el, fill } from "./dom.js";
import { errorText, pick, presetTitle, t } from "./i18n.js";
import { hostKey, save } from "./net.js";
import { choiceLabel } from "./rules.js";

const DEFAULT_PRESET = "shuangsheng";
let H = null; // the page's state: presets, schema, edits

export async function homePage(app, navigate) {
  H = { app, navigate, presets: [], schema: null, values: {}, preset: DEFAULT_PRESET, rooms: [], error: null };
  const form = el("section", { class: "panel create", id: "createpanel" });
  const list = el("section", { class: "panel", id: "roomlist" });
  const quick = el("section", { class: "panel", id: "quickpanel" });
  fill(app, el("div", { class: "home" }, el("div", {}, quick, form), list));
  H.form = form;
  H.list = list;
  H.quick = quick;
  const [presets, rooms] = await Promise.all([
    fetch("/api/presets").then((r) => r.json()).catch(() => []),
    fetch("/api/rooms").then((r) => r.json()).catch(() => []),
    loadBots(),
  ]);
  if (!H || H.app !== app) return;
  H.presets = presets;
  H.rooms = Array.isArray(rooms) ? rooms : [];
  if (!presets.some((p) => p.name === H.preset) && presets.length) H.preset = presets[0].name;
  buildQuick();
  buildForm();
  renderRooms();
  await loadSchema(H.preset);
}

export function homeLangChanged() {
  if (!H) return;
  const keep = readForm();
  buildQuick(keep);
  buildForm(keep);
  renderRules();
  renderRooms();
}

function readForm() {
  if (!document.getElementById("preset")) return null;
  return {
    bots: [...document.querySelectorAll(".seatpick select")].map((e) => e.value),
    timer: document.getElementById("timer").value,
    pace: document.getElementById("pace").value,
    pub: document.getElementById("publicroom").checked,
    hints: document.getElementById("allowhints").checked,
    takeBack: document.getElementById("allowtakeback").checked,
    autoPlay: document.getElementById("autoplay").checked,
    quick: document.getElementById("quicklevel").value,
  };
}

// A quick game: one click to a 双升 table with three bots of the chosen strength, the
// match started (the room page joins, gets ready and starts by itself).
function buildQuick(keep = null) {
  const level = el("select", { id: "quicklevel", "aria-label": t("quickLevel") }, ["easy", "normal", "strong"].map((k) =>
    el("option", { value: k, selected: k === (keep ? keep.quick : "normal") }, t(`level_${k}`))));
  fill(H.quick, el("h2", {}, t("quickTitle")), el("p", { class: "muted small" }, t("quickIntro")),
    el("div", { class: "quick" }, el("label", { class: "field" }, el("span", {}, t("quickLevel")), level),
      el("button", { id: "quickgo", onclick: () => quickGame(level.value) }, t("quickGo"))),
    el("div", { class: "msg", id: "quickmsg", role: "alert" }));
}

async function quickGame(level) {
  const bot = botOfLevel(level);
  const btn = document.getElementById("quickgo");
  btn.disabled = true;
  const data = await post({ preset: DEFAULT_PRESET, bots: [null, bot, bot, bot] });
  if (data.id) {
    try { sessionStorage.setItem(`shengji:quick:${data.id}`, "1"); } catch (_) { /* then the join form asks */ }
    H.navigate(data.url || `/room/${data.id}`);
    return;
  }
  btn.disabled = false;
  fill("quickmsg", data.error);
}

// POST /api/rooms: the new room ({id, url}, its host key kept) or {error} in words.
async function post(body) {
  try {
    const r = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (r.ok) {
      if (data.host_key) save(hostKey(data.id), data.host_key);
      return data;
    }
    const d = data.detail;
    return { error: d && d.code ? errorText(d) : Array.isArray(d) ? d.map((x) => x.msg).join("; ") : String(r.status) };
  } catch (e) {
    return { error: String(e) };
  }
}

function buildForm(keep = null) {
  const presetSel = el("select", { id: "preset", "aria-label": t("preset") },
    H.presets.map((p) => el("option", { value: p.name, selected: p.name === H.preset }, presetTitle(p.name))));
  presetSel.addEventListener("change", () => loadSchema(presetSel.value));
  const botSel = (i) => seatMenu(i, keep);
  const timer = el("select", { id: "timer" }, [0, 15, 30, 60, 120].map((s) =>
    el("option", { value: s, selected: String(s) === String(keep ? keep.timer : 0) }, s ? t("seconds", { n: s }) : t("timerOff"))));
  // the deal's pace: seconds between two rounds (one card to every seat)
  const pace = el("select", { id: "pace" }, [["slow", 0.6], ["normal", 0.3], ["fast", 0.15]].map(([k, sec]) =>
    el("option", { value: sec, selected: String(sec) === String(keep ? keep.pace : 0.3) }, `${t(`pace_${k}`)} · ${t("paceEvery", { n: sec })}`)));
  fill(H.form,
    el("h2", {}, t("create")),
    el("label", { class: "field" }, el("span", {}, t("preset")), presetSel),
    el("div", { id: "rules", class: "rules" }),
    el("div", { class: "field" }, el("span", {}, t("bots")),
      el("div", { class: "seatpick", id: "seatpick" }, seatPickers(botSel))),
    el("label", { class: "field" }, el("span", {}, t("timer")), timer),
    el("label", { class: "field" }, el("span", {}, t("dealPace")), pace),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "allowhints", checked: keep ? keep.hints : true }), t("allowHints")),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "allowtakeback", checked: keep ? keep.takeBack : false }), t("allowTakeBack")),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "autoplay", checked: keep ? keep.autoPlay : false }), t("allowAutoPlay")),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "publicroom", checked: keep ? keep.pub : false }), t("publicRoom")),
    el("div", { class: "row" }, el("button", { id: "create", onclick: create }, t("go"))),
    el("div", { class: "msg", id: "createmsg", role: "alert" }, H.error || ""));
}

// The table's seats: the rules' `players` (找朋友: 4 to 8; else 4).
function seatsNow() {
  const o = H.schema && H.schema.options ? H.schema.options.find((x) => x.name === "players") : null;
  const n = o ? Number(o.name in H.values ? H.values[o.name] : o.value) : 4;
  return Number.isFinite(n) && n >= 4 && n <= 8 ? n : 4;
}

function friendsNow() {
  const o = H.schema && H.schema.options ? H.schema.options.find((x) => x.name === "friends") : null;
  return !!(o && (o.name in H.values ? H.values[o.name] : o.value));
}

function seatMenu(i, keep) {
  const v = keep && keep.bots[i] !== undefined ? keep.bots[i] : i === 0 ? "" : defaultBot();
  const sel = el("select", { id: `bot${i}`, "aria-label": `${t("seat")} ${i + 1}` },
    el("option", { value: "", selected: v === "" }, t("person")), botOptions(v));
  const desc = el("small", { class: "botdesc muted", id: `botdesc${i}` }, v ? botDescription(v) : "");
  sel.addEventListener("change", () => { desc.textContent = sel.value ? botDescription(sel.value) : ""; });
  return [sel, desc];
}

function seatPickers(botSel) {
  const friends = friendsNow();
  return [...Array(seatsNow()).keys()].map((i) => el("label", {}, el("small", {},
    friends ? `${t("seat")} ${i + 1}` : `${t("seat")} ${i + 1} · ${t(i % 2 ? "teamB" : "teamA")}`), botSel(i)));
}

// The seat menus follow the rules' number of players (what was chosen in each is kept).
function syncSeats() {
  const box = document.getElementById("seatpick");
  const key = `${seatsNow()}|${friendsNow()}`;
  if (!box || box.dataset.key === key) return;
  box.dataset.key = key;
  const keep = readForm();
  fill(box, seatPickers((i) => seatMenu(i, keep)));
}

async function loadSchema(name) {
  H.preset = name;
  H.values = {};
  H.schema = null;
  try {
    const r = await fetch(`/api/presets/${encodeURIComponent(name)}`);
    if (r.ok) {
      const s = await r.json();
      if (H.preset === name && Array.isArray(s.options)) H.schema = s;
    }
  } catch (_) { /* shown below */ }
  renderRules();
  syncSeats();
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function renderRules() {
  const box = document.getElementById("rules");
  if (!box) return;
  const s = H.schema;
  if (!s) { fill(box, el("p", { class: "muted" }, t("rulesUnavailable"))); return; }
  const changed = Object.keys(H.values).length;
  const rows = s.options.map((o) => optionRow(o));
  fill(box,
    el("details", { class: "rulesform", id: "rulesform", open: changed ? true : null },
      el("summary", {}, el("b", {}, t("rulesOf", { preset: presetTitle(s.name) })), " ",
        changed ? el("span", { class: "tag" }, `${changed} ${t("ruleChanged")}`) : null),
      el("p", { class: "about" }, pick(s.about) || s.description, " ", el("small", { class: "muted", id: "seednote" }, t("seedNote", { seed: s.seed }))),
      el("div", { class: "options" }, rows),
      changed ? el("button", { class: "ghost small", id: "resetrules", onclick: () => { H.values = {}; renderRules(); } }, t("unchanged")) : null));
  if (!changed) box.querySelector("details").open = box.dataset.open === "1";
  box.querySelector("details").addEventListener("toggle", (e) => { box.dataset.open = e.target.open ? "1" : "0"; });
}

function current(o) { return o.name in H.values ? H.values[o.name] : o.value; }

function setValue(o, v) {
  if (same(v, o.value)) delete H.values[o.name]; else H.values[o.name] = v;
  const box = document.getElementById("rules");
  box.dataset.open = "1";
  const focused = document.activeElement && document.activeElement.id;
  renderRules();
  syncSeats();
  if (focused) { const f = document.getElementById(focused); if (f) f.focus(); }
}

function optionRow(o) {
  const id = `opt-${o.name}`;
  const v = current(o);
  let control;
  if (o.type === "bool") {
    const box = el("input", { type: "checkbox", id, checked: !!v });
    box.addEventListener("change", () => setValue(o, box.checked));
    control = el("label", { class: "tapbox", for: id }, box); // a touch target of 40 px
  } else if (o.type === "choice") {
    control = el("select", { id }, o.choices.map((c) => el("option", { value: c, selected: String(c) === String(v) }, choiceLabel(o, c))));
    control.addEventListener("change", () => setValue(o, control.value));
  } else if (o.type === "levels") {
    control = el("span", { class: "levels", id, role: "group" }, o.choices.map((c) => {
      const box = el("input", { type: "checkbox", value: c, checked: (v || []).includes(c), "aria-label": c });
      box.addEventListener("change", () => {
        const now = new Set(current(o) || []);
        if (box.checked) now.add(c); else now.delete(c);
        setValue(o, o.choices.filter((x) => now.has(x)));
      });
      return el("label", { class: "lvl" }, box, c);
    }));
  } else {
    const optional = o.type === "optional_int";
    control = el("input", { type: "number", id, min: o.min ?? null, max: o.max ?? null, step: 1,
      value: v === null || v === undefined ? "" : v, placeholder: optional ? t("noLimit") : null, inputmode: "numeric" });
    control.addEventListener("change", () => {
      const raw = control.value.trim();
      if (raw === "" && optional) { setValue(o, null); return; }
      let n = Math.round(Number(raw));
      if (!Number.isFinite(n)) n = o.value;
      if (o.min !== undefined && n < o.min) n = o.min;
      if (o.max !== undefined && n > o.max) n = o.max;
      setValue(o, n);
    });
  }
  const mod = o.name in H.values;
  return el("div", { class: `opt${mod ? " changed" : ""}`, "data-option": o.name },
    el("label", { for: o.type === "levels" ? null : id, class: "olabel" }, pick(o.label)),
    el("span", { class: "octl" }, control),
    el("small", { class: "ohelp" }, pick(o.help)));
}

async function create() {
  const btn = document.getElementById("create");
  btn.disabled = true;
  const bots = [...document.querySelectorAll(".seatpick select")].map((e) => e.value || null);
  const body = {
    preset: H.preset, overrides: { ...H.values }, bots,
    turn_seconds: Number(document.getElementById("timer").value) || 0,
    deal_seconds: Number(document.getElementById("pace").value) || 0.3,
  };
  if (document.getElementById("publicroom").checked) body.public = true;
  if (!document.getElementById("allowhints").checked) body.hints = false;
  if (document.getElementById("allowtakeback").checked) body.take_back = true;
  if (document.getElementById("autoplay").checked) body.auto_play = true;
  const data = await post(body);
  if (data.id) {
    H.error = null;
    H.navigate(data.url || `/room/${data.id}`);
    return;
  }
  H.error = data.error;
  btn.disabled = false;
  fill("createmsg", H.error || "");
}

function renderRooms() {
  const rooms = H.rooms.filter((r) => r.status !== "finished");
  fill(H.list, el("h2", {}, t("publicRooms")),
    rooms.length ? el("ul", { class: "rooms" }, rooms.map((r) => el("li", {},
      el("a", { href: `/room/${r.id}`, onclick: (e) => { e.preventDefault(); H.navigate(`/room/${r.id}`); } }, presetTitle(r.preset)),
      el("span", { class: "muted" }, ` · ${t(`status_${r.status}`)} · ${t("seatsTaken", { n: r.seats.filter((s) => s.kind !== "empty").length, m: r.seats.length })}`),
      el("span", { class: "pips" }, r.seats.map((s) => (s.kind === "empty" ? "○" : s.kind === "bot" ? "◍" : "●")).join(" ")))))
      : el("p", { class: "muted" }, t("noRooms")));
}

export function leaveHome() { H = null; }
