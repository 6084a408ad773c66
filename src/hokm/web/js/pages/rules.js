// The rules page: Persian and English text of RULES.md §1–9; the active language first.
import { h, patch } from "../dom.js";
import { lang, t } from "../i18n.js";
import { RULES_EN, RULES_FA } from "../rules_text.js";

export async function render(main) {
  let shown = lang();
  const draw = () => {
    const body = h("div.rules-body", { lang: shown, dir: shown === "fa" ? "rtl" : "ltr" });
    body.innerHTML = shown === "fa" ? RULES_FA : RULES_EN; // static, trusted text
    patch(
      main,
      h(
        "section.page.rules-page",
        {},
        h("h1", { tabindex: "-1" }, t("rules_title")),
        h(
          "div.lang-tabs",
          { role: "group", "aria-label": t("rules_lang_label") },
          h("button#rules-fa", { type: "button", "aria-pressed": shown === "fa" ? "true" : "false", lang: "fa", onclick: () => { shown = "fa"; draw(); } }, "فارسی"),
          h("button#rules-en", { type: "button", "aria-pressed": shown === "en" ? "true" : "false", lang: "en", onclick: () => { shown = "en"; draw(); } }, "English"),
        ),
        h("div.panel", {}, body),
      ),
    );
  };
  draw();
  return {
    refresh: () => {
      shown = lang();
      draw();
    },
  };
}
