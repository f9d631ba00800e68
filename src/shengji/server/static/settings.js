// Display settings kept per browser: four-colour suits, card size, card style, where
// trumps sit in the hand, dark mode, reduced motion and the turn sound. Applied as classes
// on <html>, so every page follows them.

import { setSound, soundOn } from "./alert.js";
import { el, fill } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "shengji:settings";
const DEFAULTS = { fourColor: false, cardSize: "normal", trumpsRight: false, dark: false, cardStyle: "classic", reducedMotion: false };
const SIZES = ["small", "normal", "large"];
const STYLES = ["classic", "bold", "plain"];
const listeners = [];

export function settings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { ...DEFAULTS, ...(saved && typeof saved === "object" ? saved : {}) };
  } catch (_) { return { ...DEFAULTS }; }
}

export function onSettings(fn) { listeners.push(fn); }

export function applySettings() {
  const s = settings();
  const c = document.documentElement.classList;
  c.toggle("four-color", !!s.fourColor);
  c.toggle("cards-small", s.cardSize === "small");
  c.toggle("cards-large", s.cardSize === "large");
  c.toggle("trumps-right", !!s.trumpsRight);
  c.toggle("dark", !!s.dark);
  c.toggle("cards-bold", s.cardStyle === "bold");
  c.toggle("cards-plain", s.cardStyle === "plain");
  c.toggle("reduce-motion", !!s.reducedMotion);
}

function change(patch) {
  try { localStorage.setItem(KEY, JSON.stringify({ ...settings(), ...patch })); } catch (_) { /* this page only */ }
  applySettings();
  for (const fn of listeners) fn();
}

function check(id, checked, label, onchange) {
  const box = el("input", { type: "checkbox", id, checked });
  box.addEventListener("change", () => onchange(box.checked));
  return el("label", { class: "check", for: id }, box, el("span", {}, label));
}

let overlay = null;

function onKey(e) { if (e.key === "Escape") closeSettings(); }

export function closeSettings() {
  if (!overlay) return;
  overlay.remove();
  overlay = null;
  document.removeEventListener("keydown", onKey, true);
}

export function openSettings() {
  closeSettings();
  const s = settings();
  const size = el("select", { id: "set-size" }, SIZES.map((v) => el("option", { value: v, selected: s.cardSize === v }, t(`size_${v}`))));
  size.addEventListener("change", () => change({ cardSize: size.value }));
  const order = el("select", { id: "set-order" },
    el("option", { value: "left", selected: !s.trumpsRight }, t("trumpsLeft")),
    el("option", { value: "right", selected: s.trumpsRight }, t("trumpsRight")));
  order.addEventListener("change", () => change({ trumpsRight: order.value === "right" }));
  const style = el("select", { id: "set-style" }, STYLES.map((v) => el("option", { value: v, selected: s.cardStyle === v }, t(`style_${v}`))));
  style.addEventListener("change", () => change({ cardStyle: style.value }));
  overlay = el("div", { class: "overlay", id: "settingsoverlay", onclick: (e) => { if (e.target === overlay) closeSettings(); } });
  fill(overlay, el("div", { class: "dialog settings", role: "dialog", "aria-modal": "true", id: "settingsdialog" },
    el("h3", {}, t("settings")),
    check("set-four", !!s.fourColor, t("fourColor"), (v) => change({ fourColor: v })),
    el("label", { class: "field", for: "set-size" }, el("span", {}, t("cardSize")), size),
    el("label", { class: "field", for: "set-style" }, el("span", {}, t("cardStyle")), style),
    el("label", { class: "field", for: "set-order" }, el("span", {}, t("handOrder")), order),
    check("set-dark", !!s.dark, t("darkMode"), (v) => change({ dark: v })),
    check("set-motion", !!s.reducedMotion, t("reducedMotion"), (v) => change({ reducedMotion: v })),
    check("set-sound", soundOn(), t("turnSound"), (v) => { setSound(v); change({}); }),
    el("p", { class: "muted small" }, t("settingsKept")),
    el("div", { class: "row end" }, el("button", { id: "closesettings", onclick: closeSettings }, t("close")))));
  document.body.append(overlay);
  document.addEventListener("keydown", onKey, true);
  document.getElementById("set-four").focus();
}
