// What a table plays by, for the people who join it: the preset, every rule the host
// changed (with the preset's own value), the turn timer, whether hints and take-backs
// are allowed, and whether forced plays are made for the players.

import { el } from "./dom.js";
import { pick, presetTitle, t, tn } from "./i18n.js";

const schemas = new Map(); // preset name -> promise of its option schema (or null)

export function presetSchema(name) {
  if (!schemas.has(name)) {
    schemas.set(name, fetch(`/api/presets/${encodeURIComponent(name)}`)
      .then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return schemas.get(name);
}

// A choice of option `o` in words (the schema's label for it, else the value itself).
export function choiceLabel(o, c) {
  return o && o.choice_labels && o.choice_labels[c] ? pick(o.choice_labels[c]) : String(c);
}

function valueText(o, v) {
  if (v === null || v === undefined) return t("noLimit");
  if (o && o.type === "bool") return t(v ? "yes" : "no");
  if (Array.isArray(v)) return v.length ? v.join(" ") : "—";
  return choiceLabel(o, v);
}

// info: { preset, overrides, turn_seconds, hints, take_back, auto_play, paced, deal_seconds, declare_seconds } (a
// room's state or GET /api/rooms/{id});
// schema: the preset's option schema, or null while it loads (options then by name).
export function rulesSummary(info, schema) {
  const byName = new Map(((schema && schema.options) || []).map((o) => [o.name, o]));
  const changed = Object.entries(info.overrides || {}).map(([name, v]) => {
    const o = byName.get(name);
    return el("li", { class: "changed-rule", "data-option": name },
      el("span", {}, o ? pick(o.label) : name, ": "), el("b", {}, valueText(o, v)),
      o ? el("small", { class: "muted" }, ` (${t("presetValue", { v: valueText(o, o.value) })})`) : null);
  });
  const timer = info.turn_seconds ? t("seconds", { n: Math.round(info.turn_seconds) }) : t("timerOff");
  return el("div", { class: "tablerules", id: "tablerules" },
    el("div", {}, el("b", {}, presetTitle(info.preset)), " · ",
      changed.length ? tn("changedRules", changed.length) : t("noChangedRules")),
    changed.length ? el("ul", { class: "changedrules" }, changed) : null,
    el("div", { class: "small", id: "tabletimer" }, `${t("timer")}: `, el("b", {}, timer),
      " · ", t(info.hints === false ? "hintsOff" : "hintsOn"),
      " · ", el("span", { id: "tabletakeback" }, t(info.take_back ? "takeBackOn" : "takeBackOff")),
      info.auto_play ? [" · ", el("span", { id: "tableautoplay" }, t("autoPlayOn"))] : null),
    info.paced ? el("div", { class: "small", id: "tablepace" },
      t("dealPaceLine", { n: info.deal_seconds }), " · ", t("declareLimit", { n: Math.round(info.declare_seconds) })) : null);
}
