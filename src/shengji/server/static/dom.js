// A tiny DOM helper: el("div", {class: "x", onclick: f}, kids...). Null, undefined and
// false kids are skipped (never printed as "null").

export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "value") e.value = v;
    else if (k === "checked" || k === "disabled" || k === "selected") e[k] = !!v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  add(e, kids);
  return e;
}

function add(parent, kids) {
  for (const kid of kids) {
    if (kid === null || kid === undefined || kid === false) continue;
    if (Array.isArray(kid)) add(parent, kid);
    else parent.append(kid.nodeType ? kid : String(kid));
  }
}

// Replace the children of `node` (by id or element) with `kids`.
export function fill(node, ...kids) {
  const e = typeof node === "string" ? document.getElementById(node) : node;
  if (!e) return null;
  e.replaceChildren();
  add(e, kids);
  return e;
}

// Set text only when it changed (keeps selections and avoids layout work).
export function setText(e, text) {
  if (e && e.textContent !== text) e.textContent = text;
}
