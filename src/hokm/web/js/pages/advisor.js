// The trump advisor: five cards → the suit a strong hakem would name, and why (server-side).
import { announce, h, patch, toast } from "../dom.js";
import { lang, num, t } from "../i18n.js";
import { api } from "../net.js";
import { SUITS, SYMBOL, cardEl, sortHand, suitName } from "../cards.js";
import { DECK, picker, shuffled } from "../picker.js";
import { refusal } from "../common.js";

export async function render(main) {
  const state = { chosen: [], advice: null };

  const ask = async () => {
    try {
      state.advice = await api("/api/advisor/trump", { method: "POST", body: { cards: state.chosen } });
    } catch (err) {
      toast(refusal(err), "error");
    }
    draw();
    // Said once, the suggestion and why (the panel, put in the page with its words in it, was
    // a live region not reliably read, and would have read its whole table of scores)
    const adv = state.advice;
    if (adv) announce(`${t("advisor_suggests", { suit: t(`suit_${adv.suit}`) })}. ${adv.reasons?.[lang()] ?? adv.reasons?.en ?? ""}`.trim());
  };

  const toggle = (code) => {
    if (state.chosen.includes(code)) state.chosen = state.chosen.filter((c) => c !== code);
    else if (state.chosen.length < 5) state.chosen = [...state.chosen, code];
    state.advice = null;
    draw();
  };

  const draw = () => {
    const adv = state.advice;
    const max = adv ? Math.max(...Object.values(adv.scores), 0.01) : 1;
    patch(
      main,
      h(
        "section.page.advisor",
        {},
        h("h1", { tabindex: "-1" }, t("advisor_title")),
        h("p", {}, t("advisor_intro")),
        h(
          "div.panel",
          {},
          h("p#advisor-count", {}, t("advisor_pick", { k: state.chosen.length })),
          h("div.hand.chosen", { dir: "ltr", "aria-live": "polite" }, sortHand(state.chosen).map((c) => cardEl(c, { extra: "small" }))),
          h(
            "div.row",
            {},
            h("button.primary#advisor-ask", { type: "button", disabled: state.chosen.length !== 5, onclick: ask }, t("advisor_ask")),
            h(
              "button#advisor-random",
              {
                type: "button",
                onclick: () => {
                  state.chosen = shuffled(DECK).slice(0, 5);
                  ask();
                },
              },
              t("advisor_random"),
            ),
            h("button#advisor-clear", { type: "button", onclick: () => { state.chosen = []; state.advice = null; draw(); } }, t("sim_clear")),
          ),
        ),
        adv
          ? h(
              "div.panel#advice",
              {},
              h("p.advice", {}, h("strong", {}, t("advisor_suggests", { suit: t(`suit_${adv.suit}`) })), " ", h(`span.big.suit-${adv.suit}`, { "aria-hidden": "true" }, SYMBOL[adv.suit])),
              h("p", {}, adv.reasons?.[lang()] ?? adv.reasons?.en ?? ""),
              h(
                "table.scores-table",
                {},
                (adv.ranking || SUITS).map((s) =>
                  h(
                    "tr",
                    {},
                    h("td", {}, suitName(s)),
                    h("td", {}, h("span.bar", { style: `width:${Math.round((adv.scores[s] / max) * 120)}px` })),
                    h("td", {}, num(adv.scores[s].toFixed(2))),
                  ),
                ),
              ),
            )
          : null,
        h("div.panel", {}, picker((code) => ({ pressed: state.chosen.includes(code), taken: state.chosen.length >= 5 && !state.chosen.includes(code) }), toggle, t("advisor_pick", { k: state.chosen.length }))),
      ),
    );
  };
  draw();
  return { refresh: draw };
}
