// Leaderboard and profiles: shown from the accounts endpoints when the server offers them
// (GET /api/leaderboard, /api/players/{id}, /api/accounts/me), else a note.
import { clearErrors, h, patch, toast } from "../dom.js";
import { has, lang, num, t } from "../i18n.js";
import { api, forgetToken, savedName, saveName, session } from "../net.js";
import { NAME_MAX, ratingDelta, refusal } from "../common.js";

function tierName(tier) {
  if (!tier) return "";
  if (typeof tier === "string") return tier;
  return lang() === "fa" ? tier.persian ?? tier.name : tier.name ?? tier.persian;
}

export async function render(main, params, path) {
  const isProfile = path.startsWith("/profile");
  const id = params[0] ? decodeURIComponent(params[0]) : null;
  const s = { data: null, missing: false, error: null, period: "all", alive: true };

  async function load() {
    s.data = null;
    const me = await session();
    if (!me) {
      s.error = t("offline");
      return;
    }
    if (!me.features.includes("accounts")) {
      s.missing = true;
      return;
    }
    if (isProfile) {
      if (!id && me.player?.kind !== "account") {
        s.error = t("profile_login"); // nobody to show (asking would only be refused)
        return;
      }
      const target = id ? `/api/players/${encodeURIComponent(id)}` : "/api/accounts/me";
      s.data = await api(target).catch((err) => {
        s.error = err.status === 401 ? t("profile_login") : t("not_found");
        return null;
      });
    } else {
      const query = s.period === "rating" ? "by=rating" : `period=${s.period}`;
      s.data = await api(`/api/leaderboard?${query}`).catch(() => null);
      s.missing = !s.data;
    }
  }

  function leaderboard(data) {
    const entries = data.entries ?? data.leaderboard ?? [];
    const byRating = data.by === "rating";
    return [
      h(
        "div.row",
        { role: "group", "aria-label": t("period_label") },
        ["all", "week", "rating"].map((p) =>
          h(
            `button${s.period === p ? ".primary" : ""}`,
            {
              type: "button",
              id: `period-${p}`,
              "aria-pressed": s.period === p ? "true" : "false",
              onclick: async () => {
                s.period = p;
                await load();
                draw();
              },
            },
            t(`period_${p}`),
          ),
        ),
      ),
      // An empty board is a sentence, not the headers of a table with no rows.
      !entries.length ? null : h(
        "table.lb-table#leaderboard",
        {},
        h("thead", {}, h("tr", {}, [t("rank"), t("player"), byRating ? t("rating") : t("points")].map((x) => h("th", {}, x)))),
        h(
          "tbody",
          {},
          entries.map((p) =>
            h(
              "tr",
              { class: data.me?.player_id === p.player_id ? "me" : undefined },
              h("td", {}, num(p.rank)),
              h("td", {}, h("a", { href: `#/profile/${encodeURIComponent(p.player_id)}` }, p.name ?? p.username)),
              // the rating with its tier; a rating still settling says so
              byRating
                ? h("td", {}, num(p.rating), h("span.small", {}, t("sep"), tierName(p.tier), p.provisional ? ` (${t("provisional")})` : ""))
                : h("td", {}, num(p.points)),
            ),
          ),
        ),
      ),
      entries.length ? null : h("p.note#leaderboard-empty", {}, t(byRating ? "rating_board_empty" : s.period === "week" ? "leaderboard_empty_week" : "leaderboard_empty")),
      data.me?.rank
        ? h("p#my-rank", {}, t("rank"), ": ", num(data.me.rank), t("sep"), byRating ? [t("rating"), ": ", num(data.me.rating)] : [t("points"), ": ", num(data.me.points)])
        : data.me && entries.length
          ? h("p.note#my-rank", {}, t(byRating ? "no_rating_yet" : "no_rank_yet")) // logged in, not on the board: said, not left out
          : null,
    ];
  }

  /** One recent game: when, won or lost, the points, rated or not, and a link to its replay
   * (the game's id is no words for a player). */
  function recentGame(g) {
    // a middle dot stays with what follows it (a wrapped line never ends in a lone dot); a
    // comma ends its line naturally
    const SEP = t("sep").startsWith(" ") ? t("sep").replace(/ $/, "\u00a0") : t("sep");
    const at = g.finished_at ? new Date(g.finished_at) : null; // milliseconds
    const when = at
      ? new Intl.DateTimeFormat(lang() === "fa" ? "fa-IR" : "en-GB", { dateStyle: "medium", timeStyle: "short" }).format(at)
      : "";
    const result = has(`game_result_${g.result}`) ? t(`game_result_${g.result}`) : g.result ?? "";
    const kind = [g.quick ? t("quick_match") : null, g.rated ? t("game_rated") : t("game_unrated")];
    return h(
      `li.recent-${g.result ?? "game"}`,
      {},
      h("strong", {}, result),
      // the final score, the player's team first (read right to left in Persian)
      Array.isArray(g.score) && typeof g.seat === "number"
        ? [
            " ",
            // isolated, so the digits do not run into the "+1" after it
            h("bdi.score", { dir: lang() === "fa" ? "rtl" : "ltr" }, `${num(g.score[g.seat % 2])}–${num(g.score[1 - (g.seat % 2)])}`),
          ]
        : null,
      // "+1" kept together left to right (in a Persian line the plus sign went after the digit)
      g.points
        ? [SEP, h("bdi", { dir: "ltr" }, `+${num(g.points)}`), " ", t(g.points === 1 ? "point_word" : "points_word")]
        : g.result === "won"
          ? // a won game earns every winner a point unless they took hints or left most of
            // their decisions to the bot (a leaver's result is "left")
            [SEP, h("span.no-points", {}, t("won_with_hints"))]
          : null,
      SEP,
      h("span.small", {}, kind.filter(Boolean).join(t("list_sep"))),
      // a rated game: how far it moved the rating ("rating 1500 to 1488 (−12)")
      Array.isArray(g.rating_change)
        ? [SEP, h("span.small.rating-move", {}, t("rating_move", { before: num(g.rating_change[0]), after: num(g.rating_change[1]) }), " (", ratingDelta(g.rating_change), ")")]
        : null,
      at ? [SEP, h("time", { datetime: at.toISOString() }, when)] : null,
      SEP,
      h("a", { href: `#/game/${encodeURIComponent(g.game_id)}` }, t("replay")),
    );
  }

  /** "provisional: 7 more rated games" — a new account's rating starts at 0 and settles. */
  function provisionalText(p) {
    const left = p.provisional_games_left;
    return typeof left === "number" && left > 0 ? t("provisional_left", { n: left }) : t("provisional");
  }

  /** The rating with what it means while it settles; before the first rated game no number
   * at all (the 0 a new account starts from read as a broken page). */
  function ratingText(p) {
    if (p.rating === undefined) return null;
    if (p.rated_games === 0) return t("unrated");
    return `${num(Math.round(p.rating))}${p.provisional ? ` (${provisionalText(p)})` : ""}`;
  }

  function profile(p) {
    const name = p.player?.name ?? p.name;
    const rows = [
      [t("player"), name],
      // the username only when it is not the name already shown
      [t("username"), p.username !== name ? p.username : null],
      [t("rating"), ratingText(p)],
      [t("tier"), tierName(p.tier)],
      [t("points"), p.points !== undefined ? num(p.points) : null],
      [t("games_played"), p.games_played !== undefined ? num(p.games_played) : null],
      [t("games_won"), p.games_won !== undefined ? num(p.games_won) : null],
    ].filter(([, v]) => v !== null && v !== undefined && v !== "");
    const recent = p.recent_games ?? [];
    return [
      h("dl.rules-list#profile", {}, rows.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
      recent.length
        ? [
            h("h2", {}, t("recent_games")),
            h(
              "ul#recent-games",
              {},
              recent.map((g) => recentGame(g)),
            ),
          ]
        : h("p.note#no-games", {}, t("no_games_yet")),
      id ? null : nameForm(name), // one's own profile: the name shown at tables,
      id ? null : passwordForm(), // the password
      id ? null : deleteForm(), // … and the account deleted
    ];
  }

  /** Change the display name (the server renames the player in the rooms it sits in too). */
  function nameForm(current) {
    return h(
      "details.panel#name-box",
      {},
      h("summary", {}, t("change_name")),
      h(
        "form#name-form",
        {
          onsubmit: async (e) => {
            e.preventDefault();
            const field = document.getElementById("new-name");
            clearErrors();
            if (field.value.trim() === current) return; // nothing to change (it said "renamed")
            let data;
            try {
              data = await api("/api/accounts/me", { method: "PATCH", body: { name: field.value } });
            } catch (err) {
              toast(refusal(err), "error", { about: "name" });
              return;
            }
            const name = data.player?.name ?? data.name;
            // A name this browser keeps for its guest follows the account's (as a deletion clears it).
            if (savedName() === current) saveName(name);
            s.data = data;
            draw();
            toast(t("name_changed", { name }), "info", { about: "name" });
          },
        },
        h("label", { for: "new-name" }, t("new_name")),
        h("input", { id: "new-name", type: "text", autocomplete: "nickname", maxlength: NAME_MAX, value: current ?? "", dir: "auto" }),
        h("p.small", {}, t("change_name_hint")),
        h("button.primary#change-name", { type: "submit" }, t("change_name")),
      ),
    );
  }

  /** Change the password (the old one is needed; the server logs out the other sessions). */
  function passwordForm() {
    const field = (fid, label, autocomplete) => [
      h("label", { for: fid }, label),
      // (no minlength: the browser would refuse in its own language; the server says it in ours)
      h("input", { id: fid, type: "password", autocomplete, maxlength: 256 }),
    ];
    return h(
      "details.panel#password-box",
      {},
      h("summary", {}, t("change_password")),
      h(
        "form#password-form",
        {
          onsubmit: async (e) => {
            e.preventDefault();
            const old = document.getElementById("old-password");
            const fresh = document.getElementById("new-password");
            clearErrors();
            try {
              await api("/api/accounts/password", { method: "POST", body: { old_password: old.value, new_password: fresh.value } });
            } catch (err) {
              toast(refusal(err), "error");
              return;
            }
            old.value = "";
            fresh.value = "";
            document.getElementById("password-box").open = false;
            toast(t("password_changed"));
          },
        },
        field("old-password", t("old_password"), "current-password"),
        field("new-password", t("new_password"), "new-password"),
        h("p.small", {}, t("new_password_hint")),
        h("button.primary#change-password", { type: "submit" }, t("change_password")),
      ),
    );
  }

  /** Delete the account for good (the password is needed; every session of it ends). */
  function deleteForm() {
    return h(
      "details.panel#delete-box",
      {},
      h("summary", {}, t("delete_account")),
      h(
        "form#delete-form",
        {
          onsubmit: async (e) => {
            e.preventDefault();
            const password = document.getElementById("delete-password");
            clearErrors();
            try {
              await api("/api/accounts/me", { method: "DELETE", body: { password: password.value } });
            } catch (err) {
              toast(refusal(err), "error");
              return;
            }
            forgetToken();
            // The name went with the account: a guest on this browser starts with none.
            const name = s.data?.player?.name;
            if (name && savedName() === name) saveName("");
            toast(t("account_deleted"));
            location.hash = "#/";
          },
        },
        h("p.small#delete-warning", {}, t("delete_account_warning")),
        h("label", { for: "delete-password" }, t("password")),
        h("input", { id: "delete-password", type: "password", autocomplete: "current-password", maxlength: 256 }),
        h("button.danger#delete-account", { type: "submit" }, t("delete_account_confirm")),
      ),
    );
  }

  function draw() {
    if (!s.alive) return;
    const title = isProfile ? t("profile_title") : t("leaderboard_title");
    let content;
    if (s.missing) content = h("p.note#accounts-soon", {}, isProfile ? t("profile_soon") : t("leaderboard_soon"));
    else if (s.error) content = h("p.note#profile-error", {}, s.error, " ", h("a", { href: "#/" }, t("nav_home")));
    else if (!s.data) content = h("p.loading", {}, t("loading"));
    else content = isProfile ? profile(s.data) : leaderboard(s.data);
    patch(main, h("section.page", {}, h("h1", { tabindex: "-1" }, title), h("div.panel", {}, content)));
  }

  draw();
  load().then(draw);
  return { refresh: draw, cleanup: () => { s.alive = false; } };
}
