// Home: a name, create a room, join by code, quick match, practise against bots.
import { h, mount, toast } from "../dom.js";
import { num, t } from "../i18n.js";
import { api, ensureGuest, hasPath, savedName } from "../net.js";
import { botLevels, defaultLevel, levelLabel, refusal } from "../common.js";

export async function render(main) {
  const state = {
    levels: ["easy", "medium", "hard"],
    quick: null,
    busy: false,
    name: savedName(),
    code: "",
  };

  const draw = () => {
    const nameInput = h("input#name", {
      type: "text",
      maxlength: 24,
      autocomplete: "nickname",
      placeholder: t("name_placeholder"),
      value: state.name,
      required: true,
      oninput: (e) => {
        state.name = e.target.value;
      },
    });
    const codeInput = h("input#code", {
      type: "text",
      maxlength: 12,
      autocapitalize: "characters",
      placeholder: t("code_placeholder"),
      dir: "ltr",
      value: state.code,
      oninput: (e) => {
        state.code = e.target.value;
      },
    });
    const target = h(
      "select#practice-target",
      {},
      [3, 5, 7].map((n) => h("option", { value: n, selected: n === 3 }, num(n))),
    );
    const level = h(
      "select#practice-level",
      {},
      state.levels.map((l) =>
        h("option", { value: l, selected: l === defaultLevel(state.levels) }, levelLabel(l)),
      ),
    );

    const needName = async () => {
      const name = nameInput.value.trim();
      if (!name) {
        toast(t("name_needed"), "error");
        nameInput.focus();
        return null;
      }
      return ensureGuest(name);
    };

    const guarded = (fn) => async (ev) => {
      ev?.preventDefault?.();
      if (state.busy) return;
      state.busy = true;
      try {
        await fn();
      } catch (err) {
        toast(refusal(err), "error");
      } finally {
        state.busy = false;
      }
    };

    const create = guarded(async () => {
      if (!(await needName())) return;
      const data = await api("/api/rooms", { method: "POST", body: {} });
      location.hash = `#/room/${data.code}`;
    });

    const join = guarded(async () => {
      const code = codeInput.value.replace(/\s+/g, "").toUpperCase();
      if (!code) {
        codeInput.focus();
        return;
      }
      if (!(await needName())) return;
      location.hash = `#/room/${code}`;
    });

    const practice = guarded(async () => {
      if (!(await needName())) return;
      const data = await api("/api/rooms", {
        method: "POST",
        body: { rules: { target_points: Number(target.value) } },
      });
      sessionStorage.setItem(
        `hokm.plan.${data.code}`,
        JSON.stringify({ practice: true, level: level.value }),
      );
      location.hash = `#/room/${data.code}`;
    });

    const quick = guarded(async () => {
      if (!(await needName())) return;
      if (!state.quick) {
        toast(t("quick_unavailable"), "error");
        return;
      }
      const data = await api(state.quick, { method: "POST", body: {} });
      const code = data?.code ?? data?.room?.code;
      if (code) location.hash = `#/room/${code}`;
      else toast(t("quick_match_wait"));
    });

    mount(
      main,
      h(
        "section.page.home",
        {},
        h("h1", {}, t("app_title"), " ", h("span.suits", { "aria-hidden": "true" }, "♠ ♥ ♦ ♣")),
        h("p.intro", {}, t("home_intro")),
        h(
          "form.panel",
          { onsubmit: create },
          h("label", { for: "name" }, t("your_name")),
          nameInput,
          h(
            "div.row",
            {},
            h("button.primary#create", { type: "submit" }, t("create_room")),
            h(
              "button#quick",
              {
                type: "button",
                onclick: quick,
                disabled: !state.quick,
                title: state.quick ? undefined : t("quick_unavailable"),
              },
              t("quick_match"),
            ),
          ),
        ),
        h(
          "form.panel",
          { onsubmit: join },
          h("label", { for: "code" }, t("room_code")),
          h("div.row", {}, codeInput, h("button#join", { type: "submit" }, t("join_room"))),
        ),
        h(
          "form.panel",
          { onsubmit: practice },
          h("h2", {}, t("practice")),
          h(
            "div.row",
            {},
            h("label", {}, t("practice_target"), " ", target),
            h("label", {}, t("practice_level"), " ", level),
          ),
          h("button.primary#practice", { type: "submit" }, t("start_practice")),
        ),
        h(
          "nav.links",
          { "aria-label": t("nav_rules") },
          h("a", { href: "#/rules" }, t("nav_rules")),
          h("a", { href: "#/sim" }, t("nav_sim")),
          h("a", { href: "#/advisor" }, t("nav_advisor")),
        ),
      ),
    );
  };

  draw();
  // Features that exist only when the server offers them.
  botLevels().then((levels) => {
    if (levels.length) state.levels = levels;
    hasPath(/quick|match/).then(async (yes) => {
      if (yes) {
        const paths = await import("../net.js").then((m) => m.serverPaths());
        state.quick = paths.find((p) => /quick|match/.test(p) && !p.includes("{")) ?? null;
      }
      if (main.querySelector(".home")) draw();
    });
  });
  return { refresh: draw };
}
