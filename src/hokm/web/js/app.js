// The single-page client: a hash router, the top bar, language and deck settings.
import { clearErrors, h, mount } from "./dom.js";
import { initLang, lang, setLang, t } from "./i18n.js";

const ROUTES = [
  [/^\/?$/, () => import("./pages/home.js")],
  [/^\/room\/([^/]+)$/, () => import("./pages/room.js")],
  [/^\/rules$/, () => import("./pages/rules.js")],
  [/^\/sim$/, () => import("./pages/sim.js")],
  [/^\/advisor$/, () => import("./pages/advisor.js")],
  [/^\/game\/([^/]+?)(\/analysis)?$/, () => import("./pages/replay.js")],
  [/^\/leaderboard$/, () => import("./pages/accounts.js")],
  [/^\/profile(?:\/([^/]+))?$/, () => import("./pages/accounts.js")],
];

const NAV = [
  ["#/", "nav_home"],
  ["#/rules", "nav_rules"],
  ["#/sim", "nav_sim"],
  ["#/advisor", "nav_advisor"],
  ["#/leaderboard", "nav_leaderboard"],
  ["#/profile", "nav_profile"],
];

let current = null; // {page, cleanup, refresh}
let routeSeq = 0;

export function settings() {
  try {
    return JSON.parse(localStorage.getItem("hokm.settings") || "{}");
  } catch {
    return {};
  }
}

function saveSettings(s) {
  try {
    localStorage.setItem("hokm.settings", JSON.stringify(s));
  } catch {
    /* ignore */
  }
}

function applySettings() {
  document.body.classList.toggle("deck4", Boolean(settings().deck4));
}

function renderChrome() {
  document.title = lang() === "fa" ? `${t("app_title")} · Hokm` : "Hokm (حکم)";
  document.getElementById("brand-name").textContent = t("app_title");
  const skip = document.getElementById("skip-link");
  skip.textContent = t("skip_to_main");
  // "#main" would be read as a page address by the router: move the focus instead.
  skip.onclick = (e) => {
    e.preventDefault();
    document.getElementById("main").focus();
  };
  document.getElementById("menu").setAttribute("aria-label", t("menu"));
  const langBtn = document.getElementById("lang");
  langBtn.textContent = t("lang_switch");
  langBtn.setAttribute("aria-label", t("lang_switch_label"));
  langBtn.lang = lang() === "fa" ? "en" : "fa";
  const path = location.hash || "#/";
  const deck4 = h("input", {
    type: "checkbox",
    id: "deck4",
    checked: Boolean(settings().deck4),
    onchange: (e) => {
      saveSettings({ ...settings(), deck4: e.target.checked });
      applySettings();
    },
  });
  mount(
    document.getElementById("nav"),
    h(
      "ul",
      {},
      NAV.map(([href, key]) =>
        h(
          "li",
          {},
          h("a", { href, "aria-current": path === href ? "page" : undefined }, t(key)),
        ),
      ),
      h("li.deck-opt", {}, h("label", {}, deck4, " ", t("four_colour"))),
    ),
  );
}

async function route() {
  const seq = ++routeSeq;
  // The room link /r/CODE arrives as /?room=CODE: turn it into the hash route.
  const params = new URLSearchParams(location.search);
  if (params.get("room")) {
    const code = params.get("room");
    params.delete("room");
    const q = params.toString();
    history.replaceState(null, "", `${location.pathname}${q ? `?${q}` : ""}#/room/${code}`);
  }
  const path = decodeURIComponent((location.hash || "#/").slice(1));
  document.getElementById("nav").classList.remove("open");
  document.getElementById("menu").setAttribute("aria-expanded", "false");
  if (current?.cleanup) current.cleanup();
  current = null;
  clearErrors(); // on another page they speak of what is gone (a name missing before)
  renderChrome();
  const main = document.getElementById("main");
  for (const [re, load] of ROUTES) {
    const m = path.match(re);
    if (!m) continue;
    const mod = await load();
    if (seq !== routeSeq) return;
    const result = (await mod.render(main, m.slice(1), path)) || {};
    if (seq !== routeSeq) {
      if (result.cleanup) result.cleanup();
      return;
    }
    current = result;
    return;
  }
  mount(
    main,
    h("section.page", {}, h("h1", {}, t("not_found")), h("a", { href: "#/" }, t("nav_home"))),
  );
}

function switchLang() {
  setLang(lang() === "fa" ? "en" : "fa");
  if (current?.refresh) {
    renderChrome();
    current.refresh();
  } else {
    route();
  }
}

function start() {
  initLang();
  applySettings();
  document.getElementById("lang").addEventListener("click", switchLang);
  const menu = document.getElementById("menu");
  menu.addEventListener("click", () => {
    const nav = document.getElementById("nav");
    const open = !nav.classList.contains("open");
    nav.classList.toggle("open", open);
    menu.setAttribute("aria-expanded", open ? "true" : "false");
  });
  window.addEventListener("hashchange", route);
  route();
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
