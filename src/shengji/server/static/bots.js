// The bots a room may seat, from GET /api/bots (the server's registry and its operator's
// external bots): loaded once, shown by difficulty ("Easy / 简单", "Normal / 普通",
// "Strong / 强") with their description; other bots by their description. Clients only
// ever send a listed name.

import { el } from "./dom.js";
import { pick, t } from "./i18n.js";

const ORDER = { easy: 0, normal: 1, strong: 2 };
let BOTS = [];
let loading = null;

// The list (fetched once; an empty list when the server cannot be asked).
export function loadBots() {
  if (!loading) {
    loading = fetch("/api/bots")
      .then((r) => (r.ok ? r.json() : []))
      .then((list) => {
        BOTS = (Array.isArray(list) ? list : [])
          .map((b, i) => ({ ...b, i }))
          .sort((a, b) => (ORDER[a.difficulty] ?? 9) - (ORDER[b.difficulty] ?? 9) || a.i - b.i);
        return BOTS;
      })
      .catch(() => { loading = null; return BOTS; });
  }
  return loading;
}

export function botInfo(name) {
  return BOTS.find((b) => b.name === name) || null;
}

// The level of a bot in this language ("Strong" / "强"), or null for a bot without one.
export function botLevel(name) {
  const b = botInfo(name);
  return b && b.difficulty ? t(`level_${b.difficulty}`) : null;
}

// A bot's description in this language (its name when the server does not list it).
export function botDescription(name) {
  const b = botInfo(name);
  return b ? pick(b.description) : name;
}

// A bot's short name in this language ("search bot" / "机器人(搜索)"; its name when unlisted).
export function botName(name) {
  const b = botInfo(name);
  return b && b.label ? pick(b.label) : name;
}

// What a menu shows for a bot: "Strong · search bot", or the description of a bot without a level.
export function botLabel(b) {
  return b.difficulty ? t("botLevel", { level: t(`level_${b.difficulty}`), name: botName(b.name) }) : pick(b.description);
}

// The bot a table gets when nobody chooses: the first "normal" one (else the first listed).
export function defaultBot() {
  const b = BOTS.find((x) => x.difficulty === "normal") || BOTS[0];
  return b ? b.name : "heuristic";
}

// <option>s for every listed bot, `selected` chosen; a seated bot the server no longer
// lists keeps an option of its own.
export function botOptions(selected) {
  const opts = BOTS.map((b) => el("option", { value: b.name, selected: b.name === selected, title: pick(b.description) }, botLabel(b)));
  if (selected && !botInfo(selected)) opts.push(el("option", { value: selected, selected: true }, selected));
  return opts;
}

// The bot of a level ("easy", "normal", "strong"), or the default bot.
export function botOfLevel(level) {
  const b = BOTS.find((x) => x.difficulty === level);
  return b ? b.name : defaultBot();
}
