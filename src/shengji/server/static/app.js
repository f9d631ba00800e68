// Browser client of the shengji server (protocol v1, docs/protocol.md): plain ES modules,
// no build step, no network beyond this server. The server decides every rule; the client
// shows views and sends commands.

import { homeLangChanged, homePage, leaveHome } from "./home.js";
import { lang, loadServerCatalogue, onLang, setLang, t } from "./i18n.js";
import { replayLangChanged, replayPage, leaveReplay } from "./replay.js";
import { leaveRoom, roomPage } from "./room.js";

const app = document.getElementById("app");
const langBtn = document.getElementById("lang");
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
}

langBtn.addEventListener("click", () => setLang(lang === "zh" ? "en" : "zh"));
onLang(() => {
  labels();
  if (page === "home") homeLangChanged();
  else if (page && page.startsWith("replay:")) replayLangChanged();
});
document.querySelector(".brand").addEventListener("click", (e) => { e.preventDefault(); navigate("/"); });
window.addEventListener("popstate", () => { page = null; route(); });
labels();
loadServerCatalogue();
route();
