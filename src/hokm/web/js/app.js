// The single-page client: a hash router, the top bar, language, theme and deck settings.
import { clearErrors, focusInView, h, mount, patch } from "./dom.js";
import { initLang, lang, setLang, t } from "./i18n.js";
import { applyTheme, saveSettings, settings, THEMES, themeChoice } from "./settings.js";
import { soundOn } from "./sound.js";

applyTheme(); // first thing (index.html's <head> has already done it, before the first paint)

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


function applySettings() {
  document.body.classList.toggle("deck4", Boolean(settings().deck4));
}

/** The tab's title for the page at ``path``: the page's name, then the site's. */
function pageTitle(path) {
  const named = [
    [/^\/room\/([^/]+)$/, (m) => t("page_room", { code: m[1] })],
    [/^\/rules$/, () => t("nav_rules")],
    [/^\/sim$/, () => t("nav_sim")],
    [/^\/advisor$/, () => t("nav_advisor")],
    [/^\/game\/([^/]+?)(\/analysis)?$/, (m) => t("page_game", { id: m[1] })],
    [/^\/leaderboard$/, () => t("nav_leaderboard")],
    [/^\/profile(?:\/([^/]+))?$/, () => t("nav_profile")],
  ];
  for (const [re, name] of named) {
    const m = path.match(re);
    if (m) return `${name(m)} · ${t("app_title")}`;
  }
  if (/^\/?$/.test(path)) return lang() === "fa" ? `${t("app_title")} · Hokm` : "Hokm (حکم)";
  return `${t("not_found")} · ${t("app_title")}`;
}

function currentPath() {
  return decodeURIComponent((location.hash || "#/").slice(1));
}

function renderChrome() {
  document.title = pageTitle(currentPath());
  document.getElementById("brand-name").textContent = t("app_title");
  const skip = document.getElementById("skip-link");
  skip.textContent = t("skip_to_main");
  // "#main" would be read as a page address by the router: move the focus instead.
  skip.onclick = (e) => {
    e.preventDefault();
    document.getElementById("main").focus();
  };
  document.getElementById("menu").setAttribute("aria-label", t("menu"));
  document.getElementById("nav").setAttribute("aria-label", t("nav_label"));
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
  const sound = h("input", {
    type: "checkbox",
    id: "sound",
    checked: soundOn(),
    onchange: (e) => saveSettings({ ...settings(), sound: e.target.checked }),
  });
  const theme = h(
    "select#theme",
    {
      onchange: (e) => {
        saveSettings({ ...settings(), theme: e.target.value });
        applyTheme();
      },
    },
    THEMES.map((value) =>
      h("option", { value, selected: themeChoice() === value }, t(`theme_${value}`)),
    ),
  );
  // patch, not mount: the link just followed keeps the focus until the page's heading takes it
  patch(
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
      h("li.deck-opt", {}, h("label", {}, sound, " ", t("turn_sound"))),
      h("li.deck-opt", {}, h("label", { for: "theme" }, t("theme")), " ", theme),
    ),
  );
}

/** A page came in place of another: the focus goes to its heading (or <main>), so a keyboard
 * or screen-reader user starts there (it fell to <body> with the nav link rebuilt), unless
 * the page put it somewhere itself (a name field). */
function focusPage(main) {
  const el = document.activeElement;
  if (el && el !== document.body && el !== main && main.contains(el)) return;
  const heading = main.querySelector("h1");
  if (heading && !heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  focusInView(heading || main);
}

let firstRoute = true;

async function route() {
  const seq = ++routeSeq;
  const first = firstRoute; // a page opened (or reloaded) starts at its top, focus untouched
  firstRoute = false;
  // The room link /r/CODE arrives as /?room=CODE: turn it into the hash route.
  const params = new URLSearchParams(location.search);
  if (params.get("room")) {
    const code = params.get("room");
    params.delete("room");
    const q = params.toString();
    history.replaceState(null, "", `${location.pathname}${q ? `?${q}` : ""}#/room/${code}`);
  }
  const path = currentPath();
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
    if (!first) focusPage(main);
    return;
  }
  mount(
    main,
    h("section.page", {}, h("h1", { tabindex: "-1" }, t("not_found")), h("a", { href: "#/" }, t("nav_home"))),
  );
  if (!first) focusPage(main);
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
  // Escape closes the ☰ menu and gives the focus back to its button.
  document.addEventListener("keydown", (e) => {
    const nav = document.getElementById("nav");
    if (e.key !== "Escape" || !nav.classList.contains("open")) return;
    nav.classList.remove("open");
    menu.setAttribute("aria-expanded", "false");
    menu.focus();
  });
  window.addEventListener("hashchange", route);
  route();
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
