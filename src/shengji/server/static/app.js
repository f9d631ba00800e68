// Browser client of the shengji server (protocol v1, docs/protocol.md): plain ES modules,
// no build step, no network beyond this server. The server decides every rule; the client
// shows views and sends commands.

import { homeLangChanged, homePage, leaveHome } from "./home.js";
import { lang, loadServerCatalogue, onLang, setLang, t } from "./i18n.js";
import { replayLangChanged, replayPage, leaveReplay } from "./replay.js";
import { leaveRoom, roomPage } from "./room.js";
import { applySettings, closeSettings, openSettings } from "./settings.js";

const app = document.getElementById("app");
const langBtn = document.getElementById("lang");
const settingsBtn = document.getElementById("settings");
let page = null;

function navigate(url) {
  history.pushState({}, "", url);
  route();
}

function route() {
  const m = location.pathname.match(/^\/(room|replay)\/([0-9A-Za-z_-]+)/);
  const want = m ? `${m[1]}:${m[2]}` : "home";
  if (want === page) return;
  leaveHome(); leaveRoom(); leaveReplay();
  page = want;
  if (!m) homePage(app, navigate);
  else if (m[1] === "room") roomPage(app, m[2]);
  else replayPage(app, m[2]);
}

function labels() {
  langBtn.textContent = t("langButton");
  langBtn.title = lang === "zh" ? "English" : "中文";
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = t("appTitle");
  document.querySelector(".brand small").textContent = t("brandSub");
  settingsBtn.title = t("settings");
  settingsBtn.setAttribute("aria-label", t("settings"));
}

langBtn.addEventListener("click", () => setLang(lang === "zh" ? "en" : "zh"));
settingsBtn.addEventListener("click", openSettings);
onLang(() => {
  labels();
  closeSettings();
  if (page === "home") homeLangChanged();
  else if (page && page.startsWith("replay:")) replayLangChanged();
});
document.querySelector(".brand").addEventListener("click", (e) => { e.preventDefault(); navigate("/"); });
window.addEventListener("popstate", () => { page = null; route(); });
applySettings();
labels();
loadServerCatalogue();
route();
