// Leaderboard and profiles: shown when the server offers the accounts endpoints, else a note.
import { h, mount } from "../dom.js";
import { num, t } from "../i18n.js";
import { api, serverPaths } from "../net.js";

async function findPath(re) {
  return (await serverPaths()).find((p) => re.test(p)) ?? null;
}

export async function render(main, params, path) {
  const isProfile = path.startsWith("/profile");
  const id = params[0];
  const s = { data: null, missing: false, alive: true };

  async function load() {
    if (isProfile) {
      const tpl = await findPath(/^\/api\/(players|profiles|accounts|users)\/\{[^}]+\}$/);
      let target = tpl && id ? tpl.replace(/\{[^}]+\}/, encodeURIComponent(id)) : null;
      if (!target && !id) target = (await findPath(/^\/api\/me$/)) ?? null;
      if (!target) {
        s.missing = true;
        return;
      }
      s.data = await api(target).catch(() => null);
      s.missing = !s.data;
    } else {
      const lb = await findPath(/leaderboard/);
      if (!lb) {
        s.missing = true;
        return;
      }
      s.data = await api(lb).catch(() => null);
      s.missing = !s.data;
    }
  }

  function rows(data) {
    const list = data.leaderboard ?? data.players ?? data.entries ?? data.accounts ?? (Array.isArray(data) ? data : []);
    return list.map((p, i) =>
      h(
        "tr",
        {},
        h("td", {}, num(p.rank ?? i + 1)),
        h("td", {}, p.id || p.account_id ? h("a", { href: `#/profile/${encodeURIComponent(p.id ?? p.account_id)}` }, p.name ?? p.display_name ?? "?") : p.name ?? "?"),
        h("td", {}, num(p.points ?? 0)),
        h("td", {}, p.rating !== undefined && p.rating !== null ? num(Math.round(Number(p.rating))) : "–"),
        h("td", {}, p.tier ?? ""),
      ),
    );
  }

  function draw() {
    if (!s.alive) return;
    const title = isProfile ? t("profile_title") : t("leaderboard_title");
    let content;
    if (s.missing) content = h("p.note#accounts-soon", {}, isProfile ? t("profile_soon") : t("leaderboard_soon"));
    else if (!s.data) content = h("p.loading", {}, t("loading"));
    else if (isProfile) {
      const p = s.data.player ?? s.data.profile ?? s.data.account ?? s.data;
      content = h(
        "dl.rules-list#profile",
        {},
        ["name", "points", "rating", "tier", "games", "wins"].filter((k) => p[k] !== undefined && p[k] !== null).map((k) => [h("dt", {}, t(k === "name" ? "player" : k)), h("dd", {}, typeof p[k] === "number" ? num(Math.round(p[k])) : String(p[k]))]),
      );
    } else {
      content = h(
        "table.lb-table#leaderboard",
        {},
        h("thead", {}, h("tr", {}, [t("rank"), t("player"), t("points"), t("rating"), t("tier")].map((x) => h("th", {}, x)))),
        h("tbody", {}, rows(s.data)),
      );
    }
    mount(main, h("section.page", {}, h("h1", {}, title), h("div.panel", {}, content)));
  }

  draw();
  load().then(draw);
  return { refresh: draw, cleanup: () => { s.alive = false; } };
}
